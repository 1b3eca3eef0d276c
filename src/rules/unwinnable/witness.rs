//! The witness search: a helpmate search with iterative deepening where
//! progress towards a mating picture ([`Targets`]) is free.

use std::collections::hash_map::Entry;

use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{Bitboard, Chess, Color, EnPassantMode, Move, Position, Rank, Role, Square};

use super::Analyzer;
use crate::hashing::Table;

impl Analyzer {
    /// Helpmate search for a witness, with iterative deepening on a cost
    /// where progress is free.
    pub(super) fn find_mate(
        &mut self,
        pos: &Chess,
        winner: Color,
        nodes: u64,
    ) -> Option<Vec<Move>> {
        let primary = Targets::new(pos, winner);
        // A large budget also tries the other corners (up to a million
        // nodes each, half of it for the likeliest picture), then spends
        // what is left on the likeliest picture again.
        let plans: Vec<(Targets, u64)> = if nodes >= 100_000 {
            let share = |part: u64| (nodes / part).min(1_000_000);
            let tries = [
                (primary, share(2)),
                (primary.mirrored_file(), share(6)),
                (primary.mirrored_rank(), share(6)),
                (primary.mirrored_file().mirrored_rank(), share(6)),
            ];
            let spent: u64 = tries.iter().map(|t| t.1).sum();
            let mut plans = tries.to_vec();
            if nodes > spent {
                plans.push((primary, nodes - spent));
            }
            plans
        } else {
            vec![(primary, nodes)]
        };
        let board = pos.board();
        let must_promote = (board.by_color(winner) & !board.pawns() & !board.kings()).is_empty();
        for (target, limit) in plans {
            self.tt.clear();
            let mut search = Search {
                winner,
                must_promote,
                target,
                nodes: 0,
                limit,
                local_limit: 0,
                tt: &mut self.tt,
                line: &mut self.line,
            };
            for max_cost in 2..=1000 {
                // Each deeper iteration may spend more (as CHA does): long
                // helpmates need deep iterations that are not cut short.
                search.local_limit = search.nodes + 10_000 * max_cost as u64;
                search.line.clear();
                if search.visit(pos, None, max_cost, false, 0) {
                    return Some(search.line.clone());
                }
                if search.nodes >= search.limit {
                    break;
                }
            }
        }
        None
    }
}

/// The squares of the mating picture the search steers towards: the loser's
/// king in a corner on the loser's side, the winner's king two ranks away,
/// a loser's piece beside the king, the winner's pieces pointing at it.
#[derive(Clone, Copy)]
struct Targets {
    /// Where the loser's king should go.
    corner: Square,
    /// Where the winner's king should go.
    guard: Square,
    /// Where a loser's piece would block the king in.
    block: Square,
}

impl Targets {
    fn mirrored_file(self) -> Targets {
        Targets {
            corner: self.corner.flip_horizontal(),
            guard: self.guard.flip_horizontal(),
            block: self.block.flip_horizontal(),
        }
    }

    fn mirrored_rank(self) -> Targets {
        Targets {
            corner: self.corner.flip_vertical(),
            guard: self.guard.flip_vertical(),
            block: self.block.flip_vertical(),
        }
    }

    fn new(pos: &Chess, winner: Color) -> Targets {
        let board = pos.board();
        let dark_corner = match blocker_colour(pos, winner) {
            // The block square is of the corner's other colour.
            Some(light_block) => light_block,
            None => {
                (board.bishops() & board.by_color(winner) & Bitboard::DARK_SQUARES).any()
                    || ((board.bishops() & board.by_color(winner)).is_empty()
                        && (board.bishops() & board.by_color(!winner) & Bitboard::LIGHT_SQUARES)
                            .any())
            }
        };
        // Drawn for White winning with a dark corner (h8), then mirrored.
        let (mut corner, mut guard, mut block) = (Square::H8, Square::H6, Square::G8);
        if !dark_corner {
            corner = corner.flip_horizontal();
            guard = guard.flip_horizontal();
            block = block.flip_horizontal();
        }
        if winner == Color::Black {
            corner = corner.flip_vertical().flip_horizontal();
            guard = guard.flip_vertical().flip_horizontal();
            block = block.flip_vertical().flip_horizontal();
        }
        Targets {
            corner,
            guard,
            block,
        }
    }
}

