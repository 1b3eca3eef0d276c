//! The HTML report as a person meets it: the page of `data/` opened in
//! headless Chromium shows no console message and the figures of the
//! aggregate JSON; tag values (events, players, terminations) stay text,
//! however hostile. Chromium is Debian's `chromium` (or
//! `PGN_ARBITER_CHROMIUM`); without it those tests say SKIPPED. The page of
//! a hand-built aggregate is checked without a browser.
//!
//! The page of `data/`, its screenshot and the page of the hand-built
//! aggregate are left in `target/tmp/html_report/`; with `PGN_ARBITER_UPDATE_SCREENSHOT=1` the
//! screenshot is also written to `docs/report.png`.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::{self, bin, root, text, Needs};
use pgn_arbiter::aggregate::Aggregate;
use pgn_arbiter::report::html::render;
use serde_json::{json, Value};

const HOSTILE: &str = "<script>alert(1)</script>";
const HOSTILE_ESCAPED: &str = "&lt;script&gt;alert(1)&lt;/script&gt;";
const HOSTILE_IMG: &str = "<img src=x onerror=console.error(1)>";
const KINDS: [&str; 8] = [
    "invalid_game",
    "missed_threefold",
    "missed_fifty_moves",
    "fivefold",
    "seventyfive_moves",
    "dead_position",
    "unwinnable_flag",
    "wrong_result",
];

// ---------------------------------------------------------------------------
// The aggregate and the page
// ---------------------------------------------------------------------------

/// `audit --quiet --report-json AGG data/`: the aggregate, typed and as JSON.
fn aggregate_of_data(dir: &Path) -> (Aggregate, Value) {
    let path = dir.join("agg.json");
    // from the repository, so that the inputs are named as a user names them
    let out = bin()
        .current_dir(root())
        .args(["audit", "--quiet", "--report-json"])
        .arg(&path)
        .arg("data/")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let bytes = std::fs::read(&path).unwrap();
    let agg: Aggregate = serde_json::from_slice(&bytes).unwrap();
    let json: Value = serde_json::from_slice(&bytes).unwrap();
    (agg, json)
}

/// Where the page of `data/` and its screenshot are kept.
fn artefacts() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("html_report");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The numbers of the aggregate JSON but `run`, by path (keys and array
/// indices joined by dots).
fn flatten(v: &Value) -> BTreeMap<String, u64> {
    fn walk(v: &Value, path: &mut Vec<String>, out: &mut BTreeMap<String, u64>) {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    if path.is_empty() && k == "run" {
                        continue;
                    }
                    path.push(k.clone());
                    walk(x, path, out);
                    path.pop();
                }
            }
            Value::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    path.push(i.to_string());
                    walk(x, path, out);
                    path.pop();
                }
            }
            Value::Number(n) => {
                out.insert(path.join("."), n.as_u64().expect("counts are integers"));
            }
            _ => {}
        }
    }
    let mut out = BTreeMap::new();
    walk(v, &mut Vec::new(), &mut out);
    out
}

/// Text or an attribute value of serialized HTML, unescaped.
fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&")
}

/// Every `data-figure` of a page: (path, the element's text), in order.
fn figures(html: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find("data-figure=\"") {
        rest = &rest[i + 13..];
        let end = rest.find('"').unwrap();
        let path = unescape(&rest[..end]);
        rest = &rest[end..];
        let open = rest.find('>').unwrap();
        rest = &rest[open + 1..];
        let close = rest.find('<').unwrap();
        out.push((path, unescape(&rest[..close])));
        rest = &rest[close..];
    }
    out
}

/// Half-points as the page shows points: 7 → `3½`.
fn halves(h: u64) -> String {
    match (h / 2, h % 2) {
        (0, 1) => "½".into(),
        (p, 0) => thousands(p),
        (p, _) => format!("{}½", thousands(p)),
    }
}

fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn is_points_item(path: &str) -> bool {
    path.starts_with("points.")
        && path.contains(".players.")
        && (path.ends_with(".1") || path.ends_with(".2"))
}

