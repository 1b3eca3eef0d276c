//! `pgn-arbiter diff OLD.jsonl NEW.jsonl`: the findings that appeared,
//! disappeared or changed between two runs ([`pgn_arbiter::diff`]).

use std::io::{self, BufWriter, Write};

use clap::Args;

use pgn_arbiter::diff::{diff, DiffOptions};
use pgn_arbiter::Error;

use super::Exit;

/// Compare two findings files (JSON Lines written by `audit --jsonl`).
#[derive(Args, Debug)]
pub struct DiffArgs {
    /// The findings of the earlier run.
    #[arg(value_name = "OLD.jsonl")]
    pub old: String,
    /// The findings of the later run.
    #[arg(value_name = "NEW.jsonl")]
    pub new: String,
    /// One JSON object per change instead of text.
    #[arg(long)]
    pub json: bool,
    /// Exit with 1 only when a condition holds on the appeared findings
    /// (as in audit --fail-on; percentages are refused).
    #[arg(long, value_name = "LIST")]
    pub fail_on: Option<String>,
}

/// Runs `diff`: the changes on stdout, then the count line (on stderr with
/// `--json`, so that stdout holds nothing but JSON).
pub fn run(args: &DiffArgs) -> Result<Exit, Error> {
    let options = DiffOptions {
        old: args.old.clone(),
        new: args.new.clone(),
        json: args.json,
        fail_on: args.fail_on.clone(),
    };
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let outcome = diff(&options, &mut out)?;
    let total = outcome.count_line();
    if args.json {
        out.flush()?;
        // A closed stderr is no reason to fail a diff that was written.
        let _ = io::stderr().write_all(total.as_bytes());
    } else {
        out.write_all(total.as_bytes())?;
        out.flush()?;
    }
    for f in outcome.failures.iter().flatten() {
        let what = f.condition.what.words();
        eprintln!(
            "pgn-arbiter: --fail-on {}: {} {what} appeared",
            f.condition,
            pgn_arbiter::text::count(f.games, "game", "games")
        );
    }
    Ok(if outcome.failed() {
        Exit::GateFailed
    } else {
        Exit::Ok
    })
}
