//! Reading a game's movetext with pgn-reader, and the tags the rules need.
//!
//! SPEC: "A movetext token is read as a move exactly when pgn-reader 0.29's
//! SAN reading takes it". So the movetext of each game (as cut by
//! [`crate::split`]) is handed to pgn-reader itself; its visitor only
//! collects the mainline moves and result tokens. Variations, comments and
//! NAGs are skipped by pgn-reader's defaults.

use std::ops::ControlFlow;

use pgn_reader::{Reader, SanPlus, Visitor};
use shakmaty::{KnownOutcome, Outcome};

/// The mainline of one game: its moves as written, and the last result
/// token of the movetext, if any.
#[derive(Debug, Default)]
pub struct Mainline {
    pub sans: Vec<SanPlus>,
    pub result_token: Option<&'static str>,
    /// pgn-reader stopped on malformed input (an unterminated comment at the
    /// end of the input); the moves before it are kept.
    pub truncated: bool,
}

impl Mainline {
    /// Reads `movetext` into `self`, reusing its allocation.
    pub fn read(&mut self, movetext: &[u8]) {
        self.sans.clear();
        self.result_token = None;
        self.truncated = false;
        if movetext.is_empty() {
            return;
        }
        let mut reader = Reader::new(movetext);
        let mut collector = Collector { line: self };
        // Only the first game: the slice holds exactly one game's movetext.
        if reader.read_game(&mut collector).is_err() {
            self.truncated = true;
        }
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

/// A tag value as text: UTF-8, with undecodable bytes (Latin-1 in old
/// databases) replaced by U+FFFD so that every report is valid JSON.
pub fn tag_text(value: &[u8]) -> String {
    String::from_utf8_lossy(value).into_owned()
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

/// How a game is played, by its `Variant` tag (SPEC "Variant names").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    Standard,
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
        let v = String::from_utf8_lossy(trim(raw)).to_lowercase();
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
