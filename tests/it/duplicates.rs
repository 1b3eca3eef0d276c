//! Duplicate games: one game copied into two collections, or twice into
//! one, is recognised (here by its mainline as played, date, round and
//! players; comments, clocks, NAGs, variations, other tags, their order and
//! move spellings aside; `duplicates_identity` holds the librarian's
//! cases). The statistics count it
//! once (`--duplicates once`, the default) or each time (`all`); the report
//! lists the repeats per pair of files, those whose results differ apart;
//! the findings list every game as given. Merging aggregates finds repeats
//! across them. The last test runs on the shared corpus and is skipped
//! without it.

use std::path::{Path, PathBuf};

use crate::util::{self, bin, json_lines, tagged_game as game, text, Needs};
use serde_json::Value;

/// Fool's mate scored as a draw: the Laws give 0-1 (a correction).
const MATE: &str = "1. f3 e5 2. g4 Qh4#";

const TAGS: [(&str, &str); 5] = [
    ("Event", "Club"),
    ("Site", "Oslo"),
    ("Date", "2001.05.01"),
    ("Round", "1"),
    ("White", "A"),
];

/// The tags of a game of the club event between A and `black` in `round`.
fn tags<'a>(black: &'a str, round: &'a str) -> Vec<(&'a str, &'a str)> {
    let mut t: Vec<(&str, &str)> = TAGS.to_vec();
    t[3].1 = round;
    t.push(("Black", black));
    t
}

/// `audit --report-json --html --jsonl` over `paths` with `extra`: the
/// aggregate, the page and the findings.
fn run(dir: &Path, paths: &[PathBuf], extra: &[&str]) -> (Value, String, Vec<Value>) {
    let (agg, html) = (dir.join("agg.json"), dir.join("report.html"));
    let out = bin()
        .args(["audit", "--quiet", "--jsonl", "-", "--report-json"])
        .arg(&agg)
        .arg("--html")
        .arg(&html)
        .args(extra)
        .args(paths)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json = serde_json::from_slice(&std::fs::read(&agg).unwrap()).unwrap();
    (
        json,
        std::fs::read_to_string(&html).unwrap(),
        json_lines(&out.stdout),
    )
}

/// Two collections of the club event: the first with comments, clocks,
/// a NAG, a variation and its tags in another order; the second plain.
/// Each holds the mate scored ½-½ (one correction), a game B-A the first
/// scores 1-0 and the second 0-1, and a game of its own.
fn two_collections(dir: &Path) -> [PathBuf; 2] {
    let commented_mate =
        "1. f3 {a weak move} [%clk 0:10:00] e5 $2 (1... d5 2. g4) 2. g4?? Qh4# {mate}";
    let mut first = String::new();
    let mut t = tags("B", "1");
    t.reverse();
    t.push(("Annotator", "someone"));
    first.push_str(&game(&t, commented_mate, "1/2-1/2"));
    // the same moves spelt otherwise (a needless file)
    first.push_str(&game(&tags("C", "2"), "1. Ngf3 Nf6 2. Nc3", "1-0"));
    first.push_str(&game(&tags("D", "3"), "1. e4 e5", "1/2-1/2"));
    let mut second = String::new();
    second.push_str(&game(&tags("E", "4"), "1. d4 d5", "1/2-1/2"));
    second.push_str(&game(&tags("B", "1"), MATE, "1/2-1/2"));
    second.push_str(&game(&tags("C", "2"), "1. Nf3 Nf6 2. Nc3", "0-1"));
    [
        util::write(dir, "first.pgn", first),
        util::write(dir, "second.pgn", second),
    ]
}

fn players(agg: &Value) -> &serde_json::Map<String, Value> {
    agg["points"]["Club\tOslo\t2001"]["players"]
        .as_object()
        .unwrap()
}

