//! JUnit XML, for the test-report tools of CI systems: each input is a
//! test suite and each kind of finding a test case of it, which fails when
//! a game of that input has a finding of that kind.
//!
//! ```xml
//! <testsuites name="pgn-arbiter" tests="8" failures="1" errors="0" skipped="0" time="0.081">
//!   <testsuite name="games.pgn" tests="8" failures="1" errors="0" skipped="0" time="0.080">
//!     <properties><property name="games" value="200"/>…</properties>
//!     <testcase name="invalid_game" classname="games.pgn" file="games.pgn" time="0">
//!       <failure message="2 games with invalid_game" type="invalid_game">game 18 (line 1234), 2. Ke3: …
//! </failure>
//!     </testcase>
//!     …
//! ```
//!
//! A test case fails when its kind's findings are errors or warnings
//! ([`crate::kind::Severity`], the table docs/CI.md shows); a kind whose
//! findings are notes (a missed claim: nothing is wrong with the data)
//! passes, and lists its games in `<system-out>`.
//!
//! A failure lists the first [`MAX_LISTED`] games ("game 18 (line 1234),
//! 2. Ke3: what — White - Black, date", with a link where the game has
//! one). An input that could not be read, or not to its end, gets one more
//! test case, `read`, with an `<error>`; when no game of it was read its
//! eight kinds are `<skipped>`. The attributes are those the Ant/Jenkins
//! schema and the common report actions read (`name`, `tests`, `failures`,
//! `errors`, `skipped`, `time`; `file` on a test case, which some actions
//! use to place annotations). Text is XML-escaped, and characters XML 1.0
//! does not allow are left out.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::time::Instant;

use crate::example::Example;
use crate::finding::Kind;
use crate::kind::Severity;
use crate::pipeline::{GameRecord, InputOutcome, RunOutcome, Sink};
use crate::text::escape_xml;

/// Games listed in a failure.
pub const MAX_LISTED: usize = 20;

/// What is kept of one input until the end of the run.
struct Suite {
    name: String,
    /// Per kind, the first games with a finding of it, as lines.
    listed: Vec<Vec<String>>,
    seconds: f64,
}

/// Writes the run as JUnit XML to `out` when it finishes.
pub struct JunitSink {
    out: Box<dyn Write>,
    suites: Vec<Suite>,
    started: Option<Instant>,
}

impl JunitSink {
    /// Writes to `out`.
    pub fn new(out: Box<dyn Write>) -> JunitSink {
        JunitSink {
            out,
            suites: Vec::new(),
            started: None,
        }
    }

