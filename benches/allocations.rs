//! Heap allocations per game and per move, counted by a counting global
//! allocator: in the hot loop of one worker (split, read movetext, audit,
//! as `pipeline::worker::audit_piece` does it) and over a whole run (`Audit`, one
//! thread, findings to a sink that keeps nothing).
//!
//!   cargo bench --bench allocations -- FILE.pgn...
//!
//! Plain files only. Without arguments it reads the sample in data/. The
//! hot loop should allocate for the findings it makes and little else: the
//! tag vectors, the mainline and the repetition table are reused.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

use pgn_arbiter::audit::Auditor;
use pgn_arbiter::parse::MovetextReader;
use pgn_arbiter::pipeline::for_each_game;
use pgn_arbiter::run::Audit;
use pgn_arbiter::split::Splitter;
use pgn_arbiter::DeadMode;
use pgn_arbiter::Laws;

struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn count() -> u64 {
    ALLOCATIONS.load(Ordering::Relaxed)
}

fn main() {
    let mut paths: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    if paths.is_empty() {
        paths.push(concat!(env!("CARGO_MANIFEST_DIR"), "/data/lichess-2000.pgn").to_string());
    }
    println!(
        "{:<40} {:>8} {:>9} {:>9} {:>12} {:>12} {:>14} {:>12}",
        "file",
        "games",
        "moves",
        "findings",
        "loop/game",
        "loop/move",
        "no-finding/game",
        "run/game"
    );
    for path in paths {
        let bytes = std::fs::read(&path).expect("a readable plain PGN file");

        // the hot loop of one worker
        let mut auditor = Auditor::with_effort(DeadMode::default());
        let next = Cell::new(&[][..]);
        let mut reader = MovetextReader::new(&next);
        let mut splitter = Splitter::new(&bytes);
        let (mut games, mut moves, mut findings) = (0u64, 0u64, 0u64);
        // games without findings, and what they allocated
        let (mut quiet, mut quiet_allocs) = (0u64, 0u64);
        let before = count();
        while let Some(game) = splitter.next() {
            let at = count();
            let report = auditor.audit_with(&game, Laws::Auto, &mut reader);
            games += 1;
            moves += u64::from(report.plies);
            findings += report.findings.len() as u64;
            if report.findings.is_empty() {
                quiet += 1;
                quiet_allocs += count() - at;
            }
            drop(report);
            splitter.recycle(game);
        }
        let in_loop = count() - before;

        // a whole run, one thread
        let before = count();
        let mut sink = for_each_game(|_| {});
        Audit::new()
            .threads(1)
            .run_bytes(&path, &bytes, &mut sink)
            .expect("the run");
        let in_run = count() - before;

        let name = std::path::Path::new(&path)
            .file_name()
            .map_or(path.clone(), |n| n.to_string_lossy().into_owned());
        println!(
            "{:<40} {:>8} {:>9} {:>9} {:>12.3} {:>12.5} {:>14.4} {:>12.3}",
            name,
            games,
            moves,
            findings,
            in_loop as f64 / games.max(1) as f64,
            in_loop as f64 / moves.max(1) as f64,
            quiet_allocs as f64 / quiet.max(1) as f64,
            in_run as f64 / games.max(1) as f64,
        );
    }
}
