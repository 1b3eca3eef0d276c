//! SARIF 2.1.0 (OASIS), for code-scanning tools: one run of `pgn-arbiter`,
//! one rule per kind of finding, one result per finding, located at the
//! game's first line in its input.
//!
//! * `ruleId` is the kind's name; the rule cites the article of the Laws
//!   (2018 numbering; the dead position's 9.6 of the 2001 Laws as well).
//! * `level` is the finding's severity, `error`, `warning` or `note`
//!   ([`crate::kind::Severity`], [`crate::audit::GameReport::severity`]);
//!   a rule's default level is that of its usual case.
//! * `locations[0].physicalLocation`: `artifactLocation.uri` is the input
//!   as given (percent-encoded where a URI needs it: spaces, `%`, `:`,
//!   non-ASCII…), `region` spans the game's lines.
//! * `partialFingerprints["gameId/v1"]` is `game_id/kind`: the same finding
//!   of the same game text is the same alert across runs, wherever the
//!   game moved.
//! * Inputs that could not be read are `toolExecutionNotifications` of the
//!   run's invocation, which is then not `executionSuccessful`.
//!
//! The document is checked against the OASIS schema
//! (`target/schemas/sarif-2.1.0.json`, as .ci/run fetches it) by `tests/it/ci_formats.rs`.
//! Results are written as they come (one a line), so memory does not grow
//! with the number of findings; the document is complete when the run
//! finishes.

use std::io::{self, BufWriter, Write};

use serde_json::{json, Value};

use crate::example::Example;
use crate::finding::{side_name, Kind};
use crate::kind::Severity;
use crate::laws::Edition;
use crate::pipeline::{GameRecord, RunOutcome, Sink};

/// The `$schema` written.
pub const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// Where the rules are explained: the FIDE Laws of Chess (FIDE Handbook,
/// E.01).
pub const LAWS_URI: &str = "https://handbook.fide.com/chapter/E012023";

/// The partial fingerprint's name.
pub const FINGERPRINT: &str = "gameId/v1";

/// The article(s) a kind implements, as the rule cites them.
fn articles(kind: Kind) -> String {
    match kind.articles_then_and_now() {
        (now, Some(then)) => format!("Art. {now} (Art. {then} in the Laws before 1 July 2014)"),
        (now, None) => format!("Art. {now}"),
    }
}

/// The level of a kind's usual case.
fn default_level(kind: Kind) -> &'static str {
    level(kind.info().severity)
}

/// SARIF's name of a severity (`error`, `warning`, `note`: SARIF's own).
fn level(severity: Severity) -> &'static str {
    severity.name()
}

/// The rules, one per kind, in [`Kind::ALL`] order (`ruleIndex`).
pub fn rules() -> Value {
    Value::Array(
        Kind::ALL
            .iter()
            .map(|&k| {
                let info = k.info();
                let (name, short, full, help) =
                    (k.camel_name(), info.title, info.meaning, info.advice);
                let cite = articles(k);
                json!({
                    "id": k.name(),
                    "name": name,
                    "shortDescription": {"text": short},
                    "fullDescription": {"text": format!("{full} FIDE Laws of Chess, {cite}.")},
                    "help": {"text": format!("{full} FIDE Laws of Chess, {cite}. {help}")},
                    "helpUri": LAWS_URI,
                    "defaultConfiguration": {"level": default_level(k)},
                    "properties": {
                        "tags": ["chess", "fide-laws"],
                        "article": k.article(Edition::Laws2018),
                    },
                })
            })
            .collect(),
    )
}

/// The tool: name, version and where to read about it (the package's
/// homepage or repository, when Cargo.toml names one).
fn driver() -> Value {
    let mut d = json!({
        "name": "pgn-arbiter",
        "version": env!("CARGO_PKG_VERSION"),
        "semanticVersion": env!("CARGO_PKG_VERSION"),
    });
    let home = [env!("CARGO_PKG_HOMEPAGE"), env!("CARGO_PKG_REPOSITORY")]
        .into_iter()
        .find(|u| !u.is_empty());
    if let Some(uri) = home {
        d["informationUri"] = json!(uri);
    }
    d["rules"] = rules();
    d
}

