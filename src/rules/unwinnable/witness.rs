//! The witness search: a helpmate search with iterative deepening where
//! progress towards a mating picture ([`Targets`]) is free.

use std::collections::HashMap;
use std::sync::OnceLock;

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Bitboard, Chess, Color, EnPassantMode, Move, Position, Rank, Role, Square};

use super::Analyzer;

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
                if search.visit(pos, max_cost, false, 0) {
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
        let dark_corner = (board.bishops() & board.by_color(winner) & Bitboard::DARK_SQUARES).any()
            || ((board.bishops() & board.by_color(winner)).is_empty()
                && (board.bishops() & board.by_color(!winner) & Bitboard::LIGHT_SQUARES).any());
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
    tt: &'a mut HashMap<u64, i32>,
    line: &'a mut Vec<Move>,
}

impl Search<'_> {
    /// Depth-first helpmate search: true when `self.line` leads to mate.
    fn visit(&mut self, pos: &Chess, budget: i32, progress: bool, ply: u32) -> bool {
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
        let key: Zobrist64 = pos.zobrist_hash(EnPassantMode::Legal);
        match self.tt.get(&key.0) {
            Some(&seen) if seen >= budget => return false,
            _ => {
                self.tt.insert(key.0, budget);
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
            for (i, &m) in moves.iter().enumerate() {
                if steps[i] != step {
                    continue;
                }
                let mut next = pos.clone();
                next.play_unchecked(m);
                self.line.push(m);
                if self.visit(&next, budget - cost, step == Step::Progress, ply + 1) {
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
            .min_by_key(|&sq| king.distance(sq))
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
                if to.distance(prey) < from.distance(prey) {
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
        Role::King => to.distance(goal) < from.distance(goal),
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

/// Knight moves between two squares on an empty board.
fn knight_distance(a: Square, b: Square) -> u8 {
    static TABLE: OnceLock<Vec<u8>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut table = vec![u8::MAX; 64 * 64];
        for start in Square::ALL {
            let row = &mut table[usize::from(start) * 64..][..64];
            row[usize::from(start)] = 0;
            let mut frontier = vec![start];
            let mut d = 0;
            while !frontier.is_empty() {
                d += 1;
                let mut next = Vec::new();
                for sq in frontier {
                    for to in shakmaty::attacks::knight_attacks(sq) {
                        if row[usize::from(to)] == u8::MAX {
                            row[usize::from(to)] = d;
                            next.push(to);
                        }
                    }
                }
                frontier = next;
            }
        }
        table
    });
    table[usize::from(a) * 64 + usize::from(b)]
}
