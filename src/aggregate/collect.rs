//! The aggregate of a run, collected game by game (the [`Aggregator`]
//! sink): the games and their findings counted by kind, by edition, time
//! control, year, rating, termination and event, the distributions of
//! missed claims and automatic draws, the players who missed claims, the
//! points per event ([`super::points`]) and the first examples of each
//! kind. Each judged game is counted from its [`Fact`] as it comes, and
//! the fact is packed beside the aggregate for merging. Where games share
//! a hash, so that one could repeat another, all are counted again at the
//! end from their packed facts, knowing the repeats; a merge of aggregates
//! counts their facts again ([`Tally::packed`]) in the same way.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::Path;

use counts::{Claims, Counts, Named, Players};

use super::duplicates::Seen;
use super::event;
use super::fact::{result_code, Fact, GameShift, EXAMPLE_CANDIDATES};
use super::model::{
    Aggregate, Bucket, ExampleRow, Games, KindCounts, RunPart, SiteCounts, AGGREGATE_VERSION,
    EXAMPLES_PER_KIND,
};
use super::packed::Unpacked;
use super::points::Points;
use super::seen::Key;
use super::spool::IdsWriter;
use crate::audit::Status;
use crate::facets::{Facets, TimeClass};
use crate::finding::Outcome;
use crate::hashing::Table;
use crate::kind::ByKind;
use crate::laws::{ByEdition, Edition};
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
    /// No one reads the aggregate's games for merging.
    ids_unread: bool,
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
            ids_unread: false,
            tally: Tally::new("once"),
            result: None,
        }
    }

    /// The name of the file the output writes: the games for merging go
    /// to a binary file beside it ([`super::ids_path`]), not into the JSON,
    /// as the run goes on (memory does not grow with them) where it is a
    /// regular file.
    pub fn with_output_name(mut self, name: &str) -> Aggregator {
        self.out_name = name.to_string();
        self
    }

    /// No one reads the games for merging of the aggregate (it is not
    /// written, as with `--html` alone): they go to a temporary file while
    /// the run goes on, removed at its end, instead of staying in memory
    /// in [`Aggregate::duplicates`].
    pub fn with_ids_unread(mut self) -> Aggregator {
        self.ids_unread = true;
        self
    }

    /// Whether a game that repeats an earlier one is left out of the
    /// statistics (`true`, the default: `--duplicates once`) or counted
    /// again (`--duplicates all`); repeats are listed either way.
    pub fn with_duplicates(mut self, once: bool) -> Aggregator {
        self.tally = Tally::new(if once { "once" } else { "all" });
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
                self.tally = Tally::new("exact");
                Ok(self)
            }
            other => Err(format!("duplicates {other:?}: expected once, all or exact")),
        }
    }

    /// Before the first input: where the games for merging go (beside a
    /// regular file, inline in a stream, nowhere without an output).
    fn start(&mut self) -> io::Result<()> {
        let name = self.out_name.as_str();
        if self.out.is_none() && self.ids_unread {
            let path = temporary_path();
            let spool = IdsWriter::create_temporary(&path)?;
            self.tally.seen.spool_temporarily(spool, path);
        } else if self.out.is_some()
            && name != "-"
            && std::fs::metadata(name).is_ok_and(|m| m.is_file())
        {
            let spool = IdsWriter::create(&super::ids_path(Path::new(name)))
                .map_err(|e| beside(name, e))?;
            self.tally.seen.spool_to(spool);
        }
        Ok(())
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
        if self.inputs.is_empty() {
            self.start()?;
        }
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
        if self.inputs.is_empty() {
            self.start()?;
        }
        let part = self.run_part(run);
        let mut a = self.tally.aggregate(vec![part], None)?;
        if let Some(out) = &mut self.out {
            super::write_aggregate(&mut **out, &self.out_name, &mut a)?;
        }
        self.result = Some(a);
        Ok(())
    }
}

/// An error writing the games for merging beside the aggregate `json`,
/// which names it: the file beside it is not one the user named.
pub(super) fn beside(json: &str, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{json}: its games for merging, {e}"))
}

