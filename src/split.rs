//! Splitting a byte stream into games, and cutting it into chunks that can
//! be split in parallel.
//!
//! The rules are SPEC.md's ("Positions and identity", "Decisions on the
//! fine print"), read line by line:
//!
//! - a game is a tag section (lines whose first non-blank byte is `[`) and
//!   the movetext after it; a game with no tags is movetext alone;
//! - movetext ends at a blank line, or at a line starting with `[` in the
//!   first column, outside a `{comment}`;
//! - blank lines between the tag section and the movetext do not split the
//!   game (some exporters write two of them);
//! - a blank line inside a tag section does not end it, unless the next tag
//!   repeats a name already seen: then a new game starts;
//! - `%` escape lines and `;` lines between games and inside a tag section
//!   are ignored.
//!
//! This module touches bytes only: no chess.

use memchr::memchr;

mod braces;
mod tags;
use braces::{scan_braces, scan_run};
use tags::first_tag_name;
pub use tags::parse_tag_line;

/// A tag's name and raw value.
pub type TagPair<'a> = (&'a [u8], &'a [u8]);

/// One game's text, as found by [`Splitter`]. Slices borrow the input.
#[derive(Debug, Clone)]
pub struct RawGame<'a> {
    /// Byte offset of the game's first byte (the `[` of its first tag, or its
    /// first movetext byte) from the start of the splitter's input.
    pub offset: usize,
    /// Tag pairs in order, raw (no unescaping); a repeated name keeps both.
    pub tags: Vec<TagPair<'a>>,
    /// The movetext, from its first byte to the end of its last line.
    pub movetext: &'a [u8],
    /// The game's own text: from its first byte to the end of its last
    /// line (tag section or movetext).
    pub text: &'a [u8],
    /// Newlines before the game's first byte in the splitter's input (its
    /// line there, counted from 0), counted as the lines were read.
    pub line: u64,
    /// Tag sections (a `[` line after a blank line) inside a comment of the
    /// movetext: games a comment left open swallowed. pgn-reader reads them
    /// as the comment, and so does the audit; they are reported.
    pub swallowed: u32,
    /// A comment was still open at the end of the input.
    pub unterminated: bool,
}

impl<'a> RawGame<'a> {
    /// The value of a tag; when a name is repeated, the last value wins.
    pub fn tag(&self, name: &str) -> Option<&'a [u8]> {
        self.tags
            .iter()
            .rev()
            .find(|(n, _)| *n == name.as_bytes())
            .map(|(_, v)| *v)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Between,
    Tags,
    Gap,
    Move,
}

/// Where the splitter stood when its input ran out. Used to decide whether
/// a chunk boundary was a real game boundary (see [`cut_is_sound`]).
#[derive(Debug, Clone, Default)]
pub struct EndState {
    /// `None`: between games. `Some`: a game was open.
    open: Option<OpenGame>,
}

#[derive(Debug, Clone)]
struct OpenGame {
    state: State,
    in_brace: bool,
    /// Offset of the open game (relative to the splitter's input).
    offset: usize,
    tag_names: Vec<Vec<u8>>,
}

impl EndState {
    /// Offset (relative to the splitter's input) of the game that was still
    /// open when the input ran out, if any.
    pub fn open_game_offset(&self) -> Option<usize> {
        self.open.as_ref().map(|g| g.offset)
    }
}

/// Whether input that starts with `next` (a chunk that begins with a `[`
/// after a blank line) really starts a new game, given where the splitter
/// stood at the end of the input before it. If not, the two must be split
/// as one.
pub fn cut_is_sound(prev: &EndState, next: &[u8]) -> bool {
    match &prev.open {
        None => true,
        Some(g) => {
            if g.state != State::Gap || g.in_brace {
                return false;
            }
            let line = &next[..memchr(b'\n', next).map_or(next.len(), |i| i + 1)];
            match first_tag_name(line) {
                Some(name) => g.tag_names.iter().any(|n| n.as_slice() == name),
                None => false,
            }
        }
    }
}

