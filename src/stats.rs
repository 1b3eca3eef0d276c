//! Counts that merge in any order: per chunk, per file, per run.

use serde::Serialize;

use crate::audit::{GameReport, Status};
use crate::finding::{Detail, Kind, Outcome};
use crate::rules::laws::Edition;

/// Counts of one file or of a whole run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    pub games: u64,
    pub analysed: u64,
    pub invalid: u64,
    pub skipped: u64,
    pub plies: u64,
    pub bytes: u64,
    /// Games with a finding of each kind, by [`Kind::index`].
    pub kind_games: [u64; 8],
    /// Missed claims of each kind whose claimant then lost.
    pub missed_then_lost: [u64; 8],
    /// Games judged by each edition (skipped games excluded).
    pub editions: [u64; 3],
}

impl Stats {
    pub fn add_game(&mut self, report: &GameReport) {
        self.games += 1;
        match report.status {
            Status::Analysed => self.analysed += 1,
            Status::Invalid => self.invalid += 1,
            Status::Skipped => {
                self.skipped += 1;
                return;
            }
        }
        self.plies += u64::from(report.plies);
        self.editions[edition_index(report.edition)] += 1;
        for f in &report.findings {
            self.kind_games[f.kind.index()] += 1;
            if let Detail::Missed {
                outcome: Outcome::Lost,
                ..
            } = f.detail
            {
                self.missed_then_lost[f.kind.index()] += 1;
            }
        }
    }

    pub fn merge(&mut self, other: &Stats) {
        self.games += other.games;
        self.analysed += other.analysed;
        self.invalid += other.invalid;
        self.skipped += other.skipped;
        self.plies += other.plies;
        self.bytes += other.bytes;
        for i in 0..8 {
            self.kind_games[i] += other.kind_games[i];
            self.missed_then_lost[i] += other.missed_then_lost[i];
        }
        for i in 0..3 {
            self.editions[i] += other.editions[i];
        }
    }

    /// games read = analysed + invalid + skipped
    pub fn balanced(&self) -> bool {
        self.games == self.analysed + self.invalid + self.skipped
    }

    pub fn to_json(&self) -> StatsJson {
        StatsJson {
            games_read: self.games,
            analysed: self.analysed,
            invalid: self.invalid,
            skipped: self.skipped,
            accounted: self.balanced(),
            plies: self.plies,
            bytes: self.bytes,
            kinds: Kind::ALL
                .iter()
                .map(|k| KindJson {
                    kind: k.name(),
                    games: self.kind_games[k.index()],
                    missed_then_lost: k
                        .is_missed_claim()
                        .then_some(self.missed_then_lost[k.index()]),
                })
                .collect(),
            editions: Edition::ALL
                .iter()
                .map(|e| (e.name(), self.editions[edition_index(*e)]))
                .collect(),
        }
    }
}

fn edition_index(e: Edition) -> usize {
    match e {
        Edition::Laws2001 => 0,
        Edition::Laws2014 => 1,
        Edition::Laws2018 => 2,
    }
}

#[derive(Serialize)]
pub struct StatsJson {
    pub games_read: u64,
    pub analysed: u64,
    pub invalid: u64,
    pub skipped: u64,
    /// games_read == analysed + invalid + skipped
    pub accounted: bool,
    pub plies: u64,
    /// Uncompressed bytes read.
    pub bytes: u64,
    pub kinds: Vec<KindJson>,
    pub editions: std::collections::BTreeMap<&'static str, u64>,
}

#[derive(Serialize)]
pub struct KindJson {
    pub kind: &'static str,
    pub games: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missed_then_lost: Option<u64>,
}