/// What the weighing of one node's moves shares.
struct Node {
    /// The winner's king's prey (see [`Search::prey`]), when it must promote.
    prey: Option<Square>,
    /// The loser must promote for a mate to exist.
    loser_promotes: bool,
}

/// How a move is weighed in the witness search.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Step {
    Progress,
    Neutral,
    Regress,
}

struct Search<'a> {
    winner: Color,
    /// The winner has only pawns besides the king.
    must_promote: bool,
    target: Targets,
    nodes: u64,
    limit: u64,
    local_limit: u64,
    tt: &'a mut Table<u64, i32>,
    line: &'a mut Vec<Move>,
}

impl Search<'_> {
    /// Depth-first helpmate search: true when `self.line` leads to mate.
    /// `key` is `pos`'s Zobrist key when the parent could update its own
    /// cheaply (it is computed here otherwise, and only where needed).
    fn visit(
        &mut self,
        pos: &Chess,
        key: Option<Zobrist64>,
        budget: i32,
        progress: bool,
        ply: u32,
    ) -> bool {
        self.nodes += 1;
        if self.nodes >= self.limit || self.nodes >= self.local_limit {
            return false;
        }
        if pos.has_insufficient_material(self.winner) {
            return false;
        }
        // Only the loser, in check, can be mated: at a leaf nothing else
        // needs move generation.
        let mate_possible = pos.turn() != self.winner && pos.is_check();
        if budget <= 0 || ply >= 200 {
            return mate_possible && pos.is_checkmate();
        }
        let key: Zobrist64 = key.unwrap_or_else(|| pos.zobrist_hash(EnPassantMode::Legal));
        match self.tt.entry(key.0) {
            Entry::Occupied(seen) if *seen.get() >= budget => return false,
            Entry::Occupied(mut seen) => {
                seen.insert(budget);
            }
            Entry::Vacant(slot) => {
                slot.insert(budget);
            }
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return mate_possible;
        }
        let node = if pos.turn() == self.winner {
            Node {
                prey: if self.must_promote {
                    self.prey(pos)
                } else {
                    None
                },
                loser_promotes: false,
            }
        } else {
            Node {
                prey: None,
                loser_promotes: needs_loser_promotion(pos, self.winner),
            }
        };
        let mut steps = [Step::Neutral; 256];
        for (i, &m) in moves.iter().enumerate() {
            steps[i] = self.weigh(pos, m, &node);
        }
        // Progress first: the first line tried is the likeliest mate.
        for step in [Step::Progress, Step::Neutral, Step::Regress] {
            let cost = match step {
                Step::Progress => 0,
                Step::Neutral if progress => 0,
                Step::Neutral => 1,
                Step::Regress => 3,
            };
            let to_leaf = budget - cost <= 0 || ply + 1 >= 200;
            let winner_moves = pos.turn() == self.winner;
            for (i, &m) in moves.iter().enumerate() {
                if steps[i] != step {
                    continue;
                }
                // A leaf is only a mate when the loser is to move there and
                // in check: a loser's move into a leaf, or a winner's move
                // that gives no check, is counted as `visit` would count
                // it (it would return false at once), and not played.
                if to_leaf && (!winner_moves || gives_check(pos, m) == Some(false)) {
                    self.nodes += 1;
                    if self.nodes >= self.limit || self.nodes >= self.local_limit {
                        return false;
                    }
                    continue;
                }
                let mut next = pos.clone();
                next.play_unchecked(m);
                let next_key = child_key(pos, key, m);
                self.line.push(m);
                let progress = step == Step::Progress;
                if self.visit(&next, next_key, budget - cost, progress, ply + 1) {
                    return true;
                }
                self.line.pop();
                if self.nodes >= self.limit || self.nodes >= self.local_limit {
                    return false;
                }
            }
        }
        false
    }

    /// The loser's pawn nearest to the winner's king that no loser's pawn
    /// defends.
    fn prey(&self, pos: &Chess) -> Option<Square> {
        let board = pos.board();
        let king = board.king_of(self.winner)?;
        let loser = !self.winner;
        let pawns = board.pawns() & board.by_color(loser);
        pawns
            .into_iter()
            .filter(|&sq| (shakmaty::attacks::pawn_attacks(self.winner, sq) & pawns).is_empty())
            .min_by_key(|&sq| king_distance(king, sq))
    }

    fn weigh(&self, pos: &Chess, m: Move, node: &Node) -> Step {
        let winner_moves = pos.turn() == self.winner;
        let role = m.role();
        let from = m.from().unwrap_or(m.to());
        let to = m.to();
        if winner_moves {
            let goal = if role == Role::King {
                self.target.guard
            } else {
                self.target.corner
            };
            // Without pieces that mate, the king frees a pawn first: it
            // walks to a loser's pawn that no pawn defends.
            if let (Role::King, Some(prey)) = (role, node.prey) {
                if king_distance(to, prey) < king_distance(from, prey) {
                    return Step::Progress;
                }
            }
            if m.is_capture() || advanced_push(pos, m) || closer(role, from, to, goal) {
                Step::Progress
            } else {
                Step::Neutral
            }
        } else {
            let goal = if role == Role::King {
                self.target.corner
            } else {
                self.target.block
            };
            if node.loser_promotes {
                let heavy = matches!(m.promotion(), Some(Role::Queen | Role::Rook));
                if role == Role::Pawn && !heavy {
                    return Step::Progress;
                }
                if !closer(role, from, to, goal) {
                    return Step::Regress;
                }
            }
            if closer(role, from, to, goal) {
                Step::Progress
            } else if m.is_capture() {
                Step::Regress
            } else {
                Step::Neutral
            }
        }
    }
}

