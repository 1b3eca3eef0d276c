//! What a game's record says about how it ended, in the words of the site
//! that wrote it: the ruling it names, and SPEC's one definition of a loss
//! on time, which `unwinnable_flag`, `drawn_flag` (Art. 6.9) and every
//! site's `timeout` rule read.

use shakmaty::{Chess, Color, Position};

use super::book::{Place, Rulebook, Test, Timeout};
use super::{book, Ruling, Site, SiteMode};
use crate::laws::Day;
use crate::parse::trim;
use crate::rules::result;
use crate::split::RawGame;

/// The ruling a record names, and the side it names as flagging (FICS's
/// `White ran out of time ...`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Named {
    /// The ruling, by the site's words.
    pub ruling: Ruling,
    /// The side the record names as having run out of time.
    pub flagged: Option<Color>,
}

/// A game's record as its writer's words read.
#[derive(Debug, Clone, Copy, Default)]
pub struct Record {
    /// The ruling named where the writer names it (`None`: no such text,
    /// or no known writer).
    pub named: Option<Named>,
    /// SPEC "Lost on time": the `Termination` tag's words, or the writer's
    /// own words for a loss on time where it writes them.
    on_time: bool,
    /// The writer's timeout rule, where its words for a loss on time also
    /// end a game drawn on a claim (Lichess): a drawn record is a loss on
    /// time only where that rule gives the side with time left no win.
    claim_alike: Option<Timeout>,
}

/// The site that wrote `game`'s record, whose words say how it ended: the
/// site `--site` names, or else the one the `Site` tag names. Under
/// `--site none` and `--site fide-online` the tag still says who wrote the
/// record (a rulebook is not a writer), so the Laws' findings read the
/// same words whichever rulebook judges.
pub fn writer(mode: SiteMode, game: &RawGame<'_>) -> Option<Site> {
    match mode {
        SiteMode::Fixed(site) if book(site).place.is_some() => Some(site),
        _ => game.tag("Site").and_then(Site::of_tag),
    }
}

impl Record {
    /// `game`'s record, written by `writer`, played on `day` (the writer's
    /// timeout rule of that day).
    pub fn read(writer: Option<Site>, game: &RawGame<'_>, day: Option<Day>) -> Record {
        let termination = result::lost_on_time(game.tag("Termination"));
        let Some(book) = writer.map(book) else {
            return Record {
                on_time: termination,
                ..Record::default()
            };
        };
        let named = ruling_text(book, game).map(|t| named(book, t));
        let claim_alike = if book.claim_alike {
            timeout_of(book, day)
        } else {
            None
        };
        Record {
            named,
            on_time: termination || named.is_some_and(|n| n.ruling == Ruling::OnTime),
            claim_alike,
        }
    }

    /// SPEC "Lost on time": the side that ran out of time when the game
    /// was lost on time, judged at its final position `pos` with `result`:
    /// the side the record names, else the loser by the result, else (a
    /// draw, or unknown) the side to move. `None`: not lost on time.
    pub fn flagged(&self, pos: &Chess, result: &[u8]) -> Option<Color> {
        if !self.on_time {
            return None;
        }
        let flagged = match (self.named.and_then(|n| n.flagged), result::winner(result)) {
            (Some(named), _) => named,
            (None, Some(winner)) => !winner,
            (None, None) => pos.turn(),
        };
        // Lichess writes `Time forfeit` for a draw claimed after the
        // opponent left too: with material that would have won on a flag
        // by its own rule, no flag fell.
        if result == b"1/2-1/2" {
            if let Some(timeout) = self.claim_alike {
                if !timeout.draws(pos.board(), !flagged) {
                    return None;
                }
            }
        }
        Some(flagged)
    }
}

/// The timeout rule of `book` for a game of `day` (the latest row that
/// applies, as for every rule of a rulebook).
fn timeout_of(book: &Rulebook, day: Option<Day>) -> Option<Timeout> {
    book.rows
        .iter()
        .rev()
        .filter(|row| row.applies_on(day))
        .find_map(|row| match row.test {
            Test::Timeout(t) => Some(t),
            _ => None,
        })
}

/// The text where `book`'s site names its ruling.
fn ruling_text<'a>(book: &Rulebook, game: &RawGame<'a>) -> Option<&'a [u8]> {
    match book.place? {
        Place::Termination => game.tag("Termination"),
        Place::LastComment => last_comment(game.movetext),
    }
}

/// The comment just before the result token that ends `movetext` (or
/// ending it), without its braces.
fn last_comment(movetext: &[u8]) -> Option<&[u8]> {
    let close = memchr::memrchr(b'}', movetext)?;
    // Nothing after it but blanks and at most the result token.
    let after = trim(&movetext[close + 1..]);
    if !after.is_empty() && !is_result(after) {
        return None;
    }
    let open = memchr::memrchr(b'{', &movetext[..close])?;
    Some(&movetext[open + 1..close])
}

fn is_result(t: &[u8]) -> bool {
    matches!(t, b"1-0" | b"0-1" | b"1/2-1/2" | b"*")
}

/// What the record names, by the site's words. Only a site whose words
/// for a loss on time start with the flagging colour (FICS) names a side:
/// chess.com's `X won on time` starts with a player's name, which may be
/// `White`.
fn named(book: &Rulebook, text: &[u8]) -> Named {
    let ruling = book
        .words
        .iter()
        .find(|(w, _)| contains_ignoring_case(text, w.as_bytes()))
        .map_or(Ruling::Other, |&(_, r)| r);
    let text = trim(text);
    let flagged = match ruling {
        Ruling::OnTime if !book.names_flagging_side => None,
        Ruling::OnTime if starts_with_word(text, b"white") => Some(Color::White),
        Ruling::OnTime if starts_with_word(text, b"black") => Some(Color::Black),
        _ => None,
    };
    Named { ruling, flagged }
}

/// Whether `text` holds `word` (lowercase ASCII) in any case. The texts
/// are a few words long: a plain scan costs less than building a searcher.
fn contains_ignoring_case(text: &[u8], word: &[u8]) -> bool {
    text.len() >= word.len()
        && (0..=text.len() - word.len()).any(|i| {
            text[i].to_ascii_lowercase() == word[0]
                && text[i..i + word.len()].eq_ignore_ascii_case(word)
        })
}

/// Whether `text` starts with `word` (lowercase ASCII), in any case, then
/// a blank or its end.
fn starts_with_word(text: &[u8], word: &[u8]) -> bool {
    text.get(..word.len())
        .is_some_and(|w| w.eq_ignore_ascii_case(word))
        && text.get(word.len()).is_none_or(u8::is_ascii_whitespace)
}
