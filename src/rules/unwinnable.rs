//! Can a given side still checkmate? The question behind Art. 9.6 of the
//! 2001 Laws (5.2.2 today: a dead position) and Art. 6.9 (a loss on time is
//! a draw when "the opponent cannot checkmate the player's king by any
//! possible series of legal moves").
//!
//! Both sides' moves are chosen freely ("even with the most unskilled
//! play"), so the question is a reachability one: is some position where
//! the side's opponent is checkmated reachable by legal moves? Three answers:
//!
//! - [`Answer::Winnable`] with a witness: the legal moves that lead to the
//!   mate (anyone can replay them).
//! - [`Answer::Unwinnable`] with its [`Proof`]: insufficient material, a
//!   semi-static proof (locked pawns, where each man may ever stand, or a
//!   structure only a stalemate could open), or an exhaustive enumeration
//!   of every reachable position (exact keys, no hashing shortcuts) in
//!   which no mate occurs.
//! - [`Answer::Unknown`]: the budget ran out. Never a guess.
//!
//! Soundness is one-sided by construction: a witness is a legal line found by
//! the search (any pruning there only loses witnesses), and `Unwinnable` is
//! only ever a semi-static proof, each step of which over-approximates what
//! can happen, or the result of a finished enumeration, which prunes
//! nothing but positions where such a proof holds.
//!
//! The witness search is a helpmate search with iterative deepening where
//! moves that make progress towards a mating picture cost nothing and moves
//! that go backwards cost more (the idea of the Chess Unwinnability Analyzer,
//! Ambrona, FUN 2022: aim at a corner of the loser's side, the loser's king
//! walks into it, the winner's pieces come closer). The enumeration decides
//! the blocked positions the search cannot: when pawns are locked and the
//! pieces that remain cannot reach the king, the reachable set is small.

use std::collections::{HashMap, VecDeque};
use std::sync::OnceLock;

use shakmaty::zobrist::Zobrist64;

use super::mobility::{attacks_from, flood, mobility_proof};
use super::stalemate::stalemate_proof;
use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, EnPassantMode, FromSetup, Move, MoveList, Piece,
    Position, Rank, Role, Setup, Square,
};

/// How an `Unwinnable` answer was proven.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Proof {
    /// The side has insufficient material (Art. 9.6 examples; shakmaty's
    /// `has_insufficient_material`).
    Material,
    /// A semi-static proof, no move played: the locked pawns and the
    /// pieces' regions around them leave no square where the king could be
    /// mated ([`blocked_proof`]); or where every man may ever stand admits
    /// no mating picture ([`super::mobility::mobility_proof`]); or only a
    /// stalemate could change the pawns ([`super::stalemate::stalemate_proof`]);
    /// or every reachable position was enumerated and none changed the
    /// pawns.
    Blocked,
    /// Every reachable position was enumerated (pawn moves and captures
    /// included) and none is checkmate.
    Search,
}

impl Proof {
    /// The SPEC's name (`proof` in the reports).
    pub fn as_str(self) -> &'static str {
        match self {
            Proof::Material => "material",
            Proof::Blocked => "blocked",
            Proof::Search => "search",
        }
    }
}

/// Whether a side can still checkmate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// A legal line from the position that ends with the side's opponent
    /// checkmated (empty when the position already is that mate).
    Winnable(Vec<Move>),
    /// No series of legal moves lets the side checkmate (Art. 9.6 / 5.2.2,
    /// 6.9), with the proof.
    Unwinnable(Proof),
    /// Not decided within the budget.
    Unknown,
}

/// How much work one question may cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Plies of choice the forced-line proof follows ([`Analyzer::prove`]).
    pub forced_depth: u32,
    /// Nodes of the witness search, over all its iterations (0: proofs
    /// only, a position no proof settles is `Unknown`).
    pub search_nodes: u64,
    /// Positions the exhaustive enumeration may hold.
    pub reach_positions: usize,
}

impl Budget {
    /// The default audit (`--dead quick`): proofs only, a few microseconds
    /// a question, so that every game's final position can be asked.
    pub const PROOFS: Budget = Budget {
        forced_depth: 2,
        search_nodes: 0,
        reach_positions: 0,
    };
    /// `position --dead quick`: the proofs, then a short witness search.
    pub const QUICK: Budget = Budget {
        forced_depth: 2,
        search_nodes: 3_000,
        reach_positions: 0,
    };
    /// `--dead thorough` and the `position` subcommand (CHA's full mode also
    /// allows ten million nodes); the enumeration holds up to about 370 MB.
    pub const THOROUGH: Budget = Budget {
        forced_depth: 2,
        search_nodes: 10_000_000,
        reach_positions: 2_000_000,
    };
}

