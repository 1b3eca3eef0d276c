//! One input over many machines: `plan --parts N`, `audit
//! --part SPEC` for each part, `merge`: the merged findings (JSON Lines),
//! summary and aggregate equal those of one run over the whole file, byte
//! for byte (the summary but for `seconds` and `threads`, the aggregate but
//! for `run`), for 1, 2, 7 and 64 parts of a plain PGN file, of the same
//! as pzstd frames, and of Parquet row groups.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::util::{self, bin, root, Needs};

/// The shared TWIC file (24,003 games, 20 MB): 64 parts of 300 KB each.
fn twic(dir: &Path) -> Option<PathBuf> {
    if !Needs::test().shared("data/otb-twic-events.pgn.zst").met() {
        return None;
    }
    let zst = std::fs::read(util::shared().join("data/otb-twic-events.pgn.zst")).unwrap();
    Some(util::write(
        dir,
        "twic.pgn",
        zstd::decode_all(&zst[..]).unwrap(),
    ))
}

/// `data` as pzstd writes it, but with frames of `size` bytes cut
/// anywhere (inside games, inside tag sections), as the tests of
/// `zstd_frames` write them.
fn pzstd(data: &[u8], size: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for piece in data.chunks(size) {
        let mut e = zstd::stream::Encoder::new(Vec::new(), 1).unwrap();
        e.include_checksum(true).unwrap();
        e.write_all(piece).unwrap();
        util::push_pzstd_frame(&mut out, &e.finish().unwrap());
    }
    out
}

/// The outputs of a run: findings, summary (without `seconds` and
/// `threads`), aggregate (without `run`).
struct Outputs {
    jsonl: Vec<u8>,
    summary: String,
    aggregate: Value,
}

fn read_outputs(dir: &Path, stem: &str) -> Outputs {
    let summary = std::fs::read_to_string(dir.join(format!("{stem}.json"))).unwrap();
    let summary = summary
        .lines()
        .filter(|l| !l.starts_with("  \"seconds\"") && !l.starts_with("  \"threads\""))
        .collect::<Vec<_>>()
        .join("\n");
    let mut aggregate: Value =
        serde_json::from_slice(&std::fs::read(dir.join(format!("{stem}.agg.json"))).unwrap())
            .unwrap();
    aggregate.as_object_mut().unwrap().remove("run");
    Outputs {
        jsonl: std::fs::read(dir.join(format!("{stem}.jsonl"))).unwrap(),
        summary,
        aggregate,
    }
}

/// `pgn-arbiter audit` with the three outputs written as `dir/stem.*`.
/// Repeats count once (the default `--duplicates once`): TWIC holds copies
/// of its own games, which fall into other parts as the file is cut, and
/// the merge must leave them out as one run does.
fn audit(dir: &Path, stem: &str, what: &[&str]) {
    let out = bin()
        .current_dir(dir)
        .args(["audit", "--quiet", "--threads", "2"])
        .arg("--jsonl")
        .arg(format!("{stem}.jsonl"))
        .arg("--summary-json")
        .arg(format!("{stem}.json"))
        .arg("--report-json")
        .arg(format!("{stem}.agg.json"))
        .args(what)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{what:?}: {}",
        util::text(&out.stderr)
    );
}

