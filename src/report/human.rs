//! The summary for people: a short table to read at a glance.

use std::fmt::Write as _;

use crate::finding::Kind;
use crate::gate::{Condition, Failure};
use crate::pipeline::RunOutcome;
use crate::report::examples::Examples;
use crate::site::Site;
use crate::stats::Stats;
use crate::text::{count, share, thousands};

/// The human summary of a run.
pub fn render(
    run: &RunOutcome,
    examples: &Examples,
    gate: &[Condition],
    failures: &[Failure],
) -> String {
    let mut s = String::new();
    inputs(&mut s, run);
    kinds(&mut s, &run.total);
    sites(&mut s, &run.total);
    first_examples(&mut s, examples);
    notes(&mut s, run, gate, failures);
    footer(&mut s, run);
    s
}

/// A row per input (and the total): games read, valid, invalid, skipped.
fn inputs(s: &mut String, run: &RunOutcome) {
    let (outcomes, total) = (&run.inputs, &run.total);
    let width = outcomes
        .iter()
        .map(|o| o.name.chars().count())
        .chain(std::iter::once(5))
        .max()
        .unwrap_or(5)
        .min(60);
    let _ = writeln!(
        s,
        "{:<width$}  {:>11}  {:>11}  {:>8}  {:>8}  {:>12}",
        "input", "games", "valid", "invalid", "skipped", "plies"
    );
    let row = |s: &mut String, name: &str, st: &Stats| {
        let name: String = if name.chars().count() > width {
            let tail: String = name
                .chars()
                .rev()
                .take(width - 1)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            format!("…{tail}")
        } else {
            name.to_string()
        };
        let _ = writeln!(
            s,
            "{:<width$}  {:>11}  {:>11}  {:>8}  {:>8}  {:>12}{}",
            name,
            thousands(st.games),
            thousands(st.analysed),
            thousands(st.invalid),
            thousands(st.skipped),
            thousands(st.plies),
            if st.balanced() {
                ""
            } else {
                "  (games read != valid + invalid + skipped!)"
            }
        );
    };
    for o in outcomes {
        row(s, &o.name, &o.stats);
        if let Some(e) = &o.error {
            let _ = writeln!(s, "  error: {e}");
        }
    }
    if outcomes.len() > 1 {
        row(s, "total", total);
    }
}

/// A row per site whose rules judged games (SPEC "Site rules"): the games,
/// each rule broken, the rulings named and supported, the losses on time
/// the site and the Laws score differently.
fn sites(s: &mut String, total: &Stats) {
    let judged: Vec<_> = Site::ALL
        .into_iter()
        .map(|site| (site, total.sites[site as usize]))
        .filter(|(_, c)| c.games > 0)
        .collect();
    if judged.is_empty() {
        return;
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "{:<11} {:>11}  {:>8} {:>11} {:>10} {:>8} {:>7} {:>13}  {:>8} {:>9}  {:>14}",
        "site rules",
        "games",
        "material",
        "fifty_moves",
        "repetition",
        "timeout",
        "ruling",
        "dead_position",
        "rulings",
        "supported",
        "flags scored"
    );
    for (site, c) in judged {
        let [material, fifty, repetition, timeout, ruling, dead] = c.rules.map(thousands);
        let _ = writeln!(
            s,
            "{:<11} {:>11}  {:>8} {:>11} {:>10} {:>8} {:>7} {:>13}  {:>8} {:>9}  {:>14}",
            site.title(),
            thousands(c.games),
            material,
            fifty,
            repetition,
            timeout,
            ruling,
            dead,
            thousands(c.rulings_checked),
            thousands(c.rulings_supported),
            thousands(c.flags_scored_otherwise),
        );
    }
    let _ = writeln!(
        s,
        "(games where the record broke each of the site's own rules; the rulings its records name, \
         and those the game supports; losses on time the site and the Laws score differently)"
    );
}

/// A row per kind (from the kind table), then the engine's proofs.
fn kinds(s: &mut String, total: &Stats) {
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "{:<20} {:>14}  {:>11}  {:>8}  {:>16}",
        "finding", "article", "games", "share", "missed then lost"
    );
    for k in Kind::ALL {
        let article = match k.articles_then_and_now() {
            (now, Some(then)) => format!("{then} / {now}"),
            (now, None) => now.to_string(),
        };
        let lost = if k.is_missed_claim() {
            thousands(total.missed_then_lost[k])
        } else {
            String::new()
        };
        let _ = writeln!(
            s,
            "{:<20} {:>14}  {:>11}  {:>8}  {:>16}",
            k.name(),
            article,
            thousands(total.kind_games[k]),
            share(total.kind_games[k], total.games),
            lost
        );
    }
    for k in Kind::ALL.into_iter().filter(|k| k.info().undecided) {
        let open = count(total.undecided[k], "game", "games");
        let _ = if k.info().proven {
            let [material, blocked, search] = total.proofs[k];
            writeln!(
                s,
                "{} proven by material {}, blocked {}, search {}; not decided in {open}",
                k.info().plural,
                thousands(material),
                thousands(blocked),
                thousands(search),
            )
        } else {
            writeln!(
                s,
                "{} proven by a mating line; not decided in {open}",
                k.info().plural
            )
        };
    }
    if total.undecided.iter().any(|(_, &u)| u > 0) {
        let _ = writeln!(
            s,
            "(not decided: neither a proof nor a mating line was found; the default \
             `--dead quick` only proves, `--dead thorough` also searches and decides nearly all)"
        );
    }
}