/// Iterates over the games of a byte slice.
pub struct Splitter<'a> {
    buf: &'a [u8],
    pos: usize,
    state: State,
    /// Inside a comment, before the lines of `run`.
    in_brace: bool,
    /// Where movetext lines not yet read for braces start: their brace
    /// state is only asked at a line that may end the game (see
    /// [`Splitter::braces_to`]).
    run: Option<usize>,
    cur: Option<Builder<'a>>,
    end: Option<EndState>,
    /// A tag vector given back by [`Splitter::recycle`], for the next game.
    spare: Vec<TagPair<'a>>,
    /// Newlines before the line being read.
    line: u64,
    /// Newlines before `pos`.
    newlines: u64,
}

struct Builder<'a> {
    offset: usize,
    line: u64,
    tags: Vec<TagPair<'a>>,
    movetext_start: Option<usize>,
    movetext_end: usize,
    /// End of the last tag line.
    tags_end: usize,
    /// See [`RawGame::swallowed`].
    swallowed: u32,
    /// The last line inside a comment was blank.
    gap_in_brace: bool,
    unterminated: bool,
}

impl<'a> Builder<'a> {
    fn finish(self, buf: &'a [u8]) -> RawGame<'a> {
        let movetext = match self.movetext_start {
            Some(s) => &buf[s..self.movetext_end.max(s)],
            None => &buf[0..0],
        };
        let end = match self.movetext_start {
            Some(_) => self.movetext_end.max(self.tags_end),
            None => self.tags_end,
        };
        RawGame {
            offset: self.offset,
            tags: self.tags,
            movetext,
            text: &buf[self.offset..end.max(self.offset)],
            line: self.line,
            swallowed: self.swallowed,
            unterminated: self.unterminated,
        }
    }

    fn has_name(&self, name: &[u8]) -> bool {
        self.tags.iter().any(|(n, _)| *n == name)
    }
}

impl<'a> Splitter<'a> {
    /// A splitter over `buf`, which starts between games.
    pub fn new(buf: &'a [u8]) -> Self {
        Splitter {
            buf,
            pos: 0,
            state: State::Between,
            in_brace: false,
            run: None,
            cur: None,
            end: None,
            spare: Vec::new(),
            line: 0,
            newlines: 0,
        }
    }

    /// The newlines in the input read so far: all of them once
    /// [`Iterator::next`] has returned `None` (every line is read once).
    pub fn newlines(&self) -> u64 {
        self.newlines
    }

    /// Takes back a game this splitter gave, so that the next game's tags
    /// reuse its allocation.
    pub fn recycle(&mut self, game: RawGame<'a>) {
        let mut tags = game.tags;
        tags.clear();
        self.spare = tags;
    }

    /// Where the splitter stood when the input ran out; `None` until
    /// [`Iterator::next`] has returned `None` once... or the last game.
    pub fn end_state(&self) -> Option<&EndState> {
        self.end.as_ref()
    }

    /// Starts a game at the line `[start, end)`, which begins with `[`
    /// after blanks; returns the next state.
    fn start_tag_game(&mut self, start: usize, end: usize) {
        let line = &self.buf[start..end];
        let lead = leading_blank(line);
        self.cur = Some(Builder {
            offset: start + lead,
            line: self.line,
            tags: std::mem::take(&mut self.spare),
            movetext_start: None,
            movetext_end: end,
            tags_end: end,
            swallowed: 0,
            gap_in_brace: false,
            unterminated: false,
        });
        self.add_tag_line(start, end);
    }

    fn add_tag_line(&mut self, start: usize, end: usize) {
        let line = &self.buf[start..end];
        let cur = self.cur.as_mut().expect("open game");
        let rest = parse_tag_line(line, &mut cur.tags);
        cur.tags_end = end;
        match rest {
            Some(r) => {
                cur.movetext_start = Some(start + r);
                cur.movetext_end = end;
                self.in_brace = scan_braces(&line[r..], false);
                self.state = State::Move;
            }
            None => self.state = State::Tags,
        }
    }

