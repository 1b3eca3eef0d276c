//! The differential check on the bundled sample, with nothing from outside
//! the repository: pgn-arbiter audits `data/` and its findings must equal
//! the oracle's (`../shared/tools/oracle.py`, python-chess 1.11.2), kept in
//! `data/expected/<name>.oracle.jsonl` and written by `scripts/expected.sh`.
//!
//! Compared as the shared corpus's `tools/compare.py` compares: findings
//! matched by (file base name, game, kind); ply, side, occurrences,
//! edition, for missed claims outcome and via, and the offset and the tags
//! White/Black/Date/Result/Site must be equal. The oracle proves dead
//! positions by insufficient material only, so a `dead_position` or an
//! `unwinnable_flag` that only pgn-arbiter reports (or a dead position it
//! finds earlier) is accepted when its proof is not `material`; anything
//! else missing, extra or different fails, naming the game.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use crate::util::{self, bin, root, text};

const MISSED: [&str; 2] = ["missed_threefold", "missed_fifty_moves"];
/// Kinds the oracle does not check (as compare.py: shown, never a
/// disagreement).
const NOT_CHECKED: [&str; 1] = ["drawn_flag"];
const FIELDS: [&str; 4] = ["ply", "side", "occurrences", "edition"];
const MISSED_FIELDS: [&str; 2] = ["outcome", "via"];
const ALSO: [&str; 6] = ["offset", "White", "Black", "Date", "Result", "Site"];

/// A file's base name without `.zst` and `.pgn`, as compare.py's `base`.
fn base(file: &str) -> String {
    let mut b = Path::new(file)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    for ext in [".zst", ".pgn"] {
        if let Some(s) = b.strip_suffix(ext) {
            b = s.to_string();
        }
    }
    b
}

type Key = (String, u64, String);

/// Findings by (file base name, game, kind); a finding reported twice is
/// a failure.
fn index(rows: Vec<Value>, label: &str, problems: &mut Vec<String>) -> BTreeMap<Key, Value> {
    let mut out = BTreeMap::new();
    for r in rows {
        let key = (
            base(r["file"].as_str().unwrap_or_default()),
            r["game"].as_u64().unwrap_or(u64::MAX),
            r["kind"].as_str().unwrap_or_default().to_string(),
        );
        if let Some(old) = out.insert(key.clone(), r) {
            problems.push(format!("{label} reports twice: {old}"));
        }
    }
    out
}

fn lines(text: &str, what: &str) -> Vec<Value> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(n, l)| serde_json::from_str(l).unwrap_or_else(|e| panic!("{what}:{}: {e}", n + 1)))
        .collect()
}

/// A short description of a finding, to name it in a failure.
fn short(f: &Value) -> String {
    let mut s = format!(
        "{} game {} (counted from 0) {}",
        base(f["file"].as_str().unwrap_or_default()),
        f["game"],
        f["kind"].as_str().unwrap_or_default()
    );
    for k in [
        "ply",
        "side",
        "occurrences",
        "outcome",
        "via",
        "edition",
        "proof",
    ] {
        if let Some(v) = f.get(k) {
            s += &format!(" {k}={v}");
        }
    }
    for k in ["White", "Black", "Date"] {
        if let Some(v) = f.get(k) {
            s += &format!(" {k}={v}");
        }
    }
    s
}

/// A dead position or an unwinnable flag the oracle cannot know: proven
/// otherwise than by material.
fn beyond_material(f: &Value) -> bool {
    f.get("proof")
        .and_then(Value::as_str)
        .is_some_and(|p| p != "material")
}

