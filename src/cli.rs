//! The command line: parsed here, carried out by [`run_audit`].

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};

use clap::{Parser, Subcommand, ValueEnum};

use crate::aggregate::{self, Aggregator};
use crate::audit::{DeadEffort, Status, TagSet};
use crate::example::Example;
use crate::finding::Kind;
use crate::gate;
use crate::laws::Edition;
use crate::laws::Laws;
use crate::pipeline::{GameRecord, InputOutcome, Sink};
use crate::progress::Bar;
use crate::report::examples::Examples;
use crate::report::github::GithubSink;
use crate::report::jsonl::{JsonlSink, WholeWrites};
use crate::report::junit::JunitSink;
#[cfg(feature = "parquet")]
use crate::report::parquet::ParquetSink;
use crate::report::pgn_export::PgnExport;
use crate::report::sarif::SarifSink;
use crate::report::{human, summary::RunSummary};
use crate::run::Audit;

#[derive(Parser, Debug)]
#[command(
    name = "pgn-arbiter",
    version = VERSION,
    about = "Audits chess game databases against the FIDE Laws of Chess",
    after_help = EXIT_CODES
)]
/// The command line.
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
#[allow(clippy::large_enum_variant)] // parsed once per run
pub enum Command {
    /// Audit PGN files (plain or .zst), directories, or stdin (-).
    #[command(after_help = EXIT_CODES)]
    Audit(AuditArgs),
    /// Decide for positions (FEN) whether each side can still checkmate.
    Position(crate::positions::PositionArgs),
    /// Merge statistics aggregates (audit --report-json) from runs over parts
    /// of an archive into one.
    Report(ReportArgs),
    /// Compare the findings of two runs (JSON Lines), games matched by game_id.
    #[command(after_help = EXIT_CODES)]
    Diff(crate::diff::DiffArgs),
}

/// `audit`: what to read, what to write, how to judge.
#[derive(clap::Args, Debug)]
pub struct AuditArgs {
    /// Files, directories (searched for *.pgn and *.pgn.zst) or - for stdin.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<std::ffi::OsString>,
    /// Write findings as JSON Lines to FILE (- for stdout).
    #[arg(long, value_name = "FILE")]
    pub jsonl: Option<String>,
    /// Write the run's counts as one JSON object to FILE (- for stdout).
    #[arg(long, value_name = "FILE")]
    pub summary_json: Option<String>,
    /// Worker threads (default: all cores; at most 4 x the cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Laws edition: by each game's Date tag (auto) or one for all.
    #[arg(long, value_enum, default_value_t = LawsArg::Auto)]
    pub laws: LawsArg,
    /// Dead positions and unwinnable losses on time: insufficient material
    /// only, or proven by the engine with a small (quick) or large budget.
    #[arg(long, value_enum, default_value_t = DeadArg::Quick)]
    pub dead: DeadArg,
    /// Exit with 1 when a condition holds: a comma-separated list of `any`,
    /// KIND, KIND>N (more than N games with that kind) or KIND>P% (more than
    /// P percent of the games analysed; invalid_game: of the games read).
    #[arg(long, value_name = "LIST")]
    pub fail_on: Option<String>,
    /// Tags each finding carries besides White, Black, Date, Result, Site,
    /// Event, Round, WhiteElo, BlackElo, TimeControl, Termination and ECO:
    /// a comma-separated list, or `all`.
    #[arg(long, value_name = "LIST|all")]
    pub tags: Option<String>,
    /// Write the games with findings to FILE as PGN (- for stdout), each as
    /// it was plus a comment at each finding and a PgnArbiterFindings tag.
    #[arg(long, value_name = "FILE")]
    pub export_pgn: Option<String>,
    /// Export only games with findings of these kinds (comma-separated).
    #[arg(long, value_name = "LIST", requires = "export_pgn")]
    pub export_kinds: Option<String>,
    /// In the exported games, correct the Result where the Laws decide it and
    /// it was proven (fivefold, 75 moves, dead position, checkmate or
    /// stalemate, unwinnable flag); the old value goes to OriginalResult.
    #[arg(long, requires = "export_pgn")]
    pub fix_results: bool,
    /// Write the statistics aggregate (counts and breakdowns by year, laws
    /// edition, time control, rating, termination, event; mergeable with
    /// `pgn-arbiter report`) as JSON to FILE (- for stdout).
    #[arg(long, value_name = "FILE")]
    pub report_json: Option<String>,
    /// Write the statistics report as one HTML page to FILE (- for stdout):
    /// charts and tables, offline, nothing fetched.
    #[arg(long, value_name = "FILE")]
    pub html: Option<String>,
    /// GitHub Actions workflow commands (annotations) on stdout, at most 10
    /// errors and 10 warnings, the most important first; with
    /// GITHUB_STEP_SUMMARY set, a Markdown summary appended to it.
    #[arg(long)]
    pub github: bool,
    /// A JUnit XML report to FILE: a suite per input, a case per kind.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<String>,
    /// A SARIF 2.1.0 log to FILE: a rule per kind, a result per finding.
    #[arg(long, value_name = "FILE")]
    pub sarif: Option<String>,
    /// Write findings as Parquet to FILE (- for stdout): the columns and
    /// values of the JSON Lines, zstd compressed.
    #[cfg(feature = "parquet")]
    #[arg(long, value_name = "FILE")]
    pub parquet: Option<String>,
    /// No progress bar, no warnings, no human summary on stdout.
    #[arg(long, short)]
    pub quiet: bool,
    /// Target chunk size in bytes (testing and tuning).
    #[arg(long, hide = true, default_value_t = 1 << 20)]
    pub chunk_size: usize,
    /// Stream region size in bytes (testing and tuning).
    #[arg(long, hide = true, default_value_t = 4 << 20)]
    pub region_size: usize,
}

