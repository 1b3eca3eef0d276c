//! The blocked-position proof: locked pawns, and the regions the pieces
//! can reach around them, leave no square where the king could be mated.

use shakmaty::{Bitboard, Chess, Color, EnPassantMode, Position, Role, Square};

use crate::rules::mobility::{attacks_from, flood};

/// The semi-static proof (Proof::Blocked): when no pawn can ever move or
/// be captured, every piece stays inside the region it can reach around
/// the fixed pawns, and a mate needs, on some square of the loser king's
/// region, a checker that can attack it and, for every flight square, an
/// attacker or a blocker (one piece per blocked square). When no square
/// qualifies, `winner` can never mate.
///
/// Frozen pawns: (a) each pawn has a pawn, or a king that cannot move, in
/// front of it; (b) no pawn can
/// take a pawn, nor a piece that can reach a square the pawn attacks;
/// (c) no piece can reach a pawn of the other side, and no king a pawn no
/// pawn defends. Then, by induction over the moves, the first move that
/// changed the pawns would need one of these: there is none.
///
/// Every step over-approximates what can happen (pieces other than pawns
/// are transparent, regions ignore whose turn it is and what the other
/// pieces do), so a `true` is a proof.
pub fn blocked_proof(pos: &Chess, winner: Color) -> bool {
    use shakmaty::attacks::pawn_attacks;

    let board = pos.board();
    let pawns = board.pawns();
    if pos.ep_square(EnPassantMode::Legal).is_some() {
        return false;
    }
    let white_pawns = pawns & board.white();
    let black_pawns = pawns & board.black();
    let pawn_cover = |color: Color| -> Bitboard {
        (pawns & board.by_color(color))
            .into_iter()
            .fold(Bitboard::EMPTY, |acc, sq| acc | pawn_attacks(color, sq))
    };
    let covered = [pawn_cover(Color::White), pawn_cover(Color::Black)];
    let cover_of = |c: Color| covered[usize::from(c.is_black())];
    // (b) no pawn can take a pawn now.
    if (covered[0] & black_pawns).any() || (covered[1] & white_pawns).any() {
        return false;
    }

    // Regions and attack sets of every piece, pawns fixed.
    // at most 64 men on a board (composed positions may hold more than
    // 32); a list on the stack
    let mut pieces: arrayvec::ArrayVec<(Color, Role, Bitboard, Bitboard), 64> =
        arrayvec::ArrayVec::new();
    // Squares that are never empty: pawns, and kings that cannot move.
    let mut stuck = pawns;
    for (sq, piece) in board {
        if piece.role == Role::Pawn {
            continue;
        }
        let forbidden = if piece.role == Role::King {
            cover_of(!piece.color)
        } else {
            Bitboard::EMPTY
        };
        // Every square it can walk to around the fixed pawns, and every
        // square it attacks from there.
        let region = flood(
            Bitboard::from(sq),
            !pawns & !forbidden,
            pawns,
            |from, occupied| attacks_from(piece.color, piece.role, from, occupied),
        );
        let attacks = region.into_iter().fold(Bitboard::EMPTY, |acc, from| {
            acc | attacks_from(piece.color, piece.role, from, pawns)
        });
        let enemy_pawns = pawns & board.by_color(!piece.color);
        if piece.role == Role::King {
            // (c) a king takes an enemy pawn that no enemy pawn defends.
            if (attacks & enemy_pawns & !cover_of(!piece.color)).any() {
                return false;
            }
        } else {
            // (b) a pawn takes a piece that can stand where it attacks;
            // (c) a piece takes a pawn.
            if (region & cover_of(!piece.color)).any() || (attacks & enemy_pawns).any() {
                return false;
            }
        }
        if piece.role == Role::King && region == Bitboard::from(sq) {
            stuck |= Bitboard::from(sq);
        }
        if pieces
            .try_push((piece.color, piece.role, region, attacks))
            .is_err()
        {
            return false;
        }
    }
    // (a) no pawn can ever push: the square in front of each is never
    // empty (a pawn, or a king walled in by pawns and their attacks).
    if (Bitboard(white_pawns.0 << 8) & stuck).count() != white_pawns.count()
        || (Bitboard(black_pawns.0 >> 8) & stuck).count() != black_pawns.count()
    {
        return false;
    }

    let loser = !winner;
    let Some(&(_, _, king_region, _)) = pieces
        .iter()
        .find(|(c, r, _, _)| *c == loser && *r == Role::King)
    else {
        return false;
    };
    // Squares the winner can check on (pawns included: the loser's king
    // may stand in a pawn's attack now), and squares the winner covers.
    let mut checks = cover_of(winner);
    let mut guards = cover_of(winner);
    for &(c, r, _, attacks) in &pieces {
        if c == winner {
            guards |= attacks;
            if r != Role::King {
                checks |= attacks;
            }
        }
    }
    for s in king_region & checks {
        // Flight squares in the region that the winner cannot attack must
        // be blocked, each by a different piece (other than the kings).
        let need: Vec<Square> = (shakmaty::attacks::king_attacks(s) & king_region & !guards)
            .into_iter()
            .collect();
        let blockers: Vec<Bitboard> = pieces
            .iter()
            .filter(|(_, r, _, _)| *r != Role::King)
            .map(|&(_, _, region, _)| region)
            .collect();
        if can_block_all(&need, &blockers) {
            return false;
        }
    }
    true
}

/// Can every square in `need` get its own blocker (a bipartite matching of
/// squares to pieces whose region holds the square)?
fn can_block_all(need: &[Square], blockers: &[Bitboard]) -> bool {
    fn augment(
        i: usize,
        need: &[Square],
        blockers: &[Bitboard],
        owner: &mut [Option<usize>],
        tried: &mut [bool],
    ) -> bool {
        for (b, region) in blockers.iter().enumerate() {
            if tried[b] || !region.contains(need[i]) {
                continue;
            }
            tried[b] = true;
            if owner[b].is_none_or(|j| augment(j, need, blockers, owner, tried)) {
                owner[b] = Some(i);
                return true;
            }
        }
        false
    }
    if need.len() > blockers.len() {
        return false;
    }
    let mut owner = vec![None; blockers.len()];
    for i in 0..need.len() {
        let mut tried = vec![false; blockers.len()];
        if !augment(i, need, blockers, &mut owner, &mut tried) {
            return false;
        }
    }
    true
}
