//! Reading a movetext's mainline in one pass over its bytes, token for
//! token as pgn-reader 0.29 reads it.
//!
//! SPEC: "A movetext token is read as a move exactly when pgn-reader 0.29's
//! SAN reading takes it", so pgn-reader stays the definition and this is a
//! transcription of its `read_game` (byte order, dashes, castling with
//! zeros, skipped variations, `%` and `;` lines, an unterminated comment)
//! over a slice: no buffer to refill and shift near the end of each game,
//! no visitor calls for comments and NAGs. The common SAN shapes (`e4`,
//! `exd5`, `Nf3`, `Nxf3`, with `+` or `#`) are read directly; any other
//! token goes to shakmaty's `SanPlus::from_ascii_prefix`, which pgn-reader
//! calls. A movetext that opens with a tag (`[` after the leading
//! whitespace) is left to pgn-reader itself.
//!
//! `tests/it/movetext.rs` compares the two on every game of the shared corpus
//! and the edge files, and the `movetext` fuzz target on arbitrary bytes.

use memchr::memchr;
use shakmaty::{
    san::{San, SanPlus, Suffix},
    CastlingSide, File, Rank, Role, Square,
};

/// The mainline of one game: its moves as written, and the last result
/// token of the movetext, if any.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Mainline {
    /// The mainline moves, in order, as written (not yet checked for
    /// legality).
    pub sans: Vec<SanPlus>,
    /// The last result token (`1-0`, `0-1`, `1/2-1/2`, `*`), if any.
    pub result_token: Option<&'static str>,
    /// pgn-reader stopped on malformed input (an unterminated comment at the
    /// end of the input); the moves before it are kept.
    pub truncated: bool,
}

/// What the scanner finds, in order.
pub trait Tokens {
    /// A mainline move whose token ends just before byte `end`.
    fn san(&mut self, end: usize, san: SanPlus);
    /// A result token, `text[start..end]`, read as `token` (`1-0`, `0-1`,
    /// `1/2-1/2` or `*`).
    fn result(&mut self, start: usize, end: usize, token: &'static str);
}

/// How a scan ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scanned {
    /// Read to its end (`truncated`: stopped at a comment never closed, as
    /// pgn-reader does, with the moves before it).
    Read {
        /// A comment was never closed.
        truncated: bool,
    },
    /// It opens with a tag section, which pgn-reader reads as tags: nothing
    /// was reported; ask pgn-reader.
    OpensWithTag,
}

impl Tokens for Mainline {
    #[inline]
    fn san(&mut self, _end: usize, san: SanPlus) {
        self.sans.push(san);
    }

    #[inline]
    fn result(&mut self, _start: usize, _end: usize, token: &'static str) {
        self.result_token = Some(token);
    }
}

/// Reads the mainline of `t` into `line` (cleared first), as pgn-reader's
/// `read_game` reads it. Returns `false`, with `line` cleared, when the
/// movetext opens with a tag section, which pgn-reader reads as tags: the
/// caller must then ask pgn-reader.
pub fn scan(t: &[u8], line: &mut Mainline) -> bool {
    line.sans.clear();
    line.result_token = None;
    line.truncated = false;
    match scan_tokens(t, line) {
        Scanned::Read { truncated } => {
            line.truncated = truncated;
            true
        }
        Scanned::OpensWithTag => false,
    }
}

