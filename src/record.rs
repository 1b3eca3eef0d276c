//! One finding as every format writes it: the names of its fields, the
//! schema version, and the fields only some kinds carry, read once from
//! the finding's [`Detail`]. JSON Lines and Arrow/Parquet write these;
//! `diff` reads them back by the same names ([`FIELDS`]).

use crate::finding::{side_name, Detail};

/// The version of the line format (`schema_version`), described by
/// `docs/findings.schema.json`. It changes when a field is removed or its
/// meaning changes; new fields may appear within a version.
pub const SCHEMA_VERSION: u32 = 1;

/// The names of the fields of a line: a tag of the same name is left out.
pub const FIELDS: [&str; 28] = [
    "file",
    "game",
    "game_id",
    "content_id",
    "offset",
    "line",
    "kind",
    "article",
    "ply",
    "move_number",
    "side",
    "san",
    "fen",
    "occurrences",
    "outcome",
    "via",
    "move",
    "reason",
    "proof",
    "winner",
    "mate",
    "site",
    "rule",
    "edition",
    "schema_version",
    "tags",
    "url",
    "index",
];

/// The fields only some kinds carry, borrowed from a finding's [`Detail`]
/// (`None`: the finding has no such field).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct DetailFields<'a> {
    /// Missed claims: what the claimant got.
    pub outcome: Option<&'static str>,
    /// Missed claims: occurred (b) or announced (a).
    pub via: Option<&'static str>,
    /// Invalid games: the bad move as written; `Some(None)` (written as
    /// `null`) for an illegal FEN.
    pub mv: Option<Option<&'a str>>,
    /// Invalid games and wrong results: why.
    pub reason: Option<&'a str>,
    /// Dead positions and unwinnable flags: how it was proven.
    pub proof: Option<&'static str>,
    /// Unwinnable and drawn flags: the side the result gave, or the Laws
    /// give, the point to.
    pub winner: Option<&'static str>,
    /// Drawn flags: the mating line.
    pub mate: Option<&'a str>,
    /// Site rules: the site whose rules judged the game.
    pub site: Option<&'static str>,
    /// Site rules: the rule the record contradicts.
    pub rule: Option<&'static str>,
}

impl<'a> DetailFields<'a> {
    /// The fields of `detail`.
    pub fn of(detail: &'a Detail) -> DetailFields<'a> {
        let none = DetailFields::default();
        match detail {
            Detail::None => none,
            Detail::Missed { outcome, via } => DetailFields {
                outcome: Some(outcome.name()),
                via: Some(via.name()),
                ..none
            },
            Detail::Invalid { mv, reason } => DetailFields {
                mv: Some(mv.as_deref()),
                reason: Some(reason),
                ..none
            },
            Detail::Dead { proof } => DetailFields {
                proof: Some(proof.as_str()),
                ..none
            },
            Detail::Unwinnable { winner, proof } => DetailFields {
                winner: Some(side_name(*winner)),
                proof: Some(proof.as_str()),
                ..none
            },
            Detail::DrawnFlag { winner, mate } => DetailFields {
                winner: Some(side_name(*winner)),
                mate: Some(mate),
                ..none
            },
            Detail::SiteRule { site, rule } => DetailFields {
                site: Some(site.name()),
                rule: Some(rule.name()),
                ..none
            },
            Detail::WrongResult { reason } => DetailFields {
                reason: Some(reason),
                ..none
            },
        }
    }
}
