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
//! **Merging.** An aggregate carries, per input, what the duplicate finder
//! compares of each game it judged ([`InputIds`], packed by
//! [`super::packed`]), so a merge finds the repeats across aggregates
//! exactly and lists them as one run over all the inputs would. What a
//! merge cannot do is take such a repeat out of the statistics of the
//! aggregate that counted it: that would need each game's share of every
//! count. Those repeats stay counted, and the merged aggregate says how
//! many (`games - left_out`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::packed::{base64, unbase64, unpacked, Packer};
use super::seen::{differences, unpack, Key, Looked, Table};

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
    /// Of those, left out of every statistic (all of them in one run with
    /// `once`; a merge leaves in those it found across aggregates).
    pub left_out: u64,
    /// Games judged but not looked for, beyond [`ID_CAP`] ids.
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
/// spelling of each compared tag), in base64 (standard alphabet, no
/// padding).
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

/// The recorded results, by code.
const RESULTS: [&str; 4] = ["*", "1-0", "0-1", "1/2-1/2"];

/// The code of a `Result` tag's value.
pub(super) fn result_code(tag: Option<&[u8]>) -> u8 {
    let v = tag.map(crate::parse::trim).unwrap_or_default();
    RESULTS.iter().position(|r| r.as_bytes() == v).unwrap_or(0) as u8
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
    dup: Duplicates,
}

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

    /// Whether games are keyed by their content id alone.
    pub(super) fn exact(&self) -> bool {
        self.dup.mode == "exact"
    }

    /// Resumes from an aggregate's repeats, to merge another's in.
    fn resume(dup: &Duplicates) -> Seen {
        let mut s = Seen {
            dup: dup.clone(),
            ..Seen::default()
        };
        for (f, input) in dup.ids.iter().enumerate() {
            s.files.push(input.file.clone());
            for (game, key) in unpacked(&input.games) {
                // its repeats within itself are counted in it already
                let _ = s.table.look(f, game, key);
            }
        }
        s
    }

    /// A new input starts.
    pub(super) fn begin_input(&mut self, file: &str) {
        self.end_input();
        self.files.push(file.to_string());
        self.packed = Packer::default();
    }

    /// The current input's games into [`Duplicates::ids`].
    fn end_input(&mut self) {
        if let Some(file) = self.files.last() {
            if self.dup.ids.len() < self.files.len() {
                self.dup.ids.push(InputIds {
                    file: file.clone(),
                    games: std::mem::take(&mut self.packed.bytes),
                });
            }
        }
    }

    /// Game `game` (0-based) of the current input, of key `key`: whether it
    /// repeats an earlier game.
    pub(super) fn game(&mut self, game: u64, key: Key) -> bool {
        let (repeat, kept) = self.look(game, key);
        if kept {
            self.packed.push(game, &key);
        }
        repeat
    }

    /// Whether `key` was seen (a repeat, counted), and whether the game
    /// is kept (a repeat, or a first occurrence within [`ID_CAP`]).
    fn look(&mut self, game: u64, key: Key) -> (bool, bool) {
        let file = self.files.len().saturating_sub(1);
        let (at, first) = match self.table.look(file, game, key) {
            Looked::First => return (false, true),
            Looked::Untracked => {
                self.dup.untracked += 1;
                return (false, false);
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
        (true, true)
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
}

impl Duplicates {
    /// Adds the repeats of an aggregate of later inputs: its games are
    /// looked for among the games of this one and its own, as one run over
    /// all the inputs would (its repeats within itself are found again, so
    /// its counts are not added); those found here stay in its statistics
    /// (they are not [`Duplicates::left_out`]).
    pub fn merge(&mut self, other: &Duplicates) {
        let mut merge = DuplicatesMerge::new(self);
        merge.add(other);
        *self = merge.finish();
    }

    /// Numbers the games of `file` as in a whole of which they are the
    /// games after the first `by` (a part's games, `crate::parts`).
    pub fn shift_games(&mut self, file: &str, by: u64) {
        if by == 0 {
            return;
        }
        let rows = self.results_differ_examples.iter_mut();
        for row in rows.chain(self.examples.iter_mut()) {
            for at in [&mut row.first, &mut row.later] {
                if at.file == file {
                    at.game += by;
                }
            }
        }
        for input in self.ids.iter_mut().filter(|i| i.file == file) {
            let mut packed = Packer::default();
            for (game, key) in unpacked(&input.games) {
                packed.push(game + by, &key);
            }
            input.games = packed.bytes;
        }
    }

    /// Repeats still counted in the statistics.
    pub fn counted(&self) -> u64 {
        self.games.saturating_sub(self.left_out)
    }
}

/// [`Duplicates::merge`] over many aggregates in order, in one pass: one
/// table of ids for all of them, and a file's packed games extended in
/// place while its parts follow one another. (Merging pairwise rebuilt the
/// table from every id so far and packed the file's games again at each
/// step: quadratic in the number of parts; 256 parts of the shared corpus
/// took longer to merge than to audit.)
pub struct DuplicatesMerge {
    s: Seen,
    /// The games of the last entry of the ids, unpacked once
    /// an input of the same file follows it.
    tail: Option<Tail>,
}

#[derive(Default)]
struct Tail {
    packed: Packer,
    /// Games were added: the entry is packed again when closed (else it
    /// is left as it came).
    grown: bool,
}

impl DuplicatesMerge {
    /// Starts from `first`'s repeats.
    pub fn new(first: &Duplicates) -> DuplicatesMerge {
        DuplicatesMerge {
            s: Seen::resume(first),
            tail: None,
        }
    }

    /// Adds the repeats of an aggregate of later inputs, as
    /// [`Duplicates::merge`] does.
    pub fn add(&mut self, other: &Duplicates) {
        let mode = match (self.s.dup.mode.as_str(), other.mode.as_str()) {
            ("", m) | (m, "") => m.to_string(),
            (a, b) if a == b => a.to_string(),
            _ => "mixed".to_string(),
        };
        self.s.dup.mode = mode;
        for input in &other.ids {
            // The next part of the same file (`crate::parts`, numbered as
            // in the whole file): its games continue that file's entry.
            let games = &input.games;
            let first = unpacked(games).next().map(|g| g.0);
            let continues = self.s.dup.ids.last().is_some_and(|l| l.file == input.file)
                && first.is_some_and(|first| {
                    let packed = &self.tail().packed;
                    !packed.bytes.is_empty() && first > packed.last
                });
            if !continues {
                self.s.files.push(input.file.clone());
            }
            for (game, key) in unpacked(games) {
                self.s.look(game, key);
                if continues {
                    let tail = self.tail();
                    tail.packed.push(game, &key);
                    tail.grown = true;
                }
            }
            if !continues {
                self.close_tail();
                self.s.dup.ids.push(input.clone());
            }
        }
        self.s.dup.left_out += other.left_out;
        self.s.dup.untracked += other.untracked;
    }

    /// The merged repeats.
    pub fn finish(mut self) -> Duplicates {
        self.close_tail();
        self.s.dup
    }

    /// The last entry's games, unpacked on first use.
    fn tail(&mut self) -> &mut Tail {
        let ids = &self.s.dup.ids;
        self.tail.get_or_insert_with(|| {
            let mut tail = Tail::default();
            let games = ids.last().map_or(&[][..], |l| l.games.as_slice());
            for (game, key) in unpacked(games) {
                tail.packed.push(game, &key);
            }
            tail
        })
    }

    /// Packs the last entry's games back into it.
    fn close_tail(&mut self) {
        if let (Some(tail), Some(last)) = (self.tail.take(), self.s.dup.ids.last_mut()) {
            if tail.grown {
                last.games = tail.packed.bytes;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identity::{Identity, NameKey};

    /// A game: its number, mainline and result.
    type Game = (u64, u64, u8);

    fn key(mainline: u64, result: u8) -> Key {
        Key {
            mainline,
            long: true,
            result,
            id: Identity::default(),
        }
    }

    /// The repeats of one run over `inputs` (file, games).
    fn run(inputs: &[(&str, &[Game])]) -> Duplicates {
        let mut s = Seen::new("once");
        for (file, games) in inputs {
            s.begin_input(file);
            for &(game, mainline, result) in *games {
                s.game(game, key(mainline, result));
            }
        }
        s.duplicates()
    }

    #[test]
    fn merging_many_in_one_pass_equals_merging_pairwise_and_one_run() {
        // a.pgn in three parts numbered as in the whole file, then b.pgn;
        // repeats within a part, across parts, across files
        let a1: &[Game] = &[(0, 1, 1), (1, 2, 3), (2, 1, 1)];
        let a2: &[Game] = &[(3, 3, 2), (4, 2, 1)];
        let a3: &[Game] = &[(5, 4, 3), (6, 3, 2), (7, 5, 0)];
        let b: &[Game] = &[(0, 5, 0), (1, 1, 2), (2, 6, 1)];
        let parts = [
            run(&[("a.pgn", a1)]),
            run(&[("a.pgn", a2)]),
            run(&[("a.pgn", a3)]),
            run(&[("b.pgn", b)]),
        ];
        let mut one_pass = DuplicatesMerge::new(&Duplicates::default());
        let mut pairwise = Duplicates::default();
        for p in &parts {
            one_pass.add(p);
            pairwise.merge(p);
        }
        let one_pass = one_pass.finish();
        assert_eq!(one_pass, pairwise);
        let whole = run(&[("a.pgn", &[a1, a2, a3].concat()), ("b.pgn", b)]);
        assert_eq!(one_pass.ids, whole.ids);
        assert_eq!(one_pass.ids.len(), 2, "the parts of a.pgn are one entry");
        assert_eq!(
            (one_pass.games, one_pass.results_differ, &one_pass.pairs),
            (whole.games, whole.results_differ, &whole.pairs)
        );
        assert_eq!(one_pass.examples, whole.examples);
        assert_eq!(
            one_pass.results_differ_examples,
            whole.results_differ_examples
        );
        assert_eq!((whole.games, whole.results_differ), (5, 2));
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
        assert!(!s.game(0, key(1, 1)));
        assert!(!s.game(300, rich));
        assert!(s.game(100_000, key(1, 2)));
        let d = s.duplicates();
        let back: Vec<_> = unpacked(&d.ids[0].games).collect();
        assert_eq!(back, [(0, key(1, 1)), (300, rich), (100_000, key(1, 2))]);
        assert_eq!((d.games, d.results_differ), (1, 1));
        let row = &d.results_differ_examples[0];
        assert_eq!((row.first.game, row.later.game), (1, 100_001));
        assert_eq!((&*row.first.result, &*row.later.result), ("1-0", "0-1"));
    }
}