#[test]
fn a_game_copied_into_two_collections_counts_once_and_is_listed() {
    let dir = tempfile::tempdir().unwrap();
    let files = two_collections(dir.path());
    let (agg, html, findings) = run(dir.path(), &files, &[]);
    // the findings list every game as given, the copies with one content id
    let mates: Vec<&Value> = findings
        .iter()
        .filter(|f| f["kind"] == "wrong_result")
        .collect();
    assert_eq!(mates.len(), 2, "{findings:?}");
    assert_eq!(mates[0]["content_id"], mates[1]["content_id"]);
    assert_ne!(mates[0]["game_id"], mates[1]["game_id"]);
    assert_eq!(mates[0]["content_id"].as_str().unwrap().len(), 32);
    // the statistics count each game once: A played 5 games, not 7
    assert_eq!(agg["games"]["read"], 6);
    assert_eq!(agg["games"]["analysed"], 6);
    assert_eq!(agg["games"]["flagged"], 1);
    assert_eq!(agg["kinds"]["wrong_result"]["games"], 1);
    let p = players(&agg);
    assert_eq!(p["A"][0], 4, "{p:?}");
    assert_eq!((p["B"][0].as_u64(), p["C"][0].as_u64()), (Some(1), Some(1)));
    // C's game counts as first recorded: A won it
    assert_eq!(p["C"][1], 0);
    let corrections = agg["points"]["Club\tOslo\t2001"]["corrections"]
        .as_array()
        .unwrap();
    assert_eq!(corrections.len(), 1);
    assert_eq!(corrections[0]["file"], files[0].to_str().unwrap());
    // every breakdown counts the 4 games counted
    let by = agg["by"].as_object().unwrap();
    let sums: Vec<u64> = by
        .values()
        .map(|b| {
            b.as_object()
                .unwrap()
                .values()
                .map(|x| x["games"].as_u64().unwrap())
                .sum()
        })
        .collect();
    assert_eq!(sums, vec![4; by.len()], "{by:?}");
    // the repeats, per pair of files, the results that differ apart
    let d = &agg["duplicates"];
    assert_eq!(d["mode"], "once");
    assert_eq!(
        (d["games"].as_u64(), d["left_out"].as_u64()),
        (Some(2), Some(2))
    );
    assert_eq!(d["results_differ"], 1);
    let (f0, f1) = (files[0].to_str().unwrap(), files[1].to_str().unwrap());
    assert_eq!(d["pairs"][f0][f1]["games"], 2);
    assert_eq!(d["pairs"][f0][f1]["results_differ"], 1);
    let differ = &d["results_differ_examples"][0];
    assert_eq!(
        (
            differ["first"]["game"].as_u64(),
            differ["later"]["game"].as_u64()
        ),
        (Some(2), Some(3))
    );
    assert_eq!(
        (
            differ["first"]["result"].as_str(),
            differ["later"]["result"].as_str()
        ),
        (Some("1-0"), Some("0-1"))
    );
    assert_eq!(d["examples"][0]["matched_by"], "moves");
    // the tags compared are written alike (the order and Annotator aside)
    assert!(d["examples"][0].get("tags_differ").is_none(), "{d}");
    // the page: the section, the pair, the differing results first
    let section = &html[html.find("id=\"duplicates\"").expect("a section")..];
    assert!(section.contains("data-figure=\"duplicates.games\">2<"));
    let pair = format!("data-figure=\"duplicates.pairs.{f0}.{f1}.results_differ\">1<");
    assert!(section.contains(&pair), "{pair}");
    let (a, b) = (
        section.find("Repeats whose results differ").unwrap(),
        section.find("Other repeats").unwrap(),
    );
    assert!(a < b);
    assert!(html.contains("Shares and rates below are of the 4 games judged"));
}

