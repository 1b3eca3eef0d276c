//! The binary on real data: every file of `../shared/data/` and of its
//! `edge/` folder runs, accounts for every game, prints whole JSON lines,
//! and gives the same output whatever the thread count and chunk size; and
//! the findings equal those of the independent reference
//! (`../shared/tools/oracle.py`, python-chess) on a sample of files.
//!
//! Each test needs the shared corpus (`../shared/` or `PGN_ARBITER_SHARED`)
//! and some python: without them it is skipped with a `SKIPPED` line (see
//! `util::Needs`), or fails when `PGN_ARBITER_REQUIRE_ALL` is set.

use crate::util::{self, bin, shared, Needs};
use std::path::{Path, PathBuf};

struct Run {
    code: i32,
    jsonl: Vec<u8>,
    summary: serde_json::Value,
    stderr: String,
}

fn audit(paths: &[&Path], extra: &[&str]) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let jsonl = dir.path().join("f.jsonl");
    let summary = dir.path().join("s.json");
    let out = bin()
        .arg("audit")
        .args(paths)
        .arg("--jsonl")
        .arg(&jsonl)
        .arg("--summary-json")
        .arg(&summary)
        .arg("--quiet")
        .args(extra)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "panic on {paths:?}: {stderr}");
    Run {
        code: out.status.code().unwrap_or(-1),
        jsonl: std::fs::read(&jsonl).unwrap_or_default(),
        summary: serde_json::from_slice(&std::fs::read(&summary).unwrap()).unwrap(),
        stderr,
    }
}

/// Every line is one whole JSON object with the SPEC's fields.
fn check_lines(jsonl: &[u8]) -> usize {
    let text = std::str::from_utf8(jsonl).expect("JSON Lines are UTF-8");
    assert!(
        text.is_empty() || text.ends_with('\n'),
        "last line is whole"
    );
    let mut n = 0;
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("each line is JSON");
        for field in [
            "file",
            "game",
            "game_id",
            "offset",
            "line",
            "kind",
            "article",
            "ply",
            "move_number",
            "side",
            "fen",
            "occurrences",
            "schema_version",
            "edition",
            "White",
            "Black",
            "Date",
            "Result",
            "Site",
        ] {
            assert!(v.get(field).is_some(), "{field} missing in {line}");
        }
        n += 1;
    }
    n
}

fn check_accounting(summary: &serde_json::Value) {
    for input in summary["inputs"].as_array().unwrap() {
        let g = |k: &str| input[k].as_u64().unwrap();
        assert_eq!(
            g("games_read"),
            g("analysed") + g("invalid") + g("skipped"),
            "accounting of {}",
            input["file"]
        );
    }
}

fn corpus_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(shared().join("data"))
        .expect("../shared/data")
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".pgn.zst"))
        .collect();
    files.sort();
    assert!(files.len() >= 7, "the real corpus is there");
    files
}

fn edge_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(shared().join("data/edge"))
        .expect("../shared/data/edge")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
        .collect();
    files.sort();
    files
}

