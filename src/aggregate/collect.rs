//! The aggregate of a run, collected game by game (the [`Aggregator`]
//! sink): the games and their findings counted by kind, by edition, time
//! control, year, rating, termination and event, the distributions of
//! missed claims and automatic draws, the players who missed claims, the
//! points per event ([`super::points`]) and the first examples of each
//! kind. Memory stays bounded whatever the archive: names are counted up to
//! [`NAME_CAP`] and [`PLAYER_CAP`].

use std::collections::{BTreeMap, HashMap};
use std::io::{self, Write};
use std::ops::AddAssign;

use super::duplicates::{result_code, Seen};
use super::event;
use super::model::{
    Aggregate, Bucket, ExampleRow, Games, KindCounts, PlayerCounts, RunPart, SiteCounts,
    AGGREGATE_VERSION, EXAMPLES_PER_KIND, NAME_CAP, PLAYER_CAP,
};
use super::points::Points;
use super::seen::Key;
use crate::audit::{GameReport, Status};
use crate::example::Example;
use crate::facets::{Facets, TimeClass};
use crate::finding::{Detail, Finding, Outcome, Via};
use crate::kind::ByKind;
use crate::laws::ByEdition;
use crate::pipeline::{GameRecord, InputOutcome, RunOutcome, Sink};
use crate::site::Site;

/// Builds the aggregate of a run, game by game (a [`Sink`]); writes it as
/// JSON at the end of the run when given an output.
pub struct Aggregator {
    out: Option<Box<dyn Write>>,
    /// The output's name (`-` for a stream): its ids go beside it.
    out_name: String,
    laws: String,
    dead: String,
    inputs: Vec<String>,
    tally: Tally,
    /// The aggregate, once the run is finished.
    pub result: Option<Aggregate>,
}

impl Aggregator {
    /// `laws` and `dead` name the settings of the run (for `run`).
    pub fn new(out: Option<Box<dyn Write>>, laws: &str, dead: &str) -> Aggregator {
        Aggregator {
            out,
            out_name: "-".into(),
            laws: laws.to_string(),
            dead: dead.to_string(),
            inputs: Vec::new(),
            tally: Tally {
                seen: Seen::new("once"),
                ..Tally::default()
            },
            result: None,
        }
    }

    /// The name of the file the output writes: the games for merging go
    /// to a binary file beside it ([`super::ids_path`]), not into the JSON.
    pub fn with_output_name(mut self, name: &str) -> Aggregator {
        self.out_name = name.to_string();
        self
    }

    /// Whether a game that repeats an earlier one is left out of the
    /// statistics (`true`, the default: `--duplicates once`) or counted
    /// again (`--duplicates all`); repeats are listed either way.
    pub fn with_duplicates(mut self, once: bool) -> Aggregator {
        self.tally.all = !once;
        self.tally.seen = Seen::new(if once { "once" } else { "all" });
        self
    }

    /// `--duplicates`: `once` and `all` as [`Aggregator::with_duplicates`];
    /// `exact`: a repeat is the same content id (players, date, round,
    /// start position and moves as written), left out of the statistics,
    /// instead of the librarian's identity ([`crate::identity`]).
    pub fn with_duplicate_mode(mut self, mode: &str) -> Result<Aggregator, String> {
        match mode {
            "once" | "all" => Ok(self.with_duplicates(mode == "once")),
            "exact" => {
                self.tally.all = false;
                self.tally.seen = Seen::new("exact");
                Ok(self)
            }
            other => Err(format!("duplicates {other:?}: expected once, all or exact")),
        }
    }

    fn run_part(&self, run: &RunOutcome) -> RunPart {
        RunPart {
            tool: "pgn-arbiter".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            laws: self.laws.clone(),
            dead: self.dead.clone(),
            inputs: self.inputs.clone(),
            threads: run.threads,
            seconds: run.seconds,
        }
    }
}

impl Sink for Aggregator {
    fn begin_input(&mut self, file: &str) -> io::Result<()> {
        self.inputs.push(file.to_string());
        self.tally.seen.begin_input(file);
        Ok(())
    }

    fn game(&mut self, game: &GameRecord<'_>) -> io::Result<()> {
        self.tally.game(game);
        Ok(())
    }

    fn end_input(&mut self, _outcome: &InputOutcome) -> io::Result<()> {
        Ok(())
    }

    fn finish(&mut self, run: &RunOutcome) -> io::Result<()> {
        let part = self.run_part(run);
        let mut a = self.tally.aggregate(part);
        if let Some(out) = &mut self.out {
            super::write_aggregate(&mut **out, &self.out_name, &mut a)?;
        }
        self.result = Some(a);
        Ok(())
    }
}

