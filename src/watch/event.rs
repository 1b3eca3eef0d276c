//! What the live view reports: the kinds of events as a table (as
//! [`crate::kind`] is for findings) and one event as it is written.

use std::time::{SystemTime, UNIX_EPOCH};

use serde::Serialize;

use crate::finding::Kind;

/// The version of the event format (`schema_version` in every JSON line;
/// `docs/watch-event.schema.json`).
pub const SCHEMA_VERSION: u32 = 1;

/// What an event says about a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EventKind {
    /// The player to move may claim a draw now (Art. 9.2 / 9.3, (a) by
    /// announcing a move, or (b)): where the audit would count a missed
    /// claim.
    ClaimAvailable,
    /// A position stands for the second time: its third occurrence would
    /// give a claim (Art. 9.2).
    NearThreefold,
    /// 45 moves by each player without a capture or a pawn move: five more
    /// give a claim (Art. 9.3).
    NearFifty,
    /// The game ended by the Laws: fivefold (9.6.1), 75 moves (9.6.2), dead
    /// position (5.2.2 / 9.6), checkmate (5.1.2), stalemate (5.2.1).
    GameOver,
    /// The Result written contradicts a final checkmate or stalemate (Art.
    /// 5.1, 5.2.1, 11).
    WrongResult,
    /// A loss on time scored for a side that could not mate (Art. 6.9).
    UnwinnableFlag,
    /// A loss on time scored as a draw although the other side could mate
    /// (Art. 6.9).
    DrawnFlag,
    /// The record contradicts its site's own rules.
    SiteRule,
}

/// One row of the table of event kinds.
#[derive(Debug, Clone, Copy)]
pub struct EventInfo {
    /// The name in the reports (`event`).
    pub name: &'static str,
    /// A few words for people.
    pub plain: &'static str,
}

const INFO: [EventInfo; 8] = [
    EventInfo {
        name: "claim_available",
        plain: "a draw can be claimed",
    },
    EventInfo {
        name: "near_threefold",
        plain: "a position stands for the second time",
    },
    EventInfo {
        name: "near_fifty",
        plain: "45 moves without a capture or pawn move",
    },
    EventInfo {
        name: "game_over",
        plain: "the game is over by the Laws",
    },
    EventInfo {
        name: "wrong_result",
        plain: "the result contradicts the final position",
    },
    EventInfo {
        name: "unwinnable_flag",
        plain: "a loss on time scored for a side that could not mate",
    },
    EventInfo {
        name: "drawn_flag",
        plain: "a loss on time scored as a draw though the other side could mate",
    },
    EventInfo {
        name: "site_rule",
        plain: "the record contradicts its site's rules",
    },
];

impl EventKind {
    /// Every kind, in the order events of one position are written.
    pub const ALL: [EventKind; 8] = [
        EventKind::ClaimAvailable,
        EventKind::NearThreefold,
        EventKind::NearFifty,
        EventKind::GameOver,
        EventKind::WrongResult,
        EventKind::UnwinnableFlag,
        EventKind::DrawnFlag,
        EventKind::SiteRule,
    ];

    /// Its row of the table.
    pub fn info(self) -> &'static EventInfo {
        &INFO[self as usize]
    }

    /// The name in the reports.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The event an audit finding of a game with a Result gives, if any:
    /// the kinds that judge the result (the rest are read from the game
    /// with its result left open, see [`crate::watch`]).
    pub fn of_result_finding(kind: Kind) -> Option<EventKind> {
        match kind {
            Kind::WrongResult => Some(EventKind::WrongResult),
            Kind::UnwinnableFlag => Some(EventKind::UnwinnableFlag),
            Kind::DrawnFlag => Some(EventKind::DrawnFlag),
            Kind::SiteRule => Some(EventKind::SiteRule),
            _ => None,
        }
    }
}

impl Serialize for EventKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// The clocks as the last `[%clk]` comment of each side's moves gave them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Clocks {
    /// White's time left, as written (`1:23:45`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub white: Option<String>,
    /// Black's time left, as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub black: Option<String>,
}

