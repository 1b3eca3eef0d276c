//! The forced-line proof (CHA's quick mode) and the semi-static proofs it
//! and the proofs-only budget ask, gated where they can hold.

use shakmaty::{Bitboard, Chess, Color, MoveList, Position};

use super::blocked::blocked_proof;
use super::{Analyzer, Proof};
use crate::rules::mobility::mobility_proof;
use crate::rules::stalemate::stalemate_proof;

impl Analyzer {
    pub(super) fn proofs(
        &self,
        pos: &Chess,
        winner: Color,
        depth: u32,
        gated: bool,
        legal: &MoveList,
    ) -> Option<Proof> {
        let semi = if gated {
            semi_static(pos, winner)
        } else {
            blocked_proof(pos, winner)
                || mobility_proof(pos, winner)
                || stalemate_proof(pos, winner)
        };
        if semi {
            return Some(Proof::Blocked);
        }
        // Forced lines need few choices: at most two moves, or a check.
        if legal.len() > 2 && !pos.is_check() {
            return None;
        }
        let mut nodes = 0;
        self.forced_from(pos, winner, depth, 0, &mut nodes, legal)
            .then_some(Proof::Search)
    }

    /// Every line from `pos` ends within `depth` plies of choice (forced
    /// moves are free, up to 100 plies) in a position where `winner` cannot
    /// mate: material, `winner` checkmated, stalemate, or a semi-static
    /// proof. The idea of CHA's quick mode: it fails fast, at the first
    /// line that runs `depth` choices long.
    fn forced(&self, pos: &Chess, winner: Color, depth: u32, ply: u32, nodes: &mut u32) -> bool {
        *nodes += 1;
        if *nodes > 2_000 {
            return false;
        }
        if pos.has_insufficient_material(winner) {
            return true;
        }
        self.forced_from(pos, winner, depth, ply, nodes, &pos.legal_moves())
    }

    fn forced_from(
        &self,
        pos: &Chess,
        winner: Color,
        depth: u32,
        ply: u32,
        nodes: &mut u32,
        moves: &MoveList,
    ) -> bool {
        if moves.is_empty() {
            // Stalemate, or a mate: only the loser's mate is a win.
            return !pos.is_check() || pos.turn() == winner;
        }
        if ply > 0 && semi_static(pos, winner) {
            return true;
        }
        let cost = u32::from(moves.len() > 1);
        if depth < cost || ply >= 100 {
            return false;
        }
        moves.iter().all(|&m| {
            let mut next = pos.clone();
            next.play_unchecked(m);
            self.forced(&next, winner, depth - cost, ply + 1, nodes)
        })
    }
}

/// The semi-static proofs, asked only where a pawn stands head-on against
/// a pawn: each proof needs men that stay for good, and only a pawn that
/// meets a pawn can be the first of those.
pub fn semi_static(pos: &Chess, winner: Color) -> bool {
    let board = pos.board();
    let pawns = board.pawns();
    let white = pawns & board.white();
    let locks = (Bitboard(white.0 << 8) & pawns).count();
    // Against a winner with a knight, rook or queen, a single lock or two
    // have never sufficed (CHA's test vectors: 3 of 1,241 proofs; the
    // Lichess timeouts: none), and they are common in real games.
    let pieces = board.by_color(winner) & (board.knights() | board.rooks_and_queens());
    let worth = match locks {
        0 => false,
        1 | 2 => pieces.is_empty(),
        _ => true,
    };
    worth
        && (blocked_proof(pos, winner)
            || mobility_proof(pos, winner)
            || stalemate_proof(pos, winner))
}
