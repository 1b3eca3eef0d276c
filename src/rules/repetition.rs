//! Art. 9.2 (threefold, claimed) and Art. 9.6.1 (fivefold, automatic).
//!
//! > 9.2 The game is drawn, upon a correct claim by the player having the
//! > move, when the same position [...] (a) is about to appear, if he first
//! > writes his move [...] and declares to the arbiter his intention to make
//! > this move, or (b) has just appeared.
//!
//! Positions are the same when the same player is to move, the same pieces
//! stand on the same squares, the castling rights are the same and the
//! en-passant capture (counted only when legal) is the same (shakmaty's
//! `Chess` equality, python-chess's transposition key).
//!
//! The table holds one *segment*: the positions since the last irreversible
//! move, that is a capture or pawn move, a change of castling rights, or a
//! move played from a position with a legal e.p. capture. No position before
//! that move can equal one after it (the men, the pawns' advance or the
//! castling rights differ, or the e.p. capture does), so counting within the
//! segment is counting over the whole game. Inside a segment the castling
//! rights are fixed, only its first position can have a legal e.p. capture,
//! and every move is a quiet move of a piece (no pawn, no capture): so two
//! positions two plies apart are the same exactly when their boards are, and
//! a Zobrist key taken relative to the segment's first position is updated
//! with three XORs per move. Keys only find candidates; every repetition is
//! confirmed by comparing the boards, so a collision cannot change a verdict.

use shakmaty::{attacks, Board, Chess, Color, Move, Piece, Position, Role, Square};

use super::track::{announcing_move, ClaimTrack, DrawTrack};
use super::{At, End};
use crate::finding::{Finding, Via};
use crate::kind::Kind;
use crate::laws::Edition;

struct Entry {
    key: u64,
    /// How many times this position has occurred, this one included.
    count: u32,
    board: Board,
    /// The segment's first position with a legal e.p. capture: it equals no
    /// other position of the segment.
    unique: bool,
}

/// The positions of the current segment, with their counts.
#[derive(Default)]
pub struct RepetitionTable {
    entries: Vec<Entry>,
    /// Key of the last position pushed (relative to the segment start).
    key: u64,
    /// Entries (by the colour to move) at which a position occurred for the
    /// second time: the targets of a 9.2a claim.
    twice: [Vec<usize>; 2],
    /// The latest entry of each key, while the segment is short enough.
    index: KeyIndex,
}

/// An open-addressing table from a key to the latest entry with it, for
/// segments of [`KeyIndex::SHORT`] to [`KeyIndex::MAX`] entries (others are
/// searched entry by entry). Cleared in O(1) by a new generation. It only finds a
/// candidate: the boards are compared all the same.
struct KeyIndex {
    slots: Box<[Slot]>,
    generation: u32,
}

#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    generation: u32,
    entry: u32,
}

impl Default for KeyIndex {
    fn default() -> Self {
        KeyIndex {
            slots: vec![Slot::default(); KeyIndex::SLOTS].into_boxed_slice(),
            generation: 1,
        }
    }
}

impl KeyIndex {
    const SLOTS: usize = 512;
    const SHORT: usize = 16;
    const MAX: usize = 256;

    fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.slots.fill(Slot::default());
            self.generation = 1;
        }
    }

    /// The slot holding `key`, or the free slot where it would go.
    #[inline]
    fn find(&self, key: u64) -> usize {
        let mask = Self::SLOTS - 1;
        let mut i = (key >> 32) as usize & mask;
        loop {
            let s = &self.slots[i];
            if s.generation != self.generation || s.key == key {
                return i;
            }
            i = (i + 1) & mask;
        }
    }
}

/// Whether an en-passant capture is legal in `pos` (shakmaty's
/// `legal_ep_square`, asked only after a double push: asked at every ply).
#[inline]
fn has_legal_ep(pos: &Chess) -> bool {
    pos.maybe_ep_square().is_some() && pos.legal_ep_square().is_some()
}

/// Whether `m` can be played inside a segment: a quiet move of a piece.
/// Everything else (pawn moves, captures, castling) is irreversible.
#[inline]
fn quiet_piece_move(m: &Move) -> Option<(Role, Square, Square)> {
    match *m {
        Move::Normal {
            role,
            from,
            capture: None,
            to,
            promotion: None,
        } if role != Role::Pawn => Some((role, from, to)),
        _ => None,
    }
}