/// Every figure of the page equals the JSON's (a count the JSON leaves out
/// is 0); returns the paths shown.
fn check_figures(html: &str, json: &Value) -> BTreeMap<String, String> {
    let flat = flatten(json);
    let shown = figures(html);
    assert!(!shown.is_empty(), "no data-figure in the page");
    let mut seen = BTreeMap::new();
    for (path, text) in shown {
        let want = flat.get(&path).copied().unwrap_or(0);
        let expected = if is_points_item(&path) {
            halves(want)
        } else {
            thousands(want)
        };
        assert_eq!(text, expected, "figure {path}: the page shows {text:?}");
        seen.insert(path, text);
    }
    seen
}

/// The figures a reader must find: every count of `games`, `kinds` (each
/// known kind, 0 when absent), the distributions and each breakdown but
/// `event`, the 25 largest events, the top 20 players both ways, and each
/// standing of an event with corrections.
fn check_coverage(seen: &BTreeMap<String, String>, json: &Value) {
    let flat = flatten(json);
    let mut want: Vec<String> = flat
        .keys()
        .filter(|p| {
            ["games.", "kinds.", "distributions."]
                .iter()
                .any(|s| p.starts_with(s))
                || (p.starts_with("by.") && !p.starts_with("by.event."))
                || *p == "points_untracked_events"
        })
        .cloned()
        .collect();
    for k in KINDS {
        want.push(format!("kinds.{k}.games"));
    }
    if let Some(events) = json["by"]["event"].as_object() {
        let mut v: Vec<(&String, u64)> = events
            .iter()
            .map(|(n, b)| (n, b["games"].as_u64().unwrap()))
            .collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        for (n, _) in v.iter().take(25) {
            want.push(format!("by.event.{n}.games"));
        }
    }
    if let Some(players) = json["players"].as_object() {
        for key in ["missed", "lost_after_missed"] {
            let mut v: Vec<(&String, u64)> = players
                .iter()
                .map(|(n, c)| (n, c[key].as_u64().unwrap()))
                .filter(|(_, n)| *n > 0)
                .collect();
            v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
            for (n, _) in v.iter().take(20) {
                want.push(format!("players.{n}.{key}"));
            }
        }
    }
    if let Some(events) = json["points"].as_object() {
        for (e, p) in events {
            let has = p["corrections"].as_array().is_some_and(|c| !c.is_empty());
            let players = p["players"].as_object();
            if let (true, Some(players)) = (has, players) {
                if players.len() <= 40 {
                    for n in players.keys() {
                        for i in 0..3 {
                            want.push(format!("points.{e}.players.{n}.{i}"));
                        }
                    }
                }
            }
        }
    }
    let missing: Vec<&String> = want.iter().filter(|p| !seen.contains_key(*p)).collect();
    assert!(missing.is_empty(), "figures not on the page: {missing:?}");
}

/// A page made for a file: one document, nothing fetched.
fn check_offline(html: &str) {
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.trim_end().ends_with("</html>"));
    let lower = html.to_lowercase();
    for bad in [
        "<script", "<link", "<iframe", "<object", "<embed", "<img", " src=", "url(", "@import",
    ] {
        assert!(!lower.contains(bad), "the page has {bad}");
    }
    // links within the page, or to a game on its site (an example's
    // `Site`): followed when clicked, never fetched
    for (i, _) in lower.match_indices("href=\"") {
        let to = &lower[i + 6..];
        assert!(
            to.starts_with('#') || to.starts_with("https://") || to.starts_with("http://"),
            "a link out of the page: {}",
            &html[i..(i + 60).min(html.len())]
        );
        assert!(lower[..i].ends_with("<a "), "an href not on an anchor");
    }
}

// ---------------------------------------------------------------------------
// Chromium
// ---------------------------------------------------------------------------

