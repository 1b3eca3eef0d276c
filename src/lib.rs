//! pgn-arbiter audits chess game databases against the FIDE Laws of Chess.
//!
//! The flow, one module per stage:
//!
//! ```text
//! input      open a file (mmap), a .zst or stdin (streamed; pzstd frames decoded in
//!            parallel), Parquet rows as games
//!   → pipeline   regions → chunks cut at game boundaries → rayon workers → input order
//!   → split      bytes → games (tags + movetext), SPEC's splitting rules
//!   → movetext, parse   movetext → mainline moves (a scanner; pgn-reader the reference)
//!   → audit      replay (shakmaty; san: SAN → move), calling each rule's hooks
//!   → rules      one file per Law: repetition (9.2, 9.6.1), fifty (9.3, 9.6.2),
//!                dead (9.6 / 5.2.2), result (5.1, 5.2.1, 11), flag (6.9);
//!                the unwinnability engine (unwinnable/, mobility, stalemate);
//!                site/: the sites' own rules, one rulebook file per site
//!   → finding    what is reported; kind: the kinds as data; laws: editions;
//!                site: the sites and their rules' names
//!   → sink       every game, in input order, to each output (the Sink lifecycle):
//!   → stats, aggregate, facets   counts that merge; the statistics report's model
//!   → report     JSON Lines, summary, human, HTML, GitHub, JUnit, SARIF, PGN export,
//!                Arrow/Parquet
//! gate, diff   --fail-on conditions; the diff of two findings files
//! example      a finding as people read it (the printers' and the report's examples)
//! positions    FEN read leniently, SAN lines; text: numbers and escapers (a leaf)
//! bytes        short byte searches (SSE2) for split and movetext (a leaf)
//! run          the `Audit` builder; error: the typed `Error`
//! watch        the live view: games followed as they are played, the audit's verdicts as events
//! ```
//!
//! The command line (clap, the progress bar, Ctrl-C, exit codes) is the
//! binary's (`src/cli/`, the `cli` feature); the library knows none of it.
//!
//! The rules it applies, in plain words with their articles, are in the
//! repository's `docs/RULES.md`; the developers' contract (`SPEC.md`, in
//! `../shared` beside the repository, not in a public clone) pins each
//! decision down.
//!
//! # Auditing a file
//!
//! An [`Audit`] is built once and run over paths (files, directories,
//! `-` for stdin), a reader or bytes; every game reaches a [`Sink`] in
//! input order, with its [`Finding`]s, whatever the number of threads.
//!
//! ```
//! use pgn_arbiter::{for_each_game, Audit, Kind};
//!
//! let mut claims_then_lost = 0;
//! let mut sink = for_each_game(|game| {
//!     for f in &game.report.findings {
//!         if f.kind == Kind::MissedThreefold && f.outcome() == Some(pgn_arbiter::finding::Outcome::Lost) {
//!             claims_then_lost += 1;
//!             // where it happened, without replaying the game
//!             println!("{} game {}: {} {}", game.file, game.index + 1, f.at.fen, f.at.san.as_deref().unwrap_or(""));
//!         }
//!     }
//! });
//! let run = Audit::new().threads(2).run(&["data/lichess-2000.pgn"], &mut sink, &())?;
//! assert_eq!(run.total.games, 2_000);
//! assert!(run.total.balanced()); // read = analysed + invalid + skipped
//! assert_eq!(claims_then_lost, 2);
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! # Counting by kind
//!
//! The run's [`stats::Stats`] count the games with each kind of finding;
//! they merge in any order (per file, per run, per machine).
//!
//! ```
//! use pgn_arbiter::{for_each_game, Audit, Kind, Laws};
//! use pgn_arbiter::laws::Edition;
//!
//! let pgn = b"[Result \"1/2-1/2\"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2\n";
//! let run = Audit::new()
//!     .laws(Laws::Fixed(Edition::Laws2018))
//!     .run_bytes("fools-mate.pgn", pgn, &mut for_each_game(|_| {}))?;
//! for kind in Kind::ALL {
//!     let games = run.total.kind_games[kind];
//!     if games > 0 {
//!         println!("{:<20} {games}", kind.name());
//!     }
//! }
//! // checkmate scored as a draw: Art. 5.1
//! assert_eq!(run.total.kind_games[Kind::WrongResult], 1);
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! # Asking about a position
//!
//! Can a side still checkmate by any series of legal moves (Art. 6.9,
//! 9.6)? The engine answers with a mating line, a proof, or `Unknown`
//! when its budget runs out; never a guess.
//!
//! ```
//! use pgn_arbiter::positions::read_position;
//! use pgn_arbiter::rules::unwinnable::{Analyzer, Answer, Budget, Proof};
//! use shakmaty::Color;
//!
//! // locked pawns, kings that can never cross them
//! let pos = read_position("8/8/1k6/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1").unwrap();
//! let mut analyzer = Analyzer::new();
//! assert_eq!(analyzer.can_mate(&pos, Color::White, Budget::QUICK), Answer::Unwinnable(Proof::Blocked));
//! // a queen up: a line to mate
//! let pos = read_position("4k3/8/4K3/8/8/8/8/7Q w - - 0 1").unwrap();
//! assert!(matches!(analyzer.can_mate(&pos, Color::White, Budget::QUICK), Answer::Winnable(_)));
//! ```

#![warn(missing_docs)]

pub mod aggregate;
pub mod audit;
pub(crate) mod bytes;
pub mod diff;
pub mod error;
pub mod example;
pub mod facets;
pub mod finding;
pub mod gate;
pub(crate) mod hashing;
pub mod identity;
pub mod input;
pub mod kind;
pub mod laws;
pub mod movetext;
pub mod parse;
pub mod parts;
pub mod pipeline;
pub mod positions;
pub mod record;
pub mod report;
pub mod rules;
pub mod run;
pub mod san;
pub mod sink;
pub mod site;
pub mod split;
pub mod stats;
pub mod text;
pub mod watch;

pub use audit::{GameReport, TagSet};
pub use error::Error;
pub use finding::{Finding, Kind};
pub use laws::Laws;
pub use pipeline::{for_each_game, GameRecord, InputOutcome, RunOutcome, Sink};
pub use rules::dead::DeadMode;
pub use run::Audit;
pub use site::{Site, SiteMode};
