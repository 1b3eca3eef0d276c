//! `pgn-arbiter plan` and `pgn-arbiter merge`: one input over many
//! machines (see the library's `parts`).

use std::io::Write;

use pgn_arbiter::aggregate::{write_aggregate, AggregateMerge};
use pgn_arbiter::gate;
use pgn_arbiter::parts::{self, Findings, MergePlan};
use pgn_arbiter::report::summary::RunSummary;
use pgn_arbiter::Error;

use super::{json_error, open_optional, open_output, Exit};

/// `plan`: the parts of inputs.
#[derive(clap::Args, Debug)]
pub struct PlanArgs {
    /// Files or directories (searched as `audit` searches them).
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<std::ffi::OsString>,
    /// About how many parts, of about equal size on disk: each file gets
    /// parts in proportion to its size, at least one, at most as many as it
    /// can be cut into (frames of pzstd, row groups of Parquet).
    #[arg(long, value_name = "N")]
    pub parts: usize,
    /// One JSON object (`parts`: each part's `spec`, `file`, `range`,
    /// `start`, `end`; `notes`: the files read as one part, and why) instead
    /// of one SPEC a line.
    #[arg(long)]
    pub json: bool,
}

/// `merge`: the outputs of every part of a plan, as one run's.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The parts' summaries (audit --part SPEC --summary-json), any order.
    #[arg(required = true, value_name = "SUMMARY.json")]
    pub summaries: Vec<String>,
    /// The parts' findings (audit --part --jsonl), in the summaries' order.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub findings: Vec<String>,
    /// The parts' aggregates (audit --part --report-json), in the
    /// summaries' order.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub reports: Vec<String>,
    /// Write the merged findings as JSON Lines to FILE (- for stdout).
    #[arg(long, value_name = "FILE", requires = "findings")]
    pub jsonl: Option<String>,
    /// Write the merged summary to FILE (- for stdout).
    #[arg(long, value_name = "FILE")]
    pub summary_json: Option<String>,
    /// Write the merged aggregate to FILE (- for stdout).
    #[arg(long, value_name = "FILE", requires = "reports")]
    pub report_json: Option<String>,
    /// Exit with 1 when a condition holds on the merged counts (as audit
    /// --fail-on).
    #[arg(long, value_name = "LIST")]
    pub fail_on: Option<String>,
}

/// Runs `plan`.
pub fn plan(args: &PlanArgs) -> Result<Exit, Error> {
    let plan = parts::plan(&args.paths, args.parts)?;
    let mut out = open_output("plan", "-")?;
    if args.json {
        let parts: Vec<serde_json::Value> = plan
            .parts
            .iter()
            .map(|p| {
                let (range, start, end) = match p.range {
                    parts::PartRange::Whole => ("whole", None, None),
                    parts::PartRange::Bytes { start, end } => ("bytes", Some(start), Some(end)),
                    parts::PartRange::Frames { start, end } => ("frames", Some(start), Some(end)),
                    parts::PartRange::RowGroups { start, end } => {
                        ("groups", Some(start), Some(end))
                    }
                };
                serde_json::json!({
                    "index": p.index, "of": p.of, "file": p.file, "range": range,
                    "start": start, "end": end, "spec": p.spec(),
                })
            })
            .collect();
        let notes: Vec<serde_json::Value> = plan
            .notes
            .iter()
            .map(|(file, note)| serde_json::json!({"file": file, "note": note}))
            .collect();
        serde_json::to_writer(
            &mut out,
            &serde_json::json!({"parts": parts, "notes": notes}),
        )
        .map_err(json_error)?;
        out.write_all(b"\n")?;
    } else {
        for p in &plan.parts {
            writeln!(out, "{}", p.spec())?;
        }
        for (file, note) in &plan.notes {
            eprintln!("pgn-arbiter: {file}: {note}");
        }
    }
    out.flush()?;
    Ok(Exit::Ok)
}

fn read(path: &str) -> Result<Vec<u8>, Error> {
    std::fs::read(path).map_err(|e| named(path, e))
}

/// An I/O error that names its file.
fn named(path: &str, e: std::io::Error) -> Error {
    Error::Io(std::io::Error::new(e.kind(), format!("{path}: {e}")))
}

/// Runs `merge`.
pub fn merge(args: &MergeArgs) -> Result<Exit, Error> {
    let n = args.summaries.len();
    for (flag, given) in [("--findings", &args.findings), ("--reports", &args.reports)] {
        if !given.is_empty() && given.len() != n {
            return Err(Error::Usage(format!(
                "{flag}: {} files for {n} summaries (one per part, in the summaries' order)",
                given.len()
            )));
        }
    }
    let conditions = match args.fail_on.as_deref().map(gate::parse) {
        None => Vec::new(),
        Some(Ok(c)) => c,
        Some(Err(e)) => return Err(Error::Usage(e)),
    };
    // the outputs first: one that cannot be written fails before any work
    let jsonl = open_optional("--jsonl", args.jsonl.as_deref())?;
    let summary = open_optional("--summary-json", args.summary_json.as_deref())?;
    let report = open_optional("--report-json", args.report_json.as_deref())?;
    let mut summaries = Vec::with_capacity(n);
    for path in &args.summaries {
        let s: RunSummary = serde_json::from_slice(&read(path)?)
            .map_err(|e| Error::Data(format!("{path}: not a summary: {e}")))?;
        summaries.push(s);
    }
    let plan = MergePlan::of(&summaries.iter().collect::<Vec<_>>())?;
    // Each part's findings and aggregate are read when they are needed, one
    // part at a time (a month of games in parts need not fit in memory),
    // yet a bad one still fails before any output is written: the
    // aggregates are merged and the findings checked (read, renumbered,
    // dropped) first, and the findings read again as they are written.
    let shifted = |i: usize| -> Result<Option<Vec<u8>>, Error> {
        let Some(path) = args.findings.get(i) else {
            return Ok(None);
        };
        let bytes = read(path)?
            .shift(plan.shift(i))
            .map_err(|e| Error::Data(format!("{path}: {e}")))?;
        Ok(Some(bytes))
    };
    if jsonl.is_some() {
        for &i in &plan.order {
            shifted(i)?;
        }
    }
    let aggregate = match &report {
        Some(_) if !args.reports.is_empty() => {
            let mut all = AggregateMerge::default();
            if let Some(name) = &args.report_json {
                all = all.spooled_beside(name, &args.reports)?;
            }
            Some(plan.merge_aggregate_files_into(all, &args.reports)?)
        }
        _ => None,
    };
    let mut merged = plan.summary.clone();
    let failures = gate::check(&conditions, &merged.total);
    merged.failed_conditions = failures.iter().map(|f| f.to_string()).collect();
    if let Some(mut out) = jsonl {
        for &i in &plan.order {
            if let Some(bytes) = shifted(i)? {
                out.write_all(&bytes)?;
            }
        }
        out.flush()?;
    }
    if let Some(mut out) = summary {
        serde_json::to_writer_pretty(&mut out, &merged).map_err(json_error)?;
        out.write_all(b"\n")?;
        out.flush()?;
    }
    if let (Some(mut out), Some(mut aggregate), Some(name)) = (report, aggregate, &args.report_json)
    {
        write_aggregate(&mut out, name, &mut aggregate)?;
    }
    Ok(if merged.input_errors > 0 {
        Exit::InputOrUsage
    } else if failures.is_empty() {
        Exit::Ok
    } else {
        Exit::GateFailed
    })
}