/// Reusable tables for the questions (one per thread).
#[derive(Default)]
pub struct Analyzer {
    tt: HashMap<u64, i32>,
    seen: HashMap<Key, u32>,
    parents: Vec<(u32, Move)>,
    line: Vec<Move>,
}

impl Analyzer {
    /// Empty tables.
    pub fn new() -> Analyzer {
        Analyzer::default()
    }

    /// Can `winner` checkmate from `pos` by some series of legal moves?
    pub fn can_mate(&mut self, pos: &Chess, winner: Color, budget: Budget) -> Answer {
        self.can_mate_with(pos, winner, budget, &pos.legal_moves())
    }

    /// [`Analyzer::can_mate`] with the position's legal moves, when the
    /// caller has them already.
    pub fn can_mate_with(
        &mut self,
        pos: &Chess,
        winner: Color,
        budget: Budget,
        legal: &MoveList,
    ) -> Answer {
        if legal.is_empty() {
            // Checkmate or stalemate: the game is over.
            return if pos.is_check() && pos.turn() != winner {
                Answer::Winnable(Vec::new())
            } else {
                Answer::Unwinnable(Proof::Search)
            };
        }
        if pos.has_insufficient_material(winner) {
            return Answer::Unwinnable(Proof::Material);
        }
        // The proofs-only budget must stay cheap: it skips the semi-static
        // proofs where they have (nearly) never held.
        let gated = budget.search_nodes == 0;
        if let Some(proof) = self.proofs(pos, winner, budget.forced_depth, gated, legal) {
            return Answer::Unwinnable(proof);
        }
        if budget.search_nodes == 0 {
            return Answer::Unknown;
        }
        // Cheap attempts first (most positions are decided in a few
        // thousand nodes), then the whole budget.
        const FIRST: u64 = 20_000;
        let first = budget.search_nodes.min(FIRST);
        if let Some(line) = self.find_mate(pos, winner, first) {
            return Answer::Winnable(line);
        }
        let small = budget.reach_positions.min(2_000);
        if small > 0 {
            match self.enumerate(pos, winner, small) {
                Answer::Unknown => {}
                answer => return answer,
            }
        }
        if budget.search_nodes > first {
            if let Some(line) = self.find_mate(pos, winner, budget.search_nodes) {
                return Answer::Winnable(line);
            }
        }
        if budget.reach_positions > small {
            return self.enumerate(pos, winner, budget.reach_positions);
        }
        Answer::Unknown
    }

    /// The proofs alone, no witness search: material, the semi-static
    /// proofs ([`semi_static`]), and the forced-line proof
    /// ([`Analyzer::forced`]) where the side to move has at most two moves
    /// or is in check. `None` when none holds.
    pub fn prove(&self, pos: &Chess, winner: Color, depth: u32) -> Option<Proof> {
        if pos.has_insufficient_material(winner) {
            return Some(Proof::Material);
        }
        self.proofs(pos, winner, depth, true, &pos.legal_moves())
    }

    fn proofs(
        &self,
        pos: &Chess,
        winner: Color,
        depth: u32,
        gated: bool,
        legal: &MoveList,
    ) -> Option<Proof> {
        let semi = if gated {
            semi_static(pos, winner)
        } else {
            blocked_proof(pos, winner)
                || mobility_proof(pos, winner)
                || stalemate_proof(pos, winner)
        };
        if semi {
            return Some(Proof::Blocked);
        }
        // Forced lines need few choices: at most two moves, or a check.
        if legal.len() > 2 && !pos.is_check() {
            return None;
        }
        let mut nodes = 0;
        self.forced_from(pos, winner, depth, 0, &mut nodes, legal)
            .then_some(Proof::Search)
    }

    /// Every line from `pos` ends within `depth` plies of choice (forced
    /// moves are free, up to 100 plies) in a position where `winner` cannot
    /// mate: material, `winner` checkmated, stalemate, or a semi-static
    /// proof. The idea of CHA's quick mode: it fails fast, at the first
    /// line that runs `depth` choices long.
    fn forced(&self, pos: &Chess, winner: Color, depth: u32, ply: u32, nodes: &mut u32) -> bool {
        *nodes += 1;
        if *nodes > 2_000 {
            return false;
        }
        if pos.has_insufficient_material(winner) {
            return true;
        }
        self.forced_from(pos, winner, depth, ply, nodes, &pos.legal_moves())
    }

