//! `pgn-arbiter report`: merges aggregates of runs over parts of an archive.

use std::io::Write;

use pgn_arbiter::{aggregate, Error};

use super::{open_optional, write_html, Exit};

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
    /// With neither --json nor --html, a human summary goes to stdout.
    #[arg(long, value_name = "FILE")]
    pub html: Option<String>,
}

/// Runs `report`. With neither `--json` nor `--html`, the human summary of
/// the merged aggregate goes to stdout (it printed nothing).
pub fn run(args: &ReportArgs) -> Result<Exit, Error> {
    // the outputs first: one that cannot be written fails before any work
    let json = open_optional("--json", args.json.as_deref())?;
    let html = open_optional("--html", args.html.as_deref())?;
    // the merged games for merging go beside the JSON as they come, or to
    // a temporary file where no JSON is written
    let all = match &args.json {
        Some(name) => aggregate::AggregateMerge::default().spooled_beside(name, &args.inputs)?,
        None => aggregate::AggregateMerge::default().with_ids_unread()?,
    };
    let mut merged = aggregate::merge_files_into(all, &args.inputs).map_err(Error::Data)?;
    if let (Some(mut out), Some(name)) = (json, &args.json) {
        aggregate::write_aggregate(&mut out, name, &mut merged)?;
    }
    let human = args.json.is_none() && args.html.is_none();
    if let Some(out) = html {
        write_html(out, &merged)?;
    }
    if human {
        let text = pgn_arbiter::report::human::render_aggregate(&merged);
        let mut out = std::io::stdout().lock();
        out.write_all(text.as_bytes())?;
        out.flush()?;
    }
    Ok(Exit::Ok)
}
