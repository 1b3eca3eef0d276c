//! Art. 9.6 of the 2001 Laws (5.2.2 today) and Art. 6.9: positions where
//! no checkmate can be reached.
//!
//! > 9.6 The game is drawn when a position is reached from which a
//! > checkmate cannot occur by any possible series of legal moves, even
//! > with the most unskilled play.
//!
//! Insufficient material (shakmaty's, the same as python-chess's) is
//! checked at every position. Beyond material, the proof engine
//! ([`crate::rules::unwinnable`]) is asked once per game: a dead position
//! stays dead (every position after it is dead too), so a game reached one
//! exactly when its last position (before any material draw) is dead; only
//! then does the audit walk back, ply by ply, to the first dead one. Every
//! answer is sound: a position is called dead only with a proof.

use shakmaty::{Chess, Color, MoveList, Position};

use super::unwinnable::{Analyzer, Answer, Budget, Proof};

/// Dead by insufficient material: neither side can ever checkmate.
pub fn is_dead_by_material(pos: &Chess) -> bool {
    pos.is_insufficient_material()
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
}

impl Prover {
    /// Art. 9.6 / 5.2.2: can neither side ever checkmate?
    pub fn deadness(&mut self, pos: &Chess, budget: Budget) -> Deadness {
        self.decide(pos, budget)
    }

    /// [`Prover::deadness`], asking `first` first (the side that won on
    /// time, Art. 6.9), with that side's answer.
    pub fn deadness_for(
        &mut self,
        pos: &Chess,
        budget: Budget,
        first: Option<Color>,
        legal: &MoveList,
    ) -> (Deadness, Option<Answer>) {
        let mut answer = None;
        let deadness = self.decide_with(pos, budget, first, legal, &mut answer);
        (deadness, answer)
    }

    fn decide(&mut self, pos: &Chess, budget: Budget) -> Deadness {
        self.decide_with(pos, budget, None, &pos.legal_moves(), &mut None)
    }

    fn decide_with(
        &mut self,
        pos: &Chess,
        budget: Budget,
        first: Option<Color>,
        legal: &MoveList,
        first_answer: &mut Option<Answer>,
    ) -> Deadness {
        let first = first.unwrap_or(pos.turn());
        let mut proof = Proof::Material;
        let mut unknown = false;
        for side in [first, !first] {
            let answer = self.analyzer.can_mate_with(pos, side, budget, legal);
            if side == first {
                *first_answer = Some(answer.clone());
            }
            match answer {
                Answer::Unwinnable(p) => proof = proof.max(p),
                Answer::Winnable(_) => return Deadness::Alive,
                // Without a witness search, only a mate on the board is
                // a win: the other side's answer cannot make it `Alive`.
                Answer::Unknown if budget.search_nodes == 0 => return Deadness::Unknown,
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
