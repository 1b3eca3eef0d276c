//! A semi-static proof for locked structures that only a stalemate could
//! open ([`stalemate_proof`]): the chess reason behind many composed dead
//! positions, where a king could take a pawn but the taking leaves the
//! other side without a legal move (Art. 9.6 of the 2001 Laws, 5.2.2 today:
//! the stalemate ends the game, so nothing after it counts).
//!
//! The argument, over any continuation from the position:
//!
//! 1. Every pawn stands head-on against a pawn, no pawn can ever take (no
//!    enemy man can reach a square it attacks) and no piece can ever take a
//!    pawn. Then the first move that changes the pawns must be a king taking
//!    a pawn that no pawn defends.
//! 2. Every such capture, from every square the king may come from and with
//!    the other king anywhere it may be, leaves the other side stalemated:
//!    it has only its king and pawns, no king move is legal (own pawns, the
//!    squares the enemy pawns or the taking king attack) and it is not in
//!    check (the king that took gives none, and no line opens through the
//!    square it left). So the pawns never change, and the men stay in their
//!    regions around the fixed pawns.
//! 3. With the pawns fixed, no mate is possible: either no mating picture
//!    fits the regions (`no_mate_picture`), or the loser has only its king
//!    and pawns and its king only two squares, k1 and k2. It must then move
//!    to and fro, so a mate on k1 comes right after the king came from k2:
//!    the winner's one move has to give check on k1 and take k2 away. When
//!    only the winner's king can cover k2, it cannot have stood beside k2
//!    before (the kings would have touched), so it moves there in that
//!    last move, which then gives check only by opening a line: no such
//!    line exists. (The first move of the winner, before the loser has
//!    moved at all, is tried on the board.)

use shakmaty::{attacks, Bitboard, Chess, Color, EnPassantMode, Position, Role, Square};

use super::mobility::{attackers_of, attacks_from, flood, no_mate_picture, Unit};

/// `true` proves that `winner` can never checkmate from `pos` (see the
/// module documentation); `false` means not proven.
pub fn stalemate_proof(pos: &Chess, winner: Color) -> bool {
    if pos.ep_square(EnPassantMode::Legal).is_some() {
        return false;
    }
    let board = pos.board();
    let pawns = board.pawns();
    let white_pawns = pawns & board.white();
    let black_pawns = pawns & board.black();
    // 1. Every pawn head-on against a pawn.
    if Bitboard(white_pawns.0 << 8) & pawns != Bitboard(white_pawns.0 << 8)
        || Bitboard(black_pawns.0 >> 8) & pawns != Bitboard(black_pawns.0 >> 8)
    {
        return false;
    }
    let pawn_attacks_of = |c: Color| -> Bitboard {
        (pawns & board.by_color(c))
            .into_iter()
            .fold(Bitboard::EMPTY, |acc, sq| {
                acc | attacks::pawn_attacks(c, sq)
            })
    };
    let covered = [pawn_attacks_of(Color::White), pawn_attacks_of(Color::Black)];
    let cover = |c: Color| covered[usize::from(c.is_black())];

    // Regions with the pawns fixed: kings avoid pawns and the squares enemy
    // pawns attack; pieces move around the pawns.
    // at most 64 men on a board (composed positions may hold more than
    // 32); a list on the stack
    let mut units: arrayvec::ArrayVec<Unit, 64> = arrayvec::ArrayVec::new();
    for (sq, piece) in board {
        let reach = match piece.role {
            Role::Pawn => Bitboard::from(sq),
            Role::King => flood(
                Bitboard::from(sq),
                !(pawns | cover(!piece.color)),
                pawns,
                |s, _| attacks::king_attacks(s),
            ),
            role => flood(Bitboard::from(sq), !pawns, pawns, |s, occupied| {
                attacks_from(piece.color, role, s, occupied)
            }),
        };
        let mut unit = Unit::new(piece.color, piece.role, sq, reach);
        // A piece may be taken (that never changes the pawns), so it
        // never counts as standing anywhere for good.
        unit.cleared |= !matches!(piece.role, Role::Pawn | Role::King);
        if units.try_push(unit).is_err() {
            return false;
        }
    }
    let region_of_king = |c: Color| -> Bitboard {
        units
            .iter()
            .find(|u| u.color == c && u.role == Role::King)
            .map_or(Bitboard::EMPTY, |u| u.reach)
    };
    // No pawn can take, no piece can take a pawn.
    for u in &units {
        let enemy_pawns = pawns & board.by_color(!u.color);
        match u.role {
            Role::Pawn | Role::King => {}
            role => {
                let hits = u.reach.into_iter().fold(Bitboard::EMPTY, |acc, from| {
                    acc | attacks_from(u.color, role, from, pawns)
                });
                if (hits & enemy_pawns).any() || (u.reach & cover(!u.color)).any() {
                    return false;
                }
            }
        }
    }
    if (covered[0] & black_pawns).any() || (covered[1] & white_pawns).any() {
        return false;
    }
    // The current position must be one the regions describe: no king in
    // check from a pawn now.
    for c in [Color::White, Color::Black] {
        if let Some(k) = board.king_of(c) {
            if cover(!c).contains(k) {
                return false;
            }
        }
    }

    // 2. Every king capture of a pawn stalemates.
    for taker in [Color::White, Color::Black] {
        let king = region_of_king(taker);
        let victim_side = !taker;
        let victims = pawns & board.by_color(victim_side);
        for t in victims {
            // Defended by a pawn: the king cannot take.
            if cover(victim_side).contains(t) {
                continue;
            }
            let from = king & attacks::king_attacks(t);
            if from.is_empty() {
                continue;
            }
            if !stalemates(
                &units,
                board,
                taker,
                t,
                from,
                region_of_king(victim_side),
                &cover,
            ) {
                return false;
            }
        }
    }

    // 3. With the pawns fixed, no mate.
    if no_mate_picture(&units, winner) {
        return true;
    }
    king_shuttle_cannot_be_mated(pos, &units, winner, &cover)
}

