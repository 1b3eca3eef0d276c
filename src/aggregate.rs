//! The statistics report's aggregates: counts and breakdowns computed in
//! the audit's pass (`audit --report-json FILE`), that merge in any order
//! (`pgn-arbiter report AGG.json... --json FILE`), so an archive can be cut
//! into parts audited on other machines and the merged report equals the
//! report of one run over the whole.
//!
//! Everything that depends on how the work was split (inputs, version,
//! threads, seconds) is under the key `run`; every other key of the merged
//! JSON equals that of one run (sorted keys; zero counts are left out).

use std::collections::{BTreeMap, HashMap};
use std::io::{self, Write};

use serde::{Deserialize, Serialize};

use crate::audit::Status;
use crate::facets::{Facets, TimeClass};
use crate::finding::{Detail, Kind, Outcome, Via};
use crate::laws::Edition;
use crate::pipeline::{GameRecord, InputOutcome, RunOutcome, Sink};
use crate::rules::result::decided_result;

/// The version of the aggregate JSON.
pub const AGGREGATE_VERSION: u32 = 1;

/// Games judged in a bucket, and games with each kind of finding.
type Row = [u64; 1 + Kind::ALL.len()];

fn add_row(row: &mut Row, kinds: &[Kind]) {
    row[0] += 1;
    for k in kinds {
        row[1 + k.index()] += 1;
    }
}

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
}

/// Findings kept as examples, per kind.
pub const EXAMPLES_PER_KIND: usize = 5;

/// A finding as a person finds it (see [`crate::report::examples::Example`]).
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
    /// The results the Laws decide otherwise, sorted by game.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub corrections: Vec<Correction>,
}

/// A result the Laws decide otherwise than the tag, proven
/// ([`crate::rules::result::decided_result`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Correction {
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

