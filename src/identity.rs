//! What makes two records one game, as a librarian judges it: the site's
//! own game id where it gives one (`Link`, `GameURL`,
//! `FICSGamesDBGameNo`, a Lichess game address in `Site`), else the
//! mainline with the date, the players' names compared after normalising
//! them (case, accents, spaces and commas, initials against full first
//! names, camel-cased user names, a list of transliterations kept as data).
//! A leaf: read from a game's tags in the audit's workers
//! ([`crate::facets`]), compared by the statistics report's duplicate
//! finder and its standings.

use std::sync::OnceLock;

/// The tags of a record that the duplicate finder compares, read once in
/// the audit's workers: the site's own game id, the players, date and
/// round as normalised, and how each compared tag is spelt.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Identity {
    /// XXH3 of [`site_game_id`]; 0 when the record has none.
    pub site: u64,
    /// White's and Black's [`NameKey`].
    pub names: [NameKey; 2],
    /// [`date_key`] of `Date` (of `UTCDate` where `Date` has no year).
    pub date: u32,
    /// [`tag_hash`] of [`round_key`] in the low 15 bits, bit 15 set where
    /// the round has a board or game part (`1.1`); 0 for an unknown round.
    pub round: u16,
    /// [`tag_hash`] of each of [`COMPARED_TAGS`] as written.
    pub spelt: [u16; 6],
}

/// The tags whose spelling a repeat's listing compares.
pub const COMPARED_TAGS: [&str; 6] = ["White", "Black", "Event", "Site", "Round", "Date"];

impl Identity {
    /// Reads a record's identity through its tags (`tag(name)`: the value).
    pub fn read<'a>(tag: impl Fn(&str) -> Option<&'a [u8]>) -> Identity {
        let date = tag("Date")
            .filter(|d| date_key(Some(d)) >> 9 != 0)
            .or_else(|| tag("UTCDate"));
        let round_tag = tag("Round").map(crate::parse::trim).unwrap_or_default();
        let round = round_key(Some(round_tag));
        let sub = round_tag
            .splitn(2, |&b| b == b'.')
            .nth(1)
            .is_some_and(|rest| rest.iter().any(u8::is_ascii_alphanumeric));
        Identity {
            site: site_game_id(&tag).map_or(0, |id| xxhash_rust::xxh3::xxh3_64(&id).max(1)),
            names: [name_key_of(tag("White")), name_key_of(tag("Black"))],
            date: date_key(date),
            round: if round.is_empty() {
                0
            } else {
                (tag_hash(Some(round)) & 0x7fff).max(1) | u16::from(sub) << 15
            },
            spelt: COMPARED_TAGS.map(|n| tag_hash(tag(n))),
        }
    }
}

fn name_key_of(v: Option<&[u8]>) -> NameKey {
    v.map(name_key).unwrap_or_default()
}

/// A player's name as compared: the surname (hashed; 0 when the name is
/// unknown: empty, `?`, `NN`) and the initial of the first given name (0
/// when none is written).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct NameKey {
    /// XXH3 of the normalised surname, folded to 32 bits; 0: unknown.
    pub surname: u32,
    /// `a`..=`z`, or 0.
    pub initial: u8,
}

impl NameKey {
    /// Whether two spellings may name one player: both known with the
    /// same surname and no two different initials, or either unknown.
    pub fn compatible(self, other: NameKey) -> bool {
        if self.surname == 0 || other.surname == 0 {
            return true;
        }
        self.surname == other.surname
            && (self.initial == 0 || other.initial == 0 || self.initial == other.initial)
    }
}

/// The normalised form of a name: surname (lowercase ASCII letters, its
/// transliterations mapped to one spelling) and given names (lowercase
/// ASCII letters). `Adams, Michael`, `ADAMS,Michael` and `Michael Adams`
/// are `adams`, `michael`; `Kortschnoj, Viktor` is `korchnoi`, `viktor`;
/// chess.com's `MagnusCarlsen` is `carlsen`, `magnus`. Empty for a name
/// that names nobody (`?`, `NN`).
pub fn normalise_name(raw: &[u8]) -> (String, String) {
    with_parts(raw, |surname, given| match known_surname(surname) {
        Some(s) => (text(s), text(given)),
        None => (String::new(), String::new()),
    })
}

