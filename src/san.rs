//! Resolving a SAN to the move it names: the answer of shakmaty 0.30's
//! `San::to_move` (SPEC "Decisions on the fine print"), found more cheaply.
//!
//! `to_move` generates every legal move of the role to the target square
//! into a 256-slot move list, returns it by value and filters it. Here the
//! candidates are a bitboard (the squares from which a piece of that role
//! reaches the target) and each is tried by asking whether the king would
//! be attacked after it. The rare cases (castling, en passant, drops, null
//! moves, a position without a king) are left to `to_move` itself.
//! `tests/it/san.rs` compares both on every move of the sample and on many
//! altered SANs.

use shakmaty::{
    attacks,
    san::{San, SanError},
    Bitboard, Board, Chess, Color, Move, Position, Rank, Role, Square,
};

/// The legal move `san` names in `pos`, exactly as `San::to_move` answers.
pub fn resolve(pos: &Chess, san: San) -> Result<Move, SanError> {
    let San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    } = san
    else {
        return san.to_move(pos);
    };
    let board = pos.board();
    let us = pos.turn();
    let them = !us;
    if board.by_color(us).contains(to) {
        return Err(SanError::IllegalSan);
    }
    let target = board.role_at(to);
    if capture != target.is_some() {
        if role == Role::Pawn && capture {
            // maybe en passant
            return san.to_move(pos);
        }
        return Err(SanError::IllegalSan);
    }
    let Some(king) = board.king_of(us) else {
        return san.to_move(pos);
    };
    let occupied = board.occupied();
    let ours = board.by_piece(role.of(us));
    let mut from = match role {
        Role::Pawn => {
            let last = us.relative_rank(Rank::Eighth);
            if (to.rank() == last) != promotion.is_some()
                || matches!(promotion, Some(Role::Pawn | Role::King))
            {
                return Err(SanError::IllegalSan);
            }
            if capture {
                attacks::pawn_attacks(them, to) & ours
            } else {
                pawn_pushes_to(to, us, occupied) & ours
            }
        }
        _ if promotion.is_some() => return Err(SanError::IllegalSan),
        Role::Knight => attacks::knight_attacks(to) & ours,
        Role::Bishop => attacks::bishop_attacks(to, occupied) & ours,
        Role::Rook => attacks::rook_attacks(to, occupied) & ours,
        Role::Queen => attacks::queen_attacks(to, occupied) & ours,
        Role::King => attacks::king_attacks(to) & ours,
    };
    if let Some(f) = file {
        from &= Bitboard::from_file(f);
    }
    if let Some(r) = rank {
        from &= Bitboard::from_rank(r);
    }
    let mut found = None;
    for sq in from {
        if !keeps_king_safe(board, them, king, role, sq, to) {
            continue;
        }
        if found.is_some() {
            return Err(SanError::AmbiguousSan);
        }
        found = Some(Move::Normal {
            role,
            from: sq,
            capture: target,
            to,
            promotion,
        });
    }
    found.ok_or(SanError::IllegalSan)
}

/// Whether the normal move of the `role` on `from` to `to` (no en
/// passant, no castling) leaves its side's king, on `king`, unattacked:
/// no man of `them` but one taken on `to` attacks the king's square on
/// the board after the move. The legality test of [`resolve`] and of
/// [`crate::rules::final_moves`].
#[inline]
pub(crate) fn keeps_king_safe(
    board: &Board,
    them: Color,
    king: Square,
    role: Role,
    from: Square,
    to: Square,
) -> bool {
    let after = (board.occupied() ^ Bitboard::from_square(from)) | Bitboard::from_square(to);
    let their = board.by_color(them) & !Bitboard::from_square(to);
    let king_at = if role == Role::King { to } else { king };
    (board.attacks_to(king_at, them, after) & their).is_empty()
}

/// The squares from which a pawn of `us` pushes to the empty `to`: one
/// step, or two from its start rank over an empty square.
fn pawn_pushes_to(to: Square, us: Color, occupied: Bitboard) -> Bitboard {
    let back = if us.is_white() { -8 } else { 8 };
    let Some(one) = to.offset(back) else {
        return Bitboard::EMPTY;
    };
    if occupied.contains(one) {
        return Bitboard::from_square(one);
    }
    let mut from = Bitboard::EMPTY;
    if to.rank() == us.relative_rank(Rank::Fourth) {
        if let Some(two) = one.offset(back) {
            from |= Bitboard::from_square(two);
        }
    }
    from
}