    fn start_movetext(&mut self, start: usize, end: usize) {
        let cur = self.cur.as_mut().expect("open game");
        cur.movetext_start = Some(start);
        cur.movetext_end = end;
        self.in_brace = scan_braces(&self.buf[start..end], false);
        self.state = State::Move;
    }

    /// Adds the movetext line `[start, end)`, which does not end the game,
    /// to the lines whose braces are read later ([`Splitter::braces_to`]):
    /// the splitter reads every movetext line but the first this way.
    fn extend_run(&mut self, start: usize, end: usize) {
        let cur = self.cur.as_mut().expect("open game");
        cur.gap_in_brace = false;
        cur.movetext_end = end;
        self.run.get_or_insert(start);
    }

    /// Reads the braces of the movetext lines not yet read, up to `end`:
    /// one search over them all where they can be read at once
    /// ([`braces::scan_run`]), not one a line (an engine's movetext has a
    /// comment on every line).
    fn braces_to(&mut self, end: usize) {
        if let Some(from) = self.run.take() {
            self.in_brace = scan_run(&self.buf[from..end], self.in_brace);
        }
    }

    fn take(&mut self) -> Option<RawGame<'a>> {
        self.cur.take().map(|b| b.finish(self.buf))
    }
}

impl<'a> Iterator for Splitter<'a> {
    type Item = RawGame<'a>;

    fn next(&mut self) -> Option<RawGame<'a>> {
        while self.pos < self.buf.len() {
            let start = self.pos;
            let end = crate::bytes::line_end(self.buf, start);
            self.pos = end;
            let line = &self.buf[start..end];
            self.line = self.newlines;
            self.newlines += u64::from(line.last() == Some(&b'\n'));
            let blank = is_blank(line);
            let first = line[0];
            match self.state {
                State::Between => {
                    if blank || first == b'%' || first == b';' {
                        continue;
                    }
                    if line[leading_blank(line)..].first() == Some(&b'[') {
                        self.start_tag_game(start, end);
                    } else {
                        // a game of movetext alone starts at its first
                        // non-blank byte, its movetext too (found by the
                        // split fuzz target: the movetext began before the
                        // game's text)
                        let start = start + leading_blank(line);
                        self.cur = Some(Builder {
                            offset: start,
                            line: self.line,
                            tags: Vec::new(),
                            movetext_start: None,
                            movetext_end: end,
                            tags_end: 0,
                            swallowed: 0,
                            gap_in_brace: false,
                            unterminated: false,
                        });
                        self.start_movetext(start, end);
                    }
                }
                State::Tags | State::Gap => {
                    if line[leading_blank(line)..].first() == Some(&b'[') {
                        if self.state == State::Gap {
                            let repeated = match first_tag_name(line) {
                                Some(name) => self.cur.as_ref().is_some_and(|c| c.has_name(name)),
                                None => false,
                            };
                            if repeated {
                                let game = self.take();
                                self.start_tag_game(start, end);
                                return game;
                            }
                        }
                        self.add_tag_line(start, end);
                    } else if blank {
                        self.state = State::Gap;
                    } else if first == b'%' || first == b';' {
                        // ignored inside a tag section
                    } else {
                        self.start_movetext(start, end);
                    }
                }
                State::Move => {
                    if !may_end_game(line, blank) {
                        self.extend_run(start, end);
                        continue;
                    }
                    self.braces_to(start);
                    if self.in_brace {
                        let cur = self.cur.as_mut().expect("open game");
                        if blank {
                            // no brace on it: still inside
                            cur.gap_in_brace = true;
                            cur.movetext_end = end;
                        } else {
                            // a `[` line (after blanks) in a comment
                            if cur.gap_in_brace && first_tag_name(line).is_some() {
                                cur.swallowed += 1;
                            }
                            self.extend_run(start, end);
                        }
                    } else if first == b'[' {
                        let game = self.take();
                        self.start_tag_game(start, end);
                        return game;
                    } else if blank {
                        self.state = State::Between;
                        return self.take();
                    } else {
                        // `[` after blanks, outside a comment: movetext
                        self.extend_run(start, end);
                    }
                }
            }
        }
        self.braces_to(self.pos);
        if self.in_brace && self.state == State::Move {
            if let Some(cur) = self.cur.as_mut() {
                cur.unterminated = true;
            }
        }
        if self.end.is_none() {
            self.end = Some(EndState {
                open: self.cur.as_ref().map(|c| OpenGame {
                    state: self.state,
                    in_brace: self.in_brace,
                    offset: c.offset,
                    tag_names: c.tags.iter().map(|(n, _)| n.to_vec()).collect(),
                }),
            });
        }
        self.take()
    }
}