/// Whether the quiet move of `mover`'s `role` from `from` to the empty
/// `to` is legal on `board` (`Position::is_legal` for such a move, which
/// generates the role's moves to `to`): the piece reaches `to` and its
/// king is not attacked after it.
fn quiet_move_is_legal(board: &Board, mover: Color, role: Role, from: Square, to: Square) -> bool {
    let Some(king) = board.king_of(mover) else {
        return false;
    };
    attacks::attacks(from, role.of(mover), board.occupied()).contains(to)
        && crate::san::keeps_king_safe(board, !mover, king, role, from, to)
}

impl RepetitionTable {
    /// Starts a new segment: called at P0 and after every irreversible move.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.twice[0].clear();
        self.twice[1].clear();
        self.index.clear();
        self.key = 0;
    }

    /// Whether no position of the current segment is pushed yet: the
    /// replay stands just after an irreversible move (or at P0), where the
    /// table holds nothing a later position could repeat.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Records that the quiet piece move `m` was played by `mover` from the
    /// last position pushed. Returns `false` (and changes nothing) when `m`
    /// is not such a move: the caller then starts a new segment.
    pub fn advance(&mut self, m: &Move, mover: Color) -> bool {
        match quiet_piece_move(m) {
            Some((role, from, to)) => {
                self.key ^= move_key(role.of(mover), from, to);
                true
            }
            None => false,
        }
    }

    /// Records the position of the next ply and returns how many times it
    /// has now occurred.
    pub fn push(&mut self, pos: &Chess) -> u32 {
        let unique = self.entries.is_empty() && has_legal_ep(pos);
        let mut count = 1;
        let n = self.entries.len();
        // Short segments (most) are searched entry by entry; a long one is
        // indexed from its SHORT-th entry on.
        let indexed = (KeyIndex::SHORT..KeyIndex::MAX).contains(&n);
        if n == KeyIndex::SHORT {
            for (j, e) in self.entries.iter().enumerate() {
                let slot = self.index.find(e.key);
                self.index.slots[slot] = Slot {
                    key: e.key,
                    generation: self.index.generation,
                    entry: j as u32,
                };
            }
        }
        let slot = if indexed {
            self.index.find(self.key)
        } else {
            0
        };
        // With the index, a key never seen in the segment is a position
        // never seen; the latest entry with the key is the one to count
        // from when it is the same position (same side to move, same
        // board), as it nearly always is. Otherwise, entry by entry.
        let mut search = !unique;
        if search && indexed {
            let s = self.index.slots[slot];
            if s.generation != self.index.generation {
                search = false;
            } else {
                let j = s.entry as usize;
                let e = &self.entries[j];
                if (n - j).is_multiple_of(2) && !e.unique && e.board == *pos.board() {
                    count = e.count + 1;
                    search = false;
                }
            }
        }
        if search {
            // Only every second entry has the same side to move.
            let mut j = n;
            while j >= 2 {
                j -= 2;
                let e = &self.entries[j];
                if e.key == self.key && !e.unique && e.board == *pos.board() {
                    count = e.count + 1;
                    break;
                }
            }
        }
        if indexed {
            self.index.slots[slot] = Slot {
                key: self.key,
                generation: self.index.generation,
                entry: n as u32,
            };
        }
        if count == 2 {
            self.twice[color_index(pos.turn())].push(self.entries.len());
        }
        self.entries.push(Entry {
            key: self.key,
            count,
            board: pos.board().clone(),
            unique,
        });
        count
    }

    /// Whether some position with `color` to move has occurred twice: only
    /// then can the opponent of `color` announce a repetition (9.2a).
    pub fn has_targets(&self, color: Color) -> bool {
        !self.twice[color_index(color)].is_empty()
    }

    /// Art. 9.2a: whether a legal move from `pos` (the last position pushed)
    /// gives a position that would then have occurred at least three times.
    ///
    /// Only a quiet piece move can lead back into the segment, and it must
    /// turn the board into that of a position seen twice: the boards then
    /// differ by one of the mover's pieces, on `from` in one and on an empty
    /// `to` in the other. Board equality is enough: inside a segment a king
    /// or rook that holds castling rights never moves (that would end the
    /// segment), so a move that would drop rights cannot recreate a board of
    /// the segment.
    pub fn can_announce(&self, pos: &Chess) -> bool {
        self.announcing(pos, |_| true)
    }

    /// The legal moves from `pos` that would announce a 9.2a claim, in a
    /// fixed order (the order in which their positions occurred twice).
    pub fn announcing_moves(&self, pos: &Chess) -> Vec<Move> {
        let mut moves = Vec::new();
        self.announcing(pos, |m| {
            if !moves.contains(&m) {
                moves.push(m);
            }
            false
        });
        moves
    }

    /// Calls `found` with each announcing move until it returns `true`;
    /// returns whether it did.
    fn announcing(&self, pos: &Chess, mut found: impl FnMut(Move) -> bool) -> bool {
        let mover = pos.turn();
        let current = pos.board();
        for &t in &self.twice[color_index(!mover)] {
            let e = &self.entries[t];
            if e.unique {
                continue;
            }
            let diff = current.occupied() ^ e.board.occupied();
            let (Some(from), Some(to)) = (
                (diff & current.occupied()).single_square(),
                (diff & e.board.occupied()).single_square(),
            ) else {
                continue;
            };
            let Some(piece) = current.piece_at(from) else {
                continue;
            };
            if piece.color != mover
                || piece.role == Role::Pawn
                || e.board.piece_at(to) != Some(piece)
            {
                continue;
            }
            let mut after = current.clone();
            after.discard_piece_at(from);
            after.set_piece_at(to, piece);
            if after != e.board {
                continue;
            }
            let m = Move::Normal {
                role: piece.role,
                from,
                capture: None,
                to,
                promotion: None,
            };
            if quiet_move_is_legal(current, mover, piece.role, from, to) && found(m) {
                return true;
            }
        }
        false
    }

    /// Art. 9.6.1 as the 2014 Laws word it: the last position pushed has
    /// appeared "for at least five times by alternate moves by each player"
    /// in a row: it equals the positions 4, 8, 12 and 16 plies before it.
    pub fn consecutive_fivefold(&self) -> bool {
        let n = self.entries.len();
        if n < 17 {
            return false;
        }
        let last = &self.entries[n - 1];
        (1..=4).all(|k| {
            let e = &self.entries[n - 1 - 4 * k];
            e.key == last.key && !e.unique && e.board == last.board
        })
    }
}

