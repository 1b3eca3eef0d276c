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

use shakmaty::{Board, Chess, Color, Move, Piece, Position, Role, Square};

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

impl RepetitionTable {
    /// Starts a new segment: called at P0 and after every irreversible move.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.twice[0].clear();
        self.twice[1].clear();
        self.key = 0;
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
        let unique = self.entries.is_empty() && pos.legal_ep_square().is_some();
        let mut count = 1;
        if !unique {
            // Only every second entry has the same side to move.
            let mut j = self.entries.len();
            while j >= 2 {
                j -= 2;
                let e = &self.entries[j];
                if e.key == self.key && !e.unique && e.board == *pos.board() {
                    count = e.count + 1;
                    break;
                }
            }
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
            if pos.is_legal(m) && found(m) {
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
