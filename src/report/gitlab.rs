//! GitLab Code Quality: the report a job names under
//! `artifacts:reports:codequality`, which GitLab shows in the merge
//! request (new and fixed findings against the target branch) and in the
//! pipeline. It is a JSON array of issues in the subset of the Code Climate
//! format that GitLab reads, one per finding:
//!
//! * `description`: the finding as people read it, as in the other printers
//!   ("game 18 (line 1234), 2. Ke3: illegal move — White - Black");
//! * `check_name`: the kind;
//! * `fingerprint`: 32 hex digits, XXH3-128 of `game_id/kind/ply`, so the
//!   same finding of the same game text is the same issue in every
//!   pipeline, wherever the game moved, and GitLab can tell new findings
//!   from old ones. GitLab wants them unique: the n-th copy of one game
//!   text in a run (n ≥ 2) hashes `game_id/kind/ply/n-1`, copies pairing
//!   up in order as `diff` pairs them;
//! * `severity`, from the kind's row in [`crate::kind`] and the game's
//!   result ([`crate::audit::GameReport::severity`]), GitLab's five steps
//!   read as how wrong the database is: `critical` the game is not legal
//!   chess; `major` another error (the result contradicts the Laws, an
//!   automatic draw scored as a win); `minor` a warning about the game's
//!   end (played on after an automatic draw, a drawn flag); `info` a missed
//!   claim, where nothing is wrong with the data. `blocker` is an input that
//!   could not be read, or not to its end (`check_name` `input_not_read`,
//!   at its line 1): the audit of the rest of it is missing;
//! * `location.path`: the input as given, relative to the directory the run
//!   started in (GitLab matches it against the repository's files: a
//!   leading `./` is dropped, and an absolute path inside that directory is
//!   made relative); `location.lines`: the game's first and last line.
//!
//! `tests/it/ci_formats.rs` validates the report against a JSON Schema
//! written from GitLab's documentation of the format
//! (`tests/schemas/gitlab-code-quality.json`; no package registry ships
//! GitLab's). Issues are written as they come, so memory grows only with
//! the fingerprints kept for the uniqueness above (16 bytes a finding).

use std::collections::HashMap;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use serde_json::json;

use crate::example::Example;
use crate::finding::Kind;
use crate::kind::{Family, Severity};
use crate::pipeline::{GameRecord, RunOutcome, Sink};
use crate::report::sarif::end_line;

/// The `check_name` of an input that could not be read.
pub const INPUT_NOT_READ: &str = "input_not_read";

/// GitLab's severity of a finding of `kind` with the game's `severity`.
pub fn severity(kind: Kind, severity: Severity) -> &'static str {
    match (severity, kind.info().family) {
        (Severity::Error, Family::Invalid) => "critical",
        (Severity::Error, _) => "major",
        (Severity::Warning, _) => "minor",
        (Severity::Note, _) => "info",
    }
}

/// Writes a Code Quality report to `out`: issues as they come, the closing
/// bracket when the run finishes.
pub struct GitlabSink {
    out: BufWriter<Box<dyn Write>>,
    issues: u64,
    /// The directory paths are made relative to.
    base: Option<PathBuf>,
    /// The current input and its path in the report.
    file: (String, String),
    /// Per fingerprint key, the copies seen so far.
    seen: HashMap<u128, u32>,
}

impl GitlabSink {
    /// A report written to `out`, paths relative to the current directory.
    pub fn new(out: Box<dyn Write>) -> GitlabSink {
        GitlabSink::relative_to(out, std::env::current_dir().ok())
    }

    /// A report written to `out`, absolute paths inside `base` made
    /// relative to it.
    pub fn relative_to(out: Box<dyn Write>, base: Option<PathBuf>) -> GitlabSink {
        GitlabSink {
            out: BufWriter::new(out),
            issues: 0,
            base,
            file: (String::new(), String::new()),
            seen: HashMap::new(),
        }
    }

    fn path(&mut self, file: &str) -> String {
        if self.file.0 != file {
            self.file = (file.to_string(), report_path(file, self.base.as_deref()));
        }
        self.file.1.clone()
    }