/// `f` of the surname and given names of `raw` (trimmed), folded, before
/// the transliterations: on the stack where the name is ASCII
/// ([`Folded`]), else by [`split_name`].
fn with_parts<R>(raw: &[u8], f: impl FnOnce(&[u8], &[u8]) -> R) -> R {
    let trimmed = crate::parse::trim(raw);
    match Folded::ascii(trimmed) {
        Some(folded) => {
            let (s, g) = folded.parts();
            f(s, g)
        }
        None => {
            let (s, g) = split_name(&String::from_utf8_lossy(trimmed));
            f(s.as_bytes(), g.as_bytes())
        }
    }
}

/// The surname as compared: its transliterations mapped to one spelling;
/// `None` for a name that names nobody (empty, `nn`).
fn known_surname(surname: &[u8]) -> Option<&[u8]> {
    let s = transliterations().get(surname).copied().unwrap_or(surname);
    (!s.is_empty() && s != b"nn").then_some(s)
}

/// Folded letters as a string (they are ASCII).
fn text(folded: &[u8]) -> String {
    String::from_utf8_lossy(folded).into_owned()
}

/// The surname and given names of a name (trimmed), folded, before the
/// transliterations ([`normalise_name`]).
fn split_name(text: &str) -> (String, String) {
    match text.split_once(',') {
        Some((s, g)) => (letters(s), letters(g)),
        None => {
            let words = words(text);
            match words.len() {
                0 => (String::new(), String::new()),
                1 => (words[0].clone(), String::new()),
                // `Carls C`: a surname and its initials
                n if words[n - 1].len() <= 2 && words[0].len() > 2 => {
                    (words[0].clone(), words[n - 1].clone())
                }
                n => (words[n - 1].clone(), words[0].clone()),
            }
        }
    }
}

/// A name of ASCII bytes folded as [`split_name`] folds it, in a buffer
/// on the stack: the names of a database are read twice a game, and
/// nearly all are short and ASCII, so they cost no allocation.
struct Folded {
    buf: [u8; Folded::CAP],
    surname: (u8, u8),
    given: (u8, u8),
}

impl Folded {
    /// The longest name folded here, in bytes.
    const CAP: usize = 96;
    /// The most words of a name without a comma folded here.
    const WORDS: usize = 16;

    /// `None` where the name is not ASCII, or longer than [`Folded::CAP`]
    /// or [`Folded::WORDS`] ([`split_name`] takes it).
    fn ascii(text: &[u8]) -> Option<Folded> {
        if text.len() > Folded::CAP || !text.is_ascii() {
            return None;
        }
        let mut f = Folded {
            buf: [0; Folded::CAP],
            surname: (0, 0),
            given: (0, 0),
        };
        let mut len = 0usize;
        if let Some(comma) = text.iter().position(|&b| b == b',') {
            for &c in &text[..comma] {
                if c.is_ascii_alphanumeric() {
                    f.buf[len] = c.to_ascii_lowercase();
                    len += 1;
                }
            }
            let s = len;
            for &c in &text[comma + 1..] {
                if c.is_ascii_alphanumeric() {
                    f.buf[len] = c.to_ascii_lowercase();
                    len += 1;
                }
            }
            f.surname = (0, s as u8);
            f.given = (s as u8, len as u8);
            return Some(f);
        }
        // the words, cut as `words` cuts them
        let mut words = [(0u8, 0u8); Folded::WORDS];
        let mut count = 0;
        let mut start = 0usize;
        let mut last_lower = false;
        for &c in text {
            let split = !c.is_ascii_alphanumeric() || (c.is_ascii_uppercase() && last_lower);
            if split && len > start {
                *words.get_mut(count)? = (start as u8, len as u8);
                count += 1;
                start = len;
            }
            if c.is_ascii_alphanumeric() {
                f.buf[len] = c.to_ascii_lowercase();
                len += 1;
            }
            last_lower = c.is_ascii_lowercase();
        }
        if len > start {
            *words.get_mut(count)? = (start as u8, len as u8);
            count += 1;
        }
        let width = |w: (u8, u8)| w.1 - w.0;
        (f.surname, f.given) = match count {
            0 => ((0, 0), (0, 0)),
            1 => (words[0], (0, 0)),
            n if width(words[n - 1]) <= 2 && width(words[0]) > 2 => (words[0], words[n - 1]),
            n => (words[n - 1], words[0]),
        };
        Some(f)
    }

    /// The surname and given names.
    fn parts(&self) -> (&[u8], &[u8]) {
        let part = |(a, b): (u8, u8)| &self.buf[usize::from(a)..usize::from(b)];
        (part(self.surname), part(self.given))
    }
}

/// The key of a player within an event: the name as normalised
/// ([`normalise_name`]: `Adams, Michael`, `ADAMS,Michael` and `Michael
/// Adams` are one player; `Adams,M` is not joined to them, since an
/// initial may stand for another player of the same surname), or the name
/// as written where it names nobody (`?`).
pub fn player_key(name: &[u8]) -> Box<[u8]> {
    let mut key = Vec::new();
    write_player_key(name, &mut key);
    key.into()
}