/// The first examples of each kind, with the players and a link.
fn first_examples(s: &mut String, examples: &Examples) {
    let shown: Vec<_> = Kind::ALL
        .iter()
        .filter(|k| !examples.of(**k).is_empty())
        .collect();
    if !shown.is_empty() {
        let _ = writeln!(s);
        let _ = writeln!(s, "first examples:");
        for k in shown {
            for e in examples.of(*k) {
                let _ = writeln!(s, "  {:<20} {}: {}", k.name(), e.locus(), e.players);
                let _ = writeln!(s, "  {:<20} {}", "", e.what);
                if let Some(link) = &e.link {
                    let _ = writeln!(s, "  {:<20} {link}", "");
                }
            }
        }
    }
}

/// The gate's verdict, open comments, text that is no game, Ctrl-C.
fn notes(s: &mut String, run: &RunOutcome, gate: &[Condition], failures: &[Failure]) {
    let total = &run.total;
    if !gate.is_empty() {
        let _ = writeln!(s);
        if failures.is_empty() {
            let list: Vec<String> = gate.iter().map(|c| c.to_string()).collect();
            let _ = writeln!(s, "--fail-on {}: passed", list.join(","));
        }
        for f in failures {
            let _ = writeln!(s, "--fail-on FAILED: {f}");
        }
    }
    if total.open_comments > 0 {
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "comments left open: {}; {} inside them, games read as comments (see the warnings)",
            count(total.open_comments, "game", "games"),
            count(total.hidden_games, "tag section", "tag sections")
        );
    }
    if total.not_pgn > 0 {
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "text that is no game (no tag pair, no move, no result at its end): {}, counted as skipped (see the warnings)",
            count(total.not_pgn, "block", "blocks")
        );
    }
    if run.interrupted {
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "INTERRUPTED (Ctrl-C): these are the counts of the games read before it"
        );
    }
}

/// The last line: games, bytes, speed, threads, and the accounting.
fn footer(s: &mut String, run: &RunOutcome) {
    let (total, seconds, threads) = (&run.total, run.seconds, run.threads);
    let _ = writeln!(s);
    let mb = total.bytes as f64 / 1e6;
    let secs = seconds.max(1e-9);
    let _ = writeln!(
        s,
        "{}, {:.1} MB in {:.2} s: {} games/s, {:.1} MB/s on {}; read = valid + invalid + skipped: {}",
        count(total.games, "game", "games"),
        mb,
        seconds,
        thousands((total.games as f64 / secs) as u64),
        mb / secs,
        count(threads as u64, "thread", "threads"),
        if total.balanced() { "yes" } else { "NO" }
    );
}

/// The human summary of a merged aggregate (`pgn-arbiter report` with no
/// output named, which once printed nothing): the runs, the games, a row
/// per kind, the first examples of each kind.
pub fn render_aggregate(agg: &crate::aggregate::Aggregate) -> String {
    let mut s = String::new();
    let inputs: usize = agg.run.iter().map(|r| r.inputs.len()).sum();
    let g = &agg.games;
    let _ = writeln!(
        s,
        "{} merged, over {}",
        count(agg.run.len() as u64, "run", "runs"),
        count(inputs as u64, "input", "inputs")
    );
    let _ = writeln!(
        s,
        "{} read: {} valid, {} invalid, {} skipped; {}; {} with findings",
        count(g.read, "game", "games"),
        thousands(g.analysed),
        thousands(g.invalid),
        thousands(g.skipped),
        count(g.plies, "ply", "plies"),
        thousands(g.flagged)
    );
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "{:<20} {:>14}  {:>11}  {:>8}",
        "finding", "article", "games", "share"
    );
    for k in Kind::ALL {
        let games = agg.kinds.get(k.name()).map_or(0, |c| c.games);
        let article = match k.articles_then_and_now() {
            (now, Some(then)) => format!("{then} / {now}"),
            (now, None) => now.to_string(),
        };
        let _ = writeln!(
            s,
            "{:<20} {:>14}  {:>11}  {:>8}",
            k.name(),
            article,
            thousands(games),
            share(games, g.read)
        );
    }
    let shown: Vec<_> = Kind::ALL
        .iter()
        .filter_map(|k| Some((k, agg.examples.get(k.name())?)))
        .filter(|(_, rows)| !rows.is_empty())
        .collect();
    if !shown.is_empty() {
        let _ = writeln!(s);
        let _ = writeln!(s, "first examples:");
        for (k, rows) in shown {
            for e in rows.iter().take(3) {
                let _ = writeln!(
                    s,
                    "  {:<20} {}: game {} (line {}), {}: {}",
                    k.name(),
                    e.file,
                    e.game,
                    e.line,
                    e.place,
                    e.players
                );
                let _ = writeln!(s, "  {:<20} {}", "", e.what);
                if let Some(link) = &e.link {
                    let _ = writeln!(s, "  {:<20} {link}", "");
                }
            }
        }
    }
    s
}
