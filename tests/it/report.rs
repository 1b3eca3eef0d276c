//! The statistics aggregate splits as an archive does: `report` over the
//! aggregates of parts equals `--report-json` of one run over the whole,
//! every key but `run` (sorted keys), and its figures are the summary's.

use std::path::{Path, PathBuf};

use crate::util::{self, bin, root, Needs};
use serde_json::Value;

/// `audit --report-json` over `paths`: the aggregate.
fn aggregate(dir: &Path, name: &str, paths: &[PathBuf], extra: &[&str]) -> PathBuf {
    let out = dir.join(name);
    let run = bin()
        .args(["audit", "--quiet", "--report-json"])
        .arg(&out)
        .args(extra)
        .args(paths)
        .output()
        .unwrap();
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    out
}

fn read(p: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

fn without_run(mut v: Value) -> Value {
    v.as_object_mut().unwrap().remove("run");
    v
}

/// Merges the parts with `report` and compares with the whole.
fn merge_equals_whole(dir: &Path, parts: &[Vec<PathBuf>], extra: &[&str]) -> Value {
    let all: Vec<PathBuf> = parts.iter().flatten().cloned().collect();
    let whole = aggregate(dir, "whole.json", &all, extra);
    let mut cmd = bin();
    cmd.arg("report");
    for (i, part) in parts.iter().enumerate() {
        cmd.arg(aggregate(dir, &format!("part{i}.json"), part, extra));
    }
    let merged = dir.join("merged.json");
    let run = cmd.arg("--json").arg(&merged).output().unwrap();
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let (w, m) = (read(&whole), read(&merged));
    assert_eq!(m["run"].as_array().unwrap().len(), parts.len());
    assert_eq!(
        without_run(m),
        without_run(w.clone()),
        "the merge differs from the whole"
    );
    w
}

#[test]
fn parts_of_the_bundled_data_merge_into_the_whole() {
    let dir = tempfile::tempdir().unwrap();
    let data = root().join("data");
    let parts = vec![
        vec![data.join("twic-2000.pgn.zst")],
        vec![data.join("lichess-2000.pgn")],
    ];
    let w = merge_equals_whole(dir.path(), &parts, &["--threads", "2"]);
    // the figures are the summary's
    assert_eq!(w["games"]["read"], 4000);
    assert_eq!(w["kinds"]["missed_threefold"]["games"], 73);
    let outcomes = &w["kinds"]["missed_threefold"]["outcome"];
    let sum: u64 = outcomes
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(sum, 73);
    assert_eq!(outcomes["lost"], 10);
    // every breakdown accounts for every game judged
    for (dim, buckets) in w["by"].as_object().unwrap() {
        let games: u64 = buckets
            .as_object()
            .unwrap()
            .values()
            .map(|b| b["games"].as_u64().unwrap())
            .sum();
        assert_eq!(games, 4000, "{dim}");
        let claims: u64 = buckets
            .as_object()
            .unwrap()
            .values()
            .map(|b| b["kinds"]["missed_threefold"].as_u64().unwrap_or(0))
            .sum();
        assert_eq!(claims, 73, "{dim}");
    }
    // Lichess's 2016 games are blitz and bullet, TWIC's classical
    assert!(w["by"]["time_control"]["blitz"]["games"].as_u64().unwrap() > 0);
    assert_eq!(w["by"]["year"]["2016"]["games"], 2000);
    // players: every missed claim has its claimant, and the losses add up
    let players = w["players"].as_object().unwrap();
    let missed: u64 = players
        .values()
        .map(|p| p["missed"].as_u64().unwrap())
        .sum();
    let lost: u64 = players
        .values()
        .map(|p| p["lost_after_missed"].as_u64().unwrap())
        .sum();
    assert_eq!((missed, lost), (73, 10));
    // the time control x rating cross-table accounts for every game
    let cross: u64 = w["by"]["time_control_rating"]
        .as_object()
        .unwrap()
        .values()
        .map(|b| b["games"].as_u64().unwrap())
        .sum();
    assert_eq!(cross, 4000);
    // points: the two TWIC events of at most 64 players keep standings,
    // the two Titled Tuesdays are larger; no result in data/ is corrected
    // and no name joined, so no event's standings are written
    assert_eq!(w["points_events"], 2);
    assert_eq!(w["points_untracked_events"], 2);
    assert_eq!(w["points"], serde_json::json!({}));
    // examples: the first five in input order (TWIC came first here)
    let ex = w["examples"]["missed_threefold"].as_array().unwrap();
    assert_eq!(ex.len(), 5);
    assert!(ex
        .iter()
        .all(|e| e["file"].as_str().unwrap().ends_with("twic-2000.pgn.zst")));
    let games: Vec<u64> = ex.iter().map(|e| e["game"].as_u64().unwrap()).collect();
    assert!(games.windows(2).all(|w| w[0] < w[1]), "{games:?}");
    // a file that is not an aggregate is an error naming it
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{}").unwrap();
    let run = bin().arg("report").arg(&bad).output().unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("bad.json"));
}

