//! The section of points under Art. 11: per event with a result proven
//! wrong, the standings as recorded and as the Laws give them, and the
//! corrected games, each named so an arbiter can find it (file, game,
//! round, date, link). Events are told apart by tag, site and year
//! ([`crate::aggregate::event`]).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::format::{derived_cell, esc, fig, points_diff, points_text};
use super::names::event_labels;
use crate::aggregate::{event, Aggregate, Correction, EventPoints, EVENT_PLAYER_CAP};
use crate::text::thousands;

/// An event's points table lists every player up to this many players.
const ALL_PLAYERS_UP_TO: usize = 40;

/// Beyond [`ALL_PLAYERS_UP_TO`], the first players under the Laws shown
/// besides those whose points or rank change.
const LEADERS: usize = 10;

/// Corrections listed per event.
const CORRECTIONS_LISTED: usize = 100;

/// Competition ranks (1, 2, 2, 4) of `values`, higher first.
fn ranks(values: &[u64]) -> Vec<usize> {
    let mut sorted = values.to_vec();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    values
        .iter()
        .map(|v| 1 + sorted.partition_point(|o| o > v))
        .collect()
}

/// A player's line in an event's standings.
struct Standing<'a> {
    name: &'a String,
    /// `[games, recorded, laws]`, points in halves.
    points: &'a [u64; 3],
    rank_recorded: usize,
    rank_laws: usize,
}

impl Standing<'_> {
    fn points_move(&self) -> bool {
        self.points[1] != self.points[2]
    }

    fn rank_moves(&self) -> bool {
        self.rank_recorded != self.rank_laws
    }
}

/// An event's standings in order of the Laws, then as recorded, then name.
fn standings(players: &BTreeMap<String, [u64; 3]>) -> Vec<Standing<'_>> {
    let rec = ranks(&players.values().map(|p| p[1]).collect::<Vec<_>>());
    let laws = ranks(&players.values().map(|p| p[2]).collect::<Vec<_>>());
    let mut v: Vec<Standing<'_>> = players
        .iter()
        .zip(rec.into_iter().zip(laws))
        .map(|((name, points), (r, l))| Standing {
            name,
            points,
            rank_recorded: r,
            rank_laws: l,
        })
        .collect();
    v.sort_by(|a, b| {
        (a.rank_laws, a.rank_recorded, a.name).cmp(&(b.rank_laws, b.rank_recorded, b.name))
    });
    v
}

/// What becomes of an event's standings, in the order the events are
/// listed.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum State {
    /// Some player's rank changes.
    RanksChange,
    /// Points change, no rank does.
    PointsOnly,
    /// Neither (a correction between players not in the standings: never,
    /// but said if so).
    Unchanged,
    /// More players than [`EVENT_PLAYER_CAP`]: no standings.
    NotKept,
}

impl State {
    fn of(e: &EventPoints, st: &[Standing<'_>]) -> State {
        if e.untracked || st.is_empty() {
            State::NotKept
        } else if st.iter().any(Standing::rank_moves) {
            State::RanksChange
        } else if st.iter().any(Standing::points_move) {
            State::PointsOnly
        } else {
            State::Unchanged
        }
    }

    fn text(self) -> &'static str {
        match self {
            State::RanksChange => "<b>ranks change</b>",
            State::PointsOnly => "points change, ranks do not",
            State::Unchanged => "do not change",
            State::NotKept => "not kept (more players)",
        }
    }
}

/// An event with corrections: its key, label, points and standings.
type Row<'a> = (&'a String, String, &'a EventPoints, Vec<Standing<'a>>);

