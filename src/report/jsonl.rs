//! One JSON object per finding (SPEC "Reports"), in input order. Each line
//! is built whole before it is written, so no partial line is printed.

use std::io::{self, Write};

use crate::audit::GameReport;
use crate::finding::{side_name, Detail, Finding};
use crate::pipeline::Sink;

/// Writes findings as JSON Lines.
pub struct JsonlSink<W: Write> {
    out: W,
    line: Vec<u8>,
}

impl<W: Write> JsonlSink<W> {
    pub fn new(out: W) -> Self {
        JsonlSink {
            out,
            line: Vec::with_capacity(512),
        }
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

impl<W: Write> Sink for JsonlSink<W> {
    fn game(&mut self, file: &str, index: u64, report: &GameReport) -> io::Result<()> {
        for f in &report.findings {
            self.line.clear();
            write_line(&mut self.line, file, index, report, f);
            self.out.write_all(&self.line)?;
        }
        Ok(())
    }
}

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
    write!(
        out,
        ",\"game\":{index},\"offset\":{},\"kind\":\"{}\",\"article\":\"{}\",\"ply\":{},\"side\":\"{}\",\"occurrences\":{}",
        report.offset,
        f.kind.name(),
        f.kind.article(report.edition),
        f.ply,
        side_name(f.side),
        f.occurrences
    )
    .expect("writing to a Vec");
    match &f.detail {
        Detail::None => {}
        Detail::Missed { outcome, via } => {
            write!(
                out,
                ",\"outcome\":\"{}\",\"via\":\"{}\"",
                outcome.name(),
                via.name()
            )
            .expect("writing to a Vec");
        }
        Detail::Invalid { mv, reason } => {
            out.extend_from_slice(b",\"move\":");
            opt(out, mv.as_deref());
            out.extend_from_slice(b",\"reason\":");
            s(out, reason);
        }
        Detail::Dead { proof } => {
            write!(out, ",\"proof\":\"{}\"", proof.as_str()).expect("writing to a Vec");
        }
        Detail::Unwinnable { winner, proof } => {
            write!(
                out,
                ",\"winner\":\"{}\",\"proof\":\"{}\"",
                side_name(*winner),
                proof.as_str()
            )
            .expect("writing to a Vec");
        }
        Detail::WrongResult { reason } => {
            out.extend_from_slice(b",\"reason\":");
            s(out, reason);
        }
    }
    let tags = report.tags.as_deref();
    for (name, value) in [
        ("White", tags.and_then(|t| t.white.as_deref())),
        ("Black", tags.and_then(|t| t.black.as_deref())),
        ("Date", tags.and_then(|t| t.date.as_deref())),
        ("Result", tags.and_then(|t| t.result.as_deref())),
        ("Site", tags.and_then(|t| t.site.as_deref())),
    ] {
        write!(out, ",\"{name}\":").expect("writing to a Vec");
        opt(out, value);
    }
    writeln!(out, ",\"edition\":\"{}\"}}", report.edition).expect("writing to a Vec");
}
