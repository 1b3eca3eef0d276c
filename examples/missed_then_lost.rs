//! Lists the draws a player could have claimed (Art. 9.2, 9.3) before
//! losing the game: where, with the position and the move to announce.
//!
//! ```sh
//! cargo run --release --example missed_then_lost -- data/
//! ```

use pgn_arbiter::finding::{Outcome, Spot};
use pgn_arbiter::{for_each_game, Audit};

fn main() -> std::io::Result<()> {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    let mut found = 0;
    let mut sink = for_each_game(|game| {
        for f in &game.report.findings {
            if f.outcome() != Some(Outcome::Lost) {
                continue;
            }
            found += 1;
            let Spot { fen, san, .. } = &f.at;
            let how = match san {
                Some(san) => format!("by announcing {}", f.at.move_text(f.side, san)),
                None => "on the board".to_string(),
            };
            println!(
                "{} game {} (line {}): {} {how}\n    {fen}",
                game.file,
                game.index + 1,
                game.report.line,
                f.kind.name(),
            );
        }
    });
    Audit::new().run(&paths, &mut sink, &())?;
    println!("{found} claims missed, then lost");
    Ok(())
}