#[test]
fn with_duplicates_all_each_copy_counts() {
    let dir = tempfile::tempdir().unwrap();
    let files = two_collections(dir.path());
    let (agg, html, _) = run(dir.path(), &files, &["--duplicates", "all"]);
    assert_eq!(players(&agg)["A"][0], 6);
    assert_eq!(agg["kinds"]["wrong_result"]["games"], 2);
    let d = &agg["duplicates"];
    assert_eq!(
        (d["mode"].as_str(), d["games"].as_u64()),
        (Some("all"), Some(2))
    );
    assert_eq!(d["left_out"], 0);
    assert!(html.contains("--duplicates all"));
}

#[test]
fn another_player_date_round_start_or_move_is_another_game() {
    fn with(name: &'static str, value: &str) -> Vec<(&'static str, String)> {
        let mut t: Vec<(&str, String)> = tags("B", "1")
            .iter()
            .map(|(k, v)| (*k, v.to_string()))
            .collect();
        match t.iter_mut().find(|(k, _)| *k == name) {
            Some(kv) => kv.1 = value.into(),
            None => t.push((name, value.into())),
        }
        t
    }
    let no_castling = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";
    let variants: Vec<(Vec<(&str, String)>, &str)> = vec![
        (with("Event", "Club"), "1. e4 e5 2. Nf3"),
        (with("Black", "Z"), "1. e4 e5 2. Nf3"),
        (with("Date", "2001.05.02"), "1. e4 e5 2. Nf3"),
        (with("Round", "2"), "1. e4 e5 2. Nf3"),
        (with("FEN", no_castling), "1. e4 e5 2. Nf3"),
        (with("Event", "Club"), "1. e4 e5 2. Nc3"),
        (with("Event", "Club"), "1. e4 e5"),
    ];
    let mut pgn = String::new();
    for (t, moves) in &variants {
        let t: Vec<(&str, &str)> = t.iter().map(|(k, v)| (*k, v.as_str())).collect();
        pgn.push_str(&game(&t, moves, "*"));
    }
    let dir = tempfile::tempdir().unwrap();
    let file = util::write(dir.path(), "seven.pgn", &pgn);
    let (agg, _, _) = run(dir.path(), &[file], &[]);
    assert_eq!(agg["duplicates"]["games"], 0, "{}", agg["duplicates"]);
    assert_eq!(agg["games"]["analysed"], 7);
    // the copy of the first is found, with the standard start written out
    let mut twice = pgn.clone();
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let mut t: Vec<(&str, &str)> = variants[0]
        .0
        .iter()
        .map(|(k, v)| (*k, v.as_str()))
        .collect();
    t.push(("FEN", start));
    twice.push_str(&game(&t, "1. e4 {!} e5 (1... c5) 2. Nf3", "*"));
    let file = util::write(dir.path(), "eight.pgn", &twice);
    let (agg, _, _) = run(dir.path(), &[file], &[]);
    assert_eq!(agg["duplicates"]["games"], 1);
    assert_eq!(agg["duplicates"]["examples"][0]["later"]["game"], 8);
}

/// `audit --report-json` of each part, merged by `report`, beside the
/// aggregate of one run over all of them (`run` left out of both).
fn merged_and_whole(dir: &Path, parts: &[PathBuf]) -> (Value, Value) {
    let aggregate = |name: &str, paths: &[PathBuf]| {
        let out = dir.join(name);
        let run = bin()
            .args(["audit", "--quiet", "--report-json"])
            .arg(&out)
            .args(paths)
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
        out
    };
    let whole = aggregate("whole.json", parts);
    let mut cmd = bin();
    cmd.arg("report");
    for (i, p) in parts.iter().enumerate() {
        cmd.arg(aggregate(&format!("part{i}.json"), std::slice::from_ref(p)));
    }
    let merged = dir.join("merged.json");
    let run = cmd.arg("--json").arg(&merged).output().unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let read = |p: &Path| -> Value {
        let mut v: Value = serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap();
        v.as_object_mut().unwrap().remove("run");
        // the games for merging are beside the JSON: read back, inline
        let ids = pgn_arbiter::aggregate::read_ids(&pgn_arbiter::aggregate::ids_path(p)).unwrap();
        assert_eq!(v["duplicates"]["ids_beside"], true);
        v["duplicates"]
            .as_object_mut()
            .unwrap()
            .remove("ids_beside");
        v["duplicates"]["ids"] = serde_json::to_value(ids).unwrap();
        v
    };
    (read(&merged), read(&whole))
}