/// Runs headless Chromium on `page` with `args` (a fresh profile, no
/// network): its stdout and stderr.
fn chromium(page: &Path, args: &[&str]) -> (String, String) {
    let profile = tempfile::tempdir().unwrap();
    let mut child = Command::new(util::chromium().expect("chromium"))
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--host-resolver-rules=MAP * ~NOTFOUND",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(args)
        .arg(format!("file://{}", page.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        out.read_to_string(&mut s).unwrap();
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = Vec::new();
        err.read_to_end(&mut s).unwrap();
        String::from_utf8_lossy(&s).into_owned()
    });
    let start = Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if start.elapsed() > Duration::from_secs(120) {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("chromium did not finish in 120 s: {}", err.join().unwrap());
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let (out, err) = (out.join().unwrap(), err.join().unwrap());
    assert!(status.success(), "chromium failed ({status}): {err}");
    (out, err)
}

/// The page's console messages (errors, uncaught exceptions, anything a
/// script logs) in Chromium's log.
fn console(log: &str) -> Vec<&str> {
    log.lines()
        .filter(|l| l.contains(":CONSOLE") || l.contains("Uncaught"))
        .collect()
}

/// The DOM after the page loaded, and its console messages.
fn open(page: &Path) -> (String, Vec<String>) {
    let (dom, log) = chromium(page, &["--dump-dom"]);
    assert!(dom.contains("</html>"), "no DOM dumped: {log}");
    let messages = console(&log).into_iter().map(str::to_string).collect();
    (dom, messages)
}

/// Width and height of a PNG file.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert!(
        bytes.len() > 24 && bytes.starts_with(b"\x89PNG\r\n\x1a\n"),
        "not a PNG"
    );
    let be = |i: usize| u32::from_be_bytes(bytes[i..i + 4].try_into().unwrap());
    (be(16), be(20))
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

#[test]
fn page_of_the_bundled_data_in_chromium_shows_the_figures_of_the_json() {
    if !Needs::test().chromium().met() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (agg, json) = aggregate_of_data(dir.path());
    let html = render(&agg);
    check_offline(&html);
    let page = artefacts().join("report.html");
    std::fs::write(&page, &html).unwrap();

    let (dom, messages) = open(&page);
    assert!(messages.is_empty(), "console messages: {messages:#?}");
    let seen = check_figures(&dom, &json);
    check_coverage(&seen, &json);
    // what a reader looks for first
    assert_eq!(seen["games.read"], "4,000");
    assert_eq!(
        seen["kinds.missed_threefold.games"],
        thousands(json["kinds"]["missed_threefold"]["games"].as_u64().unwrap())
    );
    for input in ["data/lichess-2000.pgn", "data/twic-2000.pgn.zst"] {
        assert!(
            dom.contains(&format!("<code>{input}</code>")),
            "the header names {input}"
        );
    }
    assert!(dom.contains(&format!(
        "pgn-arbiter {}",
        json["run"][0]["version"].as_str().unwrap()
    )));
    for id in [
        "chart-kinds",
        "chart-year",
        "heat-missed",
        "heat-all",
        "hist-first_missed_claim_ply",
        "hist-claims_let_pass",
    ] {
        assert!(dom.contains(&format!("id=\"{id}\"")), "no {id} in the page");
    }
    let corrected = json["points"]
        .as_object()
        .unwrap()
        .values()
        .any(|e| e["corrections"].as_array().is_some_and(|c| !c.is_empty()));
    assert_eq!(dom.contains("id=\"points-none\""), !corrected);

    let shot = artefacts().join("report.png");
    let _ = std::fs::remove_file(&shot);
    let (_, log) = chromium(
        &page,
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1280,2400",
            "--hide-scrollbars",
        ],
    );
    let bytes = std::fs::read(&shot).unwrap_or_else(|e| panic!("no screenshot ({e}): {log}"));
    assert_eq!(png_size(&bytes), (1280, 2400));
    if std::env::var_os("PGN_ARBITER_UPDATE_SCREENSHOT").is_some_and(|v| v != "0") {
        let docs = root().join("docs/report.png");
        std::fs::write(docs, &bytes).unwrap();
    }
}

