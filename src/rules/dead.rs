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

use shakmaty::{Chess, Color, Move, MoveList, Position};

use super::track::{DrawTrack, First};
use super::{At, End};
use crate::finding::{Detail, Finding};
use crate::kind::{ByKind, Kind};

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

    /// The budget of a search for a mating line (a drawn loss on time,
    /// Art. 6.9): the quick mode searches up to a million nodes (such
    /// games are rare), the thorough one as for dead positions; `None` for
    /// material only.
    pub fn mate_budget(self) -> Option<Budget> {
        match self {
            DeadMode::Material => None,
            DeadMode::Quick => Some(Budget::MATE_SEARCH),
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
#[inline]
pub fn is_dead_by_material(pos: &Chess) -> bool {
    // A pawn, rook or queen is always enough for its side (shakmaty's
    // first test, here for both sides at once: asked at every position).
    let board = pos.board();
    (board.pawns() | board.rooks_and_queens()).is_empty() && pos.is_insufficient_material()
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

/// Art. 9.6 (2001) / 5.2.2 over a game: by material at every position;
/// beyond material, one question to the engine per game, at the last
/// position not yet dead by material (a dead position stays dead, so the
/// game reached one exactly when that one is), then back ply by ply to
/// the first dead one.
#[derive(Default)]
pub struct Dead {
    mode: DeadMode,
    prover: Prover,
    track: DrawTrack,
    proof: Option<Proof>,
    /// P0, kept when the engine will be asked: with [`End::moves`] it
    /// gives any position of the game, for walking back from a dead final
    /// position (rare) without keeping every position.
    start: Option<Chess>,
}

/// What the dead-position rule leaves to the loss on time (Art. 6.9).
pub struct DeadEnd {
    /// The game reached a dead position, proven so.
    pub proof: Option<Proof>,
    /// The engine's answer for the side that won on time, when the final
    /// position's question asked it first.
    pub flag: Option<Answer>,
}

impl Dead {
    /// A rule proving with `mode`.
    pub fn new(mode: DeadMode) -> Dead {
        Dead {
            mode,
            ..Dead::default()
        }
    }

    /// Ready for a game from `p0` (the tables' memory is kept).
    pub fn start(&mut self, p0: &Chess) {
        self.track = DrawTrack::default();
        self.proof = None;
        self.start = self.mode.budget().is_some().then(|| p0.clone());
    }

    /// At P*i*: dead by material? Once proven, every later position is
    /// dead too.
    #[inline]
    pub fn position(&mut self, at: &At<'_>) {
        if self.proof.is_none() && is_dead_by_material(at.pos) {
            self.proof = Some(Proof::Material);
        }
        if self.proof.is_some() {
            self.track.hit(at.ply, at.pos);
        }
    }

    /// The question beyond material, then the finding: a dead position the
    /// game went on after or did not score as a draw. A stalemate is dead
    /// too (no mate can follow), as SPEC's definition reads; a mate is not
    /// (one just happened).
    pub fn finish(
        &mut self,
        end: &End<'_>,
        undecided: &mut ByKind<bool>,
        out: &mut Vec<Finding>,
    ) -> DeadEnd {
        let mut flag = None;
        if let (Some(budget), Some(start)) = (self.mode.budget(), &self.start) {
            // The last position analysed: the final one, or for an invalid
            // game the one before the bad move's.
            let last = if end.valid {
                Some(end.n)
            } else {
                end.n.checked_sub(1)
            };
            let material_from = self.track.first.as_ref().map(|f| f.ply);
            let asked = match material_from {
                Some(m) => m.checked_sub(1),
                None => last,
            };
            if let Some(q) = asked {
                let moves = &end.moves[..q as usize];
                let question = match end.legal.filter(|_| q == end.n) {
                    Some(legal) => {
                        let winner_first = end
                            .flag_winner()
                            .filter(|w| !end.pos.has_insufficient_material(*w));
                        let (deadness, answer) =
                            self.prover
                                .deadness_for(end.pos, budget, winner_first, legal);
                        flag = answer;
                        deadness
                    }
                    None => self.prover.deadness(&replay_to(start, moves), budget),
                };
                match question {
                    Deadness::Dead(proof) => {
                        let (first, pos, proof) =
                            walk_back(&mut self.prover, budget, start, moves, proof);
                        let analysed = if end.valid { end.n + 1 } else { end.n };
                        self.track.first = Some(First {
                            ply: first,
                            pos,
                            mv: None,
                        });
                        self.track.count = analysed - first;
                        self.proof = Some(self.proof.map_or(proof, |p| p.max(proof)));
                    }
                    Deadness::Alive => {}
                    // Only the final position's question decides whether
                    // the game ended dead; before a material draw it only
                    // decides when.
                    Deadness::Unknown if material_from.is_none() => {
                        undecided[Kind::DeadPosition] = true;
                    }
                    Deadness::Unknown => {}
                }
            }
        }
        let proof = self.proof.unwrap_or(Proof::Material);
        // SPEC: a checkmate or a stalemate is never a dead position (the
        // game ended there by 5.1 or 5.2.1; `wrong_result` alone reports a
        // wrong score).
        let over = end.legal.is_some_and(|l| l.is_empty());
        out.extend(
            self.track
                .finding(Kind::DeadPosition, end.n, end.valid, end.drawn())
                .filter(|f| !(over && f.ply == end.n))
                .map(|f| Finding {
                    detail: Detail::Dead { proof },
                    ..f
                }),
        );
        DeadEnd {
            proof: self.proof,
            flag,
        }
    }

    /// Art. 6.9, a loss on time scored ½-½: a mating line for `winner`
    /// from `pos`, searched for even in the quick mode (with
    /// [`DeadMode::mate_budget`]: such games are rare). `None`: the engine
    /// is not asked (`--dead material`).
    pub fn find_mate(&mut self, pos: &Chess, winner: Color) -> Option<Answer> {
        let budget = self.mode.mate_budget()?;
        Some(self.prover.can_mate(pos, winner, budget))
    }

    /// Art. 6.9: can `winner` still checkmate from `pos`? `None`: the
    /// engine is not asked (`--dead material`).
    pub fn can_mate(&mut self, pos: &Chess, winner: Color) -> Option<Answer> {
        let budget = self.mode.budget()?;
        Some(self.prover.can_mate(pos, winner, budget))
    }
}

/// The position after the first `moves` from `start`.
pub(crate) fn replay_to(start: &Chess, moves: &[Move]) -> Chess {
    let mut pos = start.clone();
    for &m in moves {
        pos.play_unchecked(m);
    }
    pos
}

/// From a dead position after `moves`, back ply by ply while the positions
/// before it are proven dead too: the first dead ply, its position and the
/// strongest proof used.
///
/// The positions are replayed a few at a time from the end, not all kept:
/// nearly every walk stops at the first step back (on the shared Lichess,
/// chess.com and FICS files none went back more than one ply), and keeping
/// every position of the game copied and paged in some 200 bytes a ply for
/// that one question. The questions are asked in the same order
/// either way.
pub(crate) fn walk_back(
    prover: &mut Prover,
    budget: Budget,
    start: &Chess,
    moves: &[Move],
    proof: Proof,
) -> (u32, Chess, Proof) {
    const WINDOW: usize = 4;
    let mut proof = proof;
    let mut window = Vec::with_capacity(WINDOW + 1);
    // The position after `moves[..hi]` is dead.
    let mut hi = moves.len();
    loop {
        // window[i]: the position after `moves[..lo + i]`, for lo + i <= hi
        let lo = hi.saturating_sub(WINDOW);
        window.clear();
        let mut pos = replay_to(start, &moves[..lo]);
        for &m in &moves[lo..hi] {
            window.push(pos.clone());
            pos.play_unchecked(m);
        }
        window.push(pos);
        let mut first = hi;
        while first > lo {
            match prover.deadness(&window[first - 1 - lo], budget) {
                Deadness::Dead(earlier) => {
                    proof = proof.max(earlier);
                    first -= 1;
                }
                _ => return (first as u32, window.swap_remove(first - lo), proof),
            }
        }
        if lo == 0 {
            return (0, window.swap_remove(0), proof);
        }
        hi = lo;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::san::San;
    use shakmaty::CastlingMode;

    /// The moves of `sans` from `fen`, and the start position.
    fn game(fen: &str, sans: &[&str]) -> (Chess, Vec<Move>) {
        let start: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for san in sans {
            let m = san.parse::<San>().unwrap().to_move(&pos).unwrap();
            pos.play_unchecked(m);
            moves.push(m);
        }
        (start, moves)
    }

    #[test]
    fn walk_back_past_its_window_finds_the_first_dead_ply() {
        // 1. Nxa3 leaves king and knight against a king (dead by material);
        // nine plies of king moves follow, more than one window.
        let (start, moves) = game(
            "4k3/8/8/8/8/p7/8/1N2K3 w - - 0 1",
            &[
                "Nxa3", "Kd7", "Kd2", "Ke6", "Ke3", "Kd5", "Kd3", "Ke5", "Ke3", "Kd5",
            ],
        );
        let mut prover = Prover::default();
        let budget = Budget::PROOFS;
        let Deadness::Dead(proof) = prover.deadness(&replay_to(&start, &moves), budget) else {
            panic!("the final position is dead by material");
        };
        let (first, pos, _) = walk_back(&mut prover, budget, &start, &moves, proof);
        assert_eq!(first, 1);
        assert_eq!(pos, replay_to(&start, &moves[..1]));
        // Within one window: from the fourth ply back to the first.
        let (first, pos, _) = walk_back(&mut prover, budget, &start, &moves[..4], proof);
        assert_eq!((first, pos), (1, replay_to(&start, &moves[..1])));
    }
}
