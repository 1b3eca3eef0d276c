//! Duplicate games: the same game copied into two collections, or twice
//! into one, recognised as [`super::seen`] says (the site's own game id,
//! else the mainline with the date and the players' names as normalised;
//! `--duplicates exact`: the content id). With `--duplicates once` (the
//! default) the first occurrence in input order (file order, then game
//! order) counts in every statistic, standing and Art. 11 table; the later
//! ones are left out and listed: how many, per pair of files, those whose
//! recorded results differ first, each with the tags the two records write
//! otherwise. The findings (JSONL and the other per-finding outputs) list
//! every game as given.
//!
//! **Merging.** An aggregate carries, per input, each game it judged as
//! the duplicate finder compares it and as the statistics count it
//! ([`InputIds`], packed by [`super::packed`]), so a merge looks for the
//! repeats across aggregates exactly as one run over all the inputs would,
//! and counts the games again without them: merged parts give the
//! statistics of one run.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use std::io;
use std::path::PathBuf;

use super::fact::{Fact, RESULTS};
use super::packed::{base64, unbase64, unpacked, Packer, Unpacked};
use super::seen::{differences, unpack, Key, Looked, Table};
use super::shared::{Marks, SharedHashes};
use super::spool::{read_spool, read_spool_from, IdsWriter, Spooled};

pub use super::seen::ID_CAP;

/// Repeats listed as examples, of those whose results differ and of the
/// others.
pub const DUPLICATE_EXAMPLES: usize = 10;

/// The games that repeat an earlier one.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Duplicates {
    /// `once`: repeats are left out of the statistics; `all`: they count;
    /// `exact`: as `once`, a repeat being the same content id; `mixed`: a
    /// merge of two of these.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub mode: String,
    /// Games judged that repeat an earlier game.
    pub games: u64,
    /// Of those, whose recorded `Result` differs from the first's.
    pub results_differ: u64,
    /// Of those, left out of every statistic (all of them with `once` and
    /// `exact`, none with `all`).
    pub left_out: u64,
    /// Games judged but not looked for, beyond [`ID_CAP`] first
    /// occurrences.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub untracked: u64,
    /// The first occurrence's file → the repeat's file → counts.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub pairs: BTreeMap<String, BTreeMap<String, PairCounts>>,
    /// The first [`DUPLICATE_EXAMPLES`] repeats whose results differ, in
    /// input order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub results_differ_examples: Vec<DuplicateRow>,
    /// The first [`DUPLICATE_EXAMPLES`] other repeats, in input order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<DuplicateRow>,
    /// Per input, in input order, the games judged, for merging; empty
    /// where they are in a file beside the aggregate (`ids_beside`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ids: Vec<InputIds>,
    /// The games for merging are in the file beside the aggregate's JSON
    /// (`AGG.json.ids`, [`super::write_aggregate`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ids_beside: bool,
}

/// Repeats between two files.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairCounts {
    /// Games of the second file repeating one of the first.
    pub games: u64,
    /// Of those, with another recorded result.
    pub results_differ: u64,
}

/// A repeat and the game it repeats.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DuplicateRow {
    /// How the two were recognised as one game: `site_id` (the site's own
    /// game id), `moves` (the mainline with the date and players), or
    /// `content` (`--duplicates exact`).
    pub matched_by: String,
    /// The compared tags (`White`, `Black`, `Event`, `Site`, `Round`,
    /// `Date`) the two records write otherwise, even once normalised;
    /// `moves` where two records of one site id have other mainlines.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags_differ: Vec<String>,
    /// The compared tags spelt otherwise but equal once normalised
    /// (`Adams,Mi` and `Adams, Michael`; round `1` and `1.1`; a date and
    /// the same date with its day unknown).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spelling_differs: Vec<String>,
    /// The first occurrence.
    pub first: GameAt,
    /// The repeat.
    pub later: GameAt,
}

/// Where a game is, and its recorded result.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameAt {
    /// The input, as named.
    pub file: String,
    /// 1-based game number in its input.
    pub game: u64,
    /// The `Result` tag (`*` for anything but a result).
    pub result: String,
}

/// The games an input had judged, packed (per game: the game number's
/// step, the result and flags, the hashes of the mainline and of the
/// site's game id, the players' name keys, the date, the round and the
/// spelling of each compared tag, then its share of the counts), in base64
/// (standard alphabet, no padding) where the JSON holds them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputIds {
    /// The input, as named.
    pub file: String,
    /// The packed games (in base64 in JSON).
    #[serde(with = "in_base64")]
    pub games: Vec<u8>,
}

