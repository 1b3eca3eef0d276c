//! The sites with a rulebook and their rules' names (SPEC "Site rules"),
//! as the reports and `--site` write them. The rulebooks themselves, and
//! the judging, are in [`crate::rules::site`].

use std::fmt;
use std::str::FromStr;

use crate::split::RawGame;

/// A site with a rulebook.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Site {
    /// lichess.org.
    Lichess,
    /// chess.com (live games).
    Chesscom,
    /// The Free Internet Chess Server, freechess.org.
    Fics,
    /// FIDE's Online Chess Regulations (Handbook E.04): a rulebook, not a
    /// site, chosen only by `--site fide-online` (no tag says which
    /// regulations an event was played under).
    FideOnline,
}

impl Site {
    /// Every site, in report order.
    pub const ALL: [Site; 4] = [Site::Lichess, Site::Chesscom, Site::Fics, Site::FideOnline];

    /// The SPEC's name (`site` in the reports, `--site`'s value).
    pub fn name(self) -> &'static str {
        match self {
            Site::Lichess => "lichess",
            Site::Chesscom => "chesscom",
            Site::Fics => "fics",
            Site::FideOnline => "fide-online",
        }
    }

    /// The site as people write it.
    pub fn title(self) -> &'static str {
        match self {
            Site::Lichess => "Lichess",
            Site::Chesscom => "chess.com",
            Site::Fics => "FICS",
            Site::FideOnline => "FIDE online",
        }
    }

    /// The site a `Site` tag names (SPEC: it holds `lichess.org`,
    /// `chess.com` or `freechess.org`, in any case, e.g.
    /// `https://lichess.org/ENPo6ReH`, `Chess.com`, `FICS freechess.org`).
    pub fn of_tag(tag: &[u8]) -> Option<Site> {
        // Each name has one dot: look around the tag's dots only (a URL
        // has a few), in any case, the name standing alone as a domain
        // (`https://tcec-chess.com` is not chess.com).
        let part = |b: &u8| b.is_ascii_alphanumeric() || *b == b'-';
        let at = |dot: usize, needle: &str, before: usize| {
            let Some(start) = dot.checked_sub(before) else {
                return false;
            };
            let end = start + needle.len();
            tag.get(start..end)
                .is_some_and(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
                && !start.checked_sub(1).is_some_and(|i| part(&tag[i]))
                && !tag.get(end).is_some_and(part)
        };
        for dot in memchr::memchr_iter(b'.', tag) {
            if at(dot, "lichess.org", 7) {
                return Some(Site::Lichess);
            } else if at(dot, "freechess.org", 9) {
                return Some(Site::Fics);
            } else if at(dot, "chess.com", 5) {
                return Some(Site::Chesscom);
            }
        }
        None
    }

    /// The site a name names.
    pub fn from_name(name: &str) -> Option<Site> {
        Site::ALL.into_iter().find(|s| s.name() == name)
    }
}

impl fmt::Display for Site {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which site's rules judge a game (`--site`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SiteMode {
    /// By the game's `Site` tag ([`Site::of_tag`]).
    #[default]
    Auto,
    /// No site's rules: the Laws only.
    None,
    /// This site's rules for every game.
    Fixed(Site),
}

impl SiteMode {
    /// The site whose rules judge `game`.
    pub fn site_of(self, game: &RawGame<'_>) -> Option<Site> {
        match self {
            SiteMode::Auto => game.tag("Site").and_then(Site::of_tag),
            SiteMode::None => None,
            SiteMode::Fixed(site) => Some(site),
        }
    }
}

/// A `--site` value that names no site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownSite(pub String);

impl fmt::Display for UnknownSite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?}: expected 'auto', 'none', 'lichess', 'chesscom', 'fics' or 'fide-online'",
            self.0
        )
    }
}

impl std::error::Error for UnknownSite {}

impl FromStr for SiteMode {
    type Err = UnknownSite;

    /// `auto`, `none`, or a site's name.
    fn from_str(s: &str) -> Result<SiteMode, UnknownSite> {
        match s {
            "auto" => Ok(SiteMode::Auto),
            "none" => Ok(SiteMode::None),
            _ => Site::from_name(s)
                .map(SiteMode::Fixed)
                .ok_or_else(|| UnknownSite(s.to_string())),
        }
    }
}

/// A site's rule (`rule` in the reports).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// The site's draw by itself on material.
    Material,
    /// The site's draw by itself at 100 half-moves without a capture or a
    /// pawn move.
    FiftyMoves,
    /// The site's draw by itself on repetition.
    Repetition,
    /// A loss on time scored as a win although the site's timeout rule
    /// gives a draw.
    Timeout,
    /// The record names a ruling the game does not support.
    Ruling,
    /// The rulebook's draw by itself in a dead position (FIDE's online
    /// regulations, Art. 5.4), proven as for the Laws' 9.6.
    DeadPosition,
}

impl Rule {
    /// Every rule, in report order.
    pub const ALL: [Rule; 6] = [
        Rule::Material,
        Rule::FiftyMoves,
        Rule::Repetition,
        Rule::Timeout,
        Rule::Ruling,
        Rule::DeadPosition,
    ];

    /// The SPEC's name.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Material => "material",
            Rule::FiftyMoves => "fifty_moves",
            Rule::Repetition => "repetition",
            Rule::Timeout => "timeout",
            Rule::Ruling => "ruling",
            Rule::DeadPosition => "dead_position",
        }
    }

    /// The rule a name names.
    pub fn from_name(name: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::Site;

    #[test]
    fn sites_by_their_tags() {
        for (tag, site) in [
            ("https://lichess.org/ENPo6ReH", Some(Site::Lichess)),
            ("lichess.org", Some(Site::Lichess)),
            ("Chess.com", Some(Site::Chesscom)),
            ("Chess.com INT", Some(Site::Chesscom)),
            ("https://www.chess.com/game/live/1", Some(Site::Chesscom)),
            ("FICS freechess.org", Some(Site::Fics)),
            ("https://tcec-chess.com", None),
            ("freechess.organic", None),
            ("Wijk aan Zee NED", None),
            ("", None),
        ] {
            assert_eq!(Site::of_tag(tag.as_bytes()), site, "{tag}");
        }
    }
}
