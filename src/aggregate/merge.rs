//! The merge of aggregates (`pgn-arbiter report AGG.json...`): the games
//! each aggregate carries beside it are counted again in input order,
//! repeats across aggregates left out, so the merge of the parts of an
//! archive equals the aggregate of one run over the whole.

use std::io;
use std::path::{Path, PathBuf};

use super::collect::Tally;
use super::fact::GameShift;
use super::model::{read_aggregate, Aggregate, Games, RunPart};
use super::packed::{unpacked, well_formed};
use super::spool::{read_spool, IdsWriter, Spooled};

impl Aggregate {
    /// Numbers the games of input `s.file` as `s` says: its examples,
    /// corrections, repeats listed and games for merging carried in it (a
    /// part's, numbered as in its whole file: `crate::parts`).
    pub fn shift_games(&mut self, s: GameShift<'_>) {
        for row in self.examples.values_mut().flatten() {
            if row.file == s.file {
                row.game += s.games;
                row.line += s.lines;
            }
        }
        for points in self.points.values_mut() {
            for c in points.corrections.iter_mut().filter(|c| c.file == s.file) {
                c.game += s.games;
            }
        }
        self.duplicates.shift_games(s.file, s.games, s.lines);
    }

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
    /// Where the merged games go as they come, and whether that is a
    /// temporary file (its path), removed once counted.
    spool: Option<(IdsWriter, Option<PathBuf>)>,
}

impl AggregateMerge {
    /// The merged aggregate's games for merging go, as the parts are
    /// added, to the file beside the aggregate `json` that the merge will
    /// write (a regular file: [`super::write_aggregate`] then keeps them
    /// there), not into memory. Not where `json` is one of `inputs` (its
    /// games are read while the merge goes on).
    pub fn spooled_beside(mut self, json: &str, inputs: &[String]) -> io::Result<AggregateMerge> {
        let regular = json != "-" && std::fs::metadata(json).is_ok_and(|m| m.is_file());
        // the output is one of the inputs: its games are being read
        let out = std::fs::canonicalize(json).ok();
        let same = |p: &String| out.is_some() && std::fs::canonicalize(p).ok() == out;
        if regular && !inputs.iter().any(same) {
            let writer = IdsWriter::create(&super::ids_path(Path::new(json)))
                .map_err(|e| super::collect::beside(json, e))?;
            self.spool = Some((writer, None));
        }
        Ok(self)
    }

    /// No one reads the merged aggregate's games for merging (only its
    /// HTML page is written): they go to a temporary file, removed once
    /// counted.
    pub fn with_ids_unread(mut self) -> io::Result<AggregateMerge> {
        let path = super::collect::temporary_path();
        self.spool = Some((IdsWriter::create_temporary(&path)?, Some(path)));
        Ok(self)
    }

    fn tally(&mut self, mode: &str) -> &mut Tally {
        let spool = &mut self.spool;
        self.tally.get_or_insert_with(|| {
            let mut t = Tally::new(mode);
            match spool.take() {
                Some((w, Some(temporary))) => t.seen.spool_temporarily(w, temporary),
                Some((w, None)) => t.seen.spool_to(w),
                None => {}
            }
            t
        })
    }

    /// The tally for `other`'s games; refused where `other` was counted
    /// with another `--duplicates` mode than the aggregates before it.
    fn tally_for(&mut self, other: &Aggregate) -> Result<&mut Tally, String> {
        let mode = match other.duplicates.mode.as_str() {
            "" => "once",
            m => m,
        };
        let tally = self.tally(mode);
        if tally.mode() != mode {
            return Err(format!(
                "an aggregate counted with --duplicates {mode} after one with --duplicates {}: merge aggregates of one mode",
                tally.mode()
            ));
        }
        Ok(tally)
    }

    /// Adds the next aggregate, its games for merging carried in it
    /// ([`super::Duplicates::ids`]). Refused: one counted with another
    /// `--duplicates` mode than the first, or whose games for merging do
    /// not read back.
    pub fn add(&mut self, other: &Aggregate) -> Result<(), String> {
        let tally = self.tally_for(other)?;
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
                tally.packed(&g, None);
            }
        }
        self.ended(other);
        Ok(())
    }

    /// Adds the aggregate in the file `path`. Its games for merging, where
    /// they are beside it ([`super::ids_path`]), are read as they are
    /// counted, a few megabytes at a time: merging the aggregate of a
    /// month holds its JSON in memory, not its games. `shift` renumbers
    /// the aggregate and its games as they are read (a part's,
    /// `crate::parts`).
    pub fn add_file(&mut self, path: &str, shift: Option<GameShift<'_>>) -> Result<(), String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        let mut a = read_aggregate(path, &bytes)?;
        drop(bytes);
        // a shift by nothing (a first part) leaves the games packed as they are
        let shift = shift.filter(|s| s.games != 0 || s.lines != 0);
        if let Some(s) = shift {
            a.shift_games(s);
        }
        if !a.duplicates.ids_beside {
            return self.add(&a).map_err(|e| format!("{path}: {e}"));
        }
        let tally = self.tally_for(&a).map_err(|e| format!("{path}: {e}"))?;
        // an input is begun at its first game, whose number it starts from
        let mut pending: Option<String> = None;
        let mut moved: Option<GameShift<'_>> = None;
        read_spool(&super::ids_path(Path::new(path)), |s| match s {
            Spooled::Input(file) => {
                if let Some(f) = pending.take() {
                    tally.begin_or_continue(&f, 0);
                }
                moved = shift.filter(|s| s.file == file);
                pending = Some(file.to_string());
            }
            Spooled::Game(g) => {
                if let Some(f) = pending.take() {
                    tally.begin_or_continue(&f, g.game + moved.map_or(0, |s| s.games));
                }
                tally.packed(g, moved);
            }
        })
        .map_err(|e| e.to_string())?;
        if let Some(f) = pending.take() {
            tally.begin_or_continue(&f, 0);
        }
        self.ended(&a);
        Ok(())
    }

    /// `other`'s runs and the games it read, once its games are counted.
    fn ended(&mut self, other: &Aggregate) {
        self.run.extend(other.run.iter().cloned());
        self.games.add(&other.games);
    }

    /// The merged aggregate; an error where the temporary files of the
    /// duplicate finder could not be written (`aggregate::shared`).
    pub fn finish(mut self) -> Result<Aggregate, String> {
        self.tally("once");
        let mut tally = self.tally.expect("made");
        tally
            .aggregate(self.run, Some(&self.games))
            .map_err(|e| e.to_string())
    }
}

/// Reads aggregate files and merges them, in order, one aggregate in
/// memory at a time, the games beside each read as they are counted
/// ([`AggregateMerge::add_file`]).
pub fn merge_files(paths: &[String]) -> Result<Aggregate, String> {
    merge_files_into(AggregateMerge::default(), paths)
}

/// [`merge_files`] into `all` (spooled: [`AggregateMerge::spooled_beside`]).
pub fn merge_files_into(mut all: AggregateMerge, paths: &[String]) -> Result<Aggregate, String> {
    for p in paths {
        all.add_file(p, None)?;
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
