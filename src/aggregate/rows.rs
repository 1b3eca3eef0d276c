//! The rows of the aggregate that a person reads: a finding given as an
//! example, and a result the Laws decide otherwise than the tag.

use serde::{Deserialize, Serialize};

/// A finding as a person finds it (see [`crate::example::Example`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExampleRow {
    /// The input, as named.
    pub file: String,
    /// 1-based game number in its input.
    pub game: u64,
    /// 1-based line of the game's first byte.
    pub line: u64,
    /// "White - Black, date".
    pub players: String,
    /// The move as people write it, or the move number and side to move.
    pub place: String,
    /// What happened.
    pub what: String,
    /// The game on its site (Lichess at the ply), where `Site` is a URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
}

/// A result the Laws decide otherwise than the tag, proven
/// ([`crate::rules::result::decided_result`]), with what an arbiter needs
/// to find the game and act on it: its file and number, round, date and
/// link. Sorted by file and game (the fields' order), so a list reads in
/// input order. The fields after `kind` are absent from aggregates
/// written before them (empty when read).
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Correction {
    /// The input, as named.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub file: String,
    /// 1-based game number in its input (0: not known).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub game: u64,
    /// The game's fingerprint.
    pub game_id: String,
    /// The `White` tag.
    pub white: String,
    /// The `Black` tag.
    pub black: String,
    /// The result as recorded.
    pub recorded: String,
    /// The result as the Laws give it.
    pub laws: String,
    /// The finding that decides it.
    pub kind: String,
    /// The articles of the deciding finding, in the game's edition.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub article: String,
    /// The `Round` tag.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub round: String,
    /// The `Date` tag (else `UTCDate`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub date: String,
    /// The game on its site, where `Site` is a URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}