    /// The fingerprint of `key`, unique in the run: copies count on.
    fn fingerprint(&mut self, key: &str) -> String {
        let h = xxhash_rust::xxh3::xxh3_128(key.as_bytes());
        let copies = self.seen.entry(h).or_insert(0);
        *copies += 1;
        let h = match *copies {
            1 => h,
            n => xxhash_rust::xxh3::xxh3_128(format!("{key}/{}", n - 1).as_bytes()),
        };
        format!("{h:032x}")
    }

    fn issue(&mut self, issue: &serde_json::Value) -> io::Result<()> {
        self.out
            .write_all(if self.issues == 0 { b"[\n" } else { b",\n" })?;
        serde_json::to_writer(&mut self.out, issue)?;
        self.issues += 1;
        Ok(())
    }
}

/// `file` as the report names it: `\` as `/` on Windows, without leading
/// `./`, relative to `base` when it is an absolute path inside it.
pub fn report_path(file: &str, base: Option<&Path>) -> String {
    let mut p = if cfg!(windows) {
        file.replace('\\', "/")
    } else {
        file.to_string()
    };
    if let Some(rest) = base.and_then(|b| Path::new(file).strip_prefix(b).ok()) {
        if let Some(rest) = rest.to_str().filter(|r| !r.is_empty()) {
            p = rest.replace('\\', "/");
        }
    }
    let mut rest = p.as_str();
    while let Some(r) = rest.strip_prefix("./") {
        rest = r.trim_start_matches('/');
    }
    rest.to_string()
}

impl Sink for GitlabSink {
    fn game(&mut self, game: &GameRecord<'_>) -> io::Result<()> {
        if game.report.findings.is_empty() {
            return Ok(());
        }
        let path = self.path(game.file);
        let begin = game.report.line.max(1);
        let end = end_line(begin, game.text);
        for f in &game.report.findings {
            let key = match game.report.id {
                Some(id) => format!("{id}/{}/{}", f.kind.name(), f.ply),
                None => format!("{}@{}/{}/{}", game.file, game.report.offset, f.kind, f.ply),
            };
            let issue = json!({
                "description": Example::new(game, f).sentence(),
                "check_name": f.kind.name(),
                "fingerprint": self.fingerprint(&key),
                "severity": severity(f.kind, game.report.severity(f)),
                "location": {"path": path, "lines": {"begin": begin, "end": end}},
            });
            self.issue(&issue)?;
        }
        Ok(())
    }

    fn finish(&mut self, run: &RunOutcome) -> io::Result<()> {
        for input in &run.inputs {
            let Some(error) = &input.error else { continue };
            let path = report_path(&input.name, self.base.as_deref());
            let issue = json!({
                "description": format!("{}: {error}", input.name),
                "check_name": INPUT_NOT_READ,
                "fingerprint": self.fingerprint(&format!("{INPUT_NOT_READ}/{}", input.name)),
                "severity": "blocker",
                "location": {"path": path, "lines": {"begin": 1}},
            });
            self.issue(&issue)?;
        }
        self.out
            .write_all(if self.issues == 0 { b"[]\n" } else { b"\n]\n" })?;
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_relative_to_the_run() {
        let base = Path::new("/work/repo");
        assert_eq!(report_path("data/a.pgn", Some(base)), "data/a.pgn");
        assert_eq!(report_path("./data/a.pgn", Some(base)), "data/a.pgn");
        assert_eq!(report_path(".//./a.pgn", None), "a.pgn");
        assert_eq!(
            report_path("/work/repo/data/a.pgn", Some(base)),
            "data/a.pgn"
        );
        assert_eq!(
            report_path("/elsewhere/a.pgn", Some(base)),
            "/elsewhere/a.pgn"
        );
        assert_eq!(report_path("../a.pgn", Some(base)), "../a.pgn");
    }

    #[test]
    fn severities_follow_the_kinds_table() {
        for k in Kind::ALL {
            let s = severity(k, k.info().severity);
            assert!(["info", "minor", "major", "critical"].contains(&s), "{k}");
            assert_eq!(
                s == "info",
                k.is_missed_claim(),
                "{k}: only missed claims are info"
            );
        }
        assert_eq!(severity(Kind::InvalidGame, Severity::Error), "critical");
        assert_eq!(severity(Kind::Fivefold, Severity::Error), "major");
        assert_eq!(severity(Kind::Fivefold, Severity::Warning), "minor");
    }
}
