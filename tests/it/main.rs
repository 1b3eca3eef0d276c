//! The integration tests, built as one binary (the layout of ripgrep's
//! `tests/`): one module per area, the helpers they share in [`util`].
//! `cargo test --test it MODULE::` runs one area.

mod util;

mod bundled;
mod ci_formats;
mod ci_wiring;
mod cli;
mod corpus;
mod diff;
mod docs;
mod duplicates;
mod duplicates_identity;
mod export;
mod fide_online;
mod gate;
mod golden;
mod hostile;
mod html_report;
mod movetext;
mod on_time;
mod outputs;
#[cfg(feature = "parquet")]
mod parquet;
#[cfg(feature = "parquet")]
mod parquet_input;
mod parts;
mod points;
mod python_package;
mod report;
mod robustness;
mod rules;
mod san;
mod site_rules;
mod unwinnable;
mod watch;
mod words;
mod zstd_frames;