/// Plans `name` (in `dir`) as `n` parts, audits each, merges them; the
/// merged outputs and the number of parts planned.
fn in_parts(dir: &Path, name: &str, n: usize) -> (Outputs, usize) {
    let plan = bin()
        .current_dir(dir)
        .args(["plan", "--parts", &n.to_string(), name])
        .output()
        .unwrap();
    assert!(plan.status.success(), "{}", util::text(&plan.stderr));
    let specs: Vec<String> = util::text(&plan.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    let (mut summaries, mut findings, mut reports) = (vec![], vec![], vec![]);
    // merged in any order: the parts say which they are
    for (i, spec) in specs.iter().enumerate().rev() {
        let stem = format!("part{i}");
        audit(dir, &stem, &["--part", spec]);
        summaries.push(format!("{stem}.json"));
        findings.push(format!("{stem}.jsonl"));
        reports.push(format!("{stem}.agg.json"));
    }
    let out = bin()
        .current_dir(dir)
        .arg("merge")
        .args(&summaries)
        .arg("--findings")
        .args(&findings)
        .arg("--reports")
        .args(&reports)
        .args([
            "--jsonl",
            "merged.jsonl",
            "--summary-json",
            "merged.json",
            "--report-json",
            "merged.agg.json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", util::text(&out.stderr));
    (read_outputs(dir, "merged"), specs.len())
}

/// The merges of 1, 2, 7 and 64 parts of `name` equal one run's; the
/// numbers of parts planned.
fn parts_equal_the_whole(dir: &Path, name: &str) -> Vec<usize> {
    audit(dir, "whole", &[name]);
    let whole = read_outputs(dir, "whole");
    assert!(whole.jsonl.len() > 10_000, "a file with findings");
    let left_out = whole.aggregate["duplicates"]["left_out"].as_u64().unwrap();
    let mut planned = Vec::new();
    for n in [1, 2, 7, 64] {
        let (merged, parts) = in_parts(dir, name, n);
        assert!(
            merged.jsonl == whole.jsonl,
            "{name} in {parts} parts: the findings differ"
        );
        assert_eq!(merged.summary, whole.summary, "{name} in {parts} parts");
        assert_eq!(merged.aggregate, whole.aggregate, "{name} in {parts} parts");
        assert_eq!(
            merged.aggregate["duplicates"]["left_out"].as_u64(),
            Some(left_out)
        );
        planned.push(parts);
    }
    planned
}

#[test]
fn the_parts_of_a_plain_file_merge_into_the_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let Some(_) = twic(dir.path()) else { return };
    assert_eq!(parts_equal_the_whole(dir.path(), "twic.pgn"), [1, 2, 7, 64]);
}

#[test]
fn the_parts_of_a_pzstd_file_merge_into_the_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let Some(plain) = twic(dir.path()) else {
        return;
    };
    // 100 frames of about 200 KB, cut anywhere
    let data = std::fs::read(plain).unwrap();
    util::write(
        dir.path(),
        "twic.pgn.zst",
        pzstd(&data, data.len() / 100 + 1),
    );
    assert_eq!(
        parts_equal_the_whole(dir.path(), "twic.pgn.zst"),
        [1, 2, 7, 64]
    );
}

