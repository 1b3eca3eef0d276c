//! The section "Site rules" (SPEC "Site rules"): per site whose rules
//! judged games, each of its own rules the records broke, the rulings the
//! records name and those the games support, and the losses on time the
//! site and the Laws score differently; then the first examples.

use std::fmt::Write as _;

use super::format::{count_cell, derived_cell, esc, share};
use super::sections::example_rows;
use crate::aggregate::Aggregate;
use crate::finding::Kind;
use crate::site::{Rule, Site};

pub(super) fn sites(s: &mut String, agg: &Aggregate) {
    if agg.sites.is_empty() {
        return;
    }
    s.push_str("<h2 id=\"sites\">Site rules</h2>\n");
    s.push_str(
        "<p>Online games are played under their site's own rules, not the Laws: Lichess draws by itself at 50 moves \
         (and at a fivefold repetition in games from 14 January 2020), chess.com at the third repetition, and each \
         site scores a loss on time by material alone. Besides the Laws, each game of a site with a rulebook \
         (by its <code>Site</code> tag) was judged by that site's rules: a <code>site_rule</code> finding is a \
         place where the record contradicts them, so the site erred or the record was altered. A record that ends \
         with the site's own ruling at most 4 plies after its rule applied is consistent.</p>\n",
    );
    s.push_str(
        "<table id=\"sites-table\">\n<thead><tr><th>site</th><th class=\"n\">games judged</th>",
    );
    for r in Rule::ALL {
        let _ = write!(s, "<th class=\"n\"><code>{}</code></th>", r.name());
    }
    s.push_str(
        "<th class=\"n\">rulings named</th><th class=\"n\">supported</th><th class=\"n\">share</th>\
         <th class=\"n\">lost on time: Laws differ</th></tr></thead>\n<tbody>\n",
    );
    for site in Site::ALL {
        let Some(c) = agg.sites.get(site.name()) else {
            continue;
        };
        let name = site.name();
        let _ = write!(
            s,
            "<tr><td>{}</td>{}",
            esc(site.title()),
            count_cell(c.games, &["sites", name, "games"])
        );
        for r in Rule::ALL {
            s.push_str(&count_cell(
                c.rules[r as usize],
                &["sites", name, "rules", r.name()],
            ));
        }
        let _ = writeln!(
            s,
            "{}{}{}{}</tr>",
            count_cell(c.rulings_checked, &["sites", name, "rulings_checked"]),
            count_cell(c.rulings_supported, &["sites", name, "rulings_supported"]),
            derived_cell(
                &share(c.rulings_supported, c.rulings_checked),
                "rulings supported per rulings named"
            ),
            count_cell(
                c.flags_scored_otherwise,
                &["sites", name, "flags_scored_otherwise"]
            ),
        );
    }
    s.push_str("</tbody>\n</table>\n");
    s.push_str(
        "<p>Each rule counts the games that broke it: <code>material</code>, <code>fifty_moves</code> and \
         <code>repetition</code>, the site's own draw applied yet the game went on or was not scored \
         <span class=\"nw\">½-½</span>; <code>timeout</code>, a loss on time scored as a win although the site's rule \
         draws it; <code>ruling</code>, the record names a ruling (a repetition, insufficient material, 50 moves, \
         a timeout against insufficient material, a stalemate) the game does not support. The rulings named are those \
         of the site's records (<code>Termination</code> at Lichess and chess.com, the last comment at FICS) that were \
         checked, losses on time included. The last column counts the games with a <code>drawn_flag</code> or \
         <code>unwinnable_flag</code> finding: a loss on time the site scored one way and Art. 6.9 the other.</p>\n",
    );
    for kind in [Kind::SiteRule, Kind::DrawnFlag] {
        let Some(rows) = agg.examples.get(kind.name()) else {
            continue;
        };
        let _ = writeln!(s, "<h3>First <code>{}</code> findings</h3>", kind.name());
        s.push_str("<table><tr><th>game</th><th>players</th><th>move</th><th>what</th></tr>\n");
        example_rows(s, rows);
        s.push_str("</table>\n");
    }
}
