//! `pgn-arbiter audit`: the options, the outputs opened before the first
//! game is read, the run, and what is said at its end.

use std::io::{self, BufWriter, IsTerminal, Write};

use pgn_arbiter::aggregate::Aggregator;
use pgn_arbiter::finding::Kind;
use pgn_arbiter::gate::{self, Condition};
use pgn_arbiter::pipeline::{RunOutcome, Sink};
use pgn_arbiter::report::examples::Examples;
use pgn_arbiter::report::github::GithubSink;
use pgn_arbiter::report::gitlab::GitlabSink;
use pgn_arbiter::report::jsonl::{JsonlSink, WholeWrites};
use pgn_arbiter::report::junit::JunitSink;
#[cfg(feature = "parquet")]
use pgn_arbiter::report::parquet::ParquetSink;
use pgn_arbiter::report::pgn_export::PgnExport;
use pgn_arbiter::report::sarif::SarifSink;
use pgn_arbiter::report::{human, summary::RunSummary};
use pgn_arbiter::text::terminal_safe;
use pgn_arbiter::{Audit, Error, TagSet};

use super::interrupt::on_interrupt;
use super::progress::Bar;
use super::warnings::{Warnings, MAX_WARNINGS};
use super::{json_error, open_output, open_raw, write_html, Exit, Judging, Named};

/// `audit`: what to read, what to write, how to judge.
#[derive(clap::Args, Debug)]
pub struct AuditArgs {
    /// Files, directories (searched for *.pgn and *.pgn.zst) or - for stdin;
    /// none with --part, which names its own file.
    #[arg(required = true, conflicts_with = "part", value_name = "PATH")]
    pub paths: Vec<std::ffi::OsString>,
    /// Audit one part of a plan (`pgn-arbiter plan`), as it wrote it:
    /// INDEX/OF:RANGE:PATH. Game numbers, offsets and lines count from the
    /// part's start; `pgn-arbiter merge` makes them the whole file's. Writes
    /// --jsonl, --summary-json and --report-json only.
    #[arg(long, value_name = "SPEC")]
    pub part: Option<String>,
    /// Write findings as JSON Lines to FILE (- for stdout).
    #[arg(long, value_name = "FILE")]
    pub jsonl: Option<String>,
    /// Write the run's counts as one JSON object to FILE (- for stdout).
    #[arg(long, value_name = "FILE")]
    pub summary_json: Option<String>,
    /// Worker threads (default: all cores; at most 4 x the cores).
    #[arg(long, short = 'j', value_name = "N")]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub judging: Judging,
    /// Exit with 1 when a condition holds: a comma-separated list of `any`,
    /// KIND, `error`, `warning` (a finding of that severity or worse), each
    /// alone, as X>N (more than N games) or X>P% (more than P percent of the
    /// games analysed; any, error, warning: of the games judged, analysed or
    /// invalid; invalid_game: of the games read).
    #[arg(long, value_name = "LIST", long_help = with_kinds(
        "Exit with 1 when a condition holds: a comma-separated list of `any`, KIND, `error` or \
         `warning` (a finding of that severity or a more serious one, docs/CI.md), each alone, \
         as X>N (more than N games with one) or X>P% (more than P percent of the games \
         analysed; `any`, `error`, `warning`: of the games judged, analysed or invalid; \
         invalid_game: of the games read)"
    ))]
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
    #[arg(long, value_name = "LIST", requires = "export_pgn", long_help = with_kinds(
        "Export only games with findings of these kinds (comma-separated)"
    ))]
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
    /// In the statistics report (--report-json, --html): a game that
    /// repeats an earlier one counts once, its first occurrence in input
    /// order (once), or each time (all). A repeat is the same site game id
    /// (Link, GameURL, FICSGamesDBGameNo, a Lichess game URL), else the same
    /// start position and moves on a date that agrees, by players whose
    /// names agree once normalised; `exact` counts once the games with the
    /// same players, date, round, start position and moves as written.
    /// Repeats are listed either way; the findings list every game as given.
    #[arg(long, value_name = "once|all|exact", default_value = "once", value_parser = ["once", "all", "exact"])]
    pub duplicates: String,
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
    /// A GitLab Code Quality report to FILE (artifacts:reports:codequality):
    /// an issue per finding, fingerprinted by game_id, kind and ply.
    #[arg(long, value_name = "FILE")]
    pub gitlab: Option<String>,
    /// In every build, so that a build without Parquet says what it lacks
    /// rather than clap's "unexpected argument".
    #[arg(long, value_name = "FILE", help = PARQUET_HELP)]
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

