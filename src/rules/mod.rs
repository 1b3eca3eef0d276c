//! The Laws, one file per article family. Each takes positions and moves
//! from [`crate::audit`], which replays the game, and decides one thing.

pub mod dead;
pub mod fifty;
pub mod mobility;
pub mod repetition;
pub mod result;
pub mod stalemate;
pub mod unwinnable;
