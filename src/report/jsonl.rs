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
///
/// Written piece by piece rather than through `write!`: the formatting
/// machinery cost some 8,000 instructions a line, most of a line's cost
/// (an engine's file has findings in every game).
pub fn write_line(out: &mut Vec<u8>, file: &str, index: u64, report: &GameReport, f: &Finding) {
    out.extend_from_slice(b"{\"file\":");
    string(out, file);
    out.extend_from_slice(b",\"game\":");
    number(out, index);
    out.extend_from_slice(b",\"game_id\":");
    match report.id {
        Some(id) => hex_id(out, id.0),
        None => out.extend_from_slice(b"null"),
    }
    if let Some(c) = report.content {
        out.extend_from_slice(b",\"content_id\":");
        hex_id(out, c.0);
    }
    out.extend_from_slice(b",\"offset\":");
    number(out, report.offset);
    out.extend_from_slice(b",\"line\":");
    number(out, report.line);
    out.extend_from_slice(b",\"kind\":\"");
    out.extend_from_slice(f.kind.name().as_bytes());
    out.extend_from_slice(b"\",\"article\":\"");
    out.extend_from_slice(f.kind.article(report.edition).as_bytes());
    out.extend_from_slice(b"\",\"ply\":");
    number(out, u64::from(f.ply));
    out.extend_from_slice(b",\"move_number\":");
    number(out, u64::from(f.at.move_number));
    out.extend_from_slice(b",\"side\":\"");
    out.extend_from_slice(side_name(f.side).as_bytes());
    out.push(b'"');
    if let Some(san) = &f.at.san {
        out.extend_from_slice(b",\"san\":");
        string(out, san);
    }
    out.extend_from_slice(b",\"fen\":");
    string(out, &f.at.fen);
    out.extend_from_slice(b",\"occurrences\":");
    number(out, u64::from(f.occurrences));
    // The JSONL order, which every kind's fields follow (an unwinnable
    // flag's winner before its proof).
    let d = DetailFields::of(&f.detail);
    let text = [("outcome", d.outcome), ("via", d.via)];
    for (name, value) in text.into_iter().filter_map(|(n, v)| v.map(|v| (n, v))) {
        key(out, name);
        string(out, value);
    }
    if let Some(mv) = d.mv {
        out.extend_from_slice(b",\"move\":");
        match mv {
            Some(mv) => string(out, mv),
            None => out.extend_from_slice(b"null"),
        }
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
        key(out, name);
        string(out, value);
    }
    let tags = report.tags.as_deref();
    for name in BASE_TAGS {
        key(out, name);
        match tags.and_then(|t| t.get(name)) {
            Some(v) => string(out, v),
            None => out.extend_from_slice(b"null"),
        }
    }
    for (name, value) in tags.iter().flat_map(|t| t.0.iter()) {
        if BASE_TAGS.contains(&name.as_str()) || FIELDS.contains(&name.as_str()) {
            continue;
        }
        out.push(b',');
        string(out, name);
        out.push(b':');
        string(out, value);
    }
    out.extend_from_slice(b",\"edition\":\"");
    out.extend_from_slice(report.edition.name().as_bytes());
    out.extend_from_slice(b"\",\"schema_version\":");
    number(out, u64::from(SCHEMA_VERSION));
    out.extend_from_slice(b"}\n");
}

/// `,"name":` for a name that needs no escape (the fields' own names).
fn key(out: &mut Vec<u8>, name: &str) {
    out.extend_from_slice(b",\"");
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(b"\":");
}

/// A JSON string, escaped as serde_json escapes it.
fn string(out: &mut Vec<u8>, v: &str) {
    serde_json::to_writer(&mut *out, v).expect("writing to a Vec");
}

/// A number in decimal.
fn number(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
}

/// A 128-bit id as a quoted string of 32 lowercase hex digits, as
/// `{:032x}` writes it.
fn hex_id(out: &mut Vec<u8>, v: u128) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = [b'"'; 34];
    for (i, d) in text[1..33].iter_mut().enumerate() {
        *d = DIGITS[(v >> (124 - 4 * i)) as usize & 0xf];
    }
    out.extend_from_slice(&text);
}

#[cfg(test)]
mod tests {
    use super::{hex_id, number};

    /// The numbers and ids as `{}` and `{:032x}` write them.
    #[test]
    fn numbers_and_ids_are_written_as_the_formatter_writes_them() {
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut values = vec![0, 1, 9, 10, 15, 16, 99, 100, u64::MAX];
        for _ in 0..1000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            values.push(seed >> (seed % 64));
        }
        for pair in values.windows(2) {
            let mut out = Vec::new();
            number(&mut out, pair[0]);
            assert_eq!(out, pair[0].to_string().into_bytes());
            let id = (u128::from(pair[0]) << 64) | u128::from(pair[1]);
            for id in [id, id >> 64, u128::MAX] {
                out.clear();
                hex_id(&mut out, id);
                assert_eq!(out, format!("\"{id:032x}\"").into_bytes());
            }
        }
    }
}
