//! Reading a game's movetext, and the tags the rules need.
//!
//! SPEC: "A movetext token is read as a move exactly when pgn-reader 0.29's
//! SAN reading takes it". The movetext of each game (as cut by
//! [`crate::split`]) is read by the scanner of [`crate::movetext`], a
//! transcription of pgn-reader's reading over the slice; only a movetext
//! that opens with a tag section (which pgn-reader reads as tags) is handed
//! to pgn-reader itself, whose visitor here collects the mainline moves and
//! result tokens, variations, comments and NAGs skipped by its defaults.
//! pgn-reader stays the definition: `tests/it/movetext.rs` and the
//! `movetext` fuzz target compare the two.

use std::cell::Cell;
use std::io::{self, Read};
use std::ops::ControlFlow;

use pgn_reader::{Reader, SanPlus, Visitor};
use shakmaty::{KnownOutcome, Outcome};

pub use crate::movetext::Mainline;

/// The bytes pgn-reader reads next: one game's movetext at a time, so that
/// one reader (and its buffer) serves every game of a chunk.
struct Feed<'a> {
    next: &'a Cell<&'a [u8]>,
}

impl Read for Feed<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut rest = self.next.get();
        let n = rest.read(buf)?;
        self.next.set(rest);
        Ok(n)
    }
}

/// Reads the movetext of game after game with one pgn-reader.
pub struct MovetextReader<'a> {
    next: &'a Cell<&'a [u8]>,
    /// Made when first needed: most movetexts are read by the scanner
    /// alone, and a reader's buffer costs more than reading a short game.
    reader: Option<Reader<Feed<'a>>>,
}

impl<'a> MovetextReader<'a> {
    /// A reader fed through `next`, where [`MovetextReader::read`] puts each
    /// movetext in turn.
    pub fn new(next: &'a Cell<&'a [u8]>) -> Self {
        MovetextReader { next, reader: None }
    }

    /// Reads `movetext` into `line`, reusing its allocation: with the
    /// scanner of [`crate::movetext`], or with pgn-reader itself when the
    /// movetext opens with a tag.
    pub fn read(&mut self, movetext: &'a [u8], line: &mut Mainline) {
        if crate::movetext::scan(movetext, line) {
            return;
        }
        self.read_with_pgn_reader(movetext, line);
    }

    /// Reads `movetext` into `line` with pgn-reader, the definition of a
    /// move token (SPEC).
    pub fn read_with_pgn_reader(&mut self, movetext: &'a [u8], line: &mut Mainline) {
        line.sans.clear();
        line.result_token = None;
        line.truncated = false;
        if movetext.is_empty() {
            return;
        }
        // pgn-reader ends a game at EOF, a blank line or a `[` line; the
        // splitter cuts movetext so that only EOF ends it, leaving the
        // reader empty. Should anything be left over, start afresh.
        let left = self.reader.as_ref().is_some_and(|r| !r.buffer().is_empty());
        if left || !self.next.get().is_empty() {
            self.next.set(&[]);
            self.reader = None;
        }
        let next = self.next;
        let reader = self
            .reader
            .get_or_insert_with(|| Reader::new(Feed { next }));
        self.next.set(movetext);
        let mut collector = Collector { line };
        if reader.read_game(&mut collector).is_err() {
            line.truncated = true;
        }
    }
}

impl Mainline {
    /// Reads `movetext` into `self`, as [`MovetextReader::read`] does.
    pub fn read(&mut self, movetext: &[u8]) {
        let next = Cell::new(movetext);
        let mut reader = MovetextReader::new(&next);
        next.set(&[]);
        reader.read(movetext, self);
    }

    /// Reads `movetext` into `self` with pgn-reader alone: the reference
    /// the scanner is tested against.
    pub fn read_with_pgn_reader(&mut self, movetext: &[u8]) {
        let next = Cell::new(movetext);
        let mut reader = MovetextReader::new(&next);
        next.set(&[]);
        reader.read_with_pgn_reader(movetext, self);
    }
}

struct Collector<'m> {
    line: &'m mut Mainline,
}

