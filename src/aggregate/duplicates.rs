//! Duplicate games: the same game (one [`ContentId`]: players, date,
//! round, start position and mainline) copied into two collections, or
//! twice into one. With `--duplicates once` (the default) the first
//! occurrence in input order (file order, then game order) counts in every
//! statistic, standing and Art. 11 table; the later ones are left out and
//! listed: how many, per pair of files, those whose recorded results
//! differ apart. The findings (JSONL and the other per-finding outputs)
//! list every game as given.
//!
//! **Merging.** An aggregate carries, per input, the content id, game
//! number and recorded result of each game it judged ([`InputIds`], packed,
//! about 24 bytes of JSON a game), so a merge finds the repeats across
//! aggregates exactly and lists them as one run over all the inputs would.
//! What a merge cannot do is take such a repeat out of the statistics of
//! the aggregate that counted it: that would need each game's share of
//! every count. Those repeats stay counted, and the merged aggregate says
//! how many (`games - left_out`).

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

use serde::{Deserialize, Serialize};

use crate::audit::ContentId;

/// At most this many distinct content ids are kept (about 50 bytes each,
/// 1 GB in all): a game whose id is not among them once they are full is
/// not looked for, and counted in [`Duplicates::untracked`].
pub const ID_CAP: usize = 20_000_000;

/// Repeats listed as examples, of those whose results differ and of the
/// others.
pub const DUPLICATE_EXAMPLES: usize = 10;

/// The games that repeat an earlier one.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Duplicates {
    /// `once`: repeats are left out of the statistics; `all`: they count;
    /// `mixed`: a merge of both.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub mode: String,
    /// Games judged whose content id an earlier game had.
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
    /// Per input, in input order, the games judged, for merging.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ids: Vec<InputIds>,
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
    /// The shared [`ContentId`], as in the findings' `content_id`.
    pub content_id: String,
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

/// The games an input had judged: for each, in game order, the 0-based
/// game number's step from the previous one (LEB128), the content id
/// (16 bytes, little-endian) and the result (0 `*`, 1 `1-0`, 2 `0-1`,
/// 3 `1/2-1/2`), in
/// base64 (standard alphabet, no padding).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputIds {
    /// The input, as named.
    pub file: String,
    /// The packed games.
    pub games: String,
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

