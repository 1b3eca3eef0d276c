//! Art. 9.3 (the 50-move rule, claimed) and Art. 9.6.2 (75 moves,
//! automatic).
//!
//! > 9.3 The game is drawn, upon a correct claim by the player having the
//! > move, if (a) he writes his move [...] which shall result in the last 50
//! > moves having been made by each player without the movement of any pawn
//! > and without any capture, or (b) the last 50 consecutive moves have
//! > been made by each player without the movement of any pawn and without
//! > any capture.

use shakmaty::{Chess, Move, Position};

use super::track::{announcing_move, ClaimTrack, DrawTrack};
use super::{At, End};
use crate::finding::{Finding, Via};
use crate::kind::Kind;

/// Whether the player to move in `pos` (with `legal` moves) can claim under
/// 9.3: the half-move clock is at least 100 (b), or it is 99 and a legal
/// move neither captures nor moves a pawn (a), even one that mates. No
/// claim exists without a legal move (checkmate, stalemate).
pub fn claim(pos: &Chess, legal: &[Move]) -> Option<Via> {
    if legal.is_empty() {
        return None;
    }
    match pos.halfmoves() {
        c if c >= 100 => Some(Via::Occurred),
        99 if legal.iter().any(|m| !m.is_zeroing()) => Some(Via::Announced),
        _ => None,
    }
}

/// Art. 9.3a: the move to name for a claim announced from a position with
/// `legal` moves: `played` when it neither captures nor moves a pawn, else
/// the first such move.
pub fn announcing(legal: &[Move], played: Option<Move>) -> Option<Move> {
    announcing_move(played, legal.iter().copied().filter(|m| !m.is_zeroing()))
}

/// Art. 9.6.2: the game is drawn when the last 75 moves of each player
/// were made without a pawn move or capture, "if the last move resulted in
/// checkmate, that shall take precedence".
pub fn seventyfive(pos: &Chess, legal: &[Move]) -> bool {
    pos.halfmoves() >= 150 && !(legal.is_empty() && pos.is_check())
}

/// Art. 9.3 and 9.6.2 over a game.
#[derive(Default)]
pub struct Fifty {
    claims: ClaimTrack,
    seventyfive: DrawTrack,
}

impl Fifty {
    /// Ready for a new game.
    pub fn start(&mut self) {
        *self = Fifty::default();
    }

    /// At P*i*: a claim under 9.3 from a clock of 99, a 75-move draw where
    /// the edition has automatic draws. The legal moves are generated only
    /// here, once the clock reaches 99.
    #[inline]
    pub fn position(&mut self, at: &At<'_>) {
        let (pos, clock) = (at.pos, at.pos.halfmoves());
        if clock < 99 {
            return;
        }
        let legal = at.legal();
        if let Some(via) = claim(pos, legal) {
            self.claims
                .hit(at.ply, pos, via, || announcing(legal, at.next));
        }
        if at.edition.has_automatic_draws() && seventyfive(pos, legal) {
            self.seventyfive.hit(at.ply, pos);
        }
    }

    /// The findings: a missed claim (excused by a draw at P*n* or P*n-1*),
    /// a 75-move draw the game went on after or did not score as a draw.
    pub fn finish(&self, end: &End<'_>, out: &mut Vec<Finding>) {
        let excused = end.valid && end.drawn();
        out.extend(
            self.claims
                .finding(Kind::MissedFiftyMoves, end.n, excused, end.result),
        );
        out.extend(
            self.seventyfive
                .finding(Kind::SeventyfiveMoves, end.n, end.valid, end.drawn()),
        );
    }
}