/// Game counts from `../shared/data/SOURCES.md` (split by tag sections,
/// a tag section followed by two blank lines being one game).
#[test]
fn real_corpus_game_counts_and_accounting() {
    if !Needs::test().shared("data").met() {
        return;
    }
    let expected = [
        ("engine-tcec-fullcomments-s28-gamelength", 110),
        ("engine-tcec-nocomments", 27_532),
        ("online-chesscom", 1_412),
        ("online-fics", 1_418),
        ("online-lichess", 8_980),
        ("otb-masters-pgnmentor-2", 214_847),
        ("otb-masters-pgnmentor", 118_604),
        ("otb-twic-events", 24_003),
    ];
    let files = corpus_files();
    let paths: Vec<&Path> = files.iter().map(|p| p.as_path()).collect();
    let run = audit(&paths, &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    check_accounting(&run.summary);
    check_lines(&run.jsonl);
    if Needs::check("every line against docs/findings.schema.json")
        .python(&["jsonschema"])
        .met()
    {
        // every line of the whole corpus against docs/findings.schema.json
        let dir = tempfile::tempdir().unwrap();
        let jsonl = dir.path().join("corpus.jsonl");
        std::fs::write(&jsonl, &run.jsonl).unwrap();
        check_findings(&jsonl, &[]);
    }
    for input in run.summary["inputs"].as_array().unwrap() {
        let file = input["file"].as_str().unwrap();
        let name = Path::new(file).file_name().unwrap().to_string_lossy();
        let stem = name.trim_end_matches(".pgn.zst");
        if let Some((_, n)) = expected.iter().find(|(s, _)| *s == stem) {
            assert_eq!(input["games_read"].as_u64().unwrap(), *n, "games in {file}");
        }
    }
}

/// Output is byte-identical for any thread count and chunk size, and equal
/// to a sequential pass (one thread, one chunk per region).
#[test]
fn thread_count_and_chunk_size_do_not_change_output() {
    if !Needs::test().shared("data").met() {
        return;
    }
    let files = corpus_files();
    let small: Vec<&Path> = files
        .iter()
        .filter(|p| {
            let s = p.to_string_lossy();
            s.contains("online-") || s.contains("fullcomments") || s.contains("twic")
        })
        .map(|p| p.as_path())
        .collect();
    let sequential = audit(
        &small,
        &[
            "--threads",
            "1",
            "--chunk-size",
            "1000000000",
            "--region-size",
            "1000000000",
        ],
    );
    assert!(!sequential.jsonl.is_empty());
    for extra in [
        &["--threads", "2"][..],
        &[
            "--threads",
            "2",
            "--chunk-size",
            "4096",
            "--region-size",
            "65536",
        ],
        &[
            "--threads",
            "3",
            "--chunk-size",
            "100",
            "--region-size",
            "1000",
        ],
    ] {
        let run = audit(&small, extra);
        assert_eq!(run.code, 0);
        assert!(
            run.jsonl == sequential.jsonl,
            "output differs with {extra:?}"
        );
        assert_eq!(run.summary["total"], sequential.summary["total"]);
    }
}

/// Every edge-case file: no panic, exit 0, every game accounted for, whole
/// JSON lines, and the same output with tiny chunks on 2 threads.
#[test]
fn edge_files_run_cleanly() {
    if !Needs::test().shared("data/edge").met() {
        return;
    }
    let files = edge_files();
    assert!(files.len() > 100);
    for f in &files {
        let run = audit(&[f.as_path()], &["--threads", "1"]);
        assert_eq!(run.code, 0, "{}: {}", f.display(), run.stderr);
        check_accounting(&run.summary);
        check_lines(&run.jsonl);
        let tiny = audit(
            &[f.as_path()],
            &[
                "--threads",
                "2",
                "--chunk-size",
                "64",
                "--region-size",
                "256",
            ],
        );
        assert!(
            tiny.jsonl == run.jsonl,
            "{}: chunking changed the output",
            f.display()
        );
    }
}

/// Runs tests/check_findings.py over `jsonl` with the plain PGN files given
/// (name suffix, path) for line, game_id, FEN and move checks.
fn check_findings(jsonl: &Path, pgns: &[(String, PathBuf)]) {
    let root = util::root();
    let mut cmd = util::python();
    cmd.arg(root.join("tests/check_findings.py"))
        .arg(root.join("docs/findings.schema.json"))
        .arg(jsonl);
    for (name, path) in pgns {
        cmd.arg("--pgn").arg(format!("{name}={}", path.display()));
    }
    if !pgns.is_empty() {
        cmd.arg("--replay");
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "check_findings.py:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Each finding points at its game as a person or a pipeline would use it:
/// the game starts at `offset` on `line`, `game_id` is the XXH3-128 of its
/// text (computed by python's xxhash), and python-chess, replaying the game
/// to `ply`, finds `fen`, `move_number` and a legal `san` there.
#[test]
fn findings_point_at_their_games() {
    if !Needs::test()
        .shared("data")
        .python(&["jsonschema", "xxhash", "chess"])
        .met()
    {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut plain = Vec::new();
    for f in corpus_files().into_iter().filter(|p| {
        let s = p.to_string_lossy();
        s.contains("online-") || s.contains("twic")
    }) {
        let name = f.file_name().unwrap().to_string_lossy().replace(".zst", "");
        let path = dir.path().join(&name);
        let bytes = zstd::decode_all(std::fs::File::open(&f).unwrap()).unwrap();
        std::fs::write(&path, bytes).unwrap();
        plain.push((name, path));
    }
    let paths: Vec<&Path> = plain.iter().map(|(_, p)| p.as_path()).collect();
    let run = audit(&paths, &["--tags", "all"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.jsonl.len() > 100_000, "findings to check");
    let jsonl = dir.path().join("f.jsonl");
    std::fs::write(&jsonl, &run.jsonl).unwrap();
    check_findings(&jsonl, &plain);
}

/// `bytes` with each game's date written where the oracle reads it: SPEC
/// dates a game by `Date`, else by `UTCDate` where `Date` is missing or has
/// no year; the oracle reads `Date` only. In place, byte for byte the same
/// length: a `Date` without a year takes the `UTCDate`'s value of the same
/// length, and where there is no `Date` the `UTCDate` tag is renamed
/// `Date` with three more blanks (`[Date    "2013.01.31"]`).
fn dated_by_utcdate(bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    let mut at = 0;
    let (mut date, mut utc): (Option<TagAt>, Option<TagAt>) = (None, None);
    let mut in_tags = false;
    while at <= bytes.len() {
        let end = bytes[at..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| at + i);
        let line = &bytes[at..end];
        let tag = line.first() == Some(&b'[');
        if tag && !in_tags {
            (date, utc) = (None, None);
        }
        if !tag && in_tags {
            fill_date(&mut out, date, utc);
        }
        in_tags = tag;
        let value = |name: &[u8]| {
            let rest = line.strip_prefix(b"[")?.strip_prefix(name)?;
            let q = rest.iter().position(|&b| b == b'"')?;
            let v = 1 + name.len() + q + 1;
            let len = line[v..].iter().position(|&b| b == b'"')?;
            Some((at, at + v, at + v + len))
        };
        date = date.or(value(b"Date "));
        utc = utc.or(value(b"UTCDate "));
        at = end + 1;
    }
    if in_tags {
        fill_date(&mut out, date, utc);
    }
    out
}

/// Where a tag stands: the start of its line, the start and the end of
/// its value.
type TagAt = (usize, usize, usize);

fn fill_date(out: &mut [u8], date: Option<TagAt>, utc: Option<TagAt>) {
    let Some((line, from, to)) = utc else { return };
    match date {
        Some((_, d_from, d_to)) => {
            let has_year =
                d_to - d_from >= 4 && out[d_from..d_from + 4].iter().all(u8::is_ascii_digit);
            if !has_year && d_to - d_from == to - from {
                out.copy_within(from..to, d_from);
            }
        }
        None => out[line..line + 9].copy_from_slice(b"[Date    "),
    }
}

#[test]
fn dates_are_filled_from_utcdate_in_place() {
    let text = b"[Event \"a\"]\n[UTCDate \"2013.01.31\"]\n\n1. e4 *\n\n[Date \"????.??.??\"]\n[UTCDate \"2016.05.24\"]\n\n1. d4 *\n\n[Date \"2019.01.01\"]\n[UTCDate \"2016.05.24\"]\n\n1. c4 *\n";
    let out = dated_by_utcdate(text);
    assert_eq!(out.len(), text.len());
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "[Event \"a\"]\n[Date    \"2013.01.31\"]\n\n1. e4 *\n\n[Date \"2016.05.24\"]\n[UTCDate \"2016.05.24\"]\n\n1. d4 *\n\n[Date \"2019.01.01\"]\n[UTCDate \"2016.05.24\"]\n\n1. c4 *\n"
    );
}

/// The differential check: the oracle (python-chess) and pgn-arbiter agree
/// on every finding. Needs python with chess==1.11.2 (CI installs it); the
/// `.zst` files are decompressed here, so the oracle needs no zstd. The
/// bundled sample's check (tests/bundled.rs) needs nothing.
#[test]
fn findings_equal_the_oracle_on_a_sample() {
    if !Needs::test().shared("data/edge").oracle().met() {
        return;
    }
    let tools = shared().join("tools");
    let dir = tempfile::tempdir().unwrap();
    let mut sample: Vec<PathBuf> = corpus_files()
        .into_iter()
        .filter(|p| {
            let s = p.to_string_lossy();
            s.contains("online-fics") || s.contains("online-chesscom") || s.contains("fullcomments")
        })
        .collect();
    sample.extend(edge_files());
    let mut failures = Vec::new();
    for (i, f) in sample.iter().enumerate() {
        let reference = dir.path().join(format!("ref{i}.jsonl"));
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = match name.strip_suffix(".zst") {
            Some(_) => zstd::decode_all(std::fs::File::open(f).unwrap()).unwrap(),
            None => std::fs::read(f).unwrap(),
        };
        // Both read the games dated as SPEC dates them (the oracle reads
        // `Date` only); offsets and lines stay.
        let plain = dir.path().join(name.trim_end_matches(".zst"));
        std::fs::write(&plain, dated_by_utcdate(&bytes)).unwrap();
        let out = util::python()
            .arg(tools.join("oracle.py"))
            .arg("--name")
            .arg(&name)
            .arg(&plain)
            .output()
            .unwrap();
        assert!(out.status.success(), "oracle failed on {}", f.display());
        std::fs::write(&reference, &out.stdout).unwrap();
        // The oracle proves dead positions by material only; compare.py
        // lists the engine's further dead positions and unwinnable flags
        // "to verify" and fails on any that contradicts the oracle.
        let run = audit(&[plain.as_path()], &[]);
        let candidate = dir.path().join(format!("cand{i}.jsonl"));
        std::fs::write(&candidate, &run.jsonl).unwrap();
        let cmp = util::python()
            .arg(tools.join("compare.py"))
            .arg(&reference)
            .arg(&candidate)
            .output()
            .unwrap();
        if !cmp.status.success() {
            failures.push(format!(
                "{}:\n{}",
                f.display(),
                String::from_utf8_lossy(&cmp.stdout)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