/// [`player_key`] written into `out` (cleared first), which a caller
/// keeps from game to game.
pub fn write_player_key(name: &[u8], out: &mut Vec<u8>) {
    out.clear();
    with_parts(name, |surname, given| match known_surname(surname) {
        Some(s) => {
            out.extend_from_slice(s);
            out.push(b',');
            out.extend_from_slice(given);
        }
        None => {
            out.push(b'=');
            out.extend_from_slice(name);
        }
    });
}

/// The [`NameKey`] of a name as written.
pub fn name_key(raw: &[u8]) -> NameKey {
    with_parts(raw, |surname, given| {
        let Some(s) = known_surname(surname) else {
            return NameKey::default();
        };
        let h = xxhash_rust::xxh3::xxh3_64(s);
        NameKey {
            surname: (h as u32 ^ (h >> 32) as u32).max(1),
            initial: given.first().copied().unwrap_or(0),
        }
    })
}

/// A name's letters and digits folded to lowercase ASCII, everything else
/// dropped.
fn letters(s: &str) -> String {
    s.chars().filter_map(fold).collect()
}

/// A name cut into words at spaces, hyphens, dots, underscores and where a
/// lower-case letter meets an upper-case one (`MagnusCarlsen`), each
/// folded by [`letters`]; empty words are dropped.
fn words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut last_lower = false;
    for c in s.chars() {
        let split = !c.is_alphanumeric() || (c.is_uppercase() && last_lower);
        if split && !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        if let Some(f) = fold(c) {
            word.push(f);
        }
        last_lower = c.is_lowercase();
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// A letter as lowercase ASCII: accents dropped (`é` → `e`, `ö` → `o`,
/// `ł` → `l`); an ASCII digit as it is (`Koch,Ala2` and `player1` name
/// someone else than `Koch,Ala` and `player2`); `None` for anything else.
fn fold(c: char) -> Option<char> {
    if c.is_ascii_alphanumeric() {
        return Some(c.to_ascii_lowercase());
    }
    if c.is_ascii() || !c.is_alphabetic() {
        return None;
    }
    let lower = c.to_lowercase().next().unwrap_or(c);
    let base = match lower {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' => 'a',
        'ç' | 'ć' | 'č' => 'c',
        'ď' | 'đ' => 'd',
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ė' | 'ę' | 'ě' => 'e',
        'ğ' => 'g',
        'ì' | 'í' | 'î' | 'ï' | 'ı' | 'ī' => 'i',
        'ł' | 'ľ' | 'ĺ' => 'l',
        'ñ' | 'ń' | 'ň' => 'n',
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ő' | 'ō' => 'o',
        'ř' | 'ŕ' => 'r',
        'ś' | 'š' | 'ş' | 'ș' | 'ß' => 's',
        'ť' | 'ţ' | 'ț' => 't',
        'ù' | 'ú' | 'û' | 'ü' | 'ů' | 'ű' | 'ū' => 'u',
        'ý' | 'ÿ' => 'y',
        'ź' | 'ż' | 'ž' => 'z',
        _ => return None,
    };
    Some(base)
}

/// Surnames written differently in different languages, each mapped to
/// the first spelling of its line in `transliterations.txt`. Looked up for
/// every name read, so not hashed with SipHash (the keys are the file's
/// own, not an attacker's).
type Transliterations = crate::hashing::Table<&'static [u8], &'static [u8]>;

fn transliterations() -> &'static Transliterations {
    static TABLE: OnceLock<Transliterations> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Transliterations::default();
        for line in include_str!("identity/transliterations.txt").lines() {
            let line = line.split('#').next().unwrap_or_default();
            let mut spellings = line.split_whitespace();
            let Some(canonical) = spellings.next() else {
                continue;
            };
            for s in spellings {
                t.insert(s.as_bytes(), canonical.as_bytes());
            }
        }
        t
    })
}

/// A date as compared: year, month and day packed (`y << 9 | m << 5 | d`),
/// each 0 where unknown (`2012.??.??`).
pub fn date_key(raw: Option<&[u8]>) -> u32 {
    let Some(raw) = raw else {
        return 0;
    };
    let d = crate::parse::trim(raw);
    let mut parts = d.split(|&b| b == b'.' || b == b'-' || b == b'/');
    let mut num = |limit: u32| -> u32 {
        parts
            .next()
            .and_then(|p| crate::parse::ascii_number(p, 4))
            .filter(|&n| n <= limit)
            .unwrap_or(0)
    };
    let (y, m, day) = (num(9999), num(12), num(31));
    y << 9 | m << 5 | day
}