    fn forced_from(
        &self,
        pos: &Chess,
        winner: Color,
        depth: u32,
        ply: u32,
        nodes: &mut u32,
        moves: &MoveList,
    ) -> bool {
        if moves.is_empty() {
            // Stalemate, or a mate: only the loser's mate is a win.
            return !pos.is_check() || pos.turn() == winner;
        }
        if ply > 0 && semi_static(pos, winner) {
            return true;
        }
        let cost = u32::from(moves.len() > 1);
        if depth < cost || ply >= 100 {
            return false;
        }
        moves.iter().all(|&m| {
            let mut next = pos.clone();
            next.play_unchecked(m);
            self.forced(&next, winner, depth - cost, ply + 1, nodes)
        })
    }

    /// The witness search alone, no proof asked: for soundness tests, which
    /// look for mates where a proof says there are none.
    pub fn find_witness(&mut self, pos: &Chess, winner: Color, nodes: u64) -> Option<Vec<Move>> {
        self.find_mate(pos, winner, nodes)
    }

    /// Helpmate search for a witness, with iterative deepening on a cost
    /// where progress is free.
    fn find_mate(&mut self, pos: &Chess, winner: Color, nodes: u64) -> Option<Vec<Move>> {
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

    /// Breadth-first enumeration of every position reachable from `pos`,
    /// keyed exactly. Finds the shortest mate if there is one; proves there
    /// is none when it finishes within `limit` positions.
    fn enumerate(&mut self, pos: &Chess, winner: Color, limit: usize) -> Answer {
        // A key holds 32 men; a composed position with more (read with too
        // much material) is not enumerated. Men are never added, so every
        // position reached holds no more than this one.
        if pos.board().occupied().count() > 32 {
            return Answer::Unknown;
        }
        self.seen.clear();
        self.parents.clear();
        // The frontier holds keys, not positions (a fifth of the memory);
        // each position is set up again from its key when its turn comes.
        let mut queue: VecDeque<(Key, u32, bool)> = VecDeque::new();
        let root = Key::of(pos);
        self.seen.insert(root, 0);
        self.parents.push((
            u32::MAX,
            Move::Put {
                role: Role::Pawn,
                to: Square::A1,
            },
        ));
        queue.push_back((root, 0, false));
        let mut structure_changed = false;
        while let Some((key, index, zeroed)) = queue.pop_front() {
            let here = if index == 0 {
                pos.clone()
            } else {
                match key.position() {
                    Some(here) => here,
                    None => return Answer::Unknown,
                }
            };
            // No continuation of a side with insufficient material mates,
            // nor of a locked structure with the semi-static proof (asked
            // where the structure just changed).
            if here.has_insufficient_material(winner)
                || (zeroed && (blocked_proof(&here, winner) || mobility_proof(&here, winner)))
            {
                continue;
            }
            let moves = here.legal_moves();
            for &m in &moves {
                let mut next = here.clone();
                next.play_unchecked(m);
                let key = Key::of(&next);
                if self.seen.contains_key(&key) {
                    continue;
                }
                if m.is_zeroing() {
                    structure_changed = true;
                }
                let child = self.parents.len() as u32;
                self.parents.push((index, m));
                if next.turn() != winner && next.is_checkmate() {
                    return Answer::Winnable(self.path_to(child));
                }
                if self.seen.len() >= limit {
                    return Answer::Unknown;
                }
                self.seen.insert(key, child);
                queue.push_back((key, child, m.is_zeroing()));
            }
        }
        Answer::Unwinnable(if structure_changed {
            Proof::Search
        } else {
            Proof::Blocked
        })
    }

    fn path_to(&self, mut index: u32) -> Vec<Move> {
        let mut line = Vec::new();
        while index != 0 {
            let (parent, m) = self.parents[index as usize];
            line.push(m);
            index = parent;
        }
        line.reverse();
        line
    }
}

/// A position's exact identity for the enumeration: placement, side to
/// move, castling rights and the legal en-passant square (Art. 9.2's
/// identity, which is also what decides the moves available).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    occupied: u64,
    /// One nibble per occupied square, in square order (at most 32 pieces),
    /// low half first: two words rather than a `u128`, whose 16-byte
    /// alignment would make every key of the enumeration 48 bytes, not 32.
    pieces: [u64; 2],
    /// Castling rooks (rank 1 in the low byte, rank 8 in the next), the
    /// e.p. square + 1 (0 = none) and the side to move.
    rest: u32,
}

