//! Positions as people write them: a FEN read leniently, a line of moves
//! written in SAN with move numbers (what `pgn-arbiter position` and the
//! engine's answers show).

use std::fmt::Write as _;

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Color, Move, Position};

/// A position as an arbiter would set it up: composed positions with more
/// material than a game can reach, or an impossible check, are still
/// analysed (the rules of movement apply to them all the same).
pub fn read_position(text: &str) -> Result<Chess, String> {
    let fen: Fen = text
        .parse()
        .map_err(|e: shakmaty::fen::ParseFenError| e.to_string())?;
    let error = match fen.into_position::<Chess>(CastlingMode::Standard) {
        Ok(pos) => return Ok(pos),
        Err(e) => e,
    };
    let message = error.to_string();
    let error = match error.ignore_too_much_material() {
        Ok(pos) => return Ok(pos),
        Err(e) => e,
    };
    error.ignore_impossible_check().map_err(|_| message)
}

/// SAN of a line of moves from `pos`, with move numbers.
pub fn san_line(pos: &Chess, line: &[Move]) -> Vec<String> {
    let mut pos = pos.clone();
    let mut out = Vec::with_capacity(line.len());
    for &m in line {
        let mut text = String::new();
        let number = pos.fullmoves().get();
        if pos.turn() == Color::White {
            let _ = write!(text, "{number}. ");
        } else if out.is_empty() {
            let _ = write!(text, "{number}... ");
        }
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, m);
        let _ = write!(text, "{san}");
        out.push(text);
    }
    out
}
