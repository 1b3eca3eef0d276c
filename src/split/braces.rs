//! The brace state of a movetext line, which decides whether a blank line
//! or a line opening with `[` ends the game (not inside a comment).

use memchr::{memchr, memrchr};

use crate::bytes;

/// Brace state after one movetext line: `{...}` comments span lines, a `;`
/// outside a comment ends the line.
///
/// Without a `;` on the line the state at its end follows from the last
/// brace of each kind: after the last `}` the line is outside a comment
/// (that `}` closed one, or stood outside), and a `{` after it opens one.
/// Three searches over the line (one pass over a short line,
/// [`bytes::braces`]), against two for each comment in
/// [`scan_braces_in_order`] (Lichess's clock comments: some 70 a line).
pub(super) fn scan_braces(line: &[u8], in_brace: bool) -> bool {
    let (open, close) = match bytes::braces(line) {
        Some((_, _, true)) => return scan_braces_in_order(line, in_brace),
        Some((open, close, false)) => (open, close),
        None => {
            if memchr(b';', line).is_some() {
                return scan_braces_in_order(line, in_brace);
            }
            (memrchr(b'{', line), memrchr(b'}', line))
        }
    };
    match (open, close) {
        (Some(open), Some(close)) => open > close,
        (Some(_), None) => true,
        (None, Some(_)) => false,
        (None, None) => in_brace,
    }
}

/// [`scan_braces`] brace by brace.
fn scan_braces_in_order(line: &[u8], mut in_brace: bool) -> bool {
    let mut rest = line;
    loop {
        if in_brace {
            match memchr(b'}', rest) {
                Some(i) => {
                    in_brace = false;
                    rest = &rest[i + 1..];
                }
                None => return true,
            }
        } else {
            match memchr::memchr2(b'{', b';', rest) {
                Some(i) if rest[i] == b'{' => {
                    in_brace = true;
                    rest = &rest[i + 1..];
                }
                _ => return false,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shortcut without `;` against the brace-by-brace scan, on every
    /// line of up to 8 bytes over `{`, `}`, `;` and one other byte, from
    /// inside and outside a comment.
    #[test]
    fn braces_by_their_last_occurrence_equal_braces_in_order() {
        const BYTES: [u8; 4] = [b'{', b'}', b';', b'a'];
        for len in 0..=8u32 {
            for code in 0..4usize.pow(len) {
                let line: Vec<u8> = (0..len).map(|k| BYTES[code / 4usize.pow(k) % 4]).collect();
                for start in [false, true] {
                    assert_eq!(
                        scan_braces(&line, start),
                        scan_braces_in_order(&line, start),
                        "{:?} from {start}",
                        String::from_utf8_lossy(&line)
                    );
                }
            }
        }
    }
}