/// Every way `candidate` departs from `reference`.
fn compare(reference: Vec<Value>, candidate: Vec<Value>) -> Vec<String> {
    let mut problems = Vec::new();
    let reference = index(reference, "the oracle", &mut problems);
    let candidate = index(candidate, "pgn-arbiter", &mut problems);
    let mut keys: Vec<&Key> = reference.keys().chain(candidate.keys()).collect();
    keys.sort();
    keys.dedup();
    for key in keys {
        let kind = key.2.as_str();
        match (reference.get(key), candidate.get(key)) {
            (Some(r), None) => problems.push(format!("missing: {}", short(r))),
            (None, Some(_)) if NOT_CHECKED.contains(&kind) => {}
            (None, Some(c)) => {
                let dead = kind == "dead_position" || kind == "unwinnable_flag";
                if !(dead && beyond_material(c)) {
                    problems.push(format!("extra: {}", short(c)));
                }
            }
            (Some(r), Some(c)) => {
                let mut fields: Vec<&str> = FIELDS.to_vec();
                if MISSED.contains(&kind) {
                    fields.extend(MISSED_FIELDS);
                }
                let mut diffs: Vec<String> = fields
                    .iter()
                    .filter(|f| r.get(**f) != c.get(**f))
                    .map(|f| format!("{f}: oracle {:?}, pgn-arbiter {:?}", r.get(*f), c.get(*f)))
                    .collect();
                // A dead position found earlier, at least as often, by a
                // proof the oracle does not know (compare.py: "to verify").
                let (rp, cp) = (r["ply"].as_u64(), c["ply"].as_u64());
                let (ro, co) = (r["occurrences"].as_u64(), c["occurrences"].as_u64());
                if kind == "dead_position"
                    && beyond_material(c)
                    && matches!((rp, cp, ro, co), (Some(rp), Some(cp), Some(ro), Some(co)) if cp < rp && co >= ro)
                {
                    diffs.retain(|d| {
                        !["ply", "occurrences", "side"]
                            .iter()
                            .any(|f| d.starts_with(f))
                    });
                }
                // the offset and the tags, where both give them (a
                // difference means the two split the games differently)
                for f in ALSO {
                    if let (Some(a), Some(b)) = (r.get(f), c.get(f)) {
                        if a != b {
                            diffs.push(format!("{f}: oracle {a}, pgn-arbiter {b}"));
                        }
                    }
                }
                if !diffs.is_empty() {
                    problems.push(format!("differs: {}: {}", short(r), diffs.join("; ")));
                }
            }
            (None, None) => unreachable!(),
        }
    }
    problems
}

/// The expected findings, by the base name of the data file they belong to.
fn expected() -> BTreeMap<String, Vec<Value>> {
    let dir = root().join("data/expected");
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if let Some(stem) = name.strip_suffix(".oracle.jsonl") {
            let text = std::fs::read_to_string(&path).unwrap();
            out.insert(stem.to_string(), lines(&text, &path.display().to_string()));
        }
    }
    out
}