impl Clocks {
    /// No clock was read.
    pub fn is_empty(&self) -> bool {
        self.white.is_none() && self.black.is_none()
    }
}

/// One event of one game, as the JSON Lines write it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Event {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// What happened.
    pub event: EventKind,
    /// The game's identity across versions and files
    /// ([`super::GameKey`]).
    pub game: String,
    /// The file (or `-`) of the version that showed it.
    pub source: String,
    /// The game's `White` tag.
    pub white: String,
    /// The game's `Black` tag.
    pub black: String,
    /// The game's `Event` tag.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tournament: Option<String>,
    /// The game's `Round` tag.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round: Option<String>,
    /// The game's `Board` tag.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<String>,
    /// The position P*ply* the event is about (0: the start position).
    pub ply: u32,
    /// Its move number.
    pub move_number: u32,
    /// The side to move there.
    pub side: &'static str,
    /// The move that made the position, as people write it (`23... Kf7`);
    /// none at the start position.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub last_move: Option<String>,
    /// The move the event is about, in SAN: the move that announces a
    /// claim under 9.2a / 9.3a.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub san: Option<String>,
    /// The position in FEN.
    pub fen: String,
    /// When the watch first saw it (UTC, RFC 3339, milliseconds).
    pub seen: String,
    /// The clocks there, from `[%clk]` comments.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<Clocks>,
    /// The article of the Laws (or the site's rule) it rests on.
    pub article: String,
    /// Which claim, ending or finding: `threefold`, `fifty_moves`
    /// (claim_available); `fivefold`, `seventyfive_moves`,
    /// `dead_position`, `checkmate`, `stalemate` (game_over); the
    /// site's rule (site_rule).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub what: Option<String>,
    /// How a claim is made: `occurred` (b), `announced` (a).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<&'static str>,
    /// The side that can bring the position about a third time
    /// (near_threefold).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeat_side: Option<&'static str>,
    /// The half-move clock: moves by either side since the last capture or
    /// pawn move (near_fifty).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub halfmoves: Option<u32>,
    /// The first move that counts toward the 50 moves, as people write it
    /// (near_fifty; none when the count began before the game's start
    /// position).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counting_from: Option<String>,
    /// The result: the Laws' (game_over), the one written (the result
    /// kinds).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// Why, in the audit's words (the result kinds).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl Event {
    /// A line for people: when, which game, where, what.
    pub fn human(&self) -> String {
        let time = self.seen.get(11..19).unwrap_or(&self.seen);
        let mut line = format!("{time} {}", self.label());
        match &self.last_move {
            Some(m) => line.push_str(&format!(" after {m} (ply {})", self.ply)),
            None => line.push_str(" at the start (ply 0)"),
        }
        line.push_str(&format!(": {} ", self.event.name()));
        let what = self.what.as_deref().unwrap_or("");
        line.push_str(&match self.event {
            EventKind::ClaimAvailable => {
                let how = match (self.via, &self.san) {
                    (Some("announced"), Some(san)) => format!(" by announcing {san}"),
                    _ => " now".to_string(),
                };
                format!(
                    "{} may claim a draw by {what} (Art. {}){how}",
                    self.side, self.article
                )
            }
            EventKind::NearThreefold => format!(
                "position stands for the second time; {} can repeat it (Art. 9.2)",
                self.repeat_side.unwrap_or("?")
            ),
            EventKind::NearFifty => format!(
                "{} half-moves without capture or pawn move{} (Art. 9.3)",
                self.halfmoves.unwrap_or(0),
                self.counting_from
                    .as_deref()
                    .map(|m| format!(" since {m}"))
                    .unwrap_or_default()
            ),
            EventKind::GameOver => format!(
                "{what}, {} (Art. {})",
                self.result.as_deref().unwrap_or("?"),
                self.article
            ),
            _ => format!(
                "{}{} (Art. {}; Result {})",
                self.event.info().plain,
                self.reason
                    .as_deref()
                    .map(|r| format!(": {r}"))
                    .unwrap_or_default(),
                self.article,
                self.result.as_deref().unwrap_or("?")
            ),
        });
        if let Some(c) = &self.clock {
            line.push_str(&format!(
                " [clock W {} B {}]",
                c.white.as_deref().unwrap_or("-"),
                c.black.as_deref().unwrap_or("-")
            ));
        }
        line
    }

    /// The game as people name it: its event and round, its players.
    pub fn label(&self) -> String {
        label(
            self.tournament.as_deref(),
            self.round.as_deref(),
            self.board.as_deref(),
            &self.white,
            &self.black,
        )
    }

    /// The event as one line of JSON, with its newline.
    pub fn json_line(&self) -> String {
        let mut line = Vec::new();
        self.write_json_line(&mut line);
        String::from_utf8(line).expect("JSON is UTF-8")
    }

    /// Appends [`Event::json_line`] to `out`, without a string of its own.
    pub fn write_json_line(&self, out: &mut Vec<u8>) {
        serde_json::to_writer(&mut *out, self).expect("an event serialises");
        out.push(b'\n');
    }
}

