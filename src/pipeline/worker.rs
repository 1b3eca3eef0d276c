//! The work of one thread: the games of a chunk, split and audited.

use std::cell::Cell;
use std::sync::Mutex;

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
    /// Report vectors the emitter has emptied, for the next chunks. A new
    /// vector per chunk grew by doubling into fresh pages: some 150 page
    /// faults (about 2 µs each on these machines) on a file of 1,400 games.
    spare: Mutex<Vec<Vec<GameReport>>>,
    /// Auditors a finished chunk left, for the next chunks: their tables
    /// (repetition index, move lists, the engine's) are already in memory.
    auditors: Mutex<Vec<Auditor>>,
}

/// Bytes of a chunk per report reserved for it (most games are longer:
/// 650 to 2,100 bytes in the shared data, a TCEC game with comments 35 KB).
const BYTES_PER_GAME: usize = 512;

impl Settings {
    pub(super) fn new(
        laws: Laws,
        dead: DeadMode,
        tags: TagSet,
        facets: bool,
        site: SiteMode,
    ) -> Self {
        Settings {
            laws,
            dead,
            tags,
            facets,
            site,
            spare: Mutex::new(Vec::new()),
            auditors: Mutex::new(Vec::new()),
        }
    }

    /// An auditor for a chunk: one a chunk left, else a new one.
    fn auditor(&self) -> Auditor {
        let spare = self.auditors.lock().ok().and_then(|mut a| a.pop());
        spare.unwrap_or_else(|| {
            Auditor::with_effort(self.dead)
                .with_tags(self.tags.clone())
                .with_facets(self.facets)
                .with_sites(self.site)
        })
    }

    /// Keeps `auditor` for a later chunk.
    fn keep(&self, auditor: Auditor) {
        if let Ok(mut a) = self.auditors.lock() {
            a.push(auditor);
        }
    }

    /// An empty vector for the reports of `bytes` of input: a spare one,
    /// else one with room for them (reserved, not yet touched).
    fn reports_for(&self, bytes: usize) -> Vec<GameReport> {
        let spare = self.spare.lock().ok().and_then(|mut s| s.pop());
        spare.unwrap_or_else(|| Vec::with_capacity(bytes / BYTES_PER_GAME))
    }

    /// Hands back an emptied report vector for a later chunk.
    pub(super) fn recycle(&self, mut reports: Vec<GameReport>) {
        reports.clear();
        if let Ok(mut spare) = self.spare.lock() {
            spare.push(reports);
        }
    }
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
    let mut auditor = settings.auditor();
    let laws = &settings.laws;
    let next = Cell::new(&[][..]);
    let mut movetext = MovetextReader::new(&next);
    let bytes = &buf[start..end];
    let mut splitter = Splitter::new(bytes);
    let mut reports = settings.reports_for(end - start);
    while let Some(game) = splitter.next() {
        let mut report = auditor.audit_with(&game, *laws, &mut movetext);
        report.line = game.line;
        report.offset += start as u64;
        reports.push(report);
        splitter.recycle(game);
    }
    let end_state = splitter.end_state().cloned().unwrap_or_default();
    settings.keep(auditor);
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
