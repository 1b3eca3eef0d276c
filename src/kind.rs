//! The kinds of finding as data (SPEC "What is checked in each game").
//!
//! One row per kind says its name, its articles in each edition of the
//! Laws, how serious it is, whether it is an automatic draw, and what it
//! means in words. The printers, the gate, `diff` and Python read this
//! table instead of matching on kinds, so adding a kind is one variant,
//! one row (the compiler asks for it in [`Kind::info`]) and its rule file.

use std::fmt;
use std::ops::{AddAssign, Index, IndexMut};

use serde::de::{Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};

use crate::laws::{ByEdition, Edition};

/// The kinds of finding, in the order findings of one ply are listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// Art. 3, 4: a mainline move is not legal or cannot be read, or the
    /// FEN is illegal; analysis of the game stops there.
    InvalidGame,
    /// Art. 9.2: the side to move could have claimed a draw by threefold
    /// repetition, and the claim was missed.
    MissedThreefold,
    /// Art. 9.3: the side to move could have claimed a draw under the
    /// fifty-move rule, and the claim was missed.
    MissedFiftyMoves,
    /// Art. 9.6.1 (2014+): a position occurred five times, which ends the
    /// game drawn, yet moves followed or the result is not a draw.
    Fivefold,
    /// Art. 9.6.2 (2014+): 75 moves by each player without a capture or
    /// pawn move, not ending in checkmate, which ends the game drawn, yet
    /// moves followed or the result is not a draw.
    SeventyfiveMoves,
    /// Art. 5.2.2 (9.6 in 2001): no sequence of legal moves can checkmate
    /// either king, which ends the game drawn, yet moves followed or the
    /// result is not a draw.
    DeadPosition,
    /// Art. 6.9: the game was lost on time, but the winner could not
    /// checkmate by any series of legal moves, so it is a draw.
    UnwinnableFlag,
    /// Art. 6.9: the game was lost on time and scored ½-½, yet the side
    /// with time left could checkmate (a mating line proves it), so the
    /// Laws give it the point.
    DrawnFlag,
    /// Art. 5.1, 5.2.1, 11: the final position is checkmate and the result
    /// does not give the point to the mating side, or stalemate and the
    /// result is not a draw.
    WrongResult,
    /// SPEC "Site rules": the record contradicts the rules of the site the
    /// game was played on (not the Laws): a draw the site makes by itself
    /// and the game went on past, a loss on time its rule draws scored as
    /// a win, or a ruling named that the game does not support.
    SiteRule,
}

/// How serious a finding is for a pipeline: the one scale JUnit, SARIF,
/// GitHub annotations, GitLab and the gate's `error` / `warning` / `note`
/// conditions read (docs/CI.md, "Severities"). Each kind's row of the
/// table gives its usual severity ([`KindInfo::severity`]);
/// [`Kind::severity_for`] raises an automatic draw scored as a win to an
/// error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The game or its recorded result contradicts the Laws: a JUnit
    /// failure, a SARIF and GitHub error.
    Error,
    /// The record is doubtful (play after an automatic draw, a result a
    /// site's rule gives): a JUnit failure, a SARIF and GitHub warning.
    Warning,
    /// Nothing is wrong with the data (a claim the player chose not to
    /// make): a passing JUnit test case that lists the games, a SARIF note,
    /// a GitHub notice.
    Note,
}

impl Severity {
    /// Every severity, the most serious first.
    pub const ALL: [Severity; 3] = [Severity::Error, Severity::Warning, Severity::Note];

    /// Its name, as SARIF's `level`, the summary JSON and `--fail-on`
    /// write it.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }

