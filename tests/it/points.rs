//! Points under Art. 11 as an arbiter acts on them: events told
//! apart by tag, site and year; each corrected game named by file, game
//! number, round, date and link; every player whose points or rank change
//! shown, the two marked apart; the counts said as they are. The last test
//! runs on the shared corpus (`../shared/` or `PGN_ARBITER_SHARED`) and is
//! skipped without it.

use std::collections::BTreeMap;
use std::path::Path;

use crate::util::{self, bin, tagged_game as game, text, Needs};
use pgn_arbiter::aggregate::Aggregate;
use pgn_arbiter::report::html::render;
use serde_json::{json, Value};

/// Fool's mate scored as a draw: the Laws give 0-1.
const MATE: &str = "1. f3 e5 2. g4 Qh4#";

/// `audit --report-json --html` over `pgn`: the aggregate and the page.
fn report(dir: &Path, pgns: &[&Path]) -> (Value, String) {
    let (agg, html) = (dir.join("agg.json"), dir.join("report.html"));
    let run = bin()
        .args(["audit", "--quiet", "--report-json"])
        .arg(&agg)
        .arg("--html")
        .arg(&html)
        .args(pgns)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let json = serde_json::from_slice(&std::fs::read(&agg).unwrap()).unwrap();
    (json, std::fs::read_to_string(&html).unwrap())
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

#[test]
fn events_are_told_apart_by_tag_site_and_year() {
    let dir = tempfile::tempdir().unwrap();
    let t = |date: &str, w: &str, b: &str| {
        vec![
            ("Event", "Open"),
            ("Site", "Oslo"),
            ("Date", date),
            ("White", w),
            ("Black", b),
        ]
        .into_iter()
        .map(|(k, v)| (k, v.to_string()))
        .collect::<Vec<_>>()
    };
    let g = |tags: Vec<(&str, String)>, moves: &str, result: &str| {
        let tags: Vec<(&str, &str)> = tags.iter().map(|(k, v)| (*k, v.as_str())).collect();
        game(&tags, moves, result)
    };
    let mut over_new_year = t("1998.01.02", "C", "A");
    over_new_year.push(("EventDate", "1997.12.30".into()));
    let lichess = |id: &str, w: &str| {
        let site = format!("https://lichess.org/{id}");
        game(
            &[
                ("Event", "Solo"),
                ("Site", &site),
                ("Date", "2020.01.01"),
                ("White", w),
                ("Black", "Z"),
            ],
            MATE,
            "1/2-1/2",
        )
    };
    let pgn = util::write(
        dir.path(),
        "events.pgn",
        [
            g(t("1996.05.01", "A", "B"), MATE, "1/2-1/2"),
            g(t("1997.05.01", "A", "C"), "1. e4 e5", "1-0"),
            g(over_new_year, MATE, "1/2-1/2"),
            lichess("abcd1234", "X"),
            lichess("efgh5678", "Y"),
        ]
        .concat(),
    );
    let (json, html) = report(dir.path(), &[&pgn]);
    let keys: Vec<&String> = json["points"].as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "Open\tOslo\t1996",
            "Open\tOslo\t1997",
            "Solo\tlichess.org\t2020"
        ],
        "an event is its tag, site (a URL's host) and year (EventDate first)"
    );
    // A won one game of 1997 and was mated in the other, scored a draw
    assert_eq!(
        json["points"]["Open\tOslo\t1997"]["players"]["A"],
        json!([2, 3, 4]),
    );
    // the year is named where two events share a tag, and only there
    assert!(html.contains(">Open (1996)</a>"), "{html}");
    assert!(html.contains(">Open (1997)</a>"));
    assert!(html.contains(">Solo</a>") && !html.contains("Solo (2020)"));
    assert!(html.contains("Standings cover only the games present in the inputs."));
}