/// How dead positions and unwinnable flags are proven.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum DeadArg {
    /// Insufficient material only (Art. 9.6 examples).
    Material,
    /// The proof engine on a small budget, where a lock could matter (default).
    Quick,
    /// The proof engine on a large budget, wherever it could matter.
    Thorough,
}

impl DeadArg {
    fn name(self) -> &'static str {
        match self {
            DeadArg::Material => "material",
            DeadArg::Quick => "quick",
            DeadArg::Thorough => "thorough",
        }
    }

    fn effort(self) -> DeadEffort {
        match self {
            DeadArg::Material => DeadEffort::Material,
            DeadArg::Quick => DeadEffort::Quick,
            DeadArg::Thorough => DeadEffort::Thorough,
        }
    }
}

/// Which laws to judge by.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum LawsArg {
    /// By each game's Date tag.
    Auto,
    /// The laws in force before 2014-07-01: no automatic draws but the dead position.
    #[value(name = "2001")]
    L2001,
    /// 2014-07-01 to 2017-12-31: 75 moves, fivefold on consecutive alternate moves.
    #[value(name = "2014")]
    L2014,
    /// From 2018 (and the 2023 Laws): 75 moves, fivefold on any five occurrences.
    #[value(name = "2018", alias = "2023")]
    L2018,
}

impl LawsArg {
    fn laws(self) -> Laws {
        match self {
            LawsArg::Auto => Laws::Auto,
            LawsArg::L2001 => Laws::Fixed(Edition::Laws2001),
            LawsArg::L2014 => Laws::Fixed(Edition::Laws2014),
            LawsArg::L2018 => Laws::Fixed(Edition::Laws2018),
        }
    }

    fn name(self) -> &'static str {
        match self {
            LawsArg::Auto => "auto",
            LawsArg::L2001 => "2001",
            LawsArg::L2014 => "2014",
            LawsArg::L2018 => "2018",
        }
    }
}

