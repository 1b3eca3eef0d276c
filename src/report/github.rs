//! GitHub Actions: findings as workflow-command annotations
//! (`::error file=…,line=…,title=…::message`) and a Markdown step summary.
//!
//! Each finding's level is its severity ([`crate::kind::Severity`], the
//! table docs/CI.md shows): an error is `::error`, a warning `::warning`, a
//! note (a missed claim: a player may choose not to claim) `::notice`. An
//! input that could not be read is an error too.
//!
//! The runner shows at most 10 annotations of each level per step, so at
//! most 10 errors, 10 warnings and 9 notices are printed, the most
//! important first (input errors, then by kind in the order of
//! [`crate::kind::KindInfo::importance`], then input order), followed by a
//! `::notice::` saying how many were left out. Only what may be printed is
//! kept, plus counts.

use std::fmt::Write as _;
use std::io::{self, Write};

use crate::example::Example;
use crate::finding::Finding;
use crate::gate::{self, Condition};
use crate::kind::{Kind, Severity};
use crate::pipeline::{GameRecord, RunOutcome, Sink};
use crate::report::examples::Examples;
use crate::text::{count, escape_data, escape_markdown, escape_property, escape_url, thousands};

/// Annotations of each level the runner shows per step.
pub const MAX_PER_LEVEL: usize = 10;

/// The workflow command of each severity, in [`Severity::ALL`] order.
const COMMANDS: [&str; 3] = ["error", "warning", "notice"];

/// Examples per kind in the step summary.
const SUMMARY_EXAMPLES: usize = 3;

/// One annotation kept for printing.
struct Annotation {
    /// (importance, order of arrival): smaller is shown first.
    key: (u8, u64),
    line: String,
}

/// The annotations of one level that may be printed, and how many there
/// were.
struct Kept {
    shown: Vec<Annotation>,
    total: u64,
    /// How many may be shown.
    room: usize,
}

impl Kept {
    fn new(room: usize) -> Kept {
        Kept {
            shown: Vec::new(),
            total: 0,
            room,
        }
    }

    /// Counts an annotation and keeps it if it is among the most important
    /// `room` so far. `line` is only built when kept.
    fn offer(&mut self, key: (u8, u64), line: impl FnOnce() -> String) {
        self.total += 1;
        if self.shown.len() < self.room {
            self.shown.push(Annotation { key, line: line() });
            return;
        }
        let (worst, _) = self
            .shown
            .iter()
            .enumerate()
            .max_by_key(|(_, a)| a.key)
            .expect("room for one at least");
        if key < self.shown[worst].key {
            self.shown[worst] = Annotation { key, line: line() };
        }
    }

    fn left_out(&self) -> u64 {
        self.total - self.shown.len() as u64
    }
}

/// Writes GitHub Actions annotations to `out` at the end of the run and,
/// with `step_summary` (the file `$GITHUB_STEP_SUMMARY` names, opened for
/// appending), a Markdown summary there.
pub struct GithubSink {
    out: Box<dyn Write>,
    step_summary: Option<Box<dyn Write>>,
    conditions: Vec<Condition>,
    /// Per severity, in [`Severity::ALL`] order.
    kept: [Kept; 3],
    examples: Examples,
    seq: u64,
}

impl GithubSink {
    /// Annotations to `out`, the summary to `step_summary` if given; the
    /// summary says whether the `--fail-on` `conditions` passed.
    pub fn new(
        out: Box<dyn Write>,
        step_summary: Option<Box<dyn Write>>,
        conditions: Vec<Condition>,
    ) -> GithubSink {
        GithubSink {
            out,
            step_summary,
            conditions,
            // the notice that counts what was left out is one more notice
            kept: [
                Kept::new(MAX_PER_LEVEL),
                Kept::new(MAX_PER_LEVEL),
                Kept::new(MAX_PER_LEVEL - 1),
            ],
            examples: Examples::new(SUMMARY_EXAMPLES),
            seq: 0,
        }
    }

    fn annotation(level: &str, game: &GameRecord<'_>, f: &Finding) -> String {
        let e = Example::new(game, f);
        let title = format!(
            "{} (Art. {})",
            f.kind.name(),
            f.kind.article(game.report.edition)
        );
        let mut message = e.sentence();
        if let Some(link) = &e.link {
            message.push('\n');
            message.push_str(link);
        }
        format!(
            "::{level} file={},line={},title={}::{}\n",
            escape_property(game.file),
            game.report.line,
            escape_property(&title),
            escape_data(&message)
        )
    }