/// The game as people name it: `[Event r1.3] White - Black`.
pub(crate) fn label(
    tournament: Option<&str>,
    round: Option<&str>,
    board: Option<&str>,
    white: &str,
    black: &str,
) -> String {
    let mut head = Vec::new();
    if let Some(t) = tournament.filter(|t| !t.is_empty() && *t != "?") {
        head.push(t.to_string());
    }
    if let Some(r) = round.filter(|r| !r.is_empty() && *r != "?" && *r != "-") {
        head.push(format!("r{r}"));
    }
    if let Some(b) = board.filter(|b| !b.is_empty()) {
        head.push(format!("board {b}"));
    }
    let players = format!("{white} - {black}");
    if head.is_empty() {
        players
    } else {
        format!("[{}] {players}", head.join(" "))
    }
}

/// `t` in UTC as RFC 3339 with milliseconds: `2023-11-14T22:13:20.456Z`.
pub fn rfc3339(t: SystemTime) -> String {
    let d = t.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = d.as_secs();
    // the second's text made once: a batch of reads falls in one second
    thread_local! {
        static SECOND: std::cell::RefCell<Option<(u64, String)>> = const { std::cell::RefCell::new(None) };
    }
    let mut out = String::with_capacity(24);
    SECOND.with_borrow_mut(|last| {
        if last.as_ref().is_none_or(|(s, _)| *s != secs) {
            *last = Some((secs, second_text(secs)));
        }
        if let Some((_, text)) = last {
            out.push_str(text);
        }
    });
    let ms = d.subsec_millis();
    out.push('.');
    for digit in [ms / 100, ms / 10 % 10, ms % 10] {
        out.push(char::from(b'0' + digit as u8));
    }
    out.push('Z');
    out
}

/// `YYYY-MM-DDTHH:MM:SS` of `secs` since the epoch.
fn second_text(secs: u64) -> String {
    let (days, rest) = ((secs / 86_400) as i64, secs % 86_400);
    // civil from days (H. Hinnant's algorithm), the proleptic Gregorian calendar
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}",
        rest / 3600,
        rest / 60 % 60,
        rest % 60,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn rfc3339_writes_utc_dates() {
        let at = |s| rfc3339(UNIX_EPOCH + Duration::from_millis(s));
        assert_eq!(at(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(at(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(at(1_700_000_000_456), "2023-11-14T22:13:20.456Z");
        // the second's text is kept: the same second, then the next
        assert_eq!(at(1_700_000_000_007), "2023-11-14T22:13:20.007Z");
        assert_eq!(at(1_700_000_001_090), "2023-11-14T22:13:21.090Z");
        assert_eq!(at(1_700_000_000_999), "2023-11-14T22:13:20.999Z");
    }

    #[test]
    fn the_table_follows_the_enum() {
        for (i, k) in EventKind::ALL.iter().enumerate() {
            assert_eq!(*k as usize, i);
        }
    }
}