fn color_index(c: Color) -> usize {
    if c.is_white() {
        0
    } else {
        1
    }
}

/// The key change of a quiet move: the piece leaves `from`, lands on `to`,
/// and the other side is to move.
#[inline]
fn move_key(piece: Piece, from: Square, to: Square) -> u64 {
    let p = piece_index(piece);
    PIECE_SQUARE[p][usize::from(from)] ^ PIECE_SQUARE[p][usize::from(to)] ^ TURN
}

fn piece_index(piece: Piece) -> usize {
    let role = match piece.role {
        Role::Pawn => 0,
        Role::Knight => 1,
        Role::Bishop => 2,
        Role::Rook => 3,
        Role::Queen => 4,
        Role::King => 5,
    };
    role + if piece.color.is_white() { 0 } else { 6 }
}

/// SplitMix64: fixed pseudo-random Zobrist keys, made at compile time.
const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

const fn piece_square_keys() -> [[u64; 64]; 12] {
    let mut keys = [[0u64; 64]; 12];
    let mut state = 0x0005_eed0_fa7b_17e7_u64;
    let mut p = 0;
    while p < 12 {
        let mut sq = 0;
        while sq < 64 {
            let (s, k) = splitmix(state);
            state = s;
            keys[p][sq] = k;
            sq += 1;
        }
        p += 1;
    }
    keys
}

static PIECE_SQUARE: [[u64; 64]; 12] = piece_square_keys();
const TURN: u64 = 0xf8d6_26aa_af27_8509;

/// Art. 9.2: whether the player to move in `pos`, the last position pushed
/// on `table`, where it has occurred `count` times, can claim: (b) the
/// position "has just appeared" for the third time, else (a) a legal move
/// makes it appear for the third time.
pub fn claim(table: &RepetitionTable, count: u32, pos: &Chess) -> Option<Via> {
    if count >= 3 {
        Some(Via::Occurred)
    } else if table.has_targets(!pos.turn()) && table.can_announce(pos) {
        Some(Via::Announced)
    } else {
        None
    }
}

/// Art. 9.2a: the move to name for a claim announced from `pos` (the last
/// position pushed on `table`): `played` when it announces one, else the
/// first announcing move.
pub fn announcing(table: &RepetitionTable, pos: &Chess, played: Option<Move>) -> Option<Move> {
    announcing_move(played, table.announcing_moves(pos))
}

/// Art. 9.2 and 9.6.1 over a game: the table of positions since the last
/// irreversible move, the claims that could have been made and the
/// fivefold repetitions.
#[derive(Default)]
pub struct Repetition {
    table: RepetitionTable,
    threefold: ClaimTrack,
    fivefold: DrawTrack,
}

impl Repetition {
    /// Ready for a new game (the table's memory is kept).
    pub fn start(&mut self) {
        self.table.clear();
        self.threefold = ClaimTrack::default();
        self.fivefold = DrawTrack::default();
    }