/// A temporary file of this process for games no one reads, under the
/// system's temporary directory (`TMPDIR`).
pub(super) fn temporary_path() -> std::path::PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("pgn-arbiter-{}-{n}.ids", std::process::id()))
}

/// Everything counted while the run goes on.
#[derive(Default)]
pub(super) struct Tally {
    games: Games,
    /// Repeats of earlier games.
    pub(super) seen: Seen,
    /// Repeats count in the statistics too (`--duplicates all`).
    all: bool,
    /// The games were counted as they came ([`Tally::game`]), each as a
    /// first occurrence; not so in a merge.
    live: bool,
    /// Per kind, the findings so far in the judged games of this run
    /// (those of a part, in a merge): the first [`EXAMPLE_CANDIDATES`]
    /// carry their example rows ([`Fact::of`]).
    candidates: ByKind<u32>,
    /// Per kind, the findings so far in the judged games counted or left
    /// out: a row is an example while this is below [`EXAMPLE_CANDIDATES`].
    ordinals: ByKind<u32>,
    /// Findings of each kind (one per game and kind).
    kinds: ByKind<u64>,
    /// Of the missed claims' kinds.
    claims: ByKind<Claims>,
    edition: ByEdition<Counts>,
    time: [Counts; TimeClass::ALL.len()],
    year: BTreeMap<u16, Counts>,
    /// By band of mean rating ([`band_name`]).
    rating: BTreeMap<u16, Counts>,
    time_rating: Table<(u8, u16), Counts>,
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
    /// Counts in `mode` (`once`, `all`, `exact`).
    pub(super) fn new(mode: &str) -> Tally {
        Tally {
            seen: Seen::new(mode),
            all: mode == "all",
            ..Tally::default()
        }
    }

    /// The mode counted in.
    pub(super) fn mode(&self) -> &str {
        self.seen.mode()
    }

    fn game(&mut self, game: &GameRecord<'_>) {
        let r = game.report;
        if !count_status(&mut self.games, r.status) {
            return;
        }
        let result = result_code(Facets::get(r.facets.result, game.text));
        // the event: its tag, site and year ([`event`])
        let fa = &r.facets;
        let mut event_key = std::mem::take(&mut self.event_key);
        let event = Facets::get(fa.event, game.text).map(|e| {
            let site = Facets::get(fa.site, game.text);
            event::write_key(&mut event_key, e, site, fa.event_year);
            event_key.as_slice()
        });
        let fact = Fact::of(game, result, event, &mut self.candidates);
        let key = Key::of(r, result, self.seen.exact());
        self.seen.game(game.index, key, &fact);
        // counted now as a first occurrence: most runs hold no game that
        // could repeat another, and then the packed games are not read
        // back ([`Tally::aggregate`])
        self.live = true;
        self.count(&fact, false);
        self.event_key = event_key;
    }

    /// A judged game of the current input, of key `key` and fact `fact`;
    /// counted as it comes where `live` (as [`Tally::game`] counts), else
    /// at the end.
    #[cfg(test)]
    fn judged(&mut self, game: u64, key: Key, fact: &Fact<'_>, live: bool) {
        count_status(&mut self.games, Status::Analysed);
        let kept = self.candidate_rows(fact);
        let mut fact = fact.clone();
        fact.examples.retain(|(i, _)| kept.contains(i));
        self.seen.game(game, key, &fact);
        if live {
            self.live = true;
            self.count(&fact, false);
        }
    }

    /// A game as an aggregate packed it, counted again in a merge (the
    /// games read, analysed and invalid are the parts' own); renumbered by
    /// `shift` where it is of the input that moves.
    pub(super) fn packed(&mut self, g: &Unpacked<'_>, shift: Option<GameShift<'_>>) {
        // the findings among the first of their kind in the merge keep
        // their example rows, as in one run; a part's other rows are
        // dropped, so the games packed equal one run's
        let kept = self.candidate_rows(&g.fact);
        if shift.is_none() && g.fact.examples.iter().all(|(i, _)| kept.contains(i)) {
            self.seen.game_packed(g);
            return;
        }
        let mut fact = g.fact.clone();
        fact.examples.retain(|(i, _)| kept.contains(i));
        let mut game = g.game;
        if let Some(s) = shift {
            fact.shift(s.file, s.games, s.lines);
            game += s.games;
        }
        self.seen.game(game, g.key, &fact);
    }

