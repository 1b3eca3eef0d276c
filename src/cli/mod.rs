//! The command line: clap's definitions, the progress bar, Ctrl-C, and the
//! one place where a run becomes an exit code. Only the binary declares
//! this module; the library knows no command-line crate.

mod audit;
mod diff;
mod interrupt;
mod parts;
mod position;
mod progress;
mod report;
mod warnings;
mod watch;

use std::fs::File;
use std::io::{self, BufWriter, Write};

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand};

use pgn_arbiter::laws::Edition;
use pgn_arbiter::{DeadMode, Error, Laws, Site, SiteMode};

/// `--version`: the version, the cargo features built in (a build without
/// `parquet` cannot write `--parquet`) and the laws it knows.
macro_rules! version {
    ($features:literal) => {
        concat!(
            env!("CARGO_PKG_VERSION"),
            " (features: ",
            $features,
            "; FIDE Laws of Chess editions 2001, 2014 and 2018, which the 2023 Laws keep; findings schema_version 1)"
        )
    };
}
#[cfg(feature = "parquet")]
const VERSION: &str = version!("cli, arrow, parquet");
#[cfg(all(feature = "arrow", not(feature = "parquet")))]
const VERSION: &str = version!("cli, arrow");
#[cfg(not(feature = "arrow"))]
const VERSION: &str = version!("cli");

const EXIT_CODES: &str =
    "Exit codes: 0 no --fail-on condition held (findings alone never fail a run); \
1 a --fail-on condition held (diff: a finding appeared); \
2 could not run as asked (usage error, an input that cannot be read); 2 wins over 1.";

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
    Audit(audit::AuditArgs),
    /// Decide for positions (FEN) whether each side can still checkmate.
    Position(position::PositionArgs),
    /// Merge statistics aggregates (audit --report-json) from runs over parts
    /// of an archive into one.
    Report(report::ReportArgs),
    /// Plan inputs as size-balanced parts to audit apart (audit --part) and
    /// merge (merge): byte ranges of plain PGN, pzstd frames, Parquet row
    /// groups.
    Plan(parts::PlanArgs),
    /// Merge the outputs of the parts of a plan (audit --part) into those of
    /// one run over the whole: game numbers, offsets and lines of the whole
    /// files, every count.
    #[command(after_help = EXIT_CODES)]
    Merge(parts::MergeArgs),
    /// Compare the findings of two runs (JSON Lines), games matched by game_id.
    #[command(after_help = EXIT_CODES)]
    Diff(diff::DiffArgs),
    /// Follow games as they are played (files, folders, - for a stream on
    /// stdin): say when a draw can be claimed, a claim comes near, the game
    /// ends by the Laws or its result contradicts them.
    Watch(watch::WatchArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell)
    /// on stdout, e.g. pgn-arbiter completions bash > ~/.local/share/bash-completion/completions/pgn-arbiter
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff) on stdout, e.g. pgn-arbiter man > pgn-arbiter.1,
    /// or write it and a page per command (pgn-arbiter-audit.1, ...) into --dir
    Man {
        /// Write every page into DIR (e.g. ~/.local/share/man/man1) instead
        /// of the main page on stdout.
        #[arg(long, value_name = "DIR")]
        dir: Option<std::path::PathBuf>,
    },
}

/// The completion script or the man page, from the command line's own
/// definition (clap_complete, clap_mangen), so they never drift from it.
fn generated(command: &Command) -> Result<Exit, Error> {
    use clap::CommandFactory;
    let mut cmd = Cli::command();
    let mut out = std::io::stdout().lock();
    match command {
        Command::Completions { shell } => {
            clap_complete::generate(*shell, &mut cmd, "pgn-arbiter", &mut out);
        }
        Command::Man { dir: Some(dir) } => {
            clap_mangen::generate_to(cmd, dir)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", dir.display())))?;
        }
        _ => clap_mangen::Man::new(cmd).render(&mut out)?,
    }
    std::io::Write::flush(&mut out)?;
    Ok(Exit::Ok)
}

/// How a run ended, as ripgrep and dbt use exit codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Exit {
    /// The run completed and no `--fail-on` condition held (findings alone
    /// never fail a run).
    Ok,
    /// A `--fail-on` condition held (`diff`: a finding appeared).
    GateFailed,
    /// The run could not be made as asked: a usage error, an input that
    /// could not be read. Wins over [`Exit::GateFailed`].
    InputOrUsage,
    /// Interrupted by Ctrl-C: what was read was reported.
    Interrupted,
}

impl Exit {
    /// The process's exit code.
    pub fn code(self) -> i32 {
        match self {
            Exit::Ok => 0,
            Exit::GateFailed => 1,
            Exit::InputOrUsage => 2,
            // 128 + SIGINT, as shells report it
            Exit::Interrupted => 130,
        }
    }
}