/// Whether two [`date_key`]s may be one day: each part known in both is
/// equal.
pub fn dates_compatible(a: u32, b: u32) -> bool {
    let part = |k: u32, shift: u32, mask: u32| (k >> shift) & mask;
    [(9, 0x3fff), (5, 15), (0, 31)].iter().all(|&(s, m)| {
        let (x, y) = (part(a, s, m), part(b, s, m));
        x == 0 || y == 0 || x == y
    })
}

impl Identity {
    /// Whether two records' rounds may be one: written alike, either
    /// unknown, or the same round where one of them leaves out the board
    /// (`1` and `1.1`; not `1.1` and `1.2`, two games of one round, as an
    /// engine match's identical games are).
    pub fn rounds_compatible(&self, other: &Identity) -> bool {
        let (a, b) = (self.round, other.round);
        self.spelt[4] == other.spelt[4]
            || a == 0
            || b == 0
            || (a & 0x7fff == b & 0x7fff && (a >> 15 == 0 || b >> 15 == 0))
    }
}

/// A `Round` as compared: its first number (`1.1` and `1` are round 1);
/// empty for `?` and `-`.
pub fn round_key(raw: Option<&[u8]>) -> &[u8] {
    let r = raw.map(crate::parse::trim).unwrap_or_default();
    let first = r.split(|&b| b == b'.').next().unwrap_or_default();
    if first.iter().all(|&b| b == b'?' || b == b'-') {
        return b"";
    }
    first
}

/// The site's own id of the game, where its record gives one: `Link`
/// (chess.com), `GameURL` (broadcasts), `FICSGamesDBGameNo` (FICS), or a
/// Lichess game's address in `Site`; as one string (scheme and `www.`
/// left out, so `http`/`https` copies agree). `None` for a `Site` that is
/// a place or an event's address.
pub fn site_game_id<'a>(tag: impl Fn(&str) -> Option<&'a [u8]>) -> Option<Vec<u8>> {
    for name in ["Link", "GameURL"] {
        if let Some(v) = tag(name).map(crate::parse::trim).filter(|v| !v.is_empty()) {
            return Some(without_scheme(v).to_ascii_lowercase());
        }
    }
    if let Some(v) = tag("FICSGamesDBGameNo").map(crate::parse::trim) {
        if !v.is_empty() {
            return Some([&b"fics:"[..], v].concat());
        }
    }
    let site = without_scheme(crate::parse::trim(tag("Site")?));
    let path = site.strip_prefix(b"lichess.org/")?;
    // a game's address: 8 letters and digits (12 with the side's part)
    let id_len = path
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric())
        .count();
    ((id_len == 8 || id_len == 12) && matches!(path.get(id_len), None | Some(b'/' | b'#' | b'?')))
        .then(|| [&b"lichess.org/"[..], &path[..8]].concat())
}

/// A URL without `http://`, `https://` and `www.`.
fn without_scheme(v: &[u8]) -> &[u8] {
    let v = [&b"https://"[..], b"http://"]
        .iter()
        .find_map(|p| {
            (v.len() >= p.len() && v[..p.len()].eq_ignore_ascii_case(p)).then(|| &v[p.len()..])
        })
        .unwrap_or(v);
    if v.len() >= 4 && v[..4].eq_ignore_ascii_case(b"www.") {
        &v[4..]
    } else {
        v
    }
}

