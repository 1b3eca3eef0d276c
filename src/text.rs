//! Text for people and for the formats that carry it: numbers, shares and
//! the escapers. A leaf: it imports nothing of the crate, so any printer
//! can use it without importing another printer.
//!
//! Each format escapes what its readers would otherwise take as markup:
//!
//! | escaper | for | what it changes |
//! |---|---|---|
//! | [`terminal_safe`] | the terminal | control characters but `\n` and `\t` as `\x1b` |
//! | [`escape_xml`] | JUnit XML | `& < > " '` as entities, tab/LF/CR as references, characters XML forbids dropped |
//! | [`escape_markdown`] | GitHub step summary | HTML's specials as entities, ASCII punctuation backslashed, controls as spaces |
//! | [`escape_url`] | Markdown links | all but unreserved and a few reserved bytes percent-encoded |
//! | [`escape_data`] | workflow command data | `%`, CR, LF percent-encoded |
//! | [`escape_property`] | workflow command properties | as data, and `:` `,` |
//! | [`escape_tag`] | a PGN tag value | `\` and `"` backslashed |
//! | [`escape_html`] | the HTML report | HTML's five specials as entities (`'` as `&#39;`) |

use std::fmt::Write as _;

/// `1234567` → `1,234,567`
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A count of things as people read it: `1 game`, `2,000 games`.
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

/// `part` of `whole` as a percentage with two decimals; `-` of nothing.
pub fn share(part: u64, whole: u64) -> String {
    if whole == 0 {
        "-".to_string()
    } else {
        format!("{:.2}%", 100.0 * part as f64 / whole as f64)
    }
}

/// Text for a terminal: control characters other than newline and tab
/// (an escape sequence in a file name or a tag could recolour, move or
/// clear the user's terminal) written as `\x1b`-style escapes.
pub fn terminal_safe(text: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !text.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if unsafe_char(c) {
            out.push_str(&format!("\\x{:02x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A workflow command's data: `%`, CR and LF encoded.
pub fn escape_data(s: &str) -> String {
    escape_workflow(s, false)
}

/// A workflow command's property value: as data, and `:` and `,` encoded.
pub fn escape_property(s: &str) -> String {
    escape_workflow(s, true)
}

/// The workflow commands' percent-encoding: `%`, CR, LF, and in a
/// property `:` and `,`.
fn escape_workflow(s: &str, property: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            ':' if property => out.push_str("%3A"),
            ',' if property => out.push_str("%2C"),
            c => out.push(c),
        }
    }
    out
}

/// HTML's five special characters as entities (`'` as `&#39;`), which
/// HTML and Markdown text escape alike.
fn html_entity(c: char) -> Option<&'static str> {
    match c {
        '&' => Some("&amp;"),
        '<' => Some("&lt;"),
        '>' => Some("&gt;"),
        '"' => Some("&quot;"),
        '\'' => Some("&#39;"),
        _ => None,
    }
}

/// Text or an attribute value for HTML: `& < > " '` as entities.
pub fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match html_entity(c) {
            Some(e) => out.push_str(e),
            None => out.push(c),
        }
    }
    out
}

/// Text for a Markdown (GFM) document, shown as is: HTML's special
/// characters as entities, other ASCII punctuation backslash-escaped (so
/// `|` cannot end a table cell, nor `*`, `[`, `` ` `` start markup), line
/// breaks and other control characters as spaces.
pub fn escape_markdown(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match (html_entity(c), c) {
            (Some(e), _) => out.push_str(e),
            (None, c) if c.is_ascii_punctuation() => {
                out.push('\\');
                out.push(c);
            }
            (None, c) if c.is_control() => out.push(' '),
            (None, c) => out.push(c),
        }
    }
    out
}

/// A URL as a Markdown link destination: characters that could end the
/// link or a table cell, spaces and non-ASCII percent-encoded.
pub fn escape_url(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' => out.push(b as char),
            b'-' | b'.' | b'_' | b'~' | b':' | b'/' | b'?' | b'#' | b'@' | b'!' | b'$' | b'&'
            | b'*' | b'+' | b',' | b';' | b'=' | b'%' => out.push(b as char),
            b => {
                let _ = write!(out, "%{b:02X}");
            }
        }
    }
    out
}

/// `s` as XML character data or attribute value: `& < > " '` as entities,
/// tab, line feed and carriage return as character references (so an
/// attribute keeps them), characters XML 1.0 does not allow left out.
pub fn escape_xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c if allowed_in_xml(c) => out.push(c),
            _ => {}
        }
    }
    out
}

/// XML 1.0's `Char` production (tab, LF and CR aside).
pub fn allowed_in_xml(c: char) -> bool {
    matches!(c, '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
}

/// A tag value as PGN escapes it.
pub fn escape_tag(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

#[cfg(test)]
mod terminal_tests {
    use super::*;

    #[test]
    fn escape_sequences_are_shown_not_obeyed() {
        assert_eq!(terminal_safe("a\u{1b}[31mred\tb\n"), "a\\x1b[31mred\tb\n");
        assert_eq!(terminal_safe("caf\u{e9} \u{9b}2J"), "caf\u{e9} \\x9b2J");
        assert!(matches!(
            terminal_safe("plain"),
            std::borrow::Cow::Borrowed(_)
        ));
    }
}