/// The Zobrist key after `m`, updated from `key` (the key of `pos`) where
/// that is sure to equal the key computed from scratch: shakmaty's update
/// (no e.p. square, no king move, no castling-rights square), and a king
/// move of a side without castling rights when there is no e.p. square
/// and no right on `to`: only the king, a man it takes and the turn change.
#[inline]
fn child_key(pos: &Chess, key: Zobrist64, m: Move) -> Option<Zobrist64> {
    if let Some(next) = pos.update_zobrist_hash(key, m, EnPassantMode::Legal) {
        return Some(next);
    }
    let Move::Normal {
        role: Role::King,
        from,
        capture,
        to,
        promotion: None,
    } = m
    else {
        return None;
    };
    let us = pos.turn();
    let rights = pos.castles().castling_rights();
    if pos.ep_square(EnPassantMode::Always).is_some()
        || rights.contains(to)
        || (rights & Bitboard::from_rank(us.backrank())).any()
    {
        return None;
    }
    let mut next = key;
    next ^= Zobrist64::zobrist_for_white_turn();
    next ^= Zobrist64::zobrist_for_piece(from, Role::King.of(us));
    next ^= Zobrist64::zobrist_for_piece(to, Role::King.of(us));
    if let Some(taken) = capture {
        next ^= Zobrist64::zobrist_for_piece(to, taken.of(!us));
    }
    Some(next)
}

/// Whether the normal move `m` checks the opponent's king, from the board
/// alone: the man that moves attacks the king from `to`, or a slider of
/// the mover's attacks it through the square left. (Before the move the
/// opponent, not to move, is not in check, so no other man of the mover
/// can give check.) `None` for castling, e.p. and a board without that
/// king: the caller then plays the move.
#[inline]
fn gives_check(pos: &Chess, m: Move) -> Option<bool> {
    let Move::Normal {
        role,
        from,
        to,
        promotion,
        ..
    } = m
    else {
        return None;
    };
    let board = pos.board();
    let us = pos.turn();
    let king = board.king_of(!us)?;
    let occupied = (board.occupied() ^ Bitboard::from_square(from)) | Bitboard::from_square(to);
    let piece = promotion.unwrap_or(role).of(us);
    if shakmaty::attacks::attacks(to, piece, occupied).contains(king) {
        return Some(true);
    }
    let ours = board.by_color(us) & !Bitboard::from_square(from);
    let diagonal = (board.bishops() | board.queens()) & ours;
    let straight = (board.rooks() | board.queens()) & ours;
    let discovered = (shakmaty::attacks::bishop_attacks(king, occupied) & diagonal)
        | (shakmaty::attacks::rook_attacks(king, occupied) & straight);
    Some(discovered.any())
}

