//! `audit FILE.parquet`: one game per row, the layout of the Lichess dataset
//! on Hugging Face. The findings of a Parquet file equal those of the same
//! games as PGN, field by field (but for where a game stands in its file:
//! `file`, `offset`, `line`, `game_id`), with `game` the row's index. The
//! Parquet files are written by pyarrow (`tests/hf_parquet.py`), as the
//! dataset's are.
//!
//! Built with `--features parquet` only (see `main.rs`).

use std::path::Path;

use crate::util::{self, bin, root, Needs};
use serde_json::Value;

fn findings(path: &Path) -> Vec<Value> {
    util::audit_path(path, &[])
}

/// Writes `pgn`'s games as Parquet (and the same games as PGN beside it).
fn hf_parquet(pgn: &Path, dir: &Path, extra: &[&str]) -> std::path::PathBuf {
    let parquet = dir.join("games.parquet");
    let out = util::python()
        .arg(root().join("tests/hf_parquet.py"))
        .arg(pgn)
        .arg(&parquet)
        .args(extra)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    parquet
}

fn assert_same_findings(parquet: &Path) -> usize {
    let rows = findings(parquet);
    let games = findings(&parquet.with_extension("parquet.pgn"));
    assert_eq!(rows.len(), games.len());
    for (row, game) in rows.iter().zip(&games) {
        let (row, game) = (row.as_object().unwrap(), game.as_object().unwrap());
        for (field, value) in game {
            if ["file", "offset", "line", "game_id"].contains(&field.as_str()) {
                continue;
            }
            assert_eq!(
                row.get(field),
                Some(value),
                "{field}: {row:?} against {game:?}"
            );
        }
        assert_eq!(row["file"], parquet.to_str().unwrap());
    }
    rows.len()
}

#[test]
fn a_parquet_file_gives_the_findings_of_the_same_games_as_pgn() {
    if !Needs::test().python(&["pyarrow"]).met() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let sample = root().join("data/lichess-2000.pgn");
    assert!(assert_same_findings(&hf_parquet(&sample, dir.path(), &[])) > 0);
    if Needs::check("the shared Lichess file")
        .shared("data/online-lichess.pgn.zst")
        .met()
    {
        let text = std::process::Command::new("zstd")
            .arg("-dc")
            .arg(util::shared().join("data/online-lichess.pgn.zst"))
            .output()
            .unwrap();
        let pgn = dir.path().join("lichess.pgn");
        std::fs::write(&pgn, text.stdout).unwrap();
        let sub = dir.path().join("shared");
        std::fs::create_dir(&sub).unwrap();
        assert!(assert_same_findings(&hf_parquet(&pgn, &sub, &[])) > 20);
    }
}

#[test]
fn a_parquet_file_without_movetext_is_named_with_what_it_lacks() {
    if !Needs::test().python(&["pyarrow"]).met() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let sample = root().join("data/lichess-2000.pgn");
    let parquet = hf_parquet(&sample, dir.path(), &["--no-movetext"]);
    let out = bin()
        .args(["audit", "--quiet", "--jsonl", "-"])
        .arg(&parquet)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("games.parquet") && err.contains("no `movetext` column"),
        "{err}"
    );
    // Read from a stream, a Parquet file cannot be read (its footer is at
    // the end): said so, not read as PGN.
    let out = bin()
        .args(["audit", "--quiet", "--jsonl", "-", "-"])
        .stdin(std::fs::File::open(&parquet).unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Parquet is read from a file"));
}