    /// The findings of `fact` (by index) that are among the first
    /// [`EXAMPLE_CANDIDATES`] of their kind, and carry their example rows
    /// ([`Fact::of`] counts them so in a run).
    fn candidate_rows(&mut self, fact: &Fact<'_>) -> Vec<u32> {
        let mut kept = Vec::new();
        for (i, f) in fact.findings.iter().enumerate() {
            let n = &mut self.candidates[f.kind];
            if *n < EXAMPLE_CANDIDATES {
                kept.push(i as u32);
            }
            *n = n.saturating_add(1);
        }
        kept
    }

    /// The games of `file` from game `first` on follow, in a merge.
    pub(super) fn begin_or_continue(&mut self, file: &str, first: u64) {
        self.seen.begin_or_continue(file, first);
    }

    /// Counts a judged game (a repeat of an earlier one: unless
    /// `--duplicates all`, it is left out, and this says so).
    fn count(&mut self, fact: &Fact<'_>, repeat: bool) -> bool {
        let mut ordinals = self.ordinals;
        for f in &fact.findings {
            ordinals[f.kind] = ordinals[f.kind].saturating_add(1);
        }
        let before = std::mem::replace(&mut self.ordinals, ordinals);
        if repeat && !self.all {
            return true;
        }
        self.games.plies += u64::from(fact.plies);
        if !fact.findings.is_empty() {
            self.games.flagged += 1;
        }
        // Games, not findings, per kind: a game may break two of its site's
        // rules.
        let one = Counts::of_game(fact);
        self.kinds += &one.kinds;
        self.count_findings(fact);
        if let Some(site) = fact.site {
            count_site(&mut self.sites[usize::from(site)], fact);
        }
        self.keep_examples(fact, before);
        self.count_facets(fact, &one);
        self.count_players(fact);
        if let (Some(event), Some(w), Some(b)) = (fact.event, fact.white, fact.black) {
            self.points.add(event, w, b, fact);
        }
        self.event.add(fact.event, &one);
        self.termination.add(fact.termination, &one);
        false
    }

    /// The missed claims by outcome and via, and the distributions.
    fn count_findings(&mut self, fact: &Fact<'_>) {
        for f in &fact.findings {
            if let Some((outcome, via)) = f.missed().filter(|_| f.kind.is_missed_claim()) {
                self.claims[f.kind].add(outcome, via);
                *self.first_claim.entry(f.ply / 10 * 10).or_default() += 1;
                *self
                    .let_pass
                    .entry(count_bucket(f.occurrences))
                    .or_default() += 1;
            }
            if f.kind.is_automatic_draw() {
                let after = fact.plies.saturating_sub(f.ply);
                *self.after_end.entry(count_bucket(after)).or_default() += 1;
            }
        }
    }

    /// The first [`EXAMPLES_PER_KIND`] findings of each kind, of those
    /// that carry their rows (`before`: the findings of each kind before
    /// this game's).
    fn keep_examples(&mut self, fact: &Fact<'_>, mut before: ByKind<u32>) {
        for (i, f) in fact.findings.iter().enumerate() {
            let ordinal = before[f.kind];
            before[f.kind] = ordinal.saturating_add(1);
            let rows = &mut self.examples[f.kind];
            if ordinal >= EXAMPLE_CANDIDATES || rows.len() >= EXAMPLES_PER_KIND {
                continue;
            }
            if let Some((_, row)) = fact.examples.iter().find(|(n, _)| *n as usize == i) {
                rows.push(row.clone());
            }
        }
    }