/// Runs the command line; the exit code. The one place where errors
/// become codes: a closed stdout (`| head`) ends the run quietly with 0,
/// any other error is printed and is 2.
pub fn main(args: Vec<std::ffi::OsString>) -> i32 {
    let cli = parse(args);
    let result = match &cli.command {
        Command::Audit(args) => audit::run(args),
        Command::Position(args) => position::run(args).map_err(Error::from),
        Command::Diff(args) => diff::run(args),
        Command::Report(args) => report::run(args),
        Command::Plan(args) => parts::plan(args),
        Command::Merge(args) => parts::merge(args),
        Command::Watch(args) => watch::run(args),
        c @ (Command::Completions { .. } | Command::Man { .. }) => generated(c),
    };
    match result {
        Ok(exit) => exit.code(),
        Err(e) if e.is_broken_pipe() => Exit::Ok.code(),
        Err(e) => {
            eprintln!(
                "{}",
                pgn_arbiter::text::terminal_safe(&format!("pgn-arbiter: {e}"))
            );
            Exit::InputOrUsage.code()
        }
    }
}

/// The command line, parsed.
///
/// `audit` (nearly every run) is first parsed by its own command alone:
/// clap builds the whole tree of subcommands before it parses, and the
/// seven others took some 70,000 instructions and 15 page faults of every
/// run. Only a parse that succeeds is taken from
/// there; help, a usage error or another subcommand are parsed again by
/// the whole tree, which says them as it always did.
fn parse(args: Vec<std::ffi::OsString>) -> Cli {
    audit_alone(args.iter().cloned()).unwrap_or_else(|| Cli::parse_from(args))
}

/// `audit ARGS`, parsed by the `audit` command alone: `None` where that
/// parse fails or the subcommand is another.
fn audit_alone(args: impl Iterator<Item = std::ffi::OsString>) -> Option<Cli> {
    use clap::{Args, FromArgMatches};
    let mut args = args.skip(1).peekable();
    if args.peek().is_none_or(|a| a != "audit") {
        return None;
    }
    let matches = audit::AuditArgs::augment_args(clap::Command::new("audit"))
        .try_get_matches_from(args)
        .ok()?;
    let args = audit::AuditArgs::from_arg_matches(&matches).ok()?;
    Some(Cli {
        command: Command::Audit(args),
    })
}

/// How games are judged, the same for `audit` and `watch`.
#[derive(clap::Args, Debug)]
pub struct Judging {
    /// Laws edition: by each game's Date tag (auto) or one for all.
    #[arg(long, default_value = "auto", value_parser = laws_values())]
    pub laws: Laws,
    /// Dead positions and unwinnable losses on time: insufficient material
    /// only, or proven by the engine with a small (quick) or large budget.
    #[arg(long, default_value = "quick", value_parser = dead_modes())]
    pub dead: DeadMode,
    /// Also judge online games by their site's own rules (site_rule): by
    /// each game's Site tag (auto), none, or one site for all.
    #[arg(long, default_value = "auto", value_parser = site_modes())]
    pub site: SiteMode,
}

/// `--dead`'s values, read by the library's `FromStr`, with their help.
fn dead_modes() -> impl TypedValueParser<Value = DeadMode> {
    PossibleValuesParser::new(DeadMode::ALL.map(|m| PossibleValue::new(m.name()).help(m.help())))
        .map(|s| s.parse::<DeadMode>().expect("a possible value"))
}

/// `--laws`'s values, read by the library's `FromStr`, with their help
/// (`2023` is read as `2018`, whose rules the 2023 Laws keep).
fn laws_values() -> impl TypedValueParser<Value = Laws> {
    let auto =
        PossibleValue::new(Laws::Auto.name()).help("By each game's Date tag, else its UTCDate");
    let editions = Edition::ALL.map(|e| {
        let value = PossibleValue::new(e.name()).help(e.help());
        if e == Edition::Laws2018 {
            value.alias("2023")
        } else {
            value
        }
    });
    PossibleValuesParser::new(std::iter::once(auto).chain(editions))
        .map(|s| s.parse::<Laws>().expect("a possible value"))
}

/// `--site`'s values, read by the library's `FromStr`, with their help.
fn site_modes() -> impl TypedValueParser<Value = SiteMode> {
    let auto = PossibleValue::new("auto")
        .help("By each game's Site tag (lichess.org, chess.com, freechess.org)");
    let none = PossibleValue::new("none").help("The Laws only");
    let sites = Site::ALL.map(|s| {
        PossibleValue::new(s.name()).help(format!("{}'s rules for every game", s.title()))
    });
    PossibleValuesParser::new([auto, none].into_iter().chain(sites))
        .map(|s| s.parse::<SiteMode>().expect("a possible value"))
}

/// `path` (`-`: stdout), the value of `option` (`--html`), as it is,
/// unbuffered; an error, in creating or in writing, names both
/// (`--html out/x.html: cannot create: ...`).
fn open_raw(option: &str, path: &str) -> io::Result<Box<dyn Write>> {
    Ok(if path == "-" {
        Box::new(Named::new("stdout", io::stdout().lock()))
    } else {
        Box::new(Named::new(
            &format!("{option} {path}"),
            create(option, path)?,
        ))
    })
}

