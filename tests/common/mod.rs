//! Helpers the integration tests share (each test binary uses a part).
#![allow(dead_code)]

use std::process::Command;

use serde_json::Value;

/// Audits one PGN text (one or more games) with extra options, asserting a
/// clean exit; returns the JSONL findings.
pub fn audit(pgn: &str, options: &[&str]) -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.pgn");
    std::fs::write(&path, pgn).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pgn-arbiter"))
        .args(["audit", "--quiet", "--jsonl", "-"])
        .args(options)
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The findings of `kind`.
pub fn of_kind<'a>(findings: &'a [Value], kind: &str) -> Vec<&'a Value> {
    findings.iter().filter(|f| f["kind"] == kind).collect()
}

/// The single finding of `kind`.
pub fn one<'a>(findings: &'a [Value], kind: &str) -> &'a Value {
    let found = of_kind(findings, kind);
    assert_eq!(found.len(), 1, "one {kind} expected in {findings:#?}");
    found[0]
}

/// Appends a zstd `frame` as pzstd writes it: after a skippable frame
/// (magic 0x184D2A50, length 4) that holds the frame's size.
pub fn push_pzstd_frame(out: &mut Vec<u8>, frame: &[u8]) {
    out.extend_from_slice(&0x184D_2A50u32.to_le_bytes());
    out.extend_from_slice(&4u32.to_le_bytes());
    out.extend_from_slice(&(frame.len() as u32).to_le_bytes());
    out.extend_from_slice(frame);
}