    /// The severity a name names.
    pub fn from_name(name: &str) -> Option<Severity> {
        Severity::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// What a kind of finding says about a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// The game is not legal chess.
    Invalid,
    /// A draw a player could have claimed (Art. 9.2, 9.3): the findings
    /// carry an outcome and a via.
    MissedClaim,
    /// The game ended drawn by itself (Art. 9.6, 5.2.2): wrong when moves
    /// followed or the result is decisive.
    AutomaticDraw,
    /// The recorded result contradicts the Laws.
    Result,
    /// The record contradicts its site's own rules, not the Laws.
    Site,
}

/// One row of the table: everything the reports say about a kind.
#[derive(Debug, Clone, Copy)]
pub struct KindInfo {
    /// The SPEC's name (`kind` in the reports).
    pub name: &'static str,
    /// The articles it implements, per edition, as SPEC writes them
    /// (`", "`-separated).
    pub articles: ByEdition<&'static str>,
    /// What it says about the game.
    pub family: Family,
    /// How serious it is in its usual case; an automatic draw is an error
    /// where the result is decisive ([`Kind::severity_for`]).
    pub severity: Severity,
    /// Proven by the unwinnability engine: its findings carry a `proof`
    /// and the summary counts them by proof.
    pub proven: bool,
    /// Asked of the engine, which may leave it open within its budget: the
    /// summary counts the games it left undecided (`unknown`).
    pub undecided: bool,
    /// Its colour in the HTML report's charts (Okabe and Ito's palette,
    /// for colour-blind readers).
    pub colour: &'static str,
    /// The order in which kinds are shown when not all can be (0 first):
    /// games that are not chess, then results that contradict the board,
    /// then games that went on after they had ended, then missed claims.
    pub importance: u8,
    /// A title (SARIF's short description).
    pub title: &'static str,
    /// What a finding means, in full, without the article.
    pub meaning: &'static str,
    /// What to do about it.
    pub advice: &'static str,
    /// A few words for the HTML report's tables (may hold HTML).
    pub brief: &'static str,
    /// The findings in the plural, for people: "dead positions".
    pub plural: &'static str,
    /// What a finding of this kind with no more detail says, for people
    /// (the first examples of the summaries); for a missed claim, the draw
    /// that could have been claimed.
    pub plain: &'static str,
}

const MISSED_ADVICE: &str =
    "Nothing is wrong with the data: the player chose not to claim. Useful for statistics and for arbiters.";
const DRAW_ADVICE: &str =
    "If the result is 1-0 or 0-1 it contradicts the Laws: check the game's end and its Result tag.";

/// The same articles in every edition.
const fn every(article: &'static str) -> ByEdition<&'static str> {
    ByEdition([article; 3])
}

const INFO: [KindInfo; Kind::COUNT] = [
    KindInfo {
        name: "invalid_game",
        articles: every("3, 4"),
        family: Family::Invalid,
        severity: Severity::Error,
        proven: false,
        undecided: false,
        colour: "#000000",
        importance: 0,
        title: "The game is not legal chess",
        meaning: "A move of the game is illegal or cannot be read, or its start position (FEN) is not a legal position, so the game cannot be replayed.",
        advice: "Compare the move named with the score sheet or the source of the game; fix or remove the game.",
        brief: "an illegal or unreadable move, or an illegal FEN",
        plural: "invalid games",
        plain: "invalid_game",
    },
    KindInfo {
        name: "missed_threefold",
        articles: every("9.2"),
        family: Family::MissedClaim,
        severity: Severity::Note,
        proven: false,
        undecided: false,
        colour: "#0072b2",
        importance: 7,
        title: "A draw by threefold repetition could have been claimed",
        meaning: "The same position occurred, or was about to occur after a move the player could announce, for at least the third time, and the player to move could have claimed a draw; the game went on.",
        advice: MISSED_ADVICE,
        brief: "a draw by threefold repetition not claimed",
        plural: "missed threefold claims",
        plain: "a draw by threefold repetition (9.2)",
    },
    KindInfo {
        name: "missed_fifty_moves",
        articles: every("9.3"),
        family: Family::MissedClaim,
        severity: Severity::Note,
        proven: false,
        undecided: false,
        colour: "#e69f00",
        importance: 8,
        title: "A draw by the 50-move rule could have been claimed",
        meaning: "The last 50 moves by each player, or those completed by a move the player could announce, had no pawn move and no capture, and the player to move could have claimed a draw; the game went on.",
        advice: MISSED_ADVICE,
        brief: "a draw under the fifty-move rule not claimed",
        plural: "missed fifty-move claims",
        plain: "a draw by the 50-move rule (9.3)",
    },
    KindInfo {
        name: "fivefold",
        articles: every("9.6.1"),
        family: Family::AutomaticDraw,
        severity: Severity::Warning,
        proven: false,
        undecided: false,
        colour: "#009e73",
        importance: 4,
        title: "The game was drawn by fivefold repetition",
        meaning: "The same position occurred five times: the game ended there, drawn (Laws from 1 July 2014 on), yet moves were played after it or the result is not a draw.",
        advice: DRAW_ADVICE,
        brief: "fivefold repetition: drawn, yet play went on or not <span class=\"nw\">½-½</span>",
        plural: "fivefold repetitions",
        plain: "the position occurred a fifth time: the game was drawn here (9.6.1)",
    },
    KindInfo {
        name: "seventyfive_moves",
        articles: every("9.6.2"),
        family: Family::AutomaticDraw,
        severity: Severity::Warning,
        proven: false,
        undecided: false,
        colour: "#cc79a7",
        importance: 5,
        title: "The game was drawn by the 75-move rule",
        meaning: "75 moves by each player were made without a pawn move or a capture: the game ended there, drawn (Laws from 1 July 2014 on), yet moves were played after it or the result is not a draw.",
        advice: DRAW_ADVICE,
        brief: "75 moves each: drawn, yet play went on or not <span class=\"nw\">½-½</span>",
        plural: "75-move draws",
        plain: "75 moves each without pawn move or capture: the game was drawn here (9.6.2)",
    },
    KindInfo {
        name: "dead_position",
        // Art. 9.6 of the 2001 Laws became 5.2.2 in 2014.
        articles: ByEdition(["9.6", "5.2.2", "5.2.2"]),
        family: Family::AutomaticDraw,
        severity: Severity::Warning,
        proven: true,
        undecided: true,
        colour: "#56b4e9",
        importance: 6,
        title: "The game was drawn: no checkmate was possible any more",
        meaning: "A position arose from which neither player could checkmate by any series of legal moves (a dead position): the game ended there, drawn, yet moves were played after it or the result is not a draw.",
        advice: DRAW_ADVICE,
        brief: "dead position: drawn, yet play went on or not <span class=\"nw\">½-½</span>",
        plural: "dead positions",
        plain: "dead_position",
    },
    KindInfo {
        name: "unwinnable_flag",
        articles: every("6.9"),
        family: Family::Result,
        severity: Severity::Error,
        proven: true,
        undecided: true,
        colour: "#d55e00",
        importance: 2,
        title: "A loss on time was scored although the winner could not have mated",
        meaning: "The game was lost on time, but the opponent could not have checkmated the player by any series of legal moves: the game is drawn.",
        advice: "Score the game 1/2-1/2.",
        brief: "lost on time to a side that could not mate: <span class=\"nw\">½-½</span>",
        plural: "unwinnable flags",
        plain: "unwinnable_flag",
    },
    KindInfo {
        name: "drawn_flag",
        articles: every("6.9"),
        family: Family::Result,
        severity: Severity::Warning,
        proven: false,
        undecided: true,
        colour: "#882255",
        importance: 3,
        title: "A loss on time was scored as a draw although the side with time left could mate",
        meaning: "The game was lost on time and scored 1/2-1/2, but the side with time left could have checkmated by some series of legal moves (a mating line shows it): under the Laws it wins.",
        advice: "The Laws give the point to the side with time left; a site's own timeout rule often gives the draw. Check which rules the game was played under.",
        brief: "lost on time, scored <span class=\"nw\">½-½</span>, yet the other side could mate",
        plural: "drawn flags",
        plain: "drawn_flag",
    },
    KindInfo {
        name: "wrong_result",
        articles: every("5.1, 5.2.1, 11"),
        family: Family::Result,
        severity: Severity::Error,
        proven: false,
        undecided: false,
        colour: "#b8a800",
        importance: 1,
        title: "The Result tag contradicts the final position",
        meaning: "The game ends in checkmate and the Result tag does not give the point to the mating side, or in stalemate and the result is not a draw.",
        advice: "Correct the Result tag, or check whether moves are missing from the game.",
        brief: "final checkmate or stalemate and the result disagrees",
        plural: "wrong results",
        plain: "wrong_result",
    },
    KindInfo {
        name: "site_rule",
        // Not an article of the Laws: the site's own rules.
        articles: every("site"),
        family: Family::Site,
        severity: Severity::Warning,
        proven: false,
        undecided: false,
        colour: "#332288",
        importance: 9,
        title: "The record contradicts the rules of the site the game was played on",
        meaning: "The game was played on a site with its own rules (Lichess, chess.com, FICS), and its record contradicts them: the site's own draw applied and the game went on or was not scored as a draw, a loss on time was scored as a win although the site's timeout rule draws it, or the record names a ruling the game does not support. The Laws' findings are separate.",
        advice: "The site erred, or the record was altered after the game: compare it with the site's own copy (the Site or Link tag).",
        brief: "the site's own rule broken (<code>rule</code>: material, fifty_moves, repetition, timeout, ruling)",
        plural: "site rules broken",
        plain: "site_rule",
    },
];

impl Kind {
    /// How many kinds there are.
    pub const COUNT: usize = 10;

    /// Every kind, in [`Kind::index`] order.
    pub const ALL: [Kind; Kind::COUNT] = [
        Kind::InvalidGame,
        Kind::MissedThreefold,
        Kind::MissedFiftyMoves,
        Kind::Fivefold,
        Kind::SeventyfiveMoves,
        Kind::DeadPosition,
        Kind::UnwinnableFlag,
        Kind::DrawnFlag,
        Kind::WrongResult,
        Kind::SiteRule,
    ];

    /// The kind's row of the table.
    pub fn info(self) -> &'static KindInfo {
        &INFO[self.index()]
    }

    /// The SPEC's name.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The kind a SPEC name names.
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The articles of the Laws it implements, in the given edition.
    pub fn article(self, edition: Edition) -> &'static str {
        self.info().articles[edition]
    }

