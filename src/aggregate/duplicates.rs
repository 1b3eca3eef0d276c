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

use super::fact::{Fact, RESULTS};
use super::packed::{base64, unbase64, unpacked, Packer, Unpacked};
use super::seen::{differences, unpack, Key, Looked, Table};
use super::sidecar::IdsWriter;

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

/// The repeats found so far: the table of first occurrences, and the
/// games of each input packed.
#[derive(Default)]
pub(super) struct Seen {
    table: Table,
    files: Vec<String>,
    /// The current input's games, packed (not yet in base64).
    packed: Packer,
    /// Where the packed games go while the run goes on, instead of
    /// [`Duplicates::ids`]; the first error writing them.
    spool: Option<IdsWriter>,
    spool_error: Option<std::io::Error>,
    /// No one reads the games packed (no aggregate is written): they are
    /// not kept.
    unpacked: bool,
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

    /// The games are not packed: no one reads them.
    pub(super) fn pack_nothing(&mut self) {
        self.unpacked = true;
    }

    /// A new input starts.
    pub(super) fn begin_input(&mut self, file: &str) {
        self.end_input();
        self.files.push(file.to_string());
        self.packed = Packer::default();
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
        let continues = self.files.last().is_some_and(|l| l == file)
            && self.dup.ids.len() < self.files.len()
            && !self.packed.bytes.is_empty()
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
    /// `fact`: whether it repeats an earlier game.
    pub(super) fn game(&mut self, game: u64, key: Key, fact: &Fact<'_>) -> bool {
        if !self.unpacked {
            self.packed.push(game, &key, fact);
            if self.packed.bytes.len() >= SPOOL_BYTES {
                self.spill();
            }
        }
        self.look(game, key)
    }

    /// A game as an aggregate packed it: whether it repeats an earlier
    /// game.
    pub(super) fn game_packed(&mut self, g: &Unpacked<'_>) -> bool {
        self.packed.push_packed(g.game, g.bytes);
        self.look(g.game, g.key)
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

    /// A repeat left out of the statistics.
    pub(super) fn left_out(&mut self) {
        self.dup.left_out += 1;
    }

    /// The repeats, the current input's games included; what was found
    /// is handed over (the run is over).
    pub(super) fn duplicates(&mut self) -> Duplicates {
        self.end_input();
        std::mem::take(&mut self.dup)
    }

    /// The run is over: the spool's games are all on disk (the aggregate
    /// then says `ids_beside`), or the first error writing them.
    pub(super) fn finish_spool(&mut self) -> std::io::Result<()> {
        self.end_input();
        let Some(mut s) = self.spool.take() else {
            return Ok(());
        };
        if let Some(e) = self.spool_error.take() {
            return Err(e);
        }
        s.finish()?;
        self.dup.ids_beside = true;
        Ok(())
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
        assert!(!s.game(0, key(1, 1), &plain));
        assert!(!s.game(300, rich, &fact));
        assert!(s.game(100_000, key(1, 2), &plain));
        let d = s.duplicates();
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
}
