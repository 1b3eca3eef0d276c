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

use crate::finding::Via;

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

/// Art. 9.6.2: the game is drawn when the last 75 moves of each player
/// were made without a pawn move or capture, "if the last move resulted in
/// checkmate, that shall take precedence".
pub fn seventyfive(pos: &Chess, legal: &[Move]) -> bool {
    pos.halfmoves() >= 150 && !(legal.is_empty() && pos.is_check())
}
