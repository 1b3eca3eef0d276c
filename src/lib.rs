//! pgn-arbiter audits chess game databases against the FIDE Laws of Chess.
//!
//! The flow, one module per stage:
//!
//! ```text
//! input      open a file (mmap), a .zst or stdin (streamed; pzstd frames decoded in parallel)
//!   → pipeline   regions → chunks cut at game boundaries → rayon
//!   → split      bytes → games (tags + movetext), SPEC's splitting rules
//!   → parse      movetext → mainline moves (pgn-reader)
//!   → audit      replay (shakmaty; san: SAN → move) and apply every rule at every position
//!   → rules      one file per law: repetition, fifty, dead, result, laws
//!   → finding    what is reported
//!   → stats, report   JSON Lines, summary JSON, the human summary
//! ```
//!
//! The contract is SPEC.md: what each check decides and how it is reported.

pub mod audit;
pub mod cli;
pub mod diff;
pub mod finding;
pub mod gate;
pub mod input;
pub mod parse;
pub mod pipeline;
pub mod positions;
pub mod progress;
pub mod report;
pub mod rules;
pub mod run;
pub mod san;
pub mod split;
pub mod stats;

pub use audit::{DeadEffort, GameReport, Laws, TagSet};
pub use finding::{Finding, Kind};
pub use pipeline::{GameRecord, RunOutcome, Sink};
pub use run::Audit;
