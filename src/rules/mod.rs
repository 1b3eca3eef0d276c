//! The Laws, one file per article family, each with the hooks the replay
//! ([`crate::audit`]) calls, in this order:
//!
//! 1. at each position P*i* whose next move is legal or which is the last
//!    ([`At`]): [`repetition::Repetition::position`] (9.2, 9.6.1), then
//!    [`fifty::Fifty::position`] (9.3, 9.6.2), then
//!    [`dead::Dead::position`] (9.6 / 5.2.2 by material);
//! 2. each move is played by [`repetition::Repetition::play`], which keeps
//!    the positions since the last irreversible move;
//! 3. at the end of the game ([`End`]): [`dead::Dead::finish`] first (its
//!    question about the final position also answers the loss on time),
//!    then [`result::wrong_result`] (5.1, 5.2.1), [`flag::unwinnable`] and
//!    [`flag::drawn`] (6.9), which an invalid game does not reach.
//!
//! The order matters in two places only, and both are explicit: the legal
//! moves of a position are generated once, by whichever rule asks first
//! ([`At::legal`]), and the loss on time reuses the dead-position answer.

use std::cell::OnceCell;

use shakmaty::{Chess, Color, Move, MoveList, Position};

use crate::laws::Edition;

pub mod dead;
pub mod fifty;
pub mod flag;
pub mod mobility;
pub mod repetition;
pub mod result;
pub mod site;
pub mod stalemate;
pub(crate) mod track;
pub mod unwinnable;

/// A position of the replay, as every rule sees it.
pub struct At<'a> {
    /// Its index: P0 is the start position.
    pub ply: u32,
    /// The position.
    pub pos: &'a Chess,
    /// The move played from it (legal), or `None` at the last position.
    pub next: Option<Move>,
    /// The edition the game is judged by.
    pub edition: Edition,
    legal: OnceCell<MoveList>,
}

impl<'a> At<'a> {
    /// P*ply*, followed by `next`.
    pub fn new(ply: u32, pos: &'a Chess, next: Option<Move>, edition: Edition) -> At<'a> {
        At {
            ply,
            pos,
            next,
            edition,
            legal: OnceCell::new(),
        }
    }

    /// The legal moves, generated at the first call only (most positions
    /// need none: a rule asks only where its clock or count calls for it).
    pub fn legal(&self) -> &MoveList {
        self.legal.get_or_init(|| self.pos.legal_moves())
    }
}

/// The end of a game, as the rules that judge it see it.
pub struct End<'a> {
    /// Plies replayed (the final position is P*n*).
    pub n: u32,
    /// No move was illegal: the final position is known.
    pub valid: bool,
    /// The final position (of a valid game).
    pub pos: &'a Chess,
    /// The moves played from P0, in order: `n` of them.
    pub moves: &'a [Move],
    /// Its legal moves (of a valid game).
    pub legal: Option<&'a MoveList>,
    /// SPEC: the Result tag, else the movetext's result token; `*` unknown.
    pub result: &'a [u8],
    /// Art. 6.9: the game was lost on time (SPEC: the `Termination` tag),
    /// asked of valid games only.
    pub lost_on_time: bool,
    /// The side the result gives the point to after a loss on time.
    pub flag_winner: Option<Color>,
}

impl End<'_> {
    /// The result is a draw.
    pub fn drawn(&self) -> bool {
        self.result == b"1/2-1/2"
    }
}
