//! The statistics report's aggregates: counts and breakdowns computed in
//! the audit's pass (`audit --report-json FILE`), that merge in any order
//! (`pgn-arbiter report AGG.json... --json FILE`), so an archive can be cut
//! into parts audited on other machines and the merged report equals the
//! report of one run over the whole.
//!
//! Everything that depends on how the work was split (inputs, version,
//! threads, seconds) is under the key `run`; every other key of the merged
//! JSON equals that of one run (sorted keys; zero counts are left out).
//!
//! One concern a file:
//!
//! ```text
//! model     the aggregate as JSON and its parts
//! merge     aggregates merged: their games counted again, as one run
//! collect   the Aggregator sink: what it counts per game
//! rows      what a person reads: examples and corrections
//! points    Art. 11 per event: standings as recorded and as the Laws give them, corrections
//! event     an event's identity (Event, Site, year) and its name for people
//! duplicates  games repeated: counted once, listed, merged
//! seen      the duplicate finder's table: what makes two records one game
//! fact      a game's share of every count, to count it again in a merge
//! packed    what an aggregate carries per game for merging
//! shared    which games share a mainline or site id: the finder's table holds only those
//! sidecar   those games in a binary file beside the JSON
//! spool     that file written as the run goes on, and read back in bounded memory
//! ```

mod collect;
mod duplicates;
pub mod event;
mod fact;
mod merge;
mod model;
mod packed;
mod points;
mod rows;
mod seen;
mod shared;
mod sidecar;
mod spool;

pub use collect::Aggregator;
pub use duplicates::{
    DuplicateRow, Duplicates, GameAt, InputIds, PairCounts, DUPLICATE_EXAMPLES, ID_CAP,
};
pub use fact::GameShift;
pub use merge::{merge_files, merge_files_into, merge_texts, AggregateMerge};
pub use model::{
    read_aggregate, Aggregate, Bucket, Correction, EventPoints, ExampleRow, Games, KindCounts,
    PlayerCounts, RunPart, AGGREGATE_VERSION, EVENT_PLAYER_CAP, EXAMPLES_PER_KIND,
};
pub use sidecar::{ids_path, read_aggregate_file, read_ids, write_aggregate, write_ids};