/// Reads `t` as pgn-reader's `read_game` does, telling `out` each mainline
/// move and result token with where it stands.
pub fn scan_tokens(t: &[u8], out: &mut impl Tokens) -> Scanned {
    let n = t.len();
    // before_game: a byte order mark, then whitespace and `%` lines (a `%`
    // counts as a line start until something else is met)
    let mut i = if t.starts_with(b"\xef\xbb\xbf") { 3 } else { 0 };
    while i < n {
        match t[i] {
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            b'%' => i = memchr(b'\n', &t[i + 1..]).map_or(n, |e| i + e + 2),
            _ => break,
        }
    }
    if i < n && t[i] == b'[' {
        return Scanned::OpensWithTag;
    }
    let at = |i: usize| t.get(i).copied();
    let line_end = |i: usize| memchr(b'\n', &t[i.min(n)..]).map_or(n, |e| i + e);
    while i < n {
        match t[i] {
            // comments are mostly short (clock comments): see crate::bytes
            b'{' => match crate::bytes::find(b'}', &t[i + 1..]) {
                Some(e) => i += e + 2,
                None => {
                    // pgn-reader fails on it; the moves before it stand
                    return Scanned::Read { truncated: true };
                }
            },
            b'\n' => {
                i += 1;
                match at(i) {
                    Some(b'%') => i = line_end(i + 1),
                    Some(b'[' | b'\n') => break,
                    Some(b'\r') => {
                        i += 1;
                        if at(i) == Some(b'\n') {
                            break;
                        }
                    }
                    _ => {}
                }
            }
            b';' => i = line_end(i + 1),
            b'0' => i = after_zero(t, i, out),
            b'1' => i = after_one(t, i, out),
            0xc2 => i = after_half(t, i, out),
            b'2'..=b'9' => i = skip_move_number(t, i + 1),
            b'(' => i = skip_variation(t, i + 1),
            b')' => i += 1,
            b'$' => i = skip_token(t, i + 1),
            b'!' | b'?' => {
                i += 1;
                if matches!(at(i), Some(b'!' | b'?')) {
                    i += 1;
                }
            }
            b'*' => {
                i += 1;
                out.result(i - 1, i, "*");
            }
            b' ' | b'\t' | b'\r' | b'.' => i += 1,
            _ => {
                let read = match common_san(&t[i..]) {
                    Some(read) => Some(read),
                    None => SanPlus::from_ascii_prefix(&t[i..]).ok(),
                };
                match read {
                    Some((san, len)) => {
                        i += len;
                        if at(i).is_none_or(is_token_end) {
                            out.san(i, san);
                            i = plain_moves(t, i, out);
                        }
                    }
                    None => i = skip_token(t, i + 1),
                }
            }
        }
    }
    Scanned::Read { truncated: false }
}

/// After a move, the run of plain movetext that follows (blanks, move
/// numbers, moves of the common shapes, closed comments, line breaks that
/// end neither the game nor an escaped line), read as the loop of
/// [`scan_tokens`] reads it but without its dispatch on every byte, whose
/// jump is hard to predict; stops before anything else.
#[inline(always)]
fn plain_moves(t: &[u8], mut i: usize, out: &mut impl Tokens) -> usize {
    while let Some(&b) = t.get(i) {
        if matches!(b, b' ' | b'\t' | b'\r') {
            i += 1;
        } else if matches!(b, b'a'..=b'h' | b'N' | b'B' | b'R' | b'Q' | b'K') {
            let Some((san, len)) = common_san(&t[i..]) else {
                break;
            };
            i += len;
            out.san(i, san);
        } else if b == b'{' {
            // an unclosed one ends the scan: the scan's own loop says so
            let Some(e) = crate::bytes::find(b'}', &t[i + 1..]) else {
                break;
            };
            i += e + 2;
        } else if matches!(b, b'2'..=b'9')
            || (b == b'1' && matches!(t.get(i + 1), Some(b'0'..=b'9' | b'.')))
        {
            // a move number (`1` alone may open `1-0` or `1/2-1/2`)
            i = skip_move_number(t, i + 1);
        } else if b == b'\n' && !matches!(t.get(i + 1), None | Some(b'%' | b'[' | b'\n' | b'\r')) {
            i += 1;
        } else {
            break;
        }
    }
    i
}

/// At a `0`: `0-1`, or castling written with zeros (`0-0`, `0-0-0`);
/// where the token ends.
#[inline]
fn after_zero(t: &[u8], mut i: usize, out: &mut impl Tokens) -> usize {
    let at = |i: usize| t.get(i).copied();
    let start = i;
    i += 1;
    if let Some(j) = dash(t, i) {
        i = j;
        if at(i) == Some(b'1') {
            i += 1;
            out.result(start, i, "0-1");
        } else if at(i) == Some(b'0') {
            i += 1;
            // `0-0-0`; a dash not followed by `0` is eaten all the same
            let side = match dash(t, i) {
                Some(j) => {
                    i = j;
                    if at(i) == Some(b'0') {
                        i += 1;
                        CastlingSide::QueenSide
                    } else {
                        CastlingSide::KingSide
                    }
                }
                None => CastlingSide::KingSide,
            };
            let suffix = suffix_at(at(i));
            if suffix.is_some() {
                i += 1;
            }
            out.san(
                i,
                SanPlus {
                    san: San::Castle(side),
                    suffix,
                },
            );
        }
    }
    i
}

