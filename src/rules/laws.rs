//! Laws editions (SPEC "Laws editions"): which automatic draws a game is
//! judged by, from its `Date` tag or as forced by `--laws`.

use std::fmt;

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
        let Some(date) = date else {
            return Edition::Laws2018;
        };
        match parse_date(date) {
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

/// `(year, month, day)`, unknown parts as 1; `None` without a year.
fn parse_date(s: &[u8]) -> Option<(u32, u32, u32)> {
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
