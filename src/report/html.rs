//! The statistics report as one HTML page (`--html FILE`): a document that
//! works offline (no script, no style sheet, font or image fetched; the
//! charts are inline SVG written here), made from an [`Aggregate`].
//!
//! Every figure read from the aggregate sits in an element with a
//! `data-figure` attribute naming its place in the aggregate JSON, keys
//! joined by dots (`games.read`, `kinds.missed_threefold.games`,
//! `by.year.2016.kinds.missed_threefold`, `points.EVENT.players.NAME.2`);
//! its text is the number with thousands separators, or for a player's
//! points in `points` (items 1 and 2, half-points) the points, `½` for a
//! half. A count the JSON leaves out (zero) is shown as 0. Figures computed here (shares, rates, ranks) carry
//! `data-derived` instead. Every tag value (events, players, terminations,
//! inputs) is HTML-escaped.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::aggregate::{Aggregate, Bucket, EVENT_PLAYER_CAP, PLAYER_CAP};
use crate::finding::Kind;
use crate::report::human::thousands;

/// The events listed in the table of the largest events.
const TOP_EVENTS: usize = 25;
/// The players listed in each table of players.
const TOP_PLAYERS: usize = 20;
/// Rows of a breakdown table of a dimension this page does not know.
const TOP_OTHER: usize = 50;
/// Years with fewer games judged are left out of the chart by year.
const MIN_YEAR_GAMES: u64 = 100;
/// Heat-map cells with fewer games judged are shown without a colour.
const MIN_CELL_GAMES: u64 = 30;
/// An event's points table lists every player up to this many players.
const ALL_PLAYERS_UP_TO: usize = 40;
/// Inputs named per run in the header.
const INPUTS_NAMED: usize = 20;

/// The time-control classes in the order they are shown.
const TIME_CLASSES: [&str; 7] = [
    "ultrabullet",
    "bullet",
    "blitz",
    "rapid",
    "classical",
    "correspondence",
    "unknown",
];

/// What the claimant got, in the order the bars are stacked, and colours.
const OUTCOMES: [(&str, &str); 4] = [
    ("lost", "#c0392b"),
    ("drew", "#7f8c8d"),
    ("won", "#27ae60"),
    ("unknown", "#d5d8dc"),
];

/// A colour per kind (Okabe and Ito's palette, for colour-blind readers),
/// in [`Kind::ALL`] order; other kinds get the last.
const KIND_COLOURS: [&str; 9] = [
    "#000000", "#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#b8a800",
    "#555555",
];

/// The whole HTML document of the report of `agg`.
pub fn render(agg: &Aggregate) -> String {
    let mut s = String::with_capacity(64 * 1024);
    s.push_str(HEAD);
    header(&mut s, agg);
    contents(&mut s, agg);
    games(&mut s, agg);
    kinds(&mut s, agg);
    by_year(&mut s, agg);
    heat_maps(&mut s, agg);
    distributions(&mut s, agg);
    points(&mut s, agg);
    players(&mut s, agg);
    examples(&mut s, agg);
    breakdowns(&mut s, agg);
    runs(&mut s, agg);
    s.push_str("</main>\n</body>\n</html>\n");
    s
}

