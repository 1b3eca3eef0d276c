//! Where can each man on the board ever stand? A sound over-approximation
//! of every unit's mobility, and the semi-static proof built on it
//! ([`mobility_proof`]): when no square the loser's king can ever reach
//! admits a mating picture, the side cannot mate (Art. 9.6 of the 2001
//! Laws, 5.2.2 today; Art. 6.9 for a loss on time).
//!
//! The over-approximation is a least fixpoint over "may" facts, after the
//! semi-static system of the Chess Unwinnability Analyzer (Ambrona, FUN
//! 2022): unit `u` may stand on square `s` (its *reach*), unit `u` may
//! leave its square or be taken (it is *cleared*). The rules only ever add
//! facts, and each new fact is justified by facts already present, so by
//! induction over the moves of any real continuation, every square a unit
//! stands on is in its reach, and a unit that never is cleared stays where
//! it is for good. The rules:
//!
//! - A king moves to a neighbouring square unless a unit of its own side
//!   stands there for good, or an enemy unit that stands for good attacks
//!   it (counting as blockers on the way every square anything may ever
//!   stand on, so that attack is certain). A king that may step on an enemy
//!   unit's square may take it.
//! - A knight, bishop, rook or queen moves as it does, passing only through
//!   squares that are not occupied for good.
//! - A pawn pushes unless the square ahead is occupied for good, and never
//!   past a pawn on its file that can neither leave the file nor be taken
//!   (pawns on one file cannot pass each other). It takes diagonally only
//!   onto squares where an enemy unit other than the king may stand (kings
//!   are never taken); such a square is also where an en-passant capture
//!   lands, since the pawn taken has passed it.
//!
//! A possible promotion ends the analysis (not proven): the new piece's
//! whereabouts are not tracked.

use shakmaty::{attacks, Bitboard, Chess, Color, EnPassantMode, Position, Rank, Role, Square};

/// One man on the board and what it may do.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Unit {
    pub(crate) color: Color,
    pub(crate) role: Role,
    pub(crate) home: Square,
    /// Every square it may ever stand on (its home included).
    pub(crate) reach: Bitboard,
    /// Squares a pawn may arrive on by taking.
    took: Bitboard,
    /// May it ever leave its home or be taken?
    pub(crate) cleared: bool,
}

impl Unit {
    /// A man that may stand on `reach` (and never leaves it); `cleared`
    /// unless it stays on `home` for good.
    pub(crate) fn new(color: Color, role: Role, home: Square, reach: Bitboard) -> Unit {
        Unit {
            color,
            role,
            home,
            reach,
            took: Bitboard::EMPTY,
            cleared: reach != Bitboard::from(home),
        }
    }
}

/// The fixpoint: every unit's reach.
struct Mobility {
    /// At most 64 men on a board: a list on the stack (this runs at the end
    /// of every game).
    units: arrayvec::ArrayVec<Unit, 64>,
}

