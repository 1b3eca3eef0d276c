//! The run's counts as one JSON object (`--summary-json`).

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::gate::Failure;
use crate::pipeline::RunOutcome;
use crate::stats::Stats;

/// The summary of a run, as written and read back.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunSummary {
    /// `pgn-arbiter`.
    pub tool: String,
    /// The version of pgn-arbiter.
    pub version: String,
    /// The `--laws` setting (`auto`, `2001`, `2014`, `2018`).
    pub laws: String,
    /// Worker threads.
    pub threads: usize,
    /// Wall-clock time of the run.
    pub seconds: f64,
    /// Each input, in the order read.
    pub inputs: Vec<InputSummary>,
    /// The counts of every input together.
    pub total: Stats,
    /// Inputs that could not be read (or not to their end).
    pub input_errors: usize,
    /// The `--fail-on` conditions that held, with their figures.
    pub failed_conditions: Vec<String>,
    /// Interrupted (Ctrl-C): the counts are of the games read before it.
    pub interrupted: bool,
    /// A run over one part of an input (`audit --part`): what the merge of
    /// the parts needs. Left out of a whole run's summary.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part: Option<PartInfo>,
}

/// Of a run over one part of an input (`crate::parts`): which part, and
/// the newlines it read. With the part's games and bytes (its counts), the
/// merge makes each finding's `game`, `offset` and `line` those of the
/// whole input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartInfo {
    /// The part's index in its plan (0-based), over every input planned.
    pub index: usize,
    /// The parts in the plan.
    pub of: usize,
    /// The part as `plan` wrote it (`audit --part SPEC`).
    pub spec: String,
    /// Newlines in the part's bytes.
    pub newlines: u64,
}

/// One input of a run summary.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct InputSummary {
    /// The input's name in the reports.
    pub file: String,
    /// Why it could not be read (or not to its end); left out when it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Its counts, inline.
    #[serde(flatten)]
    pub stats: Stats,
}

impl RunSummary {
    /// The summary of `run`, judged by `laws`, with the `--fail-on`
    /// conditions that held.
    pub fn new(run: &RunOutcome, laws: String, failures: &[Failure]) -> Self {
        RunSummary {
            tool: "pgn-arbiter".to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            laws,
            threads: run.threads,
            seconds: run.seconds,
            inputs: run
                .inputs
                .iter()
                .map(|o| InputSummary {
                    file: o.name.clone(),
                    error: o.error.clone(),
                    stats: o.stats.clone(),
                })
                .collect(),
            total: run.total.clone(),
            input_errors: run.inputs.iter().filter(|o| o.error.is_some()).count(),
            failed_conditions: failures.iter().map(|f| f.to_string()).collect(),
            interrupted: run.interrupted,
            part: None,
        }
    }
}

impl RunSummary {
    /// One summary for several runs (the parts of an archive, the tasks of
    /// a Dask job): counts added, inputs concatenated in order, the largest
    /// thread count, the seconds added; the same as one run over the whole
    /// but for `seconds` and `threads`. Summaries judged by different laws
    /// are refused.
    pub fn merge(parts: &[RunSummary]) -> Result<RunSummary, Error> {
        let Some(first) = parts.first() else {
            return Err(Error::Usage("nothing to merge".to_string()));
        };
        if let Some(other) = parts.iter().find(|p| p.laws != first.laws) {
            return Err(Error::Usage(format!(
                "summaries judged by different laws: {:?} and {:?}",
                first.laws, other.laws
            )));
        }
        let mut total = Stats::default();
        for p in parts {
            total.merge(&p.total);
        }
        Ok(RunSummary {
            tool: first.tool.clone(),
            version: first.version.clone(),
            laws: first.laws.clone(),
            threads: parts.iter().map(|p| p.threads).max().unwrap_or(0),
            seconds: parts.iter().map(|p| p.seconds).sum(),
            inputs: parts
                .iter()
                .flat_map(|p| p.inputs.iter().cloned())
                .collect(),
            total,
            input_errors: parts.iter().map(|p| p.input_errors).sum(),
            failed_conditions: parts
                .iter()
                .flat_map(|p| p.failed_conditions.iter().cloned())
                .collect(),
            interrupted: parts.iter().any(|p| p.interrupted),
            part: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{for_each_game, Audit, Laws};

    fn summary(name: &str, pgn: &[u8]) -> RunSummary {
        let run = Audit::new()
            .threads(1)
            .laws(Laws::Auto)
            .run_bytes(name, pgn, &mut for_each_game(|_| {}))
            .unwrap();
        RunSummary::new(&run, "auto".to_string(), &[])
    }

    const MATE_DRAWN: &[u8] = b"[Result \"1/2-1/2\"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2\n";
    const REPEATED: &[u8] = b"[Result \"0-1\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 0-1\n\n[Result \"1-0\"]\n\n1. e4 Ke7 2. Qh5 Ke8 3. Qxf7# 1-0\n";

    #[test]
    fn a_summary_reads_back_as_written() {
        let s = summary("a.pgn", REPEATED);
        let text = serde_json::to_string(&s).unwrap();
        let back: RunSummary = serde_json::from_str(&text).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), text);
        assert_eq!(back.total, s.total);
    }

    #[test]
    fn merged_summaries_add_the_counts_and_keep_the_inputs_in_order() {
        let (a, b) = (summary("a.pgn", MATE_DRAWN), summary("b.pgn", REPEATED));
        let merged = RunSummary::merge(&[a.clone(), b.clone()]).unwrap();
        let mut total = a.total.clone();
        total.merge(&b.total);
        assert_eq!(merged.total, total);
        assert_eq!(merged.total.games, 3);
        assert!(merged.total.kind_games[crate::Kind::WrongResult] >= 1);
        let files: Vec<&str> = merged.inputs.iter().map(|i| i.file.as_str()).collect();
        assert_eq!(files, ["a.pgn", "b.pgn"]);
        let mut other = b;
        other.laws = "2018".to_string();
        assert!(RunSummary::merge(&[a, other]).is_err());
        assert!(RunSummary::merge(&[]).is_err());
    }
}