#[test]
fn every_corrected_game_names_its_file_game_round_date_and_link() {
    let dir = tempfile::tempdir().unwrap();
    let tags = |round: &str, site: &str| {
        game(
            &[
                ("Event", "Club"),
                ("Site", site),
                ("Date", "2021.03.04"),
                ("Round", round),
                ("White", "A & Co"),
                ("Black", "B"),
            ],
            if round == "4.2" { MATE } else { "1. e4 e5" },
            "1/2-1/2",
        )
    };
    let pgn = util::write(
        dir.path(),
        "club.pgn",
        [
            tags("1", "https://example.org/g/1"),
            tags("2", "https://example.org/g/2"),
            tags("4.2", "https://example.org/g/77"),
        ]
        .concat(),
    );
    let (json, html) = report(dir.path(), &[&pgn]);
    let event = &json["points"]["Club\texample.org\t2021"];
    let c = &event["corrections"][0];
    let file = pgn.to_str().unwrap();
    assert_eq!(c["file"], file);
    assert_eq!(c["game"], 3, "1-based");
    assert_eq!(c["round"], "4.2");
    assert_eq!(c["date"], "2021.03.04");
    assert_eq!(c["link"], "https://example.org/g/77");
    assert_eq!(
        (c["recorded"].as_str(), c["laws"].as_str()),
        (Some("1/2-1/2"), Some("0-1"))
    );
    assert_eq!(c["article"], "5.1, 5.2.1, 11");
    assert_eq!(c["kind"], "wrong_result");
    let row = html
        .lines()
        .find(|l| l.contains("title=\"game_id "))
        .expect("a correction row");
    for cell in [
        format!(
            "<td class=\"name\">{}</td><td class=\"n\">3</td><td>4.2</td>",
            esc(file)
        ),
        "<td class=\"nw\">2021.03.04</td><td class=\"name\">A &amp; Co</td>".into(),
        "<td class=\"nw\">5.1, 5.2.1, 11</td><td><code>wrong_result</code></td>".into(),
        "<a href=\"https://example.org/g/77\">".into(),
    ] {
        assert!(row.contains(&cell), "{cell} not in {row}");
    }
    // the per-event table holds the event's own figures only
    assert!(!html.contains("all events"));
}

/// Fifty players, recorded 50, 49, ..., 1 points; one game between P30
/// and P45 the Laws give the other way.
fn fifty_players() -> Value {
    let mut players = serde_json::Map::new();
    for i in 0..50u64 {
        let rec = 100 - 2 * i;
        let laws = match i {
            30 => rec - 2,
            45 => rec + 2,
            _ => rec,
        };
        players.insert(format!("P{i:02}"), json!([10, rec, laws]));
    }
    json!({
        "schema_version": 1,
        "run": [],
        "games": { "read": 250, "analysed": 250, "invalid": 0, "skipped": 0, "plies": 0, "flagged": 1 },
        "kinds": { "wrong_result": { "games": 1 } },
        "by": {},
        "distributions": {},
        "points": {
            "Big Open\tOslo\t2001": {
                "players": players,
                "corrections": [{
                    "file": "big.pgn", "game": 117, "game_id": "00ff", "white": "P30", "black": "P45",
                    "recorded": "1-0", "laws": "0-1", "kind": "wrong_result",
                    "article": "5.1, 5.2.1, 11", "round": "9", "date": "2001.05.09"
                }]
            }
        }
    })
}

#[test]
fn every_player_whose_points_or_rank_change_is_shown_and_marked_apart() {
    let json = fifty_players();
    let agg: Aggregate = serde_json::from_value(json).unwrap();
    let html = render(&agg);
    let row = |name: &str| -> Option<&str> {
        html.lines()
            .find(|l| l.contains(&format!("<td class=\"name\">{name}</td>")))
    };
    // P30 loses a point and keeps rank 31 (tied with P31); P31 rises from
    // 32nd to 31st without playing a corrected game; P45 gains a point and
    // rises from 46th to 45th
    let p30 = row("P30").expect("P30 shown");
    let p31 = row("P31").expect("P31 shown: its rank changes");
    let p45 = row("P45").expect("P45 shown");
    assert!(
        p30.contains("points-moved") && !p30.contains("rank-moved"),
        "{p30}"
    );
    assert!(
        !p31.contains("points-moved") && p31.contains("rank-moved"),
        "{p31}"
    );
    assert!(
        p45.contains("points-moved") && p45.contains("rank-moved"),
        "{p45}"
    );
    assert!(p31.contains("data-derived=\"rank.recorded\">32<"), "{p31}");
    assert!(p31.contains("data-derived=\"rank.laws\">31<"), "{p31}");
    // the first ten are shown, the players nothing happens to beyond them not
    assert!(row("P09").is_some() && row("P10").is_none() && row("P20").is_none());
    assert!(
        html.contains("13 of 50 players shown"),
        "P00-P09, P30, P31, P45"
    );
    assert!(html.contains("<span data-derived=\"points.standings_change\">1</span> have standings in which a rank changes"));
    assert!(!html.contains("missed claims (all events)"));
}