/// Whether a movetext line may end its game, by its look alone: a blank
/// line, or one whose first non-blank byte is `[` (whether it does depends
/// on the comments before it).
fn may_end_game(line: &[u8], blank: bool) -> bool {
    blank || line[leading_blank(line)..].first() == Some(&b'[')
}

/// Python's `str.isspace` on ASCII, which is what real files use.
#[inline]
fn is_space(b: u8) -> bool {
    // by table, as tags' `is_name_byte`: it runs on the ends of every line
    const TABLE: [bool; 256] = {
        let mut t = [false; 256];
        let mut i = 0;
        while i < 256 {
            t[i] = matches!(
                i as u8,
                b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c | 0x1c..=0x1f
            );
            i += 1;
        }
        t
    };
    TABLE[b as usize]
}

/// Where the line holding `offset` starts, when only blanks stand before
/// it on that line: a game's text begins at its first non-blank byte, but
/// a tag line is read whole from the start of its line (leading blanks
/// decide whether it is one whole tag), so a game is split again from
/// there.
pub fn line_start_before_blanks(buf: &[u8], from: usize, offset: usize) -> usize {
    let mut at = offset;
    while at > from && buf[at - 1] != b'\n' && is_space(buf[at - 1]) {
        at -= 1;
    }
    at
}

/// A line that holds only whitespace (or nothing).
#[inline]
pub fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|&b| is_space(b))
}

#[inline]
fn leading_blank(line: &[u8]) -> usize {
    line.iter().take_while(|&&b| is_space(b)).count()
}

/// Candidate chunk boundaries: the offset of a `[` that starts a line after
/// a blank line. Returns the first candidate at or after `from`, if any.
pub fn next_boundary(buf: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    let finder = memchr::memmem::Finder::new(b"\n[");
    while at < buf.len() {
        let hit = at + finder.find(&buf[at..])?;
        let bracket = hit + 1;
        // the line before the `\n` at `hit` must be blank
        let line_start = memchr::memrchr(b'\n', &buf[..hit]).map_or(0, |i| i + 1);
        if hit > 0 && line_start > 0 && is_blank(&buf[line_start..hit]) && bracket >= from {
            return Some(bracket);
        }
        at = bracket;
    }
    None
}