/// A pawn push from the side's fifth rank or beyond.
fn advanced_push(pos: &Chess, m: Move) -> bool {
    m.role() == Role::Pawn
        && !m.is_capture()
        && m.from().is_some_and(|from| match pos.turn() {
            Color::White => from.rank() >= Rank::Fifth,
            Color::Black => from.rank() <= Rank::Fourth,
        })
}

/// A king or knight move that shortens its way to `goal`.
fn closer(role: Role, from: Square, to: Square, goal: Square) -> bool {
    match role {
        Role::King => king_distance(to, goal) < king_distance(from, goal),
        Role::Knight => knight_distance(to, goal) < knight_distance(from, goal),
        _ => false,
    }
}

/// The winner's material can only mate with help the loser does not have
/// yet: a lone knight against pawns and queens, or same-coloured bishops
/// against no knights and no bishop of the other colour. The loser's pawns
/// should then promote (to a minor piece).
fn needs_loser_promotion(pos: &Chess, winner: Color) -> bool {
    let board = pos.board();
    let ours = board.by_color(winner);
    let theirs = board.by_color(!winner);
    if ours.count() == 2 && (ours & board.knights()).count() == 1 {
        return (theirs & (board.knights() | board.bishops() | board.rooks())).is_empty();
    }
    let bishops = ours & board.bishops();
    if bishops.any() && ours.count() == bishops.count() + 1 {
        let colour = if (bishops & Bitboard::DARK_SQUARES).any() {
            Bitboard::DARK_SQUARES
        } else {
            Bitboard::LIGHT_SQUARES
        };
        return (board.bishops() & !colour).is_empty() && (theirs & board.knights()).is_empty();
    }
    false
}

/// A lone knight with no bishop on the board mates only against a man of
/// the loser's that blocks its king in; that man is to come from the
/// loser's pawn nearest its queening square, and a bishop promoted there
/// blocks only on squares of that square's colour. `Some(true)` when that
/// queening square is light (`None`: not this case, or no pawn).
fn blocker_colour(pos: &Chess, winner: Color) -> Option<bool> {
    let board = pos.board();
    if board.bishops().any() || !needs_loser_promotion(pos, winner) {
        return None;
    }
    let loser = !winner;
    let pawns = board.pawns() & board.by_color(loser);
    let nearest = match loser {
        Color::White => pawns.last(),
        Color::Black => pawns.first(),
    }?;
    let queening = Square::from_coords(nearest.file(), loser.fold_wb(Rank::Eighth, Rank::First));
    Some(Bitboard::LIGHT_SQUARES.contains(queening))
}

/// King moves between two squares on an empty board (shakmaty's
/// `Square::distance`, which is not inlined across crates: it was a
/// twentieth of the search).
#[inline]
fn king_distance(a: Square, b: Square) -> u8 {
    let (a, b) = (u8::from(a), u8::from(b));
    let files = (a & 7).abs_diff(b & 7);
    let ranks = (a >> 3).abs_diff(b >> 3);
    files.max(ranks)
}

/// Knight moves between two squares on an empty board.
#[inline]
fn knight_distance(a: Square, b: Square) -> u8 {
    KNIGHT_DISTANCE[usize::from(a) * 64 + usize::from(b)]
}

/// [`knight_distance`] for every pair of squares, by a breadth-first walk
/// from each square, made at compile time.
static KNIGHT_DISTANCE: [u8; 64 * 64] = knight_distances();

