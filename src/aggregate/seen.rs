//! The duplicate finder's table: the first occurrence of every game judged,
//! looked up as a librarian would ([`crate::identity`]):
//!
//! 1. Two records that both carry the site's own game id are one game
//!    exactly when the ids are equal (chess.com's two `1. e4 d5` games of
//!    the same day, with different `Link`s, are two games).
//! 2. Otherwise two records are one game when they have the same start
//!    position and mainline (at least one move), dates that agree where
//!    both are known, rounds that agree (`1` and `1.1` do; `1.1` and `1.2`
//!    are two games, as an engine match's identical games are), and
//!    players whose names agree after normalising them; a mainline of [`LONG_PLIES`] or more needs no names (two
//!    different games do not share 40 half-moves and an end on the same
//!    day; a collection that renames `MagnusCarlsen` as `Carlsen,M` still
//!    holds a copy). Tags may otherwise differ: each repeat lists them.
//! 3. A record without moves is a repeat only by the site's id.
//!
//! With `--duplicates exact`, a game's key is its content id alone (the
//! same players, date, round, start position and moves, as written).

use crate::audit::GameReport;
use crate::identity::{dates_compatible, Identity, COMPARED_TAGS};

/// At most this many first occurrences are kept in the table: a game
/// beyond is not looked for, and counted in
/// [`super::Duplicates::untracked`]. Only the games that share a mainline
/// or a site id with another game go into the table
/// (`aggregate::shared`), so the cap bounds the memory that copies take
/// (an entry and its two indexes, 100 to 200 bytes), not the games a run
/// may hold: a month of unique games keeps none.
pub const ID_CAP: usize = 20_000_000;

/// A mainline at least this long identifies a game with its date alone.
pub const LONG_PLIES: u32 = 40;

/// A game as the table compares it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Key {
    /// XXH3 of the start position and mainline; 0: no moves.
    pub(super) mainline: u64,
    /// A mainline of [`LONG_PLIES`] or more.
    pub(super) long: bool,
    /// The recorded result ([`super::fact::result_code`]).
    pub(super) result: u8,
    /// The tags compared.
    pub(super) id: Identity,
}

impl Key {
    /// The key of a judged game scored `result`, by the librarian's
    /// rules, or by its content id alone (`exact`); a game without a
    /// content id (none is judged without) repeats none.
    pub(super) fn of(r: &GameReport, result: u8, exact: bool) -> Key {
        let Some(content) = r.content else {
            return Key {
                result,
                ..Key::default()
            };
        };
        let mut id = r.facets.identity;
        if exact {
            // the content id already holds the players, date and round
            id.site = 0;
            id.names = Default::default();
            id.date = 0;
            let folded = (content.0 as u64) ^ (content.0 >> 64) as u64;
            return Key {
                mainline: folded.max(1),
                long: true,
                result,
                id,
            };
        }
        Key {
            mainline: r.mainline.unwrap_or(0),
            long: r.plies >= LONG_PLIES,
            result,
            id,
        }
    }

    /// Whether `self`, an earlier game with the same mainline, is the game
    /// `later` is (rule 2 of the module's).
    fn same_game_by_moves(&self, later: &Key) -> bool {
        if self.id.site != 0 && later.id.site != 0 {
            return false;
        }
        let names = || {
            self.id.names[0].compatible(later.id.names[0])
                && self.id.names[1].compatible(later.id.names[1])
        };
        dates_compatible(self.id.date, later.id.date)
            && self.id.rounds_compatible(&later.id)
            && (self.long || names())
    }
}

/// How a repeat was recognised, and which tags the two records write
/// otherwise: `(matched_by, tags_differ, spelling_differs)`.
pub(super) fn differences(
    first: &Key,
    later: &Key,
    exact: bool,
) -> (String, Vec<String>, Vec<String>) {
    let matched_by = if exact {
        "content"
    } else if first.id.site != 0 && first.id.site == later.id.site {
        "site_id"
    } else {
        "moves"
    };
    let (mut differ, mut spelling) = (Vec::new(), Vec::new());
    for (i, name) in COMPARED_TAGS.iter().enumerate() {
        if first.id.spelt[i] == later.id.spelt[i] {
            continue;
        }
        let alike = match *name {
            "White" | "Black" => {
                let (a, b) = (first.id.names[i], later.id.names[i]);
                a.surname != 0 && a.compatible(b) && b.surname != 0
            }
            "Round" => first.id.round != 0 && first.id.rounds_compatible(&later.id),
            "Date" => dates_compatible(first.id.date, later.id.date) && first.id.date != 0,
            _ => false,
        };
        if alike && !exact {
            spelling.push(name.to_string());
        } else {
            differ.push(name.to_string());
        }
    }
    if first.mainline != later.mainline {
        differ.push("moves".into());
    }
    (matched_by.into(), differ, spelling)
}