/// An aggregate as a user's runs could make it, with every part filled and
/// hostile tag values.
fn hand_built() -> Value {
    let mut kinds = serde_json::Map::new();
    for (i, k) in KINDS.iter().enumerate() {
        let mut c = json!({ "games": 10 * (i as u64 + 1) });
        if k.starts_with("missed_") {
            let g = 10 * (i as u64 + 1);
            c["outcome"] =
                json!({ "lost": g / 2, "drew": g / 4, "won": g - g / 2 - g / 4 - 1, "unknown": 1 });
            c["via"] = json!({ "occurred": g / 2, "announced": g - g / 2 });
        }
        kinds.insert(k.to_string(), c);
    }
    let mut events = serde_json::Map::new();
    for i in 0..30u64 {
        events.insert(
            format!("Open {i:02}"),
            json!({ "games": 100 + i, "kinds": { "missed_threefold": i % 3 } }),
        );
    }
    events.insert(
        HOSTILE.into(),
        json!({ "games": 5000, "kinds": { "wrong_result": 2, "fivefold": 1 } }),
    );
    events.insert(HOSTILE_IMG.into(), json!({ "games": 4000 }));
    let mut players = serde_json::Map::new();
    for i in 0..25u64 {
        players.insert(
            format!("Player {i:02}"),
            json!({ "missed": 30 - i, "lost_after_missed": i % 7 }),
        );
    }
    players.insert(
        HOSTILE.into(),
        json!({ "missed": 99, "lost_after_missed": 50 }),
    );
    players.insert(
        HOSTILE_IMG.into(),
        json!({ "missed": 3, "lost_after_missed": 0 }),
    );
    json!({
        "schema_version": 1,
        "run": [
            { "tool": "pgn-arbiter", "version": "0.1.0", "laws": "auto", "dead": "quick",
              "inputs": ["a/<b>bold</b>.pgn", "a/two.pgn.zst"], "threads": 4, "seconds": 12.5 },
            { "tool": "pgn-arbiter", "version": "0.1.0", "laws": "auto", "dead": "quick",
              "inputs": ["b/three.pgn"], "threads": 8, "seconds": 3.25 }
        ],
        "games": { "read": 12345, "analysed": 12000, "invalid": 300, "skipped": 45,
                   "plies": 987654, "flagged": 321 },
        "kinds": kinds,
        "by": {
            "year": {
                "1999": { "games": 300, "kinds": { "missed_threefold": 2 } },
                "2016": { "games": 4000, "kinds": { "missed_threefold": 20, "fivefold": 3 } },
                "2022": { "games": 8000, "kinds": { "missed_threefold": 40, "wrong_result": 4 } },
                "unknown": { "games": 0 }
            },
            "edition": { "2001": { "games": 300 }, "2014": { "games": 4000 }, "2018": { "games": 8000 } },
            "time_control": {
                "blitz": { "games": 5000, "kinds": { "missed_threefold": 30 } },
                "bullet": { "games": 6000, "kinds": { "missed_threefold": 20 } },
                "classical": { "games": 1300, "kinds": { "missed_threefold": 12 } }
            },
            "rating": {
                "0800-0999": { "games": 300 },
                "1400-1599": { "games": 6000, "kinds": { "missed_threefold": 30 } },
                "2000-2199": { "games": 6000, "kinds": { "missed_threefold": 32 } }
            },
            "termination": {
                "Normal": { "games": 7000 },
                "Time forfeit": { "games": 5000, "kinds": { "unwinnable_flag": 70 } },
                HOSTILE: { "games": 300, "kinds": { "wrong_result": 1 } }
            },
            "event": events,
            "time_control_rating": {
                "blitz|1400-1599": { "games": 3000, "kinds": { "missed_threefold": 20 } },
                "blitz|2000-2199": { "games": 2000, "kinds": { "missed_threefold": 10 } },
                "bullet|1400-1599": { "games": 3000, "kinds": { "missed_threefold": 10 } },
                "bullet|2000-2199": { "games": 3000, "kinds": { "missed_threefold": 10, "fivefold": 3 } },
                "classical|0800-0999": { "games": 12, "kinds": { "missed_threefold": 1 } }
            }
        },
        "distributions": {
            "first_missed_claim_ply": { "030-039": 4, "050-059": 7, "100-109": 2 },
            "plies_after_end": { "0001": 3, "0005-0009": 2, "0100+": 1 },
            "claims_let_pass": { "0001": 60, "0002": 10 }
        },
        "players": players,
        "points": {
            HOSTILE: {
                "players": {
                    HOSTILE: [2, 3, 2],
                    "Anna": [2, 2, 3],
                    "Bert": [2, 1, 1]
                },
                "corrections": [
                    { "game_id": "00ff", "white": HOSTILE, "black": "Anna",
                      "recorded": "1-0", "laws": "1/2-1/2", "kind": "unwinnable_flag" }
                ]
            },
            "Club, round robin": {
                "players": { "Cleo": [1, 2, 2], "Dora": [1, 0, 0] },
                "corrections": [
                    { "game_id": "0a0b", "white": "Cleo", "black": "Dora",
                      "recorded": "1-0", "laws": "1-0", "kind": "wrong_result" }
                ]
            },
            "Quiet Open": { "players": { "Eva": [1, 2, 2], "Finn": [1, 0, 0] } },
            "Rated Blitz game": {
                "untracked": true,
                "corrections": [
                    { "game_id": "0c0d", "white": "Gus", "black": HOSTILE_IMG,
                      "recorded": "0-1", "laws": "1/2-1/2", "kind": "fivefold" }
                ]
            }
        },
        "points_untracked_events": 1
    })
}

