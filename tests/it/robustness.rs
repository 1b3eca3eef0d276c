//! Mangled input: real games with bytes inserted, deleted and flipped,
//! stray braces, blank lines and `[` lines, truncation. For each input the
//! library must not panic, must account for every game, and the chunked,
//! parallel pipeline must give exactly what one sequential pass gives (the
//! wrong-cut repair of `pipeline`). A deterministic generator, so a failure
//! names the seed that shows it.

use std::io;

use pgn_arbiter::audit::{GameId, GameReport, TagSet};
use pgn_arbiter::input::{InputPath, NamedInput};
use pgn_arbiter::pipeline::{Config, GameRecord, Pipeline, Sink};
use pgn_arbiter::DeadMode;
use pgn_arbiter::Laws;
use pgn_arbiter::SiteMode;

use crate::util;

struct Collect(Vec<(u64, GameReport)>);

impl Sink for Collect {
    fn game(&mut self, game: &GameRecord<'_>) -> io::Result<()> {
        assert_eq!(game.text.len() as u64, game.report.len, "the game's text");
        self.0.push((game.index, game.report.clone()));
        Ok(())
    }
}

/// A small, fixed pseudo-random generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const PIECES: &[&[u8]] = &[
    b"{",
    b"}",
    b"\n\n",
    b"\n\n[",
    b"[Event \"x\"]\n",
    b"\n[Site \"y\"]\n\n",
    b"(",
    b")",
    b";",
    b"\n%",
    b"\r\n",
    b"\0",
    b"\xff\xfe",
    b"1-0",
    b"*",
    b" -- ",
    b"O-O",
    b"e8=Q",
    b"\n\n1. e4 ",
];

fn mangle(base: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut v = base.to_vec();
    for _ in 0..1 + rng.below(12) {
        let at = rng.below(v.len() + 1);
        match rng.below(4) {
            0 => {
                let piece = PIECES[rng.below(PIECES.len())];
                v.splice(at..at, piece.iter().copied());
            }
            1 => {
                let end = (at + rng.below(40)).min(v.len());
                v.drain(at..end);
            }
            2 => {
                if at < v.len() {
                    v[at] = rng.next() as u8;
                }
            }
            _ => v.truncate(at),
        }
    }
    v
}

/// `input` as pzstd writes it: frames (here cut at random places, 1 to 4
/// of them) each preceded by a skippable frame holding its size.
fn pzstd(input: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut cuts: Vec<usize> = (0..1 + rng.below(3))
        .map(|_| rng.below(input.len() + 1))
        .collect();
    cuts.sort();
    cuts.push(input.len());
    let mut out = Vec::new();
    let mut from = 0;
    for to in cuts {
        let frame = zstd::encode_all(&input[from..to], 1).unwrap();
        util::push_pzstd_frame(&mut out, &frame);
        from = to;
    }
    out
}

fn run(path: &std::path::Path, cfg: Config) -> Vec<(u64, GameReport)> {
    let pipeline = Pipeline::new(cfg).unwrap();
    let input = NamedInput {
        name: "t".into(),
        path: InputPath::File(path.to_path_buf()),
    };
    let mut sink = Collect(Vec::new());
    let outcome = pipeline.run(&input, &mut sink, &()).unwrap();
    assert!(outcome.stats.balanced(), "accounting");
    assert_eq!(outcome.stats.games as usize, sink.0.len());
    sink.0
}

/// Every field of every report, and the game indices (`GameReport:
/// PartialEq`: a field added later is compared too).
fn same(a: &[(u64, GameReport)], b: &[(u64, GameReport)]) -> bool {
    a == b
}

