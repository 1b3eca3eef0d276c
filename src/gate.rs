//! `--fail-on`: the conditions that fail a run (exit code 1), so that a
//! pipeline can gate on the state of its games.
//!
//! A list is comma-separated; each condition is `any` (some game has a
//! finding), `KIND` (some game has a finding of that kind), `KIND>N` (more
//! than N games have one) or `KIND>P%` (more than P percent of the games
//! analysed have one; for `invalid_game`, of the games read).

use std::fmt;

use crate::finding::Kind;
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

/// One condition of a `--fail-on` list.
#[derive(Debug, Clone, PartialEq)]
pub struct Condition {
    /// `None`: any kind.
    pub kind: Option<Kind>,
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
        match self.kind {
            None => (stats.flagged, stats.analysed + stats.invalid),
            Some(Kind::InvalidGame) => (stats.kind_games[Kind::InvalidGame], stats.games),
            Some(k) => (stats.kind_games[k], stats.analysed),
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
        let name = self.kind.map_or("any", Kind::name);
        match self.limit {
            Limit::Games(0) => write!(f, "{name}"),
            Limit::Games(n) => write!(f, "{name}>{n}"),
            Limit::Percent(p) => write!(f, "{name}>{p}%"),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.condition.kind {
            None => "with findings".to_string(),
            Some(k) => format!("with {}", k.name()),
        };
        let against = match self.condition.kind {
            Some(Kind::InvalidGame) => "read",
            _ => "analysed",
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
        let kind = if name == "any" {
            None
        } else {
            match Kind::ALL.iter().find(|k| k.name() == name) {
                Some(k) => Some(*k),
                None => {
                    let names: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
                    return Err(format!(
                        "--fail-on {item}: unknown kind '{name}' (one of any, {})",
                        names.join(", ")
                    ));
                }
            }
        };
        out.push(Condition { kind, limit });
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
        s
    }

    #[test]
    fn parses_every_form() {
        let c = parse("any, missed_threefold>5,invalid_game>2.5%").unwrap();
        assert_eq!(c[0].kind, None);
        assert_eq!(c[0].limit, Limit::Games(0));
        assert_eq!(c[1].kind, Some(Kind::MissedThreefold));
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