/// Bytes as base64 text in JSON.
mod in_base64 {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&super::base64(bytes))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Ok(super::unbase64(&text))
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The games judged, packed as they come, then, once all are in, looked
/// up in input order: the repeats found, and the table of first
/// occurrences. Only the games that share a mainline or a site id with
/// another ([`super::shared`]) go through the table, so its memory grows
/// with the copies, not with the games.
#[derive(Default)]
pub(super) struct Seen {
    table: Table,
    /// The inputs, as packed; then as looked up.
    files: Vec<String>,
    /// The current input's games, packed (not yet in base64), and how
    /// many were packed (some may be in the spool already).
    packed: Packer,
    input_games: u64,
    /// Where the packed games go while the run goes on, instead of
    /// [`Duplicates::ids`]; the first error writing them or their hashes.
    spool: Option<IdsWriter>,
    spool_error: Option<io::Error>,
    /// The spool is a temporary file, removed once read: no one reads the
    /// games for merging.
    temporary: Option<PathBuf>,
    /// The hashes of the games packed, to find those shared.
    shared: SharedHashes,
    /// While looking up: the games that share a hash, and the next game's
    /// ordinal.
    marks: Marks,
    ordinal: u64,
    dup: Duplicates,
}

/// Packed games go to the file beside the aggregate when this many are
/// waiting.
const SPOOL_BYTES: usize = 1 << 20;

impl Seen {
    /// Counts in `mode` (`once`, `all`, `exact`).
    pub(super) fn new(mode: &str) -> Seen {
        Seen {
            dup: Duplicates {
                mode: mode.into(),
                ..Duplicates::default()
            },
            ..Seen::default()
        }
    }

    /// The mode counted in.
    pub(super) fn mode(&self) -> &str {
        &self.dup.mode
    }

    /// Whether games are keyed by their content id alone.
    pub(super) fn exact(&self) -> bool {
        self.dup.mode == "exact"
    }

    /// The games packed go to `spool` as they come, not into
    /// [`Duplicates::ids`] (which says `ids_beside`).
    pub(super) fn spool_to(&mut self, spool: IdsWriter) {
        self.spool = Some(spool);
    }

    /// No one reads the games packed (no aggregate is written): they go
    /// to a temporary file `spool` at `path`, removed once they are
    /// counted.
    pub(super) fn spool_temporarily(&mut self, spool: IdsWriter, path: PathBuf) {
        self.spool = Some(spool);
        self.temporary = Some(path);
    }

    /// A new input starts.
    pub(super) fn begin_input(&mut self, file: &str) {
        self.end_input();
        self.files.push(file.to_string());
        self.packed = Packer::default();
        self.input_games = 0;
        if let Some(s) = &mut self.spool {
            if let Err(e) = s.begin_input(file) {
                self.spool_error.get_or_insert(e);
            }
        }
    }

    /// The packed games waiting, to the spool where there is one.
    fn spill(&mut self) {
        if let Some(s) = &mut self.spool {
            if self.spool_error.is_none() {
                if let Err(e) = s.write(&self.packed.bytes) {
                    self.spool_error = Some(e);
                }
            }
            self.packed.bytes.clear();
        }
    }

    /// The games of `file` from game `first` on follow: a new input, or
    /// the next part of the current one (`crate::parts`, numbered as in
    /// the whole file), whose games continue its entry.
    pub(super) fn begin_or_continue(&mut self, file: &str, first: u64) {
        // the input is still open: spooled, or not yet in `ids`
        let open = self.spool.is_some() || self.dup.ids.len() < self.files.len();
        let continues = open
            && self.files.last().is_some_and(|l| l == file)
            && self.input_games > 0
            && first > self.packed.last;
        if !continues {
            self.begin_input(file);
        }
    }

    /// The current input's games into [`Duplicates::ids`] (or the spool).
    fn end_input(&mut self) {
        if self.spool.is_some() {
            self.spill();
            return;
        }
        if self.dup.ids_beside {
            // all of them are in the file beside the aggregate
            return;
        }
        if let Some(file) = self.files.last() {
            if self.dup.ids.len() < self.files.len() {
                self.dup.ids.push(InputIds {
                    file: file.clone(),
                    games: std::mem::take(&mut self.packed.bytes),
                });
            }
        }
    }

    /// Game `game` (0-based) of the current input, of key `key` and fact
    /// `fact`, packed; it is looked up at the end ([`Seen::count_all`]).
    pub(super) fn game(&mut self, game: u64, key: Key, fact: &Fact<'_>) {
        self.input_games += 1;
        self.packed.push(game, &key, fact);
        self.spill_when_full();
        self.hashes(&key);
    }

    /// A game as an aggregate packed it, packed again.
    pub(super) fn game_packed(&mut self, g: &Unpacked<'_>) {
        self.input_games += 1;
        self.packed.push_packed(g.game, g.bytes);
        self.spill_when_full();
        self.hashes(&g.key);
    }

    /// The packed games waiting to the spool, once [`SPOOL_BYTES`] wait.
    fn spill_when_full(&mut self) {
        if self.packed.bytes.len() >= SPOOL_BYTES {
            self.spill();
        }
    }

