//! How a figure is written: HTML escaping, the cells that carry
//! `data-figure` / `data-derived`, rates, shares, points and SVG
//! coordinates.

use crate::aggregate::Aggregate;
use crate::text::thousands;

pub(super) use crate::text::escape_html as esc;

/// A `data-figure` attribute: the figure's path in the aggregate JSON.
pub(super) fn fig(path: &[&str]) -> String {
    format!(" data-figure=\"{}\"", esc(&path.join(".")))
}

/// A right-aligned cell holding a count read from the aggregate.
pub(super) fn count_cell(n: u64, path: &[&str]) -> String {
    format!("<td class=\"n\"{}>{}</td>", fig(path), thousands(n))
}

/// A right-aligned cell holding a figure computed here.
pub(super) fn derived_cell(text: &str, what: &str) -> String {
    format!(
        "<td class=\"n\" data-derived=\"{}\">{}</td>",
        esc(what),
        text
    )
}

/// `part` per 1,000 of `whole`, two decimals; `-` for no games.
pub(super) fn rate(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "-".into();
    }
    let r = 1000.0 * part as f64 / whole as f64;
    let text = format!("{r:.2}");
    let (int, frac) = text.split_once('.').unwrap_or((&text, "00"));
    format!("{}.{frac}", thousands(int.parse().unwrap_or(0)))
}

pub(super) fn rate_value(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        1000.0 * part as f64 / whole as f64
    }
}

pub(super) use crate::text::share;

/// Half-points as points: `7` → `3½`, `1` → `½`.
pub(super) fn points_text(halves: u64) -> String {
    match (halves / 2, halves % 2) {
        (0, 1) => "½".into(),
        (p, 0) => thousands(p),
        (p, _) => format!("{}½", thousands(p)),
    }
}

/// A signed difference of half-points: `+½`, `−1`, `0`.
pub(super) fn points_diff(laws: u64, recorded: u64) -> String {
    if laws == recorded {
        "0".into()
    } else if laws > recorded {
        format!("+{}", points_text(laws - recorded))
    } else {
        format!("\u{2212}{}", points_text(recorded - laws))
    }
}

/// A number for an SVG coordinate.
pub(super) fn f(x: f64) -> String {
    let t = format!("{x:.1}");
    t.strip_suffix(".0").map(str::to_string).unwrap_or(t)
}

/// Games judged: analysed + invalid (skipped games of other variants are
/// not judged), but the repeats of earlier games left out of the figures
/// (`--duplicates once`); the base of every share and rate.
pub(super) fn judged(agg: &Aggregate) -> u64 {
    (agg.games.analysed + agg.games.invalid).saturating_sub(agg.duplicates.left_out)
}