/// At a `1`: `1-0`, `1/2-1/2`, or a move number; where the token ends.
#[inline]
fn after_one(t: &[u8], mut i: usize, out: &mut impl Tokens) -> usize {
    let at = |i: usize| t.get(i).copied();
    let start = i;
    i += 1;
    if let Some(j) = dash(t, i) {
        i = j;
        if at(i) == Some(b'0') {
            i += 1;
            out.result(start, i, "1-0");
        }
    } else {
        // `1/2-1/2`, eaten as far as it matches; when it does
        // not, digits, dots and spaces follow as after a move
        // number
        let mut draw = false;
        if t[i..].starts_with(b"/2") {
            i += 2;
            if let Some(j) = dash(t, i) {
                i = j;
                if t[i..].starts_with(b"1/2") {
                    i += 3;
                    draw = true;
                }
            }
        }
        if draw {
            out.result(start, i, "1/2-1/2");
        } else {
            i = skip_move_number(t, i);
        }
    }
    i
}

/// At `0xc2`: `½-½` (pgn-reader's other spelling of a draw); where the
/// token ends.
#[inline]
fn after_half(t: &[u8], mut i: usize, out: &mut impl Tokens) -> usize {
    let at = |i: usize| t.get(i).copied();
    // `½-½`
    let start = i;
    i += 1;
    if at(i) == Some(0xbd) {
        i += 1;
        if let Some(j) = dash(t, i) {
            i = j;
            if t[i..].starts_with("½".as_bytes()) {
                i += 2;
                out.result(start, i, "1/2-1/2");
            }
        }
    }
    i
}

/// pgn-reader's token ends.
#[inline]
fn is_token_end(b: u8) -> bool {
    matches!(
        b,
        b' ' | b'\t'
            | b'\n'
            | b'\r'
            | b'{'
            | b'}'
            | b'('
            | b')'
            | b'!'
            | b'?'
            | b'$'
            | b';'
            | b'.'
            | b'*'
    )
}

/// Past the next token end, or the end.
fn skip_token(t: &[u8], i: usize) -> usize {
    t[i.min(t.len())..]
        .iter()
        .position(|&b| is_token_end(b))
        .map_or(t.len(), |e| i + e)
}

/// Past `-`, `–` or `—` at `i`, if one is there.
#[inline]
fn dash(t: &[u8], i: usize) -> Option<usize> {
    match t.get(i)? {
        b'-' => Some(i + 1),
        0xe2 if t[i..].starts_with("–".as_bytes()) || t[i..].starts_with("—".as_bytes()) => {
            Some(i + 3)
        }
        _ => None,
    }
}

/// Past the digits, then the dots and spaces, from `i`.
#[inline]
fn skip_move_number(t: &[u8], mut i: usize) -> usize {
    while matches!(t.get(i), Some(b'0'..=b'9')) {
        i += 1;
    }
    while matches!(t.get(i), Some(b'.' | b' ')) {
        i += 1;
    }
    i
}

/// Past a variation opened just before `i`, as pgn-reader's
/// `skip_variation`: it stops before the `)` that closes it, before a blank
/// line or a `[` line, or at the end (an open `{` in a variation runs to
/// the end without an error).
fn skip_variation(t: &[u8], mut i: usize) -> usize {
    let n = t.len();
    let mut depth = 0usize;
    while i < n {
        match t[i] {
            b'(' => {
                depth += 1;
                i += 1;
            }
            b')' => match depth.checked_sub(1) {
                Some(d) => {
                    depth = d;
                    i += 1;
                }
                None => break,
            },
            b'{' => i = memchr(b'}', &t[i + 1..]).map_or(n, |e| i + e + 2),
            b';' => i = memchr(b'\n', &t[i + 1..]).map_or(n, |e| i + e + 1),
            b'\n' => match t.get(i + 1) {
                Some(b'%') => i = memchr(b'\n', &t[i + 2..]).map_or(n, |e| i + e + 2),
                Some(b'[' | b'\n') => break,
                Some(b'\r') if t.get(i + 2) == Some(&b'\n') => break,
                _ => i += 1,
            },
            _ => i += 1,
        }
    }
    i
}

#[inline]
fn suffix_at(b: Option<u8>) -> Option<Suffix> {
    match b {
        Some(b'+') => Some(Suffix::Check),
        Some(b'#') => Some(Suffix::Checkmate),
        _ => None,
    }
}

