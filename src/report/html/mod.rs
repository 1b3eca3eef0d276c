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
//!
//! The page is cut by concern: `style` holds the head and style sheet,
//! `format` how a figure is written, `names` what kinds and buckets are
//! called and in which order they come, `svg` the charts; the sections are
//! written by `sections`, `duplicates` (games repeated), `points` (Art. 11),
//! `sites` (the sites' own rules) and `breakdowns`. Imports run
//! one way (sections use the charts, both use names and formatting) and no
//! module imports from this file, so each can be read without the others
//! that use it.

mod breakdowns;
mod duplicates;
mod format;
mod names;
mod points;
mod sections;
mod sites;
mod style;
mod svg;

use crate::aggregate::Aggregate;

/// The whole HTML document of the report of `agg`: the sections in the
/// order the page shows them (the list of contents, `sections::contents`,
/// follows the same order).
pub fn render(agg: &Aggregate) -> String {
    let mut s = String::with_capacity(64 * 1024);
    s.push_str(style::HEAD);
    sections::header(&mut s, agg);
    sections::contents(&mut s, agg);
    sections::games(&mut s, agg);
    duplicates::duplicates(&mut s, agg);
    sections::kinds(&mut s, agg);
    sections::by_year(&mut s, agg);
    sections::heat_maps(&mut s, agg);
    sections::distributions(&mut s, agg);
    points::points(&mut s, agg);
    sites::sites(&mut s, agg);
    sections::players(&mut s, agg);
    sections::examples(&mut s, agg);
    breakdowns::breakdowns(&mut s, agg);
    sections::runs(&mut s, agg);
    s.push_str("</main>\n</body>\n</html>\n");
    s
}
