//! The small counters a tally is made of: games and kinds per bucket,
//! missed claims by outcome and via, games by a tag's value, players'
//! missed claims.

use std::collections::BTreeMap;
use std::ops::AddAssign;

use super::super::fact::Fact;
use super::super::model::{Bucket, KindCounts, PlayerCounts};
use crate::finding::{Outcome, Via};
use crate::hashing::Table;
use crate::kind::ByKind;

/// Games judged in a bucket, and per kind the games with that finding.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Counts {
    pub(super) games: u64,
    pub(super) kinds: ByKind<u64>,
}

impl AddAssign<&Counts> for Counts {
    fn add_assign(&mut self, other: &Counts) {
        self.games += other.games;
        self.kinds += &other.kinds;
    }
}

impl Counts {
    /// One game with these findings: it counts once for each kind found.
    pub(super) fn of_game(fact: &Fact<'_>) -> Counts {
        let mut one = Counts {
            games: 1,
            ..Counts::default()
        };
        for f in &fact.findings {
            one.kinds[f.kind] = 1;
        }
        one
    }

    /// As the aggregate writes it: the kinds found, by name.
    pub(super) fn bucket(&self) -> Bucket {
        Bucket {
            games: self.games,
            kinds: self
                .kinds
                .iter()
                .filter(|(_, n)| **n > 0)
                .map(|(k, n)| (k.name().to_string(), *n))
                .collect(),
        }
    }
}

/// What the claimant of a missed claim got, and how the claim was there
/// to make.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Claims {
    /// By [`OUTCOMES`].
    outcome: [u64; 4],
    /// By [`VIAS`].
    via: [u64; 2],
}

const OUTCOMES: [Outcome; 4] = [Outcome::Lost, Outcome::Drew, Outcome::Won, Outcome::Unknown];
const VIAS: [Via; 2] = [Via::Occurred, Via::Announced];

impl Claims {
    pub(super) fn add(&mut self, outcome: Outcome, via: Via) {
        let o = OUTCOMES.iter().position(|x| *x == outcome).unwrap_or(3);
        self.outcome[o] += 1;
        self.via[usize::from(via == Via::Announced)] += 1;
    }

    /// Into the kind's counts, by name, zeros left out.
    pub(super) fn write_into(&self, c: &mut KindCounts) {
        for (o, n) in OUTCOMES.iter().zip(self.outcome) {
            if n > 0 {
                c.outcome.insert(o.name().into(), n);
            }
        }
        for (v, n) in VIAS.iter().zip(self.via) {
            if n > 0 {
                c.via.insert(v.name().into(), n);
            }
        }
    }
}

/// Games counted by a tag's value (`Termination`, `Event`).
#[derive(Default)]
pub(super) struct Named {
    by_value: Table<Box<[u8]>, Counts>,
    /// Games without the tag.
    none: Counts,
}

impl Named {
    pub(super) fn add(&mut self, value: Option<&[u8]>, one: &Counts) {
        let Some(v) = value else {
            self.none += one;
            return;
        };
        match self.by_value.get_mut(v) {
            Some(c) => *c += one,
            None => {
                self.by_value.insert(v.into(), *one);
            }
        }
    }

    /// The buckets by name, then `(none)`.
    pub(super) fn rows(&self) -> Vec<(String, Counts)> {
        // values that differ only in bytes that are not UTF-8 share a name
        let mut rows: BTreeMap<String, Counts> = BTreeMap::new();
        for (k, c) in &self.by_value {
            *rows
                .entry(String::from_utf8_lossy(k).into_owned())
                .or_default() += c;
        }
        let mut v: Vec<(String, Counts)> = rows.into_iter().collect();
        v.push(("(none)".into(), self.none));
        v
    }
}

/// Players' missed claims.
#[derive(Default)]
pub(super) struct Players {
    by_name: Table<Box<[u8]>, PlayerCounts>,
}

impl Players {
    pub(super) fn add(&mut self, name: &[u8], lost: bool) {
        let lost = u64::from(lost);
        match self.by_name.get_mut(name) {
            Some(c) => {
                c.missed += 1;
                c.lost_after_missed += lost;
            }
            None => {
                let c = PlayerCounts {
                    missed: 1,
                    lost_after_missed: lost,
                };
                self.by_name.insert(name.into(), c);
            }
        }
    }

    /// By name; names that differ only in bytes that are not UTF-8 share
    /// one.
    pub(super) fn by_name(&self) -> BTreeMap<String, PlayerCounts> {
        let mut out: BTreeMap<String, PlayerCounts> = BTreeMap::new();
        for (name, c) in &self.by_name {
            out.entry(String::from_utf8_lossy(name).into_owned())
                .or_default()
                .add(c);
        }
        out
    }
}