#[inline]
fn square(file: u8, rank: u8) -> Option<Square> {
    if (b'a'..=b'h').contains(&file) && (b'1'..=b'8').contains(&rank) {
        Some(Square::from_coords(
            File::new(u32::from(file - b'a')),
            Rank::new(u32::from(rank - b'1')),
        ))
    } else {
        None
    }
}

/// The SAN shapes of nearly every move (`e4`, `exd5`, `Nf3`, `Nxf3`, each
/// with `+` or `#` or neither) when the token ends right after them: what
/// `SanPlus::from_ascii_prefix` reads there. `None` for anything else.
// always: since the scan is generic over its output, it was left out of
// line (+13 M instructions on the Lichess file, callgrind)
#[inline(always)]
fn common_san(b: &[u8]) -> Option<(SanPlus, usize)> {
    let role = match b.first()? {
        b'a'..=b'h' => Role::Pawn,
        b'N' => Role::Knight,
        b'B' => Role::Bishop,
        b'R' => Role::Rook,
        b'Q' => Role::Queen,
        b'K' => Role::King,
        _ => return None,
    };
    let (file, capture, to, len) = if role == Role::Pawn {
        match b.get(1)? {
            b'x' => (
                Some(File::new(u32::from(b[0] - b'a'))),
                true,
                square(*b.get(2)?, *b.get(3)?)?,
                4,
            ),
            &r => (None, false, square(b[0], r)?, 2),
        }
    } else {
        match b.get(1)? {
            b'x' => (None, true, square(*b.get(2)?, *b.get(3)?)?, 4),
            &f => (None, false, square(f, *b.get(2)?)?, 3),
        }
    };
    let suffix = suffix_at(b.get(len).copied());
    let len = len + usize::from(suffix.is_some());
    if !b.get(len).copied().is_none_or(is_token_end) {
        return None;
    }
    Some((
        SanPlus {
            san: San::Normal {
                role,
                file,
                rank: None,
                capture,
                to,
                promotion: None,
            },
            suffix,
        },
        len,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// pgn-reader's answer, the definition.
    fn reference(t: &[u8]) -> Mainline {
        let mut m = Mainline::default();
        m.read_with_pgn_reader(t);
        m
    }

    fn same(t: &[u8]) {
        let want = reference(t);
        let mut got = Mainline::default();
        if scan(t, &mut got) {
            assert_eq!(got.sans, want.sans, "{:?}", String::from_utf8_lossy(t));
            assert_eq!(
                got.result_token,
                want.result_token,
                "{:?}",
                String::from_utf8_lossy(t)
            );
            assert_eq!(
                got.truncated,
                want.truncated,
                "{:?}",
                String::from_utf8_lossy(t)
            );
        }
    }

    #[test]
    fn tokens_as_pgn_reader_reads_them() {
        for t in [
            "1. Pe4 e5 2. Ng1f3 nf3 Nc6 3. e8Q Bc4 (3. d4 d5 (3... e6)) {c} $1 1-0",
            "1.e4!? e5?? 2.O-O 0-0-0+ 3... Kh1# 12.Nf3; comment\n13. Nc3 *",
            "1. e4 -- 2. d4 Z0 1/2-1/2",
            "1. e4 e5 { never closed\n",
            "1. e4 {a} (1. d4 {b)} d5) 1... e5 ½-½",
            "1. e4 e4x e.p. $14 2. d4 0–1",
            "1/2-0-1",
            "1/2-1/3 e4",
            "0-0x e4 0-0- 0-",
            "\u{feff}% a line\n  % another\n1. e4",
            "1. e4\n%escaped\ne5\n\ne6",
            "1. e4\n\r\ne5",
            "1. e4\n\rx e5",
            "1. e4 (e5\n[Tag \"x\"]) d5",
            "1. e4 (d5 {open",
            "e4+ e5# Nf3+x Nxe5 exd6 axb8=Q h8 Kxe2++ Rfe1 R1e2 Qh4e1",
            "e4",
            "e",
            "N",
            "Nx",
            "exd",
            "1. e4 e5 2. Nf3 Nc6 *\n",
        ] {
            same(t.as_bytes());
        }
    }

    #[test]
    fn a_leading_tag_is_left_to_pgn_reader() {
        let mut m = Mainline::default();
        assert!(!scan(b" \n[Event \"x\"]\n1. e4", &mut m));
        assert!(m.sans.is_empty());
    }
}
