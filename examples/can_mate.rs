//! Asks whether each side can still checkmate in the positions given as
//! FEN arguments (Art. 6.9, 9.6), as `pgn-arbiter position` does:
//!
//! ```sh
//! cargo run --release --example can_mate -- "8/8/1k6/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1"
//! ```

use pgn_arbiter::positions::{read_position, san_line};
use pgn_arbiter::rules::unwinnable::{Analyzer, Answer, Budget};
use shakmaty::Color;

fn main() {
    let mut analyzer = Analyzer::new();
    for fen in std::env::args().skip(1) {
        let pos = match read_position(&fen) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{fen}: {e}");
                continue;
            }
        };
        println!("{fen}");
        for side in [Color::White, Color::Black] {
            let answer = match analyzer.can_mate(&pos, side, Budget::THOROUGH) {
                Answer::Winnable(line) => format!("can mate: {}", san_line(&pos, &line).join(" ")),
                Answer::Unwinnable(proof) => format!("cannot mate (proof: {})", proof.as_str()),
                Answer::Unknown => "unknown within the budget".to_string(),
            };
            println!("  {side:?}: {answer}");
        }
    }
}
