//! Art. 9.6 of the 2001 Laws (5.2.2 today) and Art. 6.9: positions where
//! no checkmate can be reached.
//!
//! > 9.6 The game is drawn when a position is reached from which a
//! > checkmate cannot occur by any possible series of legal moves, even
//! > with the most unskilled play.
//!
//! This is the material-only proof (shakmaty's insufficient material, the
//! same as python-chess's). It is sound: it never calls a position dead
//! when a mate is reachable. Positions dead for other reasons (locked pawn
//! chains) are not found yet.

use shakmaty::{Chess, Color, Position};

/// Dead position: neither side can ever checkmate.
pub fn is_dead(pos: &Chess) -> bool {
    pos.is_insufficient_material()
}

/// Art. 6.9: `winner` could not checkmate by any series of legal moves.
pub fn cannot_mate(pos: &Chess, winner: Color) -> bool {
    pos.has_insufficient_material(winner)
}
