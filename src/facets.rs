//! What the statistics report breaks findings down by, read from a game's
//! tags in the audit pass (so the tags are read once): year, time-control
//! class, mean rating, and where the `Event`, `Termination` and player tags
//! stand in the game's text (ranges, so no game allocates for them).

use crate::split::RawGame;

/// Lichess's time-control classes, by the estimated game duration
/// base + 40 × increment seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, PartialOrd, Ord, Hash)]
pub enum TimeClass {
    /// Under 30 s.
    Ultrabullet,
    /// Under 180 s.
    Bullet,
    /// Under 480 s.
    Blitz,
    /// Under 1,500 s.
    Rapid,
    /// 1,500 s or more.
    Classical,
    /// `TimeControl "-"`: days per move.
    Correspondence,
    /// No `TimeControl` tag, or one that cannot be read.
    #[default]
    Unknown,
}

impl TimeClass {
    /// Every class, in order.
    pub const ALL: [TimeClass; 7] = [
        TimeClass::Ultrabullet,
        TimeClass::Bullet,
        TimeClass::Blitz,
        TimeClass::Rapid,
        TimeClass::Classical,
        TimeClass::Correspondence,
        TimeClass::Unknown,
    ];

    /// The class's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            TimeClass::Ultrabullet => "ultrabullet",
            TimeClass::Bullet => "bullet",
            TimeClass::Blitz => "blitz",
            TimeClass::Rapid => "rapid",
            TimeClass::Classical => "classical",
            TimeClass::Correspondence => "correspondence",
            TimeClass::Unknown => "unknown",
        }
    }

    /// The class of a `TimeControl` value: `base+increment` in seconds
    /// (Lichess, chess.com), `-` (correspondence), or PGN's
    /// `moves/seconds[+increment]:...` periods, of which the first counts.
    pub fn from_tag(tag: Option<&[u8]>) -> TimeClass {
        let Some(raw) = tag else {
            return TimeClass::Unknown;
        };
        let v = crate::parse::trim(raw);
        if v == b"-" {
            return TimeClass::Correspondence;
        }
        let first = v.split(|&b| b == b':').next().unwrap_or_default();
        let period = match first.iter().position(|&b| b == b'/') {
            Some(i) => &first[i + 1..],
            None => first,
        };
        let mut parts = period.splitn(2, |&b| b == b'+');
        let number = |p: Option<&[u8]>| crate::parse::ascii_number(p?, 9).map(u64::from);
        let Some(base) = number(parts.next()) else {
            return TimeClass::Unknown;
        };
        let inc = match parts.next() {
            None => 0,
            Some(p) => match number(Some(p)) {
                Some(i) => i,
                None => return TimeClass::Unknown,
            },
        };
        match base + 40 * inc {
            t if t < 30 => TimeClass::Ultrabullet,
            t if t < 180 => TimeClass::Bullet,
            t if t < 480 => TimeClass::Blitz,
            t if t < 1_500 => TimeClass::Rapid,
            _ => TimeClass::Classical,
        }
    }
}

/// A tag value's place in the game's text.
pub type Span = (u32, u32);

/// What a game is broken down by.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Facets {
    /// The year of `Date`, or of `UTCDate` when `Date` has none.
    pub year: Option<u16>,
    /// From `TimeControl`.
    pub time_class: TimeClass,
    /// The mean of `WhiteElo` and `BlackElo`, when both are ratings.
    pub rating: Option<u16>,
    /// The `Event` value's place in the game's text.
    pub event: Option<Span>,
    /// The `Site` value's place in the game's text (with `Event` and
    /// [`Facets::event_year`], the event's identity).
    pub site: Option<Span>,
    /// The year of `EventDate` where it has one, else [`Facets::year`]: the
    /// edition of an event (an event over New Year stays one).
    pub event_year: Option<u16>,
    /// The `Termination` value's place in the game's text.
    pub termination: Option<Span>,
    /// The `White` value's place in the game's text.
    pub white: Option<Span>,
    /// The `Black` value's place in the game's text.
    pub black: Option<Span>,
    /// The `Result` value's place in the game's text.
    pub result: Option<Span>,
    /// What the duplicate finder compares.
    pub identity: crate::identity::Identity,
}

impl Facets {
    /// Reads the facets of `game`.
    pub fn of(game: &RawGame<'_>) -> Facets {
        let tags = Wanted::of(game);
        let tag = |name: &str| tags.get(name, game);
        let span = |name: &str| -> Option<Span> {
            let v = crate::parse::trim(tag(name)?);
            let start = (v.as_ptr() as usize).checked_sub(game.text.as_ptr() as usize)?;
            let end = start + v.len();
            (end <= game.text.len()).then_some((start as u32, end as u32))
        };
        let elo = |name: &str| -> Option<u32> {
            crate::parse::ascii_number(crate::parse::trim(tag(name)?), 4).filter(|&e| e > 0)
        };
        let year_of_date = year(tag("Date")).or_else(|| year(tag("UTCDate")));
        Facets {
            year: year_of_date,
            event_year: year(tag("EventDate")).or(year_of_date),
            site: span("Site"),
            time_class: TimeClass::from_tag(tag("TimeControl")),
            rating: match (elo("WhiteElo"), elo("BlackElo")) {
                (Some(w), Some(b)) => Some(((w + b) / 2) as u16),
                _ => None,
            },
            event: span("Event"),
            termination: span("Termination"),
            white: span("White"),
            black: span("Black"),
            result: span("Result"),
            identity: crate::identity::Identity::read(tag),
        }
    }