const fn knight_distances() -> [u8; 64 * 64] {
    const JUMPS: [(i8, i8); 8] = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    let mut table = [u8::MAX; 64 * 64];
    let mut start = 0;
    while start < 64 {
        let row = start * 64;
        table[row + start] = 0;
        let mut d = 0;
        let mut grew = true;
        while grew {
            grew = false;
            let mut sq = 0;
            while sq < 64 {
                if table[row + sq] == d {
                    let mut j = 0;
                    while j < 8 {
                        let file = (sq % 8) as i8 + JUMPS[j].0;
                        let rank = (sq / 8) as i8 + JUMPS[j].1;
                        if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
                            let to = (rank * 8 + file) as usize;
                            if table[row + to] == u8::MAX {
                                table[row + to] = d + 1;
                                grew = true;
                            }
                        }
                        j += 1;
                    }
                }
                sq += 1;
            }
            d += 1;
        }
        start += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Calls `visit` with every legal move of every position of 40 random
    /// games of up to 80 plies from each of `fens` (xorshift from `seed`).
    fn random_games(fens: &[&str], seed: u64, mut visit: impl FnMut(&Chess, Move)) {
        use shakmaty::{fen::Fen, CastlingMode};
        let mut state = seed;
        for fen in fens {
            for _ in 0..40 {
                let mut pos: Chess = fen
                    .parse::<Fen>()
                    .unwrap()
                    .into_position(CastlingMode::Standard)
                    .unwrap();
                for _ in 0..80 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    for &m in &moves {
                        visit(&pos, m);
                    }
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    pos.play_unchecked(moves[(state % moves.len() as u64) as usize]);
                }
            }
        }
    }

    /// Every key [`child_key`] gives equals the key computed from scratch,
    /// over random games from positions with castling rights, e.p. squares
    /// and kings that walk; and king moves are updated, not only recomputed.
    #[test]
    fn child_keys_equal_keys_from_scratch() {
        let fens = [
            "r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1",
            "4k3/2p5/8/3P4/8/8/8/R3K3 b Q - 0 1",
            "8/8/3k4/8/2K5/8/1P6/8 w - - 0 1",
        ];
        let mut updated_kings = 0;
        random_games(&fens, 0x9e37_79b9_7f4a_7c15, |pos, m| {
            let key: Zobrist64 = pos.zobrist_hash(EnPassantMode::Legal);
            if let Some(next) = child_key(pos, key, m) {
                let mut after = pos.clone();
                after.play_unchecked(m);
                assert_eq!(next, after.zobrist_hash(EnPassantMode::Legal));
                updated_kings += u32::from(m.role() == Role::King && !m.is_castle());
            }
        });
        assert!(updated_kings > 100, "{updated_kings}");
    }

    /// [`gives_check`] answers as playing the move and asking
    /// `is_check` does, on every legal move of random games (promotions,
    /// captures, discovered checks, kings walking into view).
    #[test]
    fn gives_check_agrees_with_playing_the_move() {
        use shakmaty::fen::Fen;
        let fens = [
            "r3k2r/pppq1ppp/2n2n2/3pp3/1b1PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1",
            "4k3/1P4P1/8/3q4/8/4B3/3R4/1B2K2R w K - 0 1",
            "8/8/3k4/8/2K5/8/1P6/8 w - - 0 1",
        ];
        let (mut checks, mut answered) = (0, 0);
        random_games(&fens, 0x2545_f491_4f6c_dd1d, |pos, m| {
            if let Some(check) = gives_check(pos, m) {
                let mut after = pos.clone();
                after.play_unchecked(m);
                let fen = Fen::from_position(pos, EnPassantMode::Legal);
                assert_eq!(check, after.is_check(), "{m:?} in {fen}");
                checks += u32::from(check);
                answered += 1;
            }
        });
        assert!(checks > 500 && answered > 10_000, "{checks} {answered}");
    }

    /// The compile-time tables agree with shakmaty: king distance with
    /// `Square::distance`, knight distance with a walk over
    /// `knight_attacks`.
    #[test]
    fn distances_agree_with_shakmaty() {
        for a in Square::ALL {
            let mut frontier = vec![a];
            let mut seen = Bitboard::from(a);
            let mut d = 0;
            while !frontier.is_empty() {
                for &sq in &frontier {
                    assert_eq!(knight_distance(a, sq), d, "{a} {sq}");
                }
                let mut next = Vec::new();
                for sq in frontier {
                    for to in shakmaty::attacks::knight_attacks(sq) & !seen {
                        seen.add(to);
                        next.push(to);
                    }
                }
                frontier = next;
                d += 1;
            }
            assert_eq!(seen, Bitboard::FULL);
            for b in Square::ALL {
                assert_eq!(u32::from(king_distance(a, b)), a.distance(b), "{a} {b}");
            }
        }
    }
}
