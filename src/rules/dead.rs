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

use std::fmt;
use std::str::FromStr;

use shakmaty::{Chess, Color, MoveList, Position};

use super::unwinnable::{Analyzer, Answer, Budget, Proof};

/// How hard dead positions (Art. 9.6 / 5.2.2) and unwinnable losses on
/// time (Art. 6.9) are proven: `audit --dead`, `position --dead`, Python's
/// `dead=`. One mode means one budget wherever it is named.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum DeadMode {
    /// Insufficient material only.
    Material,
    /// The proof engine's proofs, on a small budget, wherever they could
    /// matter; no search for a mate.
    #[default]
    Quick,
    /// The proofs, then a long search for a mate, then every reachable
    /// position enumerated.
    Thorough,
}

impl DeadMode {
    /// Every mode, cheapest first.
    pub const ALL: [DeadMode; 3] = [DeadMode::Material, DeadMode::Quick, DeadMode::Thorough];

    /// The name `--dead` and `dead=` take.
    pub fn name(self) -> &'static str {
        match self {
            DeadMode::Material => "material",
            DeadMode::Quick => "quick",
            DeadMode::Thorough => "thorough",
        }
    }

    /// What the mode does, for `--help`.
    pub fn help(self) -> &'static str {
        match self {
            DeadMode::Material => "Insufficient material only (Art. 9.6 examples)",
            DeadMode::Quick => "The proof engine on a small budget, where a lock could matter",
            DeadMode::Thorough => "The proof engine on a large budget, wherever it could matter",
        }
    }

    /// The engine's budget per question; `None`: the engine is not asked
    /// (material only).
    pub fn budget(self) -> Option<Budget> {
        match self {
            DeadMode::Material => None,
            DeadMode::Quick => Some(Budget::PROOFS),
            DeadMode::Thorough => Some(Budget::THOROUGH),
        }
    }
}

impl fmt::Display for DeadMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for DeadMode {
    type Err = String;

    fn from_str(s: &str) -> Result<DeadMode, String> {
        DeadMode::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| format!("{s:?}: expected 'material', 'quick' or 'thorough'"))
    }
}

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