/// The test: the shared corpus cut into three parts.
#[test]
fn the_shared_corpus_in_three_parts_merges_into_the_whole() {
    if !Needs::test().shared("data").met() {
        return;
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(util::shared().join("data"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".pgn.zst"))
        .collect();
    files.sort();
    assert!(files.len() >= 7);
    let parts: Vec<Vec<PathBuf>> = vec![
        files[..2].to_vec(),
        files[2..5].to_vec(),
        files[5..].to_vec(),
    ];
    let dir = tempfile::tempdir().unwrap();
    // chess.com's games copied into pgnmentor fall into two parts: a merge
    // keeps such repeats counted, so the counts equal the whole's where
    // repeats count each time
    let w = merge_equals_whole(dir.path(), &parts, &["--duplicates", "all"]);
    assert_eq!(w["games"]["read"], 396_906);
    // Art. 11: the proven wrong results are listed per event, each with the
    // result the Laws give (a checkmate, a fivefold or an unwinnable flag)
    let corrections: Vec<&Value> = w["points"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|e| e["corrections"].as_array().into_iter().flatten())
        .collect();
    assert!(corrections.len() >= 20, "{}", corrections.len());
    assert!(corrections.iter().all(|c| c["recorded"] != c["laws"]));
}

/// `audit --html` and `report --html` over the parts write pages with the
/// same figures.
#[test]
fn html_from_the_audit_and_from_merged_parts_show_the_same_figures() {
    let dir = tempfile::tempdir().unwrap();
    let data = root().join("data");
    let whole = dir.path().join("whole.html");
    let run = bin()
        .args(["audit", "--quiet", "--html"])
        .arg(&whole)
        .arg(data.join("lichess-2000.pgn"))
        .arg(data.join("twic-2000.pgn.zst"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0));
    let a = aggregate(dir.path(), "a.json", &[data.join("lichess-2000.pgn")], &[]);
    let b = aggregate(dir.path(), "b.json", &[data.join("twic-2000.pgn.zst")], &[]);
    let merged = dir.path().join("merged.html");
    let run = bin()
        .arg("report")
        .arg(&a)
        .arg(&b)
        .arg("--html")
        .arg(&merged)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0));
    // every data-figure element and its text, in order
    let figures = |p: &Path| -> Vec<String> {
        let html = std::fs::read_to_string(p).unwrap();
        html.split("data-figure=\"")
            .skip(1)
            .map(|s| s.split('<').next().unwrap().to_string())
            .collect()
    };
    let (w, m) = (figures(&whole), figures(&merged));
    assert!(w.len() > 50, "{} figures", w.len());
    assert!(
        w.iter()
            .any(|f| f.starts_with("games.read\"") && f.ends_with(">4,000")),
        "{w:?}"
    );
    assert_eq!(w, m);
}

/// `report a.json b.json` with no output option printed nothing
/// and exited 0. It prints the human summary of the merged aggregate: the
/// games and each kind's count as the audit of the whole counts them.
#[test]
fn report_with_no_output_option_prints_the_human_summary_of_the_merge() {
    let dir = tempfile::tempdir().unwrap();
    let data = root().join("data");
    let a = aggregate(dir.path(), "a.json", &[data.join("lichess-2000.pgn")], &[]);
    let b = aggregate(dir.path(), "b.json", &[data.join("twic-2000.pgn.zst")], &[]);
    let out = bin().arg("report").arg(&a).arg(&b).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("2 runs merged, over 2 inputs\n"), "{text}");
    let whole = read(&aggregate(dir.path(), "w.json", &[data], &[]));
    let games = whole["games"]["read"].as_u64().unwrap();
    assert!(
        text.contains(&format!(
            "{} games read: ",
            pgn_arbiter::text::thousands(games)
        )),
        "{text}"
    );
    for (kind, c) in whole["kinds"].as_object().unwrap() {
        let n = pgn_arbiter::text::thousands(c["games"].as_u64().unwrap());
        let row = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(kind.as_str()))
            .unwrap_or_else(|| panic!("no row for {kind}: {text}"));
        assert!(
            row.split_whitespace().any(|w| w == n),
            "{kind}: {n} in {row}"
        );
    }
}

/// An aggregate written to a file keeps what a merge needs per game in a
/// binary file beside it, so the JSON stays small; a merge reads it back,
/// and names it when it is gone; a stream or `/dev/null` gets no file
/// beside it.
#[test]
fn the_games_for_merging_go_beside_the_json_and_a_missing_file_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let sample = root().join("data").join("lichess-2000.pgn");
    let agg = dir.path().join("a.json");
    let run = bin()
        .args(["audit", "--quiet", "--report-json"])
        .arg(&agg)
        .arg(&sample)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0));
    let json = std::fs::read(&agg).unwrap();
    let v: Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(v["duplicates"]["ids_beside"], true);
    assert!(v["duplicates"].get("ids").is_none());
    assert!(json.len() < 100_000, "{} bytes", json.len());
    let ids = std::fs::read(dir.path().join("a.json.ids")).unwrap();
    assert!(ids.starts_with(b"pgn-arbiter ids 3\n"));
    // about 90 bytes a game: what the duplicate finder compares, and
    // the game's share of the counts (names, event, findings)
    assert!(
        (2_000 * 60..2_000 * 120).contains(&ids.len()),
        "{}",
        ids.len()
    );
    // to stdout, the merge carries them inline
    let out = bin()
        .args(["report", "--json", "-"])
        .arg(&agg)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let merged: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        merged["duplicates"]["ids"][0]["games"]
            .as_str()
            .unwrap()
            .len()
            > 2_000 * 40
    );
    assert!(merged["duplicates"].get("ids_beside").is_none());
    // gone: the merge fails and names it
    std::fs::remove_file(dir.path().join("a.json.ids")).unwrap();
    let out = bin()
        .args(["report", "--json", "-"])
        .arg(&agg)
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("a.json.ids"), "{err}");
    // nothing is written beside /dev/null
    let run = bin()
        .args(["audit", "--quiet", "--report-json", "/dev/null"])
        .arg(&sample)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0));
    assert!(!Path::new("/dev/null.ids").exists());
}
