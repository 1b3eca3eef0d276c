//! Printers: findings as JSON Lines, the run's counts as one JSON object,
//! and a summary for people.

pub mod examples;
pub mod human;
pub mod jsonl;
pub mod summary;
