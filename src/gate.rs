//! `--fail-on`: the conditions that fail a run (exit code 1), so that a
//! pipeline can gate on the state of its games.
//!
//! A list is comma-separated; each condition is `any` (some game has a
//! finding), `KIND` (some game has a finding of that kind), `error` (some
//! game has a finding whose severity is error, [`Severity`]), `warning`
//! (an error or a warning), each alone or as `WHAT>N` (more than N games
//! have one) or `WHAT>P%` (more than P percent of the games analysed have
//! one; for `invalid_game`, of the games read; for `any`, `error` and
//! `warning`, of the games analysed or invalid).

use std::fmt;

use crate::finding::Kind;
use crate::kind::Severity;
use crate::stats::Stats;
use crate::text::thousands;

/// How many games a condition allows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Limit {
    /// More than this many games.
    Games(u64),
    /// More than this percentage of the games.
    Percent(f64),
}

/// The games a condition counts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Target {
    /// Games with a finding (`any`).
    Any,
    /// Games with a finding of this kind.
    Kind(Kind),
    /// Games with a finding of this severity or a more serious one
    /// (`error`, `warning`).
    Severity(Severity),
}

impl Target {
    /// Its name in a `--fail-on` list.
    pub fn name(self) -> &'static str {
        match self {
            Target::Any => "any",
            Target::Kind(k) => k.name(),
            Target::Severity(s) => s.name(),
        }
    }

    /// The games it counts, in words: "with findings", "with wrong_result",
    /// "with an error".
    pub fn words(self) -> String {
        match self {
            Target::Any => "with findings".to_string(),
            Target::Kind(k) => format!("with {}", k.name()),
            Target::Severity(Severity::Error) => "with an error".to_string(),
            Target::Severity(s) => format!("with a {} or an error", s.name()),
        }
    }
}

/// One condition of a `--fail-on` list.
#[derive(Debug, Clone, PartialEq)]
pub struct Condition {
    /// The games it counts.
    pub what: Target,
    /// How many games it allows (`KIND` alone: none).
    pub limit: Limit,
}

/// A condition that holds, with the figure that makes it hold.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    /// The condition that holds.
    pub condition: Condition,
    /// Games with the finding.
    pub games: u64,
    /// The games it was counted against.
    pub of: u64,
}

impl Condition {
    /// The games a condition counts, and the games it counts them against.
    fn figures(&self, stats: &Stats) -> (u64, u64) {
        match self.what {
            Target::Any => (stats.flagged, stats.analysed + stats.invalid),
            Target::Severity(s) => (
                stats.severity_games.at_least(s),
                stats.analysed + stats.invalid,
            ),
            Target::Kind(Kind::InvalidGame) => (stats.kind_games[Kind::InvalidGame], stats.games),
            Target::Kind(k) => (stats.kind_games[k], stats.analysed),
        }
    }

    /// Whether the condition holds on `stats`.
    pub fn check(&self, stats: &Stats) -> Option<Failure> {
        let (games, of) = self.figures(stats);
        let holds = match self.limit {
            Limit::Games(n) => games > n,
            Limit::Percent(p) => of > 0 && 100.0 * games as f64 / of as f64 > p,
        };
        holds.then(|| Failure {
            condition: self.clone(),
            games,
            of,
        })
    }

