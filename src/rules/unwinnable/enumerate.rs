//! The exhaustive enumeration of every reachable position, under exact
//! keys ([`Key`]): the shortest mate, or the proof that there is none.

use std::collections::VecDeque;

use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, EnPassantMode, FromSetup, Move, Piece, Position,
    Role, Setup, Square,
};

use super::blocked::blocked_proof;
use super::{Analyzer, Answer, Proof};
use crate::rules::mobility::mobility_proof;

impl Analyzer {
    /// Breadth-first enumeration of every position reachable from `pos`,
    /// keyed exactly. Finds the shortest mate if there is one; proves there
    /// is none when it finishes within `limit` positions.
    pub(super) fn enumerate(&mut self, pos: &Chess, winner: Color, limit: usize) -> Answer {
        // A key holds 32 men; a composed position with more (read with too
        // much material) is not enumerated. Men are never added, so every
        // position reached holds no more than this one.
        if pos.board().occupied().count() > 32 {
            return Answer::Unknown;
        }
        self.seen.clear();
        self.parents.clear();
        // The frontier holds keys, not positions (a fifth of the memory);
        // each position is set up again from its key when its turn comes.
        let mut queue: VecDeque<(Key, u32, bool)> = VecDeque::new();
        let root = Key::of(pos);
        self.seen.insert(root, 0);
        self.parents.push((
            u32::MAX,
            Move::Put {
                role: Role::Pawn,
                to: Square::A1,
            },
        ));
        queue.push_back((root, 0, false));
        let mut structure_changed = false;
        while let Some((key, index, zeroed)) = queue.pop_front() {
            let here = if index == 0 {
                pos.clone()
            } else {
                match key.position() {
                    Some(here) => here,
                    None => return Answer::Unknown,
                }
            };
            // No continuation of a side with insufficient material mates,
            // nor of a locked structure with the semi-static proof (asked
            // where the structure just changed).
            if here.has_insufficient_material(winner)
                || (zeroed && (blocked_proof(&here, winner) || mobility_proof(&here, winner)))
            {
                continue;
            }
            let moves = here.legal_moves();
            for &m in &moves {
                let mut next = here.clone();
                next.play_unchecked(m);
                let key = Key::of(&next);
                if self.seen.contains_key(&key) {
                    continue;
                }
                if m.is_zeroing() {
                    structure_changed = true;
                }
                let child = self.parents.len() as u32;
                self.parents.push((index, m));
                if next.turn() != winner && next.is_checkmate() {
                    return Answer::Winnable(self.path_to(child));
                }
                if self.seen.len() >= limit {
                    return Answer::Unknown;
                }
                self.seen.insert(key, child);
                queue.push_back((key, child, m.is_zeroing()));
            }
        }
        Answer::Unwinnable(if structure_changed {
            Proof::Search
        } else {
            Proof::Blocked
        })
    }

    fn path_to(&self, mut index: u32) -> Vec<Move> {
        let mut line = Vec::new();
        while index != 0 {
            let (parent, m) = self.parents[index as usize];
            line.push(m);
            index = parent;
        }
        line.reverse();
        line
    }
}

/// A position's exact identity for the enumeration: placement, side to
/// move, castling rights and the legal en-passant square (Art. 9.2's
/// identity, which is also what decides the moves available).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct Key {
    occupied: u64,
    /// One nibble per occupied square, in square order (at most 32 pieces),
    /// low half first: two words rather than a `u128`, whose 16-byte
    /// alignment would make every key of the enumeration 48 bytes, not 32.
    pieces: [u64; 2],
    /// Castling rooks (rank 1 in the low byte, rank 8 in the next), the
    /// e.p. square + 1 (0 = none) and the side to move.
    rest: u32,
}

impl Key {
    fn of(pos: &Chess) -> Key {
        let board = pos.board();
        let mut pieces = 0u128;
        let mut shift = 0;
        for (_, piece) in board {
            let code = (piece.role as u128) | ((piece.color.is_white() as u128) << 3);
            pieces |= code << shift;
            shift += 4;
        }
        let rights = pos.castles().castling_rights().0;
        let castles = (rights & 0xff) | ((rights >> 48) & 0xff00);
        let ep = pos
            .ep_square(EnPassantMode::Legal)
            .map_or(0, |sq| u32::from(sq) + 1);
        Key {
            occupied: board.occupied().0,
            pieces: [pieces as u64, (pieces >> 64) as u64],
            rest: castles as u32 | (ep << 16) | ((pos.turn().is_white() as u32) << 24),
        }
    }

    /// The position back from its key, clocks at zero (the enumeration
    /// keeps whether a move was zeroing itself). Composed positions with
    /// more material than a game can reach set up as they were read.
    fn position(&self) -> Option<Chess> {
        let mut board = Board::empty();
        for (i, sq) in Bitboard(self.occupied).into_iter().enumerate() {
            let pieces = u128::from(self.pieces[0]) | (u128::from(self.pieces[1]) << 64);
            let code = (pieces >> (4 * i)) as u8 & 0xf;
            let role = match code & 7 {
                1 => Role::Pawn,
                2 => Role::Knight,
                3 => Role::Bishop,
                4 => Role::Rook,
                5 => Role::Queen,
                6 => Role::King,
                _ => return None,
            };
            let color = Color::from_white(code & 8 != 0);
            board.set_piece_at(sq, Piece { color, role });
        }
        let castles = u64::from(self.rest & 0xffff);
        let ep = (self.rest >> 16) & 0xff;
        let mut setup = Setup::empty();
        setup.board = board;
        setup.turn = Color::from_white(self.rest & (1 << 24) != 0);
        setup.castling_rights = Bitboard((castles & 0xff) | ((castles & 0xff00) << 48));
        setup.ep_square = if ep == 0 {
            None
        } else {
            Square::try_from(ep - 1).ok()
        };
        let error = match Chess::from_setup(setup, CastlingMode::Standard) {
            Ok(pos) => return Some(pos),
            Err(error) => error,
        };
        let error = match error.ignore_too_much_material() {
            Ok(pos) => return Some(pos),
            Err(error) => error,
        };
        error.ignore_impossible_check().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::Key;
    use crate::positions::read_position;
    use shakmaty::Position;

    #[test]
    fn a_key_takes_32_bytes() {
        assert_eq!(std::mem::size_of::<Key>(), 32);
    }

    #[test]
    fn a_key_sets_up_the_position_it_was_taken_from() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            // Kiwipete: castling rights on both wings.
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            // A legal en-passant capture, Black to move.
            "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",
            // Composed: more bishops than a game can have.
            "k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - - 0 1",
        ] {
            let pos = read_position(fen).unwrap();
            let key = Key::of(&pos);
            let back = key.position().expect(fen);
            assert_eq!(Key::of(&back), key, "{fen}");
            assert_eq!(back.legal_moves().len(), pos.legal_moves().len(), "{fen}");
        }
    }
}
