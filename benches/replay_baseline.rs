//! The bare replay baseline: pgn-reader + shakmaty, parse every SAN and play
//! every move, nothing else (no splitting rules, no hashing, no rules). The
//! full audit is measured against it (scripts/bench.sh).
//!
//!   cargo bench --bench replay_baseline -- FILE.pgn...
//!
//! Plain files only (memory-mapped), one thread. Without arguments it reads
//! the sample in data/. Prints games, plies, seconds and MB/s per file.

use std::ops::ControlFlow;
use std::time::Instant;

use pgn_reader::{Reader, SanPlus, Visitor};
use shakmaty::{Chess, Position};

struct Replay {
    plies: u64,
    games: u64,
}

impl Visitor for Replay {
    type Tags = ();
    type Movetext = Chess;
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(Chess::default())
    }

    fn san(&mut self, pos: &mut Chess, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        match san_plus.san.to_move(pos) {
            Ok(m) => {
                pos.play_unchecked(m);
                self.plies += 1;
                ControlFlow::Continue(())
            }
            // an illegal move ends the game's replay; keep reading tokens
            Err(_) => ControlFlow::Continue(()),
        }
    }

    fn end_game(&mut self, _pos: Chess) -> Self::Output {
        self.games += 1;
    }
}

fn main() {
    let mut paths: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if paths.is_empty() {
        paths.push(concat!(env!("CARGO_MANIFEST_DIR"), "/data/lichess-2000.pgn").to_string());
    }
    for path in paths {
        let file = std::fs::File::open(&path).expect("open");
        // SAFETY: read-only map of a file nobody truncates during the bench.
        let map = unsafe { memmap2::Mmap::map(&file).expect("mmap") };
        let start = Instant::now();
        let mut visitor = Replay { plies: 0, games: 0 };
        let mut reader = Reader::new(&map[..]);
        reader.visit_all_games(&mut visitor).expect("read");
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{path}: {} games, {} plies, {secs:.3} s, {:.1} MB/s, {:.0} games/s (replay baseline, 1 thread)",
            visitor.games,
            visitor.plies,
            map.len() as f64 / 1e6 / secs,
            visitor.games as f64 / secs
        );
    }
}