/// Hashes a content id (itself a hash) by folding its words.
#[derive(Default)]
struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(u64::from(*b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

/// A first occurrence, packed: file (20 bits), result (3), game (41).
type Packed = u64;
const GAME_BITS: u32 = 41;
const FILE_LIMIT: usize = 1 << 20;

fn pack(file: usize, result: u8, game: u64) -> Option<Packed> {
    (file < FILE_LIMIT && game < 1 << GAME_BITS)
        .then(|| (file as u64) << 44 | u64::from(result) << GAME_BITS | game)
}

fn unpack(p: Packed) -> (usize, u8, u64) {
    (
        (p >> 44) as usize,
        ((p >> GAME_BITS) & 7) as u8,
        p & ((1 << GAME_BITS) - 1),
    )
}

/// The repeats found so far: the first occurrence of each content id, and
/// the games of each input packed.
#[derive(Default)]
pub(super) struct Seen {
    first: HashMap<[u64; 2], Packed, BuildHasherDefault<IdHasher>>,
    files: Vec<String>,
    /// The current input's games, packed (not yet in base64).
    packed: Packer,
    dup: Duplicates,
}

impl Seen {
    /// Counts in `mode` (`once`, `all`).
    pub(super) fn new(mode: &str) -> Seen {
        Seen {
            dup: Duplicates {
                mode: mode.into(),
                ..Duplicates::default()
            },
            ..Seen::default()
        }
    }

    /// Resumes from an aggregate's repeats, to merge another's in.
    fn resume(dup: &Duplicates) -> Seen {
        let mut s = Seen {
            dup: dup.clone(),
            ..Seen::default()
        };
        for (f, input) in dup.ids.iter().enumerate() {
            s.files.push(input.file.clone());
            for (game, id, result) in unpacked(&input.games) {
                if s.first.len() < ID_CAP {
                    if let Some(p) = pack(f, result, game) {
                        s.first.entry(id).or_insert(p);
                    }
                }
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
                    games: base64(&self.packed.bytes),
                });
            }
        }
    }

    /// Game `game` (0-based) of the current input, of content `id`, scored
    /// `result` ([`result_code`]): whether it repeats an earlier game.
    pub(super) fn game(&mut self, game: u64, id: ContentId, result: u8) -> bool {
        let key = [id.0 as u64, (id.0 >> 64) as u64];
        let (repeat, kept) = self.look(game, key, result);
        if kept {
            self.packed.push(game, key, result);
        }
        repeat
    }

    /// Whether `key` was seen (a repeat, counted), and whether the game
    /// is kept (a repeat, or a first occurrence within [`ID_CAP`]).
    fn look(&mut self, game: u64, key: [u64; 2], result: u8) -> (bool, bool) {
        let file = self.files.len().saturating_sub(1);
        let Some(&first) = self.first.get(&key) else {
            match pack(file, result, game) {
                Some(p) if self.first.len() < ID_CAP => {
                    self.first.insert(key, p);
                    return (false, true);
                }
                _ => self.dup.untracked += 1,
            }
            return (false, false);
        };
        let (first_file, first_result, first_game) = unpack(first);
        let d = &mut self.dup;
        let differ = first_result != result;
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
            let id = u128::from(key[0]) | u128::from(key[1]) << 64;
            let at = |file: &String, game: u64, result: u8| GameAt {
                file: file.clone(),
                game: game + 1,
                result: RESULTS[usize::from(result)].into(),
            };
            list.push(DuplicateRow {
                content_id: ContentId(id).to_string(),
                first: at(&self.files[first_file], first_game, first_result),
                later: at(&self.files[file], game, result),
            });
        }
        (true, true)
    }

    /// A repeat left out of the statistics.
    pub(super) fn left_out(&mut self) {
        self.dup.left_out += 1;
    }

    /// The repeats, the current input's games included.
    pub(super) fn duplicates(&mut self) -> Duplicates {
        self.end_input();
        self.dup.clone()
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
            input.games = packed_text(unpacked(&input.games).map(|(g, id, r)| (g + by, id, r)));
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
    /// The games of the last entry of the ids, unpacked from base64 once
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
        for input in &other.ids {
            // The next part of the same file (`crate::parts`, numbered as
            // in the whole file): its games continue that file's entry.
            let first = unpacked(&input.games).next().map(|g| g.0);
            let continues = self.s.dup.ids.last().is_some_and(|l| l.file == input.file)
                && first.is_some_and(|first| {
                    let packed = &self.tail().packed;
                    !packed.bytes.is_empty() && first > packed.last
                });
            if !continues {
                self.s.files.push(input.file.clone());
            }
            for (game, id, result) in unpacked(&input.games) {
                self.s.look(game, id, result);
                if continues {
                    let tail = self.tail();
                    tail.packed.push(game, id, result);
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
        self.s.dup.mode = mode;
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
            for (game, id, result) in unpacked(ids.last().map_or("", |l| l.games.as_str())) {
                tail.packed.push(game, id, result);
            }
            tail
        })
    }

    /// Packs the last entry's games back into it.
    fn close_tail(&mut self) {
        if let (Some(tail), Some(last)) = (self.tail.take(), self.s.dup.ids.last_mut()) {
            if tail.grown {
                last.games = base64(&tail.packed.bytes);
            }
        }
    }
}

/// Games (0-based number, id, result), in order, packed as
/// [`InputIds::games`].
fn packed_text(games: impl Iterator<Item = (u64, [u64; 2], u8)>) -> String {
    let mut packed = Packer::default();
    for (game, id, result) in games {
        packed.push(game, id, result);
    }
    base64(&packed.bytes)
}

/// Games packed one after another as [`InputIds::games`] holds them (before
/// base64), with the last game number.
#[derive(Default)]
struct Packer {
    bytes: Vec<u8>,
    last: u64,
}

