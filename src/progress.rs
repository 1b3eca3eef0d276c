//! A progress bar on stderr (indicatif), only when stderr is a terminal,
//! updated per region rather than per game.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::pipeline::Progress;

/// The progress bar: bytes of the inputs read out of their total size, and
/// games read.
pub struct Bar {
    bar: Option<ProgressBar>,
    /// Bytes of the inputs already finished, and games.
    done_bytes: std::cell::Cell<u64>,
    done_games: std::cell::Cell<u64>,
}

impl Bar {
    /// A bar on stderr when `enabled` and stderr is a terminal; its total
    /// is set when the run starts.
    pub fn new(enabled: bool) -> Bar {
        let bar = (enabled && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(4));
            let style = ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} {msg} ETA {eta}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar());
            bar.set_style(style);
            bar.enable_steady_tick(Duration::from_millis(250));
            bar
        });
        Bar {
            bar,
            done_bytes: Default::default(),
            done_games: Default::default(),
        }
    }

    /// Prints a line on stderr without breaking the bar.
    pub fn println(&self, line: &str) {
        match &self.bar {
            Some(b) => b.suspend(|| eprintln!("{line}")),
            None => eprintln!("{line}"),
        }
    }

    /// Clears the bar at the end of the run.
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

impl Progress for Bar {
    /// `total` is the sum of the inputs' sizes on disk (compressed for
    /// `.zst`), if known.
    fn start(&self, total: Option<u64>) {
        if let (Some(b), Some(total)) = (&self.bar, total) {
            b.set_length(total);
        }
    }

    /// An input is finished: later updates count from here.
    fn input_done(&self, bytes: u64, games: u64) {
        self.done_bytes.set(self.done_bytes.get() + bytes);
        self.done_games.set(self.done_games.get() + games);
    }

    fn update(&self, input_bytes: u64, games: u64) {
        if let Some(b) = &self.bar {
            b.set_position(self.done_bytes.get() + input_bytes);
            let games = self.done_games.get() + games;
            let secs = b.elapsed().as_secs_f64().max(1e-3);
            b.set_message(format!("{games} games, {:.0} games/s", games as f64 / secs));
        }
    }
}