impl Visitor for Collector<'_> {
    type Tags = ();
    type Movetext = ();
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(())
    }

    // Never Break here: pgn-reader's skip path would then accept an unclosed
    // `{` quietly. Moves are only collected; legality is the replay's job.
    fn san(&mut self, _movetext: &mut (), san_plus: SanPlus) -> ControlFlow<Self::Output> {
        self.line.sans.push(san_plus);
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, _movetext: &mut (), outcome: Outcome) -> ControlFlow<Self::Output> {
        self.line.result_token = Some(match outcome {
            Outcome::Known(KnownOutcome::Decisive { winner }) => {
                if winner.is_white() {
                    "1-0"
                } else {
                    "0-1"
                }
            }
            Outcome::Known(KnownOutcome::Draw) => "1/2-1/2",
            Outcome::Unknown => "*",
        });
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _movetext: ()) -> Self::Output {}
}

/// Where the mainline's moves and the last result token stand in a
/// movetext (byte offsets), read as pgn-reader 0.29 reads it: the same
/// tokens, the same moves (the PGN export writes comments after them).
#[derive(Debug, Default)]
pub struct MovetextMap {
    /// Each mainline move, and the offset just past its token.
    pub moves: Vec<(usize, SanPlus)>,
    /// The span of the last result token (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: Option<(usize, usize)>,
}

impl MovetextMap {
    /// Maps `movetext` token by token with the scanner of
    /// [`crate::movetext`] (pgn-reader's reading; empty for a movetext that
    /// opens with a tag). Compare [`MovetextMap::moves`] with
    /// [`Mainline::sans`] before relying on it.
    pub fn read(t: &[u8]) -> MovetextMap {
        let mut map = MovetextMap::default();
        if crate::movetext::scan_tokens(t, &mut map) == crate::movetext::Scanned::OpensWithTag {
            return MovetextMap::default();
        }
        map
    }
}

impl crate::movetext::Tokens for MovetextMap {
    fn san(&mut self, end: usize, san: SanPlus) {
        self.moves.push((end, san));
    }

    fn result(&mut self, start: usize, end: usize, _token: &'static str) {
        self.result = Some((start, end));
    }
}