impl Key {
    fn of(pos: &Chess) -> Key {
        let board = pos.board();
        let mut pieces = 0u128;
        let mut shift = 0;
        for (_, piece) in board {
            let code = (piece.role as u128) | ((piece.color.is_white() as u128) << 3);
            pieces |= code << shift;
            shift += 4;
        }
        let rights = pos.castles().castling_rights().0;
        let castles = (rights & 0xff) | ((rights >> 48) & 0xff00);
        let ep = pos
            .ep_square(EnPassantMode::Legal)
            .map_or(0, |sq| u32::from(sq) + 1);
        Key {
            occupied: board.occupied().0,
            pieces: [pieces as u64, (pieces >> 64) as u64],
            rest: castles as u32 | (ep << 16) | ((pos.turn().is_white() as u32) << 24),
        }
    }

    /// The position back from its key, clocks at zero (the enumeration
    /// keeps whether a move was zeroing itself). Composed positions with
    /// more material than a game can reach set up as they were read.
    fn position(&self) -> Option<Chess> {
        let mut board = Board::empty();
        for (i, sq) in Bitboard(self.occupied).into_iter().enumerate() {
            let pieces = u128::from(self.pieces[0]) | (u128::from(self.pieces[1]) << 64);
            let code = (pieces >> (4 * i)) as u8 & 0xf;
            let role = match code & 7 {
                1 => Role::Pawn,
                2 => Role::Knight,
                3 => Role::Bishop,
                4 => Role::Rook,
                5 => Role::Queen,
                6 => Role::King,
                _ => return None,
            };
            let color = Color::from_white(code & 8 != 0);
            board.set_piece_at(sq, Piece { color, role });
        }
        let castles = u64::from(self.rest & 0xffff);
        let ep = (self.rest >> 16) & 0xff;
        let mut setup = Setup::empty();
        setup.board = board;
        setup.turn = Color::from_white(self.rest & (1 << 24) != 0);
        setup.castling_rights = Bitboard((castles & 0xff) | ((castles & 0xff00) << 48));
        setup.ep_square = if ep == 0 {
            None
        } else {
            Square::try_from(ep - 1).ok()
        };
        let error = match Chess::from_setup(setup, CastlingMode::Standard) {
            Ok(pos) => return Some(pos),
            Err(error) => error,
        };
        let error = match error.ignore_too_much_material() {
            Ok(pos) => return Some(pos),
            Err(error) => error,
        };
        error.ignore_impossible_check().ok()
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

/// The semi-static proofs, asked only where a pawn stands head-on against
/// a pawn: each proof needs men that stay for good, and only a pawn that
/// meets a pawn can be the first of those.
pub fn semi_static(pos: &Chess, winner: Color) -> bool {
    let board = pos.board();
    let pawns = board.pawns();
    let white = pawns & board.white();
    let locks = (Bitboard(white.0 << 8) & pawns).count();
    // Against a winner with a knight, rook or queen, a single lock or two
    // have never sufficed (CHA's test vectors: 3 of 1,241 proofs; the
    // Lichess timeouts: none), and they are common in real games.
    let pieces = board.by_color(winner) & (board.knights() | board.rooks_and_queens());
    let worth = match locks {
        0 => false,
        1 | 2 => pieces.is_empty(),
        _ => true,
    };
    worth
        && (blocked_proof(pos, winner)
            || mobility_proof(pos, winner)
            || stalemate_proof(pos, winner))
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

#[cfg(test)]
mod tests {
    use super::Key;
    use crate::positions::read_position;
    use shakmaty::Position;

    #[test]
    fn a_key_takes_32_bytes() {
        assert_eq!(std::mem::size_of::<Key>(), 32);
    }

    #[test]
    fn a_key_sets_up_the_position_it_was_taken_from() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            // Kiwipete: castling rights on both wings.
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            // A legal en-passant capture, Black to move.
            "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",
            // Composed: more bishops than a game can have.
            "k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - - 0 1",
        ] {
            let pos = read_position(fen).unwrap();
            let key = Key::of(&pos);
            let back = key.position().expect(fen);
            assert_eq!(Key::of(&back), key, "{fen}");
            assert_eq!(back.legal_moves().len(), pos.legal_moves().len(), "{fen}");
        }
    }
}