    /// The articles of today's Laws and, where the 2001 Laws numbered them
    /// otherwise, those: `(today, Some(2001))`.
    pub fn articles_then_and_now(self) -> (&'static str, Option<&'static str>) {
        let now = self.article(Edition::Laws2018);
        let then = self.article(Edition::Laws2001);
        (now, (then != now).then_some(then))
    }

    /// The kind's place in [`Kind::ALL`], for tables counted by kind.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Whether it is a draw claim the player failed to make (Art. 9.2,
    /// 9.3): the kinds whose findings carry an outcome and a via.
    pub fn is_missed_claim(self) -> bool {
        self.info().family == Family::MissedClaim
    }

    /// Whether the game ended drawn by itself there (Art. 9.6, 5.2.2).
    pub fn is_automatic_draw(self) -> bool {
        self.info().family == Family::AutomaticDraw
    }

    /// The severity of a finding of this kind in a game with this result:
    /// an automatic draw scored as a win is an error.
    pub fn severity_for(self, result: Option<&str>) -> Severity {
        if self.is_automatic_draw() && matches!(result, Some("1-0" | "0-1")) {
            Severity::Error
        } else {
            self.info().severity
        }
    }

    /// The rule's name in CamelCase (`InvalidGame`), as SARIF names rules.
    pub fn camel_name(self) -> String {
        self.name()
            .split('_')
            .map(|w| {
                let mut c = w.chars();
                c.next()
                    .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                    .unwrap_or_default()
            })
            .collect()
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One value per kind, indexed by [`Kind`] (as shakmaty's `ByColor`).
/// Serialised as an object keyed by kind name, in [`Kind::ALL`] order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct ByKind<T>(pub [T; Kind::COUNT]);

impl<T> ByKind<T> {
    /// The value of each kind, by calling `f` on it.
    pub fn from_fn(mut f: impl FnMut(Kind) -> T) -> ByKind<T> {
        ByKind(Kind::ALL.map(&mut f))
    }

    /// Every kind with its value, in [`Kind::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (Kind, &T)> {
        Kind::ALL.into_iter().zip(self.0.iter())
    }
}

impl<T> Index<Kind> for ByKind<T> {
    type Output = T;
    fn index(&self, k: Kind) -> &T {
        &self.0[k.index()]
    }
}

impl<T> IndexMut<Kind> for ByKind<T> {
    fn index_mut(&mut self, k: Kind) -> &mut T {
        &mut self.0[k.index()]
    }
}

impl<T: AddAssign + Copy> AddAssign<&ByKind<T>> for ByKind<T> {
    fn add_assign(&mut self, other: &ByKind<T>) {
        for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
            *a += *b;
        }
    }
}

impl<T: Serialize> Serialize for ByKind<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(Kind::COUNT))?;
        for (k, v) in self.iter() {
            map.serialize_entry(k.name(), v)?;
        }
        map.end()
    }
}

