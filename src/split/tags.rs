//! Tag lines: a whole tag as python-chess reads it, else tag by tag as
//! pgn-reader reads them (SPEC, "Decisions on the fine print").

use super::{is_blank, is_space, leading_blank, TagPair};

/// Appends to `pairs` the tag pairs of a line whose first non-blank byte
/// is `[` (no allocation once `pairs` has room), and returns where the
/// movetext after them starts on the same line, if any.
///
/// A line that is one whole tag (`[Name "value"]`, python-chess's tag
/// pattern) gives that tag, the value being everything between the first
/// quote and the last `"]`. Any other line is read as pgn-reader reads it:
/// several tags on one line, movetext after the last one, a malformed tag
/// ending the line.
pub fn parse_tag_line<'l>(line: &'l [u8], pairs: &mut Vec<TagPair<'l>>) -> Option<usize> {
    if let Some(pair) = whole_tag(line) {
        pairs.push(pair);
        return None;
    }
    let mut pos = leading_blank(line);
    while pos < line.len() && line[pos] == b'[' {
        match loose_tag(line, pos) {
            Some((name, value, end)) => {
                pairs.push((name, value));
                pos = end;
            }
            None => return None,
        }
    }
    if is_blank(&line[pos..]) {
        None
    } else {
        Some(pos)
    }
}

/// The name of the first tag of a line, if it has one.
pub(super) fn first_tag_name(line: &[u8]) -> Option<&[u8]> {
    if let Some((name, _)) = whole_tag(line) {
        return Some(name);
    }
    let pos = leading_blank(line);
    if line.get(pos) != Some(&b'[') {
        return None;
    }
    loose_tag(line, pos).map(|(name, _, _)| name)
}

/// `^\[([A-Za-z0-9][A-Za-z0-9_+#=:-]*)\s+"([^\r]*)"\]\s*$`
pub(super) fn whole_tag(line: &[u8]) -> Option<(&[u8], &[u8])> {
    common_tag(line).or_else(|| any_whole_tag(line))
}

/// [`whole_tag`] for the shape of nearly every tag line, `[Name "value"]`
/// then `\n` or `\r\n`, one space between name and value; `None` for any
/// other line (then [`any_whole_tag`] reads it). Some 80 instructions fewer
/// a tag line than the general reading, which trims the line first; in
/// this shape a `\r` before the closing quote can only be in the value, so
/// that part of the line is looked at whole.
#[inline]
fn common_tag(line: &[u8]) -> Option<(&[u8], &[u8])> {
    let n = line.len();
    // where the closing quote stands
    let end = if line.ends_with(b"\"]\n") {
        n.checked_sub(3)?
    } else if line.ends_with(b"\"]\r\n") {
        n.checked_sub(4)?
    } else {
        return None;
    };
    if end < 4 || line[0] != b'[' || !line[1].is_ascii_alphanumeric() {
        return None;
    }
    // stops at the closing quote at the latest
    let i = 2 + line[2..].iter().position(|&b| !is_name_byte(b))?;
    if line[i] != b' ' || line[i + 1] != b'"' || i + 2 > end {
        return None;
    }
    if crate::bytes::contains(b'\r', &line[..end]) {
        return None;
    }
    Some((&line[1..i], &line[i + 2..end]))
}

/// [`whole_tag`] of any line.
fn any_whole_tag(line: &[u8]) -> Option<(&[u8], &[u8])> {
    let mut end = line.len();
    while end > 0 && is_space(line[end - 1]) {
        end -= 1;
    }
    let t = &line[..end];
    if t.first() != Some(&b'[') || !t.ends_with(b"\"]") {
        return None;
    }
    let first = *t.get(1)?;
    if !first.is_ascii_alphanumeric() {
        return None;
    }
    let mut i = 2;
    while i < t.len() && is_name_byte(t[i]) {
        i += 1;
    }
    let name = &t[1..i];
    let ws = i;
    while i < t.len() && is_space(t[i]) {
        i += 1;
    }
    if i == ws || t.get(i) != Some(&b'"') {
        return None;
    }
    let value_start = i + 1;
    let value_end = t.len() - 2;
    if value_start > value_end {
        return None;
    }
    let value = &t[value_start..value_end];
    // values are short, lines not much longer: the line is looked at whole
    // (crate::bytes), the value only when the line holds a `\r`
    if crate::bytes::contains(b'\r', t) && value.contains(&b'\r') {
        return None;
    }
    Some((name, value))
}

