//! Printers: findings as JSON Lines, the run's counts as one JSON object,
//! and a summary for people; with the `arrow` / `parquet` features, findings
//! as Arrow batches and a Parquet file.

#[cfg(feature = "arrow")]
pub mod arrow;
pub mod examples;
pub mod github;
pub mod gitlab;
pub mod html;
pub mod human;
pub mod jsonl;
pub mod junit;
#[cfg(feature = "parquet")]
pub mod parquet;
pub mod pgn_export;
pub mod sarif;
pub mod summary;
