//! One JSON object per finding (SPEC "Reports"), in input order. Each line
//! is built whole before it is written, so no partial line is printed; on
//! a pipe, [`WholeWrites`] keeps it so when the process ends at once.

use std::io::{self, Write};

use crate::audit::{GameReport, BASE_TAGS};
use crate::finding::{side_name, Finding};
use crate::pipeline::{GameRecord, RunOutcome, Sink};
use crate::record::DetailFields;

/// Writes findings as JSON Lines.
pub struct JsonlSink<W: Write> {
    out: W,
    line: Vec<u8>,
}

impl<W: Write> JsonlSink<W> {
    /// Writes to `out`.
    pub fn new(out: W) -> Self {
        JsonlSink {
            out,
            line: Vec::with_capacity(512),
        }
    }

    /// Flushes `out`.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// The writer, once the run is over.
    pub fn into_inner(self) -> W {
        self.out
    }
}

impl<W: Write> Sink for JsonlSink<W> {
    fn game(&mut self, game: &GameRecord<'_>) -> io::Result<()> {
        for f in &game.report.findings {
            self.line.clear();
            write_line(&mut self.line, game.file, game.index, game.report, f);
            self.out.write_all(&self.line)?;
        }
        Ok(())
    }

    fn finish(&mut self, _run: &RunOutcome) -> io::Result<()> {
        self.out.flush()
    }
}

/// The most bytes a write to a pipe hands over all at once or not at all
/// (POSIX `PIPE_BUF`: 4096 on Linux, at least 512 anywhere).
pub const PIPE_BUF: usize = if cfg!(target_os = "linux") { 4096 } else { 512 };

/// A buffered writer that hands its destination only whole writes of its
/// own caller (a JSON line each), batched up to [`PIPE_BUF`] bytes (a
/// longer one alone). A pipe takes such a write all at once or not at all,
/// even when a signal comes while it waits, so a process that ends at any
/// moment (a second Ctrl-C ends it at once) leaves no partial line in the
/// pipe. For stdout: `io::stdout()` passes a batch that ends with a
/// newline straight to the system.
pub struct WholeWrites<W: Write> {
    out: W,
    buf: Vec<u8>,
}

impl<W: Write> WholeWrites<W> {
    /// Writes to `out`.
    pub fn new(out: W) -> Self {
        WholeWrites {
            out,
            buf: Vec::with_capacity(PIPE_BUF),
        }
    }

    fn write_buf(&mut self) -> io::Result<()> {
        if !self.buf.is_empty() {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }
}

impl<W: Write> Write for WholeWrites<W> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        if self.buf.len() + data.len() > PIPE_BUF {
            self.write_buf()?;
        }
        if data.len() > PIPE_BUF {
            self.out.write_all(data)?;
        } else {
            self.buf.extend_from_slice(data);
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.write_buf()?;
        self.out.flush()
    }
}

impl<W: Write> Drop for WholeWrites<W> {
    fn drop(&mut self) {
        let _ = self.write_buf();
    }
}

pub use crate::record::{FIELDS, SCHEMA_VERSION};

/// Appends one finding as a JSON object and a newline.
pub fn write_line(out: &mut Vec<u8>, file: &str, index: u64, report: &GameReport, f: &Finding) {
    let s = |out: &mut Vec<u8>, v: &str| {
        serde_json::to_writer(&mut *out, v).expect("writing to a Vec");
    };
    let opt = |out: &mut Vec<u8>, v: Option<&str>| match v {
        Some(v) => serde_json::to_writer(&mut *out, v).expect("writing to a Vec"),
        None => out.extend_from_slice(b"null"),
    };
    out.extend_from_slice(b"{\"file\":");
    s(out, file);
    write!(out, ",\"game\":{index},\"game_id\":").expect("writing to a Vec");
    match report.id {
        Some(id) => write!(out, "\"{id}\""),
        None => write!(out, "null"),
    }
    .expect("writing to a Vec");
    if let Some(c) = report.content {
        write!(out, ",\"content_id\":\"{c}\"").expect("writing to a Vec");
    }
    write!(
        out,
        ",\"offset\":{},\"line\":{},\"kind\":\"{}\",\"article\":\"{}\",\"ply\":{},\"move_number\":{},\"side\":\"{}\"",
        report.offset,
        report.line,
        f.kind.name(),
        f.kind.article(report.edition),
        f.ply,
        f.at.move_number,
        side_name(f.side),
    )
    .expect("writing to a Vec");
    if let Some(san) = &f.at.san {
        out.extend_from_slice(b",\"san\":");
        s(out, san);
    }
    out.extend_from_slice(b",\"fen\":");
    s(out, &f.at.fen);
    write!(out, ",\"occurrences\":{}", f.occurrences).expect("writing to a Vec");
    // The JSONL order, which every kind's fields follow (an unwinnable
    // flag's winner before its proof).
    let d = DetailFields::of(&f.detail);
    let text = [("outcome", d.outcome), ("via", d.via)];
    for (name, value) in text.into_iter().filter_map(|(n, v)| v.map(|v| (n, v))) {
        write!(out, ",\"{name}\":").expect("writing to a Vec");
        s(out, value);
    }
    if let Some(mv) = d.mv {
        out.extend_from_slice(b",\"move\":");
        opt(out, mv);
    }
    let text = [
        ("reason", d.reason),
        ("winner", d.winner),
        ("proof", d.proof),
        ("mate", d.mate),
        ("site", d.site),
        ("rule", d.rule),
    ];
    for (name, value) in text.into_iter().filter_map(|(n, v)| v.map(|v| (n, v))) {
        write!(out, ",\"{name}\":").expect("writing to a Vec");
        s(out, value);
    }
    let tags = report.tags.as_deref();
    for name in BASE_TAGS {
        write!(out, ",\"{name}\":").expect("writing to a Vec");
        opt(out, tags.and_then(|t| t.get(name)));
    }
    for (name, value) in tags.iter().flat_map(|t| t.0.iter()) {
        if BASE_TAGS.contains(&name.as_str()) || FIELDS.contains(&name.as_str()) {
            continue;
        }
        out.push(b',');
        s(out, name);
        out.push(b':');
        s(out, value);
    }
    writeln!(
        out,
        ",\"edition\":\"{}\",\"schema_version\":{SCHEMA_VERSION}}}",
        report.edition
    )
    .expect("writing to a Vec");
}
