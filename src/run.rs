//! The entry point: an [`Audit`] built once, run over paths, handing every
//! game to a [`Sink`] in input order. The CLI, and whatever else audits
//! files, is a thin layer over it.

use std::io::{self, Read};
use std::time::Instant;

use crate::audit::TagSet;
use crate::input::{self, InputPath};
use crate::laws::Laws;
use crate::pipeline::{Config, InputOutcome, Pipeline, Progress, RunOutcome, Sink};
use crate::rules::dead::DeadMode;
use crate::rules::site::SiteMode;
use crate::stats::Stats;

/// An audit of PGN inputs against the Laws: how it is judged and how many
/// threads do it.
///
/// ```no_run
/// use pgn_arbiter::{Audit, Laws, DeadMode};
/// use pgn_arbiter::pipeline::{GameRecord, Sink};
///
/// struct Count(u64);
/// impl Sink for Count {
///     fn game(&mut self, g: &GameRecord<'_>) -> std::io::Result<()> {
///         self.0 += g.report.findings.len() as u64;
///         Ok(())
///     }
/// }
/// let mut count = Count(0);
/// let run = Audit::new()
///     .laws(Laws::Auto)
///     .dead(DeadMode::Quick)
///     .run(&["games.pgn.zst".to_string()], &mut count, &())
///     .unwrap();
/// println!("{} findings in {} games", count.0, run.total.games);
/// ```
#[derive(Debug, Clone, Default)]
pub struct Audit {
    cfg: Config,
}

impl Audit {
    /// How runs are carried out (the parts of an input run with it).
    pub(crate) fn config(&self) -> &Config {
        &self.cfg
    }

    /// Laws by each game's date, dead positions proven with the quick
    /// budget, every core, the default tags.
    pub fn new() -> Audit {
        Audit::default()
    }

    /// Which laws to judge by (SPEC "Laws editions").
    pub fn laws(mut self, laws: Laws) -> Audit {
        self.cfg.laws = laws;
        self
    }

    /// How hard dead positions and unwinnable flags are proven.
    pub fn dead(mut self, dead: DeadMode) -> Audit {
        self.cfg.dead = dead;
        self
    }

    /// Which site's rules judge a game besides the Laws (SPEC "Site
    /// rules"; [`SiteMode::Auto`] by default: by the `Site` tag).
    pub fn site(mut self, site: SiteMode) -> Audit {
        self.cfg.site = site;
        self
    }

    /// Worker threads; 0 (the default) means one per core.
    pub fn threads(mut self, threads: usize) -> Audit {
        self.cfg.threads = threads;
        self
    }

    /// The tags kept in the reports of games with findings.
    pub fn tags(mut self, tags: TagSet) -> Audit {
        self.cfg.tags = tags;
        self
    }

    /// Reads every game's facets (year, time control, rating, event...) for
    /// the statistics report ([`crate::aggregate::Aggregator`]).
    pub fn facets(mut self, facets: bool) -> Audit {
        self.cfg.facets = facets;
        self
    }

    /// Stops reading when `flag` is set (a Ctrl-C handler sets it): the games
    /// read so far are audited and handed to the sink, the run ends with
    /// [`RunOutcome::interrupted`].
    pub fn interrupt(mut self, flag: std::sync::Arc<std::sync::atomic::AtomicBool>) -> Audit {
        self.cfg.interrupt = Some(flag);
        self
    }

    /// Target chunk size and stream region size in bytes (tuning, tests).
    #[doc(hidden)]
    pub fn sizes(mut self, chunk_size: usize, region_size: usize) -> Audit {
        self.cfg.chunk_size = chunk_size;
        self.cfg.region_size = region_size;
        self
    }