/// `--parquet`'s help, which says when this build cannot write Parquet.
const PARQUET_HELP: &str = if cfg!(feature = "parquet") {
    "Write findings as Parquet to FILE (- for stdout): the columns and values of the JSON Lines, zstd compressed"
} else {
    "Write findings as Parquet to FILE: needs the `parquet` feature, which this build lacks (cargo install --locked --path . --features parquet)"
};

/// A help text and the kind names it takes, from the kind table.
fn with_kinds(help: &str) -> String {
    let names: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
    format!("{help}.\n\nKINDS: {}", names.join(", "))
}

/// What the options ask, checked before anything is opened.
struct Plan {
    gate: Vec<Condition>,
    export_kinds: Option<Vec<Kind>>,
    /// Outputs that write to stdout (at most one).
    to_stdout: usize,
}

fn plan(args: &AuditArgs) -> Result<Plan, Error> {
    if args.parquet.is_some() && !cfg!(feature = "parquet") {
        return Err(Error::Usage(
            "--parquet needs the `parquet` feature, which this pgn-arbiter was built without: build it with `cargo install --locked --path . --features parquet` (pgn-arbiter --version names the features built in)".into(),
        ));
    }
    let gate = match args.fail_on.as_deref().map(gate::parse) {
        None => Vec::new(),
        Some(Ok(c)) => c,
        Some(Err(e)) => return Err(Error::Usage(e)),
    };
    let to_stdout = [
        &args.jsonl,
        &args.summary_json,
        &args.export_pgn,
        &args.junit,
        &args.sarif,
        &args.gitlab,
        &args.report_json,
        &args.html,
        &args.parquet,
    ]
    .iter()
    .filter(|o| o.as_deref() == Some("-"))
    .count()
        + usize::from(args.github);
    if to_stdout > 1 {
        return Err(Error::Usage(format!(
            "only one of --jsonl, --summary-json, --export-pgn, --junit, --sarif, --gitlab, --report-json, --html{} and --github can write to stdout",
            if cfg!(feature = "parquet") { ", --parquet" } else { "" }
        )));
    }
    if args.part.is_some() {
        let others = [
            ("--export-pgn", args.export_pgn.is_some()),
            ("--junit", args.junit.is_some()),
            ("--sarif", args.sarif.is_some()),
            ("--gitlab", args.gitlab.is_some()),
            ("--html", args.html.is_some()),
            ("--parquet", args.parquet.is_some()),
            ("--github", args.github),
            ("--fail-on", args.fail_on.is_some()),
        ];
        if let Some((name, _)) = others.iter().find(|(_, asked)| *asked) {
            return Err(Error::Usage(format!(
                "--part writes --jsonl, --summary-json and --report-json, which `pgn-arbiter merge` makes one run's; {name} is written from the merged run"
            )));
        }
    }
    let export_kinds = match args.export_kinds.as_deref().map(parse_kinds) {
        None => None,
        Some(Ok(k)) => Some(k),
        Some(Err(e)) => return Err(Error::Usage(format!("--export-kinds: {e}"))),
    };
    if let Some(n) = args
        .threads
        .filter(|&n| pgn_arbiter::pipeline::cap_threads(n) < n)
    {
        eprintln!(
            "pgn-arbiter: --threads {n} capped at {} (4 x the cores)",
            pgn_arbiter::pipeline::max_threads()
        );
    }
    Ok(Plan {
        gate,
        export_kinds,
        to_stdout,
    })
}

/// The outputs asked for, each a sink, opened before the first game: one
/// that cannot be written fails the run before it reads anything, not
/// after an hour of audit.
#[derive(Default)]
struct Outputs {
    /// `--summary-json` and `--html`, written once the run is over.
    summary: Option<Box<dyn Write>>,
    html: Option<Box<dyn Write>>,
    jsonl: Option<JsonlSink<WholeWrites<Box<dyn Write>>>>,
    export: Option<PgnExport>,
    github: Option<GithubSink>,
    junit: Option<JunitSink>,
    sarif: Option<SarifSink>,
    gitlab: Option<GitlabSink>,
    #[cfg(feature = "parquet")]
    parquet: Option<ParquetSink<Box<dyn Write + Send>>>,
    aggregator: Option<Aggregator>,
}

