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

use shakmaty::{attacks, Chess, Color, Move, MoveList, Position};

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

/// The final position's legal moves, as far as the rules ask for them: all
/// of them where the side to move is in check or has at most two (the
/// forced-line proof walks them then), otherwise three of them. Every rule
/// asks only whether there are none ([`End::legal`]: mate, stalemate) or
/// more than two ([`unwinnable::Analyzer::can_mate_with`]), and generating
/// them all cost some 2,000 instructions a game.
///
/// The three are found with [`crate::san::resolve`]'s test (`san`'s
/// `keeps_king_safe`): a piece move (no pawn, so no
/// promotion or en passant; no castling) is legal when no enemy man
/// attacks the king on the board after it.
pub fn final_moves(pos: &Chess) -> MoveList {
    if !pos.is_check() {
        if let Some(three) = three_piece_moves(pos) {
            return three;
        }
    }
    pos.legal_moves()
}

/// Three legal moves of pieces other than pawns, when there are three.
fn three_piece_moves(pos: &Chess) -> Option<MoveList> {
    let board = pos.board();
    let (us, them) = (pos.turn(), !pos.turn());
    let king = board.king_of(us)?;
    let occupied = board.occupied();
    let ours = board.by_color(us);
    let mut found = MoveList::new();
    for from in ours & !board.pawns() {
        let piece = board.piece_at(from)?;
        for to in attacks::attacks(from, piece, occupied) & !ours {
            if !crate::san::keeps_king_safe(board, them, king, piece.role, from, to) {
                continue;
            }
            found.push(Move::Normal {
                role: piece.role,
                from,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
            if found.len() == 3 {
                return Some(found);
            }
        }
    }
    None
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
    /// Its legal moves (of a valid game), as [`final_moves`] gives them:
    /// all where there are at most two or the side to move is in check,
    /// else three.
    pub legal: Option<&'a MoveList>,
    /// SPEC: the Result tag, else the movetext's result token; `*` unknown.
    pub result: &'a [u8],
    /// Art. 6.9: the side that ran out of time, when the game was lost on
    /// time (SPEC "Lost on time", [`site::record::Record::flagged`]); asked
    /// of valid games only.
    pub flagged: Option<Color>,
}

impl End<'_> {
    /// The result is a draw.
    pub fn drawn(&self) -> bool {
        self.result == b"1/2-1/2"
    }

    /// Art. 6.9: the side with time left, when the game was lost on time
    /// and the result gives it the point.
    pub fn flag_winner(&self) -> Option<Color> {
        let winner = !self.flagged?;
        (result::winner(self.result) == Some(winner)).then_some(winner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{fen::Fen, CastlingMode};

    /// What the rules may rely on: all the legal moves where there are at
    /// most two or the side to move is in check, else all of them or three
    /// legal ones (the same answer to "none?" and "more than two?").
    fn agrees(pos: &Chess) {
        let given = final_moves(pos);
        let all = pos.legal_moves();
        if all.len() <= 2 || pos.is_check() {
            assert_eq!(
                given,
                all,
                "{}",
                Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
            );
        } else if given != all {
            assert_eq!(given.len(), 3);
            assert!(given.iter().all(|m| all.contains(m)));
        }
    }

    /// On every position of pseudo-random games (captures and checks
    /// favoured, so that pins, checks and bare kings come up) and of
    /// positions where few moves are legal.
    #[test]
    fn final_moves_answer_as_all_legal_moves_do() {
        let mut state = 0x853c_49e6_748f_ea9b_u64;
        let mut positions = 0;
        for _ in 0..300 {
            let mut pos = Chess::default();
            for _ in 0..300 {
                agrees(&pos);
                positions += 1;
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let sharp: Vec<&Move> = moves.iter().filter(|m| m.is_capture()).collect();
                let m = if !sharp.is_empty() && !state.is_multiple_of(3) {
                    *sharp[(state >> 8) as usize % sharp.len()]
                } else {
                    moves[(state >> 8) as usize % moves.len()]
                };
                pos.play_unchecked(m);
            }
        }
        for fen in [
            "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",       // stalemate
            "6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1",     // smothered: mate
            "4k3/8/8/8/8/8/3q4/r3K3 w - - 0 1",     // mate by two
            "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1",    // a pinned bishop
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",    // en passant
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", // castling
            "8/8/8/8/8/5k2/7p/7K w - - 0 1",        // one king move
            "1k6/8/8/8/8/8/1p6/K7 w - - 0 1",       // pawns only
        ] {
            let pos: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            agrees(&pos);
        }
        assert!(positions > 30_000, "{positions}");
    }
}
