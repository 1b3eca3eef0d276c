//! The charts, as inline SVG written here (the page fetches no script and
//! no image), and their legends: findings per kind, per year, the heat maps
//! and the histograms.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::format::{esc, f, rate, rate_value};
use super::names::{kind_colour, label, lower_bound, OUTCOMES};
use crate::aggregate::{Aggregate, Bucket};
use crate::text::{count, thousands};

/// Heat-map cells with fewer games judged are shown without a colour.
pub(super) const MIN_CELL_GAMES: u64 = 30;

/// The key under a chart: a colour swatch and a name per item.
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

/// The label of the tick at `v`: whole numbers with thousands separators,
/// else as many decimals as the step needs.
fn tick_text(v: f64, step: f64) -> String {
    if step >= 1.0 && v.fract() == 0.0 {
        thousands(v as u64)
    } else if step >= 0.1 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// Horizontal bars: games per kind, missed claims stacked by outcome.
pub(super) fn kinds_chart(s: &mut String, agg: &Aggregate, names: &[String]) {
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
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{colour}\"><title>{}: {}, then {o}</title></rect>",
                    f(x(at as f64)),
                    f(bar_y),
                    f(x((at + n) as f64) - x(at as f64)),
                    f(bar_h),
                    esc(k),
                    count(n, "game", "games")
                );
                at += n;
            }
        }
        if games > at {
            let _ = writeln!(
                s,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{}: {}</title></rect>",
                f(x(at as f64)),
                f(bar_y),
                f(x(games as f64) - x(at as f64)),
                f(bar_h),
                if split { "#bbbbbb" } else { "#4a6fa5" },
                esc(k),
                count(games - at, "game", "games")
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

/// The lines of findings per 1,000 games by year, a line per kind; `points`
/// are the years drawn, in order, and `kinds` are not empty.
pub(super) fn year_chart(s: &mut String, points: &[(u32, &Bucket)], kinds: &[String]) {
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
    for k in kinds {
        let colour = kind_colour(k);
        // The line joins consecutive years only: where a year is missing
        // (no game, or too few to chart) it breaks with a move (`M`), as a
        // line across the gap would draw rates nobody measured.
        let mut d = Vec::with_capacity(points.len());
        let mut last: Option<u32> = None;
        for (yr, b) in points {
            let pen = if last.is_some_and(|l| yr - l == 1) {
                'L'
            } else {
                'M'
            };
            let v = rate_value(b.kinds.get(k).copied().unwrap_or(0), b.games);
            d.push(format!("{pen}{},{}", f(x(*yr)), f(y(v))));
            last = Some(*yr);
        }
        if d.iter().any(|p| p.starts_with('L')) {
            let _ = writeln!(
                s,
                "<path d=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"/>",
                d.join(" ")
            );
        }
        for (yr, b) in points {
            let n = b.kinds.get(k).copied().unwrap_or(0);
            let _ = writeln!(
                s,
                "<circle cx=\"{}\" cy=\"{}\" r=\"3.5\" fill=\"{colour}\"><title>{} {yr}: {} of {}, {} per 1,000</title></circle>",
                f(x(*yr)),
                f(y(rate_value(n, b.games))),
                esc(k),
                thousands(n),
                count(b.games, "game", "games"),
                rate(n, b.games)
            );
        }
    }
    s.push_str("</svg>\n");
    let items: Vec<(String, &str)> = kinds.iter().map(|k| (k.clone(), kind_colour(k))).collect();
    legend(s, &items);
}

pub(super) fn heat_map(
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
                "<g data-cell=\"{}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{fill}\" stroke=\"#ddd\"><title>{} × {}: {} in {}, {} per 1,000</title></rect>\
                 <text x=\"{}\" y=\"{}\" text-anchor=\"middle\" style=\"fill:{ink}\">{}</text>\
                 <text x=\"{}\" y=\"{}\" text-anchor=\"middle\" style=\"fill:{ink};font-size:10px\">{}</text></g>",
                esc(name),
                f(x),
                f(y),
                f(cell_w),
                f(cell_h),
                esc(class),
                esc(&label(band)),
                count(n, "finding", "findings"),
                count(b.games, "game", "games"),
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

/// Buckets of a histogram, in order, with empty buckets between them
/// filled in (as 0, not in the JSON).
pub(super) fn histogram_buckets(hist: &BTreeMap<String, u64>) -> Vec<(String, u64, bool)> {
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

/// Bars of findings per bucket of a distribution (`buckets` from
/// [`histogram_buckets`]); `key` names the chart, `axis` its x axis.
pub(super) fn histogram(s: &mut String, key: &str, buckets: &[(String, u64, bool)], axis: &str) {
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
}