/// `--version`: the version and the laws it knows.
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (FIDE Laws of Chess editions 2001, 2014 and 2018, which the 2023 Laws keep; findings schema_version 1)"
);

/// Exit codes, as ripgrep and dbt use them: 0 the run was clean (or no
/// `--fail-on` condition held), 1 a `--fail-on` condition held, 2 the run
/// could not be made as asked (a usage error, an input that could not be
/// read). 2 wins over 1.
pub const EXIT_OK: i32 = 0;

const EXIT_CODES: &str =
    "Exit codes: 0 no --fail-on condition held (findings alone never fail a run); \
1 a --fail-on condition held (diff: a finding appeared); \
2 could not run as asked (usage error, an input that cannot be read); 2 wins over 1.";
/// A `--fail-on` condition held (`diff`: a finding appeared).
pub const EXIT_GATE_FAILED: i32 = 1;
/// The run could not be made as asked: a usage error, an unreadable input.
pub const EXIT_INPUT_OR_USAGE: i32 = 2;
/// Interrupted by Ctrl-C (128 + SIGINT, as shells report it).
pub const EXIT_INTERRUPTED: i32 = 130;

/// Reports the first invalid games on stderr as they come.
struct Warnings<'a> {
    bar: &'a Bar,
    warned: usize,
    /// Blocks of text that are no game in the current input.
    not_pgn: u64,
}

const MAX_WARNINGS: usize = 20;
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
                human::thousands(more),
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

/// `path` (`-`: stdout) as it is, unbuffered.
fn open_raw(path: &str) -> io::Result<Box<dyn Write>> {
    Ok(if path == "-" {
        Box::new(io::stdout().lock())
    } else {
        Box::new(File::create(path).map_err(|e| io::Error::new(e.kind(), format!("{path}: {e}")))?)
    })
}

fn open_output(path: &str) -> io::Result<Box<dyn Write>> {
    Ok(Box::new(BufWriter::with_capacity(1 << 16, open_raw(path)?)))
}

/// Runs `audit`; returns the exit code. A closed stdout ends the run
/// quietly with code 0.
pub fn run_audit(args: &AuditArgs) -> i32 {
    match audit(args) {
        Ok(code) => code,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => EXIT_OK,
        Err(e) => {
            eprintln!("pgn-arbiter: {e}");
            EXIT_INPUT_OR_USAGE
        }
    }
}