/// `[A-Za-z0-9_+#=:-]`, by table (it runs on every byte of a tag name).
#[inline]
fn is_name_byte(b: u8) -> bool {
    const TABLE: [bool; 256] = {
        let mut t = [false; 256];
        let mut i = 0;
        while i < 256 {
            let b = i as u8;
            t[i] =
                b.is_ascii_alphanumeric() || matches!(b, b'_' | b'+' | b'#' | b'=' | b':' | b'-');
            i += 1;
        }
        t
    };
    TABLE[b as usize]
}

/// `\[\s*([^\s"\[\]]+)\s*"((?:[^"\\\n]|\\.)*)"[ \t\r\]]*` at `pos`.
fn loose_tag(line: &[u8], pos: usize) -> Option<(&[u8], &[u8], usize)> {
    let mut i = pos + 1;
    while i < line.len() && is_space(line[i]) {
        i += 1;
    }
    let name_start = i;
    while i < line.len() && !is_space(line[i]) && !b"\"[]".contains(&line[i]) {
        i += 1;
    }
    if i == name_start {
        return None;
    }
    let name = &line[name_start..i];
    while i < line.len() && is_space(line[i]) {
        i += 1;
    }
    if line.get(i) != Some(&b'"') {
        return None;
    }
    i += 1;
    let value_start = i;
    loop {
        match line.get(i) {
            None | Some(b'\n') => return None,
            Some(b'"') => break,
            Some(b'\\') => match line.get(i + 1) {
                None | Some(b'\n') => return None,
                Some(_) => i += 2,
            },
            Some(_) => i += 1,
        }
    }
    let value = &line[value_start..i];
    i += 1;
    while i < line.len() && matches!(line[i], b' ' | b'\t' | b'\r' | b']') {
        i += 1;
    }
    Some((name, value, i))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shortcut against the general reading, on tag-like lines: the
    /// usual shape, then each with bytes changed, put in or taken out at
    /// random (blanks, quotes, brackets, `\r`, non-ASCII), of every length
    /// the fast path sees. It must give the same answer on every line, and
    /// take many of them itself.
    #[test]
    fn the_common_shape_reads_as_any_whole_tag() {
        const BYTES: [u8; 14] = [
            b'[', b']', b'"', b' ', b'\t', b'\r', b'\n', b'a', b'Z', b'1', b'_', b'-', 0xc3, 0xa9,
        ];
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |m: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % m
        };
        let mut taken = 0;
        for _ in 0..200_000 {
            let mut line = b"[".to_vec();
            for _ in 0..1 + next(12) {
                line.push(BYTES[7 + next(5) as usize]);
            }
            line.extend(b" \"");
            for _ in 0..next(40) {
                line.push(if next(3) == 0 {
                    BYTES[next(14) as usize]
                } else {
                    b'x'
                });
            }
            line.extend(if next(2) == 0 {
                &b"\"]\n"[..]
            } else {
                b"\"]\r\n"
            });
            for _ in 0..next(3) {
                let at = next(line.len() as u64 + 1) as usize;
                match next(3) {
                    0 if at < line.len() => line[at] = BYTES[next(14) as usize],
                    1 => line.insert(at, BYTES[next(14) as usize]),
                    _ if at < line.len() => {
                        line.remove(at);
                    }
                    _ => {}
                }
            }
            let common = common_tag(&line);
            taken += usize::from(common.is_some());
            let any = any_whole_tag(&line);
            if common.is_some() {
                assert_eq!(common, any, "{:?}", String::from_utf8_lossy(&line));
            }
            assert_eq!(
                whole_tag(&line),
                any,
                "{:?}",
                String::from_utf8_lossy(&line)
            );
        }
        assert!(taken > 50_000, "the shortcut took {taken} lines");
    }
}