/// A tag value as text: its escapes decoded (PGN standard 8.1.1: `\"` is
/// a quote, `\\` a backslash; any other backslash stands for itself), as
/// UTF-8 with undecodable bytes (Latin-1 in old databases) replaced by
/// U+FFFD so that every report is valid JSON.
pub fn tag_text(value: &[u8]) -> String {
    if memchr::memchr(b'\\', value).is_none() {
        return String::from_utf8_lossy(value).into_owned();
    }
    let mut decoded = Vec::with_capacity(value.len());
    let mut i = 0;
    while i < value.len() {
        match (value[i], value.get(i + 1)) {
            (b'\\', Some(&c @ (b'"' | b'\\'))) => {
                decoded.push(c);
                i += 2;
            }
            (c, _) => {
                decoded.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&decoded).into_owned()
}

#[cfg(test)]
mod tag_text_tests {
    use super::tag_text;

    #[test]
    fn tag_escapes_are_decoded() {
        assert_eq!(tag_text(br#"a \"quoted\" \\ x"#), r#"a "quoted" \ x"#);
        assert_eq!(tag_text(br"C:\dir\n"), r"C:\dir\n");
        assert_eq!(tag_text(b"trailing \\"), "trailing \\");
        assert_eq!(tag_text(b"Caf\xe9"), "Caf\u{fffd}");
    }
}

/// Python's `str.strip` on ASCII whitespace.
pub fn trim(value: &[u8]) -> &[u8] {
    let is_ws = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c | 0x1c..=0x1f);
    let start = value.iter().position(|b| !is_ws(b)).unwrap_or(value.len());
    let end = value
        .iter()
        .rposition(|b| !is_ws(b))
        .map_or(start, |i| i + 1);
    &value[start..end]
}

/// The number written by `v`: one to `max_digits` ASCII digits (at most 9,
/// so that it fits), nothing else; read without going through `str`.
pub fn ascii_number(v: &[u8], max_digits: usize) -> Option<u32> {
    if v.is_empty() || v.len() > max_digits.min(9) || !v.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(v.iter().fold(0, |n, b| n * 10 + u32::from(b - b'0')))
}

/// How a game is played, by its `Variant` tag (SPEC "Variant names").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// Standard chess.
    Standard,
    /// Chess960: analysed with Chess960 castling.
    Chess960,
    /// Another variant (Atomic, Crazyhouse, ...): skipped and counted.
    Other,
}

impl Variant {
    /// Chess960 when the tag contains `960`, `fischerandom` or
    /// `fischerrandom` (any case, spaces and dashes ignored); standard for
    /// `Standard`, `Chess`, `Classical`, `Normal`, `Illegal`,
    /// `From Position`, an empty value or no tag; anything else is skipped.
    pub fn from_tag(tag: Option<&[u8]>) -> Variant {
        let Some(raw) = tag else {
            return Variant::Standard;
        };
        // the usual names without a lowered copy (this is asked of every game)
        let raw = trim(raw);
        if raw.is_empty()
            || [&b"standard"[..], b"chess", b"classical", b"normal"]
                .iter()
                .any(|name| raw.eq_ignore_ascii_case(name))
        {
            return Variant::Standard;
        }
        let v = String::from_utf8_lossy(raw).to_lowercase();
        if v.is_empty()
            || matches!(
                v.as_str(),
                "standard" | "chess" | "classical" | "normal" | "illegal" | "from position"
            )
        {
            return Variant::Standard;
        }
        let squeezed: String = v.chars().filter(|c| *c != ' ' && *c != '-').collect();
        if squeezed.contains("960")
            || squeezed.contains("fischerandom")
            || squeezed.contains("fischerrandom")
        {
            Variant::Chess960
        } else {
            Variant::Other
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(s: &str) -> Mainline {
        let mut m = Mainline::default();
        m.read(s.as_bytes());
        m
    }

    #[test]
    fn tokens_as_pgn_reader_reads_them() {
        let m = read("1. Pe4 e5 2. Ng1f3 nf3 Nc6 3. e8Q Bc4 (3. d4 d5) {c} $1 1-0");
        let s: Vec<String> = m.sans.iter().map(|s| s.to_string()).collect();
        assert_eq!(s, ["e4", "e5", "Ng1f3", "Nc6", "Bc4"]);
        assert_eq!(m.result_token, Some("1-0"));
    }

    #[test]
    fn null_moves_are_handed_over() {
        let m = read("1. e4 -- 2. d4 Z0 *");
        assert_eq!(m.sans.len(), 4);
        assert_eq!(m.result_token, Some("*"));
    }

    #[test]
    fn unterminated_comment_keeps_moves_before_it() {
        let m = read("1. e4 e5 { never closed\n");
        assert_eq!(m.sans.len(), 2);
        assert!(m.truncated);
    }

    /// The map finds the moves pgn-reader finds, at the right bytes.
    #[test]
    fn movetext_map_agrees_with_pgn_reader() {
        for text in [
            "1. Pe4 e5 2. Ng1f3 nf3 Nc6 3. e8Q Bc4 (3. d4 d5 (3... e6)) {c} $1 1-0",
            "1.e4!? e5?? 2.O-O 0-0-0+ 3... Kh1# 12.Nf3; comment\n13. Nc3 *",
            "1. e4 -- 2. d4 Z0 1/2-1/2",
            "1. e4 e5 { never closed\n",
            "1. e4 {a} (1. d4 {b)} d5) 1... e5 ½-½",
            "1. e4 e4x e.p. $14 2. d4 0–1",
        ] {
            let m = read(text);
            let map = MovetextMap::read(text.as_bytes());
            let sans: Vec<&SanPlus> = map.moves.iter().map(|(_, s)| s).collect();
            assert_eq!(sans, m.sans.iter().collect::<Vec<_>>(), "{text}");
            for (end, _) in &map.moves {
                // a move token ends where pgn-reader's tokens end
                let next = text.as_bytes().get(*end);
                assert!(
                    next.is_none_or(|b| b" \t\n\r{}()!?$;.*".contains(b)),
                    "{text}: a move ends at {end}"
                );
            }
        }
        let map = MovetextMap::read(b"1. e4 e5 1-0");
        assert_eq!(map.result, Some((9, 12)));
    }

    #[test]
    fn variants() {
        assert_eq!(Variant::from_tag(None), Variant::Standard);
        assert_eq!(Variant::from_tag(Some(b"From Position")), Variant::Standard);
        assert_eq!(Variant::from_tag(Some(b"Chess 960")), Variant::Chess960);
        assert_eq!(Variant::from_tag(Some(b"fischerandom")), Variant::Chess960);
        assert_eq!(
            Variant::from_tag(Some(b"Fischer Random")),
            Variant::Chess960
        );
        assert_eq!(Variant::from_tag(Some(b"Atomic")), Variant::Other);
    }
}