    fn hashes(&mut self, key: &Key) {
        if let Err(e) = self.shared.add(key.mainline, key.id.site) {
            self.spool_error.get_or_insert(e);
        }
    }

    /// Once every game is packed: marks those that share a hash with
    /// another ([`super::shared`]); whether any does (if none, no game
    /// repeats another).
    pub(super) fn mark_shared(&mut self) -> io::Result<bool> {
        self.end_input();
        if let Some(e) = self.spool_error.take() {
            self.spool = None;
            return Err(e);
        }
        self.marks = std::mem::take(&mut self.shared).marks()?;
        Ok(self.marks.any())
    }

    /// After [`Seen::mark_shared`] found no game that could repeat
    /// another, and the games were counted as they came: the games packed
    /// are not read back; they stay in [`Duplicates::ids`], or in the
    /// file beside the aggregate (which then says `ids_beside`); a
    /// temporary file is removed.
    pub(super) fn close_unread(&mut self) -> io::Result<()> {
        self.marks = Marks::default();
        let Some(mut spool) = self.spool.take() else {
            return Ok(());
        };
        match self.temporary.take() {
            Some(t) => {
                drop(spool);
                // gone already on Unix ([`IdsWriter::create_temporary`])
                let _ = std::fs::remove_file(t);
            }
            None => {
                spool.finish()?;
                self.dup.ids_beside = true;
            }
        }
        Ok(())
    }

    /// After [`Seen::mark_shared`]: every game packed, looked up in input
    /// order and handed to `count` with whether it repeats an earlier one;
    /// `count` says whether it left it out of the statistics. The games
    /// stay in [`Duplicates::ids`], or in the file beside the aggregate
    /// (which then says `ids_beside`); a temporary file is removed.
    pub(super) fn count_all(
        &mut self,
        mut count: impl FnMut(&Fact<'_>, bool) -> bool,
    ) -> io::Result<()> {
        let spool = self.spool.take();
        self.files.clear();
        self.ordinal = 0;
        let mut one = |s: &mut Seen, g: &Unpacked<'_>| {
            let repeat = s.look_next(g.game, g.key);
            if count(&g.fact, repeat) {
                s.dup.left_out += 1;
            }
        };
        let Some(mut spool) = spool else {
            let ids = std::mem::take(&mut self.dup.ids);
            for input in &ids {
                self.files.push(input.file.clone());
                for g in unpacked(&input.games) {
                    one(self, &g);
                }
            }
            self.dup.ids = ids;
            return Ok(());
        };
        let path = spool.path().to_path_buf();
        let temporary = self.temporary.take();
        let beside = temporary.is_none();
        let mut visit = |s: Spooled<'_>| match s {
            Spooled::Input(name) => self.files.push(name.to_string()),
            Spooled::Game(g) => one(self, g),
        };
        let read = match temporary {
            Some(t) => {
                let read = spool
                    .into_reader()
                    .and_then(|file| read_spool_from(file, &path, &mut visit));
                // gone already on Unix ([`IdsWriter::create_temporary`])
                let _ = std::fs::remove_file(t);
                read
            }
            None => {
                spool.finish()?;
                drop(spool);
                read_spool(&path, &mut visit)
            }
        };
        self.dup.ids_beside = beside;
        self.marks = Marks::default();
        read
    }

    /// Whether the next game, `game` of key `key`, repeats an earlier one
    /// (a game sharing no hash with another repeats none).
    fn look_next(&mut self, game: u64, key: Key) -> bool {
        let ordinal = self.ordinal;
        self.ordinal += 1;
        self.marks.get(ordinal) && self.look(game, key)
    }

    /// Whether `key` was seen (a repeat, counted).
    fn look(&mut self, game: u64, key: Key) -> bool {
        let file = self.files.len().saturating_sub(1);
        let (at, first) = match self.table.look(file, game, key) {
            Looked::First => return false,
            Looked::Untracked => {
                self.dup.untracked += 1;
                return false;
            }
            Looked::Repeat { at, first } => (at, first),
        };
        let (first_file, first_result, first_game) = unpack(at);
        let exact = self.exact();
        let d = &mut self.dup;
        let differ = first_result != key.result;
        d.games += 1;
        let pair = d
            .pairs
            .entry(self.files[first_file].clone())
            .or_default()
            .entry(self.files[file].clone())
            .or_default();
        pair.games += 1;
        let list = if differ {
            d.results_differ += 1;
            pair.results_differ += 1;
            &mut d.results_differ_examples
        } else {
            &mut d.examples
        };
        if list.len() < DUPLICATE_EXAMPLES {
            let at = |file: &String, game: u64, result: u8| GameAt {
                file: file.clone(),
                game: game + 1,
                result: RESULTS[usize::from(result)].into(),
            };
            let (matched_by, tags_differ, spelling_differs) = differences(&first, &key, exact);
            list.push(DuplicateRow {
                matched_by,
                tags_differ,
                spelling_differs,
                first: at(&self.files[first_file], first_game, first_result),
                later: at(&self.files[file], game, key.result),
            });
        }
        true
    }

    /// The repeats, once [`Seen::count_all`] has looked the games up;
    /// what was found is handed over (the run is over).
    pub(super) fn duplicates(&mut self) -> Duplicates {
        std::mem::take(&mut self.dup)
    }
}