/// Games judged in a bucket, and per kind the games with that finding.
#[derive(Debug, Clone, Copy, Default)]
struct Counts {
    games: u64,
    kinds: ByKind<u64>,
}

impl AddAssign<&Counts> for Counts {
    fn add_assign(&mut self, other: &Counts) {
        self.games += other.games;
        self.kinds += &other.kinds;
    }
}

impl Counts {
    /// One game with these findings: it counts once for each kind found.
    fn of_game(findings: &[Finding]) -> Counts {
        let mut one = Counts {
            games: 1,
            ..Counts::default()
        };
        for f in findings {
            one.kinds[f.kind] = 1;
        }
        one
    }

    /// As the aggregate writes it: the kinds found, by name.
    fn bucket(&self) -> Bucket {
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
struct Claims {
    /// By [`OUTCOMES`].
    outcome: [u64; 4],
    /// By [`VIAS`].
    via: [u64; 2],
}

const OUTCOMES: [Outcome; 4] = [Outcome::Lost, Outcome::Drew, Outcome::Won, Outcome::Unknown];
const VIAS: [Via; 2] = [Via::Occurred, Via::Announced];

impl Claims {
    fn add(&mut self, outcome: Outcome, via: Via) {
        let o = OUTCOMES.iter().position(|x| *x == outcome).unwrap_or(3);
        self.outcome[o] += 1;
        self.via[usize::from(via == Via::Announced)] += 1;
    }

    /// Into the kind's counts, by name, zeros left out.
    fn write_into(&self, c: &mut KindCounts) {
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

/// Games counted by a tag's value (`Termination`, `Event`), up to
/// [`NAME_CAP`] values.
#[derive(Default)]
struct Named {
    by_value: HashMap<Box<[u8]>, Counts>,
    /// Games without the tag.
    none: Counts,
    /// Games of values beyond [`NAME_CAP`] distinct ones.
    other: Counts,
}

impl Named {
    fn add(&mut self, value: Option<&[u8]>, one: &Counts) {
        let Some(v) = value else {
            self.none += one;
            return;
        };
        let full = self.by_value.len() >= NAME_CAP;
        match self.by_value.get_mut(v) {
            Some(c) => *c += one,
            // memory stays bounded whatever the number of events
            None if full => self.other += one,
            None => {
                self.by_value.insert(v.into(), *one);
            }
        }
    }

    /// The buckets by name, then `(none)` and `(other)`.
    fn rows(&self) -> Vec<(String, Counts)> {
        // values that differ only in bytes that are not UTF-8 share a name
        let mut rows: BTreeMap<String, Counts> = BTreeMap::new();
        for (k, c) in &self.by_value {
            *rows
                .entry(String::from_utf8_lossy(k).into_owned())
                .or_default() += c;
        }
        let mut v: Vec<(String, Counts)> = rows.into_iter().collect();
        v.push(("(none)".into(), self.none));
        v.push(("(other)".into(), self.other));
        v
    }
}

/// Players' missed claims, up to [`PLAYER_CAP`] players.
#[derive(Default)]
struct Players {
    by_name: HashMap<Box<[u8]>, PlayerCounts>,
    /// Missed claims of players beyond the cap.
    untracked: u64,
}

impl Players {
    fn add(&mut self, name: &[u8], lost: bool) {
        let lost = u64::from(lost);
        let full = self.by_name.len() >= PLAYER_CAP;
        match self.by_name.get_mut(name) {
            Some(c) => {
                c.missed += 1;
                c.lost_after_missed += lost;
            }
            None if !full => {
                let c = PlayerCounts {
                    missed: 1,
                    lost_after_missed: lost,
                };
                self.by_name.insert(name.into(), c);
            }
            None => self.untracked += 1,
        }
    }

    /// By name; names that differ only in bytes that are not UTF-8 share
    /// one.
    fn by_name(&self) -> BTreeMap<String, PlayerCounts> {
        let mut out: BTreeMap<String, PlayerCounts> = BTreeMap::new();
        for (name, c) in &self.by_name {
            out.entry(String::from_utf8_lossy(name).into_owned())
                .or_default()
                .add(c);
        }
        out
    }
}

/// Everything counted while the run goes on.
#[derive(Default)]
struct Tally {
    games: Games,
    /// Repeats of earlier games.
    seen: Seen,
    /// Repeats count in the statistics too (`--duplicates all`).
    all: bool,
    /// Findings of each kind (one per game and kind).
    kinds: ByKind<u64>,
    /// Of the missed claims' kinds.
    claims: ByKind<Claims>,
    edition: ByEdition<Counts>,
    time: [Counts; TimeClass::ALL.len()],
    year: BTreeMap<u16, Counts>,
    /// By band of mean rating ([`band_name`]).
    rating: BTreeMap<u16, Counts>,
    time_rating: HashMap<(TimeClass, u16), Counts>,
    termination: Named,
    /// By event ([`event`]: `Event`, `Site`, year).
    event: Named,
    /// The current game's event key, reused from game to game.
    event_key: Vec<u8>,
    players: Players,
    points: Points,
    examples: ByKind<Vec<ExampleRow>>,
    /// Per site, in [`Site::ALL`] order.
    sites: [SiteCounts; Site::ALL.len()],
    /// Missed claims by ply, in tens.
    first_claim: BTreeMap<u32, u64>,
    /// Automatic draws by the plies played after them ([`count_bucket`]).
    after_end: BTreeMap<u32, u64>,
    /// Missed claims by the plies at which they held ([`count_bucket`]).
    let_pass: BTreeMap<u32, u64>,
}

impl Tally {
    fn game(&mut self, game: &GameRecord<'_>) {
        let r = game.report;
        if !count_status(&mut self.games, r.status) {
            return;
        }
        let result = result_code(Facets::get(r.facets.result, game.text));
        if let Some(key) = Key::of(r, result, self.seen.exact()) {
            if self.seen.game(game.index, key) && !self.all {
                self.seen.left_out();
                return;
            }
        }
        self.games.plies += u64::from(r.plies);
        if !r.findings.is_empty() {
            self.games.flagged += 1;
        }
        // Games, not findings, per kind: a game may break two of its site's
        // rules.
        let one = Counts::of_game(&r.findings);
        self.kinds += &one.kinds;
        self.count_findings(r);
        if let Some(site) = r.site {
            self.sites[site as usize].add(r);
        }
        self.keep_examples(game);
        self.count_facets(r, &one);
        let fa = &r.facets;
        let white = Facets::get(fa.white, game.text);
        let black = Facets::get(fa.black, game.text);
        self.count_players(r, white, black);
        // the event: its tag, site and year ([`event`])
        let event = match Facets::get(fa.event, game.text) {
            Some(e) => {
                let site = Facets::get(fa.site, game.text);
                event::write_key(&mut self.event_key, e, site, fa.event_year);
                Some(self.event_key.as_slice())
            }
            None => None,
        };
        if let (Some(event), Some(w), Some(b)) = (event, white, black) {
            self.points.add(event, w, b, game);
        }
        self.event.add(event, &one);
        self.termination
            .add(Facets::get(fa.termination, game.text), &one);
    }

    /// The missed claims by outcome and via, and the distributions.
    fn count_findings(&mut self, r: &GameReport) {
        for f in &r.findings {
            match f.detail {
                Detail::Missed { outcome, via } if f.kind.is_missed_claim() => {
                    self.claims[f.kind].add(outcome, via);
                    *self.first_claim.entry(f.ply / 10 * 10).or_default() += 1;
                    *self
                        .let_pass
                        .entry(count_bucket(f.occurrences))
                        .or_default() += 1;
                }
                _ => {}
            }
            if f.kind.is_automatic_draw() {
                let after = r.plies.saturating_sub(f.ply);
                *self.after_end.entry(count_bucket(after)).or_default() += 1;
            }
        }
    }

    /// The first [`EXAMPLES_PER_KIND`] findings of each kind.
    fn keep_examples(&mut self, game: &GameRecord<'_>) {
        for f in &game.report.findings {
            let rows = &mut self.examples[f.kind];
            if rows.len() < EXAMPLES_PER_KIND {
                rows.push(example_row(Example::new(game, f)));
            }
        }
    }

    /// The game in its edition, time control, year and rating band.
    fn count_facets(&mut self, r: &GameReport, one: &Counts) {
        let fa = &r.facets;
        self.edition[r.edition] += one;
        self.time[fa.time_class as usize] += one;
        *self.year.entry(fa.year.unwrap_or(0)).or_default() += one;
        let band = fa.rating.map_or(u16::MAX, |m| m / 200 * 200);
        *self.rating.entry(band).or_default() += one;
        *self.time_rating.entry((fa.time_class, band)).or_default() += one;
    }

    /// Each missed claim to the claimant, by the `White` or `Black` tag.
    fn count_players(&mut self, r: &GameReport, white: Option<&[u8]>, black: Option<&[u8]>) {
        for f in &r.findings {
            let Detail::Missed { outcome, .. } = f.detail else {
                continue;
            };
            if let Some(name) = if f.side.is_white() { white } else { black } {
                self.players.add(name, outcome == Outcome::Lost);
            }
        }
    }

    /// The aggregate of what was counted, for the run `run`.
    fn aggregate(&mut self, run: RunPart) -> Aggregate {
        let points = self.points.events();
        Aggregate {
            schema_version: AGGREGATE_VERSION,
            run: vec![run],
            games: self.games.clone(),
            kinds: self.kind_counts(),
            by: self.by(),
            distributions: self.distributions(),
            players: self.players.by_name(),
            players_untracked: self.players.untracked,
            points_untracked_events: points.values().filter(|p| p.untracked).count() as u64,
            points,
            examples: self
                .examples
                .iter()
                .filter(|(_, rows)| !rows.is_empty())
                .map(|(k, rows)| (k.name().to_string(), rows.clone()))
                .collect(),
            sites: Site::ALL
                .into_iter()
                .zip(self.sites)
                .filter(|(_, c)| c.games > 0)
                .map(|(s, c)| (s.name().to_string(), c))
                .collect(),
            duplicates: self.seen.duplicates(),
        }
    }

    /// The kinds found, by name.
    fn kind_counts(&self) -> BTreeMap<String, KindCounts> {
        let mut out = BTreeMap::new();
        for (k, &games) in self.kinds.iter().filter(|(_, n)| **n > 0) {
            let mut c = KindCounts {
                games,
                ..KindCounts::default()
            };
            if k.is_missed_claim() {
                self.claims[k].write_into(&mut c);
            }
            out.insert(k.name().to_string(), c);
        }
        out
    }

    /// Dimension → bucket → counts, buckets without games left out.
    fn by(&self) -> BTreeMap<String, BTreeMap<String, Bucket>> {
        let dims: [(&str, Vec<(String, Counts)>); 7] = [
            (
                "edition",
                self.edition
                    .iter()
                    .map(|(e, c)| (e.name().to_string(), *c))
                    .collect(),
            ),
            (
                "time_control",
                TimeClass::ALL
                    .iter()
                    .map(|t| (t.name().to_string(), self.time[*t as usize]))
                    .collect(),
            ),
            (
                "year",
                self.year.iter().map(|(y, c)| (year_name(*y), *c)).collect(),
            ),
            (
                "rating",
                self.rating
                    .iter()
                    .map(|(b, c)| (band_name(*b), *c))
                    .collect(),
            ),
            ("termination", self.termination.rows()),
            ("event", self.event.rows()),
            (
                "time_control_rating",
                self.time_rating
                    .iter()
                    .map(|((t, b), c)| (format!("{}|{}", t.name(), band_name(*b)), *c))
                    .collect(),
            ),
        ];
        let mut by = BTreeMap::new();
        for (name, rows) in dims {
            let buckets: BTreeMap<String, Bucket> = rows
                .into_iter()
                .filter(|(_, c)| c.games > 0)
                .map(|(n, c)| (n, c.bucket()))
                .collect();
            if !buckets.is_empty() {
                by.insert(name.to_string(), buckets);
            }
        }
        by
    }

    /// The distributions with findings, by bucket label.
    fn distributions(&self) -> BTreeMap<String, BTreeMap<String, u64>> {
        let hists = [
            (
                "first_missed_claim_ply",
                &self.first_claim,
                ply_label as fn(u32) -> String,
            ),
            ("plies_after_end", &self.after_end, count_label),
            ("claims_let_pass", &self.let_pass, count_label),
        ];
        hists
            .into_iter()
            .filter(|(_, m, _)| !m.is_empty())
            .map(|(name, m, label)| {
                let hist = m.iter().map(|(k, v)| (label(*k), *v)).collect();
                (name.to_string(), hist)
            })
            .collect()
    }
}

/// Counts the game as read, analysed, invalid or skipped; whether it is
/// judged (analysed or invalid), and so counted further.
fn count_status(games: &mut Games, status: Status) -> bool {
    games.read += 1;
    match status {
        Status::Analysed => games.analysed += 1,
        Status::Invalid => games.invalid += 1,
        Status::Skipped => {
            games.skipped += 1;
            return false;
        }
        Status::NotPgn => {
            games.skipped += 1;
            games.not_pgn += 1;
            return false;
        }
    }
    true
}

fn example_row(e: Example) -> ExampleRow {
    ExampleRow {
        file: e.file,
        game: e.game,
        line: e.line,
        players: e.players,
        place: e.place,
        what: e.what,
        link: e.link,
    }
}

/// `2023`; `unknown` for a game without a year.
fn year_name(y: u16) -> String {
    if y == 0 {
        "unknown".into()
    } else {
        format!("{y:04}")
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
