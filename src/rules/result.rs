//! The result of a game (Art. 5.1, 5.2.1, 11) and losses on time (6.9).

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, MoveList, Position};

use super::End;
use crate::finding::{Detail, Finding, Spot};
use crate::kind::Kind;

/// Art. 5.1 / 5.2.1: the result a final position imposes, if any: the
/// mating side wins, a stalemate is a draw. `None` when the game could
/// have ended any way. `legal` are the position's legal moves.
pub fn forced_result(pos: &Chess, legal: &MoveList) -> Option<(&'static [u8], &'static str)> {
    if !legal.is_empty() {
        None
    } else if pos.is_check() {
        if pos.turn().is_white() {
            Some((b"0-1", "checkmate, expected 0-1"))
        } else {
            Some((b"1-0", "checkmate, expected 1-0"))
        }
    } else {
        Some((b"1/2-1/2", "stalemate, expected 1/2-1/2"))
    }
}

/// Art. 5.1 / 5.2.1 at the end of a valid game: a `wrong_result` finding
/// when the final position is checkmate or stalemate and the result
/// disagrees.
pub fn wrong_result(end: &End<'_>, out: &mut Vec<Finding>) {
    let Some(legal) = end.legal else {
        return;
    };
    if let Some((expected, reason)) = forced_result(end.pos, legal) {
        if end.result != expected {
            out.push(Finding {
                kind: Kind::WrongResult,
                ply: end.n,
                side: end.pos.turn(),
                occurrences: 1,
                detail: Detail::WrongResult {
                    reason: reason.to_string(),
                },
                at: Spot::of(end.pos),
            });
        }
    }
}

/// SPEC: lost on time when the `Termination` tag contains, in any case,
/// `time forfeit`, `won on time` or `timeout`.
pub fn lost_on_time(termination: Option<&[u8]>) -> bool {
    let Some(t) = termination else {
        return false;
    };
    // any case, without a lowered copy (this is asked of every game)
    [&b"time forfeit"[..], b"won on time", b"timeout"]
        .iter()
        .any(|needle| {
            t.windows(needle.len())
                .any(|w| w.eq_ignore_ascii_case(needle))
        })
}

/// The side a decisive result gives the point to.
pub fn winner(result: &[u8]) -> Option<Color> {
    match result {
        b"1-0" => Some(Color::White),
        b"0-1" => Some(Color::Black),
        _ => None,
    }
}

/// Art. 11 (and 9.6, 5.1, 5.2.1, 6.9): the result the Laws give a game
/// with these findings, where they decide it and it was proven: drawn by
/// an automatic draw (the game ended there, whatever came after), else the
/// result a final checkmate or stalemate imposes, else drawn after a loss
/// on time to a side that could not mate. Never for a missed claim (the
/// player chose to play on), never for an invalid game (its final position
/// is not known), never on an unknown (the engine only reports what it
/// proved). A drawn loss on time the side with time left could have won
/// is that side's. `--fix-results` and the report's points follow it.
pub fn decided_result(findings: &[Finding]) -> Option<&'static str> {
    if findings.iter().any(|f| f.kind == Kind::InvalidGame) {
        return None;
    }
    if findings.iter().any(|f| f.kind.is_automatic_draw()) {
        return Some("1/2-1/2");
    }
    if let Some(f) = findings.iter().find(|f| f.kind == Kind::WrongResult) {
        let pos = position(&f.at.fen)?;
        let (expected, _) = forced_result(&pos, &pos.legal_moves())?;
        return std::str::from_utf8(expected).ok();
    }
    if findings.iter().any(|f| f.kind == Kind::UnwinnableFlag) {
        return Some("1/2-1/2");
    }
    // Art. 6.9: lost by the side that ran out of time, when a mate was
    // possible (a mating line proves it).
    if let Some(Detail::DrawnFlag { winner, .. }) = findings
        .iter()
        .find(|f| f.kind == Kind::DrawnFlag)
        .map(|f| &f.detail)
    {
        return Some(if winner.is_white() { "1-0" } else { "0-1" });
    }
    None
}

fn position(fen: &str) -> Option<Chess> {
    let fen = Fen::from_ascii(fen.as_bytes()).ok()?;
    match fen.clone().into_position(CastlingMode::Standard) {
        Ok(pos) => Some(pos),
        Err(_) => fen.into_position(CastlingMode::Chess960).ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_forfeit_wording() {
        assert!(lost_on_time(Some(b"Time forfeit")));
        assert!(lost_on_time(Some(b"MagnusCarlsen won on time")));
        assert!(lost_on_time(Some(b"TIMEOUT")));
        assert!(!lost_on_time(Some(b"Normal")));
        assert!(!lost_on_time(None));
    }
}
