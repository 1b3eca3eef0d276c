//! Art. 9.6 of the 2001 Laws (5.2.2 today) and Art. 6.9: positions where
//! no checkmate can be reached.
//!
//! > 9.6 The game is drawn when a position is reached from which a
//! > checkmate cannot occur by any possible series of legal moves, even
//! > with the most unskilled play.
//!
//! Insufficient material (shakmaty's, the same as python-chess's) is
//! checked at every position. Beyond material, the proof engine
//! ([`crate::rules::unwinnable`]) is asked where a locked structure makes a
//! dead position possible: at the start and after every capture or pawn
//! move (the only moves that change which positions are reachable), when
//! every pawn stands blocked by a pawn (and, with the quick budget, only
//! bishops are left besides kings and pawns). Every answer is sound: a
//! position is called dead only with a proof.

use shakmaty::{Bitboard, Chess, Color, Position};

use super::unwinnable::{Analyzer, Answer, Budget, Proof};

/// Dead by insufficient material: neither side can ever checkmate.
pub fn is_dead_by_material(pos: &Chess) -> bool {
    pos.is_insufficient_material()
}

/// Worth a proof beyond material: both sides have pawns and every pawn
/// is blocked by a pawn, so the structure may be locked for good. With
/// `pieces_too` false (the quick budget), also no knight, rook or queen:
/// those nearly always find a way through, and the audit must stay fast.
pub fn is_candidate(pos: &Chess, pieces_too: bool) -> bool {
    let board = pos.board();
    if !pieces_too && (board.knights() | board.rooks_and_queens()).any() {
        return false;
    }
    let pawns = board.pawns();
    let white = pawns & board.white();
    let black = pawns & board.black();
    if white.is_empty() || black.is_empty() {
        return false;
    }
    (Bitboard(white.0 << 8) & pawns).count() == white.count()
        && (Bitboard(black.0 >> 8) & pawns).count() == black.count()
}

/// Could a capture or pawn move from here lock the structure (the
/// pieces [`is_candidate`] allows are all that is left)?
pub fn may_lock(pos: &Chess, pieces_too: bool) -> bool {
    let board = pos.board();
    board.pawns().any() && (pieces_too || (board.knights() | board.rooks_and_queens()).is_empty())
}

/// What the engine could say about a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Deadness {
    /// Neither side can checkmate (Art. 9.6 / 5.2.2), with the proof.
    Dead(Proof),
    /// Some side can still mate (a witness was found).
    Alive,
    /// Not decided within the budget.
    Unknown,
}

/// The dead-position and lost-on-time questions, with reusable tables.
#[derive(Default)]
pub struct Prover {
    analyzer: Analyzer,
    /// The last [`Prover::deadness`] answer was `Unknown`.
    pub last_unknown: bool,
}

impl Prover {
    /// Art. 9.6 / 5.2.2: can neither side ever checkmate?
    pub fn deadness(&mut self, pos: &Chess, budget: Budget) -> Deadness {
        let answer = self.decide(pos, budget);
        self.last_unknown = answer == Deadness::Unknown;
        answer
    }

    fn decide(&mut self, pos: &Chess, budget: Budget) -> Deadness {
        let mut proof = Proof::Material;
        let mut unknown = false;
        for side in [pos.turn(), !pos.turn()] {
            match self.analyzer.can_mate(pos, side, budget) {
                Answer::Unwinnable(p) => proof = proof.max(p),
                Answer::Winnable(_) => return Deadness::Alive,
                Answer::Unknown => unknown = true,
            }
        }
        if unknown {
            Deadness::Unknown
        } else {
            Deadness::Dead(proof)
        }
    }

    /// Art. 6.9: could `winner` checkmate by any series of legal moves?
    pub fn can_mate(&mut self, pos: &Chess, winner: Color, budget: Budget) -> Answer {
        self.analyzer.can_mate(pos, winner, budget)
    }
}
