//! The first invalid games, open comments and blocks of text that are no
//! game, named on stderr as they come (a sink beside the printers).

use std::io;

use pgn_arbiter::audit::Status;
use pgn_arbiter::example::Example;
use pgn_arbiter::finding::Kind;
use pgn_arbiter::pipeline::{GameRecord, InputOutcome, Sink};
use pgn_arbiter::text::thousands;

use super::progress::Bar;

/// Reports the first invalid games on stderr as they come.
pub struct Warnings<'a> {
    pub bar: &'a Bar,
    /// Warnings about games so far.
    pub warned: usize,
    /// Blocks of text that are no game in the current input.
    pub not_pgn: u64,
}

/// Warnings about games printed; the rest are counted.
pub const MAX_WARNINGS: usize = 20;
/// Blocks of text that are no game named per input; the rest are counted.
const MAX_NOT_PGN_WARNINGS: u64 = 3;

impl Sink for Warnings<'_> {
    fn begin_input(&mut self, _file: &str) -> io::Result<()> {
        self.not_pgn = 0;
        Ok(())
    }

    fn end_input(&mut self, outcome: &InputOutcome) -> io::Result<()> {
        if self.not_pgn > MAX_NOT_PGN_WARNINGS {
            let more = self.not_pgn - MAX_NOT_PGN_WARNINGS;
            self.bar.println(&format!(
                "pgn-arbiter: {}: and {} more block{} of text that {} no game",
                outcome.name,
                thousands(more),
                if more == 1 { "" } else { "s" },
                if more == 1 { "is" } else { "are" },
            ));
        }
        Ok(())
    }

    fn game(&mut self, game: &GameRecord<'_>) -> io::Result<()> {
        let r = game.report;
        if r.status == Status::NotPgn {
            self.not_pgn += 1;
            if self.not_pgn <= MAX_NOT_PGN_WARNINGS {
                self.bar.println(&format!(
                    "pgn-arbiter: {}: game {} (line {}, byte {}): text that is no game \
                     (no tag pair, no move, no result at its end): counted as skipped",
                    game.file,
                    game.index + 1,
                    r.line,
                    r.offset
                ));
            }
        }
        if r.swallowed > 0 || r.unterminated {
            self.warned += 1;
            if self.warned <= MAX_WARNINGS {
                let mut what = String::from("a comment left open");
                if r.swallowed > 0 {
                    what.push_str(&format!(
                        " runs over {} tag section{} (the games there are read as the comment)",
                        r.swallowed,
                        if r.swallowed == 1 { "" } else { "s" }
                    ));
                }
                if r.unterminated {
                    what.push_str(if r.swallowed > 0 {
                        ", to the end of the input"
                    } else {
                        " runs to the end of the input"
                    });
                }
                self.bar.println(&format!(
                    "pgn-arbiter: {}: game {} (line {}, byte {}): {what}",
                    game.file,
                    game.index + 1,
                    r.line,
                    r.offset
                ));
            }
        }
        for f in &game.report.findings {
            if f.kind == Kind::InvalidGame {
                self.warned += 1;
                if self.warned <= MAX_WARNINGS {
                    let e = Example::new(game, f);
                    self.bar
                        .println(&format!("pgn-arbiter: {}: {}", e.locus(), e.what));
                }
            }
        }
        Ok(())
    }
}
