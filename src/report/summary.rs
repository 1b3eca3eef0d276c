//! The run's counts as one JSON object (`--summary-json`).

use serde::Serialize;

use crate::pipeline::InputOutcome;
use crate::stats::{Stats, StatsJson};

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
    pub fn new(
        outcomes: &[InputOutcome],
        total: &Stats,
        laws: String,
        threads: usize,
        seconds: f64,
    ) -> Self {
        RunSummary {
            tool: "pgn-arbiter",
            version: env!("CARGO_PKG_VERSION"),
            laws,
            threads,
            seconds,
            inputs: outcomes
                .iter()
                .map(|o| InputSummary {
                    file: o.name.clone(),
                    error: o.error.clone(),
                    stats: o.stats.to_json(),
                })
                .collect(),
            total: total.to_json(),
            input_errors: outcomes.iter().filter(|o| o.error.is_some()).count(),
        }
    }
}