impl Duplicates {
    /// Numbers the games of `file` as in a whole of which they are the
    /// games after the first `games` and the lines after the first
    /// `lines` (a part's games, `crate::parts`): the repeats listed, and
    /// the games packed with their example rows and correction.
    pub fn shift_games(&mut self, file: &str, games: u64, lines: u64) {
        if games == 0 && lines == 0 {
            return;
        }
        let rows = self.results_differ_examples.iter_mut();
        for row in rows.chain(self.examples.iter_mut()) {
            for at in [&mut row.first, &mut row.later] {
                if at.file == file {
                    at.game += games;
                }
            }
        }
        for input in self.ids.iter_mut().filter(|i| i.file == file) {
            let mut packed = Packer::default();
            for mut g in unpacked(&input.games) {
                g.fact.shift(file, games, lines);
                packed.push(g.game + games, &g.key, &g.fact);
            }
            input.games = packed.bytes;
        }
    }

    /// Repeats still counted in the statistics.
    pub fn counted(&self) -> u64 {
        self.games.saturating_sub(self.left_out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identity::{Identity, NameKey};

    fn key(mainline: u64, result: u8) -> Key {
        Key {
            mainline,
            long: true,
            result,
            id: Identity::default(),
        }
    }

    #[test]
    fn packed_games_read_back() {
        for bytes in [&b""[..], b"a", b"ab", b"abc", b"abcd", &[0xff, 0, 0x80]] {
            assert_eq!(unbase64(&base64(bytes)), bytes);
        }
        let mut s = Seen::new("once");
        s.begin_input("a.pgn");
        let mut rich = key(u64::MAX, 3);
        rich.long = false;
        rich.id = Identity {
            site: 7,
            names: [
                NameKey {
                    surname: 9,
                    initial: b'm',
                },
                NameKey::default(),
            ],
            date: 12345,
            round: 3,
            spelt: [1, 2, 3, 4, 5, 6],
        };
        let plain = Fact::default();
        let fact = super::super::fact::tests::rich_fact();
        s.game(0, key(1, 1), &plain);
        s.game(300, rich, &fact);
        s.game(100_000, key(1, 2), &plain);
        let mut repeats = Vec::new();
        assert!(
            s.mark_shared().unwrap(),
            "games 0 and 100000 share a mainline"
        );
        s.count_all(|_, repeat| {
            repeats.push(repeat);
            repeat
        })
        .unwrap();
        assert_eq!(repeats, [false, false, true]);
        let d = s.duplicates();
        assert_eq!(d.left_out, 1);
        let back: Vec<_> = unpacked(&d.ids[0].games)
            .map(|g| (g.game, g.key, g.fact))
            .collect();
        assert_eq!(
            back,
            [
                (0, key(1, 1), plain.clone()),
                (300, rich, fact),
                (100_000, key(1, 2), plain)
            ]
        );
        assert_eq!((d.games, d.results_differ), (1, 1));
        let row = &d.results_differ_examples[0];
        assert_eq!((row.first.game, row.later.game), (1, 100_001));
        assert_eq!((&*row.first.result, &*row.later.result), ("1-0", "0-1"));
    }

    #[test]
    fn games_packed_again_in_a_merge_waited_in_memory_until_the_end() {
        // a merge packs each part's games again as they are read: they go
        // to the spool as they come, as the games of a run do, not into
        // memory for the whole merge
        let mut packer = Packer::default();
        let fact = super::super::fact::tests::rich_fact();
        for n in 0..20_000 {
            packer.push(n, &key(n + 1, 1), &fact);
        }
        assert!(packer.bytes.len() > 2 * SPOOL_BYTES, "more than fits");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("merged.ids");
        let mut s = Seen::new("once");
        s.spool_to(IdsWriter::create(&path).unwrap());
        s.begin_input("a.pgn");
        for g in unpacked(&packer.bytes) {
            s.game_packed(&g);
            assert!(s.packed.bytes.len() <= SPOOL_BYTES + g.bytes.len() + 10);
        }
        assert!(!s.mark_shared().unwrap(), "no mainline shared");
        s.close_unread().unwrap();
        let back = super::super::read_ids(&path).unwrap();
        assert_eq!(back[0].games, packer.bytes, "spooled as packed");
    }
}