#[test]
fn page_of_a_hand_built_aggregate_shows_every_kind_and_figure_as_text() {
    let json = hand_built();
    let agg: Aggregate = serde_json::from_value(json.clone()).unwrap();
    // the JSON is the aggregate's whole shape: nothing was dropped
    assert_eq!(
        serde_json::to_value(&agg).unwrap()["points"],
        json["points"]
    );
    let html = render(&agg);

    // hostile names stay text
    let lower = html.to_lowercase();
    assert!(!lower.contains("<script"), "a <script> element in the page");
    assert!(!lower.contains("<img"), "an <img> element in the page");
    assert!(!lower.contains("<b>bold"), "an input's name is markup");
    assert!(html.contains(HOSTILE_ESCAPED));
    assert!(html.contains("&lt;img src=x onerror=console.error(1)&gt;"));

    let seen = check_figures(&html, &json);
    check_coverage(&seen, &json);
    for k in KINDS {
        assert!(seen.contains_key(&format!("kinds.{k}.games")), "{k}");
        assert!(html.contains(&format!("data-kind=\"{k}\"")), "{k}");
    }
    assert_eq!(seen["games.read"], "12,345");
    assert_eq!(seen["games.plies"], "987,654");
    assert!(html.contains("12,345 = 12,000 + 300 + 45"));
    // the 25 largest events, not the 5 smallest
    for i in 0..5 {
        assert!(!seen.contains_key(&format!("by.event.Open {i:02}.games")));
    }
    assert!(html.contains("the other 7 hold"));
    // players: every one counted, the top 20 by missed claims shown
    assert!(html.contains("id=\"players-exact\""));
    assert!(!seen.contains_key("players.Player 21.missed"));
    // points: shown as points, standings compared
    assert_eq!(seen[&format!("points.{HOSTILE}.players.{HOSTILE}.1")], "1½");
    assert_eq!(seen[&format!("points.{HOSTILE}.players.Anna.2")], "1½");
    assert_eq!(seen["points.Club, round robin.players.Dora.2"], "0");
    let row = |event: &str| -> &str {
        let at = html
            .find(&format!(
                "<tr data-event=\"{}\"",
                event.replace('<', "&lt;").replace('>', "&gt;")
            ))
            .unwrap_or_else(|| panic!("no row for {event}"));
        &html[at..at + html[at..].find("</tr>").unwrap()]
    };
    assert!(row(HOSTILE).contains("<b>ranks change</b>"));
    assert!(row("Club, round robin").contains("do not change"));
    assert!(row("Rated Blitz game").contains("not kept"));
    assert!(
        !html.contains("data-event=\"Quiet Open\""),
        "an event without corrections"
    );
    // the heat maps of time control x rating
    assert!(html.contains("id=\"heat-missed\"") && html.contains("id=\"heat-all\""));
    assert!(html.contains("data-cell=\"blitz|1400-1599\""));
    // the runs
    assert!(html.contains("in 2 runs"));
    assert!(html.contains("a/&lt;b&gt;bold&lt;/b&gt;.pgn"));
}