    /// Audits the inputs named by `paths` (files, directories searched for
    /// `*.pgn` and `*.pgn.zst` in any case, `-` for stdin), in order: `&str`,
    /// `String`, `Path` or `OsString` alike (a path need not be UTF-8; it
    /// is named lossily in the reports). A path that cannot be read is an
    /// input with an error (and no games); the run goes on. `Err` is only
    /// the sink's (a closed output).
    pub fn run(
        &self,
        paths: &[impl AsRef<std::ffi::OsStr>],
        sink: &mut dyn Sink,
        progress: &dyn Progress,
    ) -> io::Result<RunOutcome> {
        let started = Instant::now();
        let pipeline = Pipeline::new(self.cfg.clone())?;
        // Each path in its place: its inputs, or the reason it cannot be read.
        let mut named = Vec::new();
        for path in paths {
            let (inputs, errors) = input::expand(std::slice::from_ref(path));
            named.extend(inputs.into_iter().map(Ok));
            named.extend(errors.into_iter().map(Err));
        }
        let size = |path: &InputPath| match path {
            InputPath::File(p) => std::fs::metadata(p).ok().map(|m| m.len()),
            InputPath::Stdin => None,
        };
        progress.start(
            named
                .iter()
                .map(|n| n.as_ref().ok().and_then(|i| size(&i.path)))
                .sum(),
        );
        let mut outcomes = Vec::new();
        let mut total = Stats::default();
        for input in named {
            if self.cfg.interrupted() {
                break;
            }
            let outcome = match input {
                Ok(input) => {
                    progress.input_start(&input.name);
                    let mut outcome = pipeline.run(&input, sink, progress)?;
                    no_game_found(&mut outcome);
                    progress.input_done(size(&input.path).unwrap_or(0), outcome.stats.games);
                    outcome
                }
                Err((name, error)) => {
                    sink.begin_input(&name)?;
                    let outcome = InputOutcome {
                        name,
                        stats: Stats::default(),
                        error: Some(format!("cannot read: {error}")),
                    };
                    sink.end_input(&outcome)?;
                    outcome
                }
            };
            total.merge(&outcome.stats);
            outcomes.push(outcome);
        }
        let run = RunOutcome {
            interrupted: self.cfg.interrupted(),
            inputs: outcomes,
            total,
            threads: pipeline.threads(),
            seconds: started.elapsed().as_secs_f64(),
        };
        sink.finish(&run)?;
        Ok(run)
    }

    /// Audits one input read from `reader` (plain PGN, or zstd recognised by
    /// its magic bytes), named `name` in the reports.
    pub fn run_reader(
        &self,
        name: &str,
        reader: impl Read + Send + 'static,
        sink: &mut dyn Sink,
    ) -> io::Result<RunOutcome> {
        let started = Instant::now();
        let pipeline = Pipeline::new(self.cfg.clone())?;
        let mut outcome = pipeline.run_reader(name, Box::new(reader), sink, &())?;
        no_game_found(&mut outcome);
        let run = RunOutcome {
            interrupted: self.cfg.interrupted(),
            total: outcome.stats.clone(),
            inputs: vec![outcome],
            threads: pipeline.threads(),
            seconds: started.elapsed().as_secs_f64(),
        };
        sink.finish(&run)?;
        Ok(run)
    }

    /// Audits PGN text held in memory, named `name` in the reports.
    pub fn run_bytes(
        &self,
        name: &str,
        bytes: &[u8],
        sink: &mut dyn Sink,
    ) -> io::Result<RunOutcome> {
        self.run_reader(name, io::Cursor::new(bytes.to_vec()), sink)
    }
}

/// An input whose every block is text that is no game
/// ([`crate::audit::Status::NotPgn`]), and that has one, holds no PGN: an
/// input error, as a directory without PGN is. Its blocks stay counted.
fn no_game_found(outcome: &mut InputOutcome) {
    if outcome.error.is_none() {
        outcome.error = no_game_error(&outcome.stats);
    }
}

/// The error of an input of [`Stats`] `st` whose every block is text that
/// is no game, if it is one (see [`no_game_found`]); the merge of the
/// parts of an input judges the whole input by it.
pub(crate) fn no_game_error(st: &Stats) -> Option<String> {
    if st.games == 0 || st.not_pgn != st.games {
        return None;
    }
    let mut error = format!(
        "no PGN game found ({} block{} of text that {} no game",
        crate::text::thousands(st.games),
        if st.games == 1 { "" } else { "s" },
        if st.games == 1 { "is" } else { "are" },
    );
    if st.hidden_games > 0 {
        error.push_str(&format!(
            "; a comment left open hides {} tag section{}",
            crate::text::thousands(st.hidden_games),
            if st.hidden_games == 1 { "" } else { "s" },
        ));
    }
    error.push(')');
    Some(error)
}
