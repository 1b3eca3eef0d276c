//! FEN reading and the unwinnability engine on arbitrary text: no panic,
//! and a mating line it gives replays to a mate.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgn_arbiter::positions::read_position;
use pgn_arbiter::rules::unwinnable::{Analyzer, Answer, Budget};
use shakmaty::{Color, Position};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(pos) = read_position(text) else {
        return;
    };
    let mut analyzer = Analyzer::new();
    for side in [Color::White, Color::Black] {
        let budget = Budget {
            forced_depth: 2,
            search_nodes: 2_000,
            reach_positions: 2_000,
        };
        if let Answer::Winnable(line) = analyzer.can_mate(&pos, side, budget) {
            let mut p = pos.clone();
            for m in line {
                assert!(p.is_legal(m), "the mating line is legal");
                p.play_unchecked(m);
            }
            assert!(p.is_checkmate() && p.turn() != side, "the line ends in mate");
        }
    }
});
