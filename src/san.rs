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
///
/// Shakmaty's `attacks_to` on the board after the move, with the sliders'
/// lookups asked only where a bishop, rook or queen of `them` stands on a
/// line through the king's square (in most positions none does).
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
    let steppers = (attacks::knight_attacks(king_at) & board.knights())
        | (attacks::king_attacks(king_at) & board.kings())
        | (attacks::pawn_attacks(!them, king_at) & board.pawns());
    if (steppers & their).any() {
        return false;
    }
    let [diagonal, straight] = LINES[usize::from(king_at)];
    let diagonal = their & board.bishops_and_queens() & Bitboard(diagonal);
    let straight = their & board.rooks_and_queens() & Bitboard(straight);
    (diagonal.is_empty() || (attacks::bishop_attacks(king_at, after) & diagonal).is_empty())
        && (straight.is_empty() || (attacks::rook_attacks(king_at, after) & straight).is_empty())
}

/// For each square, the squares on its diagonals and on its rank and file
/// (itself left out): where a slider can stand that may attack it.
static LINES: [[u64; 2]; 64] = lines();

const fn lines() -> [[u64; 2]; 64] {
    let mut lines = [[0u64; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut other = 0;
        while other < 64 {
            let (f, r) = ((other % 8) as i32, (other / 8) as i32);
            let (df, dr) = (f - file, r - rank);
            if other != sq {
                if df == dr || df == -dr {
                    lines[sq][0] |= 1 << other;
                }
                if df == 0 || dr == 0 {
                    lines[sq][1] |= 1 << other;
                }
            }
            other += 1;
        }
        sq += 1;
    }
    lines
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Calls `visit` with every position of `games` pseudo-random games of
    /// up to `plies` plies from the start (legal moves chosen by an
    /// xorshift from `seed`): the positions the unit tests of the move
    /// loop's fast paths compare against shakmaty on.
    pub(crate) fn random_game_positions(
        games: usize,
        plies: usize,
        mut seed: u64,
        mut visit: impl FnMut(&Chess),
    ) {
        for _ in 0..games {
            let mut pos = Chess::default();
            for _ in 0..plies {
                visit(&pos);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos.play_unchecked(moves[seed as usize % moves.len()]);
            }
        }
    }

    /// The king test against shakmaty's `attacks_to` on the board after
    /// the move, for every man of the side to move and every square it
    /// could land on, in the positions of pseudo-random games.
    #[test]
    fn the_king_test_answers_as_attacks_to_does() {
        let mut asked = 0;
        random_game_positions(200, 120, 0x2545_f491_4f6c_dd1d, |pos| {
            let board = pos.board();
            let us = pos.turn();
            let them = !us;
            let Some(king) = board.king_of(us) else {
                return;
            };
            for from in board.by_color(us) {
                let role = board.role_at(from).unwrap();
                for to in !board.by_color(us) {
                    let after = (board.occupied() ^ Bitboard::from_square(from))
                        | Bitboard::from_square(to);
                    let their = board.by_color(them) & !Bitboard::from_square(to);
                    let king_at = if role == Role::King { to } else { king };
                    let want = (board.attacks_to(king_at, them, after) & their).is_empty();
                    assert_eq!(
                        keeps_king_safe(board, them, king, role, from, to),
                        want,
                        "{role:?} {from} {to} in {}",
                        shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
                    );
                    asked += 1;
                }
            }
        });
        assert!(asked > 1_000_000, "{asked}");
    }
}