impl Outputs {
    fn open(args: &AuditArgs, plan: &Plan, tags: &TagSet) -> io::Result<Outputs> {
        let mut o = Outputs::default();
        if let Some(p) = &args.jsonl {
            // Whole lines per write: a second Ctrl-C ends the process at
            // once, leaving no partial line in a pipe.
            o.jsonl = Some(JsonlSink::new(WholeWrites::new(open_raw("--jsonl", p)?)));
        }
        if let Some(p) = &args.export_pgn {
            let kinds = plan.export_kinds.clone();
            o.export = Some(PgnExport::new(
                open_output("--export-pgn", p)?,
                kinds,
                args.fix_results,
            ));
        }
        if args.github {
            let summary = step_summary()?;
            o.github = Some(GithubSink::new(
                open_output("--github", "-")?,
                summary,
                plan.gate.clone(),
            ));
        }
        if let Some(p) = &args.junit {
            o.junit = Some(JunitSink::new(open_output("--junit", p)?));
        }
        if let Some(p) = &args.sarif {
            o.sarif = Some(SarifSink::new(open_output("--sarif", p)?));
        }
        if let Some(p) = &args.gitlab {
            o.gitlab = Some(GitlabSink::new(open_output("--gitlab", p)?));
        }
        #[cfg(feature = "parquet")]
        if let Some(p) = &args.parquet {
            o.parquet = Some(parquet_output(p, tags)?);
        }
        #[cfg(not(feature = "parquet"))]
        let _ = tags;
        if let Some(p) = &args.summary_json {
            o.summary = Some(open_output("--summary-json", p)?);
        }
        if let Some(p) = &args.html {
            o.html = Some(open_output("--html", p)?);
        }
        if args.report_json.is_some() || args.html.is_some() {
            let json = match &args.report_json {
                Some(p) => Some(open_output("--report-json", p)?),
                None => None,
            };
            let mut aggregator =
                Aggregator::new(json, args.judging.laws.name(), args.judging.dead.name())
                    .with_output_name(args.report_json.as_deref().unwrap_or("-"))
                    .with_duplicate_mode(&args.duplicates)
                    .map_err(std::io::Error::other)?;
            if args.report_json.is_none() {
                // the HTML alone: the games for merging are read by no one
                aggregator = aggregator.with_ids_unread();
            }
            o.aggregator = Some(aggregator);
        }
        Ok(o)
    }

    /// Every sink opened, in the order they see each game.
    fn sinks(&mut self) -> Vec<&mut dyn Sink> {
        let mut sinks: Vec<&mut dyn Sink> = Vec::new();
        if let Some(j) = &mut self.jsonl {
            sinks.push(j);
        }
        if let Some(e) = &mut self.export {
            sinks.push(e);
        }
        if let Some(g) = &mut self.github {
            sinks.push(g);
        }
        if let Some(j) = &mut self.junit {
            sinks.push(j);
        }
        if let Some(s) = &mut self.sarif {
            sinks.push(s);
        }
        if let Some(g) = &mut self.gitlab {
            sinks.push(g);
        }
        #[cfg(feature = "parquet")]
        if let Some(p) = &mut self.parquet {
            sinks.push(p);
        }
        if let Some(a) = &mut self.aggregator {
            sinks.push(a);
        }
        sinks
    }
}

/// `--parquet`'s sink (`-`: stdout); an error names the option, as every
/// output's does.
#[cfg(feature = "parquet")]
fn parquet_output(path: &str, tags: &TagSet) -> io::Result<ParquetSink<Box<dyn Write + Send>>> {
    if path == "-" {
        return ParquetSink::create(path, tags);
    }
    let out: Box<dyn Write + Send> = Box::new(super::create("--parquet", path)?);
    ParquetSink::new(out, &format!("--parquet {path}"), tags)
}

/// `GITHUB_STEP_SUMMARY`, opened to append, when the runner sets it.
fn step_summary() -> io::Result<Option<Box<dyn Write>>> {
    match std::env::var_os("GITHUB_STEP_SUMMARY") {
        Some(p) if !p.is_empty() => {
            let name = format!("GITHUB_STEP_SUMMARY {}", p.to_string_lossy());
            let f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&p)
                .map_err(|e| io::Error::new(e.kind(), format!("{name}: cannot open: {e}")))?;
            Ok(Some(
                Box::new(BufWriter::new(Named::new(&name, f))) as Box<dyn Write>
            ))
        }
        _ => Ok(None),
    }
}