impl Aggregate {
    /// Adds `other` in: counts add up, runs are listed one after the other.
    pub fn merge(&mut self, other: &Aggregate) {
        self.schema_version = AGGREGATE_VERSION;
        self.run.extend(other.run.iter().cloned());
        let (g, o) = (&mut self.games, &other.games);
        g.read += o.read;
        g.analysed += o.analysed;
        g.invalid += o.invalid;
        g.skipped += o.skipped;
        g.not_pgn += o.not_pgn;
        g.plies += o.plies;
        g.flagged += o.flagged;
        for (k, c) in &other.kinds {
            let mine = self.kinds.entry(k.clone()).or_default();
            mine.games += c.games;
            add_map(&mut mine.outcome, &c.outcome);
            add_map(&mut mine.via, &c.via);
        }
        for (dim, buckets) in &other.by {
            let mine = self.by.entry(dim.clone()).or_default();
            for (name, b) in buckets {
                let m = mine.entry(name.clone()).or_default();
                m.games += b.games;
                add_map(&mut m.kinds, &b.kinds);
            }
        }
        for (name, hist) in &other.distributions {
            add_map(self.distributions.entry(name.clone()).or_default(), hist);
        }
        for (name, c) in &other.players {
            let mine = self.players.entry(name.clone()).or_default();
            mine.missed += c.missed;
            mine.lost_after_missed += c.lost_after_missed;
        }
        self.players_untracked += other.players_untracked;
        for (event, p) in &other.points {
            let mine = self.points.entry(event.clone()).or_default();
            mine.corrections.extend(p.corrections.iter().cloned());
            mine.corrections.sort();
            if mine.untracked || p.untracked {
                mine.untracked = true;
                mine.players.clear();
                continue;
            }
            for (name, v) in &p.players {
                let m = mine.players.entry(name.clone()).or_default();
                for i in 0..3 {
                    m[i] += v[i];
                }
            }
            if mine.players.len() > EVENT_PLAYER_CAP {
                mine.untracked = true;
                mine.players.clear();
            }
        }
        self.points_untracked_events = self.points.values().filter(|p| p.untracked).count() as u64;
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

/// Builds the aggregate of a run, game by game (a [`Sink`]); writes it as
/// JSON at the end of the run when given an output.
pub struct Aggregator {
    out: Option<Box<dyn Write>>,
    laws: String,
    dead: String,
    inputs: Vec<String>,
    games: Games,
    kinds: [u64; Kind::ALL.len()],
    outcome: [[u64; 4]; 2],
    via: [[u64; 2]; 2],
    edition: [Row; 3],
    time: [Row; TimeClass::ALL.len()],
    year: BTreeMap<u16, Row>,
    rating: BTreeMap<u16, Row>,
    termination: HashMap<Box<[u8]>, Row>,
    event: HashMap<Box<[u8]>, Row>,
    no_termination: Row,
    no_event: Row,
    /// Games of values beyond [`NAME_CAP`] distinct ones.
    other_termination: Row,
    other_event: Row,
    time_rating: HashMap<(TimeClass, u16), Row>,
    players: HashMap<Box<[u8]>, PlayerCounts>,
    players_untracked: u64,
    points: HashMap<Box<[u8]>, EventAcc>,
    point_pairs: usize,
    examples: BTreeMap<String, Vec<ExampleRow>>,
    first_claim: BTreeMap<u32, u64>,
    after_end: BTreeMap<u32, u64>,
    let_pass: BTreeMap<u32, u64>,
    /// The aggregate, once the run is finished.
    pub result: Option<Aggregate>,
}

impl Aggregator {
    /// `laws` and `dead` name the settings of the run (for `run`).
    pub fn new(out: Option<Box<dyn Write>>, laws: &str, dead: &str) -> Aggregator {
        Aggregator {
            out,
            laws: laws.to_string(),
            dead: dead.to_string(),
            inputs: Vec::new(),
            games: Games::default(),
            kinds: [0; Kind::ALL.len()],
            outcome: [[0; 4]; 2],
            via: [[0; 2]; 2],
            edition: [[0; 9]; 3],
            time: [[0; 9]; TimeClass::ALL.len()],
            year: BTreeMap::new(),
            rating: BTreeMap::new(),
            termination: HashMap::new(),
            event: HashMap::new(),
            no_termination: [0; 9],
            no_event: [0; 9],
            other_termination: [0; 9],
            other_event: [0; 9],
            first_claim: BTreeMap::new(),
            after_end: BTreeMap::new(),
            let_pass: BTreeMap::new(),
            time_rating: HashMap::new(),
            players: HashMap::new(),
            players_untracked: 0,
            points: HashMap::new(),
            point_pairs: 0,
            examples: BTreeMap::new(),
            result: None,
        }
    }

    /// Art. 11: each player's points in the event, as recorded and as the
    /// Laws give them, where the result tag is a result.
    fn add_points(&mut self, event: &[u8], white: &[u8], black: &[u8], game: &GameRecord<'_>) {
        let r = game.report;
        if r.status != Status::Analysed {
            return;
        }
        let recorded = Facets::get(r.facets.result, game.text)
            .and_then(|v| std::str::from_utf8(v).ok())
            .unwrap_or("*");
        let Some(rec) = halves(recorded) else {
            return;
        };
        let laws = decided_result(&r.findings).unwrap_or(recorded);
        let law = halves(laws).unwrap_or(rec);
        if !self.points.contains_key(event) {
            if self.points.len() >= NAME_CAP {
                // bounded memory: events beyond the first NAME_CAP are not
                // followed (the test of a capped run is `(other)` in by.event)
                return;
            }
            self.points.insert(event.into(), EventAcc::default());
        }
        let acc = self.points.get_mut(event).expect("inserted");
        if laws != recorded {
            let kind = r
                .findings
                .iter()
                .map(|f| f.kind)
                .find(|k| {
                    matches!(
                        k,
                        Kind::Fivefold
                            | Kind::SeventyfiveMoves
                            | Kind::DeadPosition
                            | Kind::WrongResult
                            | Kind::UnwinnableFlag
                    )
                })
                .map_or("", Kind::name);
            acc.corrections.push(Correction {
                game_id: r.id.map(|i| i.to_string()).unwrap_or_default(),
                white: String::from_utf8_lossy(white).into_owned(),
                black: String::from_utf8_lossy(black).into_owned(),
                recorded: recorded.to_string(),
                laws: laws.to_string(),
                kind: kind.to_string(),
            });
        }
        if acc.untracked {
            return;
        }
        for (name, i) in [(white, 0), (black, 1)] {
            if !acc.players.contains_key(name) {
                if acc.players.len() >= EVENT_PLAYER_CAP || self.point_pairs >= POINT_PAIR_CAP {
                    self.point_pairs -= acc.players.len();
                    acc.players = HashMap::new();
                    acc.untracked = true;
                    return;
                }
                self.point_pairs += 1;
                acc.players.insert(name.into(), [0; 3]);
            }
            let p = acc.players.get_mut(name).expect("inserted");
            p[0] += 1;
            p[1] += rec[i];
            p[2] += law[i];
        }
    }

    fn aggregate(&self, run: &RunOutcome) -> Aggregate {
        let mut a = Aggregate {
            schema_version: AGGREGATE_VERSION,
            run: vec![RunPart {
                tool: "pgn-arbiter".into(),
                version: env!("CARGO_PKG_VERSION").into(),
                laws: self.laws.clone(),
                dead: self.dead.clone(),
                inputs: self.inputs.clone(),
                threads: run.threads,
                seconds: run.seconds,
            }],
            games: self.games.clone(),
            ..Aggregate::default()
        };
        for k in Kind::ALL {
            let games = self.kinds[k.index()];
            if games == 0 {
                continue;
            }
            let mut c = KindCounts {
                games,
                ..KindCounts::default()
            };
            if let Some(m) = missed_index(k) {
                for (i, o) in OUTCOMES.iter().enumerate() {
                    if self.outcome[m][i] > 0 {
                        c.outcome.insert(o.name().into(), self.outcome[m][i]);
                    }
                }
                for (i, v) in [Via::Occurred, Via::Announced].iter().enumerate() {
                    if self.via[m][i] > 0 {
                        c.via.insert(v.name().into(), self.via[m][i]);
                    }
                }
            }
            a.kinds.insert(k.name().into(), c);
        }
        let mut dim = |name: &str, rows: Vec<(String, Row)>| {
            let buckets: BTreeMap<String, Bucket> = rows
                .into_iter()
                .filter(|(_, r)| r[0] > 0)
                .map(|(n, r)| (n, bucket(&r)))
                .collect();
            if !buckets.is_empty() {
                a.by.insert(name.into(), buckets);
            }
        };
        dim(
            "edition",
            Edition::ALL
                .iter()
                .map(|e| (e.name().to_string(), self.edition[e.index()]))
                .collect(),
        );
        dim(
            "time_control",
            TimeClass::ALL
                .iter()
                .map(|t| (t.name().to_string(), self.time[*t as usize]))
                .collect(),
        );
        dim(
            "year",
            self.year
                .iter()
                .map(|(y, r)| {
                    (
                        if *y == 0 {
                            "unknown".into()
                        } else {
                            format!("{y:04}")
                        },
                        *r,
                    )
                })
                .collect(),
        );
        dim(
            "rating",
            self.rating
                .iter()
                .map(|(b, r)| (band_name(*b), *r))
                .collect(),
        );
        let named =
            |map: &HashMap<Box<[u8]>, Row>, none: &Row, other: &Row| -> Vec<(String, Row)> {
                // values that differ only in bytes that are not UTF-8 share a name
                let mut rows: BTreeMap<String, Row> = BTreeMap::new();
                for (k, r) in map {
                    let row = rows
                        .entry(String::from_utf8_lossy(k).into_owned())
                        .or_insert([0; 9]);
                    for i in 0..row.len() {
                        row[i] += r[i];
                    }
                }
                let mut v: Vec<(String, Row)> = rows.into_iter().collect();
                v.push(("(none)".into(), *none));
                v.push(("(other)".into(), *other));
                v
            };
        dim(
            "termination",
            named(
                &self.termination,
                &self.no_termination,
                &self.other_termination,
            ),
        );
        dim(
            "event",
            named(&self.event, &self.no_event, &self.other_event),
        );
        dim(
            "time_control_rating",
            self.time_rating
                .iter()
                .map(|((t, b), r)| (format!("{}|{}", t.name(), band_name(*b)), *r))
                .collect(),
        );
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        for (name, c) in &self.players {
            let mine = a.players.entry(text(name)).or_default();
            mine.missed += c.missed;
            mine.lost_after_missed += c.lost_after_missed;
        }
        a.players_untracked = self.players_untracked;
        for (event, acc) in &self.points {
            // names that differ only in bytes that are not UTF-8 share one
            let e = a.points.entry(text(event)).or_default();
            e.untracked |= acc.untracked;
            e.corrections.extend(acc.corrections.iter().cloned());
            e.corrections.sort();
            for (name, v) in &acc.players {
                let m = e.players.entry(text(name)).or_default();
                for i in 0..3 {
                    m[i] += v[i];
                }
            }
        }
        for e in a.points.values_mut() {
            if e.untracked {
                e.players.clear();
            }
        }
        a.points_untracked_events = a.points.values().filter(|p| p.untracked).count() as u64;
        a.examples = self.examples.clone();
        let hist = |m: &BTreeMap<u32, u64>, label: fn(u32) -> String| -> BTreeMap<String, u64> {
            m.iter().map(|(k, v)| (label(*k), *v)).collect()
        };
        for (name, m, label) in [
            (
                "first_missed_claim_ply",
                &self.first_claim,
                ply_label as fn(u32) -> String,
            ),
            ("plies_after_end", &self.after_end, count_label),
            ("claims_let_pass", &self.let_pass, count_label),
        ] {
            if !m.is_empty() {
                a.distributions.insert(name.into(), hist(m, label));
            }
        }
        a
    }
}

/// An event's players and corrections while the run goes on.
#[derive(Default)]
struct EventAcc {
    players: HashMap<Box<[u8]>, [u64; 3]>,
    untracked: bool,
    corrections: Vec<Correction>,
}

/// Points in halves for White and Black.
fn halves(result: &str) -> Option<[u64; 2]> {
    match result {
        "1-0" => Some([2, 0]),
        "0-1" => Some([0, 2]),
        "1/2-1/2" => Some([1, 1]),
        _ => None,
    }
}

const OUTCOMES: [Outcome; 4] = [Outcome::Lost, Outcome::Drew, Outcome::Won, Outcome::Unknown];

fn missed_index(k: Kind) -> Option<usize> {
    match k {
        Kind::MissedThreefold => Some(0),
        Kind::MissedFiftyMoves => Some(1),
        _ => None,
    }
}

fn bucket(r: &Row) -> Bucket {
    Bucket {
        games: r[0],
        kinds: Kind::ALL
            .iter()
            .filter(|k| r[1 + k.index()] > 0)
            .map(|k| (k.name().to_string(), r[1 + k.index()]))
            .collect(),
    }
}

/// Mean ratings in bands of 200: `1400-1599` (zero-padded below 1000 so
/// that the keys sort); `unknown`.
fn band_name(b: u16) -> String {
    if b == u16::MAX {
        "unknown".into()
    } else {
        format!("{:04}-{:04}", b, b + 199)
    }
}

/// Plies in buckets of 10: `000-009`.
fn ply_label(b: u32) -> String {
    format!("{:03}-{:03}", b, b + 9)
}

/// Counts in growing buckets: `0001`, ..., `0005-0009`, `0010-0019`, ...
fn count_bucket(n: u32) -> u32 {
    match n {
        0..=4 => n,
        5..=9 => 5,
        10..=19 => 10,
        20..=49 => 20,
        50..=99 => 50,
        _ => 100,
    }
}

fn count_label(b: u32) -> String {
    match b {
        0..=4 => format!("{b:04}"),
        5 => "0005-0009".into(),
        10 => "0010-0019".into(),
        20 => "0020-0049".into(),
        50 => "0050-0099".into(),
        _ => "0100+".into(),
    }
}

impl Sink for Aggregator {
    fn begin_input(&mut self, file: &str) -> io::Result<()> {
        self.inputs.push(file.to_string());
        Ok(())
    }

    fn game(&mut self, game: &GameRecord<'_>) -> io::Result<()> {
        let r = game.report;
        self.games.read += 1;
        match r.status {
            Status::Analysed => self.games.analysed += 1,
            Status::Invalid => self.games.invalid += 1,
            Status::Skipped => {
                self.games.skipped += 1;
                return Ok(());
            }
            Status::NotPgn => {
                self.games.skipped += 1;
                self.games.not_pgn += 1;
                return Ok(());
            }
        }
        self.games.plies += u64::from(r.plies);
        let mut kinds: Vec<Kind> = r.findings.iter().map(|f| f.kind).collect();
        kinds.dedup();
        if !kinds.is_empty() {
            self.games.flagged += 1;
        }
        for f in &r.findings {
            self.kinds[f.kind.index()] += 1;
            if let (Some(m), Detail::Missed { outcome, via }) = (missed_index(f.kind), &f.detail) {
                let o = OUTCOMES.iter().position(|x| x == outcome).unwrap_or(3);
                self.outcome[m][o] += 1;
                self.via[m][usize::from(*via == Via::Announced)] += 1;
                *self.first_claim.entry(f.ply / 10 * 10).or_default() += 1;
                *self
                    .let_pass
                    .entry(count_bucket(f.occurrences))
                    .or_default() += 1;
            }
            if matches!(
                f.kind,
                Kind::Fivefold | Kind::SeventyfiveMoves | Kind::DeadPosition
            ) {
                let after = r.plies.saturating_sub(f.ply);
                *self.after_end.entry(count_bucket(after)).or_default() += 1;
            }
        }
        for f in &r.findings {
            let rows = self.examples.entry(f.kind.name().to_string()).or_default();
            if rows.len() < EXAMPLES_PER_KIND {
                let e = crate::report::examples::Example::new(game, f);
                rows.push(ExampleRow {
                    file: e.file,
                    game: e.game,
                    line: e.line,
                    players: e.players,
                    place: e.place,
                    what: e.what,
                    link: e.link,
                });
            }
        }
        let fa = &r.facets;
        add_row(&mut self.edition[r.edition.index()], &kinds);
        add_row(&mut self.time[fa.time_class as usize], &kinds);
        add_row(
            self.year.entry(fa.year.unwrap_or(0)).or_insert([0; 9]),
            &kinds,
        );
        let band = fa.rating.map_or(u16::MAX, |m| m / 200 * 200);
        add_row(self.rating.entry(band).or_insert([0; 9]), &kinds);
        add_row(
            self.time_rating
                .entry((fa.time_class, band))
                .or_insert([0; 9]),
            &kinds,
        );
        let white = Facets::get(fa.white, game.text);
        let black = Facets::get(fa.black, game.text);
        for f in &r.findings {
            let Detail::Missed { outcome, .. } = f.detail else {
                continue;
            };
            let Some(name) = (if f.side.is_white() { white } else { black }) else {
                continue;
            };
            let lost = u64::from(outcome == Outcome::Lost);
            let full = self.players.len() >= PLAYER_CAP;
            match self.players.get_mut(name) {
                Some(c) => {
                    c.missed += 1;
                    c.lost_after_missed += lost;
                }
                None if !full => {
                    self.players.insert(
                        name.into(),
                        PlayerCounts {
                            missed: 1,
                            lost_after_missed: lost,
                        },
                    );
                }
                None => self.players_untracked += 1,
            }
        }
        if let (Some(event), Some(w), Some(b)) = (Facets::get(fa.event, game.text), white, black) {
            self.add_points(event, w, b, game);
        }
        for (span, map, none, other) in [
            (
                fa.termination,
                &mut self.termination,
                &mut self.no_termination,
                &mut self.other_termination,
            ),
            (
                fa.event,
                &mut self.event,
                &mut self.no_event,
                &mut self.other_event,
            ),
        ] {
            let full = map.len() >= NAME_CAP;
            match Facets::get(span, game.text) {
                Some(v) => match map.get_mut(v) {
                    Some(row) => add_row(row, &kinds),
                    // memory stays bounded whatever the number of events
                    None if full => add_row(other, &kinds),
                    None => {
                        let mut row = [0; 9];
                        add_row(&mut row, &kinds);
                        map.insert(v.into(), row);
                    }
                },
                None => add_row(none, &kinds),
            }
        }
        Ok(())
    }

    fn end_input(&mut self, _outcome: &InputOutcome) -> io::Result<()> {
        Ok(())
    }

    fn finish(&mut self, run: &RunOutcome) -> io::Result<()> {
        let a = self.aggregate(run);
        if let Some(out) = &mut self.out {
            serde_json::to_writer(&mut *out, &a).map_err(io::Error::other)?;
            out.write_all(b"\n")?;
            out.flush()?;
        }
        self.result = Some(a);
        Ok(())
    }
}

/// Reads aggregate files and merges them, in order.
pub fn merge_files(paths: &[String]) -> Result<Aggregate, String> {
    let mut texts = Vec::with_capacity(paths.len());
    for p in paths {
        texts.push((
            p.as_str(),
            std::fs::read(p).map_err(|e| format!("{p}: {e}"))?,
        ));
    }
    merge_texts(texts.iter().map(|(name, bytes)| (*name, bytes.as_slice())))
}

/// Merges aggregates given as JSON texts, each named for its errors, in
/// order (the merge behind `pgn-arbiter report` and the Python package's
/// `merge_reports`).
pub fn merge_texts<'a>(
    parts: impl IntoIterator<Item = (&'a str, &'a [u8])>,
) -> Result<Aggregate, String> {
    let mut all = Aggregate {
        schema_version: AGGREGATE_VERSION,
        ..Aggregate::default()
    };
    for (p, bytes) in parts {
        let a: Aggregate =
            serde_json::from_slice(bytes).map_err(|e| format!("{p}: not an aggregate: {e}"))?;
        if a.schema_version != AGGREGATE_VERSION {
            return Err(format!(
                "{p}: aggregate version {} (this pgn-arbiter reads {AGGREGATE_VERSION})",
                a.schema_version
            ));
        }
        all.merge(&a);
    }
    Ok(all)
}
