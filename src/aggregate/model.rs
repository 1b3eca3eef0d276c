//! The statistics report's aggregate as written to and read from JSON
//! (`audit --report-json FILE`; merged by [`super::merge`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use super::duplicates::Duplicates;
pub use super::rows::{Correction, ExampleRow};
pub use crate::stats::SiteCounts;

/// The version of the aggregate JSON.
pub const AGGREGATE_VERSION: u32 = 4;

/// The merged aggregate, as written to and read from JSON.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Aggregate {
    /// [`AGGREGATE_VERSION`].
    pub schema_version: u32,
    /// How the work was done: one entry per run merged.
    pub run: Vec<RunPart>,
    /// Games read, and how each was accounted for.
    pub games: Games,
    /// Per kind: games, missed claims by outcome and by `via`.
    pub kinds: BTreeMap<String, KindCounts>,
    /// Dimension (`year`, `edition`, `time_control`, `rating`,
    /// `termination`, `event`) → bucket → counts.
    pub by: BTreeMap<String, BTreeMap<String, Bucket>>,
    /// `first_missed_claim_ply`, `plies_after_end`, `claims_let_pass`:
    /// bucket → findings.
    pub distributions: BTreeMap<String, BTreeMap<String, u64>>,
    /// Players with a missed claim (the claimant, by the `White` or `Black`
    /// tag): claims missed, and claims missed in games they then lost.
    #[serde(default)]
    pub players: BTreeMap<String, PlayerCounts>,
    /// Per event where the Laws decide a result otherwise than the tag, or
    /// where names that normalise equal were joined into one player: each
    /// player's points as recorded and as the Laws give them (Art. 11,
    /// for events of at most [`EVENT_PLAYER_CAP`] players), the names
    /// joined, and the results the Laws decide otherwise. Other events'
    /// standings are the records' own and are not written (a month holds
    /// some hundred thousand tournaments); [`Aggregate::points_events`]
    /// counts them all.
    #[serde(default)]
    pub points: BTreeMap<String, EventPoints>,
    /// Events with standings kept (at most [`EVENT_PLAYER_CAP`] players),
    /// in `points` or not.
    #[serde(default)]
    pub points_events: u64,
    /// Events with more players than [`EVENT_PLAYER_CAP`] (not tournaments
    /// whose standings mean something: "Rated Blitz game"): their
    /// corrections are kept, their standings not.
    #[serde(default)]
    pub points_untracked_events: u64,
    /// Per kind, the first [`EXAMPLES_PER_KIND`] findings in input order.
    #[serde(default)]
    pub examples: BTreeMap<String, Vec<ExampleRow>>,
    /// Per site whose rules judged games (SPEC "Site rules"), by its name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sites: BTreeMap<String, SiteCounts>,
    /// Games that repeat an earlier one ([`crate::audit::ContentId`]), left
    /// out of every count above with `--duplicates once` (except `games`'
    /// read, analysed and invalid, which account for the input). Absent
    /// from aggregates written before it.
    #[serde(default)]
    pub duplicates: Duplicates,
}

/// Findings kept as examples, per kind.
pub const EXAMPLES_PER_KIND: usize = 5;

/// Standings are kept for events of at most this many players.
pub const EVENT_PLAYER_CAP: usize = 64;

/// A player's missed claims.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerCounts {
    /// Claims missed (one per game and kind, Art. 9.2, 9.3).
    pub missed: u64,
    /// Of those, in games the player then lost.
    pub lost_after_missed: u64,
}

/// One event's points.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventPoints {
    /// Player → `[games, recorded, laws]`, points in halves (win 2, draw
    /// 1, loss 0); empty when the event has too many players.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub players: BTreeMap<String, [u64; 3]>,
    /// More players than [`EVENT_PLAYER_CAP`]: no standings.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub untracked: bool,
    /// A player's name in `players` → the other spellings of the same
    /// player that the event's records use (names that normalise equal:
    /// `Adams, Michael` and `ADAMS,Michael`), joined into one standing.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub joined: BTreeMap<String, Vec<String>>,
    /// The results the Laws decide otherwise, sorted by game.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub corrections: Vec<Correction>,
}

