//! Where a run's games go: a [`Sink`] receives every game of a run, in
//! input order, as a [`GameRecord`], between the start and the end of its
//! input; the outcome of each input ([`InputOutcome`]) and of the run
//! ([`RunOutcome`]) close them.

use std::io;

use crate::audit::GameReport;
use crate::stats::Stats;

/// One game as a sink sees it.
#[derive(Clone, Copy)]
pub struct GameRecord<'a> {
    /// The input's name, as the user gave it (or as found in a directory).
    pub file: &'a str,
    /// 0-based index of the game in its input.
    pub index: u64,
    /// What the audit of the game produced.
    pub report: &'a GameReport,
    /// The game's own text, as it stands in the (uncompressed) input.
    pub text: &'a [u8],
}

/// Receives every game of a run, in input order, between `begin_input` and
/// `end_input` of its input; `finish` once at the end of the run.
pub trait Sink {
    /// An input starts; `file` is its name in the reports.
    fn begin_input(&mut self, _file: &str) -> io::Result<()> {
        Ok(())
    }
    /// The next game of the current input.
    fn game(&mut self, game: &GameRecord<'_>) -> io::Result<()>;
    /// The current input is finished (or could not be read).
    fn end_input(&mut self, _outcome: &InputOutcome) -> io::Result<()> {
        Ok(())
    }
    /// The run is finished.
    fn finish(&mut self, _run: &RunOutcome) -> io::Result<()> {
        Ok(())
    }
}

/// A sink that calls a closure with every game: `for_each_game(|g| ...)`.
pub struct ForEachGame<F>(F);

/// A sink from a closure called with every game, in input order.
pub fn for_each_game<F: FnMut(&GameRecord<'_>)>(f: F) -> ForEachGame<F> {
    ForEachGame(f)
}

impl<F: FnMut(&GameRecord<'_>)> Sink for ForEachGame<F> {
    fn game(&mut self, game: &GameRecord<'_>) -> io::Result<()> {
        (self.0)(game);
        Ok(())
    }
}

/// Every sink of a list gets every call, in order.
impl Sink for Vec<&mut dyn Sink> {
    fn begin_input(&mut self, file: &str) -> io::Result<()> {
        self.iter_mut().try_for_each(|s| s.begin_input(file))
    }
    fn game(&mut self, game: &GameRecord<'_>) -> io::Result<()> {
        self.iter_mut().try_for_each(|s| s.game(game))
    }
    fn end_input(&mut self, outcome: &InputOutcome) -> io::Result<()> {
        self.iter_mut().try_for_each(|s| s.end_input(outcome))
    }
    fn finish(&mut self, run: &RunOutcome) -> io::Result<()> {
        self.iter_mut().try_for_each(|s| s.finish(run))
    }
}

/// What a whole run made of its inputs.
#[derive(Debug, Clone)]
pub struct RunOutcome {
    /// The run was interrupted (Ctrl-C): the counts are of what was read.
    pub interrupted: bool,
    /// Each input, in the order read.
    pub inputs: Vec<InputOutcome>,
    /// The counts of every input together.
    pub total: Stats,
    /// The worker threads that audited the games.
    pub threads: usize,
    /// Wall-clock time of the run.
    pub seconds: f64,
}

/// What a run made of one input.
#[derive(Debug, Clone)]
pub struct InputOutcome {
    /// The input's name in the reports.
    pub name: String,
    /// The counts of its games.
    pub stats: Stats,
    /// The input could not be read, or not to its end.
    pub error: Option<String>,
}