/// pgn-arbiter over `data/`: the findings, and the base names of the files
/// it read.
fn audit_data() -> (Vec<Value>, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("summary.json");
    let out = bin()
        .args(["audit", "--quiet", "--jsonl", "-", "--summary-json"])
        .arg(&summary)
        .arg(root().join("data"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let summary: Value = serde_json::from_slice(&std::fs::read(&summary).unwrap()).unwrap();
    let files = summary["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| base(i["file"].as_str().unwrap()))
        .collect();
    (
        lines(
            &String::from_utf8(out.stdout).unwrap(),
            "pgn-arbiter's JSONL",
        ),
        files,
    )
}

#[test]
fn findings_on_the_bundled_sample_equal_the_oracle() {
    let expected = expected();
    let (found, files) = audit_data();
    let mut read: Vec<&String> = files.iter().collect();
    read.sort();
    assert_eq!(
        read,
        expected.keys().collect::<Vec<_>>(),
        "every file of data/ and only those has its oracle findings in data/expected/ \
         (scripts/expected.sh writes them)"
    );
    for (name, rows) in &expected {
        assert!(
            !rows.is_empty(),
            "data/expected/{name}.oracle.jsonl is empty"
        );
        for r in rows {
            assert_eq!(&base(r["file"].as_str().unwrap()), name, "{r}");
        }
    }
    let reference: Vec<Value> = expected.into_values().flatten().collect();
    let n = reference.len();
    let problems = compare(reference, found);
    assert!(
        problems.is_empty(),
        "pgn-arbiter and the oracle's expected findings (data/expected/) disagree \
         ({} of {n} expected findings):\n  {}\n\
         A disagreement is a bug in one of the two: find which. Re-run scripts/expected.sh \
         only when data/ or the oracle has changed.",
        problems.len(),
        problems.join("\n  ")
    );
}

/// The comparison itself: every kind of disagreement fails, and only the
/// oracle's blind spot (dead positions beyond material) passes.
#[test]
fn the_comparison_fails_on_every_disagreement() {
    let claim = serde_json::json!({
        "file": "x/a.pgn.zst", "game": 3, "kind": "missed_threefold", "ply": 40,
        "side": "white", "occurrences": 1, "outcome": "lost", "via": "announced",
        "edition": "2018", "offset": 100, "White": "A"
    });
    let dead = |proof: &str, ply: u64, occurrences: u64| {
        serde_json::json!({
            "file": "a.pgn", "game": 5, "kind": "dead_position", "ply": ply,
            "side": "black", "occurrences": occurrences, "edition": "2018", "proof": proof
        })
    };
    let flag = |proof: &str| {
        serde_json::json!({
            "file": "a.pgn", "game": 6, "kind": "unwinnable_flag", "ply": 80,
            "side": "white", "occurrences": 1, "edition": "2018", "proof": proof
        })
    };
    // equal, with the file named otherwise (base names match)
    let mut same = claim.clone();
    same["file"] = "/elsewhere/a.pgn".into();
    assert_eq!(
        compare(vec![claim.clone()], vec![same]),
        Vec::<String>::new()
    );
    // each compared field, changed
    for (field, value) in [
        ("ply", Value::from(41)),
        ("side", "black".into()),
        ("occurrences", 2.into()),
        ("edition", "2014".into()),
        ("outcome", "drew".into()),
        ("via", "on_board".into()),
        ("offset", 101.into()),
        ("White", "B".into()),
    ] {
        let mut changed = claim.clone();
        changed[field] = value;
        let problems = compare(vec![claim.clone()], vec![changed]);
        assert_eq!(problems.len(), 1, "{field}");
        assert!(
            problems[0].contains("a game 3") && problems[0].contains(field),
            "{problems:?}"
        );
    }
    // missing, extra, another game, another file, twice
    assert_eq!(compare(vec![claim.clone()], vec![]).len(), 1);
    assert_eq!(compare(vec![], vec![claim.clone()]).len(), 1);
    let mut other = claim.clone();
    other["game"] = 4.into();
    assert_eq!(compare(vec![claim.clone()], vec![other]).len(), 2);
    let mut other = claim.clone();
    other["file"] = "b.pgn".into();
    assert_eq!(compare(vec![claim.clone()], vec![other]).len(), 2);
    assert_eq!(
        compare(vec![claim.clone()], vec![claim.clone(), claim.clone()]).len(),
        1
    );
    // beyond material: accepted only when pgn-arbiter alone reports it, or
    // reports it earlier, with a proof the oracle does not have
    assert!(compare(vec![], vec![dead("blocked", 60, 3)]).is_empty());
    assert!(compare(vec![], vec![flag("search")]).is_empty());
    assert_eq!(compare(vec![], vec![dead("material", 60, 3)]).len(), 1);
    assert_eq!(compare(vec![], vec![flag("material")]).len(), 1);
    assert!(compare(vec![dead("material", 70, 3)], vec![dead("blocked", 60, 13)]).is_empty());
    assert_eq!(
        compare(
            vec![dead("material", 70, 3)],
            vec![dead("material", 60, 13)]
        )
        .len(),
        1
    );
    assert_eq!(
        compare(vec![dead("material", 60, 3)], vec![dead("blocked", 70, 3)]).len(),
        1
    );
    assert_eq!(compare(vec![dead("material", 60, 3)], vec![]).len(), 1);
}

/// `scripts/annotate.awk` (the profile-guided build's training copies of
/// the Lichess sample in the Lichess, chess.com and FICS export formats)
/// changes no game: the same games and plies, the same findings of the
/// Laws (by game number, kind, ply and the moves' content_id), every game
/// judged by the style's site.
#[test]
fn the_training_copies_keep_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let sample = root().join("data/lichess-2000.pgn");
    let audit = |path: &Path| {
        let findings = dir.path().join("f.jsonl");
        let out = bin()
            .args(["audit", "--quiet", "--threads", "1", "--summary-json", "-"])
            .arg("--jsonl")
            .arg(&findings)
            .arg(path)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
        let total = &summary["total"];
        let counts =
            ["games_read", "analysed", "invalid", "skipped", "plies"].map(|k| total[k].clone());
        let sites: Vec<(String, u64)> = total["sites"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                (
                    s["site"].as_str().unwrap().to_string(),
                    s["games"].as_u64().unwrap(),
                )
            })
            .collect();
        let findings = lines(&std::fs::read_to_string(&findings).unwrap(), "findings")
            .into_iter()
            .filter(|f| f["kind"] != "site_rule")
            .map(|f| {
                format!(
                    "{} {} {} {}",
                    f["game"], f["kind"], f["ply"], f["content_id"]
                )
            })
            .collect::<Vec<_>>();
        (counts, sites, findings)
    };
    let plain = audit(&sample);
    assert_eq!(plain.0[4], 88_313);
    assert!(!plain.2.is_empty());
    for (style, site, mark) in [
        ("lichess", "lichess", "[%clk 0:"),
        ("chesscom", "chesscom", "[%clk 0:"),
        ("fics", "fics", " resigns} "),
    ] {
        let out = std::process::Command::new("awk")
            .arg("-v")
            .arg(format!("style={style}"))
            .arg("-f")
            .arg(root().join("scripts/annotate.awk"))
            .arg(&sample)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        let copy = String::from_utf8(out.stdout).unwrap();
        assert!(copy.matches(mark).count() > 1_500, "{style}: few {mark:?}");
        let copy = util::write(dir.path(), "copy.pgn", copy);
        let (counts, sites, findings) = audit(&copy);
        assert_eq!(counts, plain.0, "{style}");
        assert_eq!(findings, plain.2, "{style}");
        assert!(
            sites.contains(&(site.to_string(), 2000)),
            "{style}: {sites:?}"
        );
    }
}