impl<'de, T: Deserialize<'de> + Default> Deserialize<'de> for ByKind<T> {
    /// An object keyed by kind name; a kind left out is `T::default()`, a
    /// name that is no kind an error.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de> + Default> Visitor<'de> for V<T> {
            type Value = ByKind<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object keyed by kind name")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ByKind<T>, A::Error> {
                let mut out = ByKind::<T>::default();
                while let Some(name) = map.next_key::<String>()? {
                    let k = Kind::from_name(&name).ok_or_else(|| {
                        serde::de::Error::custom(format!("unknown kind {name:?}"))
                    })?;
                    out[k] = map.next_value()?;
                }
                Ok(out)
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_is_its_kind() {
        for k in Kind::ALL {
            assert_eq!(Kind::from_name(k.name()), Some(k));
            assert_eq!(Kind::ALL[k.index()], k);
        }
        let mut order: Vec<u8> = Kind::ALL.iter().map(|k| k.info().importance).collect();
        order.sort_unstable();
        assert_eq!(order, (0..Kind::COUNT as u8).collect::<Vec<_>>());
    }

    #[test]
    fn by_kind_round_trips_through_json() {
        let mut counts = ByKind::<u64>::default();
        counts[Kind::DeadPosition] = 3;
        let text = serde_json::to_string(&counts).unwrap();
        assert!(text.starts_with("{\"invalid_game\":0,"));
        let back: ByKind<u64> = serde_json::from_str(&text).unwrap();
        assert_eq!(back, counts);
        assert!(serde_json::from_str::<ByKind<u64>>("{\"no_such_kind\":1}").is_err());
    }

    #[test]
    fn camel_names() {
        assert_eq!(Kind::SeventyfiveMoves.camel_name(), "SeventyfiveMoves");
        assert_eq!(Kind::InvalidGame.camel_name(), "InvalidGame");
    }
}
