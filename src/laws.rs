//! Laws editions (SPEC "Laws editions"): which automatic draws a game is
//! judged by, from its `Date` tag or as forced by `--laws`.

use std::fmt;
use std::ops::{AddAssign, Index, IndexMut};
use std::str::FromStr;

use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Deserializer, Serialize};

/// Which laws to judge by: from each game's date, or one edition for all
/// (`--laws auto|2001|2014|2018`, Python's `laws=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Laws {
    /// Each game by the edition in force on its `Date` tag
    /// ([`Edition::from_date`]).
    #[default]
    Auto,
    /// Every game by this edition.
    Fixed(Edition),
}

impl Laws {
    /// The name `--laws` takes: `auto` or the edition's.
    pub fn name(self) -> &'static str {
        match self {
            Laws::Auto => "auto",
            Laws::Fixed(e) => e.name(),
        }
    }

    /// The edition a game dated `date` is judged by.
    pub fn edition_for(self, date: Option<&[u8]>) -> Edition {
        self.edition_on(date.and_then(parse_date))
    }

    /// The edition a game played on `day` is judged by (`None`: no usable
    /// date, the newest laws).
    pub fn edition_on(self, day: Option<Day>) -> Edition {
        match self {
            Laws::Auto => Edition::on(day),
            Laws::Fixed(e) => e,
        }
    }
}

/// A day: (year, month, day), month and day 1 where the date leaves them
/// unknown.
pub type Day = (u32, u32, u32);

/// A `--laws` value that names no edition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownLaws(pub String);

impl fmt::Display for UnknownLaws {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}: expected 'auto', '2001', '2014' or '2018'", self.0)
    }
}

impl std::error::Error for UnknownLaws {}

impl FromStr for Laws {
    type Err = UnknownLaws;

    /// `auto`, `2001`, `2014`, `2018`; `2023` is read as `2018` (the 2023
    /// Laws keep its rules).
    fn from_str(s: &str) -> Result<Laws, UnknownLaws> {
        match s {
            "auto" => Ok(Laws::Auto),
            "2001" => Ok(Laws::Fixed(Edition::Laws2001)),
            "2014" => Ok(Laws::Fixed(Edition::Laws2014)),
            "2018" | "2023" => Ok(Laws::Fixed(Edition::Laws2018)),
            other => Err(UnknownLaws(other.to_string())),
        }
    }
}

/// An edition of the FIDE Laws of Chess, by the rules that matter here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Edition {
    /// Before 2014-07-01: no automatic draw but the dead position.
    Laws2001,
    /// 2014-07-01 to 2017-12-31: 75 moves; fivefold only on consecutive
    /// alternate moves.
    Laws2014,
    /// From 2018-01-01 (the 2023 text keeps these rules): 75 moves;
    /// fivefold on any five occurrences.
    Laws2018,
}

impl Edition {
    /// Every edition, oldest first.
    pub const ALL: [Edition; 3] = [Edition::Laws2001, Edition::Laws2014, Edition::Laws2018];

    /// The edition's place in [`Edition::ALL`], for tables of counts.
    pub fn index(self) -> usize {
        match self {
            Edition::Laws2001 => 0,
            Edition::Laws2014 => 1,
            Edition::Laws2018 => 2,
        }
    }

    /// The SPEC's name (`edition` in the reports, `--laws` values).
    pub fn name(self) -> &'static str {
        match self {
            Edition::Laws2001 => "2001",
            Edition::Laws2014 => "2014",
            Edition::Laws2018 => "2018",
        }
    }

    /// What the edition rules, for `--help`.
    pub fn help(self) -> &'static str {
        match self {
            Edition::Laws2001 => {
                "The laws in force before 2014-07-01: no automatic draws but the dead position"
            }
            Edition::Laws2014 => {
                "2014-07-01 to 2017-12-31: 75 moves, fivefold on consecutive alternate moves"
            }
            Edition::Laws2018 => {
                "From 2018 (and the 2023 Laws): 75 moves, fivefold on any five occurrences"
            }
        }
    }

    /// Whether the automatic draws of Art. 9.6.1 and 9.6.2 (fivefold, 75
    /// moves) exist in this edition.
    pub fn has_automatic_draws(self) -> bool {
        self != Edition::Laws2001
    }

    /// The edition in force on the day a `Date` tag gives.
    ///
    /// `YYYY.MM.DD`, read leniently: `.`, `-` or `/` between the parts, one
    /// or two digits for month and day; a missing, `??` or impossible part
    /// resolves to the earliest possible day (`2014.??.??` is 2014-01-01).
    /// No four-digit year at the start (or no tag): the newest laws.
    pub fn from_date(date: Option<&[u8]>) -> Edition {
        Edition::on(date.and_then(parse_date))
    }

    /// The edition in force on `day`; the newest without one.
    pub fn on(day: Option<Day>) -> Edition {
        match day {
            None => Edition::Laws2018,
            Some(day) if day < (2014, 7, 1) => Edition::Laws2001,
            Some(day) if day < (2018, 1, 1) => Edition::Laws2014,
            Some(_) => Edition::Laws2018,
        }
    }
}

