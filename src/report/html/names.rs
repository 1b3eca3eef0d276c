//! What the page calls kinds, outcomes and buckets, the colour of each
//! kind, and the order in which they are shown.

use std::collections::{BTreeMap, BTreeSet};

use crate::aggregate::{Aggregate, Bucket};
use crate::finding::Kind;

/// The time-control classes in the order they are shown.
pub(super) const TIME_CLASSES: [&str; 7] = [
    "ultrabullet",
    "bullet",
    "blitz",
    "rapid",
    "classical",
    "correspondence",
    "unknown",
];

/// What the claimant got, in the order the bars are stacked, and colours.
pub(super) const OUTCOMES: [(&str, &str); 4] = [
    ("lost", "#c0392b"),
    ("drew", "#7f8c8d"),
    ("won", "#27ae60"),
    ("unknown", "#d5d8dc"),
];

/// The colour of a kind this version does not know (the kind table holds
/// the others').
const OTHER_COLOUR: &str = "#555555";

/// Each event's name for people ([`crate::aggregate::event::labels`]),
/// over the events of `by.event` and of `points` together, so an event is
/// called alike in both.
pub(super) fn event_labels(agg: &Aggregate) -> BTreeMap<&str, String> {
    let by_event = agg.by.get("event").into_iter().flat_map(|b| b.keys());
    let keys: BTreeSet<&str> = by_event
        .chain(agg.points.keys())
        .map(String::as_str)
        .collect();
    crate::aggregate::event::labels(keys)
}

/// A bucket's name as shown: zero padding dropped (`0800-0999` →
/// `800-999`, `0005-0009` → `5-9`, `030-039` → `30-39`).
pub(super) fn label(name: &str) -> String {
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
pub(super) fn lower_bound(name: &str) -> Option<u64> {
    let digits: String = name.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// The kinds to show: every known kind, then any other the aggregate has.
pub(super) fn kind_names(agg: &Aggregate) -> Vec<String> {
    let mut v: Vec<String> = Kind::ALL.iter().map(|k| k.name().to_string()).collect();
    for k in agg.kinds.keys() {
        if !v.contains(k) {
            v.push(k.clone());
        }
    }
    v
}

fn kind_of(name: &str) -> Option<Kind> {
    Kind::from_name(name)
}

pub(super) fn kind_colour(name: &str) -> &'static str {
    kind_of(name).map_or(OTHER_COLOUR, |k| k.info().colour)
}

/// The articles a kind cites, today's first, from the kind table.
pub(super) fn article(name: &str) -> String {
    match kind_of(name).map(Kind::articles_then_and_now) {
        Some((now, Some(then))) => format!("{now} ({then} in 2001)"),
        Some((now, None)) => now.to_string(),
        None => String::new(),
    }
}

/// What a kind means, in a few words (the kind table's `brief`).
pub(super) fn what(name: &str) -> &'static str {
    kind_of(name).map_or("", |k| k.info().brief)
}

pub(super) fn is_missed(name: &str) -> bool {
    kind_of(name).is_some_and(Kind::is_missed_claim)
}

/// The buckets of a dimension in the order shown: known orders for time
/// control, year, rating and edition; by games otherwise.
pub(super) fn ordered<'a>(
    dim: &str,
    buckets: &'a BTreeMap<String, Bucket>,
) -> Vec<(&'a String, &'a Bucket)> {
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
pub(super) fn kinds_in(agg: &Aggregate, buckets: &BTreeMap<String, Bucket>) -> Vec<String> {
    let seen: BTreeSet<&String> = buckets.values().flat_map(|b| b.kinds.keys()).collect();
    kind_names(agg)
        .into_iter()
        .filter(|k| seen.contains(k))
        .collect()
}
