//! The section of points under Art. 11: per event with a result proven
//! wrong, the standings as recorded and as the Laws give them, and the
//! corrections.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::format::{count_cell, derived_cell, esc, fig, points_diff, points_text};
use crate::aggregate::{Aggregate, EVENT_PLAYER_CAP};
use crate::text::thousands;

/// An event's points table lists every player up to this many players.
const ALL_PLAYERS_UP_TO: usize = 40;

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

pub(super) fn points(s: &mut String, agg: &Aggregate) {
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
