//! The statistics report's aggregate as written to and read from JSON
//! (`audit --report-json FILE`), and the merge of aggregates
//! (`pgn-arbiter report AGG.json...`): counts add up, so the merge of the
//! parts of an archive equals the aggregate of one run over the whole.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use super::duplicates::Duplicates;
use super::duplicates::DuplicatesMerge;
pub use crate::stats::SiteCounts;

/// The version of the aggregate JSON.
pub const AGGREGATE_VERSION: u32 = 2;

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
    /// Exact while `players_untracked` is 0 (see [`PLAYER_CAP`]).
    #[serde(default)]
    pub players: BTreeMap<String, PlayerCounts>,
    /// Missed claims of players beyond the first [`PLAYER_CAP`].
    #[serde(default)]
    pub players_untracked: u64,
    /// Per event of at most [`EVENT_PLAYER_CAP`] players: each player's
    /// points as recorded and as the Laws give them (Art. 11), and the
    /// results the Laws decide otherwise than the tag.
    #[serde(default)]
    pub points: BTreeMap<String, EventPoints>,
    /// Events with more players than [`EVENT_PLAYER_CAP`] (not tournaments
    /// whose standings mean something: "Rated Blitz game"), or beyond
    /// [`POINT_PAIR_CAP`]: their corrections are kept, their standings not.
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

/// A finding as a person finds it (see [`crate::example::Example`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExampleRow {
    /// The input, as named.
    pub file: String,
    /// 1-based game number in its input.
    pub game: u64,
    /// 1-based line of the game's first byte.
    pub line: u64,
    /// "White - Black, date".
    pub players: String,
    /// The move as people write it, or the move number and side to move.
    pub place: String,
    /// What happened.
    pub what: String,
    /// The game on its site (Lichess at the ply), where `Site` is a URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
}

/// At most this many distinct events (and terminations) are counted by
/// name; the games of further ones go to the bucket `(other)`, so memory
/// stays bounded (about 20 MB) whatever the number of events.
pub const NAME_CAP: usize = 200_000;

/// At most this many players are counted by name (about 10 MB).
pub const PLAYER_CAP: usize = 100_000;
/// Standings are kept for events of at most this many players.
pub const EVENT_PLAYER_CAP: usize = 64;
/// At most this many (event, player) pairs are kept in all.
pub const POINT_PAIR_CAP: usize = 1_000_000;

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