impl Packer {
    fn push(&mut self, game: u64, id: [u64; 2], result: u8) {
        // games come in order; a step back (a caller's) is kept as 0
        varint(&mut self.bytes, game.saturating_sub(self.last));
        self.last = self.last.max(game);
        self.bytes.extend_from_slice(&id[0].to_le_bytes());
        self.bytes.extend_from_slice(&id[1].to_le_bytes());
        self.bytes.push(result);
    }
}

/// Appends `n` as LEB128.
fn varint(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push(n as u8 | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// The games packed in `text` ([`InputIds::games`]): game number, id
/// (as two words), result. Stops at the first malformed one.
fn unpacked(text: &str) -> impl Iterator<Item = (u64, [u64; 2], u8)> {
    let bytes = unbase64(text);
    let mut at = 0;
    let mut game = 0u64;
    std::iter::from_fn(move || {
        let mut step = 0u64;
        let mut shift = 0;
        loop {
            let b = *bytes.get(at)?;
            at += 1;
            step |= u64::from(b & 0x7f).checked_shl(shift)?;
            shift += 7;
            if b < 0x80 {
                break;
            }
        }
        let id = bytes.get(at..at + 16)?;
        let result = *bytes.get(at + 16)?;
        at += 17;
        game = game.checked_add(step)?;
        let word = |w: &[u8]| u64::from_le_bytes(w.try_into().expect("8 bytes"));
        Some((game, [word(&id[..8]), word(&id[8..])], result.min(3)))
    })
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// `bytes` in base64, without padding.
fn base64(bytes: &[u8]) -> String {
    let mut out = Vec::with_capacity(bytes.len().div_ceil(3) * 4);
    let sextet = |n: u32, i: u32| B64[(n >> (18 - 6 * i) & 63) as usize];
    let mut chunks = bytes.chunks_exact(3);
    for c in &mut chunks {
        let n = u32::from(c[0]) << 16 | u32::from(c[1]) << 8 | u32::from(c[2]);
        out.extend_from_slice(&[sextet(n, 0), sextet(n, 1), sextet(n, 2), sextet(n, 3)]);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let n = rest
            .iter()
            .enumerate()
            .fold(0, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        out.extend((0..=rest.len() as u32).map(|i| sextet(n, i)));
    }
    String::from_utf8(out).expect("base64 is ASCII")
}

/// Each byte's value in base64, or 64 for a byte outside the alphabet.
const UNB64: [u8; 256] = {
    let mut t = [64u8; 256];
    let mut i = 0;
    while i < 64 {
        t[B64[i] as usize] = i as u8;
        i += 1;
    }
    t
};

/// Base64 back to bytes; characters outside the alphabet are skipped.
fn unbase64(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let (mut n, mut bits) = (0u32, 0);
    for c in text.bytes() {
        let v = UNB64[usize::from(c)];
        if v == 64 {
            continue;
        }
        n = n << 6 | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((n >> bits) as u8);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game: its number, id and result.
    type Game = (u64, u128, u8);

    /// The repeats of one run over `inputs` (file, games).
    fn run(inputs: &[(&str, &[Game])]) -> Duplicates {
        let mut s = Seen::new("once");
        for (file, games) in inputs {
            s.begin_input(file);
            for &(game, id, result) in *games {
                s.game(game, ContentId(id), result);
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
        let ids = [ContentId(1), ContentId(u128::MAX), ContentId(1)];
        assert!(!s.game(0, ids[0], 1));
        assert!(!s.game(300, ids[1], 3));
        assert!(s.game(100_000, ids[2], 2));
        let d = s.duplicates();
        let back: Vec<_> = unpacked(&d.ids[0].games).collect();
        assert_eq!(
            back,
            [
                (0, [1, 0], 1),
                (300, [u64::MAX, u64::MAX], 3),
                (100_000, [1, 0], 2)
            ]
        );
        assert_eq!((d.games, d.results_differ), (1, 1));
        let row = &d.results_differ_examples[0];
        assert_eq!((row.first.game, row.later.game), (1, 100_001));
        assert_eq!((&*row.first.result, &*row.later.result), ("1-0", "0-1"));
    }
}