    /// The game in its edition, time control, year and rating band.
    fn count_facets(&mut self, fact: &Fact<'_>, one: &Counts) {
        self.edition[Edition::ALL[usize::from(fact.edition)]] += one;
        self.time[usize::from(fact.time_class)] += one;
        *self.year.entry(fact.year).or_default() += one;
        *self.rating.entry(fact.band).or_default() += one;
        *self
            .time_rating
            .entry((fact.time_class, fact.band))
            .or_default() += one;
    }

    /// Each missed claim to the claimant, by the `White` or `Black` tag.
    fn count_players(&mut self, fact: &Fact<'_>) {
        for f in &fact.findings {
            let Some((outcome, _)) = f.missed() else {
                continue;
            };
            if let Some(name) = if f.white { fact.white } else { fact.black } {
                self.players.add(name, outcome == Outcome::Lost);
            }
        }
    }

    /// The aggregate of what was counted, for the runs `run` (in a
    /// merge, `games` are the parts' but for `plies` and `flagged`).
    pub(super) fn aggregate(
        &mut self,
        run: Vec<RunPart>,
        games: Option<&Games>,
    ) -> io::Result<Aggregate> {
        // the duplicate finder looks the games up knowing which share a
        // hash; games counted as they came stand where none can repeat
        // another (or where repeats count too), else all are counted
        // again, knowing the repeats
        let mut seen = std::mem::take(&mut self.seen);
        let counted = match seen.mark_shared() {
            Err(e) => Err(e),
            Ok(false) if self.live => seen.close_unread(),
            Ok(_) => {
                let again = !(self.live && self.all);
                if self.live && again {
                    self.forget_counts();
                }
                seen.count_all(|fact, repeat| again && self.count(fact, repeat))
            }
        };
        self.seen = seen;
        counted?;
        let mut counted = self.games.clone();
        if let Some(g) = games {
            counted = Games {
                plies: counted.plies,
                flagged: counted.flagged,
                ..g.clone()
            };
        }
        let mut points = self.points.events();
        let untracked = points.values().filter(|p| p.untracked).count() as u64;
        let standings = points.len() as u64 - untracked;
        // the events whose standings the Laws change or whose names were
        // joined; the others' standings are the records' own, and would
        // grow the JSON with every tournament of a month
        points.retain(|_, e| !e.corrections.is_empty() || !e.joined.is_empty());
        Ok(Aggregate {
            schema_version: AGGREGATE_VERSION,
            run,
            games: counted,
            kinds: self.kind_counts(),
            by: self.by(),
            distributions: self.distributions(),
            players: self.players.by_name(),
            points_untracked_events: untracked,
            points_events: standings,
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
        })
    }

    /// Back to no game counted, to count them again (the games read, the
    /// example candidates and the mode are kept).
    fn forget_counts(&mut self) {
        *self = Tally {
            games: Games {
                plies: 0,
                flagged: 0,
                ..self.games.clone()
            },
            all: self.all,
            live: self.live,
            candidates: self.candidates,
            seen: std::mem::take(&mut self.seen),
            ..Tally::default()
        };
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
                    .map(|((t, b), c)| {
                        let t = TimeClass::ALL[usize::from(*t)];
                        (format!("{}|{}", t.name(), band_name(*b)), *c)
                    })
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

/// A counted game its site's rules judged ([`SiteCounts::add`]'s counts).
fn count_site(c: &mut SiteCounts, fact: &Fact<'_>) {
    c.games += 1;
    if let Some(supported) = fact.ruling {
        c.rulings_checked += 1;
        c.rulings_supported += u64::from(supported);
    }
    let mut rules = [false; crate::site::Rule::ALL.len()];
    let mut flags = false;
    for f in &fact.findings {
        if let Some(r) = f.rule() {
            rules[r] = true;
        } else if f.detail == super::fact::DETAIL_FLAG {
            flags = true;
        }
    }
    for (n, hit) in c.rules.iter_mut().zip(rules) {
        *n += u64::from(hit);
    }
    c.flags_scored_otherwise += u64::from(flags);
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

mod counts;
#[cfg(test)]
mod tests;
