//! `audit --parquet` as a data pipeline meets it: the file read back by
//! pyarrow holds, row for row, what the `--jsonl` of the same run says (the
//! same fields in the same order, the same values and types, null where a
//! line has no field), and DuckDB counts the same findings per kind
//! (`tests/check_parquet.py`). An output that cannot be written is an
//! error naming it (exit 2), never a panic.
//!
//! The read-back needs python with pyarrow and duckdb; the corpus file
//! needs the shared corpus (`../shared/` or `PGN_ARBITER_SHARED`). Without
//! them it is skipped with a `SKIPPED` line (see `util::Needs`), or fails
//! when `PGN_ARBITER_REQUIRE_ALL` is set.
//!
//! Built with `--features parquet` only (see `main.rs`).

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::util::{self, bin, root, shared, text, Needs};

const MODULES: [&str; 2] = ["pyarrow", "duckdb"];

/// One game per kind of finding and field: a missed claim announced, a
/// fivefold, a mate scored as a draw, a dead position lost on time
/// (unwinnable), an illegal move, an illegal FEN (`move` null), a game
/// without tags, and extra tags for `--tags`.
const EVERY_KIND: &str = "[Event \"m\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\
[Annotator \"x\"]\n[kind \"a tag named as a field\"]\n\n\
1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 1-0\n\n\
[Event \"5\"]\n[White \"C\"]\n[Black \"D\"]\n[Date \"2019.01.01\"]\n[Result \"0-1\"]\n\n\
1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 9. e4 0-1\n\n\
[Event \"w\"]\n[White \"E\"]\n[Black \"F\"]\n[Result \"1/2-1/2\"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2\n\n\
[Event \"f\"]\n[White \"G\"]\n[Black \"H\"]\n[Result \"1-0\"]\n[SetUp \"1\"]\n\
[FEN \"8/8/8/4k3/8/8/8/4KN2 w - - 0 1\"]\n[Termination \"Time forfeit\"]\n\n1. Kf2 Kd4 1-0\n\n\
[Event \"i\"]\n[White \"I\"]\n[Black \"J\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n\n\
[Event \"s\"]\n[Site \"FICS freechess.org\"]\n[White \"K\"]\n[Black \"L\"]\n[Result \"1/2-1/2\"]\n\n\
1. e4 e5 {Neither player has mating material} 1/2-1/2\n\n\
[Event \"x\"]\n[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n\n\
1. f3 e5 2. g4 Qh4# 1-0\n\n";

fn audit(args: &[&str], paths: &[PathBuf]) -> Output {
    bin()
        .arg("audit")
        .arg("--quiet")
        .args(args)
        .args(paths)
        .output()
        .unwrap()
}

/// Audits `paths` with `--jsonl` and `--parquet` in one run (and `extra`),
/// and has check_parquet.py compare the two files; returns its report.
fn audit_and_check(paths: &[PathBuf], extra: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let jsonl = dir.path().join("f.jsonl");
    let parquet = dir.path().join("f.parquet");
    let mut args = vec!["--jsonl", path_str(&jsonl), "--parquet", path_str(&parquet)];
    args.extend_from_slice(extra);
    let run = audit(&args, paths);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let mut cmd = util::python();
    cmd.arg(root().join("tests/check_parquet.py"))
        .arg(&jsonl)
        .arg(&parquet);
    if extra.contains(&"all") {
        cmd.arg("--map");
    }
    let out = cmd.output().unwrap();
    let report = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(
        out.status.success(),
        "check_parquet.py {extra:?}:\n{report}"
    );
    report
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 temporary path")
}

/// The rows of a report line "N rows in ...".
fn rows(report: &str) -> u64 {
    report
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no row count in {report}"))
}

#[test]
fn bundled_samples_read_back_equal_to_the_jsonl() {
    if !Needs::test().python(&MODULES).met() {
        return;
    }
    let paths = [
        root().join("data/lichess-2000.pgn"),
        root().join("data/twic-2000.pgn.zst"),
    ];
    for extra in [
        &[][..],
        &["--tags", "all"],
        &["--tags", "Opening,EventDate"],
    ] {
        let report = audit_and_check(&paths, extra);
        assert!(rows(&report) >= 70, "{report}");
    }
}

#[test]
fn every_kind_of_finding_reads_back_equal_to_the_jsonl() {
    if !Needs::test().python(&MODULES).met() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("every.pgn");
    std::fs::write(&pgn, EVERY_KIND).unwrap();
    for extra in [
        &[][..],
        &["--tags", "all"],
        &["--tags", "Annotator,SetUp,kind,Annotator"],
    ] {
        let report = audit_and_check(std::slice::from_ref(&pgn), extra);
        for kind in [
            "missed_threefold",
            "fivefold",
            "wrong_result",
            "dead_position",
            "unwinnable_flag",
            "invalid_game",
            "site_rule",
        ] {
            assert!(report.contains(&format!("'{kind}'")), "{kind}: {report}");
        }
    }
}

#[test]
fn a_run_without_findings_writes_a_readable_file_with_no_rows() {
    if !Needs::test().python(&MODULES).met() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("clean.pgn");
    std::fs::write(
        &pgn,
        "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n",
    )
    .unwrap();
    let report = audit_and_check(&[pgn], &[]);
    assert_eq!(rows(&report), 0, "{report}");
}

#[test]
fn shared_corpus_lichess_reads_back_equal_to_the_jsonl() {
    if !Needs::test()
        .shared("data/online-lichess.pgn.zst")
        .python(&MODULES)
        .met()
    {
        return;
    }
    let paths = [shared().join("data/online-lichess.pgn.zst")];
    for extra in [&[][..], &["--tags", "all"]] {
        let report = audit_and_check(&paths, extra);
        assert!(rows(&report) > 0, "{report}");
    }
}

/// A file that cannot be created or written: exit 2 and one line naming
/// the option and the file.
#[test]
fn an_output_that_cannot_be_written_is_an_error_naming_it() {
    let sample = [root().join("data/lichess-2000.pgn")];
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no/such/dir/f.parquet");
    let mut outputs = vec![path_str(&missing).to_string()];
    if Path::new("/dev/full").exists() {
        outputs.push("/dev/full".to_string());
    }
    for out in &outputs {
        let run = audit(&["--parquet", out], &sample);
        let stderr = text(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{out}: {stderr}");
        assert!(
            stderr.starts_with(&format!("pgn-arbiter: --parquet {out}: ")),
            "{stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn parquet_and_jsonl_cannot_both_write_to_stdout() {
    let run = audit(
        &["--parquet", "-", "--jsonl", "-"],
        &[root().join("data/lichess-2000.pgn")],
    );
    assert_eq!(run.status.code(), Some(2));
    assert!(
        text(&run.stderr).contains("--parquet"),
        "{}",
        text(&run.stderr)
    );
    assert!(run.stdout.is_empty());
}