const HEAD: &str = r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>pgn-arbiter statistics report</title>
<style>
body { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 15px; line-height: 1.4; color: #1b1b1b; background: #fff; margin: 0; }
main { max-width: 1120px; margin: 0 auto; padding: 16px 24px 48px; }
h1 { font-size: 24px; margin: 8px 0 4px; }
h2 { font-size: 19px; margin: 32px 0 8px; padding-top: 8px; border-top: 1px solid #ccc; }
h3 { font-size: 16px; margin: 20px 0 6px; }
p { margin: 6px 0; }
.meta { color: #444; }
.note { color: #555; font-size: 13px; }
nav ul { margin: 4px 0; padding-left: 20px; columns: 2; }
table { border-collapse: collapse; margin: 8px 0; font-size: 14px; }
th, td { border: 1px solid #ccc; padding: 3px 8px; vertical-align: top; }
th { background: #f2f2f2; text-align: left; font-weight: bold; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.name { max-width: 420px; overflow-wrap: anywhere; }
tr.changed td { background: #fff3cd; }
tfoot td { font-weight: bold; background: #fafafa; }
code { font-family: "DejaVu Sans Mono", monospace; font-size: 13px; }
svg { display: block; max-width: 100%; height: auto; margin: 6px 0; }
svg text { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 12px; fill: #1b1b1b; }
.legend span { display: inline-block; margin-right: 16px; font-size: 13px; }
.legend i { display: inline-block; width: 12px; height: 12px; margin-right: 5px; vertical-align: -1px; border: 1px solid #888; }
.ok { color: #1e7e34; }
.bad { color: #b00020; font-weight: bold; }
details { margin: 4px 0; }
.nw { white-space: nowrap; }
.scroll { overflow-x: auto; }
summary { cursor: pointer; color: #333; font-size: 14px; }
</style>
</head>
<body>
<main>
"#;

// ---------------------------------------------------------------------------
// Formatting
// ---------------------------------------------------------------------------

/// Text or an attribute value, HTML-escaped.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A `data-figure` attribute: the figure's path in the aggregate JSON.
fn fig(path: &[&str]) -> String {
    format!(" data-figure=\"{}\"", esc(&path.join(".")))
}

/// A right-aligned cell holding a count read from the aggregate.
fn count_cell(n: u64, path: &[&str]) -> String {
    format!("<td class=\"n\"{}>{}</td>", fig(path), thousands(n))
}

/// A right-aligned cell holding a figure computed here.
fn derived_cell(text: &str, what: &str) -> String {
    format!(
        "<td class=\"n\" data-derived=\"{}\">{}</td>",
        esc(what),
        text
    )
}

/// `part` per 1,000 of `whole`, two decimals; `-` for no games.
fn rate(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "-".into();
    }
    let r = 1000.0 * part as f64 / whole as f64;
    let text = format!("{r:.2}");
    let (int, frac) = text.split_once('.').unwrap_or((&text, "00"));
    format!("{}.{frac}", thousands(int.parse().unwrap_or(0)))
}

fn rate_value(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        1000.0 * part as f64 / whole as f64
    }
}

/// `part` as a percentage of `whole`, two decimals.
fn share(part: u64, whole: u64) -> String {
    if whole == 0 {
        "-".into()
    } else {
        format!("{:.2}%", 100.0 * part as f64 / whole as f64)
    }
}

/// Half-points as points: `7` → `3½`, `1` → `½`.
fn points_text(halves: u64) -> String {
    match (halves / 2, halves % 2) {
        (0, 1) => "½".into(),
        (p, 0) => thousands(p),
        (p, _) => format!("{}½", thousands(p)),
    }
}

/// A signed difference of half-points: `+½`, `−1`, `0`.
fn points_diff(laws: u64, recorded: u64) -> String {
    if laws == recorded {
        "0".into()
    } else if laws > recorded {
        format!("+{}", points_text(laws - recorded))
    } else {
        format!("\u{2212}{}", points_text(recorded - laws))
    }
}

/// A number for an SVG coordinate.
fn f(x: f64) -> String {
    let t = format!("{x:.1}");
    t.strip_suffix(".0").map(str::to_string).unwrap_or(t)
}

/// A bucket's name as shown: zero padding dropped (`0800-0999` →
/// `800-999`, `0005-0009` → `5-9`, `030-039` → `30-39`).
fn label(name: &str) -> String {
    let unpad = |p: &str| -> String {
        if p.len() > 1 && p.bytes().all(|b| b.is_ascii_digit()) {
            let t = p.trim_start_matches('0');
            if t.is_empty() {
                "0".into()
            } else {
                t.into()
            }
        } else {
            p.into()
        }
    };
    if let Some(p) = name.strip_suffix('+') {
        return format!("{}+", unpad(p));
    }
    match name.split_once('-') {
        Some((a, b)) if !a.is_empty() && !b.is_empty() => {
            let (ua, ub) = (unpad(a), unpad(b));
            if ua != a || ub != b || a.bytes().all(|c| c.is_ascii_digit()) {
                format!("{ua}-{ub}")
            } else {
                name.into()
            }
        }
        _ => unpad(name),
    }
}

/// The first number of a bucket name (`0005-0009` → 5), for ordering.
fn lower_bound(name: &str) -> Option<u64> {
    let digits: String = name.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// The kinds to show: every known kind, then any other the aggregate has.
fn kind_names(agg: &Aggregate) -> Vec<String> {
    let mut v: Vec<String> = Kind::ALL.iter().map(|k| k.name().to_string()).collect();
    for k in agg.kinds.keys() {
        if !v.contains(k) {
            v.push(k.clone());
        }
    }
    v
}

fn kind_of(name: &str) -> Option<Kind> {
    Kind::ALL.iter().copied().find(|k| k.name() == name)
}

fn kind_colour(name: &str) -> &'static str {
    match kind_of(name) {
        Some(k) => KIND_COLOURS[k.index()],
        None => KIND_COLOURS[8],
    }
}

fn article(name: &str) -> &'static str {
    match kind_of(name) {
        Some(Kind::DeadPosition) => "5.2.2 (9.6 in 2001)",
        Some(k) => k.article(crate::laws::Edition::Laws2018),
        None => "",
    }
}

fn what(name: &str) -> &'static str {
    match kind_of(name) {
        Some(Kind::InvalidGame) => "an illegal or unreadable move, or an illegal FEN",
        Some(Kind::MissedThreefold) => "a draw by threefold repetition not claimed",
        Some(Kind::MissedFiftyMoves) => "a draw under the fifty-move rule not claimed",
        Some(Kind::Fivefold) => {
            "fivefold repetition: drawn, yet play went on or not <span class=\"nw\">½-½</span>"
        }
        Some(Kind::SeventyfiveMoves) => {
            "75 moves each: drawn, yet play went on or not <span class=\"nw\">½-½</span>"
        }
        Some(Kind::DeadPosition) => {
            "dead position: drawn, yet play went on or not <span class=\"nw\">½-½</span>"
        }
        Some(Kind::UnwinnableFlag) => {
            "lost on time to a side that could not mate: <span class=\"nw\">½-½</span>"
        }
        Some(Kind::WrongResult) => "final checkmate or stalemate and the result disagrees",
        None => "",
    }
}

fn is_missed(name: &str) -> bool {
    kind_of(name).is_some_and(Kind::is_missed_claim)
}

/// Games judged: analysed + invalid (skipped games of other variants are
/// not judged); the base of every share and rate.
fn judged(agg: &Aggregate) -> u64 {
    agg.games.analysed + agg.games.invalid
}

fn legend(s: &mut String, items: &[(String, &str)]) {
    s.push_str("<p class=\"legend\">");
    for (name, colour) in items {
        let _ = write!(
            s,
            "<span><i style=\"background:{colour}\"></i>{}</span>",
            esc(name)
        );
    }
    s.push_str("</p>\n");
}

/// Ticks for an axis from 0 to at least `max`: (step, top); whole steps
/// for counts.
fn ticks(max: f64, counts: bool) -> (f64, f64) {
    if max <= 0.0 {
        return (1.0, 1.0);
    }
    let raw = max / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .filter(|st| !counts || st.fract() == 0.0)
        .find(|st| *st >= raw)
        .unwrap_or(10.0 * mag)
        .max(if counts { 1.0 } else { 0.0 });
    (step, (max / step).ceil() * step)
}

fn tick_text(v: f64, step: f64) -> String {
    if step >= 1.0 && v.fract() == 0.0 {
        thousands(v as u64)
    } else if step >= 0.1 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

// ---------------------------------------------------------------------------
// Sections
// ---------------------------------------------------------------------------

fn header(s: &mut String, agg: &Aggregate) {
    s.push_str("<h1>pgn-arbiter statistics report</h1>\n");
    let mut versions: Vec<String> = agg
        .run
        .iter()
        .map(|r| format!("{} {}", r.tool, r.version))
        .collect();
    versions.dedup();
    let inputs: usize = agg.run.iter().map(|r| r.inputs.len()).sum();
    let _ = writeln!(
        s,
        "<p class=\"meta\" id=\"made-by\">Made by {} from {} input{} in {} run{} (aggregate version {}). \
         Findings are judged against the FIDE Laws of Chess; each kind names its article.</p>",
        if versions.is_empty() {
            "pgn-arbiter".to_string()
        } else {
            esc(&versions.join(", "))
        },
        thousands(inputs as u64),
        if inputs == 1 { "" } else { "s" },
        thousands(agg.run.len() as u64),
        if agg.run.len() == 1 { "" } else { "s" },
        agg.schema_version
    );
    for (i, r) in agg.run.iter().enumerate() {
        let mut named: Vec<String> = r
            .inputs
            .iter()
            .take(INPUTS_NAMED)
            .map(|p| format!("<code>{}</code>", esc(p)))
            .collect();
        if r.inputs.len() > INPUTS_NAMED {
            named.push(format!(
                "and {} more",
                thousands((r.inputs.len() - INPUTS_NAMED) as u64)
            ));
        }
        let _ = writeln!(
            s,
            "<p class=\"meta\" data-run=\"{i}\">{}Inputs: {}. Laws: <code>{}</code>, dead positions: <code>{}</code>.</p>",
            if agg.run.len() > 1 {
                format!("Run {}: ", i + 1)
            } else {
                String::new()
            },
            if named.is_empty() {
                "none".to_string()
            } else {
                named.join(", ")
            },
            esc(&r.laws),
            esc(&r.dead)
        );
    }
}

fn contents(s: &mut String, agg: &Aggregate) {
    let mut items = vec![
        ("games", "Games"),
        ("kinds", "Findings by kind"),
        ("year", "Findings per 1,000 games by year"),
    ];
    if agg.by.contains_key("time_control_rating") {
        items.push(("heat-map", "Time control × rating"));
    }
    items.push(("distributions", "Distributions"));
    items.push(("points", "Points under Art. 11"));
    items.push(("players", "Players"));
    if !agg.examples.is_empty() {
        items.push(("examples", "Examples"));
    }
    items.push(("breakdowns", "Breakdowns"));
    items.push(("runs", "Runs"));
    s.push_str("<nav><ul>");
    for (id, title) in items {
        let _ = write!(s, "<li><a href=\"#{id}\">{title}</a></li>");
    }
    s.push_str("</ul></nav>\n");
}

fn games(s: &mut String, agg: &Aggregate) {
    let g = &agg.games;
    s.push_str("<h2 id=\"games\">Games</h2>\n<table>\n");
    let row = |s: &mut String, name: &str, key: &str, n: u64, note: &str| {
        let _ = writeln!(
            s,
            "<tr><th>{name}</th>{}<td class=\"note\">{note}</td></tr>",
            count_cell(n, &["games", key])
        );
    };
    row(s, "games read", "read", g.read, "");
    row(s, "analysed", "analysed", g.analysed, "replayed to the end");
    row(
        s,
        "invalid",
        "invalid",
        g.invalid,
        "an illegal move or FEN (Art. 3, 4); judged up to there",
    );
    row(
        s,
        "skipped",
        "skipped",
        g.skipped,
        "other variants, or text that is no game; not judged",
    );
    row(
        s,
        "of which no game",
        "not_pgn",
        g.not_pgn,
        "text with no tag pair, no move and no result token at its end",
    );
    row(
        s,
        "with findings",
        "flagged",
        g.flagged,
        "games with at least one finding",
    );
    row(s, "plies replayed", "plies", g.plies, "");
    s.push_str("</table>\n");
    let sum = g.analysed + g.invalid + g.skipped;
    let _ = writeln!(
        s,
        "<p id=\"accounting\">Accounting: read = analysed + invalid + skipped: {} = {} + {} + {} {}</p>",
        thousands(g.read),
        thousands(g.analysed),
        thousands(g.invalid),
        thousands(g.skipped),
        if sum == g.read {
            "<span class=\"ok\" data-derived=\"accounting\">(adds up)</span>".to_string()
        } else {
            format!(
                "<span class=\"bad\" data-derived=\"accounting\">(does not add up: the parts make {})</span>",
                thousands(sum)
            )
        }
    );
    let _ = writeln!(
        s,
        "<p>Shares and rates below are of the {} games judged (analysed + invalid).</p>",
        thousands(judged(agg))
    );
}

fn kinds(s: &mut String, agg: &Aggregate) {
    let names = kind_names(agg);
    let base = judged(agg);
    s.push_str("<h2 id=\"kinds\">Findings by kind</h2>\n");
    s.push_str(
        "<p>Games with a finding of each kind. A missed claim (Art. 9.2, 9.3) is split by what the player who could have claimed got in the end.</p>\n",
    );
    kinds_chart(s, agg, &names);
    s.push_str("<table id=\"kinds-table\">\n<thead><tr><th rowspan=\"2\">kind</th><th rowspan=\"2\">article</th><th rowspan=\"2\">what</th><th class=\"n\" rowspan=\"2\">games</th><th class=\"n\" rowspan=\"2\">share</th><th class=\"n\" rowspan=\"2\">per 1,000</th><th colspan=\"4\">missed claims, then</th><th colspan=\"2\">claim</th></tr>\n<tr>");
    for (o, _) in OUTCOMES {
        let _ = write!(s, "<th class=\"n\">{o}</th>");
    }
    s.push_str(
        "<th class=\"n\">occurred</th><th class=\"n\">announced</th></tr></thead>\n<tbody>\n",
    );
    for k in &names {
        let c = agg.kinds.get(k);
        let games = c.map_or(0, |c| c.games);
        let _ = write!(
            s,
            "<tr data-kind=\"{}\"><td><code>{}</code></td><td>{}</td><td>{}</td>{}{}{}",
            esc(k),
            esc(k),
            article(k),
            what(k),
            count_cell(games, &["kinds", k, "games"]),
            derived_cell(&share(games, base), &format!("kinds.{k}.share")),
            derived_cell(&rate(games, base), &format!("kinds.{k}.rate")),
        );
        let missed = is_missed(k) || c.is_some_and(|c| !c.outcome.is_empty() || !c.via.is_empty());
        for (o, _) in OUTCOMES {
            if missed {
                let n = c.and_then(|c| c.outcome.get(o)).copied().unwrap_or(0);
                s.push_str(&count_cell(n, &["kinds", k, "outcome", o]));
            } else {
                s.push_str("<td></td>");
            }
        }
        for v in ["occurred", "announced"] {
            if missed {
                let n = c.and_then(|c| c.via.get(v)).copied().unwrap_or(0);
                s.push_str(&count_cell(n, &["kinds", k, "via", v]));
            } else {
                s.push_str("<td></td>");
            }
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody>\n</table>\n");
    s.push_str("<p class=\"note\">A game is counted once per kind it has; a game may have several kinds. <i>Missed claims, then lost / drew / won / unknown</i>: the result for the player who could have claimed (unknown: <code>*</code> or no result). <i>Occurred</i>: the position or the 50 moves were on the board (9.2b, 9.3b); <i>announced</i>: a move bringing them about could have been announced (9.2a, 9.3a).</p>\n");
}

/// Horizontal bars: games per kind, missed claims stacked by outcome.
fn kinds_chart(s: &mut String, agg: &Aggregate, names: &[String]) {
    let (w, left, right, row_h, top) = (1000.0, 190.0, 90.0, 28.0, 10.0);
    let max = names
        .iter()
        .map(|k| agg.kinds.get(k).map_or(0, |c| c.games))
        .max()
        .unwrap_or(0);
    let (step, top_value) = ticks(max as f64, true);
    let plot = w - left - right;
    let h = top + row_h * names.len() as f64 + 30.0;
    let x = |v: f64| left + plot * v / top_value;
    let _ = writeln!(
        s,
        "<svg id=\"chart-kinds\" viewBox=\"0 0 {w} {}\" width=\"{w}\" height=\"{}\" role=\"img\" aria-label=\"Games with findings per kind\">",
        f(h),
        f(h)
    );
    let mut t = 0.0;
    while t <= top_value + step / 2.0 {
        let _ = writeln!(
            s,
            "<line x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\" stroke=\"#e3e3e3\"/><text x=\"{0}\" y=\"{3}\" text-anchor=\"middle\">{4}</text>",
            f(x(t)),
            f(top),
            f(h - 26.0),
            f(h - 10.0),
            tick_text(t, step)
        );
        t += step;
    }
    for (i, k) in names.iter().enumerate() {
        let y = top + row_h * i as f64;
        let c = agg.kinds.get(k);
        let games = c.map_or(0, |c| c.games);
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
            f(left - 8.0),
            f(y + row_h / 2.0 + 4.0),
            esc(k)
        );
        let mut at = 0u64;
        let bar_y = y + 4.0;
        let bar_h = row_h - 8.0;
        let split = c.is_some_and(|c| !c.outcome.is_empty());
        if split {
            let c = c.expect("split");
            for (o, colour) in OUTCOMES {
                let n = c.outcome.get(o).copied().unwrap_or(0);
                if n == 0 {
                    continue;
                }
                let _ = writeln!(
                    s,
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{colour}\"><title>{}: {} games, then {o}</title></rect>",
                    f(x(at as f64)),
                    f(bar_y),
                    f(x((at + n) as f64) - x(at as f64)),
                    f(bar_h),
                    esc(k),
                    thousands(n)
                );
                at += n;
            }
        }
        if games > at {
            let _ = writeln!(
                s,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{}: {} games</title></rect>",
                f(x(at as f64)),
                f(bar_y),
                f(x(games as f64) - x(at as f64)),
                f(bar_h),
                if split { "#bbbbbb" } else { "#4a6fa5" },
                esc(k),
                thousands(games - at)
            );
        }
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\">{}</text>",
            f(x(games as f64) + 6.0),
            f(y + row_h / 2.0 + 4.0),
            thousands(games)
        );
    }
    let _ = writeln!(
        s,
        "<line x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\" stroke=\"#333\"/>",
        f(left),
        f(top),
        f(h - 26.0)
    );
    s.push_str("</svg>\n");
    let mut items: Vec<(String, &str)> = OUTCOMES
        .iter()
        .map(|(o, c)| (format!("missed claim, then {o}"), *c))
        .collect();
    items.push(("other kinds".into(), "#4a6fa5"));
    legend(s, &items);
}

/// The buckets of a dimension in the order shown: known orders for time
/// control, year, rating and edition; by games otherwise.
fn ordered<'a>(dim: &str, buckets: &'a BTreeMap<String, Bucket>) -> Vec<(&'a String, &'a Bucket)> {
    let mut v: Vec<(&String, &Bucket)> = buckets.iter().collect();
    let last = |n: &str| n == "unknown" || n == "(none)";
    match dim {
        "time_control" => v.sort_by_key(|(n, _)| {
            TIME_CLASSES
                .iter()
                .position(|c| c == n)
                .unwrap_or(TIME_CLASSES.len())
        }),
        "year" | "rating" | "edition" => v.sort_by(|a, b| {
            (last(a.0), lower_bound(a.0), a.0).cmp(&(last(b.0), lower_bound(b.0), b.0))
        }),
        _ => v.sort_by(|a, b| b.1.games.cmp(&a.1.games).then(a.0.cmp(b.0))),
    }
    v
}

/// The kinds with a finding in some bucket of a dimension.
fn kinds_in(agg: &Aggregate, buckets: &BTreeMap<String, Bucket>) -> Vec<String> {
    let seen: BTreeSet<&String> = buckets.values().flat_map(|b| b.kinds.keys()).collect();
    kind_names(agg)
        .into_iter()
        .filter(|k| seen.contains(k))
        .collect()
}

fn by_year(s: &mut String, agg: &Aggregate) {
    s.push_str("<h2 id=\"year\">Findings per 1,000 games by year</h2>\n");
    let Some(years) = agg.by.get("year") else {
        s.push_str("<p>The aggregate has no breakdown by year.</p>\n");
        return;
    };
    let points: Vec<(u32, &Bucket)> = years
        .iter()
        .filter(|(_, b)| b.games >= MIN_YEAR_GAMES)
        .filter_map(|(n, b)| n.parse::<u32>().ok().map(|y| (y, b)))
        .collect();
    let kinds = kinds_in(agg, years);
    let _ = writeln!(
        s,
        "<p>Per kind, the games with that finding per 1,000 games judged of the year (<code>Date</code>, else <code>UTCDate</code>). Years with fewer than {MIN_YEAR_GAMES} games and games without a year are left out of the chart; the table under <a href=\"#by-year\">Breakdowns</a> has every year.</p>"
    );
    if points.is_empty() || kinds.is_empty() {
        s.push_str("<p id=\"chart-year-none\">Nothing to draw: no year with enough games and findings.</p>\n");
        return;
    }
    let (w, h, left, right, top, bottom) = (1000.0, 320.0, 70.0, 20.0, 14.0, 40.0);
    let (y0, y1) = (points[0].0, points[points.len() - 1].0);
    let max = points
        .iter()
        .flat_map(|(_, b)| {
            kinds
                .iter()
                .map(|k| rate_value(b.kinds.get(k).copied().unwrap_or(0), b.games))
        })
        .fold(0.0, f64::max);
    let (step, top_value) = ticks(max, false);
    let plot_w = w - left - right;
    let plot_h = h - top - bottom;
    let x = |y: u32| {
        if y1 == y0 {
            left + plot_w / 2.0
        } else {
            left + 10.0 + (plot_w - 20.0) * f64::from(y - y0) / f64::from(y1 - y0)
        }
    };
    let y = |v: f64| top + plot_h - plot_h * v / top_value;
    let _ = writeln!(
        s,
        "<svg id=\"chart-year\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\" aria-label=\"Findings per 1,000 games by year\">"
    );
    let mut t = 0.0;
    while t <= top_value + step / 2.0 {
        let _ = writeln!(
            s,
            "<line x1=\"{0}\" x2=\"{1}\" y1=\"{2}\" y2=\"{2}\" stroke=\"#e3e3e3\"/><text x=\"{3}\" y=\"{4}\" text-anchor=\"end\">{5}</text>",
            f(left),
            f(w - right),
            f(y(t)),
            f(left - 8.0),
            f(y(t) + 4.0),
            tick_text(t, step)
        );
        t += step;
    }
    // year labels: at most about 20
    let every = (points.len() / 20 + 1).max(1);
    for (i, (yr, _)) in points.iter().enumerate() {
        if i % every != 0 && i != points.len() - 1 {
            continue;
        }
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{yr}</text>",
            f(x(*yr)),
            f(h - bottom + 18.0)
        );
    }
    let _ = writeln!(
        s,
        "<line x1=\"{0}\" x2=\"{1}\" y1=\"{2}\" y2=\"{2}\" stroke=\"#333\"/><line x1=\"{0}\" x2=\"{0}\" y1=\"{3}\" y2=\"{2}\" stroke=\"#333\"/>",
        f(left),
        f(w - right),
        f(top + plot_h),
        f(top)
    );
    let _ = writeln!(
        s,
        "<text x=\"14\" y=\"{}\" transform=\"rotate(-90 14 {})\" text-anchor=\"middle\">per 1,000 games</text>",
        f(top + plot_h / 2.0),
        f(top + plot_h / 2.0)
    );
    for k in &kinds {
        let colour = kind_colour(k);
        let pts: Vec<String> = points
            .iter()
            .map(|(yr, b)| {
                format!(
                    "{},{}",
                    f(x(*yr)),
                    f(y(rate_value(b.kinds.get(k).copied().unwrap_or(0), b.games)))
                )
            })
            .collect();
        if pts.len() > 1 {
            let _ = writeln!(
                s,
                "<polyline points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"/>",
                pts.join(" ")
            );
        }
        for (yr, b) in &points {
            let n = b.kinds.get(k).copied().unwrap_or(0);
            let _ = writeln!(
                s,
                "<circle cx=\"{}\" cy=\"{}\" r=\"3.5\" fill=\"{colour}\"><title>{} {yr}: {} of {} games, {} per 1,000</title></circle>",
                f(x(*yr)),
                f(y(rate_value(n, b.games))),
                esc(k),
                thousands(n),
                thousands(b.games),
                rate(n, b.games)
            );
        }
    }
    s.push_str("</svg>\n");
    let items: Vec<(String, &str)> = kinds.iter().map(|k| (k.clone(), kind_colour(k))).collect();
    legend(s, &items);
}

/// Heat maps of `by.time_control_rating` (buckets `<class>|<band>`): missed
/// claims, and all findings, per 1,000 games.
fn heat_maps(s: &mut String, agg: &Aggregate) {
    let Some(cells) = agg.by.get("time_control_rating") else {
        return;
    };
    s.push_str("<h2 id=\"heat-map\">Time control × rating</h2>\n");
    let mut classes: Vec<String> = Vec::new();
    let mut bands: BTreeSet<(bool, Option<u64>, String)> = BTreeSet::new();
    let mut grid: BTreeMap<(String, String), (&String, &Bucket)> = BTreeMap::new();
    for (name, b) in cells {
        let (class, band) = name.split_once('|').unwrap_or((name.as_str(), "unknown"));
        if !classes.iter().any(|c| c == class) {
            classes.push(class.to_string());
        }
        bands.insert((band == "unknown", lower_bound(band), band.to_string()));
        grid.insert((class.to_string(), band.to_string()), (name, b));
    }
    classes.sort_by_key(|c| {
        (
            TIME_CLASSES
                .iter()
                .position(|t| t == c)
                .unwrap_or(TIME_CLASSES.len()),
            c.clone(),
        )
    });
    let bands: Vec<String> = bands.into_iter().map(|(_, _, b)| b).collect();
    let missed: Vec<String> = kind_names(agg)
        .into_iter()
        .filter(|k| is_missed(k))
        .collect();
    let all = kind_names(agg);
    let _ = writeln!(
        s,
        "<p>Rows: the time-control class of <code>TimeControl</code>; columns: the mean of <code>WhiteElo</code> and <code>BlackElo</code> in bands of 200 (a narrow column is named by its lowest rating: 1400 is 1400-1599). Each cell: findings per 1,000 games judged, and the games (a game with findings of two kinds counts twice). Cells with fewer than {MIN_CELL_GAMES} games are left white.</p>"
    );
    for (id, title, kinds) in [
        ("heat-missed", "Missed claims (Art. 9.2, 9.3)", &missed),
        ("heat-all", "All findings", &all),
    ] {
        let _ = writeln!(s, "<h3>{title}</h3>");
        heat_map(s, id, &classes, &bands, &grid, kinds);
    }
    s.push_str("<details><summary>The cells as a table</summary>\n");
    dim_table(s, agg, "time_control_rating", cells, None);
    s.push_str("</details>\n");
}

fn heat_map(
    s: &mut String,
    id: &str,
    classes: &[String],
    bands: &[String],
    grid: &BTreeMap<(String, String), (&String, &Bucket)>,
    kinds: &[String],
) {
    let sum = |b: &Bucket| -> u64 { kinds.iter().filter_map(|k| b.kinds.get(k)).sum() };
    let max = grid
        .values()
        .filter(|(_, b)| b.games >= MIN_CELL_GAMES)
        .map(|(_, b)| rate_value(sum(b), b.games))
        .fold(0.0, f64::max);
    let (left, top) = (130.0, 34.0);
    let cell_w = ((1000.0 - left) / bands.len().max(1) as f64).clamp(40.0, 90.0);
    let cell_h = 40.0;
    let w = left + cell_w * bands.len() as f64 + 4.0;
    let h = top + cell_h * classes.len() as f64 + 4.0;
    let _ = writeln!(
        s,
        "<svg id=\"{id}\" viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\" role=\"img\" aria-label=\"heat map\">",
        f(w),
        f(h),
        f(w),
        f(h)
    );
    for (j, band) in bands.iter().enumerate() {
        // narrow columns are named by the band's lowest rating, so that the
        // names do not run into each other
        let mut head = label(band);
        if cell_w < 80.0 {
            head = head.split('-').next().unwrap_or_default().to_string();
        }
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\"><title>{}</title>{}</text>",
            f(left + cell_w * (j as f64 + 0.5)),
            f(top - 10.0),
            esc(&label(band)),
            esc(&head)
        );
    }
    for (i, class) in classes.iter().enumerate() {
        let y = top + cell_h * i as f64;
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
            f(left - 8.0),
            f(y + cell_h / 2.0 + 4.0),
            esc(class)
        );
        for (j, band) in bands.iter().enumerate() {
            let x = left + cell_w * j as f64;
            let Some((name, b)) = grid.get(&(class.clone(), band.clone())) else {
                let _ = writeln!(
                    s,
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#fff\" stroke=\"#ddd\"/>",
                    f(x),
                    f(y),
                    f(cell_w),
                    f(cell_h)
                );
                continue;
            };
            let n = sum(b);
            let r = rate_value(n, b.games);
            let enough = b.games >= MIN_CELL_GAMES;
            let t = if enough && max > 0.0 { r / max } else { 0.0 };
            // white to dark blue
            let mix = |a: f64, z: f64| (a + (z - a) * t).round() as u8;
            let fill = if enough {
                format!(
                    "#{:02x}{:02x}{:02x}",
                    mix(255.0, 8.0),
                    mix(255.0, 48.0),
                    mix(255.0, 107.0)
                )
            } else {
                "#ffffff".into()
            };
            let ink = if !enough {
                "#8a8a8a"
            } else if t > 0.55 {
                "#ffffff"
            } else {
                "#1b1b1b"
            };
            let _ = writeln!(
                s,
                "<g data-cell=\"{}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{fill}\" stroke=\"#ddd\"><title>{} × {}: {} findings in {} games, {} per 1,000</title></rect>\
                 <text x=\"{}\" y=\"{}\" text-anchor=\"middle\" style=\"fill:{ink}\">{}</text>\
                 <text x=\"{}\" y=\"{}\" text-anchor=\"middle\" style=\"fill:{ink};font-size:10px\">{}</text></g>",
                esc(name),
                f(x),
                f(y),
                f(cell_w),
                f(cell_h),
                esc(class),
                esc(&label(band)),
                thousands(n),
                thousands(b.games),
                rate(n, b.games),
                f(x + cell_w / 2.0),
                f(y + 17.0),
                if b.games == 0 { "-".into() } else { format!("{:.1}", r) },
                f(x + cell_w / 2.0),
                f(y + 31.0),
                thousands(b.games)
            );
        }
    }
    s.push_str("</svg>\n");
    let _ = writeln!(
        s,
        "<p class=\"note\">Colour: from white (none) to dark blue ({} per 1,000, the highest rate of a cell of at least {MIN_CELL_GAMES} games).</p>",
        if max > 0.0 { format!("{max:.1}") } else { "-".into() }
    );
}

fn distributions(s: &mut String, agg: &Aggregate) {
    s.push_str("<h2 id=\"distributions\">Distributions</h2>\n");
    let known = [
        (
            "first_missed_claim_ply",
            "Ply of the missed claims",
            "Per missed claim (Art. 9.2, 9.3), the ply (half-move) at which it could first have been made, in buckets of 10 plies.",
            "ply",
        ),
        (
            "plies_after_end",
            "Plies played after the game had ended",
            "Per fivefold repetition, 75-move rule and dead position: the plies played after the position that ended the game.",
            "plies after the end",
        ),
        (
            "claims_let_pass",
            "Claims let pass",
            "Per missed claim: at how many plies the claim could have been made and was not (the finding's <code>occurrences</code>).",
            "claims let pass",
        ),
    ];
    let mut any = false;
    for (key, title, text, axis) in known {
        let Some(hist) = agg.distributions.get(key) else {
            continue;
        };
        any = true;
        let _ = writeln!(s, "<h3 id=\"dist-{key}\">{title}</h3>\n<p>{text}</p>");
        histogram(s, key, hist, axis);
    }
    for (key, hist) in &agg.distributions {
        if known.iter().any(|(k, ..)| k == key) {
            continue;
        }
        any = true;
        let _ = writeln!(s, "<h3>{}</h3>", esc(key));
        histogram(s, key, hist, key);
    }
    if !any {
        s.push_str("<p>No distribution: no finding they count.</p>\n");
    }
}

/// Buckets of a histogram, in order, with empty buckets between them
/// filled in (as 0, not in the JSON).
fn histogram_buckets(hist: &BTreeMap<String, u64>) -> Vec<(String, u64, bool)> {
    const COUNTS: [&str; 10] = [
        "0000",
        "0001",
        "0002",
        "0003",
        "0004",
        "0005-0009",
        "0010-0019",
        "0020-0049",
        "0050-0099",
        "0100+",
    ];
    let mut v: Vec<(&String, u64)> = hist.iter().map(|(k, n)| (k, *n)).collect();
    v.sort_by(|a, b| (lower_bound(a.0), a.0).cmp(&(lower_bound(b.0), b.0)));
    if v.is_empty() {
        return Vec::new();
    }
    if v.iter().all(|(k, _)| COUNTS.contains(&k.as_str())) {
        let pos = |k: &str| COUNTS.iter().position(|c| *c == k).unwrap_or(0);
        let (a, b) = (pos(v[0].0), pos(v[v.len() - 1].0));
        return COUNTS[a..=b]
            .iter()
            .map(|c| match hist.get(*c) {
                Some(n) => (c.to_string(), *n, true),
                None => (c.to_string(), 0, false),
            })
            .collect();
    }
    // uniform buckets `a-b`: fill the gaps
    let spans: Option<Vec<(u64, u64, usize)>> = v
        .iter()
        .map(|(k, _)| {
            let (a, b) = k.split_once('-')?;
            Some((a.parse().ok()?, b.parse().ok()?, a.len()))
        })
        .collect();
    if let Some(spans) = spans {
        let width = spans[0].1.saturating_sub(spans[0].0) + 1;
        if spans
            .iter()
            .all(|(a, b, _)| b + 1 - a == width && a % width == 0)
            && spans.len() < 500
        {
            let pad = spans[0].2;
            let (first, last) = (spans[0].0, spans[spans.len() - 1].0);
            let mut out = Vec::new();
            let mut a = first;
            while a <= last {
                let name = format!("{a:0pad$}-{:0pad$}", a + width - 1);
                match hist.get(&name) {
                    Some(n) => out.push((name, *n, true)),
                    None => out.push((name, 0, false)),
                }
                a += width;
            }
            if out.iter().filter(|o| o.2).count() == v.len() {
                return out;
            }
        }
    }
    v.into_iter().map(|(k, n)| (k.clone(), n, true)).collect()
}

fn histogram(s: &mut String, key: &str, hist: &BTreeMap<String, u64>, axis: &str) {
    let buckets = histogram_buckets(hist);
    let (w, h, left, right, top, bottom) = (1000.0, 260.0, 70.0, 20.0, 20.0, 76.0);
    let max = buckets.iter().map(|b| b.1).max().unwrap_or(0);
    let (step, top_value) = ticks(max as f64, true);
    let plot_w = w - left - right;
    let plot_h = h - top - bottom;
    let slot = plot_w / buckets.len().max(1) as f64;
    let y = |v: f64| top + plot_h - plot_h * v / top_value;
    let _ = writeln!(
        s,
        "<svg id=\"hist-{}\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\" aria-label=\"{}\">",
        esc(key),
        esc(axis)
    );
    let mut t = 0.0;
    while t <= top_value + step / 2.0 {
        let _ = writeln!(
            s,
            "<line x1=\"{0}\" x2=\"{1}\" y1=\"{2}\" y2=\"{2}\" stroke=\"#e3e3e3\"/><text x=\"{3}\" y=\"{4}\" text-anchor=\"end\">{5}</text>",
            f(left),
            f(w - right),
            f(y(t)),
            f(left - 8.0),
            f(y(t) + 4.0),
            tick_text(t, step)
        );
        t += step;
    }
    let every = (buckets.len() / 25 + 1).max(1);
    for (i, (name, n, _)) in buckets.iter().enumerate() {
        let x = left + slot * i as f64;
        let bar_w = (slot * 0.8).max(1.0);
        if *n > 0 {
            let _ = writeln!(
                s,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#4a6fa5\"><title>{}: {}</title></rect>",
                f(x + (slot - bar_w) / 2.0),
                f(y(*n as f64)),
                f(bar_w),
                f(top + plot_h - y(*n as f64)),
                esc(&label(name)),
                thousands(*n)
            );
            if slot >= 28.0 {
                let _ = writeln!(
                    s,
                    "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" style=\"font-size:11px\">{}</text>",
                    f(x + slot / 2.0),
                    f(y(*n as f64) - 4.0),
                    thousands(*n)
                );
            }
        }
        if i % every == 0 {
            let (lx, ly) = (x + slot / 2.0, top + plot_h + 14.0);
            if slot < 48.0 {
                let _ = writeln!(
                    s,
                    "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" transform=\"rotate(-40 {} {})\" style=\"font-size:11px\">{}</text>",
                    f(lx + 4.0),
                    f(ly),
                    f(lx + 4.0),
                    f(ly),
                    esc(&label(name))
                );
            } else {
                let _ = writeln!(
                    s,
                    "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                    f(lx),
                    f(ly),
                    esc(&label(name))
                );
            }
        }
    }
    let _ = writeln!(
        s,
        "<line x1=\"{0}\" x2=\"{1}\" y1=\"{2}\" y2=\"{2}\" stroke=\"#333\"/><text x=\"{3}\" y=\"{4}\" text-anchor=\"middle\">{5}</text>",
        f(left),
        f(w - right),
        f(top + plot_h),
        f(left + plot_w / 2.0),
        f(h - 4.0),
        esc(axis)
    );
    s.push_str("</svg>\n");
    s.push_str("<details><summary>The numbers</summary>\n<table>\n<thead><tr><th>bucket</th><th class=\"n\">findings</th></tr></thead>\n<tbody>\n");
    for (name, n, present) in &buckets {
        if *present {
            let _ = writeln!(
                s,
                "<tr><td>{}</td>{}</tr>",
                esc(&label(name)),
                count_cell(*n, &["distributions", key, name])
            );
        } else {
            let _ = writeln!(
                s,
                "<tr><td>{}</td><td class=\"n\">0</td></tr>",
                esc(&label(name))
            );
        }
    }
    s.push_str("</tbody>\n</table>\n</details>\n");
}

/// Competition ranks (1, 2, 2, 4) of `values`, higher first.
fn ranks(values: &[u64]) -> Vec<usize> {
    let mut sorted = values.to_vec();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    values
        .iter()
        .map(|v| 1 + sorted.partition_point(|o| o > v))
        .collect()
}

/// An event's standings: (player, `[games, recorded, laws]`, rank as
/// recorded, rank under the Laws), in order of the Laws, then as recorded.
type Standing<'a> = (&'a String, &'a [u64; 3], usize, usize);

fn standings(players: &BTreeMap<String, [u64; 3]>) -> Vec<Standing<'_>> {
    let rec = ranks(&players.values().map(|p| p[1]).collect::<Vec<_>>());
    let laws = ranks(&players.values().map(|p| p[2]).collect::<Vec<_>>());
    let mut v: Vec<Standing<'_>> = players
        .iter()
        .zip(rec.into_iter().zip(laws))
        .map(|((n, p), (r, l))| (n, p, r, l))
        .collect();
    v.sort_by(|a, b| (a.3, a.2, a.0).cmp(&(b.3, b.2, b.0)));
    v
}

/// Corrections listed per event.
const CORRECTIONS_LISTED: usize = 100;

fn points(s: &mut String, agg: &Aggregate) {
    s.push_str("<h2 id=\"points\">Points under Art. 11</h2>\n");
    let _ = writeln!(
        s,
        "<p>Per event, where a result is proven wrong (a fivefold repetition, 75 moves or a dead position the result ignores, a final checkmate or stalemate the result contradicts, a loss on time to a side that could not mate), each player's points as recorded and as the Laws give them (Art. 11: win 1, draw ½, loss 0), and whether the standings change: whether any player's rank differs (players with equal points share a rank). Standings are kept for events of at most {EVENT_PLAYER_CAP} players; larger ones (such as <code>Rated Blitz game</code>) list their corrections only. Missed claims change no result; each player's missed claims are shown beside the points.</p>"
    );
    let mut events: Vec<(&String, &crate::aggregate::EventPoints, Vec<Standing<'_>>)> = agg
        .points
        .iter()
        .filter(|(_, e)| !e.corrections.is_empty())
        .map(|(n, e)| (n, e, standings(&e.players)))
        .collect();
    // 0: standings change, 1: they do not, 2: not kept
    let state = |e: &crate::aggregate::EventPoints, st: &[Standing<'_>]| -> u8 {
        if e.untracked || st.is_empty() {
            2
        } else if st.iter().any(|r| r.2 != r.3) {
            0
        } else {
            1
        }
    };
    events.sort_by(|a, b| (state(a.1, &a.2), a.0).cmp(&(state(b.1, &b.2), b.0)));
    let tracked = agg.points.values().filter(|e| !e.untracked).count();
    let _ = writeln!(
        s,
        "<p>Events: {} with standings kept, <span data-figure=\"points_untracked_events\">{}</span> with more players (corrections only).</p>",
        thousands(tracked as u64),
        thousands(agg.points_untracked_events)
    );
    if events.is_empty() {
        s.push_str("<p id=\"points-none\">No result is proven wrong in any event.</p>\n");
        return;
    }
    let changed = events.iter().filter(|e| state(e.1, &e.2) == 0).count();
    let _ = writeln!(
        s,
        "<p id=\"points-summary\">{} events hold a result the Laws decide otherwise; the standings change in <span data-derived=\"points.standings_change\">{}</span> of them.</p>",
        thousands(events.len() as u64),
        thousands(changed as u64)
    );
    const STATE: [&str; 3] = [
        "<b>change</b>",
        "do not change",
        "not kept (too many players)",
    ];
    s.push_str("<table id=\"points-events\">\n<thead><tr><th>event</th><th class=\"n\">players</th><th class=\"n\">corrections</th><th>standings</th></tr></thead>\n<tbody>\n");
    for (i, (name, e, st)) in events.iter().enumerate() {
        let _ = writeln!(
            s,
            "<tr data-event=\"{}\"><td class=\"name\"><a href=\"#points-{i}\">{}</a></td><td class=\"n\">{}</td>{}<td data-derived=\"standings\">{}</td></tr>",
            esc(name),
            esc(name),
            if e.untracked {
                "-".to_string()
            } else {
                thousands(st.len() as u64)
            },
            derived_cell(&thousands(e.corrections.len() as u64), "corrections"),
            STATE[usize::from(state(e, st))]
        );
    }
    s.push_str("</tbody>\n</table>\n");
    for (i, (name, e, st)) in events.iter().enumerate() {
        let _ = writeln!(
            s,
            "<h3 id=\"points-{i}\">{}</h3>\n<p>{} correction{}; the standings {}.</p>",
            esc(name),
            thousands(e.corrections.len() as u64),
            if e.corrections.len() == 1 { "" } else { "s" },
            STATE[usize::from(state(e, st))]
        );
        if !st.is_empty() {
            standings_table(s, agg, name, e, st);
        }
        s.push_str("<table class=\"corrections\">\n<thead><tr><th>game_id</th><th>White</th><th>Black</th><th>recorded</th><th>under the Laws</th><th>kind</th></tr></thead>\n<tbody>\n");
        for c in e.corrections.iter().take(CORRECTIONS_LISTED) {
            let _ = writeln!(
                s,
                "<tr><td><code>{}</code></td><td class=\"name\">{}</td><td class=\"name\">{}</td><td>{}</td><td>{}</td><td><code>{}</code></td></tr>",
                esc(&c.game_id),
                esc(&c.white),
                esc(&c.black),
                esc(&c.recorded),
                esc(&c.laws),
                esc(&c.kind)
            );
        }
        s.push_str("</tbody>\n</table>\n");
        if e.corrections.len() > CORRECTIONS_LISTED {
            let _ = writeln!(
                s,
                "<p class=\"note\">The first {CORRECTIONS_LISTED} corrections by game_id; {} more in the aggregate JSON.</p>",
                thousands((e.corrections.len() - CORRECTIONS_LISTED) as u64)
            );
        }
    }
}

fn standings_table(
    s: &mut String,
    agg: &Aggregate,
    event: &str,
    e: &crate::aggregate::EventPoints,
    st: &[Standing<'_>],
) {
    let corrected: BTreeSet<&str> = e
        .corrections
        .iter()
        .flat_map(|c| [c.white.as_str(), c.black.as_str()])
        .collect();
    let shown: Vec<&Standing<'_>> = st
        .iter()
        .enumerate()
        .filter(|(j, r)| {
            st.len() <= ALL_PLAYERS_UP_TO
                || *j < 10
                || r.1[1] != r.1[2]
                || corrected.contains(r.0.as_str())
        })
        .map(|(_, r)| r)
        .collect();
    if shown.len() < st.len() {
        let _ = writeln!(
            s,
            "<p class=\"note\">{} of {} players shown: the first 10 under the Laws and the players of the corrected games.</p>",
            thousands(shown.len() as u64),
            thousands(st.len() as u64)
        );
    }
    s.push_str("<table class=\"standings\">\n<thead><tr><th>player</th><th class=\"n\">games</th><th class=\"n\">points recorded</th><th class=\"n\">rank</th><th class=\"n\">points under the Laws</th><th class=\"n\">rank</th><th class=\"n\">difference</th><th class=\"n\">missed claims (all events)</th></tr></thead>\n<tbody>\n");
    for (player, p, rr, rl) in shown {
        let path = |i: &str| fig(&["points", event, "players", player.as_str(), i]);
        let _ = write!(
            s,
            "<tr{}><td class=\"name\">{}</td><td class=\"n\"{}>{}</td><td class=\"n\"{}>{}</td>{}<td class=\"n\"{}>{}</td>{}{}",
            if rr != rl { " class=\"changed\"" } else { "" },
            esc(player),
            path("0"),
            thousands(p[0]),
            path("1"),
            points_text(p[1]),
            derived_cell(&rr.to_string(), "rank.recorded"),
            path("2"),
            points_text(p[2]),
            derived_cell(&rl.to_string(), "rank.laws"),
            derived_cell(&points_diff(p[2], p[1]), "difference"),
        );
        match agg.players.get(player.as_str()) {
            Some(c) => s.push_str(&count_cell(c.missed, &["players", player, "missed"])),
            None => s.push_str("<td class=\"n\">0</td>"),
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody>\n</table>\n");
}

fn players(s: &mut String, agg: &Aggregate) {
    let players = &agg.players;
    s.push_str("<h2 id=\"players\">Players</h2>\n");
    let _ = writeln!(
        s,
        "<p>The players who could have claimed a draw (Art. 9.2, 9.3) and did not, by the <code>White</code> or <code>Black</code> tag of the side to move: {} players. <i>Missed</i>: their missed claims, one per game and kind; <i>then lost</i>: those missed in games they then lost.</p>",
        thousands(players.len() as u64)
    );
    if agg.players_untracked > 0 {
        let _ = writeln!(
            s,
            "<p id=\"players-capped\"><b>The table of players was capped</b> to keep memory bounded: the first {} players with a missed claim are counted by name; <span data-figure=\"players_untracked\">{}</span> missed claims of further players are counted only in total, so these lists may leave players out.</p>",
            thousands(PLAYER_CAP as u64),
            thousands(agg.players_untracked)
        );
    } else {
        s.push_str("<p id=\"players-exact\">Every player with a missed claim was counted by name: the table is exact (<span data-figure=\"players_untracked\">0</span> claims left uncounted).</p>\n");
    }
    let mut v: Vec<(&String, &crate::aggregate::PlayerCounts)> = players.iter().collect();
    for (id, title, lost) in [
        ("players-missed", "Most missed claims", false),
        (
            "players-lost",
            "Most missed claims in games then lost",
            true,
        ),
    ] {
        let value = |c: &crate::aggregate::PlayerCounts| {
            if lost {
                c.lost_after_missed
            } else {
                c.missed
            }
        };
        v.sort_by(|a, b| value(b.1).cmp(&value(a.1)).then(a.0.cmp(b.0)));
        let top: Vec<&(&String, &crate::aggregate::PlayerCounts)> = v
            .iter()
            .filter(|(_, c)| value(c) > 0)
            .take(TOP_PLAYERS)
            .collect();
        let _ = writeln!(
            s,
            "<h3 id=\"{id}\">{title}</h3>\n<p class=\"note\">The first {TOP_PLAYERS}; equal counts share a rank and are listed by name.</p>"
        );
        if top.is_empty() {
            s.push_str("<p>None.</p>\n");
            continue;
        }
        let all: Vec<u64> = players.values().map(value).collect();
        let mut sorted = all.clone();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        s.push_str("<table>\n<thead><tr><th class=\"n\">rank</th><th>player</th><th class=\"n\">missed</th><th class=\"n\">then lost</th></tr></thead>\n<tbody>\n");
        for (name, c) in top {
            let rank = 1 + sorted.partition_point(|o| *o > value(c));
            let _ = writeln!(
                s,
                "<tr>{}<td class=\"name\">{}</td>{}{}</tr>",
                derived_cell(&rank.to_string(), "rank"),
                esc(name),
                count_cell(c.missed, &["players", name, "missed"]),
                count_cell(c.lost_after_missed, &["players", name, "lost_after_missed"]),
            );
        }
        s.push_str("</tbody>\n</table>\n");
    }
}

fn breakdowns(s: &mut String, agg: &Aggregate) {
    s.push_str("<h2 id=\"breakdowns\">Breakdowns</h2>\n");
    s.push_str("<p>Per value, the games judged, and per kind the games with that finding and their rate per 1,000 games of the value. Only kinds found in some value are listed.</p>\n");
    let known = [
        ("year", "Year", "of <code>Date</code>, else <code>UTCDate</code>"),
        ("edition", "Laws edition", "by <code>Date</code> (2001: before 2014-07-01; 2014: to 2017-12-31; 2018: from 2018-01-01), or as set by <code>--laws</code>"),
        ("time_control", "Time-control class", "from <code>TimeControl</code>, base + 40 × increment in seconds: ultrabullet &lt; 30, bullet &lt; 180, blitz &lt; 480, rapid &lt; 1,500, classical ≥ 1,500; <code>-</code>: correspondence"),
        ("rating", "Mean rating", "the mean of <code>WhiteElo</code> and <code>BlackElo</code>, when both are given, in bands of 200"),
        ("termination", "Termination", "the <code>Termination</code> tag"),
        ("event", "Largest events", "the <code>Event</code> tag"),
    ];
    for (dim, title, text) in known {
        let Some(buckets) = agg.by.get(dim) else {
            continue;
        };
        let _ = writeln!(
            s,
            "<h3 id=\"by-{dim}\">{title}</h3>\n<p class=\"note\">{text}.</p>"
        );
        let cap = match dim {
            "event" => Some(TOP_EVENTS),
            "termination" => Some(TOP_OTHER),
            _ => None,
        };
        dim_table(s, agg, dim, buckets, cap);
    }
    for (dim, buckets) in &agg.by {
        if known.iter().any(|(d, ..)| d == dim) || dim == "time_control_rating" {
            continue;
        }
        let _ = writeln!(s, "<h3 id=\"by-{}\">{}</h3>", esc(dim), esc(dim));
        dim_table(s, agg, dim, buckets, Some(TOP_OTHER));
    }
}

/// The table of one dimension: a row per bucket (the `cap` largest by
/// games when given).
fn dim_table(
    s: &mut String,
    agg: &Aggregate,
    dim: &str,
    buckets: &BTreeMap<String, Bucket>,
    cap: Option<usize>,
) {
    let kinds = kinds_in(agg, buckets);
    let mut rows = ordered(dim, buckets);
    let total: u64 = buckets.values().map(|b| b.games).sum();
    let mut left_out = None;
    if let Some(cap) = cap {
        if rows.len() > cap {
            rows.sort_by(|a, b| b.1.games.cmp(&a.1.games).then(a.0.cmp(b.0)));
            let rest: u64 = rows[cap..].iter().map(|(_, b)| b.games).sum();
            left_out = Some((rows.len() - cap, rest));
            rows.truncate(cap);
        }
    }
    if let Some((n, games)) = left_out {
        let _ = writeln!(
            s,
            "<p class=\"note\">The {} largest of {} values by games; the other {} hold {} games.</p>",
            rows.len(),
            thousands(buckets.len() as u64),
            thousands(n as u64),
            thousands(games)
        );
    }
    let _ = write!(
        s,
        "<div class=\"scroll\"><table class=\"dim\" data-dimension=\"{}\">\n<thead><tr><th>{}</th><th class=\"n\">games</th>",
        esc(dim),
        esc(dim)
    );
    for k in &kinds {
        let _ = write!(
            s,
            "<th class=\"n\"><code>{}</code></th><th class=\"n\">per 1,000</th>",
            esc(k).replace('_', "_<wbr>")
        );
    }
    s.push_str("</tr></thead>\n<tbody>\n");
    for (name, b) in &rows {
        let _ = write!(
            s,
            "<tr><td class=\"name\">{}</td>{}",
            esc(&label(name)),
            count_cell(b.games, &["by", dim, name, "games"])
        );
        for k in &kinds {
            let n = b.kinds.get(k).copied().unwrap_or(0);
            s.push_str(&count_cell(n, &["by", dim, name, "kinds", k]));
            s.push_str(&derived_cell(&rate(n, b.games), "rate"));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody>\n");
    if left_out.is_none() && rows.len() > 1 {
        let _ = write!(
            s,
            "<tfoot><tr><td>all</td>{}",
            derived_cell(&thousands(total), "total")
        );
        for k in &kinds {
            let n: u64 = buckets.values().filter_map(|b| b.kinds.get(k)).sum();
            s.push_str(&derived_cell(&thousands(n), "total"));
            s.push_str(&derived_cell(&rate(n, total), "rate"));
        }
        s.push_str("</tr></tfoot>\n");
    }
    s.push_str("</table></div>\n");
    if kinds.is_empty() {
        s.push_str("<p class=\"note\">No finding in any value.</p>\n");
    }
}

fn runs(s: &mut String, agg: &Aggregate) {
    s.push_str("<h2 id=\"runs\">Runs</h2>\n");
    s.push_str("<p>The runs merged into this report (<code>run</code> of the aggregate: what depends on how the work was split).</p>\n");
    s.push_str("<table id=\"runs-table\">\n<thead><tr><th class=\"n\">run</th><th>tool</th><th>laws</th><th>dead</th><th class=\"n\">inputs</th><th class=\"n\">threads</th><th class=\"n\">seconds</th></tr></thead>\n<tbody>\n");
    for (i, r) in agg.run.iter().enumerate() {
        let _ = writeln!(
            s,
            "<tr><td class=\"n\">{}</td><td>{} {}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{:.2}</td></tr>",
            i + 1,
            esc(&r.tool),
            esc(&r.version),
            esc(&r.laws),
            esc(&r.dead),
            thousands(r.inputs.len() as u64),
            r.threads,
            r.seconds
        );
    }
    s.push_str("</tbody>\n</table>\n");
}

/// The first findings of each kind, in input order.
fn examples(s: &mut String, agg: &Aggregate) {
    if agg.examples.is_empty() {
        return;
    }
    let _ = writeln!(s, "<h2 id=\"examples\">Examples</h2>");
    let _ = writeln!(
        s,
        "<p>The first findings of each kind, in input order: the game (counted from 1, with the line where it starts), the players, the move as people write it, and the game on its site where <code>Site</code> is a link (Lichess at the ply).</p>"
    );
    for kind in Kind::ALL {
        let Some(rows) = agg.examples.get(kind.name()) else {
            continue;
        };
        let _ = writeln!(s, "<h3><code>{}</code></h3>", esc(kind.name()));
        let _ = writeln!(
            s,
            "<table><tr><th>game</th><th>players</th><th>move</th><th>what</th></tr>"
        );
        for r in rows {
            let game = format!("{}: game {} (line {})", r.file, r.game, r.line);
            let game = match &r.link {
                Some(l) => format!("<a href=\"{}\">{}</a>", esc(l), esc(&game)),
                None => esc(&game),
            };
            let _ = writeln!(
                s,
                "<tr><td class=\"name\">{game}</td><td class=\"name\">{}</td><td class=\"nw\">{}</td><td>{}</td></tr>",
                esc(&r.players),
                esc(&r.place),
                esc(&r.what)
            );
        }
        let _ = writeln!(s, "</table>");
    }
}
