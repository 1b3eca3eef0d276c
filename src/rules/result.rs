//! The result of a game (Art. 5.1, 5.2.1, 11) and losses on time (6.9).

use shakmaty::{Chess, Color, MoveList, Position};

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