/// The file `path`, the value of `option`, created (emptied if it
/// exists); the error names both, as every output's does.
pub(crate) fn create(option: &str, path: impl AsRef<std::path::Path>) -> io::Result<File> {
    let path = path.as_ref();
    File::create(path).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!("{option} {}: cannot create: {e}", path.display()),
        )
    })
}

/// `path` (`-`: stdout), the value of `option`, buffered.
fn open_output(option: &str, path: &str) -> io::Result<Box<dyn Write>> {
    Ok(Box::new(BufWriter::with_capacity(
        1 << 16,
        open_raw(option, path)?,
    )))
}

/// [`open_output`] for an option that may be absent.
fn open_optional(option: &str, path: Option<&str>) -> io::Result<Option<Box<dyn Write>>> {
    path.map(|p| open_output(option, p)).transpose()
}

/// A writer whose errors name it: a full disk is "out.html: No space left
/// on device", not the bare system message, when several outputs are
/// written. The error keeps its kind (a closed stdout is still a
/// broken pipe, which ends a run quietly).
pub(crate) struct Named<W> {
    name: String,
    inner: W,
}

impl<W> Named<W> {
    pub(crate) fn new(name: &str, inner: W) -> Named<W> {
        Named {
            name: name.to_string(),
            inner,
        }
    }

    fn name_it(&self, e: io::Error) -> io::Error {
        io::Error::new(e.kind(), format!("{}: {e}", self.name))
    }
}

/// Its writes are timed for Ctrl-C's watchdog (see `interrupt.rs`).
impl<W: Write> Write for Named<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        interrupt::timed(|| self.inner.write(buf)).map_err(|e| self.name_it(e))
    }

    fn flush(&mut self) -> io::Result<()> {
        interrupt::timed(|| self.inner.flush()).map_err(|e| self.name_it(e))
    }
}

/// A JSON writer's error as an I/O error of the kind under it.
fn json_error(e: serde_json::Error) -> io::Error {
    match e.io_error_kind() {
        Some(kind) => io::Error::new(kind, e.to_string()),
        None => io::Error::other(e),
    }
}

/// Writes the HTML report of an aggregate to `out` (opened before the run).
fn write_html(mut out: Box<dyn Write>, agg: &pgn_arbiter::aggregate::Aggregate) -> io::Result<()> {
    out.write_all(pgn_arbiter::report::html::render(agg).as_bytes())?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<std::ffi::OsString> {
        line.split(' ').map(Into::into).collect()
    }

    /// `audit` parsed alone gives what the whole tree gives, for every
    /// kind of option; what it cannot parse (help, errors, other
    /// subcommands) it leaves to the whole tree.
    #[test]
    fn audit_alone_parses_as_the_whole_tree() {
        let taken = [
            "pgn-arbiter audit a.pgn",
            "pgn-arbiter audit a.pgn b.pgn.zst dir -",
            "pgn-arbiter audit -q -j 2 --jsonl - --summary-json s.json a.pgn",
            "pgn-arbiter audit --threads=3 --dead thorough --laws 2023 --site lichess a.pgn",
            "pgn-arbiter audit --laws auto --site none --dead material --tags all a.pgn",
            "pgn-arbiter audit --fail-on missed_threefold>5,invalid_game>1% --tags Annotator a.pgn",
            "pgn-arbiter audit --part 1/4:0-100:a.pgn --jsonl out.jsonl --report-json r.json",
            "pgn-arbiter audit --export-pgn x.pgn --junit j.xml --sarif s.sarif --gitlab g.json a.pgn",
            "pgn-arbiter audit --html h.html --quiet -- -a.pgn",
            "pgn-arbiter audit a.pgn --jsonl - --quiet",
        ];
        for line in taken {
            let alone = audit_alone(words(line).into_iter()).unwrap_or_else(|| panic!("{line}"));
            let whole = Cli::try_parse_from(words(line)).unwrap();
            assert_eq!(format!("{alone:?}"), format!("{whole:?}"), "{line}");
        }
        let left = [
            "pgn-arbiter",
            "pgn-arbiter --version",
            "pgn-arbiter --help",
            "pgn-arbiter audit",
            "pgn-arbiter audit --help",
            "pgn-arbiter audit -h a.pgn",
            "pgn-arbiter audit --version a.pgn",
            "pgn-arbiter audit --nope a.pgn",
            "pgn-arbiter audit --jsonl a --jsonl b x.pgn",
            "pgn-arbiter audit --dead slow a.pgn",
            "pgn-arbiter audit --part 1/2:0-5:a.pgn a.pgn",
            "pgn-arbiter diff a.jsonl b.jsonl",
            "pgn-arbiter plan a.pgn",
            "pgn-arbiter man",
        ];
        for line in left {
            assert!(audit_alone(words(line).into_iter()).is_none(), "{line}");
        }
    }
}
