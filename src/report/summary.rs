//! The run's counts as one JSON object (`--summary-json`).

use serde::Serialize;

use crate::gate::Failure;
use crate::pipeline::RunOutcome;
use crate::stats::StatsJson;

#[derive(Serialize)]
pub struct RunSummary {
    pub tool: &'static str,
    pub version: &'static str,
    pub laws: String,
    pub threads: usize,
    pub seconds: f64,
    pub inputs: Vec<InputSummary>,
    pub total: StatsJson,
    /// Inputs that could not be read (or not to their end).
    pub input_errors: usize,
    /// The `--fail-on` conditions that held, with their figures.
    pub failed_conditions: Vec<String>,
}

#[derive(Serialize)]
pub struct InputSummary {
    pub file: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(flatten)]
    pub stats: StatsJson,
}

impl RunSummary {
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
        }
    }
}