#[cfg(feature = "parquet")]
#[test]
fn the_row_groups_of_a_parquet_file_merge_into_the_whole_run() {
    if !Needs::test()
        .python(&["pyarrow"])
        .shared("data/online-lichess.pgn.zst")
        .met()
    {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let zst = std::fs::read(util::shared().join("data/online-lichess.pgn.zst")).unwrap();
    let pgn = util::write(
        dir.path(),
        "lichess.pgn",
        zstd::decode_all(&zst[..]).unwrap(),
    );
    // 8,980 games in 90 row groups
    let out = util::python()
        .arg(root().join("tests/hf_parquet.py"))
        .arg(&pgn)
        .arg(dir.path().join("lichess.parquet"))
        .args(["--row-group-size", "100"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", util::text(&out.stderr));
    assert_eq!(
        parts_equal_the_whole(dir.path(), "lichess.parquet"),
        [1, 2, 7, 64]
    );
}

/// A cut inside a game (a comment that holds a blank line and a `[` line,
/// where a part was made to begin) is said, on the part before it, not
/// merged as if the game had ended there.
#[test]
fn a_part_that_ends_inside_a_game_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = b"[Event \"a\"]\n\n1. e4 {x\n\n[Event \"hidden\"]\n\n} e5 1-0\n\n[Event \"c\"]\n\n1. d4 *\n";
    util::write(dir.path(), "c.pgn", pgn);
    let cut = pgn.windows(9).position(|w| w == b"[Event \"h").unwrap();
    let spec = format!("0/2:bytes=0-{cut}:c.pgn");
    let out = bin()
        .current_dir(dir.path())
        .args(["audit", "--quiet", "--summary-json", "-", "--part", &spec])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    let error = summary["inputs"][0]["error"].as_str().unwrap();
    assert!(error.contains("ends inside a game"), "{error}");
    assert_eq!(summary["part"]["spec"], spec.as_str());
    // and a plan never cuts there
    let plan = bin()
        .current_dir(dir.path())
        .args(["plan", "--parts", "3", "c.pgn"])
        .output()
        .unwrap();
    let specs = util::text(&plan.stdout);
    assert!(!specs.contains(&format!("={cut}-")), "{specs}");
}

/// A file that cannot be cut is one part, and the plan says why; parts of
/// two plans do not merge.
#[test]
fn what_cannot_be_cut_is_one_part_and_parts_of_two_plans_do_not_merge() {
    let dir = tempfile::tempdir().unwrap();
    let sample = std::fs::read(root().join("data/lichess-2000.pgn")).unwrap();
    util::write(
        dir.path(),
        "one.pgn.zst",
        zstd::encode_all(&sample[..], 1).unwrap(),
    );
    let plan = bin()
        .current_dir(dir.path())
        .args(["plan", "--parts", "4", "one.pgn.zst"])
        .output()
        .unwrap();
    assert!(plan.status.success());
    assert_eq!(util::text(&plan.stdout), "0/1:whole:one.pgn.zst\n");
    assert!(util::text(&plan.stderr).contains("a single frame"));
    util::write(dir.path(), "a.pgn", &sample);
    for (stem, spec) in [("x", "0/2:whole:one.pgn.zst"), ("y", "1/3:whole:a.pgn")] {
        let out = bin()
            .current_dir(dir.path())
            .args(["audit", "--quiet", "--summary-json"])
            .arg(format!("{stem}.json"))
            .args(["--part", spec])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", util::text(&out.stderr));
    }
    let out = bin()
        .current_dir(dir.path())
        .args(["merge", "x.json", "y.json", "--summary-json", "-"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(util::text(&out.stderr).contains("different plans"));
}

/// `merge` reads each part's findings and aggregate when it needs them
/// (one part at a time, not all first), yet a missing or bad file still
/// fails the merge before any output is written, named with its file: a
/// findings file missing or with a bad line, an aggregate that is not one.
#[test]
fn a_missing_or_bad_part_file_is_named_and_fails_before_any_output() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join("data/lichess-2000.pgn"),
        dir.path().join("a.pgn"),
    )
    .unwrap();
    let plan = bin()
        .current_dir(dir.path())
        .args(["plan", "--parts", "3", "a.pgn"])
        .output()
        .unwrap();
    let specs: Vec<String> = util::text(&plan.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(specs.len(), 3);
    for (i, spec) in specs.iter().enumerate() {
        audit(dir.path(), &format!("p{i}"), &["--part", spec]);
    }
    util::write(dir.path(), "bad.jsonl", b"{\"file\":1}\n");
    util::write(dir.path(), "bad.agg.json", b"{}\n");
    // a part's aggregate of another version (as `report` refuses it)
    let p2 = std::fs::read_to_string(dir.path().join("p2.agg.json")).unwrap();
    assert!(
        p2.contains("\"schema_version\":4"),
        "{}",
        &p2[..80.min(p2.len())]
    );
    let other = p2.replacen("\"schema_version\":4", "\"schema_version\":99", 1);
    util::write(dir.path(), "other.agg.json", other.as_bytes());
    let outputs = ["m.jsonl", "m.json", "m.agg.json"];
    let merge = |findings: [&str; 3], reports: [&str; 3]| {
        for o in outputs {
            let _ = std::fs::remove_file(dir.path().join(o));
        }
        bin()
            .current_dir(dir.path())
            .args(["merge", "p0.json", "p1.json", "p2.json", "--findings"])
            .args(findings)
            .arg("--reports")
            .args(reports)
            .args(["--jsonl", outputs[0], "--summary-json", outputs[1]])
            .args(["--report-json", outputs[2]])
            .output()
            .unwrap()
    };
    let size = |o: &str| std::fs::metadata(dir.path().join(o)).unwrap().len();
    let good = ["p0.agg.json", "p1.agg.json", "p2.agg.json"];
    let out = merge(["p0.jsonl", "p1.jsonl", "p2.jsonl"], good);
    assert!(out.status.success(), "{}", util::text(&out.stderr));
    assert!(outputs.iter().all(|o| size(o) > 100));
    for (findings, reports, named) in [
        (["p0.jsonl", "p1.jsonl", "gone.jsonl"], good, "gone.jsonl"),
        (
            ["p0.jsonl", "p1.jsonl", "bad.jsonl"],
            good,
            "bad.jsonl: findings line 1",
        ),
        // the first part's findings need no renumbering, and are read too
        (
            ["bad.jsonl", "p1.jsonl", "p2.jsonl"],
            good,
            "bad.jsonl: findings line 1",
        ),
        (
            ["p0.jsonl", "p1.jsonl", "p2.jsonl"],
            ["p0.agg.json", "p1.agg.json", "bad.agg.json"],
            "bad.agg.json: not an aggregate",
        ),
        (
            ["p0.jsonl", "p1.jsonl", "p2.jsonl"],
            ["p0.agg.json", "p1.agg.json", "other.agg.json"],
            "other.agg.json: aggregate version 99",
        ),
    ] {
        let out = merge(findings, reports);
        let err = util::text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(named), "{named}: {err}");
        for o in outputs {
            assert_eq!(size(o), 0, "{named}: {o} written");
        }
    }
}