/// A result the Laws decide otherwise than the tag, proven
/// ([`crate::rules::result::decided_result`]), with what an arbiter needs
/// to find the game and act on it: its file and number, round, date and
/// link. Sorted by file and game (the fields' order), so a list reads in
/// input order. The fields after `kind` are absent from aggregates
/// written before them (empty when read).
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Correction {
    /// The input, as named.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub file: String,
    /// 1-based game number in its input (0: not known).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub game: u64,
    /// The game's fingerprint.
    pub game_id: String,
    /// The `White` tag.
    pub white: String,
    /// The `Black` tag.
    pub black: String,
    /// The result as recorded.
    pub recorded: String,
    /// The result as the Laws give it.
    pub laws: String,
    /// The finding that decides it.
    pub kind: String,
    /// The articles of the deciding finding, in the game's edition.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub article: String,
    /// The `Round` tag.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub round: String,
    /// The `Date` tag (else `UTCDate`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub date: String,
    /// The game on its site, where `Site` is a URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
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

fn is_zero(n: &u64) -> bool {
    *n == 0
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

    /// Adds the event's points in another part: corrections are listed
    /// together; standings add up while the event has at most
    /// [`EVENT_PLAYER_CAP`] players, and are dropped beyond.
    pub fn merge(&mut self, other: &EventPoints) {
        self.corrections.extend(other.corrections.iter().cloned());
        self.corrections.sort();
        if self.untracked || other.untracked {
            self.untracked = true;
            self.players.clear();
            self.joined.clear();
            return;
        }
        // one player, one name: a spelling of another part joins the name
        // this part first wrote
        let key = |n: &str| crate::identity::player_key(n.as_bytes());
        let mine: Vec<(String, Box<[u8]>)> =
            self.players.keys().map(|n| (n.clone(), key(n))).collect();
        for (name, points) in &other.players {
            let k = key(name);
            let same = mine.iter().find(|(_, m)| *m == k);
            let into = same.map_or(name, |(m, _)| m).clone();
            self.add_player(into.clone(), points);
            let spellings = other.joined.get(name).into_iter().flatten();
            let spellings = spellings.chain((into != *name).then_some(name));
            for s in spellings.filter(|s| **s != into) {
                let list = self.joined.entry(into.clone()).or_default();
                if !list.contains(s) {
                    list.push(s.clone());
                    list.sort();
                }
            }
        }
        if self.players.len() > EVENT_PLAYER_CAP {
            self.untracked = true;
            self.players.clear();
            self.joined.clear();
        }
    }
}

impl Aggregate {
    /// Adds `other` in: counts add up, runs are listed one after the other.
    /// (Many in order: [`AggregateMerge`].)
    pub fn merge(&mut self, other: &Aggregate) {
        self.merge_counts(other);
        self.duplicates.merge(&other.duplicates);
    }

    /// [`Aggregate::merge`] but for the repeats.
    fn merge_counts(&mut self, other: &Aggregate) {
        self.schema_version = AGGREGATE_VERSION;
        self.run.extend(other.run.iter().cloned());
        self.games.add(&other.games);
        for (k, c) in &other.kinds {
            self.kinds.entry(k.clone()).or_default().add(c);
        }
        for (dim, buckets) in &other.by {
            let mine = self.by.entry(dim.clone()).or_default();
            for (name, b) in buckets {
                mine.entry(name.clone()).or_default().add(b);
            }
        }
        for (name, hist) in &other.distributions {
            add_map(self.distributions.entry(name.clone()).or_default(), hist);
        }
        for (name, c) in &other.players {
            self.players.entry(name.clone()).or_default().add(c);
        }
        self.players_untracked += other.players_untracked;
        for (event, p) in &other.points {
            self.points.entry(event.clone()).or_default().merge(p);
        }
        self.points_untracked_events = self.points.values().filter(|p| p.untracked).count() as u64;
        for (site, c) in &other.sites {
            self.sites.entry(site.clone()).or_default().merge(c);
        }
        // the first examples in input order: the parts are merged in order
        for (kind, rows) in &other.examples {
            let mine = self.examples.entry(kind.clone()).or_default();
            let room = EXAMPLES_PER_KIND.saturating_sub(mine.len());
            mine.extend(rows.iter().take(room).cloned());
        }
    }

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

/// Aggregates merged in order, as [`Aggregate::merge`] one after another
/// would, with the repeats looked for in one pass ([`DuplicatesMerge`]).
pub struct AggregateMerge {
    all: Aggregate,
    duplicates: DuplicatesMerge,
}

impl Default for AggregateMerge {
    fn default() -> Self {
        AggregateMerge {
            all: Aggregate {
                schema_version: AGGREGATE_VERSION,
                ..Aggregate::default()
            },
            duplicates: DuplicatesMerge::new(&Duplicates::default()),
        }
    }
}

impl AggregateMerge {
    /// Adds the next aggregate.
    pub fn add(&mut self, other: &Aggregate) {
        self.all.merge_counts(other);
        self.duplicates.add(&other.duplicates);
    }

    /// The merged aggregate.
    pub fn finish(self) -> Aggregate {
        Aggregate {
            duplicates: self.duplicates.finish(),
            ..self.all
        }
    }
}

/// Reads aggregate files (with their ids beside them) and merges them, in
/// order, one file in memory at a time.
pub fn merge_files(paths: &[String]) -> Result<Aggregate, String> {
    let mut all = AggregateMerge::default();
    for p in paths {
        all.add(&super::read_aggregate_file(p)?);
    }
    Ok(all.finish())
}

/// Merges aggregates given as JSON texts, each named for its errors, in
/// order (the merge behind the Python package's `merge_reports`).
pub fn merge_texts<'a>(
    parts: impl IntoIterator<Item = (&'a str, &'a [u8])>,
) -> Result<Aggregate, String> {
    let mut all = AggregateMerge::default();
    for (p, bytes) in parts {
        let a = read_aggregate(p, bytes)?;
        if a.duplicates.ids_beside {
            return Err(format!(
                "{p}: its games for merging are in the file beside the aggregate's (AGG.json.ids): read it by its path"
            ));
        }
        all.add(&a);
    }
    Ok(all.finish())
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