fn audit(args: &AuditArgs) -> io::Result<i32> {
    let gate = match args.fail_on.as_deref().map(gate::parse) {
        None => Vec::new(),
        Some(Ok(c)) => c,
        Some(Err(e)) => {
            eprintln!("pgn-arbiter: {e}");
            return Ok(EXIT_INPUT_OR_USAGE);
        }
    };
    let to_stdout = [
        &args.jsonl,
        &args.summary_json,
        &args.export_pgn,
        &args.junit,
        &args.sarif,
        &args.report_json,
        &args.html,
        #[cfg(feature = "parquet")]
        &args.parquet,
    ]
    .iter()
    .filter(|o| o.as_deref() == Some("-"))
    .count()
        + usize::from(args.github);
    if to_stdout > 1 {
        eprintln!(
            "pgn-arbiter: only one of --jsonl, --summary-json, --export-pgn, --junit, --sarif, --report-json, --html{} and --github can write to stdout",
            if cfg!(feature = "parquet") { ", --parquet" } else { "" }
        );
        return Ok(EXIT_INPUT_OR_USAGE);
    }
    let export_kinds = match args.export_kinds.as_deref().map(parse_kinds) {
        None => None,
        Some(Ok(k)) => Some(k),
        Some(Err(e)) => {
            eprintln!("pgn-arbiter: --export-kinds: {e}");
            return Ok(EXIT_INPUT_OR_USAGE);
        }
    };
    if let Some(n) = args.threads.filter(|&n| n > crate::pipeline::max_threads()) {
        eprintln!(
            "pgn-arbiter: --threads {n} capped at {} (4 x the cores)",
            crate::pipeline::max_threads()
        );
    }
    // Ctrl-C: the first stops reading and the run ends with what it read
    // (exit 130); a second ends the process at once.
    let interrupt = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        let _ = signal_hook::flag::register_conditional_shutdown(
            sig,
            EXIT_INTERRUPTED,
            interrupt.clone(),
        );
        let _ = signal_hook::flag::register(sig, interrupt.clone());
    }
    let tags = args.tags.as_deref().map(TagSet::parse).unwrap_or_default();
    let audit = Audit::new()
        .interrupt(interrupt.clone())
        .laws(args.laws.laws())
        .dead(args.dead.effort())
        .threads(args.threads.unwrap_or(0))
        .tags(tags.clone())
        .facets(args.report_json.is_some() || args.html.is_some())
        .sizes(args.chunk_size, args.region_size);

    // A bar on the terminal that also shows output would leave copies of
    // itself among the lines.
    let output_on_terminal = to_stdout > 0 && io::stdout().is_terminal();
    let bar = Bar::new(!args.quiet && !output_on_terminal);
    let mut jsonl = match &args.jsonl {
        // Whole lines per write: a second Ctrl-C ends the process at once,
        // leaving no partial line in a pipe.
        Some(p) => Some(JsonlSink::new(WholeWrites::new(open_raw(p)?))),
        None => None,
    };
    let mut export = match &args.export_pgn {
        Some(p) => Some(PgnExport::new(
            open_output(p)?,
            export_kinds,
            args.fix_results,
        )),
        None => None,
    };
    let mut github = if args.github {
        let summary = match std::env::var_os("GITHUB_STEP_SUMMARY") {
            Some(p) if !p.is_empty() => {
                let f = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&p)
                    .map_err(|e| {
                        io::Error::new(
                            e.kind(),
                            format!("GITHUB_STEP_SUMMARY {}: {e}", p.to_string_lossy()),
                        )
                    })?;
                Some(Box::new(BufWriter::new(f)) as Box<dyn Write>)
            }
            _ => None,
        };
        Some(GithubSink::new(open_output("-")?, summary, gate.clone()))
    } else {
        None
    };
    let mut junit = match &args.junit {
        Some(p) => Some(JunitSink::new(open_output(p)?)),
        None => None,
    };
    let mut sarif = match &args.sarif {
        Some(p) => Some(SarifSink::new(open_output(p)?)),
        None => None,
    };
    #[cfg(feature = "parquet")]
    let mut parquet = match &args.parquet {
        Some(p) => Some(ParquetSink::create(p, &tags)?),
        None => None,
    };
    let mut aggregator = if args.report_json.is_some() || args.html.is_some() {
        let json = match &args.report_json {
            Some(p) => Some(open_output(p)?),
            None => None,
        };
        Some(Aggregator::new(json, args.laws.name(), args.dead.name()))
    } else {
        None
    };
    let mut warnings = Warnings {
        bar: &bar,
        warned: 0,
        not_pgn: 0,
    };
    let mut examples = Examples::new(3);
    let mut sinks: Vec<&mut dyn Sink> = vec![&mut examples];
    if !args.quiet {
        sinks.push(&mut warnings);
    }
    if let Some(j) = &mut jsonl {
        sinks.push(j);
    }
    if let Some(e) = &mut export {
        sinks.push(e);
    }
    if let Some(g) = &mut github {
        sinks.push(g);
    }
    if let Some(j) = &mut junit {
        sinks.push(j);
    }
    if let Some(s) = &mut sarif {
        sinks.push(s);
    }
    #[cfg(feature = "parquet")]
    if let Some(p) = &mut parquet {
        sinks.push(p);
    }
    if let Some(a) = &mut aggregator {
        sinks.push(a);
    }
    let run = audit.run(&args.paths, &mut sinks, &bar)?;
    drop(sinks);
    if let (Some(p), Some(agg)) = (
        &args.html,
        aggregator.as_ref().and_then(|a| a.result.as_ref()),
    ) {
        write_html(p, agg)?;
    }
    bar.finish();
    if warnings.warned > MAX_WARNINGS {
        eprintln!(
            "pgn-arbiter: {} more warnings (invalid games: see the invalid_game findings)",
            warnings.warned - MAX_WARNINGS
        );
    }
    let mut code = EXIT_OK;
    for o in run.inputs.iter().filter(|o| o.error.is_some()) {
        let line = format!(
            "pgn-arbiter: {}: {}",
            o.name,
            o.error.as_deref().unwrap_or("")
        );
        eprintln!("{}", human::terminal_safe(&line));
        code = EXIT_INPUT_OR_USAGE;
    }
    let failures = gate::check(&gate, &run.total);
    if !failures.is_empty() && code == EXIT_OK {
        code = EXIT_GATE_FAILED;
    }
    if run.interrupted {
        eprintln!(
            "pgn-arbiter: interrupted: {} games read before Ctrl-C were audited and reported; the rest was not read",
            run.total.games
        );
        code = EXIT_INTERRUPTED;
    }
    if let Some(p) = &args.summary_json {
        let summary = RunSummary::new(&run, args.laws.name().to_string(), &failures);
        let mut out = open_output(p)?;
        serde_json::to_writer_pretty(&mut out, &summary).map_err(io::Error::other)?;
        out.write_all(b"\n")?;
        out.flush()?;
    }
    let rendered = human::render(&run, &examples, &gate, &failures);
    let text = human::terminal_safe(&rendered);
    if !args.quiet {
        if to_stdout > 0 {
            eprint!("{text}");
        } else {
            let mut out = io::stdout().lock();
            out.write_all(text.as_bytes())?;
            out.flush()?;
        }
    } else {
        for f in &failures {
            eprintln!("pgn-arbiter: --fail-on {f}");
        }
    }
    Ok(code)
}