pub(super) fn points(s: &mut String, agg: &Aggregate) {
    s.push_str("<h2 id=\"points\">Points under Art. 11</h2>\n");
    let _ = writeln!(
        s,
        "<p>Per event, where a result is proven wrong (a fivefold repetition, 75 moves or a dead position the result ignores, a final checkmate or stalemate the result contradicts, a loss on time to a side that could not mate), each player's points as recorded and as the Laws give them (Art. 11: win 1, draw ½, loss 0), and whether the standings change (players with equal points share a rank). An event is its <code>Event</code> tag, <code>Site</code> (a URL's host) and year (of <code>EventDate</code>, else <code>Date</code>); its name carries the year where two events share a tag. Standings are kept for events of at most {EVENT_PLAYER_CAP} players; larger ones (such as <code>Rated Blitz game</code>) list their corrections only. Missed claims change no result.</p>\n<p id=\"points-partial\"><b>Standings cover only the games present in the inputs.</b> An event whose games come from per-player collections (pgnmentor's files hold one player's games) is partial: its points are those of the games read, not the tournament's table.</p>"
    );
    let labels = event_labels(agg);
    let mut events: Vec<Row<'_>> = agg
        .points
        .iter()
        .filter(|(_, e)| !e.corrections.is_empty())
        .map(|(k, e)| (k, labels[k.as_str()].clone(), e, standings(&e.players)))
        .collect();
    events.sort_by(|a, b| (State::of(a.2, &a.3), &a.1).cmp(&(State::of(b.2, &b.3), &b.1)));
    let _ = writeln!(
        s,
        "<p>Events: <span data-figure=\"points_events\">{}</span> with standings kept, <span data-figure=\"points_untracked_events\">{}</span> with more players (corrections only).</p>",
        thousands(agg.points_events),
        thousands(agg.points_untracked_events)
    );
    if events.is_empty() {
        s.push_str("<p id=\"points-none\">No result is proven wrong in any event.</p>\n");
        return;
    }
    summary(s, &events);
    events_table(s, &events);
    for (i, (key, label, e, st)) in events.iter().enumerate() {
        let (tag, site, year) = event::parts(key);
        let _ = writeln!(
            s,
            "<h3 id=\"points-{i}\">{}</h3>\n<p><code>Event</code> {}, site {}, year {}: {} correction{}; the standings: {}.</p>",
            esc(label),
            esc(tag),
            if site.is_empty() { "unknown".into() } else { esc(site) },
            if year.is_empty() { "unknown" } else { year },
            thousands(e.corrections.len() as u64),
            if e.corrections.len() == 1 { "" } else { "s" },
            State::of(e, st).text()
        );
        if !st.is_empty() {
            standings_table(s, key, e, st);
        }
        corrections_table(s, &e.corrections);
    }
}

