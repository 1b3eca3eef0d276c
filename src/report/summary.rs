//! The run's counts as one JSON object (`--summary-json`).

use serde::Serialize;

use crate::gate::Failure;
use crate::pipeline::RunOutcome;
use crate::stats::StatsJson;

/// The summary of a run, as written.
#[derive(Serialize)]
pub struct RunSummary {
    /// `pgn-arbiter`.
    pub tool: &'static str,
    /// The version of pgn-arbiter.
    pub version: &'static str,
    /// The `--laws` setting (`auto`, `2001`, `2014`, `2018`).
    pub laws: String,
    /// Worker threads.
    pub threads: usize,
    /// Wall-clock time of the run.
    pub seconds: f64,
    /// Each input, in the order read.
    pub inputs: Vec<InputSummary>,
    /// The counts of every input together.
    pub total: StatsJson,
    /// Inputs that could not be read (or not to their end).
    pub input_errors: usize,
    /// The `--fail-on` conditions that held, with their figures.
    pub failed_conditions: Vec<String>,
    /// Interrupted (Ctrl-C): the counts are of the games read before it.
    pub interrupted: bool,
}

/// One input of a run summary.
#[derive(Serialize)]
pub struct InputSummary {
    /// The input's name in the reports.
    pub file: String,
    /// Why it could not be read (or not to its end); left out when it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Its counts, inline.
    #[serde(flatten)]
    pub stats: StatsJson,
}

impl RunSummary {
    /// The summary of `run`, judged by `laws`, with the `--fail-on`
    /// conditions that held.
    pub fn new(run: &RunOutcome, laws: String, failures: &[Failure]) -> Self {
        RunSummary {
            tool: "pgn-arbiter",
            version: env!("CARGO_PKG_VERSION"),
            laws,
            threads: run.threads,
            seconds: run.seconds,
            inputs: run
                .inputs
                .iter()
                .map(|o| InputSummary {
                    file: o.name.clone(),
                    error: o.error.clone(),
                    stats: o.stats.to_json(),
                })
                .collect(),
            total: run.total.to_json(),
            input_errors: run.inputs.iter().filter(|o| o.error.is_some()).count(),
            failed_conditions: failures.iter().map(|f| f.to_string()).collect(),
            interrupted: run.interrupted,
        }
    }
}
