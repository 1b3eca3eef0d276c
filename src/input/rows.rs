//! Games kept one per row (the Lichess dataset as published in Parquet on
//! Hugging Face: tag columns and a `movetext` column) written out as PGN,
//! one game per row, so that the one pipeline audits them and each
//! finding's `game` is its row's index.

/// The tag a column is written as: `UTCDate` stands for `Date` when the
/// rows have no `Date` (the laws edition follows the day the game was
/// played); `None` for a name that is not a PGN symbol.
pub fn tag_name(column: &str, has_date: bool) -> Option<&str> {
    if column == "UTCDate" && !has_date {
        return Some("Date");
    }
    let symbol = !column.is_empty()
        && column
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_+#=:-".contains(&b));
    symbol.then_some(column)
}

/// Appends one game: its tags (name, value), a blank line, the movetext
/// and a blank line. Each row stays one game (SPEC's splitting reads
/// movetext up to a blank line, a `[` in the first column, or the end of
/// a comment left open): line breaks inside tag values become spaces, the
/// movetext loses its blank lines, a line of it starting with `[` gets a
/// space before it, and a `{` comment still open at its end is closed
/// there. A row without tags gets `[Event "?"]`, since a game starts with
/// its tag section.
pub fn write_game<'a>(
    out: &mut Vec<u8>,
    tags: impl IntoIterator<Item = (&'a str, &'a str)>,
    movetext: Option<&str>,
) {
    let mut any = false;
    for (name, value) in tags {
        out.push(b'[');
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b" \"");
        tag_value(value, out);
        out.extend_from_slice(b"\"]\n");
        any = true;
    }
    if !any {
        out.extend_from_slice(b"[Event \"?\"]\n");
    }
    out.push(b'\n');
    let start = out.len();
    if let Some(text) = movetext {
        write_movetext(text, out);
    }
    // A tag section goes on over blank lines until a line starts the
    // movetext (SPEC's splitting): a row whose movetext is empty, or opens
    // with a line that does not start one (`%`, `;`, `[`), would take the
    // next row's tags as its own. An empty comment on a line of its own
    // starts it and reads as nothing.
    let opens = out[start..]
        .iter()
        .find(|b| !matches!(b, b' ' | b'\t'))
        .is_some_and(|b| !matches!(b, b'%' | b';' | b'['));
    if !opens {
        out.splice(start..start, *b"{}\n");
    }
    out.extend_from_slice(b"\n\n");
}

/// A tag value on one line, `"` and `\` escaped (PGN standard 8.1).
fn tag_value(s: &str, out: &mut Vec<u8>) {
    let mut rest = s.as_bytes();
    // Most values need nothing: copied whole.
    while let Some(at) = rest
        .iter()
        .position(|&c| matches!(c, b'\n' | b'\r' | b'"' | b'\\'))
    {
        out.extend_from_slice(&rest[..at]);
        match rest[at] {
            b'\n' | b'\r' => out.push(b' '),
            c => {
                out.push(b'\\');
                out.push(c);
            }
        }
        rest = &rest[at + 1..];
    }
    out.extend_from_slice(rest);
}

/// The movetext's lines, but blank ones, with a `{` comment left open
/// closed at the end (see [`write_game`]).
fn write_movetext(text: &str, out: &mut Vec<u8>) {
    let mut in_brace = false;
    let mut first = true;
    let mut rest = text.as_bytes();
    while !rest.is_empty() {
        let end = memchr::memchr2(b'\n', b'\r', rest).unwrap_or(rest.len());
        let line = &rest[..end];
        rest = rest.get(end + 1..).unwrap_or_default();
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        if !first {
            out.push(b'\n');
        }
        first = false;
        if line.starts_with(b"[") {
            out.push(b' ');
        }
        out.extend_from_slice(line);
        in_brace = brace_open_after(line, in_brace);
    }
    if in_brace {
        out.extend_from_slice(b" }");
    }
}

