//! The merge of aggregates (`pgn-arbiter report AGG.json...`): the games
//! each aggregate carries beside it are counted again in input order,
//! repeats across aggregates left out, so the merge of the parts of an
//! archive equals the aggregate of one run over the whole.

use super::collect::Tally;
use super::model::{read_aggregate, Aggregate, Games, RunPart};
use super::packed::{unpacked, well_formed};

impl Aggregate {
    /// Adds `other`, an aggregate of later inputs, in: as
    /// [`AggregateMerge`] with the two.
    pub fn merge(&mut self, other: &Aggregate) -> Result<(), String> {
        let mut all = AggregateMerge::default();
        all.add(self)?;
        all.add(other)?;
        *self = all.finish()?;
        Ok(())
    }
}

/// Aggregates merged in order: their runs listed one after the other, the
/// games they read added up, and the games they judged (carried in
/// [`super::Duplicates::ids`]) counted again as one run over all their inputs
/// counts them, repeats across aggregates looked for and, but with
/// `--duplicates all`, left out.
#[derive(Default)]
pub struct AggregateMerge {
    run: Vec<RunPart>,
    games: Games,
    tally: Option<Tally>,
}

impl AggregateMerge {
    /// Adds the next aggregate. Refused: one counted with another
    /// `--duplicates` mode than the first, or whose games for merging do
    /// not read back.
    pub fn add(&mut self, other: &Aggregate) -> Result<(), String> {
        let mode = match other.duplicates.mode.as_str() {
            "" => "once",
            m => m,
        };
        let tally = self.tally.get_or_insert_with(|| Tally::new(mode));
        if tally.mode() != mode {
            return Err(format!(
                "an aggregate counted with --duplicates {mode} after one with --duplicates {}: merge aggregates of one mode",
                tally.mode()
            ));
        }
        for input in &other.duplicates.ids {
            if !well_formed(&input.games) {
                return Err(format!(
                    "{}: its games for merging do not read back (written by another version?)",
                    input.file
                ));
            }
            let mut games = unpacked(&input.games).peekable();
            let first = games.peek().map_or(0, |g| g.game);
            tally.begin_or_continue(&input.file, first);
            for g in games {
                tally.packed(&g);
            }
        }
        self.run.extend(other.run.iter().cloned());
        self.games.add(&other.games);
        Ok(())
    }

    /// The merged aggregate; an error where the temporary files of the
    /// duplicate finder could not be written ([`super::shared`]).
    pub fn finish(self) -> Result<Aggregate, String> {
        let mut tally = self.tally.unwrap_or_else(|| Tally::new("once"));
        tally
            .aggregate(self.run, Some(&self.games))
            .map_err(|e| e.to_string())
    }
}

/// Reads aggregate files (with their ids beside them) and merges them, in
/// order, one file in memory at a time.
pub fn merge_files(paths: &[String]) -> Result<Aggregate, String> {
    let mut all = AggregateMerge::default();
    for p in paths {
        all.add(&super::read_aggregate_file(p)?)
            .map_err(|e| format!("{p}: {e}"))?;
    }
    all.finish()
}

/// Merges aggregates given as JSON texts, each named for its errors, in
/// order (the merge behind the Python package's `merge_reports`).
pub fn merge_texts<'a>(
    parts: impl IntoIterator<Item = (&'a str, &'a [u8])>,
) -> Result<Aggregate, String> {
    let mut all = AggregateMerge::default();
    for (p, bytes) in parts {
        let a = read_aggregate(p, bytes)?;
        if a.duplicates.ids_beside {
            return Err(format!(
                "{p}: its games for merging are in the file beside the aggregate's (AGG.json.ids): read it by its path"
            ));
        }
        all.add(&a).map_err(|e| format!("{p}: {e}"))?;
    }
    all.finish()
}
