//! Counts the games with each kind of finding in the files given, as the
//! summary does, with the library alone:
//!
//! ```sh
//! cargo run --release --example count_by_kind -- data/
//! ```

use pgn_arbiter::{for_each_game, Audit, Kind};

fn main() -> std::io::Result<()> {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        eprintln!("usage: count_by_kind PATH...");
        std::process::exit(2);
    }
    let run = Audit::new().run(&paths, &mut for_each_game(|_| {}), &())?;
    for input in &run.inputs {
        if let Some(e) = &input.error {
            eprintln!("{}: {e}", input.name);
        }
    }
    println!(
        "{} games read, {} analysed",
        run.total.games, run.total.analysed
    );
    for kind in Kind::ALL {
        println!("{:<20} {:>8}", kind.name(), run.total.kind_games[kind]);
    }
    Ok(())
}
