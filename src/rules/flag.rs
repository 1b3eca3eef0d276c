//! Art. 6.9: a loss on time the winner could not have won.
//!
//! > 6.9 [...] if a player does not complete the prescribed number of moves
//! > in the allotted time, the game is lost by the player. However, the
//! > game is drawn if the position is such that the opponent cannot
//! > checkmate the player's king by any possible series of legal moves.

use shakmaty::{Color, Position};

use super::dead::{Dead, DeadEnd};
use super::unwinnable::{Answer, Proof};
use super::End;
use crate::finding::{Detail, Finding, Spot};
use crate::kind::{ByKind, Kind};
use crate::positions::san_line;

/// At the end of a valid game lost on time and won by the side with time
/// left ([`End::flag_winner`]): an
/// `unwinnable_flag` finding when the winner could not have mated (a dead
/// position, insufficient material, or the engine's proof); `Unknown`
/// answers are counted in `undecided`.
pub fn unwinnable(
    end: &End<'_>,
    dead_end: DeadEnd,
    dead: &mut Dead,
    undecided: &mut ByKind<bool>,
    out: &mut Vec<Finding>,
) {
    let Some(winner) = end.flag_winner() else {
        return;
    };
    let pos = end.pos;
    // `None`: not examined (`--dead material` only asks about material).
    let answer = match dead_end.proof {
        Some(proof) => Some(Answer::Unwinnable(proof)),
        None if pos.has_insufficient_material(winner) => Some(Answer::Unwinnable(Proof::Material)),
        None => match dead_end.flag {
            Some(answer) => Some(answer),
            None => dead.can_mate(pos, winner),
        },
    };
    match answer {
        Some(Answer::Unwinnable(proof)) => out.push(Finding {
            kind: Kind::UnwinnableFlag,
            ply: end.n,
            side: pos.turn(),
            occurrences: 1,
            detail: Detail::Unwinnable { winner, proof },
            at: Spot::of(pos),
        }),
        Some(Answer::Unknown) => undecided[Kind::UnwinnableFlag] = true,
        Some(Answer::Winnable(_)) | None => {}
    }
}

/// At the end of a valid game lost on time and scored ½-½: a `drawn_flag`
/// finding when the side with time left (the one that did not flag, SPEC
/// "Lost on time") could mate, proven by a mating line from the
/// engine's witness search. No finding for a checkmate or a stalemate (the
/// game ended there, 5.1 / 5.2.1) nor a dead position; `Unknown` answers
/// are counted in `undecided`; `--dead material` asks nothing.
pub fn drawn(
    end: &End<'_>,
    dead_at_end: bool,
    dead: &mut Dead,
    undecided: &mut ByKind<bool>,
    out: &mut Vec<Finding>,
) {
    let Some(legal) = end.legal else {
        return;
    };
    let Some(flagged) = end.flagged else {
        return;
    };
    if !end.drawn() || legal.is_empty() || dead_at_end {
        return;
    }
    let pos = end.pos;
    let winner: Color = !flagged;
    match dead.find_mate(pos, winner) {
        Some(Answer::Winnable(line)) => out.push(Finding {
            kind: Kind::DrawnFlag,
            ply: end.n,
            side: pos.turn(),
            occurrences: 1,
            detail: Detail::DrawnFlag {
                winner,
                mate: san_line(pos, &line).join(" "),
            },
            at: Spot::of(pos),
        }),
        Some(Answer::Unknown) => undecided[Kind::DrawnFlag] = true,
        Some(Answer::Unwinnable(_)) | None => {}
    }
}