/// Competition ranks (1, 2, 2, 4), higher first.
fn ranks(values: &[u64]) -> Vec<usize> {
    values
        .iter()
        .map(|v| 1 + values.iter().filter(|o| *o > v).count())
        .collect()
}

/// The figures: "Mondariz op" is two events, and the page names
/// every corrected game by file, game, round and date, and shows every
/// player whose points or rank change.
#[test]
fn on_the_shared_corpus_events_are_told_apart_and_every_change_is_shown() {
    if !Needs::test().shared("data").met() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut files: Vec<_> = std::fs::read_dir(util::shared().join("data"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".pgn.zst"))
        .collect();
    files.sort();
    let paths: Vec<&Path> = files.iter().map(|p| p.as_path()).collect();
    let (json, html) = report(dir.path(), &paths);
    let points = json["points"].as_object().unwrap();
    let mondariz: Vec<&String> = json["by"]["event"]
        .as_object()
        .unwrap()
        .keys()
        .filter(|k| k.starts_with("Mondariz op\t"))
        .collect();
    assert_eq!(
        mondariz,
        ["Mondariz op\tMondariz\t1996", "Mondariz op\tMondariz\t1997"]
    );
    // the standings of 1997, where a result is corrected, are written;
    // 1996's are the records' own
    assert!(points.contains_key("Mondariz op\tMondariz\t1997"));
    assert!(!points.contains_key("Mondariz op\tMondariz\t1996"));
    for (key, e) in points {
        assert!(
            e.get("corrections").is_some() || e.get("joined").is_some(),
            "{key}: standings written without a correction or a name joined"
        );
    }
    assert!(html.contains(">Mondariz op (1997)</a>"));
    let mut shown = BTreeMap::new();
    for (key, e) in points {
        let Some(corrections) = e["corrections"].as_array() else {
            continue;
        };
        for c in corrections {
            let cells = format!(
                "<td class=\"name\">{}</td><td class=\"n\">{}</td><td>{}</td><td class=\"nw\">{}</td>",
                esc(c["file"].as_str().unwrap()),
                pgn_arbiter::text::thousands(c["game"].as_u64().unwrap()),
                esc(c["round"].as_str().unwrap_or("-")),
                esc(c["date"].as_str().unwrap_or("-")),
            );
            assert!(html.contains(&cells), "{cells}");
        }
        let Some(players) = e["players"].as_object() else {
            continue;
        };
        let p: Vec<[u64; 3]> = players
            .values()
            .map(|v| serde_json::from_value(v.clone()).unwrap())
            .collect();
        let rec = ranks(&p.iter().map(|x| x[1]).collect::<Vec<_>>());
        let laws = ranks(&p.iter().map(|x| x[2]).collect::<Vec<_>>());
        for (i, name) in players.keys().enumerate() {
            if p[i][1] != p[i][2] || rec[i] != laws[i] {
                let figure = esc(&format!("points.{key}.players.{name}.1"));
                assert!(
                    html.contains(&format!("data-figure=\"{figure}\"")),
                    "{figure}"
                );
                *shown.entry(key.as_str()).or_insert(0) += 1;
            }
        }
    }
    eprintln!("players whose points or rank change, per event: {shown:?}");
}
