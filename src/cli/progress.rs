//! A progress bar on stderr (indicatif), only when stderr is a terminal,
//! updated per region rather than per game.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use pgn_arbiter::pipeline::Progress;

/// The progress bar: bytes of the inputs read out of their total size, and
/// games read.
pub struct Bar {
    bar: Option<ProgressBar>,
    /// Bytes of the inputs already finished, and games.
    done_bytes: std::cell::Cell<u64>,
    done_games: std::cell::Cell<u64>,
    /// The input being read, as the bar shows it.
    current: std::cell::RefCell<String>,
}

impl Bar {
    /// A bar on stderr when `enabled` and stderr is a terminal; its total
    /// is set when the run starts.
    pub fn new(enabled: bool) -> Bar {
        let bar = (enabled && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(4));
            bar.set_style(spinner());
            bar.enable_steady_tick(Duration::from_millis(250));
            bar
        });
        Bar {
            bar,
            done_bytes: Default::default(),
            done_games: Default::default(),
            current: Default::default(),
        }
    }

    /// Prints a line on stderr without breaking the bar.
    pub fn println(&self, line: &str) {
        let line = pgn_arbiter::text::terminal_safe(line);
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

/// A run that ends early (an output that cannot be written, an error)
/// takes its bar off the screen too; indicatif would leave it there.
impl Drop for Bar {
    fn drop(&mut self) {
        self.finish();
    }
}

impl Progress for Bar {
    /// `total` is the sum of the inputs' sizes on disk (compressed for
    /// `.zst`), if known.
    fn start(&self, total: Option<u64>) {
        // Without a total (stdin, a pipe) a spinner with bytes and rate: a
        // bar would show done = total and an ETA of 0.
        if let (Some(b), Some(total)) = (&self.bar, total) {
            b.set_length(total);
            b.set_style(bar());
        }
    }

    fn input_start(&self, name: &str) {
        // the end of the name, which tells files apart
        let chars: Vec<char> = name.chars().collect();
        let shown: String = if chars.len() > 32 {
            std::iter::once('…')
                .chain(chars[chars.len() - 31..].iter().copied())
                .collect()
        } else {
            name.to_string()
        };
        *self.current.borrow_mut() = shown;
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
            b.set_message(format!(
                "{}: {} ({:.0}/s)",
                self.current.borrow(),
                pgn_arbiter::text::count(games, "game", "games"),
                games as f64 / secs
            ));
        }
    }
}

/// Bytes as the summary counts them (MB, not MiB), on disk: compressed for
/// a `.zst`, as the total is. The message (games, the file) takes what is
/// left of the line and is cut, so the bar stays one line on a narrow
/// terminal.
fn bar() -> ProgressStyle {
    ProgressStyle::with_template(
        "{spinner} {elapsed_precise} {bar:20} {decimal_bytes}/{decimal_total_bytes} ETA {eta} {wide_msg}",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar())
}

/// For inputs of unknown size.
fn spinner() -> ProgressStyle {
    ProgressStyle::with_template(
        "{spinner} {elapsed_precise} {decimal_bytes} read ({decimal_bytes_per_sec}) {wide_msg}",
    )
    .unwrap_or_else(|_| ProgressStyle::default_spinner())
}
