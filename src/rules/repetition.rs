//! Art. 9.2 (threefold, claimed) and Art. 9.6.1 (fivefold, automatic).
//!
//! > 9.2 The game is drawn, upon a correct claim by the player having the
//! > move, when the same position [...] (a) is about to appear, if he first
//! > writes his move [...] and declares to the arbiter his intention to make
//! > this move, or (b) has just appeared.
//!
//! Positions are the same when the same player is to move, the same pieces
//! stand on the same squares, the castling rights are the same and the
//! en-passant capture (counted only when legal) is the same: shakmaty's
//! `Chess` equality and its `EnPassantMode::Legal` Zobrist key. The table
//! keeps the positions since the last irreversible move (a capture, a pawn
//! move, a change of castling rights, or a move from a position with a legal
//! e.p. capture): no earlier position can equal a later one, so counting
//! within that window is counting over the whole game. Hashes only find
//! candidates; every repetition is confirmed by comparing the positions, so
//! a collision cannot change a verdict.

use shakmaty::{zobrist::Zobrist64, Chess, Color, EnPassantMode, Move, Position};

struct Entry {
    hash: Zobrist64,
    /// How many times this position has occurred, this one included.
    count: u32,
    pos: Chess,
}

/// The positions since the last irreversible move, with their counts.
#[derive(Default)]
pub struct RepetitionTable {
    entries: Vec<Entry>,
    /// Entries (by the colour to move) at which a position occurred for the
    /// second time: the targets of a 9.2a claim.
    twice: [Vec<usize>; 2],
}

impl RepetitionTable {
    /// Forgets every position: called after an irreversible move.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.twice[0].clear();
        self.twice[1].clear();
    }

    /// Records the position of the next ply and returns how many times it
    /// has now occurred.
    pub fn push(&mut self, pos: &Chess, hash: Zobrist64) -> u32 {
        let mut count = 1;
        // Only every second entry has the same side to move.
        let mut j = self.entries.len();
        while j >= 2 {
            j -= 2;
            let e = &self.entries[j];
            if e.hash == hash && e.pos == *pos {
                count = e.count + 1;
                break;
            }
        }
        if count == 2 {
            self.twice[color_index(pos.turn())].push(self.entries.len());
        }
        self.entries.push(Entry {
            hash,
            count,
            pos: pos.clone(),
        });
        count
    }

    /// Whether some position with `color` to move has occurred twice: only
    /// then can the opponent of `color` announce a repetition (9.2a).
    pub fn has_targets(&self, color: Color) -> bool {
        !self.twice[color_index(color)].is_empty()
    }

    /// Art. 9.2a: whether one of `legal` moves from `pos` (the last position
    /// pushed, with hash `hash`) gives a position that would then have
    /// occurred at least three times.
    pub fn can_announce(&self, pos: &Chess, hash: Zobrist64, legal: &[Move]) -> bool {
        let targets = &self.twice[color_index(!pos.turn())];
        if targets.is_empty() {
            return false;
        }
        for m in legal {
            let next_hash = pos.update_zobrist_hash(hash, *m, EnPassantMode::Legal);
            let mut played: Option<Chess> = None;
            let next_hash = match next_hash {
                Some(h) => h,
                None => {
                    let mut p = pos.clone();
                    p.play_unchecked(*m);
                    let h = p.zobrist_hash(EnPassantMode::Legal);
                    played = Some(p);
                    h
                }
            };
            for &t in targets {
                let e = &self.entries[t];
                if e.hash != next_hash {
                    continue;
                }
                let p = played.get_or_insert_with(|| {
                    let mut p = pos.clone();
                    p.play_unchecked(*m);
                    p
                });
                if *p == e.pos {
                    return true;
                }
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
            e.hash == last.hash && e.pos == last.pos
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