/// Whether a `{` comment is open at the end of `line`, given whether one
/// was at its start (a `;` comment outside braces runs to the line's end).
fn brace_open_after(mut line: &[u8], mut in_brace: bool) -> bool {
    loop {
        let next = if in_brace {
            memchr::memchr(b'}', line)
        } else {
            memchr::memchr2(b'{', b';', line)
        };
        let Some(at) = next else {
            return in_brace;
        };
        if !in_brace && line[at] == b';' {
            return false;
        }
        in_brace = !in_brace;
        line = &line[at + 1..];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_is_one_game_whatever_its_values_hold() {
        let mut out = Vec::new();
        write_game(
            &mut out,
            [("White", "a \"b\"\n\n[Event \"x\"]"), ("Result", "1-0")],
            Some("1. e4 ; note {\n\n[Event \"y\"]\r\n2. Nf3 { open"),
        );
        write_game(&mut out, [], None);
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "[White \"a \\\"b\\\"  [Event \\\"x\\\"]\"]\n[Result \"1-0\"]\n\n\
             1. e4 ; note {\n [Event \"y\"]\n2. Nf3 { open }\n\n[Event \"?\"]\n\n{}\n\n\n"
        );
    }

    /// A row without movetext was followed by a row whose tags it had not:
    /// the tag section went on over the blank lines and the two rows were
    /// read as one game (3 rows, 2 games).
    #[test]
    fn a_row_without_movetext_does_not_take_the_next_rows_tags() {
        for first in [
            None,
            Some(""),
            Some("\n \n"),
            Some("% escape"),
            Some("; note"),
        ] {
            let mut out = Vec::new();
            write_game(&mut out, [], first);
            write_game(&mut out, [("White", "x")], Some("1. e4 e5 *"));
            write_game(&mut out, [], Some("hello world"));
            let games: Vec<_> = crate::split::Splitter::new(&out).collect();
            assert_eq!(games.len(), 3, "{}", String::from_utf8_lossy(&out));
            assert_eq!(games[1].tag("White"), Some(&b"x"[..]));
            let mut line = crate::parse::Mainline::default();
            line.read(games[0].movetext);
            assert!(line.sans.is_empty() && line.result_token.is_none());
        }
    }

    /// Whatever the values hold, N rows split into N games with their
    /// values (the split module is SPEC's definition of a game).
    #[test]
    fn any_rows_split_into_as_many_games() {
        const ATOMS: [&str; 16] = [
            "[",
            "]",
            "{",
            "}",
            ";",
            "%",
            "\n",
            "\r",
            "\"",
            "\\",
            " ",
            "\n\n",
            "[Event \"x\"]",
            "e4",
            "1-0",
            "(",
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        for _ in 0..300 {
            let rows = 1 + next(6);
            let mut out = Vec::new();
            let mut whites = Vec::new();
            for _ in 0..rows {
                let (n_white, n_moves) = (next(6), next(12));
                let white: String = (0..n_white).map(|_| ATOMS[next(ATOMS.len())]).collect();
                let moves: String = (0..n_moves).map(|_| ATOMS[next(ATOMS.len())]).collect();
                // tags of other names from row to row, or none; movetext
                // empty or missing at times
                let extra = ["Black", "Event", "Site"][next(3)];
                let with_white = next(3) != 0;
                let mut tags = Vec::new();
                if with_white {
                    tags.push(("White", white.as_str()));
                }
                if next(2) == 0 {
                    tags.push((extra, "?"));
                }
                let movetext = match next(4) {
                    0 => None,
                    1 => Some(""),
                    _ => Some(moves.as_str()),
                };
                write_game(&mut out, tags, movetext);
                whites.push(with_white.then_some(white));
            }
            let games: Vec<_> = crate::split::Splitter::new(&out).collect();
            let text = String::from_utf8_lossy(&out);
            assert_eq!(games.len(), rows, "{text}");
            for (game, white) in games.iter().zip(&whites) {
                let value = game.tag("White").map(crate::parse::tag_text);
                let want = white.as_ref().map(|w| w.replace(['\n', '\r'], " "));
                assert_eq!(value, want, "{text}");
            }
        }
    }

    #[test]
    fn utc_date_stands_for_a_missing_date() {
        assert_eq!(tag_name("UTCDate", false), Some("Date"));
        assert_eq!(tag_name("UTCDate", true), Some("UTCDate"));
        assert_eq!(tag_name("White Elo", false), None);
        assert_eq!(tag_name("WhiteElo", false), Some("WhiteElo"));
    }
}
