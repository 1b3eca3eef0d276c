//! Printers: findings as JSON Lines, the run's counts as one JSON object,
//! and a summary for people.

pub mod examples;
pub mod github;
pub mod html;
pub mod human;
pub mod jsonl;
pub mod junit;
pub mod pgn_export;
pub mod sarif;
pub mod summary;