impl fmt::Display for Edition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One value per edition, indexed by [`Edition`]. Serialised as an object
/// keyed by edition name (`"2001"`), oldest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct ByEdition<T>(pub [T; 3]);

impl<T> ByEdition<T> {
    /// Every edition with its value, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = (Edition, &T)> {
        Edition::ALL.into_iter().zip(self.0.iter())
    }
}

impl<T> Index<Edition> for ByEdition<T> {
    type Output = T;
    fn index(&self, e: Edition) -> &T {
        &self.0[e.index()]
    }
}

impl<T> IndexMut<Edition> for ByEdition<T> {
    fn index_mut(&mut self, e: Edition) -> &mut T {
        &mut self.0[e.index()]
    }
}

impl<T: AddAssign + Copy> AddAssign<&ByEdition<T>> for ByEdition<T> {
    fn add_assign(&mut self, other: &ByEdition<T>) {
        for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
            *a += *b;
        }
    }
}

impl<T: Serialize> Serialize for ByEdition<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(3))?;
        for (e, v) in self.iter() {
            map.serialize_entry(e.name(), v)?;
        }
        map.end()
    }
}

impl<'de, T: Deserialize<'de> + Default> Deserialize<'de> for ByEdition<T> {
    /// An object keyed by edition name; an edition left out is
    /// `T::default()`, a name that is no edition an error.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let map = std::collections::BTreeMap::<String, T>::deserialize(d)?;
        let mut out = ByEdition::<T>::default();
        for (name, v) in map {
            let e = Edition::ALL
                .into_iter()
                .find(|e| e.name() == name)
                .ok_or_else(|| serde::de::Error::custom(format!("unknown edition {name:?}")))?;
            out[e] = v;
        }
        Ok(out)
    }
}

/// `(year, month, day)`, unknown parts as 1; `None` without a year.
/// A date tag's day, month and day 1 where unknown; `None` without a
/// year (`????.??.??`).
pub fn parse_date(s: &[u8]) -> Option<Day> {
    let lead = s.iter().take_while(|b| b.is_ascii_whitespace()).count();
    let s = &s[lead..];
    // year: four digits (`?` or anything else: no year)
    if s.len() < 4 || !s[..4].iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut i = 4;
    let year = digits(&s[..4]);
    let mut parts = [None, None];
    for part in parts.iter_mut() {
        if i < s.len() && matches!(s[i], b'.' | b'-' | b'/') {
            let rest = &s[i + 1..];
            let nd = rest
                .iter()
                .take(2)
                .take_while(|b| b.is_ascii_digit())
                .count();
            let nq = rest.iter().take(2).take_while(|b| **b == b'?').count();
            if nd > 0 {
                *part = Some(digits(&rest[..nd]));
                i += 1 + nd;
            } else if nq > 0 {
                i += 1 + nq;
            } else {
                break;
            }
        } else {
            break;
        }
    }
    let month = parts[0].filter(|m| (1..=12).contains(m)).unwrap_or(1);
    let day = parts[1].filter(|d| (1..=31).contains(d)).unwrap_or(1);
    Some((year, month, day))
}

fn digits(s: &[u8]) -> u32 {
    s.iter().fold(0, |n, b| n * 10 + u32::from(b - b'0'))
}

#[cfg(test)]
mod tests {
    use super::Edition::{self, *};

    fn ed(s: &str) -> Edition {
        Edition::from_date(Some(s.as_bytes()))
    }

    #[test]
    fn dates_by_the_table() {
        assert_eq!(ed("2014.06.30"), Laws2001);
        assert_eq!(ed("2014.07.01"), Laws2014);
        assert_eq!(ed("2017.12.31"), Laws2014);
        assert_eq!(ed("2018.01.01"), Laws2018);
        assert_eq!(Edition::from_date(None), Laws2018);
    }

    #[test]
    fn lenient_dates_resolve_to_the_earliest_day() {
        assert_eq!(ed("2014.??.??"), Laws2001);
        assert_eq!(ed("2014.07.??"), Laws2014);
        assert_eq!(ed("2015-03-29"), Laws2014);
        assert_eq!(ed("2014"), Laws2001);
        assert_eq!(ed("2014.19.11"), Laws2001);
        assert_eq!(ed("2017.12.45"), Laws2014);
        assert_eq!(ed("????.??.??"), Laws2018);
        assert_eq!(ed("?"), Laws2018);
        assert_eq!(ed("19xx"), Laws2018);
    }
}