    /// At P*i*: 9.2 (b) occurred, else (a) announced; 9.6.1 where the
    /// edition has automatic draws. A position that occurred before had a
    /// move played from it, so it is neither mate nor stalemate: no move
    /// generation is needed here. Returns how many times P*i* has
    /// occurred, this time included.
    #[inline]
    pub fn position(&mut self, at: &At<'_>) -> u32 {
        let (pos, ply, table) = (at.pos, at.ply, &mut self.table);
        let count = table.push(pos);
        if let Some(via) = claim(table, count, pos) {
            self.threefold
                .hit(ply, pos, via, || announcing(table, at.pos, at.next));
        }
        let five = match at.edition {
            Edition::Laws2001 => false,
            Edition::Laws2018 => count >= 5,
            Edition::Laws2014 => table.consecutive_fivefold(),
        };
        if five {
            self.fivefold.hit(ply, pos);
        }
        count
    }

    /// The positions since the last irreversible move, P*i* included once
    /// [`Repetition::position`] has pushed it: what a claim at P*i* is
    /// judged on ([`claim`], [`announcing`]).
    pub fn table(&self) -> &RepetitionTable {
        &self.table
    }

    /// Plays `m` from `pos`. After an irreversible move no earlier position
    /// can recur: a capture or pawn move, a move from a position with a
    /// legal e.p. capture, or a change of castling rights.
    #[inline]
    pub fn play(&mut self, pos: &mut Chess, m: Move) {
        let rights = pos.castles().castling_rights();
        let from_ep = has_legal_ep(pos);
        let mover = pos.turn();
        pos.play_unchecked(m);
        let reversible =
            !from_ep && pos.castles().castling_rights() == rights && self.table.advance(&m, mover);
        if !reversible {
            self.table.clear();
        }
    }

    /// The findings: a missed threefold claim (excused by a draw at P*n* or
    /// P*n-1*), a fivefold repetition the game went on after or did not
    /// score as a draw.
    pub fn finish(&self, end: &End<'_>, out: &mut Vec<Finding>) {
        let excused = end.valid && end.drawn();
        out.extend(
            self.threefold
                .finding(Kind::MissedThreefold, end.n, excused, end.result),
        );
        out.extend(
            self.fivefold
                .finding(Kind::Fivefold, end.n, end.valid, end.drawn()),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{fen::Fen, CastlingMode, Position};

    /// The legality test of an announcing move against shakmaty's
    /// `is_legal`: every quiet move of every piece but a pawn, to every
    /// empty square (most of them not moves at all), in the positions of
    /// pseudo-random games.
    #[test]
    fn a_quiet_move_is_legal_as_shakmaty_says() {
        let mut legal = 0;
        crate::san::tests::random_game_positions(100, 150, 0x9e37_79b9_7f4a_7c15, |pos| {
            let board = pos.board();
            let mover = pos.turn();
            for from in board.by_color(mover) & !board.pawns() {
                let role = board.role_at(from).unwrap();
                for to in !board.occupied() {
                    let m = Move::Normal {
                        role,
                        from,
                        capture: None,
                        to,
                        promotion: None,
                    };
                    let ours = quiet_move_is_legal(board, mover, role, from, to);
                    assert_eq!(ours, pos.is_legal(m), "{m:?} in {:?}", pos.board());
                    legal += usize::from(ours);
                }
            }
        });
        assert!(legal > 100_000, "{legal}");
    }

    /// Long segments (the index is used from the 16th entry to the 256th,
    /// then the plain search again) count every position as a plain count
    /// over the segment does.
    #[test]
    fn long_segments_count_as_a_plain_search() {
        let start: Chess = "4k3/8/8/3n4/8/8/8/1N2K1N1 w - - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut repeated = 0;
        for _ in 0..20 {
            let mut table = RepetitionTable::default();
            let mut pos = start.clone();
            let mut seen: Vec<(Board, Color)> = Vec::new();
            table.clear();
            for _ in 0..600 {
                let count = table.push(&pos);
                let key = (pos.board().clone(), pos.turn());
                let plain = 1 + seen.iter().filter(|s| **s == key).count() as u32;
                assert_eq!(count, plain);
                repeated += u32::from(count > 1);
                seen.push(key);
                // a quiet piece move, few enough squares to come back often
                let quiet: Vec<Move> = pos
                    .legal_moves()
                    .into_iter()
                    .filter(|m| quiet_piece_move(m).is_some())
                    .collect();
                if quiet.is_empty() {
                    break;
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let m = quiet[(state % quiet.len().min(3) as u64) as usize];
                assert!(table.advance(&m, pos.turn()));
                pos.play_unchecked(m);
            }
        }
        assert!(repeated > 1000, "{repeated}");
    }
}
