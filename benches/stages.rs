//! Per-stage benchmarks on the bundled sample (data/): boundary search,
//! splitting, movetext reading (the scanner, and pgn-reader beside it), SAN
//! resolution and play (shakmaty), the full audit of every game, JSON
//! output, and decoding a pzstd file by 1, 2 and 4 threads.
//!
//!   cargo bench --bench stages
//!
//! Each bench processes the whole sample (4,000 games, 2.7 MB); divan
//! reports the time per pass, from which bytes/s and games/s follow.

use std::cell::Cell;
use std::io::{Read, Write};
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use divan::{black_box, Bencher};
use pgn_arbiter::audit::Auditor;
use pgn_arbiter::input::{self, InputPath, Source};
use pgn_arbiter::parse::{Mainline, MovetextReader};
use pgn_arbiter::report::jsonl::write_line;
use pgn_arbiter::split::{next_boundary, RawGame, Splitter};
use pgn_arbiter::Laws;
use shakmaty::{Chess, Position};

fn main() {
    divan::main();
}

fn sample() -> Vec<u8> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/data/");
    let mut bytes = std::fs::read(format!("{dir}lichess-2000.pgn")).expect("sample");
    let zst = std::fs::read(format!("{dir}twic-2000.pgn.zst")).expect("sample");
    bytes.extend(zstd::decode_all(&zst[..]).expect("zstd"));
    bytes
}

fn games(bytes: &[u8]) -> Vec<RawGame<'_>> {
    Splitter::new(bytes).collect()
}

#[divan::bench]
fn boundary_search(b: Bencher) {
    let bytes = sample();
    b.bench(|| {
        let mut n = 0;
        let mut at = 0;
        while let Some(x) = next_boundary(&bytes, at) {
            n += 1;
            at = x + 1;
        }
        black_box(n)
    });
}

#[divan::bench]
fn split_games(b: Bencher) {
    let bytes = sample();
    b.bench(|| black_box(Splitter::new(&bytes).count()));
}

#[divan::bench]
fn read_movetext(b: Bencher) {
    read_every_movetext(b, false);
}

/// The same with pgn-reader itself (the definition the scanner follows).
#[divan::bench]
fn read_movetext_pgn_reader(b: Bencher) {
    read_every_movetext(b, true);
}

fn read_every_movetext(b: Bencher, with_pgn_reader: bool) {
    let bytes = sample();
    let games = games(&bytes);
    b.bench(|| {
        let next = Cell::new(&[][..]);
        let mut reader = MovetextReader::new(&next);
        let mut line = Mainline::default();
        let mut sans = 0;
        for g in &games {
            if with_pgn_reader {
                reader.read_with_pgn_reader(g.movetext, &mut line);
            } else {
                reader.read(g.movetext, &mut line);
            }
            sans += line.sans.len();
        }
        black_box(sans)
    });
}

#[divan::bench]
fn san_to_move_and_play(b: Bencher) {
    let bytes = sample();
    let games = games(&bytes);
    let lines: Vec<Mainline> = games
        .iter()
        .map(|g| {
            let mut m = Mainline::default();
            m.read(g.movetext);
            m
        })
        .collect();
    b.bench(|| {
        let mut plies = 0;
        for line in &lines {
            let mut pos = Chess::default();
            for san in &line.sans {
                match san.san.to_move(&pos) {
                    Ok(m) => {
                        pos.play_unchecked(m);
                        plies += 1;
                    }
                    Err(_) => break,
                }
            }
        }
        black_box(plies)
    });
}

#[divan::bench]
fn audit_every_game(b: Bencher) {
    let bytes = sample();
    let games = games(&bytes);
    b.bench(|| {
        let mut auditor = Auditor::new();
        let mut findings = 0;
        for g in &games {
            findings += auditor.audit(g, Laws::Auto).findings.len();
        }
        black_box(findings)
    });
}

#[divan::bench]
fn json_output(b: Bencher) {
    let bytes = sample();
    let games = games(&bytes);
    let mut auditor = Auditor::new();
    let reports: Vec<_> = games.iter().map(|g| auditor.audit(g, Laws::Auto)).collect();
    b.bench(|| {
        let mut out = Vec::with_capacity(1 << 16);
        for (i, r) in reports.iter().enumerate() {
            for f in &r.findings {
                write_line(&mut out, "data/sample.pgn", i as u64, r, f);
            }
        }
        black_box(out.len())
    });
}

/// The sample as pzstd writes it, in frames of 256 KiB (pzstd's are 8 MiB
/// or more; the sample is small), read to its end: the decoding ceiling.
#[divan::bench(args = [1, 2, 4])]
fn decode_pzstd(b: Bencher, decoders: usize) {
    let bytes = sample();
    let mut file = tempfile::NamedTempFile::new().expect("temp file");
    for piece in bytes.chunks(256 << 10) {
        let frame = zstd::bulk::compress(piece, 3).expect("zstd");
        file.write_all(&0x184D_2A50u32.to_le_bytes())
            .expect("write");
        file.write_all(&4u32.to_le_bytes()).expect("write");
        file.write_all(&(frame.len() as u32).to_le_bytes())
            .expect("write");
        file.write_all(&frame).expect("write");
    }
    let path = InputPath::File(file.path().to_path_buf());
    let mut buf = vec![0u8; 1 << 20];
    b.bench_local(|| {
        let Ok(Source::Stream(mut r)) = input::open(&path, Arc::new(AtomicU64::new(0)), decoders)
        else {
            panic!("a stream")
        };
        let mut n = 0;
        while let Ok(k @ 1..) = r.read(&mut buf) {
            n += k;
        }
        assert_eq!(n, bytes.len());
    });
}
