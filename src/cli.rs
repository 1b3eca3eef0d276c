//! The command line: parsed here, carried out by [`run_audit`].

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::time::Instant;

use clap::{Parser, Subcommand, ValueEnum};

use crate::audit::{DeadEffort, GameReport, Laws};
use crate::finding::{Detail, Kind};
use crate::input::{self, InputPath};
use crate::pipeline::{Config, InputOutcome, Pipeline, Sink};
use crate::progress::Bar;
use crate::report::{human, jsonl::JsonlSink, summary::RunSummary};
use crate::rules::laws::Edition;
use crate::stats::Stats;

#[derive(Parser, Debug)]
#[command(
    name = "pgn-arbiter",
    version,
    about = "Audits chess game databases against the FIDE Laws of Chess"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Audit PGN files (plain or .zst), directories, or stdin (-).
    Audit(AuditArgs),
    /// Decide for positions (FEN) whether each side can still checkmate.
    Position(crate::positions::PositionArgs),
}

#[derive(clap::Args, Debug)]
pub struct AuditArgs {
    /// Files, directories (searched for *.pgn and *.pgn.zst) or - for stdin.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<String>,
    /// Write findings as JSON Lines to FILE (- for stdout).
    #[arg(long, value_name = "FILE")]
    pub jsonl: Option<String>,
    /// Write the run's counts as one JSON object to FILE (- for stdout).
    #[arg(long, value_name = "FILE")]
    pub summary_json: Option<String>,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Laws edition: by each game's Date tag (auto) or one for all.
    #[arg(long, value_enum, default_value_t = LawsArg::Auto)]
    pub laws: LawsArg,
    /// Dead positions and unwinnable losses on time: insufficient material
    /// only, or proven by the engine with a small (quick) or large budget.
    #[arg(long, value_enum, default_value_t = DeadArg::Quick)]
    pub dead: DeadArg,
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

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum DeadArg {
    Material,
    Quick,
    Thorough,
}

impl DeadArg {
    fn effort(self) -> DeadEffort {
        match self {
            DeadArg::Material => DeadEffort::Material,
            DeadArg::Quick => DeadEffort::Quick,
            DeadArg::Thorough => DeadEffort::Thorough,
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum LawsArg {
    Auto,
    #[value(name = "2001")]
    L2001,
    #[value(name = "2014")]
    L2014,
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

/// Exit codes.
pub const EXIT_OK: i32 = 0;
pub const EXIT_INPUT_OR_USAGE: i32 = 2;

/// Writes findings and remembers the first invalid games for a warning.
struct RunSink<'a> {
    bar: &'a Bar,
    jsonl: Option<JsonlSink<Box<dyn Write>>>,
    warnings: bool,
    warned: usize,
}

const MAX_WARNINGS: usize = 20;

impl Sink for RunSink<'_> {
    fn game(&mut self, file: &str, index: u64, report: &GameReport) -> io::Result<()> {
        if self.warnings {
            for f in &report.findings {
                if let (Kind::InvalidGame, Detail::Invalid { mv, reason }) = (f.kind, &f.detail) {
                    self.warned += 1;
                    if self.warned <= MAX_WARNINGS {
                        let at = match mv {
                            Some(mv) => format!("ply {}, move {mv}", f.ply),
                            None => "start position".to_string(),
                        };
                        self.bar.println(&format!(
                            "pgn-arbiter: {file}: game {index} (byte {}): {at}: {reason}",
                            report.offset
                        ));
                    }
                }
            }
        }
        if let Some(j) = &mut self.jsonl {
            j.game(file, index, report)?;
        }
        Ok(())
    }
}

fn open_output(path: &str) -> io::Result<Box<dyn Write>> {
    if path == "-" {
        Ok(Box::new(BufWriter::with_capacity(
            1 << 16,
            io::stdout().lock(),
        )))
    } else {
        Ok(Box::new(BufWriter::with_capacity(
            1 << 16,
            File::create(path)?,
        )))
    }
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
    let started = Instant::now();
    let mut code = EXIT_OK;
    let (inputs, errors) = input::expand(&args.paths);
    for e in &errors {
        eprintln!("pgn-arbiter: {e}");
        code = EXIT_INPUT_OR_USAGE;
    }
    if args.jsonl.as_deref() == Some("-") && args.summary_json.as_deref() == Some("-") {
        eprintln!("pgn-arbiter: --jsonl and --summary-json cannot both be stdout");
        return Ok(EXIT_INPUT_OR_USAGE);
    }
    let jsonl = match &args.jsonl {
        Some(p) => {
            Some(JsonlSink::new(open_output(p).map_err(|e| {
                io::Error::new(e.kind(), format!("{p}: {e}"))
            })?))
        }
        None => None,
    };
    let cfg = Config {
        laws: args.laws.laws(),
        dead: args.dead.effort(),
        threads: args.threads.unwrap_or(0),
        chunk_size: args.chunk_size,
        region_size: args.region_size,
    };
    let pipeline = Pipeline::new(cfg)?;
    let sizes: Option<u64> = inputs
        .iter()
        .map(|i| match &i.path {
            InputPath::File(p) => std::fs::metadata(p).ok().map(|m| m.len()),
            InputPath::Stdin => None,
        })
        .sum();
    let bar = Bar::new(!args.quiet, sizes);
    let mut sink = RunSink {
        bar: &bar,
        jsonl,
        warnings: !args.quiet,
        warned: 0,
    };
    let mut outcomes: Vec<InputOutcome> = Vec::new();
    let mut total = Stats::default();
    for input in &inputs {
        let outcome = pipeline.run(input, &mut sink, &bar)?;
        if let Some(e) = &outcome.error {
            bar.println(&format!("pgn-arbiter: {}: {e}", outcome.name));
            code = EXIT_INPUT_OR_USAGE;
        }
        let size = match &input.path {
            InputPath::File(p) => std::fs::metadata(p).map(|m| m.len()).unwrap_or(0),
            InputPath::Stdin => 0,
        };
        bar.input_done(size, outcome.stats.games);
        total.merge(&outcome.stats);
        outcomes.push(outcome);
    }
    bar.finish();
    if sink.warned > MAX_WARNINGS {
        eprintln!(
            "pgn-arbiter: {} more invalid games (see the invalid_game findings)",
            sink.warned - MAX_WARNINGS
        );
    }
    if let Some(j) = &mut sink.jsonl {
        j.flush()?;
    }
    let seconds = started.elapsed().as_secs_f64();
    let threads = pipeline.threads();
    if let Some(p) = &args.summary_json {
        let summary = RunSummary::new(
            &outcomes,
            &total,
            args.laws.name().to_string(),
            threads,
            seconds,
        );
        let mut out = open_output(p).map_err(|e| io::Error::new(e.kind(), format!("{p}: {e}")))?;
        serde_json::to_writer_pretty(&mut out, &summary).map_err(io::Error::other)?;
        out.write_all(b"\n")?;
        out.flush()?;
    }
    if !args.quiet {
        let text = human::render(&outcomes, &total, seconds, threads);
        if args.jsonl.as_deref() == Some("-") || args.summary_json.as_deref() == Some("-") {
            eprint!("{text}");
        } else {
            let mut out = io::stdout().lock();
            out.write_all(text.as_bytes())?;
            out.flush()?;
        }
    }
    Ok(code)
}