    /// Whether the condition counts against the games read or analysed,
    /// which a diff of two findings files does not know.
    pub fn is_relative(&self) -> bool {
        matches!(self.limit, Limit::Percent(_))
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.what.name();
        match self.limit {
            Limit::Games(0) => write!(f, "{name}"),
            Limit::Games(n) => write!(f, "{name}>{n}"),
            Limit::Percent(p) => write!(f, "{name}>{p}%"),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = self.condition.what.words();
        // the games `of` counts ([`Condition::figures`]): analysed and
        // invalid ones are the games judged
        let against = match self.condition.what {
            Target::Kind(Kind::InvalidGame) => "read",
            Target::Kind(_) => "analysed",
            Target::Any | Target::Severity(_) => "judged",
        };
        write!(
            f,
            "{}: {} {what} of {} {against}",
            self.condition,
            crate::text::count(self.games, "game", "games"),
            thousands(self.of)
        )?;
        if self.of > 0 {
            write!(f, " ({:.2}%)", 100.0 * self.games as f64 / self.of as f64)?;
        }
        Ok(())
    }
}

/// Reads a `--fail-on` list.
pub fn parse(list: &str) -> Result<Vec<Condition>, String> {
    let mut out = Vec::new();
    for item in list.split(',').map(str::trim) {
        if item.is_empty() {
            continue;
        }
        let (name, limit) = match item.split_once('>') {
            None => (item, Limit::Games(0)),
            Some((name, limit)) => {
                let limit = limit.trim();
                let parsed = match limit.strip_suffix('%') {
                    Some(p) => p
                        .trim()
                        .parse::<f64>()
                        .ok()
                        .filter(|p| p.is_finite() && *p >= 0.0)
                        .map(Limit::Percent),
                    None => limit.parse::<u64>().ok().map(Limit::Games),
                };
                match parsed {
                    Some(l) => (name.trim(), l),
                    None => {
                        return Err(format!(
                            "--fail-on {item}: '{limit}' is not a number of games or a percentage (e.g. 10 or 0.5%)"
                        ))
                    }
                }
            }
        };
        let what = match (name, Severity::from_name(name)) {
            ("any", _) => Target::Any,
            (_, Some(s)) if s != Severity::Note => Target::Severity(s),
            _ => match Kind::from_name(name) {
                Some(k) => Target::Kind(k),
                None => {
                    let names: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
                    return Err(format!(
                        "--fail-on {item}: unknown kind '{name}' (one of any, error, warning, {})",
                        names.join(", ")
                    ));
                }
            },
        };
        out.push(Condition { what, limit });
    }
    if out.is_empty() {
        return Err("--fail-on: no condition given".to_string());
    }
    Ok(out)
}

/// The conditions that hold on `stats`.
pub fn check(conditions: &[Condition], stats: &Stats) -> Vec<Failure> {
    conditions.iter().filter_map(|c| c.check(stats)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats() -> Stats {
        let mut s = Stats {
            games: 200,
            analysed: 180,
            invalid: 10,
            skipped: 10,
            flagged: 30,
            ..Stats::default()
        };
        s.kind_games[Kind::InvalidGame] = 10;
        s.kind_games[Kind::MissedThreefold] = 18;
        // the invalid games are errors, 2 more games hold one, the
        // missed claims are notes
        s.severity_games = crate::stats::BySeverity([12, 0, 18]);
        s
    }

    #[test]
    fn severities_count_that_severity_or_a_more_serious_one() {
        let s = stats();
        let c = parse("error>11, warning>12, note").unwrap_err();
        assert!(c.contains("unknown kind 'note'"), "{c}");
        let c = parse("error>11, warning>12, error>6%").unwrap();
        assert_eq!(c[0].what, Target::Severity(Severity::Error));
        let failures = check(&c, &s);
        assert_eq!(failures.len(), 2);
        assert_eq!(
            failures[0].to_string(),
            "error>11: 12 games with an error of 190 judged (6.32%)"
        );
        assert!(parse("warning>11").unwrap()[0].check(&s).is_some());
    }

    #[test]
    fn parses_every_form() {
        let c = parse("any, missed_threefold>5,invalid_game>2.5%").unwrap();
        assert_eq!(c[0].what, Target::Any);
        assert_eq!(c[0].limit, Limit::Games(0));
        assert_eq!(c[1].what, Target::Kind(Kind::MissedThreefold));
        assert_eq!(c[1].limit, Limit::Games(5));
        assert_eq!(c[2].limit, Limit::Percent(2.5));
        assert_eq!(c[2].to_string(), "invalid_game>2.5%");
    }

    #[test]
    fn refuses_what_it_cannot_read() {
        assert!(parse("threefold").unwrap_err().contains("unknown kind"));
        assert!(parse("fivefold>x").is_err());
        assert!(parse("fivefold>-1%").is_err());
        assert!(parse(" , ").is_err());
    }

    #[test]
    fn counts_against_analysed_or_read() {
        let s = stats();
        // 18 of 180 analysed = 10 %
        assert!(parse("missed_threefold>10%").unwrap()[0]
            .check(&s)
            .is_none());
        assert!(parse("missed_threefold>9.9%").unwrap()[0]
            .check(&s)
            .is_some());
        // 10 of 200 read = 5 %
        assert!(parse("invalid_game>5%").unwrap()[0].check(&s).is_none());
        let f = parse("invalid_game>4%").unwrap()[0].check(&s).unwrap();
        assert_eq!(
            f.to_string(),
            "invalid_game>4%: 10 games with invalid_game of 200 read (5.00%)"
        );
        assert!(parse("missed_threefold>18").unwrap()[0].check(&s).is_none());
        assert!(parse("missed_threefold>17").unwrap()[0].check(&s).is_some());
        assert!(parse("fivefold").unwrap()[0].check(&s).is_none());
        assert!(parse("any").unwrap()[0].check(&s).is_some());
        assert!(parse("any>30").unwrap()[0].check(&s).is_none());
    }
}