impl Mobility {
    /// Saturates the rules from `pos`. `None` when a pawn may promote.
    fn of(pos: &Chess) -> Option<Mobility> {
        let mut units: arrayvec::ArrayVec<Unit, 64> = arrayvec::ArrayVec::new();
        for (sq, piece) in pos.board() {
            let unit = Unit {
                color: piece.color,
                role: piece.role,
                home: sq,
                reach: Bitboard::from(sq),
                took: Bitboard::EMPTY,
                cleared: false,
            };
            units.try_push(unit).ok()?;
        }
        loop {
            let mut changed = false;
            let by = |c: Color, f: &dyn Fn(&Unit) -> bool| -> Bitboard {
                units
                    .iter()
                    .filter(|u| u.color == c && f(u))
                    .fold(Bitboard::EMPTY, |acc, u| acc | u.reach)
            };
            // Where men stand for good, per side and in all.
            let stay_of = |c: Color| -> Bitboard {
                units
                    .iter()
                    .filter(|u| u.color == c && !u.cleared)
                    .fold(Bitboard::EMPTY, |acc, u| acc | u.home)
            };
            let stay_by = [stay_of(Color::White), stay_of(Color::Black)];
            let stay = stay_by[0] | stay_by[1];
            // Where each side's non-king units may stand (pawns take there).
            let men = [
                by(Color::White, &|u| u.role != Role::King),
                by(Color::Black, &|u| u.role != Role::King),
            ];
            // Where each side may arrive by taking.
            let takes = |c: Color| -> Bitboard {
                units
                    .iter()
                    .filter(|u| u.color == c)
                    .fold(Bitboard::EMPTY, |acc, u| {
                        acc | if u.role == Role::Pawn {
                            u.took
                        } else {
                            u.reach
                        }
                    })
            };
            let takes_by = [takes(Color::White), takes(Color::Black)];
            let ever: Bitboard = units.iter().fold(Bitboard::EMPTY, |acc, u| acc | u.reach);
            // Squares a king of colour c can never step on: attacked for
            // good by an enemy unit that stays (blockers: anything else
            // that may ever stand in the way).
            let no_go = |c: Color| -> Bitboard {
                let own_king = units
                    .iter()
                    .filter(|u| u.color == c && u.role == Role::King)
                    .fold(Bitboard::EMPTY, |acc, u| acc | u.reach);
                let occupied = (ever & !own_king) | stay;
                units.iter().filter(|u| u.color != c && !u.cleared).fold(
                    Bitboard::EMPTY,
                    |acc, u| {
                        acc | attacks_from(
                            u.color,
                            u.role,
                            u.home,
                            occupied & !Bitboard::from(u.home),
                        )
                    },
                )
            };
            let no_go_for = [no_go(Color::White), no_go(Color::Black)];

            for i in 0..units.len() {
                let u = units[i];
                let side = usize::from(u.color.is_black());
                let own_stay = stay_by[side];
                let reach = match u.role {
                    Role::King => flood(u.reach, !own_stay & !no_go_for[side], stay, |sq, _| {
                        attacks::king_attacks(sq)
                    }),
                    Role::Pawn => {
                        let (reach, took) = pawn_reach(&units, i, stay, men[1 - side], &takes_by);
                        if took != u.took {
                            units[i].took = took;
                            changed = true;
                        }
                        reach
                    }
                    role => flood(u.reach, !own_stay, stay, |sq, stay| {
                        attacks_from(u.color, role, sq, stay)
                    }),
                };
                if reach != u.reach {
                    units[i].reach = reach;
                    changed = true;
                }
                if u.role == Role::Pawn
                    && (reach & Bitboard::from_rank(promotion_rank(u.color))).any()
                {
                    return None;
                }
                let taken = u.role != Role::King && (takes_by[1 - side] & reach).any();
                let cleared = reach.count() > 1 || taken;
                if cleared != u.cleared {
                    units[i].cleared = cleared;
                    changed = true;
                }
            }
            if !changed {
                return Some(Mobility { units });
            }
        }
    }
}

fn promotion_rank(c: Color) -> Rank {
    if c.is_white() {
        Rank::Eighth
    } else {
        Rank::First
    }
}

/// Squares a `role` of colour `c` on `from` attacks, `occupied` in the way.
pub(crate) fn attacks_from(c: Color, role: Role, from: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => attacks::pawn_attacks(c, from),
        Role::Knight => attacks::knight_attacks(from),
        Role::Bishop => attacks::bishop_attacks(from, occupied),
        Role::Rook => attacks::rook_attacks(from, occupied),
        Role::Queen => attacks::queen_attacks(from, occupied),
        Role::King => attacks::king_attacks(from),
    }
}

/// Grows `reach` by `step` (from a square, rays stopping at `blockers`, the
/// squares occupied for good) within `allowed` until nothing is added.
pub(crate) fn flood(
    reach: Bitboard,
    allowed: Bitboard,
    blockers: Bitboard,
    step: impl Fn(Square, Bitboard) -> Bitboard,
) -> Bitboard {
    let mut seen = reach;
    let mut frontier = reach;
    while frontier.any() {
        let mut next = Bitboard::EMPTY;
        for sq in frontier {
            next |= step(sq, blockers);
        }
        next = next & allowed & !seen;
        seen |= next;
        frontier = next;
    }
    seen
}

