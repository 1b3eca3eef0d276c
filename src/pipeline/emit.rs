//! Handing results on: pieces put back in input order, and their games
//! handed to the sink one at a time.

use std::collections::BTreeMap;
use std::io;

use super::chunks::Buf;
use crate::audit::GameReport;
use crate::sink::{GameRecord, Sink};
use crate::stats::Stats;

/// Results that arrive in any order, taken out in the order of their
/// sequence numbers (0, 1, 2, ...).
pub(super) struct InOrder<T> {
    next: u64,
    done: BTreeMap<u64, T>,
}

impl<T> InOrder<T> {
    pub(super) fn new() -> Self {
        InOrder {
            next: 0,
            done: BTreeMap::new(),
        }
    }

    /// Result number `seq` has arrived.
    pub(super) fn insert(&mut self, seq: u64, result: T) {
        self.done.insert(seq, result);
    }

    /// The next result in order, if it has arrived.
    pub(super) fn next(&mut self) -> Option<T> {
        let result = self.done.remove(&self.next)?;
        self.next += 1;
        Some(result)
    }
}

/// Hands games to the sink in order. The last game of each piece is held
/// back until the next piece shows whether it was complete (a wrong cut
/// leaves it open: it is then audited again with the next chunk).
pub(super) struct Emitter<'a> {
    name: &'a str,
    sink: &'a mut dyn Sink,
    stats: &'a mut Stats,
    held: Option<(GameReport, Buf)>,
}

impl<'a> Emitter<'a> {
    /// Hands the games of input `name` to `sink`, counting them in `stats`.
    pub(super) fn new(name: &'a str, sink: &'a mut dyn Sink, stats: &'a mut Stats) -> Self {
        Emitter {
            name,
            sink,
            stats,
            held: None,
        }
    }

    /// The games of a piece of `buf` that starts after `lines` newlines of
    /// the input (`reports` is left empty, for reuse).
    pub(super) fn all(
        &mut self,
        reports: &mut Vec<GameReport>,
        buf: &Buf,
        lines: u64,
    ) -> io::Result<()> {
        for mut report in reports.drain(..) {
            if let Some(h) = self.held.take() {
                self.one(h)?;
            }
            report.offset += buf.base;
            report.line += lines + 1;
            self.held = Some((report, buf.clone()));
        }
        Ok(())
    }

    /// The held game was cut short: forget it.
    pub(super) fn retract(&mut self) {
        self.held = None;
    }

    fn one(&mut self, (report, buf): (GameReport, Buf)) -> io::Result<()> {
        let index = self.stats.games;
        self.stats.add_game(&report);
        let from = (report.offset - buf.base) as usize;
        let text = buf
            .get()
            .get(from..from + report.len as usize)
            .unwrap_or_default();
        self.sink.game(&GameRecord {
            file: self.name,
            index,
            report: &report,
            text,
        })
    }

    /// The games handed on so far.
    pub(super) fn games(&self) -> u64 {
        self.stats.games
    }

    /// The end of the input: the held game is complete.
    pub(super) fn flush(&mut self) -> io::Result<()> {
        if let Some(h) = self.held.take() {
            self.one(h)?;
        }
        Ok(())
    }
}
