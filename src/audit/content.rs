//! A game's content identity ([`ContentId`]) and the bytes it hashes: the
//! tags that name the game, its start position and its moves as played.

use shakmaty::san::SanPlus;
use shakmaty::Move;

use crate::parse::trim;
use crate::split::RawGame;

/// A game's content identity (the findings' `content_id`), beside its
/// text identity [`GameId`](super::GameId): XXH3-128 of its `White`, `Black`, `Date` and
/// `Round` tags (trimmed), its `FEN` tag (none for the standard start, written
/// or not) and
/// its mainline as replayed, each move as its from and to squares and
/// promotion, so comments, clocks, NAGs, variations, other tags, their
/// order and how a move is spelt (`Nf3`, `Ngf3`, `Ng1-f3`) do not count.
/// The same game copied into two collections has one content id; the
/// statistics count it once (`--duplicates once`). Past an illegal move
/// the rest of the mainline counts as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ContentId(pub u128);

impl std::fmt::Display for ContentId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:032x}", self.0)
    }
}

/// The tags of a game's content identity ([`ContentId`]), the start
/// position last.
const CONTENT_TAGS: [&str; 5] = ["White", "Black", "Date", "Round", "FEN"];

/// The standard start position's FEN.
const STANDARD_START: &[u8] = b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Starts the bytes a [`ContentId`] hashes: each of [`CONTENT_TAGS`] as
/// its length and its trimmed value (a missing tag is empty; of a repeated
/// one, the last), found in one pass over the tags. Returns where the
/// start position begins: from there on the bytes are the game's moves
/// alone ([`GameReport::mainline`](super::GameReport::mainline)).
pub(super) fn content_start(buf: &mut Vec<u8>, game: &RawGame<'_>) -> usize {
    let mut values: [&[u8]; 5] = [b""; 5];
    for (name, value) in &game.tags {
        if let Some(i) = CONTENT_TAGS.iter().position(|n| n.as_bytes() == *name) {
            values[i] = trim(value);
        }
    }
    // the standard start written out is the standard start
    if values[4] == STANDARD_START {
        values[4] = b"";
    }
    buf.clear();
    let mut moves_start = 0;
    for (i, v) in values.into_iter().enumerate() {
        if i == 4 {
            moves_start = buf.len();
        }
        buf.extend_from_slice(&(v.len() as u32).to_le_bytes());
        buf.extend_from_slice(v);
    }
    moves_start
}

/// A move played, as a [`ContentId`] counts it: from (6 bits), to (6) and
/// promotion or castling (4); two bytes, little-endian, in its bytes.
#[inline]
pub(super) fn content_code(m: Move) -> u16 {
    let (from, to, extra) = match m {
        Move::Normal {
            from,
            to,
            promotion,
            ..
        } => (from, to, promotion.map_or(0, |r| r as u16)),
        Move::EnPassant { from, to } => (from, to, 8),
        Move::Castle { king, rook } => (king, rook, 9),
        Move::Put { to, .. } => (to, to, 15),
    };
    from as u16 | (to as u16) << 6 | extra << 12
}

/// The moves not replayed (from an illegal one on), as written.
pub(super) fn content_rest(buf: &mut Vec<u8>, rest: &[SanPlus]) {
    use std::io::Write as _;
    if rest.is_empty() {
        return;
    }
    buf.push(0xff);
    for san in rest {
        let _ = write!(buf, "{san} ");
    }
}
