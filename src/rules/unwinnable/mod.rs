//! Can a given side still checkmate? The question behind Art. 9.6 of the
//! 2001 Laws (5.2.2 today: a dead position) and Art. 6.9 (a loss on time is
//! a draw when "the opponent cannot checkmate the player's king by any
//! possible series of legal moves").
//!
//! Both sides' moves are chosen freely ("even with the most unskilled
//! play"), so the question is a reachability one: is some position where
//! the side's opponent is checkmated reachable by legal moves? Three answers:
//!
//! - [`Answer::Winnable`] with a witness: the legal moves that lead to the
//!   mate (anyone can replay them).
//! - [`Answer::Unwinnable`] with its [`Proof`]: insufficient material, a
//!   semi-static proof (locked pawns, where each man may ever stand, or a
//!   structure only a stalemate could open), or an exhaustive enumeration
//!   of every reachable position (exact keys, no hashing shortcuts) in
//!   which no mate occurs.
//! - [`Answer::Unknown`]: the budget ran out. Never a guess.
//!
//! Soundness is one-sided by construction: a witness is a legal line found by
//! the search (any pruning there only loses witnesses), and `Unwinnable` is
//! only ever a semi-static proof, each step of which over-approximates what
//! can happen, or the result of a finished enumeration, which prunes
//! nothing but positions where such a proof holds.
//!
//! The witness search is a helpmate search with iterative deepening where
//! moves that make progress towards a mating picture cost nothing and moves
//! that go backwards cost more (the idea of the Chess Unwinnability Analyzer,
//! Ambrona, FUN 2022: aim at a corner of the loser's side, the loser's king
//! walks into it, the winner's pieces come closer). The enumeration decides
//! the blocked positions the search cannot: when pawns are locked and the
//! pieces that remain cannot reach the king, the reachable set is small.

mod blocked;
mod enumerate;
mod forced;
mod witness;

pub use blocked::blocked_proof;
pub use forced::semi_static;

use crate::hashing::Table;
use enumerate::Key;
use shakmaty::{Chess, Color, Move, MoveList, Position};

pub use crate::finding::Proof;

/// Whether a side can still checkmate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// A legal line from the position that ends with the side's opponent
    /// checkmated (empty when the position already is that mate).
    Winnable(Vec<Move>),
    /// No series of legal moves lets the side checkmate (Art. 9.6 / 5.2.2,
    /// 6.9), with the proof.
    Unwinnable(Proof),
    /// Not decided within the budget.
    Unknown,
}

/// How much work one question may cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Plies of choice the forced-line proof follows ([`Analyzer::prove`]).
    pub forced_depth: u32,
    /// Nodes of the witness search, over all its iterations (0: proofs
    /// only, a position no proof settles is `Unknown`).
    pub search_nodes: u64,
    /// Positions the exhaustive enumeration may hold.
    pub reach_positions: usize,
}

impl Budget {
    /// The default audit (`--dead quick`): proofs only, a few microseconds
    /// a question, so that every game's final position can be asked.
    pub const PROOFS: Budget = Budget {
        forced_depth: 2,
        search_nodes: 0,
        reach_positions: 0,
    };
    /// `position --dead quick`: the proofs, then a short witness search.
    pub const QUICK: Budget = Budget {
        forced_depth: 2,
        search_nodes: 3_000,
        reach_positions: 0,
    };
    /// A drawn loss on time (Art. 6.9) in the quick audit: a search for a
    /// mating line of up to a million nodes, no enumeration (such games
    /// are rare, and a line found is the proof).
    pub const MATE_SEARCH: Budget = Budget {
        forced_depth: 2,
        search_nodes: 1_000_000,
        reach_positions: 0,
    };
    /// `--dead thorough` and the `position` subcommand (CHA's full mode also
    /// allows ten million nodes); the enumeration holds up to about 370 MB.
    pub const THOROUGH: Budget = Budget {
        forced_depth: 2,
        search_nodes: 10_000_000,
        reach_positions: 2_000_000,
    };
}

/// Reusable tables for the questions (one per thread).
#[derive(Default)]
pub struct Analyzer {
    tt: Table<u64, i32>,
    seen: Table<Key, u32>,
    parents: Vec<(u32, Move)>,
    line: Vec<Move>,
}

impl Analyzer {
    /// Empty tables.
    pub fn new() -> Analyzer {
        Analyzer::default()
    }

    /// Can `winner` checkmate from `pos` by some series of legal moves?
    pub fn can_mate(&mut self, pos: &Chess, winner: Color, budget: Budget) -> Answer {
        self.can_mate_with(pos, winner, budget, &pos.legal_moves())
    }

    /// [`Analyzer::can_mate`] with the position's legal moves, when the
    /// caller has them already. Where the side to move is not in check and
    /// has more than two, any three of them will do
    /// ([`crate::rules::final_moves`]): only their number is asked then.
    pub fn can_mate_with(
        &mut self,
        pos: &Chess,
        winner: Color,
        budget: Budget,
        legal: &MoveList,
    ) -> Answer {
        if legal.is_empty() {
            // Checkmate or stalemate: the game is over.
            return if pos.is_check() && pos.turn() != winner {
                Answer::Winnable(Vec::new())
            } else {
                Answer::Unwinnable(Proof::Search)
            };
        }
        if pos.has_insufficient_material(winner) {
            return Answer::Unwinnable(Proof::Material);
        }
        // The proofs-only budget must stay cheap: it skips the semi-static
        // proofs where they have (nearly) never held.
        let gated = budget.search_nodes == 0;
        if let Some(proof) = self.proofs(pos, winner, budget.forced_depth, gated, legal) {
            return Answer::Unwinnable(proof);
        }
        if budget.search_nodes == 0 {
            return Answer::Unknown;
        }
        // Cheap attempts first (most positions are decided in a few
        // thousand nodes), then the whole budget.
        const FIRST: u64 = 20_000;
        let first = budget.search_nodes.min(FIRST);
        if let Some(line) = self.find_mate(pos, winner, first) {
            return Answer::Winnable(line);
        }
        let small = budget.reach_positions.min(2_000);
        if small > 0 {
            match self.enumerate(pos, winner, small) {
                Answer::Unknown => {}
                answer => return answer,
            }
        }
        if budget.search_nodes > first {
            if let Some(line) = self.find_mate(pos, winner, budget.search_nodes) {
                return Answer::Winnable(line);
            }
        }
        if budget.reach_positions > small {
            return self.enumerate(pos, winner, budget.reach_positions);
        }
        Answer::Unknown
    }

    /// The proofs alone, no witness search: material, the semi-static
    /// proofs ([`semi_static`]), and the forced-line proof
    /// (`forced`, in forced.rs) where the side to move has at most two moves
    /// or is in check. `None` when none holds.
    pub fn prove(&self, pos: &Chess, winner: Color, depth: u32) -> Option<Proof> {
        if pos.has_insufficient_material(winner) {
            return Some(Proof::Material);
        }
        self.proofs(pos, winner, depth, true, &pos.legal_moves())
    }

    /// The witness search alone, no proof asked: for soundness tests, which
    /// look for mates where a proof says there are none.
    pub fn find_witness(&mut self, pos: &Chess, winner: Color, nodes: u64) -> Option<Vec<Move>> {
        self.find_mate(pos, winner, nodes)
    }
}
