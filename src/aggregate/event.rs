//! An event's identity and its name for people. The `Event` tag alone does
//! not tell tournaments apart: "Mondariz op" is held every year, "USA-ch"
//! spans decades, and a standing over two editions means nothing. An event
//! is its `Event` tag, its `Site` and its year (of `EventDate` where it has
//! one, else of `Date`), kept in the aggregate as one key, the three parts
//! joined by tabs (`Mondariz op\tMondariz\t1996`). A `Site` that is a URL
//! counts by its host: Lichess writes each game's own address there
//! (`https://lichess.org/abcd1234`), and one "event" per game would be no
//! event at all. The report names an event by its tag alone, and adds the
//! year (and the site) only where two events share a name.

use std::collections::BTreeMap;

/// The separator of an event key's parts.
const SEP: u8 = b'\t';

/// Writes the key of the event `event` held at `site` in `year` into
/// `out` (cleared first); tabs and line breaks inside a tag become spaces,
/// so the parts read back.
pub(crate) fn write_key(out: &mut Vec<u8>, event: &[u8], site: Option<&[u8]>, year: Option<u16>) {
    out.clear();
    let push = |out: &mut Vec<u8>, part: &[u8]| {
        out.extend(part.iter().map(|&b| match b {
            b'\t' | b'\n' | b'\r' => b' ',
            b => b,
        }));
    };
    push(out, event);
    out.push(SEP);
    push(out, site_part(site.unwrap_or_default()));
    out.push(SEP);
    if let Some(y) = year {
        // `{y:04}`, without a string a game
        let digits = [y / 1000 % 10, y / 100 % 10, y / 10 % 10, y % 10];
        if y >= 10_000 {
            out.extend_from_slice((y / 10_000).to_string().as_bytes());
        }
        out.extend(digits.map(|d| b'0' + d as u8));
    }
}

/// The part of `Site` that names a place: the host of a URL (`www.` left
/// out), else the tag as written; nothing for PGN's unknown (`?`).
fn site_part(site: &[u8]) -> &[u8] {
    let site = crate::parse::trim(site);
    if site.iter().all(|&b| b == b'?') {
        return b"";
    }
    let rest = [&b"https://"[..], b"http://"].iter().find_map(|p| {
        (site.len() >= p.len() && site[..p.len()].eq_ignore_ascii_case(p)).then(|| &site[p.len()..])
    });
    let Some(rest) = rest else {
        return site;
    };
    let host = rest.split(|&b| b == b'/').next().unwrap_or_default();
    host.strip_prefix(b"www.").unwrap_or(host)
}

/// An event key's parts: the `Event` tag, the site and the year (empty
/// when unknown). A key without tabs (an aggregate written before events
/// were told apart) is all tag.
pub fn parts(key: &str) -> (&str, &str, &str) {
    let mut it = key.splitn(3, '\t');
    let event = it.next().unwrap_or_default();
    (
        event,
        it.next().unwrap_or_default(),
        it.next().unwrap_or_default(),
    )
}

/// Each key's name for people: the `Event` tag, and, where another event
/// shares it, the year (`Mondariz op (1996)`), and the site where they
/// share the year too (`Open (Oslo, 2001)`). Keys that are not events
/// (`(none)`, `(other)`) stay as they are.
pub fn labels<'a>(keys: impl IntoIterator<Item = &'a str>) -> BTreeMap<&'a str, String> {
    let mut by_name: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for k in keys {
        by_name.entry(parts(k).0).or_default().push(k);
    }
    let mut out = BTreeMap::new();
    for (name, keys) in by_name {
        if keys.len() == 1 {
            out.insert(keys[0], name.to_string());
            continue;
        }
        for &k in &keys {
            let (_, site, year) = parts(k);
            let same_year = keys.iter().filter(|o| parts(o).2 == year).count() > 1;
            let year = if year.is_empty() {
                "year unknown"
            } else {
                year
            };
            let label = if same_year {
                let site = if site.is_empty() { "no site" } else { site };
                format!("{name} ({site}, {year})")
            } else {
                format!("{name} ({year})")
            };
            out.insert(k, label);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(event: &str, site: Option<&str>, year: Option<u16>) -> String {
        let mut out = Vec::new();
        write_key(&mut out, event.as_bytes(), site.map(str::as_bytes), year);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn keys_read_back_and_urls_count_by_host() {
        let k = key("Mondariz\top", Some("Mondariz ESP"), Some(1996));
        assert_eq!(k, "Mondariz op\tMondariz ESP\t1996");
        assert_eq!(parts(&k), ("Mondariz op", "Mondariz ESP", "1996"));
        let lichess = key(
            "Rated Blitz game",
            Some("https://lichess.org/abcd1234"),
            None,
        );
        assert_eq!(parts(&lichess), ("Rated Blitz game", "lichess.org", ""));
        assert_eq!(parts("Old key"), ("Old key", "", ""));
        assert_eq!(key("USA-ch", Some("?"), Some(1993)), "USA-ch\t\t1993");
    }

    #[test]
    fn labels_name_the_year_only_where_two_share_a_name() {
        let keys = [
            "Mondariz op\tMondariz\t1996",
            "Mondariz op\tMondariz\t1997",
            "Open\tOslo\t2001",
            "Open\tBergen\t2001",
            "Open\t\t",
            "Quiet\tX\t2000",
            "(none)",
        ];
        let l = labels(keys);
        assert_eq!(l[keys[0]], "Mondariz op (1996)");
        assert_eq!(l[keys[1]], "Mondariz op (1997)");
        assert_eq!(l[keys[2]], "Open (Oslo, 2001)");
        assert_eq!(l[keys[3]], "Open (Bergen, 2001)");
        assert_eq!(l[keys[4]], "Open (year unknown)");
        assert_eq!(l[keys[5]], "Quiet");
        assert_eq!(l[keys[6]], "(none)");
    }
}