/// A comma-separated list of kinds.
fn parse_kinds(list: &str) -> Result<Vec<Kind>, String> {
    list.split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(|n| {
            Kind::ALL
                .iter()
                .find(|k| k.name() == n)
                .copied()
                .ok_or_else(|| format!("unknown kind '{n}'"))
        })
        .collect()
}

/// `pgn-arbiter report`: merges aggregate files.
#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// Aggregate files written by `audit --report-json`.
    #[arg(required = true, value_name = "AGG.json")]
    pub inputs: Vec<String>,
    /// Write the merged aggregate as JSON to FILE (- for stdout).
    #[arg(long, value_name = "FILE")]
    pub json: Option<String>,
    /// Write the statistics report of the merged aggregate as one HTML page.
    #[arg(long, value_name = "FILE")]
    pub html: Option<String>,
}

/// Runs `report`; returns the exit code.
pub fn run_report(args: &ReportArgs) -> i32 {
    let merged = match aggregate::merge_files(&args.inputs) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("pgn-arbiter: {e}");
            return EXIT_INPUT_OR_USAGE;
        }
    };
    let written = (|| -> io::Result<()> {
        if let Some(p) = &args.json {
            let mut out = open_output(p)?;
            serde_json::to_writer(&mut out, &merged).map_err(io::Error::other)?;
            out.write_all(b"\n")?;
            out.flush()?;
        }
        if let Some(p) = &args.html {
            write_html(p, &merged)?;
        }
        Ok(())
    })();
    match written {
        Ok(()) => EXIT_OK,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => EXIT_OK,
        Err(e) => {
            eprintln!("pgn-arbiter: {e}");
            EXIT_INPUT_OR_USAGE
        }
    }
}

/// Writes the HTML report of an aggregate.
fn write_html(path: &str, agg: &crate::aggregate::Aggregate) -> io::Result<()> {
    let mut out = open_output(path)?;
    out.write_all(crate::report::html::render(agg).as_bytes())?;
    out.flush()
}
