//! The mainline scanner (`movetext::scan`) must read every movetext as
//! pgn-reader 0.29 does (the SPEC's definition of a move token): the same
//! moves, the same last result token, the same stop on an unterminated
//! comment. Compared game by game on the bundled sample, on the whole shared
//! corpus and every edge-case file, and on movetexts mangled at random with
//! the bytes that steer pgn-reader. The shared corpus is needed for the
//! second test (see `util::Needs`).

use std::path::Path;

use crate::util::{self, Needs};

use pgn_arbiter::movetext::scan;
use pgn_arbiter::parse::{Mainline, MovetextMap};
use pgn_arbiter::split::Splitter;
use shakmaty::san::San;

#[derive(Default, Debug)]
struct Compared {
    games: u64,
    moves: u64,
    /// movetexts opening with a tag, which the scanner leaves to pgn-reader
    left: u64,
}

fn compare(movetext: &[u8], what: &dyn Fn() -> String, n: &mut Compared) {
    let mut want = Mainline::default();
    want.read_with_pgn_reader(movetext);
    let mut got = Mainline::default();
    if scan(movetext, &mut got) {
        assert_eq!(
            got,
            want,
            "{}: {:?}",
            what(),
            String::from_utf8_lossy(movetext)
        );
        // the export's map: the same moves, each ending where a token ends
        let map = MovetextMap::read(movetext);
        let sans: Vec<_> = map.moves.iter().map(|(_, s)| *s).collect();
        assert_eq!(sans, want.sans, "{} (map)", what());
        assert_eq!(
            map.result.is_some(),
            want.result_token.is_some(),
            "{}",
            what()
        );
        // (castling with zeros is taken whatever follows, as pgn-reader does)
        for (end, _) in map
            .moves
            .iter()
            .filter(|(_, s)| !matches!(s.san, San::Castle(_)))
        {
            assert!(
                movetext
                    .get(*end)
                    .is_none_or(|b| b" \t\n\r{}()!?$;.*".contains(b)),
                "{}: a move ends at {end}",
                what()
            );
        }
    } else {
        n.left += 1;
    }
    n.games += 1;
    n.moves += want.sans.len() as u64;
}

fn compare_file(name: &str, bytes: &[u8], n: &mut Compared) {
    for (i, game) in Splitter::new(bytes).enumerate() {
        compare(game.movetext, &|| format!("{name} game {i}"), n);
        // the whole game's text too: tags first, which pgn-reader reads
        compare(game.text, &|| format!("{name} game {i} (text)"), n);
    }
}

fn read(path: &Path) -> Vec<u8> {
    let bytes = std::fs::read(path).unwrap();
    if path.extension().is_some_and(|e| e == "zst") {
        zstd::decode_all(&bytes[..]).unwrap()
    } else {
        bytes
    }
}

fn sample() -> Vec<(String, Vec<u8>)> {
    let root = util::root().join("data");
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&root).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(".pgn") || name.ends_with(".pgn.zst") {
            files.push((name, read(&path)));
        }
    }
    files.sort();
    files
}

#[test]
fn the_scanner_reads_the_bundled_sample_as_pgn_reader() {
    let mut n = Compared::default();
    for (name, bytes) in sample() {
        compare_file(&name, &bytes, &mut n);
    }
    eprintln!("{n:?}");
    assert!(n.games > 4_000 && n.moves > 200_000, "{n:?}");
}

#[test]
fn the_scanner_reads_the_shared_corpus_and_edge_files_as_pgn_reader() {
    if !Needs::test().shared("data").met() {
        return;
    }
    let data = util::shared().join("data");
    let mut paths = Vec::new();
    for dir in [data.clone(), data.join("edge")] {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                paths.push(path);
            }
        }
    }
    paths.sort();
    let mut n = Compared::default();
    for path in &paths {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !(name.ends_with(".pgn") || name.ends_with(".pgn.zst")) {
            continue;
        }
        compare_file(&name, &read(path), &mut n);
    }
    eprintln!("{} files: {n:?}", paths.len());
    assert!(n.games > 790_000, "{n:?}");
}

/// Bytes that steer pgn-reader's movetext reading.
const STEERING: &[&[u8]] = &[
    b"{",
    b"}",
    b"(",
    b")",
    b"[",
    b"]",
    b"%",
    b";",
    b"\n",
    b"\r",
    b"\n\n",
    b"\r\n",
    b" ",
    b"-",
    "–".as_bytes(),
    "—".as_bytes(),
    "½".as_bytes(),
    b"\xc2",
    b"\xef\xbb\xbf",
    b"0",
    b"1",
    b"/",
    b"2",
    b"1/2",
    b"0-",
    b"1-",
    b"$",
    b"!",
    b"?",
    b".",
    b"*",
    b"+",
    b"#",
    b"=",
    b"x",
    b"O",
    b"O-O",
    b"0-0",
    b"-0",
    b"N",
    b"P",
    b"Z0",
    b"--",
    b"@",
    b"e",
    b"8",
    b"\n[Event \"x\"]\n",
    b"\n%",
    b"\t",
];

#[test]
fn mangled_movetexts_are_read_as_pgn_reader_reads_them() {
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        // xorshift64*
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    let files = sample();
    let movetexts: Vec<&[u8]> = files
        .iter()
        .flat_map(|(_, b)| Splitter::new(b).map(|g| g.movetext).collect::<Vec<_>>())
        .filter(|m| !m.is_empty())
        .collect();
    let mut n = Compared::default();
    let mut t = Vec::new();
    for round in 0..30_000u64 {
        let base = movetexts[(next() % movetexts.len() as u64) as usize];
        // a window of the game, so that the mangling lands near its ends too
        let from = (next() % base.len() as u64) as usize;
        let len = (next() % 400) as usize;
        t.clear();
        t.extend_from_slice(&base[from..(from + len).min(base.len())]);
        for _ in 0..1 + next() % 6 {
            let at = (next() % (t.len() as u64 + 1)) as usize;
            match next() % 4 {
                0 | 1 => {
                    let s = STEERING[(next() % STEERING.len() as u64) as usize];
                    t.splice(at..at, s.iter().copied());
                }
                2 if at < t.len() => {
                    let end = (at + 1 + (next() % 4) as usize).min(t.len());
                    t.drain(at..end);
                }
                _ => {
                    let b = next() as u8;
                    t.insert(at, b);
                }
            }
        }
        compare(&t, &|| format!("round {round}"), &mut n);
    }
    eprintln!("{n:?}");
    assert_eq!(n.games, 30_000);
}
