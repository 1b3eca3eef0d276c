//! The sections of the page other than points and breakdowns: header,
//! contents, games, findings by kind, by year, heat maps, distributions,
//! players, examples and runs.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::breakdowns::dim_table;
use super::format::{count_cell, derived_cell, esc, judged, rate, share};
use super::names::{
    article, is_missed, kind_names, kinds_in, label, lower_bound, what, OUTCOMES, TIME_CLASSES,
};
use super::svg::{self, MIN_CELL_GAMES};
use crate::aggregate::{Aggregate, Bucket, ExampleRow};
use crate::finding::Kind;
use crate::text::thousands;

/// The players listed in each table of players.
const TOP_PLAYERS: usize = 20;

/// Years with fewer games judged are left out of the chart by year.
const MIN_YEAR_GAMES: u64 = 100;

/// Inputs named per run in the header.
const INPUTS_NAMED: usize = 20;

pub(super) fn header(s: &mut String, agg: &Aggregate) {
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

pub(super) fn contents(s: &mut String, agg: &Aggregate) {
    let mut items = vec![("games", "Games")];
    if !agg.duplicates.mode.is_empty() {
        items.push(("duplicates", "Duplicate games"));
    }
    items.extend([
        ("kinds", "Findings by kind"),
        ("year", "Findings per 1,000 games by year"),
    ]);
    if agg.by.contains_key("time_control_rating") {
        items.push(("heat-map", "Time control × rating"));
    }
    items.push(("distributions", "Distributions"));
    items.push(("points", "Points under Art. 11"));
    if !agg.sites.is_empty() {
        items.push(("sites", "Site rules"));
    }
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

pub(super) fn games(s: &mut String, agg: &Aggregate) {
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
    let left_out = agg.duplicates.left_out;
    let _ = writeln!(
        s,
        "<p>Shares and rates below are of the {} judged (analysed + invalid{}).</p>",
        crate::text::count(judged(agg), "game", "games"),
        if left_out > 0 {
            format!(
                ", but the {} of earlier games left out: see <a href=\"#duplicates\">Duplicate games</a>",
                crate::text::count(left_out, "repeat", "repeats")
            )
        } else {
            String::new()
        }
    );
}

pub(super) fn kinds(s: &mut String, agg: &Aggregate) {
    let names = kind_names(agg);
    let base = judged(agg);
    s.push_str("<h2 id=\"kinds\">Findings by kind</h2>\n");
    s.push_str(
        "<p>Games with a finding of each kind. A missed claim (Art. 9.2, 9.3) is split by what the player who could have claimed got in the end.</p>\n",
    );
    svg::kinds_chart(s, agg, &names);
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

/// The section of findings per 1,000 games by year: the years with enough
/// games and the kinds found in them, drawn by `svg::year_chart`.
pub(super) fn by_year(s: &mut String, agg: &Aggregate) {
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
    svg::year_chart(s, &points, &kinds);
}

/// Heat maps of `by.time_control_rating` (buckets `<class>|<band>`): missed
/// claims, and all findings, per 1,000 games.
pub(super) fn heat_maps(s: &mut String, agg: &Aggregate) {
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
        svg::heat_map(s, id, &classes, &bands, &grid, kinds);
    }
    s.push_str("<details><summary>The cells as a table</summary>\n");
    dim_table(s, agg, "time_control_rating", cells, None);
    s.push_str("</details>\n");
}

pub(super) fn distributions(s: &mut String, agg: &Aggregate) {
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
        distribution(s, key, hist, axis);
    }
    for (key, hist) in &agg.distributions {
        if known.iter().any(|(k, ..)| k == key) {
            continue;
        }
        any = true;
        let _ = writeln!(s, "<h3>{}</h3>", esc(key));
        distribution(s, key, hist, key);
    }
    if !any {
        s.push_str("<p>No distribution: no finding they count.</p>\n");
    }
}

/// One distribution: its histogram, then its numbers folded away under it
/// (buckets filled in between show 0 and carry no `data-figure`, as the
/// JSON has no such key).
fn distribution(s: &mut String, key: &str, hist: &BTreeMap<String, u64>, axis: &str) {
    let buckets = svg::histogram_buckets(hist);
    svg::histogram(s, key, &buckets, axis);
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

pub(super) fn players(s: &mut String, agg: &Aggregate) {
    let players = &agg.players;
    s.push_str("<h2 id=\"players\">Players</h2>\n");
    let _ = writeln!(
        s,
        "<p>The players who could have claimed a draw (Art. 9.2, 9.3) and did not, by the <code>White</code> or <code>Black</code> tag of the side to move: {}. <i>Missed</i>: their missed claims, one per game and kind; <i>then lost</i>: those missed in games they then lost.</p>",
        crate::text::count(players.len() as u64, "player", "players")
    );
    s.push_str("<p id=\"players-exact\">Every player with a missed claim is counted by name, however many there are.</p>\n");
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

pub(super) fn runs(s: &mut String, agg: &Aggregate) {
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
pub(super) fn examples(s: &mut String, agg: &Aggregate) {
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
        example_rows(s, rows);
        let _ = writeln!(s, "</table>");
    }
}

/// The rows of a table of examples: game (linked where it has a link),
/// players, move, what.
pub(super) fn example_rows(s: &mut String, rows: &[ExampleRow]) {
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
}