/// The pawn rule: pushes (never past a pawn that can neither leave its file
/// nor be taken), double pushes from the second rank, and takes onto
/// squares where an enemy man may stand. Returns (reach, squares taken on).
fn pawn_reach(
    units: &[Unit],
    i: usize,
    stay: Bitboard,
    enemy_men: Bitboard,
    takes_by: &[Bitboard; 2],
) -> (Bitboard, Bitboard) {
    let u = units[i];
    let white = u.color.is_white();
    let side = usize::from(!white);
    let file = Bitboard::from_file(u.home.file());
    // Squares at or beyond the first pawn on the file it can never pass.
    let mut beyond = Bitboard::EMPTY;
    if (u.reach & !file).is_empty() {
        for q in units {
            if q.role != Role::Pawn || q.home == u.home || q.home.file() != u.home.file() {
                continue;
            }
            let ahead = if white {
                q.home.rank() > u.home.rank()
            } else {
                q.home.rank() < u.home.rank()
            };
            if !ahead || (q.reach & !file).any() {
                continue;
            }
            let limit = if q.color != u.color {
                // The enemy pawn only comes closer: never at or past its home.
                if (takes_by[side] & q.reach).any() {
                    continue;
                }
                q.home
            } else {
                // An own pawn ahead: never at or past its furthest square.
                if (takes_by[1 - side] & q.reach).any()
                    || (q.reach & Bitboard::from_rank(promotion_rank(q.color))).any()
                {
                    continue;
                }
                let furthest = if white {
                    q.reach.last()
                } else {
                    q.reach.first()
                };
                match furthest {
                    Some(sq) => sq,
                    None => continue,
                }
            };
            beyond |= at_or_beyond(limit, white) & file;
        }
    }
    let blocked = stay | beyond;
    let mut reach = u.reach;
    let mut took = u.took;
    let mut frontier = reach;
    while frontier.any() {
        let mut next = Bitboard::EMPTY;
        for x in frontier {
            if x.rank() == promotion_rank(u.color) {
                continue;
            }
            let push = if white { x.offset(8) } else { x.offset(-8) };
            if let Some(p) = push {
                if !blocked.contains(p) {
                    next |= Bitboard::from(p);
                    let start = if white { Rank::Second } else { Rank::Seventh };
                    if x.rank() == start {
                        if let Some(p2) = if white { p.offset(8) } else { p.offset(-8) } {
                            if !blocked.contains(p2) {
                                next |= Bitboard::from(p2);
                            }
                        }
                    }
                }
            }
            let t = attacks::pawn_attacks(u.color, x) & enemy_men;
            took |= t;
            next |= t;
        }
        next &= !reach;
        reach |= next;
        frontier = next;
    }
    (reach, took)
}

/// The squares of `sq`'s file and every rank at or beyond it, seen from a
/// pawn moving up (`white`) or down.
fn at_or_beyond(sq: Square, white: bool) -> Bitboard {
    let r = u32::from(sq.rank());
    let bits = if white {
        u64::MAX << (8 * r)
    } else {
        u64::MAX >> (8 * (7 - r))
    };
    Bitboard(bits)
}

/// The mobility proof: after saturating `Mobility`, no square the loser's
/// king may reach admits a mate. A mate on `s` needs a man of the winner
/// giving check from a square it may reach, and every flight square of the
/// king (those it may reach) attacked by a man of the winner or occupied by
/// one of the loser's men, with each man on one square only (a small exact
/// search over the men's possible squares). `true` is a proof that `winner`
/// cannot mate; `false` means not proven.
pub fn mobility_proof(pos: &Chess, winner: Color) -> bool {
    if pos.ep_square(EnPassantMode::Legal).is_some() {
        return false;
    }
    let Some(m) = Mobility::of(pos) else {
        return false;
    };
    no_mate_picture(&m.units, winner)
}