/// The counts as they are: events with a correction, and of them those
/// whose ranks change, whose points alone change, and those without
/// standings.
fn summary(s: &mut String, events: &[Row<'_>]) {
    let count = |state: State| {
        let n = events
            .iter()
            .filter(|e| State::of(e.2, &e.3) == state)
            .count();
        thousands(n as u64)
    };
    let _ = writeln!(
        s,
        "<p id=\"points-summary\">{} a result the Laws decide otherwise. Of them, <span data-derived=\"points.standings_change\">{}</span> have standings in which a rank changes, <span data-derived=\"points.points_only\">{}</span> standings in which points change and no rank, and <span data-derived=\"points.not_kept\">{}</span> have no standings (more than {EVENT_PLAYER_CAP} players).</p>",
        crate::text::count(events.len() as u64, "event holds", "events hold"),
        count(State::RanksChange),
        count(State::PointsOnly),
        count(State::NotKept)
    );
}

fn events_table(s: &mut String, events: &[Row<'_>]) {
    s.push_str("<table id=\"points-events\">\n<thead><tr><th>event</th><th class=\"n\">players</th><th class=\"n\">corrections</th><th class=\"n\">points change</th><th class=\"n\">ranks change</th><th>standings</th></tr></thead>\n<tbody>\n");
    for (i, (key, label, e, st)) in events.iter().enumerate() {
        let kept = !(e.untracked || st.is_empty());
        let of = |n: usize| {
            if kept {
                thousands(n as u64)
            } else {
                "-".into()
            }
        };
        let _ = writeln!(
            s,
            "<tr data-event=\"{}\"><td class=\"name\"><a href=\"#points-{i}\">{}</a></td><td class=\"n\">{}</td>{}{}{}<td data-derived=\"standings\">{}</td></tr>",
            esc(key),
            esc(label),
            of(st.len()),
            derived_cell(&thousands(e.corrections.len() as u64), "corrections"),
            derived_cell(&of(st.iter().filter(|r| r.points_move()).count()), "points_change"),
            derived_cell(&of(st.iter().filter(|r| r.rank_moves()).count()), "ranks_change"),
            State::of(e, st).text()
        );
    }
    s.push_str("</tbody>\n</table>\n");
}

/// The standings: every player up to [`ALL_PLAYERS_UP_TO`], else the first
/// [`LEADERS`], every player whose points or rank change, and the players
/// of the corrected games. Points that change and ranks that change are
/// marked apart.
fn standings_table(s: &mut String, event: &str, e: &EventPoints, st: &[Standing<'_>]) {
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
                || *j < LEADERS
                || r.points_move()
                || r.rank_moves()
                || corrected.contains(r.name.as_str())
        })
        .map(|(_, r)| r)
        .collect();
    if shown.len() < st.len() {
        let _ = writeln!(
            s,
            "<p class=\"note\">{} of {} players shown: the first {LEADERS} under the Laws, every player whose points or rank change, and the players of the corrected games.</p>",
            thousands(shown.len() as u64),
            thousands(st.len() as u64)
        );
    }
    if !e.joined.is_empty() {
        let joined: Vec<String> = e
            .joined
            .iter()
            .map(|(name, others)| {
                format!("{} (also written {})", esc(name), esc(&others.join(", ")))
            })
            .collect();
        let _ = writeln!(
            s,
            "<p class=\"note joined\">One player under one name: {}.</p>",
            joined.join("; ")
        );
    }
    s.push_str("<p class=\"note legend\"><span><i class=\"points-moved\"></i>points change</span><span><i class=\"rank-moved\"></i>rank changes</span></p>\n");
    s.push_str("<table class=\"standings\">\n<thead><tr><th>player</th><th class=\"n\">games</th><th class=\"n\">points recorded</th><th class=\"n\">rank</th><th class=\"n\">points under the Laws</th><th class=\"n\">rank</th><th class=\"n\">difference</th></tr></thead>\n<tbody>\n");
    for r in shown {
        let path = |i: &str| fig(&["points", event, "players", r.name.as_str(), i]);
        let mark = |moved: bool, class: &str| {
            if moved {
                format!(" {class}")
            } else {
                String::new()
            }
        };
        let pm = mark(r.points_move(), "points-moved");
        let rm = mark(r.rank_moves(), "rank-moved");
        let _ = writeln!(
            s,
            "<tr{}><td class=\"name\">{}</td><td class=\"n\"{}>{}</td><td class=\"n\"{}>{}</td><td class=\"n{rm}\" data-derived=\"rank.recorded\">{}</td><td class=\"n{pm}\"{}>{}</td><td class=\"n{rm}\" data-derived=\"rank.laws\">{}</td><td class=\"n{pm}\" data-derived=\"difference\">{}</td></tr>",
            if r.points_move() || r.rank_moves() { " class=\"changed\"" } else { "" },
            esc(r.name),
            path("0"),
            thousands(r.points[0]),
            path("1"),
            points_text(r.points[1]),
            r.rank_recorded,
            path("2"),
            points_text(r.points[2]),
            r.rank_laws,
            points_diff(r.points[2], r.points[1]),
        );
    }
    s.push_str("</tbody>\n</table>\n");
}

/// The corrected games, each where an arbiter finds it: file and game
/// number (1-based), round, date, players, the results, the article and
/// kind, and the game on its site where `Site` is a URL.
fn corrections_table(s: &mut String, corrections: &[Correction]) {
    s.push_str("<table class=\"corrections\">\n<thead><tr><th>file</th><th class=\"n\">game</th><th>round</th><th>date</th><th>White</th><th>Black</th><th>recorded</th><th>under the Laws</th><th>article</th><th>kind</th><th>link</th></tr></thead>\n<tbody>\n");
    let or_dash = |t: &str| if t.is_empty() { "-".into() } else { esc(t) };
    for c in corrections.iter().take(CORRECTIONS_LISTED) {
        let link = match &c.link {
            Some(url) => format!("<a href=\"{}\">on its site</a>", esc(url)),
            None => "-".into(),
        };
        let _ = writeln!(
            s,
            "<tr title=\"game_id {}\"><td class=\"name\">{}</td><td class=\"n\">{}</td><td>{}</td><td class=\"nw\">{}</td><td class=\"name\">{}</td><td class=\"name\">{}</td><td class=\"nw\">{}</td><td class=\"nw\">{}</td><td class=\"nw\">{}</td><td><code>{}</code></td><td>{}</td></tr>",
            esc(&c.game_id),
            or_dash(&c.file),
            if c.game == 0 { "-".into() } else { thousands(c.game) },
            or_dash(&c.round),
            or_dash(&c.date),
            esc(&c.white),
            esc(&c.black),
            esc(&c.recorded),
            esc(&c.laws),
            or_dash(&c.article),
            esc(&c.kind),
            link
        );
    }
    s.push_str("</tbody>\n</table>\n");
    if corrections.len() > CORRECTIONS_LISTED {
        let _ = writeln!(
            s,
            "<p class=\"note\">The first {CORRECTIONS_LISTED} corrections by file and game; {} more in the aggregate JSON.</p>",
            thousands((corrections.len() - CORRECTIONS_LISTED) as u64)
        );
    }
}