#[test]
fn mangled_games_never_panic_and_chunking_equals_a_sequential_pass() {
    let sample = std::fs::read(util::root().join("data/lichess-2000.pgn")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let sequential = Config {
        laws: Laws::Auto,
        dead: DeadMode::Quick,
        threads: 1,
        chunk_size: usize::MAX / 4,
        region_size: usize::MAX / 4,
        tags: TagSet::All,
        facets: true,
        site: SiteMode::Auto,
        interrupt: None,
    };
    for seed in 0..2000u64 {
        let mut rng = Rng(seed);
        // a slice of a few games from somewhere in the sample
        let start = rng.below(sample.len() - 20_000);
        let base = &sample[start..start + 2_000 + rng.below(15_000)];
        let input = mangle(base, &mut rng);
        let path = dir.path().join("m.pgn");
        std::fs::write(&path, &input).unwrap();
        let reference = run(&path, sequential.clone());
        // lines and fingerprints, counted here from the bytes themselves
        // (as read: a file whose first 64 KiB hold a CR and no LF has old
        // Mac line ends, read as LFs)
        let head = &input[..input.len().min(1 << 16)];
        let input: Vec<u8> = if !head.contains(&b'\n') && head.contains(&b'\r') {
            input
                .iter()
                .map(|&b| if b == b'\r' { b'\n' } else { b })
                .collect()
        } else {
            input
        };
        let bom = if input.starts_with(b"\xef\xbb\xbf") {
            3
        } else {
            0
        };
        for (_, r) in &reference {
            let at = r.offset as usize;
            let line = 1 + input[bom..at].iter().filter(|&&b| b == b'\n').count() as u64;
            assert_eq!(r.line, line, "seed {seed}: line of the game at byte {at}");
            let text = &input[at..at + r.len as usize];
            if !r.findings.is_empty() {
                assert_eq!(
                    r.id,
                    Some(GameId::of(text)),
                    "seed {seed}: game_id at byte {at}"
                );
            }
        }
        // the same bytes as a stream, read in regions (a wrong cut can then
        // fall between two regions)
        let zst = dir.path().join("m.pgn.zst");
        std::fs::write(&zst, zstd::encode_all(&input[..], 1).unwrap()).unwrap();
        // and in frames decoded by several threads
        let pz = dir.path().join("p.pgn.zst");
        std::fs::write(&pz, pzstd(&input, &mut rng)).unwrap();
        for (file, chunk, region) in [
            (&path, 64, 512),
            (&path, 300, 4096),
            (&path, 1 << 20, 1 << 22),
            (&zst, 64, 256),
            (&zst, 300, 1000),
            (&zst, 1 << 20, 1 << 22),
            (&pz, 64, 256),
            (&pz, 1 << 20, 1 << 22),
        ] {
            let cfg = Config {
                laws: Laws::Auto,
                dead: DeadMode::Quick,
                threads: 2,
                chunk_size: chunk,
                region_size: region,
                tags: TagSet::All,
                facets: true,
                site: SiteMode::Auto,
                interrupt: None,
            };
            let got = run(file, cfg);
            assert!(
                same(&reference, &got),
                "seed {seed}: {} chunk {chunk} region {region} differs from the sequential pass",
                file.display()
            );
        }
    }
}

/// Found by the `audit_bytes` fuzz target: a game whose tag line starts
/// with blanks and opens a comment after its tag (`    [Variant "x"] 1. e4
/// {...`). A cut after it was found wrong and the game split again, but
/// from its `[`, without the blanks, and the line then read as one whole
/// tag with no comment: 23 games at tiny chunks against 22 in one pass.
/// Games are split again from the start of their line now.
#[test]
fn a_game_split_again_keeps_the_blanks_before_its_first_tag() {
    use pgn_arbiter::pipeline::for_each_game;
    use pgn_arbiter::Audit;
    let data =
        std::fs::read(util::root().join("tests/fixtures/fuzz-tag-line-with-leading-blanks.pgn"))
            .unwrap();
    let games = |chunk: usize, region: usize, threads: usize| {
        let mut v = Vec::new();
        let mut sink = for_each_game(|g| v.push((g.report.offset, g.report.len, g.index)));
        Audit::new()
            .dead(DeadMode::Material)
            .threads(threads)
            .sizes(chunk, region)
            .run_bytes("fuzz.pgn", &data, &mut sink)
            .unwrap();
        v
    };
    let one = games(1 << 30, 1 << 30, 1);
    assert_eq!(one.len(), 22);
    for (chunk, region) in [(7, 64), (1, 32), (64, 64), (200, 4096)] {
        assert_eq!(
            games(chunk, region, 2),
            one,
            "chunks of {chunk}, regions of {region}"
        );
    }
}

/// Found by the `split` fuzz target: a game of movetext alone whose first
/// line starts with blanks began its text at the first non-blank byte and
/// its movetext at the line's start, before the game. Both start at the
/// first non-blank byte now.
#[test]
fn a_game_of_movetext_alone_after_blanks_has_its_movetext_inside_its_text() {
    use pgn_arbiter::split::Splitter;
    let buf = b"\n  \t1. e4 e5 *\n\n";
    let games: Vec<_> = Splitter::new(buf).collect();
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(g.offset, 4);
    assert_eq!(g.text, b"1. e4 e5 *\n");
    assert_eq!(g.movetext, b"1. e4 e5 *\n");
    let at = |s: &[u8]| s.as_ptr() as usize - buf.as_ptr() as usize;
    assert_eq!(at(g.movetext), at(g.text));
}