    fn write_annotations(&mut self) -> io::Result<()> {
        let mut text = String::new();
        for kept in &mut self.kept {
            kept.shown.sort_by_key(|a| a.key);
            for a in &kept.shown {
                text.push_str(&a.line);
            }
        }
        let left: Vec<String> = Severity::ALL
            .iter()
            .zip(&self.kept)
            .filter(|(_, k)| k.left_out() > 0)
            .map(|(s, k)| {
                let name = s.name();
                format!(
                    "{} of {}",
                    thousands(k.left_out()),
                    count(k.total, name, &format!("{name}s"))
                )
            })
            .collect();
        if !left.is_empty() {
            let _ = writeln!(
                text,
                "::notice title=pgn-arbiter::{}",
                escape_data(&format!(
                    "{} were left out (GitHub shows at most {MAX_PER_LEVEL} annotations of each level per step); the step summary counts them all",
                    left.join(" and "),
                ))
            );
        }
        self.out.write_all(text.as_bytes())?;
        self.out.flush()
    }

    /// The Markdown step summary.
    pub fn summary(&self, run: &RunOutcome) -> String {
        let t = &run.total;
        let mut s = String::new();
        let _ = writeln!(s, "## pgn-arbiter\n");
        let _ = writeln!(
            s,
            "{} read in {}: {} analysed, {} invalid, {} skipped; {} with findings.\n",
            count(t.games, "game", "games"),
            count(run.inputs.len() as u64, "input", "inputs"),
            thousands(t.analysed),
            thousands(t.invalid),
            thousands(t.skipped),
            thousands(t.flagged),
        );
        let _ = writeln!(s, "| finding | article | games | share of games read |");
        let _ = writeln!(s, "| :-- | :-- | --: | --: |");
        for k in Kind::ALL {
            let article = match k.articles_then_and_now() {
                (now, Some(then)) => format!("{now} ({then} before 2014-07-01)"),
                (now, None) => now.to_string(),
            };
            let games = t.kind_games[k];
            let share = if t.games == 0 {
                "-".to_string()
            } else {
                format!("{:.2}%", 100.0 * games as f64 / t.games as f64)
            };
            // the article and the figures are ours: nothing to escape
            let _ = writeln!(
                s,
                "| `{}` | {article} | {} | {share} |",
                k.name(),
                thousands(games),
            );
        }
        let _ = writeln!(s);
        if !self.conditions.is_empty() {
            let failures = gate::check(&self.conditions, t);
            let list: Vec<String> = self.conditions.iter().map(|c| c.to_string()).collect();
            if failures.is_empty() {
                let _ = writeln!(
                    s,
                    "**--fail-on {}: passed**\n",
                    escape_markdown(&list.join(","))
                );
            } else {
                let _ = writeln!(s, "**--fail-on FAILED:**\n");
                for f in &failures {
                    let _ = writeln!(s, "- {}", escape_markdown(&f.to_string()));
                }
                let _ = writeln!(s);
            }
        }
        let unread: Vec<_> = run.inputs.iter().filter(|i| i.error.is_some()).collect();
        if !unread.is_empty() {
            let _ = writeln!(s, "**Inputs not read to their end:**\n");
            for i in unread {
                let _ = writeln!(
                    s,
                    "- {}: {}",
                    escape_markdown(&i.name),
                    escape_markdown(i.error.as_deref().unwrap_or_default())
                );
            }
            let _ = writeln!(s);
        }
        if self.examples.found.iter().any(|(_, f)| !f.is_empty()) {
            let _ = writeln!(s, "### First examples\n");
            let _ = writeln!(s, "| finding | where | move | players | what |");
            let _ = writeln!(s, "| :-- | :-- | :-- | :-- | :-- |");
            for k in Kind::ALL {
                for e in self.examples.of(k) {
                    let place = escape_markdown(&e.place);
                    let place = match &e.link {
                        Some(link) => format!("[{place}]({})", escape_url(link)),
                        None => place,
                    };
                    let _ = writeln!(
                        s,
                        "| `{}` | {} | {} | {} | {} |",
                        k.name(),
                        escape_markdown(&format!("{}: game {} (line {})", e.file, e.game, e.line)),
                        place,
                        escape_markdown(&e.players),
                        escape_markdown(&e.what)
                    );
                }
            }
            let _ = writeln!(s);
        }
        s
    }
}

impl Sink for GithubSink {
    fn game(&mut self, game: &GameRecord<'_>) -> io::Result<()> {
        for f in &game.report.findings {
            self.seq += 1;
            let key = (1 + f.kind.info().importance, self.seq);
            let level = game.report.severity(f) as usize;
            self.kept[level].offer(key, || Self::annotation(COMMANDS[level], game, f));
        }
        self.examples.game(game)
    }

    fn finish(&mut self, run: &RunOutcome) -> io::Result<()> {
        // inputs that could not be read come before any finding
        for (i, input) in run.inputs.iter().enumerate() {
            if let Some(error) = &input.error {
                self.kept[Severity::Error as usize].offer((0, i as u64), || {
                    format!(
                        "::error file={},title=input not read to its end::{}\n",
                        escape_property(&input.name),
                        escape_data(&format!("{}: {error}", input.name))
                    )
                });
            }
        }
        self.write_annotations()?;
        if self.step_summary.is_some() {
            let text = self.summary(run);
            if let Some(w) = self.step_summary.as_mut() {
                w.write_all(text.as_bytes())?;
                w.flush()?;
            }
        }
        Ok(())
    }
}
