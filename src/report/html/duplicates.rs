//! The section "Duplicate games": how many games repeat an earlier one
//! (as `crate::aggregate`'s duplicate finder judges), whether
//! they were left out of the figures, per pair of files, and examples,
//! those whose recorded results differ first (a maintainer wants those).

use std::fmt::Write as _;

use super::format::{count_cell, esc};
use crate::aggregate::{Aggregate, DuplicateRow, GameAt, DUPLICATE_EXAMPLES};

pub(super) fn duplicates(s: &mut String, agg: &Aggregate) {
    let d = &agg.duplicates;
    if d.mode.is_empty() {
        return;
    }
    s.push_str("<h2 id=\"duplicates\">Duplicate games</h2>\n");
    if d.mode == "exact" {
        s.push_str(
            "<p>A game repeats an earlier one (in input order: file by file, game by game) when its players, date, \
             round, start position and moves as played are the same; comments, clocks, variations, other tags and how \
             moves are spelt do not count (the findings' <code>content_id</code>, <code>--duplicates exact</code>). ",
        );
    } else {
        s.push_str(
            "<p>A game repeats an earlier one (in input order: file by file, game by game) when both records carry \
             the same game id of their site (<code>Link</code>, <code>GameURL</code>, <code>FICSGamesDBGameNo</code>, \
             a Lichess game address); otherwise, and never for a game without moves, when the start position and moves \
             as played are the same, on a date and round that agree, by players whose names agree once normalised (a \
             mainline of 40 half-moves or more needs no names). Comments, clocks, variations, other tags and how moves \
             are spelt do not count; each repeat says which tags the two records write otherwise. ",
        );
    }
    let _ = match d.mode.as_str() {
        "once" | "exact" => write!(
            s,
            "Each game counts once, at its first occurrence: the repeats are left out of every figure of this page \
             but the games read, analysed and invalid (<code>--duplicates once</code>)."
        ),
        "all" => write!(
            s,
            "Repeats count each time they occur in every figure of this page (<code>--duplicates all</code>)."
        ),
        other => write!(s, "Repeats were counted as <code>--duplicates {}</code> says.", esc(other)),
    };
    s.push_str("</p>\n<table>\n");
    let row = |s: &mut String, name: &str, key: &str, n: u64, note: &str| {
        let _ = writeln!(
            s,
            "<tr><th>{name}</th>{}<td class=\"note\">{note}</td></tr>",
            count_cell(n, &["duplicates", key])
        );
    };
    row(
        s,
        "repeats",
        "games",
        d.games,
        "games judged repeating an earlier one",
    );
    row(
        s,
        "results differ",
        "results_differ",
        d.results_differ,
        "the repeat's Result is not the first occurrence's",
    );
    row(
        s,
        "left out",
        "left_out",
        d.left_out,
        "of the figures of this page",
    );
    if d.untracked > 0 {
        row(
            s,
            "not looked for",
            "untracked",
            d.untracked,
            "games beyond the ids kept (bounded memory)",
        );
    }
    s.push_str("</table>\n");
    pairs(s, agg);
    let lists = [
        (
            &d.results_differ_examples,
            "Repeats whose results differ",
            "duplicates-differ",
        ),
        (&d.examples, "Other repeats", "duplicates-same"),
    ];
    for (rows, title, id) in lists {
        if rows.is_empty() {
            continue;
        }
        let _ = writeln!(
            s,
            "<h3 id=\"{id}\">{title} (the first {DUPLICATE_EXAMPLES})</h3>\n<table>\
             <tr><th>first</th><th>result</th><th>repeated in</th><th>result</th><th>matched by</th><th>tags that differ</th></tr>"
        );
        for r in rows {
            example(s, r);
        }
        s.push_str("</table>\n");
    }
}

/// Per pair of files: the repeats and those whose results differ.
fn pairs(s: &mut String, agg: &Aggregate) {
    let d = &agg.duplicates;
    if d.pairs.is_empty() {
        return;
    }
    s.push_str(
        "<table id=\"duplicate-pairs\"><thead><tr><th>first occurrence in</th><th>repeated in</th>\
         <th class=\"n\">games</th><th class=\"n\">results differ</th></tr></thead>\n<tbody>\n",
    );
    for (first, later) in &d.pairs {
        for (file, c) in later {
            let path = ["duplicates", "pairs", first.as_str(), file.as_str()];
            let _ = writeln!(
                s,
                "<tr><td class=\"name\">{}</td><td class=\"name\">{}</td>{}{}</tr>",
                esc(first),
                esc(file),
                count_cell(c.games, &[&path[..], &["games"]].concat()),
                count_cell(c.results_differ, &[&path[..], &["results_differ"]].concat()),
            );
        }
    }
    s.push_str("</tbody></table>\n");
}

fn example(s: &mut String, r: &DuplicateRow) {
    let at = |g: &GameAt| format!("{} game {}", esc(&g.file), g.game);
    let _ = writeln!(
        s,
        "<tr><td class=\"name\">{}</td><td class=\"nw\">{}</td><td class=\"name\">{}</td><td class=\"nw\">{}</td>\
         <td>{}</td><td>{}</td></tr>",
        at(&r.first),
        esc(&r.first.result),
        at(&r.later),
        esc(&r.later.result),
        esc(&r.matched_by.replace('_', " ")),
        esc(&tags(r))
    );
}

/// The tags two records write otherwise: `White, Round (spelling)`.
fn tags(r: &DuplicateRow) -> String {
    let differ = r.tags_differ.iter().cloned();
    let spelt = r.spelling_differs.iter().map(|t| format!("{t} (spelling)"));
    let all: Vec<String> = differ.chain(spelt).collect();
    if all.is_empty() {
        "none".into()
    } else {
        all.join(", ")
    }
}