    /// The bytes of a span of the game's `text`.
    pub fn get(span: Option<Span>, text: &[u8]) -> Option<&[u8]> {
        let (s, e) = span?;
        text.get(s as usize..e as usize)
    }
}

/// The tags that [`Facets::of`] and [`crate::identity::Identity::read`]
/// read, found in one pass over the game's tags (a game has about 18; each
/// looked up on its own was a scan of them all, some 30 times a game).
struct Wanted<'a> {
    values: [Option<&'a [u8]>; WANTED.len()],
}

/// The names of the [`Wanted`] tags.
const WANTED: [&str; 16] = [
    "Event",
    "Site",
    "Date",
    "UTCDate",
    "EventDate",
    "TimeControl",
    "WhiteElo",
    "BlackElo",
    "Termination",
    "White",
    "Black",
    "Result",
    "Round",
    "Link",
    "GameURL",
    "FICSGamesDBGameNo",
];

impl<'a> Wanted<'a> {
    fn of(game: &RawGame<'a>) -> Wanted<'a> {
        let mut values = [None; WANTED.len()];
        // in order, so that the last of a repeated name wins, as with
        // [`RawGame::tag`]
        for (name, value) in &game.tags {
            if let Some(i) = slot(name) {
                values[i] = Some(*value);
            }
        }
        Wanted { values }
    }

    /// The value of tag `name`, as [`RawGame::tag`] gives it.
    fn get(&self, name: &str, game: &RawGame<'a>) -> Option<&'a [u8]> {
        match slot(name.as_bytes()) {
            Some(i) => self.values[i],
            None => game.tag(name),
        }
    }
}

/// The place of a tag's name in [`WANTED`].
fn slot(name: &[u8]) -> Option<usize> {
    // the one name a length and first letter can be, then compared: every
    // tag of a game is looked up here, most of them not wanted
    let i = match (name.len(), *name.first()?) {
        (5, b'E') => 0,
        (4, b'S') => 1,
        (4, b'D') => 2,
        (7, b'U') => 3,
        (9, b'E') => 4,
        (11, b'T') if name[1] == b'i' => 5,
        (8, b'W') => 6,
        (8, b'B') => 7,
        (11, b'T') => 8,
        (5, b'W') => 9,
        (5, b'B') => 10,
        (6, b'R') => 11,
        (5, b'R') => 12,
        (4, b'L') => 13,
        (7, b'G') => 14,
        (17, b'F') => 15,
        _ => return None,
    };
    (WANTED[i].as_bytes() == name).then_some(i)
}

/// The four-digit year a date starts with.
fn year(date: Option<&[u8]>) -> Option<u16> {
    let d = crate::parse::trim(date?);
    crate::parse::ascii_number(d.get(..4)?, 4).map(|y| y as u16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wanted_tags_read_in_one_pass_as_each_read_alone() {
        for (i, name) in WANTED.iter().enumerate() {
            assert_eq!(slot(name.as_bytes()), Some(i), "{name}");
        }
        // names of the same length and first letter as a wanted one
        for name in [
            "Eve",
            "Evens",
            "Sate",
            "Times",
            "TimeControL",
            "Terminatiox",
            "",
            "W",
        ] {
            assert_eq!(slot(name.as_bytes()), None, "{name}");
        }
        let text = b"[Event \"A\"]\n[White \"x\"]\n[Event \"B\"]\n[Annotator \"z\"]\n\n1. e4 *\n";
        let game = crate::split::Splitter::new(text).next().expect("a game");
        let tags = Wanted::of(&game);
        for name in WANTED.iter().chain(&["Annotator", "Black"]) {
            assert_eq!(tags.get(name, &game), game.tag(name), "{name}");
        }
        assert_eq!(tags.get("Event", &game), Some(&b"B"[..]));
    }

    #[test]
    fn time_classes_as_lichess_estimates_them() {
        let c = |s: &str| TimeClass::from_tag(Some(s.as_bytes()));
        assert_eq!(c("15+0"), TimeClass::Ultrabullet);
        assert_eq!(c("60+0"), TimeClass::Bullet);
        // 120 + 40 × 1 = 160
        assert_eq!(c("120+1"), TimeClass::Bullet);
        assert_eq!(c("180+2"), TimeClass::Blitz);
        // 300 + 40 × 3 = 420: blitz, as Lichess calls 5+3
        assert_eq!(c("300+3"), TimeClass::Blitz);
        assert_eq!(c("600+0"), TimeClass::Rapid);
        assert_eq!(c("900+10"), TimeClass::Rapid);
        assert_eq!(c("1800+0"), TimeClass::Classical);
        assert_eq!(c("40/7200:3600"), TimeClass::Classical);
        assert_eq!(c("-"), TimeClass::Correspondence);
        assert_eq!(c("?"), TimeClass::Unknown);
        assert_eq!(c("5+x"), TimeClass::Unknown);
        assert_eq!(TimeClass::from_tag(None), TimeClass::Unknown);
    }

    #[test]
    fn years_ratings_and_spans() {
        let text = b"[Event \"Rated Blitz\"]\n[UTCDate \"2016.05.24\"]\n[Date \"????.??.??\"]\n[WhiteElo \"1639\"]\n[BlackElo \"1120\"]\n\n1. e4 *\n";
        let game = crate::split::Splitter::new(text).next().unwrap();
        let f = Facets::of(&game);
        assert_eq!(f.year, Some(2016));
        assert_eq!(f.rating, Some(1379));
        assert_eq!(Facets::get(f.event, game.text), Some(&b"Rated Blitz"[..]));
        assert_eq!(f.termination, None);
    }
}
