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
use crate::pipeline::{GameRecord, InputOutcome, RunOutcome, Sink};
use crate::rules::laws::Edition;

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
    /// Games of other variants.
    pub skipped: u64,
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
            first_claim: BTreeMap::new(),
            after_end: BTreeMap::new(),
            let_pass: BTreeMap::new(),
            result: None,
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
                .map(|e| (e.name().to_string(), self.edition[edition_index(*e)]))
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
        let named = |map: &HashMap<Box<[u8]>, Row>, none: &Row| -> Vec<(String, Row)> {
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
            v
        };
        dim(
            "termination",
            named(&self.termination, &self.no_termination),
        );
        dim("event", named(&self.event, &self.no_event));
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

const OUTCOMES: [Outcome; 4] = [Outcome::Lost, Outcome::Drew, Outcome::Won, Outcome::Unknown];

fn missed_index(k: Kind) -> Option<usize> {
    match k {
        Kind::MissedThreefold => Some(0),
        Kind::MissedFiftyMoves => Some(1),
        _ => None,
    }
}

fn edition_index(e: Edition) -> usize {
    match e {
        Edition::Laws2001 => 0,
        Edition::Laws2014 => 1,
        Edition::Laws2018 => 2,
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
        let fa = &r.facets;
        add_row(&mut self.edition[edition_index(r.edition)], &kinds);
        add_row(&mut self.time[fa.time_class as usize], &kinds);
        add_row(
            self.year.entry(fa.year.unwrap_or(0)).or_insert([0; 9]),
            &kinds,
        );
        let band = fa.rating.map_or(u16::MAX, |m| m / 200 * 200);
        add_row(self.rating.entry(band).or_insert([0; 9]), &kinds);
        for (span, map, none) in [
            (
                fa.termination,
                &mut self.termination,
                &mut self.no_termination,
            ),
            (fa.event, &mut self.event, &mut self.no_event),
        ] {
            match Facets::get(span, game.text) {
                Some(v) => match map.get_mut(v) {
                    Some(row) => add_row(row, &kinds),
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
            serde_json::to_writer_pretty(&mut *out, &a).map_err(io::Error::other)?;
            out.write_all(b"\n")?;
            out.flush()?;
        }
        self.result = Some(a);
        Ok(())
    }
}

/// Reads aggregate files and merges them, in order.
pub fn merge_files(paths: &[String]) -> Result<Aggregate, String> {
    let mut all = Aggregate {
        schema_version: AGGREGATE_VERSION,
        ..Aggregate::default()
    };
    for p in paths {
        let bytes = std::fs::read(p).map_err(|e| format!("{p}: {e}"))?;
        let a: Aggregate =
            serde_json::from_slice(&bytes).map_err(|e| format!("{p}: not an aggregate: {e}"))?;
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
