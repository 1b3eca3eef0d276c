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
//! model     the aggregate as JSON, its parts, and merging
//! collect   the Aggregator sink: what it counts per game
//! points    Art. 11 per event: standings as recorded and as the Laws give them, corrections
//! event     an event's identity (Event, Site, year) and its name for people
//! duplicates  games repeated: counted once, listed, merged
//! seen      the duplicate finder's table: what makes two records one game
//! packed    what an aggregate carries per game for merging
//! sidecar   those games in a binary file beside the JSON
//! ```

mod collect;
mod duplicates;
pub mod event;
mod model;
mod packed;
mod points;
mod seen;
mod sidecar;

pub use collect::Aggregator;
pub use duplicates::{
    DuplicateRow, Duplicates, DuplicatesMerge, GameAt, InputIds, PairCounts, DUPLICATE_EXAMPLES,
    ID_CAP,
};
pub use model::{
    merge_files, merge_texts, read_aggregate, Aggregate, AggregateMerge, Bucket, Correction,
    EventPoints, ExampleRow, Games, KindCounts, PlayerCounts, RunPart, AGGREGATE_VERSION,
    EVENT_PLAYER_CAP, EXAMPLES_PER_KIND, NAME_CAP, PLAYER_CAP, POINT_PAIR_CAP,
};
pub use sidecar::{ids_path, read_aggregate_file, read_ids, write_aggregate, write_ids};
