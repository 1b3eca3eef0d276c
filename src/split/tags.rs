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