/// One run that went into an aggregate.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunPart {
    /// `pgn-arbiter`.
    pub tool: String,
    /// Its version.
    pub version: String,
    /// `--laws` of the run.
    pub laws: String,
    /// `--dead` of the run.
    pub dead: String,
    /// The inputs, as named.
    pub inputs: Vec<String>,
    /// Worker threads.
    pub threads: usize,
    /// Wall time of the run.
    pub seconds: f64,
}

/// Games of a run, accounted for.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Games {
    /// Games read: analysed + invalid + skipped.
    pub read: u64,
    /// Games analysed to their end.
    pub analysed: u64,
    /// Games with an illegal move or FEN (Art. 3, 4).
    pub invalid: u64,
    /// Games not analysed: of other variants, or text that is no game.
    pub skipped: u64,
    /// Of the skipped, blocks of text that are no game (no tag pair, no
    /// move, no result token). Absent from aggregates written before it.
    #[serde(default)]
    pub not_pgn: u64,
    /// Half-moves replayed.
    pub plies: u64,
    /// Games with at least one finding.
    pub flagged: u64,
}

/// The counts of one kind.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KindCounts {
    /// Games with a finding of the kind.
    pub games: u64,
    /// Missed claims: what the claimant got (`lost`, `drew`, `won`, `unknown`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub outcome: BTreeMap<String, u64>,
    /// Missed claims: `occurred` (9.2b/9.3b) or `announced` (9.2a/9.3a).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub via: BTreeMap<String, u64>,
}

/// Games judged in a bucket (analysed or invalid), and per kind the games
/// with that finding.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bucket {
    /// Games judged in the bucket.
    pub games: u64,
    /// Per kind, the games with that finding.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub kinds: BTreeMap<String, u64>,
}

fn add_map(into: &mut BTreeMap<String, u64>, from: &BTreeMap<String, u64>) {
    for (k, v) in from {
        *into.entry(k.clone()).or_default() += v;
    }
}

impl Games {
    /// Adds the games of `other` in.
    pub fn add(&mut self, other: &Games) {
        self.read += other.read;
        self.analysed += other.analysed;
        self.invalid += other.invalid;
        self.skipped += other.skipped;
        self.not_pgn += other.not_pgn;
        self.plies += other.plies;
        self.flagged += other.flagged;
    }
}

impl KindCounts {
    /// Adds the counts of `other` in.
    pub fn add(&mut self, other: &KindCounts) {
        self.games += other.games;
        add_map(&mut self.outcome, &other.outcome);
        add_map(&mut self.via, &other.via);
    }
}

impl Bucket {
    /// Adds the counts of `other` in.
    pub fn add(&mut self, other: &Bucket) {
        self.games += other.games;
        add_map(&mut self.kinds, &other.kinds);
    }
}

impl PlayerCounts {
    /// Adds the counts of `other` in.
    pub fn add(&mut self, other: &PlayerCounts) {
        self.missed += other.missed;
        self.lost_after_missed += other.lost_after_missed;
    }
}

impl EventPoints {
    /// Adds a player's `[games, recorded, laws]` in.
    pub fn add_player(&mut self, name: String, points: &[u64; 3]) {
        let mine = self.players.entry(name).or_default();
        for (m, p) in mine.iter_mut().zip(points) {
            *m += p;
        }
    }
}

impl Aggregate {
    /// The JSON with the `run` key left out and keys sorted: what must be
    /// equal between a merge of parts and one run over the whole.
    pub fn without_run(&self) -> serde_json::Value {
        let mut v = serde_json::to_value(self).expect("an aggregate is JSON");
        if let Some(o) = v.as_object_mut() {
            o.remove("run");
        }
        v
    }
}

/// An aggregate's JSON text, named `p` in errors; one of another
/// `schema_version` is refused.
pub fn read_aggregate(p: &str, bytes: &[u8]) -> Result<Aggregate, String> {
    let a: Aggregate =
        serde_json::from_slice(bytes).map_err(|e| format!("{p}: not an aggregate: {e}"))?;
    if a.schema_version != AGGREGATE_VERSION {
        return Err(format!(
            "{p}: aggregate version {} (this pgn-arbiter reads {AGGREGATE_VERSION})",
            a.schema_version
        ));
    }
    Ok(a)
}