/// Runs `audit`.
pub fn run(args: &AuditArgs) -> Result<Exit, Error> {
    let plan = plan(args)?;
    let interrupt = on_interrupt();
    let tags = args.tags.as_deref().map(TagSet::parse).unwrap_or_default();
    let audit = Audit::new()
        .interrupt(interrupt)
        .laws(args.judging.laws)
        .dead(args.judging.dead)
        .site(args.judging.site)
        .threads(args.threads.unwrap_or(0))
        .tags(tags.clone())
        .facets(args.report_json.is_some() || args.html.is_some())
        .sizes(args.chunk_size, args.region_size);

    // A bar on the terminal that also shows output would leave copies of
    // itself among the lines.
    let output_on_terminal = plan.to_stdout > 0 && io::stdout().is_terminal();
    let bar = Bar::new(!args.quiet && !output_on_terminal);
    let mut outputs = Outputs::open(args, &plan, &tags)?;
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
    sinks.extend(outputs.sinks());
    let (run, part) = match &args.part {
        Some(spec) => {
            let part = pgn_arbiter::parts::Part::parse(spec)?;
            let (run, info) = pgn_arbiter::parts::audit_part(&audit, &part, &mut sinks, &bar)?;
            (run, Some(info))
        }
        None => (audit.run(&args.paths, &mut sinks, &bar)?, None),
    };
    drop(sinks);
    if let (Some(out), Some(agg)) = (
        outputs.html.take(),
        outputs.aggregator.as_ref().and_then(|a| a.result.as_ref()),
    ) {
        write_html(out, agg)?;
    }
    bar.finish();
    if warnings.warned > MAX_WARNINGS {
        eprintln!(
            "pgn-arbiter: {} more (invalid games: see the invalid_game findings)",
            pgn_arbiter::text::count(
                (warnings.warned - MAX_WARNINGS) as u64,
                "warning",
                "warnings"
            )
        );
    }
    finish(args, &plan, (&run, part), &examples, outputs.summary.take())
}

/// What the end of a run says: input errors, the gate, Ctrl-C, the
/// summary JSON and the human summary; the exit.
fn finish(
    args: &AuditArgs,
    plan: &Plan,
    (run, part): (&RunOutcome, Option<pgn_arbiter::parts::PartInfo>),
    examples: &Examples,
    summary: Option<Box<dyn Write>>,
) -> Result<Exit, Error> {
    let mut exit = Exit::Ok;
    for o in run.inputs.iter().filter(|o| o.error.is_some()) {
        let line = format!(
            "pgn-arbiter: {}: {}",
            o.name,
            o.error.as_deref().unwrap_or("")
        );
        eprintln!("{}", terminal_safe(&line));
        exit = Exit::InputOrUsage;
    }
    let failures = gate::check(&plan.gate, &run.total);
    if !failures.is_empty() && exit == Exit::Ok {
        exit = Exit::GateFailed;
    }
    if run.interrupted {
        eprintln!(
            "pgn-arbiter: interrupted: {} read before Ctrl-C {} audited and reported; the rest was not read",
            pgn_arbiter::text::count(run.total.games, "game", "games"),
            if run.total.games == 1 { "was" } else { "were" }
        );
        exit = Exit::Interrupted;
    }
    if let Some(mut out) = summary {
        let mut summary = RunSummary::new(run, args.judging.laws.name().to_string(), &failures);
        summary.part = part;
        serde_json::to_writer_pretty(&mut out, &summary).map_err(json_error)?;
        out.write_all(b"\n")?;
        out.flush()?;
    }
    if !args.quiet {
        // made only when shown
        let rendered = human::render(run, examples, &plan.gate, &failures);
        let text = terminal_safe(&rendered);
        if plan.to_stdout > 0 {
            eprint!("{text}");
        } else {
            let mut out = Named::new("stdout", io::stdout().lock());
            out.write_all(text.as_bytes())?;
            out.flush()?;
        }
    } else {
        for f in &failures {
            eprintln!("pgn-arbiter: --fail-on {f}");
        }
    }
    Ok(exit)
}

/// A comma-separated list of kinds.
fn parse_kinds(list: &str) -> Result<Vec<Kind>, String> {
    list.split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(|n| Kind::from_name(n).ok_or_else(|| format!("unknown kind '{n}'")))
        .collect()
}