/// The last candidate boundary in `buf` (see [`next_boundary`]).
pub fn last_boundary(buf: &[u8]) -> Option<usize> {
    let mut end = buf.len();
    let finder = memchr::memmem::FinderRev::new(b"\n[");
    while let Some(hit) = finder.rfind(&buf[..end]) {
        let line_start = memchr::memrchr(b'\n', &buf[..hit]).map_or(0, |i| i + 1);
        if line_start > 0 && is_blank(&buf[line_start..hit]) {
            return Some(hit + 1);
        }
        end = hit;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    type Game = (usize, Vec<(String, String)>, String);

    fn games(s: &str) -> Vec<Game> {
        Splitter::new(s.as_bytes())
            .map(|g| {
                (
                    g.offset,
                    g.tags
                        .iter()
                        .map(|(n, v)| {
                            (
                                String::from_utf8_lossy(n).into_owned(),
                                String::from_utf8_lossy(v).into_owned(),
                            )
                        })
                        .collect(),
                    String::from_utf8_lossy(g.movetext).into_owned(),
                )
            })
            .collect()
    }

    #[test]
    fn two_games() {
        let g = games("[Event \"a\"]\n[Site \"b\"]\n\n1. e4 e5 1-0\n\n[Event \"c\"]\n\n1. d4 *\n");
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].0, 0);
        assert_eq!(g[0].1.len(), 2);
        assert_eq!(g[0].2, "1. e4 e5 1-0\n");
        assert_eq!(g[1].0, 38);
        assert_eq!(g[1].2, "1. d4 *\n");
    }

    #[test]
    fn two_blank_lines_between_tags_and_moves_is_one_game() {
        let g = games("[Event \"a\"]\n\n\n1. e4 *\n");
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].2, "1. e4 *\n");
    }

    #[test]
    fn blank_line_in_tag_section_splits_only_on_repeated_name() {
        let g = games("[Event \"a\"]\n\n[Site \"b\"]\n\n1. e4 *\n");
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].1.len(), 2);
        let g = games("[Event \"a\"]\n\n[Event \"b\"]\n\n1. e4 *\n");
        assert_eq!(g.len(), 2);
        assert!(g[0].2.is_empty());
        assert_eq!(g[1].0, 13);
    }

    #[test]
    fn comment_with_blank_line_and_bracket_does_not_split() {
        let g = games("[Event \"a\"]\n\n1. e4 {x\n\n[y]\n} e5 *\n\n[Event \"b\"]\n\n1. d4 *\n");
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].2, "1. e4 {x\n\n[y]\n} e5 *\n");
    }

    #[test]
    fn tag_line_followed_by_moves_on_same_line() {
        let g = games("[Result \"1-0\"] 1. e4 1-0\n");
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].1[0].1, "1-0");
        assert_eq!(g[0].2, "1. e4 1-0\n");
    }

    #[test]
    fn tag_value_with_quotes_is_read_greedily() {
        let mut p = Vec::new();
        parse_tag_line(b"[Event \"a \"b\" c\"]\r\n", &mut p);
        assert_eq!(p[0].1, b"a \"b\" c");
    }

    #[test]
    fn movetext_without_tags_is_a_game() {
        let g = games("1. e4 e5 *\n\n1. d4 d5 *\n");
        assert_eq!(g.len(), 2);
        assert_eq!(g[1].0, 12);
    }

    #[test]
    fn boundaries() {
        let s = b"[A \"1\"]\n\n1. e4 *\n\n[A \"2\"]\n\n1. d4 *\n  \n[A \"3\"]\n";
        let b1 = next_boundary(s, 1).unwrap();
        assert_eq!(&s[b1..b1 + 6], b"[A \"2\"");
        let b2 = next_boundary(s, b1 + 1).unwrap();
        assert_eq!(&s[b2..b2 + 6], b"[A \"3\"");
        assert_eq!(last_boundary(s), Some(b2));
        assert_eq!(next_boundary(s, b2 + 1), None);
    }

    #[test]
    fn cut_inside_comment_is_detected() {
        let a = b"[Event \"a\"]\n\n1. e4 {x\n\n";
        let b = b"[y]\n} e5 *\n";
        let mut sp = Splitter::new(a);
        while sp.next().is_some() {}
        assert!(!cut_is_sound(sp.end_state().unwrap(), b));
        let mut sp = Splitter::new(b"[Event \"a\"]\n\n1. e4 *\n\n");
        while sp.next().is_some() {}
        assert!(cut_is_sound(sp.end_state().unwrap(), b"[Event \"b\"]\n"));
        let mut sp = Splitter::new(b"[Event \"a\"]\n\n");
        while sp.next().is_some() {}
        assert!(!cut_is_sound(sp.end_state().unwrap(), b"[Site \"b\"]\n"));
        assert!(cut_is_sound(sp.end_state().unwrap(), b"[Event \"b\"]\n"));
    }
}