/// After `taker`'s king takes the pawn on `t` (coming from a square of
/// `from`), is the other side stalemated, wherever its king stands in
/// `their_king` (not touching the taker's king)?
fn stalemates(
    units: &[Unit],
    board: &shakmaty::Board,
    taker: Color,
    t: Square,
    from: Bitboard,
    their_king: Bitboard,
    cover: &dyn Fn(Color) -> Bitboard,
) -> bool {
    let side = !taker;
    // The stalemated side must have only its king and pawns.
    if !king_and_pawns_only(units, side) {
        return false;
    }
    let own_pawns = board.pawns() & board.by_color(side) & !Bitboard::from(t);
    // The taking king now stands where the pawn stood.
    let pawns_after = board.pawns();
    // Squares the side's king can certainly not step on after the capture.
    let barred = own_pawns | cover(taker) | attacks::king_attacks(t);
    for a in from {
        for k in their_king {
            let near = attacks::king_attacks(k) | Bitboard::from(k);
            if near.contains(a) || near.contains(t) {
                continue;
            }
            // A legal king move left?
            if (attacks::king_attacks(k) & !barred).any() {
                return false;
            }
            // In check after the capture? Pawns: the regions keep the
            // king out of their attacks; the taking king does not touch
            // it; a line may open through `a`.
            if cover(taker).contains(k) || opens_line(units, taker, k, a, pawns_after) {
                return false;
            }
        }
    }
    true
}

/// Could a piece of `side` attack `k` along a line through `a` (the square
/// a king just left), with only `blockers` in the way?
fn opens_line(units: &[Unit], side: Color, k: Square, a: Square, blockers: Bitboard) -> bool {
    let diagonal = attacks::bishop_attacks(k, Bitboard::EMPTY).contains(a);
    let straight = attacks::rook_attacks(k, Bitboard::EMPTY).contains(a);
    if !diagonal && !straight {
        return false;
    }
    // The squares between k and a must be free of blockers.
    if (attacks::between(k, a) & blockers).any() {
        return false;
    }
    // Squares beyond a on the same line (away from k), up to the first
    // blocker.
    let seen_from_a = if diagonal {
        attacks::bishop_attacks(a, blockers)
    } else {
        attacks::rook_attacks(a, blockers)
    };
    let mut beyond = Bitboard::EMPTY;
    for x in seen_from_a & attacks::ray(k, a) {
        if attacks::between(k, x).contains(a) {
            beyond |= Bitboard::from(x);
        }
    }
    units.iter().any(|u| {
        u.color == side
            && match u.role {
                Role::Queen => true,
                Role::Bishop => diagonal,
                Role::Rook => straight,
                _ => false,
            }
            && (u.reach & beyond).any()
    })
}

/// Part 3's second way: the loser has only its king (two squares) and
/// pawns, and the winner can never give check on one of them while the
/// other is taken away.
fn king_shuttle_cannot_be_mated(
    pos: &Chess,
    units: &[Unit],
    winner: Color,
    cover: &dyn Fn(Color) -> Bitboard,
) -> bool {
    let loser = !winner;
    if !king_and_pawns_only(units, loser) {
        return false;
    }
    let Some(loser_king) = units
        .iter()
        .find(|u| u.color == loser && u.role == Role::King)
    else {
        return false;
    };
    let squares: Vec<Square> = loser_king.reach.into_iter().collect();
    let &[k1, k2] = squares.as_slice() else {
        return false;
    };
    let Some(winner_king) = units
        .iter()
        .find(|u| u.color == winner && u.role == Role::King)
    else {
        return false;
    };
    let pawns = pos.board().pawns();
    // The winner's first move, before the loser has moved: on the board.
    if pos.turn() == winner {
        for m in pos.legal_moves() {
            let mut next = pos.clone();
            next.play_unchecked(m);
            if next.is_checkmate() {
                return false;
            }
        }
    }
    for (ki, kj) in [(k1, k2), (k2, k1)] {
        // Who could give check on ki, and who could cover kj?
        let attackers = |target: Square, through: Square| -> bool {
            units.iter().any(|u| {
                u.color == winner
                    && u.role != Role::King
                    && (u.reach & attackers_of(u, target, pawns & !Bitboard::from(through))).any()
            }) || cover(winner).contains(target)
        };
        if !attackers(ki, kj) {
            continue;
        }
        if attackers(kj, ki) {
            return false;
        }
        // Only the winner's king covers kj: it steps from a to b beside kj
        // (not beside ki) and must open a line onto ki through a.
        for b in winner_king.reach & attacks::king_attacks(kj) {
            if attacks::king_attacks(ki).contains(b) || b == ki {
                continue;
            }
            for a in winner_king.reach & attacks::king_attacks(b) {
                let near = attacks::king_attacks(ki)
                    | attacks::king_attacks(kj)
                    | Bitboard::from(ki)
                    | Bitboard::from(kj);
                if near.contains(a) {
                    continue;
                }
                if opens_line(units, winner, ki, a, pawns | Bitboard::from(b)) {
                    return false;
                }
            }
        }
    }
    true
}

/// Has `side` nothing but its king and pawns?
fn king_and_pawns_only(units: &[Unit], side: Color) -> bool {
    units
        .iter()
        .all(|u| u.color != side || matches!(u.role, Role::King | Role::Pawn))
}
