//! The section of breakdowns: a table per dimension of the aggregate
//! (`by.year`, `by.event`, ...), also used for the heat map's cells.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::format::{count_cell, derived_cell, esc, rate};
use super::names::{event_labels, kinds_in, label, ordered};
use crate::aggregate::{Aggregate, Bucket};
use crate::text::thousands;

/// The events listed in the table of the largest events.
const TOP_EVENTS: usize = 25;

/// Rows of a breakdown table of a dimension this page does not know.
const TOP_OTHER: usize = 50;

pub(super) fn breakdowns(s: &mut String, agg: &Aggregate) {
    s.push_str("<h2 id=\"breakdowns\">Breakdowns</h2>\n");
    s.push_str("<p>Per value, the games judged, and per kind the games with that finding and their rate per 1,000 games of the value. Only kinds found in some value are listed.</p>\n");
    let known = [
        ("year", "Year", "of <code>Date</code>, else <code>UTCDate</code>"),
        ("edition", "Laws edition", "by <code>Date</code> (2001: before 2014-07-01; 2014: to 2017-12-31; 2018: from 2018-01-01), or as set by <code>--laws</code>"),
        ("time_control", "Time-control class", "from <code>TimeControl</code>, base + 40 × increment in seconds: ultrabullet &lt; 30, bullet &lt; 180, blitz &lt; 480, rapid &lt; 1,500, classical ≥ 1,500; <code>-</code>: correspondence"),
        ("rating", "Mean rating", "the mean of <code>WhiteElo</code> and <code>BlackElo</code>, when both are given, in bands of 200"),
        ("termination", "Termination", "the <code>Termination</code> tag"),
        ("event", "Largest events", "the <code>Event</code> tag, <code>Site</code> (a URL's host) and year (of <code>EventDate</code>, else <code>Date</code>); the year named where two events share a tag"),
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
pub(super) fn dim_table(
    s: &mut String,
    agg: &Aggregate,
    dim: &str,
    buckets: &BTreeMap<String, Bucket>,
    cap: Option<usize>,
) {
    let kinds = kinds_in(agg, buckets);
    let events = if dim == "event" {
        event_labels(agg)
    } else {
        BTreeMap::new()
    };
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
            "<p class=\"note\">The {} largest of {} values by games; the other {} hold {}.</p>",
            rows.len(),
            thousands(buckets.len() as u64),
            thousands(n as u64),
            crate::text::count(games, "game", "games")
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
            esc(&events
                .get(name.as_str())
                .cloned()
                .unwrap_or_else(|| label(name))),
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