#[test]
fn hostile_names_stay_text_in_chromium() {
    if !Needs::test().chromium().met() {
        return;
    }
    let json = hand_built();
    let agg: Aggregate = serde_json::from_value(json.clone()).unwrap();
    let page = artefacts().join("hand_built.html");
    std::fs::write(&page, render(&agg)).unwrap();
    let (dom, messages) = open(&page);
    assert!(messages.is_empty(), "console messages: {messages:#?}");
    // no element made of a name; attribute values are escaped too
    let lower = dom.to_lowercase();
    assert!(!lower.contains("<script"), "a <script> element in the DOM");
    assert!(!lower.contains("<img"), "an <img> element in the DOM");
    assert!(
        dom.contains(HOSTILE_ESCAPED),
        "the name is not shown as text"
    );
    let seen = check_figures(&dom, &json);
    check_coverage(&seen, &json);
}

/// The year chart drew its lines straight across years without
/// data. Each line now breaks (a move, `M`) where a year is missing, a
/// year with too few games to chart (2018 here) as much as one without
/// any (2017).
#[test]
fn the_year_chart_breaks_its_lines_at_missing_years() {
    let mut json = hand_built();
    json["by"]["year"] = json!({
        "2014": { "games": 1000, "kinds": { "missed_threefold": 5 } },
        "2015": { "games": 1000, "kinds": { "missed_threefold": 7 } },
        "2016": { "games": 1000, "kinds": { "missed_threefold": 6 } },
        "2018": { "games": 50, "kinds": { "missed_threefold": 1 } },
        "2019": { "games": 1000, "kinds": { "missed_threefold": 9 } },
        "2020": { "games": 1000, "kinds": { "missed_threefold": 4 } },
        "unknown": { "games": 0 }
    });
    let agg: Aggregate = serde_json::from_value(json).unwrap();
    let html = render(&agg);
    let chart = &html[html.find("<svg id=\"chart-year\"").expect("the year chart")..];
    let chart = &chart[..chart.find("</svg>").unwrap()];
    let colour = {
        // the colour of missed_threefold's points names its line
        let at = chart.find("missed_threefold 2014").unwrap();
        let circle = &chart[chart[..at].rfind("<circle").unwrap()..at];
        let fill = &circle[circle.find("fill=\"").unwrap() + 6..];
        fill[..fill.find('"').unwrap()].to_string()
    };
    let path = chart
        .split("<path ")
        .skip(1)
        .find(|p| p.contains(&format!("stroke=\"{colour}\"")))
        .expect("the line of missed_threefold");
    let d = &path[path.find("d=\"").unwrap() + 3..];
    let d = &d[..d.find('"').unwrap()];
    let pens: String = d.split(' ').map(|p| &p[..1]).collect();
    // 2014 2015 2016 | 2019 2020
    assert_eq!(pens, "MLLML", "{d}");
    assert!(!chart.contains("<polyline"), "no line drawn across the gap");
}
