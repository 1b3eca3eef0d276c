//! What makes two records one game, as collections differ: the site's own
//! game id first, else the mainline with the date, round and players as
//! normalised; games without moves only by a site id; `--duplicates
//! exact` as before. The last test runs on the shared corpus and is
//! skipped without it.

use std::path::PathBuf;

use crate::util::{self, bin, tagged_game as game, text, Needs};
use serde_json::Value;

/// `audit --report-json` over one file holding `pgn`, with `extra`.
fn aggregate(pgn: &str, extra: &[&str]) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let file = util::write(dir.path(), "games.pgn", pgn);
    aggregate_of(&[file], extra)
}

fn aggregate_of(files: &[PathBuf], extra: &[&str]) -> Value {
    let out = bin()
        .args(["audit", "--quiet", "--report-json", "-"])
        .args(extra)
        .args(files)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A game of the Club event on 2001.05.01 between `white` and `black`.
fn club(white: &str, black: &str, round: &str, moves: &str, result: &str) -> String {
    let tags = [
        ("Event", "Club"),
        ("Site", "Oslo"),
        ("Date", "2001.05.01"),
        ("Round", round),
        ("White", white),
        ("Black", black),
    ];
    game(&tags, moves, result)
}

const SHORT: &str = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6";

/// A mainline of 40 half-moves (knights out and back), one game's alone.
fn long_line() -> String {
    let mut s = String::new();
    for i in 0..10 {
        let n = 1 + 2 * i;
        s.push_str(&format!("{n}. Nf3 Nf6 {}. Ng1 Ng8 ", n + 1));
    }
    s
}

#[test]
fn names_spelt_otherwise_are_one_player_and_the_repeat_says_which_tags_differ() {
    let pgn = [
        club("Adams,Mi", "Korchnoi,V", "1", SHORT, "1-0"),
        club("Adams, Michael", "Kortschnoj, Viktor", "1.1", SHORT, "0-1"),
        // another player: another game, however short the line
        club("Adams,J", "Korchnoi,V", "1", SHORT, "1-0"),
    ]
    .concat();
    let agg = aggregate(&pgn, &[]);
    let d = &agg["duplicates"];
    assert_eq!(
        (d["games"].as_u64(), d["results_differ"].as_u64()),
        (Some(1), Some(1)),
        "{d}"
    );
    let row = &d["results_differ_examples"][0];
    assert_eq!(row["matched_by"], "moves");
    assert_eq!(row["later"]["game"], 2);
    assert_eq!(
        row["spelling_differs"],
        serde_json::json!(["White", "Black", "Round"]),
        "{row}"
    );
    assert!(row.get("tags_differ").is_none(), "{row}");
    // with the content id alone, three games
    let exact = aggregate(&pgn, &["--duplicates", "exact"]);
    assert_eq!(exact["duplicates"]["games"], 0);
    assert_eq!(exact["duplicates"]["mode"], "exact");
}

#[test]
fn a_long_mainline_on_one_day_is_one_game_whoever_the_tags_name_but_not_two_boards() {
    let line = long_line();
    let next_day = |g: String| g.replace("2001.05.01", "2001.05.02");
    let boards = |second: &str| {
        [
            club("MagnusCarlsen", "DrNykterstein", "?", &line, "1/2-1/2"),
            club("Carlsen,M", "Someone,X", "?", &line, "1/2-1/2"),
            // two boards of one round with the same moves: two games
            next_day(club("P,A", "Q,B", "3.1", &line, "1/2-1/2")),
            next_day(club("R,C", "S,D", second, &line, "1/2-1/2")),
        ]
        .concat()
    };
    let agg = aggregate(&boards("3.2"), &[]);
    let d = &agg["duplicates"];
    assert_eq!(d["games"], 1, "{d}");
    let row = &d["examples"][0];
    assert_eq!(
        (row["first"]["game"].as_u64(), row["later"]["game"].as_u64()),
        (Some(1), Some(2))
    );
    assert_eq!(row["tags_differ"], serde_json::json!(["Black"]), "{row}");
    assert_eq!(
        row["spelling_differs"],
        serde_json::json!(["White"]),
        "{row}"
    );
    // round 3 and board 3.1 may be one game
    let agg = aggregate(&boards("3"), &[]);
    assert_eq!(agg["duplicates"]["games"], 2, "{}", agg["duplicates"]);
    assert_eq!(agg["duplicates"]["examples"][1]["later"]["game"], 4);
}

#[test]
fn the_site_id_decides_first_and_games_without_moves_repeat_only_by_it() {
    let with = |link: &str, white: &str, moves: &str, result: &str| {
        let tags = [
            ("Event", "Live Chess"),
            ("Site", "Chess.com"),
            ("Date", "2020.01.01"),
            ("White", white),
            ("Black", "B"),
            ("Link", link),
        ];
        game(&tags, moves, result)
    };
    let fics = |no: &str, result: &str| {
        let tags = [
            ("Event", "FICS rated standard game"),
            ("Site", "FICS freechess.org"),
            ("Date", "2009.01.01"),
            ("White", "W"),
            ("Black", "B"),
            ("FICSGamesDBGameNo", no),
        ];
        game(&tags, "", result)
    };
    let pgn = [
        // same players, day and moves, two links: two games
        with("https://www.chess.com/game/live/1", "A", "1. e4 d5", "1-0"),
        with("https://www.chess.com/game/live/2", "A", "1. e4 d5", "1-0"),
        // one link again, the name spelt otherwise, fewer moves: a copy
        with("http://chess.com/game/live/1", "a", "1. e4", "1-0"),
        // no moves: two game numbers are two games; the same is a copy
        fics("10", "1-0"),
        fics("11", "0-1"),
        fics("10", "1-0"),
    ]
    .concat();
    let agg = aggregate(&pgn, &[]);
    let d = &agg["duplicates"];
    assert_eq!(
        (d["games"].as_u64(), d["results_differ"].as_u64()),
        (Some(2), Some(0)),
        "{d}"
    );
    let rows = d["examples"].as_array().unwrap();
    assert_eq!(rows[0]["matched_by"], "site_id");
    assert_eq!(
        (
            rows[0]["first"]["game"].as_u64(),
            rows[0]["later"]["game"].as_u64()
        ),
        (Some(1), Some(3))
    );
    assert_eq!(
        rows[0]["tags_differ"],
        serde_json::json!(["moves"]),
        "{}",
        rows[0]
    );
    assert_eq!(
        (
            rows[1]["first"]["game"].as_u64(),
            rows[1]["later"]["game"].as_u64()
        ),
        (Some(4), Some(6))
    );
}

#[test]
fn one_player_one_name_within_an_event_and_the_names_joined_are_listed() {
    let pgn = [
        club("Adams, Michael", "Short,N", "1", "1. e4 e5", "1-0"),
        club("Short,N", "ADAMS,Michael", "2", "1. d4 d5", "1/2-1/2"),
        // an initial may stand for another Adams: not joined
        club("Adams,M", "Short,N", "3", "1. c4 c5", "0-1"),
    ]
    .concat();
    let agg = aggregate(&pgn, &[]);
    let event = &agg["points"]["Club\tOslo\t2001"];
    let players = event["players"].as_object().unwrap();
    assert_eq!(players.len(), 3, "{event}");
    assert_eq!(players["Adams, Michael"], serde_json::json!([2, 3, 3]));
    assert_eq!(players["Short,N"], serde_json::json!([3, 3, 3]));
    assert_eq!(players["Adams,M"], serde_json::json!([1, 0, 0]));
    assert_eq!(
        event["joined"],
        serde_json::json!({"Adams, Michael": ["ADAMS,Michael"]})
    );
}

#[test]
fn on_the_shared_corpus_different_games_are_not_repeats_and_kamsky_tuhrim_is() {
    if !Needs::test().shared("data").met() {
        return;
    }
    let data = util::shared().join("data");
    let files: Vec<PathBuf> = [
        "online-chesscom.pgn.zst",
        "online-fics.pgn.zst",
        "otb-twic-events.pgn.zst",
        "otb-masters-pgnmentor-2.pgn.zst",
    ]
    .iter()
    .map(|f| data.join(f))
    .collect();
    let agg = aggregate_of(&files, &["--threads", "2"]);
    let d = &agg["duplicates"];
    let name = |i: usize| files[i].to_str().unwrap();
    // chess.com 369 and 371 (other Links), FICS 1291/1293 and 1292/1294
    // (no moves, other game numbers) are other games
    assert!(d["pairs"].get(name(0)).is_none(), "{}", d["pairs"]);
    assert!(d["pairs"].get(name(1)).is_none(), "{}", d["pairs"]);
    // the same 45 plies, 1-0 in TWIC and 0-1 in pgnmentor-2
    let kamsky = d["results_differ_examples"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["first"]["file"] == name(2) && r["first"]["game"] == 15793)
        .unwrap_or_else(|| panic!("{d}"));
    assert_eq!(kamsky["later"]["file"], name(3));
    assert_eq!(kamsky["later"]["game"], 83805);
    assert_eq!(
        (
            kamsky["first"]["result"].as_str(),
            kamsky["later"]["result"].as_str()
        ),
        (Some("1-0"), Some("0-1"))
    );
}