    /// The document for a finished run.
    pub fn render(&self, run: &RunOutcome) -> String {
        // The inputs the sink saw, in order; an input that could not be
        // opened at all was never begun, and has no games to list.
        let mut seen = self.suites.iter().peekable();
        let mut body = String::new();
        let (mut tests, mut failures, mut errors, mut skipped) = (0u64, 0u64, 0u64, 0u64);
        for input in &run.inputs {
            let suite = seen.next_if(|s| s.name == input.name);
            let counts = write_suite(&mut body, input, suite);
            tests += counts.0;
            failures += counts.1;
            errors += counts.2;
            skipped += counts.3;
        }
        let mut s = String::new();
        let _ = writeln!(s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
        let _ = writeln!(
            s,
            "<testsuites name=\"pgn-arbiter\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"{skipped}\" time=\"{:.3}\">",
            run.seconds
        );
        s.push_str(&body);
        let _ = writeln!(s, "</testsuites>");
        s
    }
}

/// Whether a test case of kind `k` fails when a game has a finding of it:
/// its findings are errors or warnings, not notes.
fn fails(k: Kind) -> bool {
    k.info().severity != Severity::Note
}

/// Appends the `<testsuite>` of one input; returns its tests, failures,
/// errors and skipped.
fn write_suite(
    s: &mut String,
    input: &InputOutcome,
    suite: Option<&Suite>,
) -> (u64, u64, u64, u64) {
    let st = &input.stats;
    let name = escape_xml(&input.name);
    let unread = input.error.is_some() && st.games == 0;
    let failures = if unread {
        0
    } else {
        Kind::ALL
            .iter()
            .filter(|&&k| st.kind_games[k] > 0 && fails(k))
            .count() as u64
    };
    let errors = u64::from(input.error.is_some());
    let skipped = if unread { Kind::ALL.len() as u64 } else { 0 };
    let tests = Kind::ALL.len() as u64 + errors;
    let _ = writeln!(
        s,
        "  <testsuite name=\"{name}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"{skipped}\" time=\"{:.3}\">",
        suite.map_or(0.0, |x| x.seconds)
    );
    let _ = writeln!(s, "    <properties>");
    for (prop, value) in [
        ("games", st.games),
        ("analysed", st.analysed),
        ("invalid", st.invalid),
        ("skipped", st.skipped),
        ("flagged", st.flagged),
        ("plies", st.plies),
        ("bytes", st.bytes),
    ] {
        let _ = writeln!(s, "      <property name=\"{prop}\" value=\"{value}\"/>");
    }
    let _ = writeln!(s, "    </properties>");
    for k in Kind::ALL {
        let _ = write!(
            s,
            "    <testcase name=\"{}\" classname=\"{name}\" file=\"{name}\" time=\"0\"",
            k.name()
        );
        let games = st.kind_games[k];
        if unread {
            let _ = writeln!(
                s,
                ">\n      <skipped message=\"the input was not read\"/>\n    </testcase>"
            );
        } else if games == 0 {
            let _ = writeln!(s, "/>");
        } else {
            let plural = if games == 1 { "" } else { "s" };
            let _ = if fails(k) {
                write!(
                    s,
                    ">\n      <failure message=\"{games} game{plural} with {}\" type=\"{}\">",
                    k.name(),
                    k.name()
                )
            } else {
                write!(
                    s,
                    ">\n      <system-out>{games} game{plural} with {} (a note: nothing is wrong with the data)\n",
                    k.name()
                )
            };
            let listed = suite.map_or(&[][..], |x| &x.listed[k.index()][..]);
            for line in listed {
                s.push_str(&escape_xml(line));
                s.push('\n');
            }
            let more = games.saturating_sub(listed.len() as u64);
            if more > 0 {
                let _ = writeln!(s, "… and {more} more");
            }
            let close = if fails(k) { "failure" } else { "system-out" };
            let _ = writeln!(s, "</{close}>\n    </testcase>");
        }
    }
    if let Some(error) = &input.error {
        let _ = writeln!(
            s,
            "    <testcase name=\"read\" classname=\"{name}\" file=\"{name}\" time=\"0\">\n      <error message=\"{}\" type=\"read_error\">{}</error>\n    </testcase>",
            escape_xml(error),
            escape_xml(error)
        );
    }
    let _ = writeln!(s, "  </testsuite>");
    (tests, failures, errors, skipped)
}

impl Sink for JunitSink {
    fn begin_input(&mut self, file: &str) -> io::Result<()> {
        self.started = Some(Instant::now());
        self.suites.push(Suite {
            name: file.to_string(),
            listed: vec![Vec::new(); Kind::ALL.len()],
            seconds: 0.0,
        });
        Ok(())
    }

    fn game(&mut self, game: &GameRecord<'_>) -> io::Result<()> {
        let Some(suite) = self.suites.last_mut() else {
            return Ok(());
        };
        for f in &game.report.findings {
            let list = &mut suite.listed[f.kind.index()];
            if list.len() < MAX_LISTED {
                let e = Example::new(game, f);
                let mut line = e.sentence();
                if let Some(link) = &e.link {
                    line.push(' ');
                    line.push_str(link);
                }
                list.push(line);
            }
        }
        Ok(())
    }

    fn end_input(&mut self, _outcome: &InputOutcome) -> io::Result<()> {
        if let (Some(start), Some(suite)) = (self.started.take(), self.suites.last_mut()) {
            suite.seconds = start.elapsed().as_secs_f64();
        }
        Ok(())
    }

    fn finish(&mut self, run: &RunOutcome) -> io::Result<()> {
        let text = self.render(run);
        self.out.write_all(text.as_bytes())?;
        self.out.flush()
    }
}