#[test]
fn merged_parts_with_repeats_within_each_equal_the_whole() {
    let dir = tempfile::tempdir().unwrap();
    let [first, _] = two_collections(dir.path());
    // each part holds its own copies, none of the other's: the first
    // collection twice, then two games of another event twice
    let mut other = game(&tags("E", "4"), "1. d4 d5", "1/2-1/2");
    other.push_str(&game(&tags("F", "5"), MATE, "1/2-1/2"));
    let first = std::fs::read_to_string(first).unwrap();
    let parts = [
        util::write(dir.path(), "a.pgn", first.repeat(2)),
        util::write(dir.path(), "b.pgn", other.repeat(2)),
    ];
    let (merged, whole) = merged_and_whole(dir.path(), &parts);
    assert_eq!(whole["duplicates"]["games"], 3 + 2);
    assert_eq!(whole["duplicates"]["left_out"], 3 + 2);
    assert_eq!(merged, whole, "the merge differs from the whole");
}

#[test]
fn merged_parts_leave_out_the_repeats_across_them_as_one_run_does() {
    let dir = tempfile::tempdir().unwrap();
    let files = two_collections(dir.path());
    let (merged, whole) = merged_and_whole(dir.path(), &files);
    // the second file's two repeats of the first are found across the
    // parts and left out of every count, as one run leaves them out
    assert_eq!(whole["duplicates"]["left_out"], 2);
    assert_eq!(whole["kinds"]["wrong_result"]["games"], 1);
    assert_eq!(merged, whole, "the merge differs from the whole");
    let mut merged = merged;
    merged["run"] = serde_json::json!([]);
    let agg: pgn_arbiter::aggregate::Aggregate = serde_json::from_value(merged).unwrap();
    assert_eq!(agg.duplicates.counted(), 0);
}

#[test]
fn on_the_shared_corpus_tcec_game_length_testing_counts_each_game_once() {
    if !Needs::test().shared("data").met() {
        return;
    }
    let data = util::shared().join("data");
    let files: Vec<PathBuf> = [
        "engine-tcec-fullcomments-s28-gamelength.pgn.zst",
        "engine-tcec-nocomments.pgn.zst",
        "online-fics.pgn.zst",
    ]
    .iter()
    .map(|f| data.join(f))
    .collect();
    let dir = tempfile::tempdir().unwrap();
    let (agg, html, _) = run(dir.path(), &files, &[]);
    let event = &agg["points"]["TCEC Season 28 - Game Length Testing\ttcec-chess.com\t2025"];
    assert_eq!(event["players"]["Stockfish_15_1M"][0], 110, "{event}");
    assert_eq!(event["corrections"].as_array().unwrap().len(), 1);
    let d = &agg["duplicates"];
    let (tcec_full, tcec) = (files[0].to_str().unwrap(), files[1].to_str().unwrap());
    assert_eq!(d["pairs"][tcec_full][tcec]["games"], 110, "{}", d["pairs"]);
    assert_eq!(d["pairs"][tcec_full][tcec]["results_differ"], 0);
    // FICS's two pairs of games without moves, each game with its own
    // FICSGamesDBGameNo and ending, are four games
    let fics = files[2].to_str().unwrap();
    assert!(d["pairs"].get(fics).is_none(), "{}", d["pairs"]);
    assert_eq!(d["results_differ"], 0);
    let pair = format!("data-figure=\"duplicates.pairs.{tcec_full}.{tcec}.games\">110<");
    assert!(html.contains(&pair), "{pair}");
}