/// A file name as a URI reference: unreserved characters, `/` and the
/// sub-delimiters kept, everything else (`%`, `:`, spaces, non-ASCII…)
/// percent-encoded as UTF-8. On Windows, `\` separates as `/` does.
pub fn file_uri(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for b in name.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' => out.push(b as char),
            b'-' | b'.' | b'_' | b'~' | b'/' | b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*'
            | b'+' | b',' | b';' | b'=' | b'@' => out.push(b as char),
            b'\\' if cfg!(windows) => out.push('/'),
            b => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// Writes a SARIF log to `out`: results as they come, the rest when the
/// run finishes.
pub struct SarifSink {
    out: BufWriter<Box<dyn Write>>,
    started: bool,
    results: u64,
    /// The current input and its URI.
    file: (String, String),
}

impl SarifSink {
    /// A SARIF log written to `out`.
    pub fn new(out: Box<dyn Write>) -> SarifSink {
        SarifSink {
            out: BufWriter::new(out),
            started: false,
            results: 0,
            file: (String::new(), String::new()),
        }
    }

    /// The log up to the first result.
    fn start(&mut self) -> io::Result<()> {
        if self.started {
            return Ok(());
        }
        self.started = true;
        write!(
            self.out,
            "{{\"$schema\":{},\"version\":\"2.1.0\",\"runs\":[{{\"tool\":{{\"driver\":",
            json!(SCHEMA_URI)
        )?;
        serde_json::to_writer(&mut self.out, &driver())?;
        self.out.write_all(b"},\"results\":[")?;
        Ok(())
    }

    fn uri(&mut self, file: &str) -> &str {
        if self.file.0 != file {
            self.file = (file.to_string(), file_uri(file));
        }
        &self.file.1
    }
}

/// The 1-based lines a game spans, starting at `line`: up to its last
/// non-blank byte (also GitLab's `lines.end`).
pub(crate) fn end_line(line: u64, text: &[u8]) -> u64 {
    let end = text
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |i| i + 1);
    line + text[..end].iter().filter(|&&b| b == b'\n').count() as u64
}

impl Sink for SarifSink {
    fn begin_input(&mut self, _file: &str) -> io::Result<()> {
        self.start()
    }

    fn game(&mut self, game: &GameRecord<'_>) -> io::Result<()> {
        if game.report.findings.is_empty() {
            return Ok(());
        }
        self.start()?;
        let uri = self.uri(game.file).to_string();
        let start = game.report.line.max(1);
        let end = end_line(start, game.text);
        for f in &game.report.findings {
            let e = Example::new(game, f);
            let level = level(game.report.severity(f));
            let fingerprint = match game.report.id {
                Some(id) => format!("{id}/{}", f.kind.name()),
                None => format!("{}@{}/{}", game.file, game.report.offset, f.kind.name()),
            };
            let mut properties = json!({
                "game": game.index,
                "offset": game.report.offset,
                "ply": f.ply,
                "moveNumber": f.at.move_number,
                "side": side_name(f.side),
                "fen": f.at.fen,
                "edition": game.report.edition.to_string(),
                "article": f.kind.article(game.report.edition),
            });
            if let Some(san) = &f.at.san {
                properties["san"] = json!(san);
            }
            if let Some(link) = &e.link {
                properties["url"] = json!(link);
            }
            let result = json!({
                "ruleId": f.kind.name(),
                "ruleIndex": f.kind.index(),
                "level": level,
                "message": {"text": e.sentence()},
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": {"uri": uri},
                        "region": {"startLine": start, "endLine": end},
                    }
                }],
                "partialFingerprints": {FINGERPRINT: fingerprint},
                "properties": properties,
            });
            if self.results > 0 {
                self.out.write_all(b",")?;
            }
            self.out.write_all(b"\n")?;
            serde_json::to_writer(&mut self.out, &result)?;
            self.results += 1;
        }
        Ok(())
    }

    fn finish(&mut self, run: &RunOutcome) -> io::Result<()> {
        self.start()?;
        let notifications: Vec<Value> = run
            .inputs
            .iter()
            .filter_map(|i| {
                i.error.as_ref().map(|e| {
                    json!({
                        "level": "error",
                        "message": {"text": format!("{}: {e}", i.name)},
                        "locations": [{
                            "physicalLocation": {"artifactLocation": {"uri": file_uri(&i.name)}}
                        }],
                    })
                })
            })
            .collect();
        let mut invocation = json!({"executionSuccessful": notifications.is_empty()});
        if !notifications.is_empty() {
            invocation["toolExecutionNotifications"] = Value::Array(notifications);
        }
        let t = &run.total;
        let kind_games: serde_json::Map<String, Value> = Kind::ALL
            .iter()
            .map(|k| (k.name().to_string(), json!(t.kind_games[*k])))
            .collect();
        let properties = json!({
            "games": t.games,
            "analysed": t.analysed,
            "invalid": t.invalid,
            "skipped": t.skipped,
            "flagged": t.flagged,
            "kindGames": kind_games,
        });
        self.out.write_all(b"\n],\"invocations\":[")?;
        serde_json::to_writer(&mut self.out, &invocation)?;
        self.out.write_all(b"],\"properties\":")?;
        serde_json::to_writer(&mut self.out, &properties)?;
        self.out.write_all(b"}]}\n")?;
        self.out.flush()
    }
}