type Map<V> = crate::hashing::Table<u64, V>;

/// No entry.
const NONE: u32 = u32::MAX;

/// A first occurrence: its key, where it is ([`pack`]), and the next
/// earlier first occurrence of the same mainline.
struct Entry {
    key: Key,
    at: Packed,
    next: u32,
}

/// The first occurrences, by site id and by mainline (two chains per
/// mainline: records without a site id, then with one, so that a record
/// with a site id, which can only repeat one without, walks the first
/// alone).
#[derive(Default)]
pub(super) struct Table {
    entries: Vec<Entry>,
    by_site: Map<u32>,
    by_moves: Map<[u32; 2]>,
}

impl Table {
    /// The earliest first occurrence that `k` repeats.
    fn find(&self, k: &Key) -> Option<&Entry> {
        if k.id.site != 0 {
            if let Some(&i) = self.by_site.get(&k.id.site) {
                return Some(&self.entries[i as usize]);
            }
        }
        if k.mainline == 0 {
            return None;
        }
        let heads = self.by_moves.get(&k.mainline)?;
        let chains = if k.id.site == 0 { 2 } else { 1 };
        let mut found = None;
        for &head in &heads[..chains] {
            let mut i = head;
            while i != NONE {
                let e = &self.entries[i as usize];
                // the chains run from the newest: the last match is the earliest
                if e.key.same_game_by_moves(k) && found.is_none_or(|f: &Entry| e.at < f.at) {
                    found = Some(e);
                }
                i = e.next;
            }
        }
        found
    }

    /// Keeps `k` as a first occurrence at `at`; false beyond [`ID_CAP`].
    fn insert(&mut self, k: Key, at: Packed) -> bool {
        if self.entries.len() >= ID_CAP {
            return false;
        }
        let i = self.entries.len() as u32;
        let mut next = NONE;
        if k.id.site != 0 {
            self.by_site.entry(k.id.site).or_insert(i);
        }
        if k.mainline != 0 {
            let heads = self.by_moves.entry(k.mainline).or_insert([NONE; 2]);
            let chain = usize::from(k.id.site != 0);
            next = heads[chain];
            heads[chain] = i;
        }
        self.entries.push(Entry { key: k, at, next });
        true
    }
}

/// A first occurrence, packed: file (20 bits), result (3), game (41);
/// ordered as the input.
pub(super) type Packed = u64;
const GAME_BITS: u32 = 41;
const FILE_LIMIT: usize = 1 << 20;

pub(super) fn pack(file: usize, result: u8, game: u64) -> Option<Packed> {
    (file < FILE_LIMIT && game < 1 << GAME_BITS)
        .then(|| (file as u64) << 44 | u64::from(result) << GAME_BITS | game)
}

pub(super) fn unpack(p: Packed) -> (usize, u8, u64) {
    (
        (p >> 44) as usize,
        ((p >> GAME_BITS) & 7) as u8,
        p & ((1 << GAME_BITS) - 1),
    )
}

/// What [`Table::look`] found.
pub(super) enum Looked {
    /// A repeat of the first occurrence at `at`, of key `first`.
    Repeat { at: Packed, first: Key },
    /// A first occurrence, kept.
    First,
    /// A first occurrence beyond [`ID_CAP`], not kept.
    Untracked,
}

impl Table {
    /// Looks `k` (game `game` of file `file`) up, and keeps it when it is
    /// a first occurrence.
    pub(super) fn look(&mut self, file: usize, game: u64, k: Key) -> Looked {
        if let Some(e) = self.find(&k) {
            return Looked::Repeat {
                at: e.at,
                first: e.key,
            };
        }
        if k.id.site == 0 && k.mainline == 0 {
            // nothing can repeat it: no moves, no site id
            return Looked::First;
        }
        match pack(file, k.result, game) {
            Some(p) if self.insert(k, p) => Looked::First,
            _ => Looked::Untracked,
        }
    }
}
