//! The first few findings of each kind, written for people
//! ([`Example`], which lives in [`crate::example`] and is re-exported here).

use std::io;

pub use crate::example::{describe, Example};
use crate::kind::{ByKind, Kind};
use crate::pipeline::{GameRecord, Sink};

/// Keeps the first `per_kind` findings of each kind.
pub struct Examples {
    per_kind: usize,
    /// The examples kept, by kind.
    pub found: ByKind<Vec<Example>>,
}

impl Examples {
    /// Keeps up to `per_kind` examples of each kind.
    pub fn new(per_kind: usize) -> Examples {
        Examples {
            per_kind,
            found: ByKind::default(),
        }
    }

    /// The examples of `kind`.
    pub fn of(&self, kind: Kind) -> &[Example] {
        &self.found[kind]
    }
}

impl Sink for Examples {
    fn game(&mut self, game: &GameRecord<'_>) -> io::Result<()> {
        for f in &game.report.findings {
            let list = &mut self.found[f.kind];
            if list.len() < self.per_kind {
                list.push(Example::new(game, f));
            }
        }
        Ok(())
    }
}
