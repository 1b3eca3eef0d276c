//! The work of one thread: the games of a chunk, split and audited.

use std::cell::Cell;

use crate::audit::{Auditor, GameReport, TagSet};
use crate::laws::Laws;
use crate::parse::MovetextReader;
use crate::rules::dead::DeadMode;
use crate::rules::site::SiteMode;
use crate::split::{EndState, Splitter};

/// What every worker needs to audit a game.
pub(super) struct Settings {
    pub(super) laws: Laws,
    pub(super) dead: DeadMode,
    pub(super) tags: TagSet,
    pub(super) facets: bool,
    pub(super) site: SiteMode,
}

/// Games of one chunk, audited on the guess that the chunk starts a game.
/// Each report's `line` counts the newlines from `start` to the game.
pub(super) struct Piece {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) reports: Vec<GameReport>,
    pub(super) end_state: EndState,
    /// Newlines in `start..end`.
    pub(super) newlines: u64,
}

/// Splits and audits the games of `buf[start..end]`.
pub(super) fn audit_piece(buf: &[u8], start: usize, end: usize, settings: &Settings) -> Piece {
    let mut auditor = Auditor::with_effort(settings.dead)
        .with_tags(settings.tags.clone())
        .with_facets(settings.facets)
        .with_sites(settings.site);
    let laws = &settings.laws;
    let next = Cell::new(&[][..]);
    let mut movetext = MovetextReader::new(&next);
    let bytes = &buf[start..end];
    let mut splitter = Splitter::new(bytes);
    let mut reports = Vec::new();
    while let Some(game) = splitter.next() {
        let mut report = auditor.audit_with(&game, *laws, &mut movetext);
        report.line = game.line;
        report.offset += start as u64;
        reports.push(report);
        splitter.recycle(game);
    }
    let end_state = splitter.end_state().cloned().unwrap_or_default();
    Piece {
        start,
        end,
        reports,
        end_state,
        newlines: splitter.newlines(),
    }
}

/// The newlines in `bytes`.
pub(super) fn newlines(bytes: &[u8]) -> u64 {
    memchr::memchr_iter(b'\n', bytes).count() as u64
}