/// No square of the loser king's reach admits a mating picture with the
/// men standing where they may (see [`mobility_proof`]). `false` also when
/// the search for a picture runs out.
pub(crate) fn no_mate_picture(units: &[Unit], winner: Color) -> bool {
    let Some(loser_king) = units
        .iter()
        .find(|u| u.color != winner && u.role == Role::King)
    else {
        return false;
    };
    let stay = units
        .iter()
        .filter(|u| !u.cleared)
        .fold(Bitboard::EMPTY, |acc, u| acc | u.home);
    let mut budget = 200_000u32;
    for s in loser_king.reach {
        let occupied = stay & !Bitboard::from(s) & !Bitboard::from(loser_king.home);
        match mate_picture(units, winner, s, occupied, &mut budget) {
            Some(false) => {}
            // A picture fits, or the search ran out: not proven.
            _ => return false,
        }
    }
    true
}

/// Can men stand so that the loser's king on `s` is checkmated? `Some(true)`
/// if an assignment exists, `Some(false)` if none does, `None` if the
/// budget ran out.
fn mate_picture(
    units: &[Unit],
    winner: Color,
    s: Square,
    occupied: Bitboard,
    budget: &mut u32,
) -> Option<bool> {
    let loser_king = units
        .iter()
        .position(|u| u.color != winner && u.role == Role::King)?;
    let region = units[loser_king].reach;
    // Each man's possible squares (never the king's square; the winner's
    // king never next to it).
    let mut allowed: Vec<Bitboard> = units
        .iter()
        .map(|u| {
            let mut b = u.reach & !Bitboard::from(s);
            if u.role == Role::King && u.color == winner {
                b &= !attacks::king_attacks(s);
            }
            b
        })
        .collect();
    allowed[loser_king] = Bitboard::EMPTY;
    // Slot 0: the checker. Slots 1..: each flight square.
    let flights: Vec<Square> = (attacks::king_attacks(s) & region).into_iter().collect();
    let mut slots: Vec<Vec<(usize, Bitboard)>> = Vec::with_capacity(flights.len() + 1);
    let checkers: Vec<(usize, Bitboard)> = units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.color == winner && u.role != Role::King)
        .map(|(i, u)| (i, attackers_of(u, s, occupied) & allowed[i]))
        .filter(|(_, b)| b.any())
        .collect();
    if checkers.is_empty() {
        return Some(false);
    }
    slots.push(checkers);
    for &f in &flights {
        let mut options = Vec::new();
        for (i, u) in units.iter().enumerate() {
            let b = if u.color == winner {
                attackers_of(u, f, occupied) & allowed[i]
            } else if u.role != Role::King {
                Bitboard::from(f) & allowed[i]
            } else {
                Bitboard::EMPTY
            };
            if b.any() {
                options.push((i, b));
            }
        }
        if options.is_empty() {
            return Some(false);
        }
        slots.push(options);
    }
    // Hardest slots first.
    slots[1..].sort_by_key(|o| o.len());
    fn assign(
        slots: &[Vec<(usize, Bitboard)>],
        k: usize,
        allowed: &mut [Bitboard],
        budget: &mut u32,
    ) -> Option<bool> {
        if k == slots.len() {
            return Some(true);
        }
        for &(i, b) in &slots[k] {
            if *budget == 0 {
                return None;
            }
            *budget -= 1;
            let before = allowed[i];
            let narrowed = before & b;
            if narrowed.is_empty() {
                continue;
            }
            allowed[i] = narrowed;
            let found = assign(slots, k + 1, allowed, budget);
            allowed[i] = before;
            match found {
                Some(false) => {}
                other => return other,
            }
        }
        Some(false)
    }
    assign(&slots, 0, &mut allowed, budget)
}

/// Squares from which `u` would attack `target` (rays through `occupied`).
pub(crate) fn attackers_of(u: &Unit, target: Square, occupied: Bitboard) -> Bitboard {
    match u.role {
        // A pawn of colour c on x attacks target iff a pawn of the other
        // colour on target attacks x.
        Role::Pawn => attacks::pawn_attacks(!u.color, target),
        role => attacks_from(u.color, role, target, occupied),
    }
}