/// A short hash of a tag's value as written (trimmed), to tell whether two
/// records spell it alike; 0 for a missing tag.
pub fn tag_hash(v: Option<&[u8]>) -> u16 {
    match v {
        None => 0,
        Some(v) => {
            let h = xxhash_rust::xxh3::xxh3_64(crate::parse::trim(v));
            (h as u16).max(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same_player(a: &str, b: &str) -> bool {
        name_key(a.as_bytes()).compatible(name_key(b.as_bytes()))
    }

    #[test]
    fn names_spelled_as_collections_spell_them() {
        assert!(same_player("Adams,Mi", "Adams, Michael"));
        assert!(same_player("Kortschnoj, Viktor", "Korchnoi,V"));
        assert!(same_player("MagnusCarlsen", "Carlsen,M"));
        assert!(same_player("RainnWilson", "Wilson,Rainn"));
        assert!(same_player("Magnus Carlsen", "Carlsen, Magnus"));
        assert!(same_player("Ljubojević, Ljubomir", "Ljubojevic,L"));
        assert!(same_player("?", "Carlsen,M"));
        assert!(same_player("Carls C", "Carls, Carl Johan"));
        assert!(!same_player("german11", "german12"));
        assert_ne!(normalise_name(b"Koch,Ala2"), normalise_name(b"Koch,Ala"));
        assert!(!same_player("Adams,M", "Adams,J"));
        assert!(!same_player("Carlsen,M", "Caruana,F"));
        let n = |s: &str| normalise_name(s.as_bytes());
        assert_eq!(
            n("Kortschnoj, Viktor"),
            ("korchnoi".into(), "viktor".into())
        );
        assert_eq!(n("Michael Adams"), n("ADAMS,  Michael"));
        assert_ne!(n("Xu, Yi"), n("Xu, Yinglun"));
        assert_eq!(n("NN"), (String::new(), String::new()));
    }

    #[test]
    fn ascii_names_fold_on_the_stack_as_any_name_folds() {
        let mut names: Vec<Vec<u8>> = [
            "Adams, Michael",
            "MagnusCarlsen",
            "Carls C",
            "de la Paz, J.",
            "a b c d",
            "  NN ",
            "?",
            "x,",
            ",y",
            "Ab,Cd,Ef",
            "aB",
            "ABc",
            "van der Wiel J",
            "",
            "player1",
            "Koch,Ala2",
            "DrNykterstein",
            "A-B_C.D E",
        ]
        .iter()
        .map(|s| s.as_bytes().to_vec())
        .collect();
        let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
        for file in ["lichess-2000.pgn", "twic-2000.pgn.zst"] {
            let bytes = std::fs::read(data.join(file)).expect("data/");
            let text = if file.ends_with(".zst") {
                zstd::stream::decode_all(&bytes[..]).expect("zstd")
            } else {
                bytes
            };
            for line in text.split(|&b| b == b'\n') {
                for tag in [&b"[White \""[..], b"[Black \""] {
                    if let Some(rest) = line.strip_prefix(tag) {
                        names.push(
                            rest.split(|&b| b == b'"')
                                .next()
                                .unwrap_or_default()
                                .to_vec(),
                        );
                    }
                }
            }
        }
        let mut folded = 0;
        for name in &names {
            let trimmed = crate::parse::trim(name);
            let Some(f) = Folded::ascii(trimmed) else {
                continue;
            };
            let (s, g) = f.parts();
            let any = split_name(&String::from_utf8_lossy(trimmed));
            assert_eq!(
                (text(s), text(g)),
                any,
                "{:?}",
                String::from_utf8_lossy(name)
            );
            folded += 1;
        }
        assert!(folded > 5_000, "{folded} names folded on the stack");
        assert!(Folded::ascii("Ljubojević, L".as_bytes()).is_none());
    }

    #[test]
    fn dates_and_rounds_compare_where_known() {
        let d = |s: &str| date_key(Some(s.as_bytes()));
        assert!(dates_compatible(d("2012.05.12"), d("2012.??.??")));
        assert!(dates_compatible(d("2012.05.12"), d("2012-05-12")));
        assert!(!dates_compatible(d("2012.05.12"), d("2012.05.13")));
        assert!(dates_compatible(d("????.??.??"), d("2001.01.01")));
        assert_eq!(round_key(Some(b"1.1")), round_key(Some(b"1")));
        assert_eq!(round_key(Some(b"?")), b"");
    }

    #[test]
    fn site_ids_where_the_record_has_one() {
        let tags = |pairs: &'static [(&'static str, &'static str)]| {
            move |n: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == n)
                    .map(|(_, v)| v.as_bytes())
            }
        };
        let id = |p: &'static [(&'static str, &'static str)]| site_game_id(tags(p));
        assert_eq!(
            id(&[("Site", "https://lichess.org/abcd1234")]),
            Some(b"lichess.org/abcd1234".to_vec())
        );
        assert_eq!(
            id(&[("Site", "http://lichess.org/abcd1234wxyz")]),
            Some(b"lichess.org/abcd1234".to_vec())
        );
        assert_eq!(id(&[("Site", "https://lichess.org/tournament/x")]), None);
        assert_eq!(id(&[("Site", "Wijk aan Zee NED")]), None);
        assert_eq!(
            id(&[
                ("Site", "Chess.com"),
                ("Link", "https://www.chess.com/game/live/1")
            ]),
            Some(b"chess.com/game/live/1".to_vec())
        );
        assert_eq!(
            id(&[("FICSGamesDBGameNo", "42")]),
            Some(b"fics:42".to_vec())
        );
    }
}
