//! Per input: bytes → regions → chunks cut at game boundaries → games
//! audited in parallel (rayon) → reports in input order.
//!
//! A chunk boundary is a `[` at the start of a line after a blank line. It
//! can be wrong: a comment may hold a blank line and a `[`, and a blank line
//! inside a tag section does not always end it. Every chunk is split on the
//! guess that its boundary is right; then, in order, the splitter's state at
//! the end of the previous chunk says whether it was (see
//! [`split::cut_is_sound`]). When it was not, the game left open there is
//! split and audited again together with the next chunk. The result is the
//! same as a sequential pass, whatever the chunk size or thread count.

use std::cell::Cell;
use std::io::{self, Read};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::sync_channel;
use std::sync::Arc;

use rayon::prelude::*;

use crate::audit::{Auditor, GameReport, Laws};
use crate::input::{self, NamedInput, Source};
use crate::parse::MovetextReader;
use crate::split::{self, EndState, Splitter};
use crate::stats::Stats;

/// How a run is carried out.
#[derive(Debug, Clone)]
pub struct Config {
    pub laws: Laws,
    /// Worker threads (0 = all cores).
    pub threads: usize,
    /// Target size of a chunk handed to one worker.
    pub chunk_size: usize,
    /// Bytes handled between two ordered outputs (and read ahead from a
    /// stream).
    pub region_size: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            laws: Laws::Auto,
            threads: 0,
            chunk_size: 1 << 20,
            region_size: 32 << 20,
        }
    }
}

/// Receives every game of an input, in input order.
pub trait Sink {
    fn game(&mut self, file: &str, index: u64, report: &GameReport) -> io::Result<()>;
}

/// What a run made of one input.
#[derive(Debug, Clone)]
pub struct InputOutcome {
    pub name: String,
    pub stats: Stats,
    /// The input could not be read, or not to its end.
    pub error: Option<String>,
}

/// Reports progress: bytes taken from the input so far, games so far.
pub trait Progress {
    fn update(&self, input_bytes: u64, games: u64);
}

impl Progress for () {
    fn update(&self, _: u64, _: u64) {}
}

pub struct Pipeline {
    cfg: Config,
    pool: rayon::ThreadPool,
}

/// Games of one chunk, audited on the guess that the chunk starts a game.
struct Piece {
    start: usize,
    end: usize,
    reports: Vec<GameReport>,
    end_state: EndState,
}

impl Pipeline {
    pub fn new(cfg: Config) -> io::Result<Pipeline> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(cfg.threads)
            .build()
            .map_err(io::Error::other)?;
        Ok(Pipeline { cfg, pool })
    }

    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// Reads and audits one input, handing each game to `sink` in order.
    /// An input that cannot be read (or not to its end) is reported in the
    /// outcome, not as an error; `Err` is only the sink's (closed output).
    pub fn run(
        &self,
        input: &NamedInput,
        sink: &mut dyn Sink,
        progress: &dyn Progress,
    ) -> io::Result<InputOutcome> {
        let read = Arc::new(AtomicU64::new(0));
        let mut outcome = InputOutcome {
            name: input.name.clone(),
            stats: Stats::default(),
            error: None,
        };
        let source = match input::open(&input.path, read.clone()) {
            Ok(s) => s,
            Err(e) => {
                outcome.error = Some(format!("cannot read: {e}"));
                return Ok(outcome);
            }
        };
        let mut emit = Emitter {
            name: &input.name,
            sink,
            stats: &mut outcome.stats,
            progress,
            read: &read,
        };
        match source {
            Source::Empty => {}
            Source::Mapped(mut map) => self.run_mapped(&mut map, &mut emit)?,
            Source::Stream(r) => {
                if let Some(e) = self.run_stream(r, &mut emit)? {
                    outcome.error = Some(e);
                }
            }
        }
        Ok(outcome)
    }

    fn run_mapped(&self, map: &mut input::Mapped, emit: &mut Emitter<'_>) -> io::Result<()> {
        let len = map.bytes().len();
        let mut pos = bom_len(map.bytes());
        emit.stats.bytes = len as u64;
        while pos < len {
            let data = map.bytes();
            let mut window = self.cfg.region_size.max(1);
            loop {
                let end = pos.saturating_add(window);
                if end >= data.len() {
                    let (reports, consumed) = self.process(&data[pos..], true);
                    pos += consumed;
                    emit.read.store(pos as u64, Ordering::Relaxed);
                    emit.all(reports, (pos - consumed) as u64)?;
                    break;
                }
                if let Some(b) = split::last_boundary(&data[pos..end]) {
                    let (reports, consumed) = self.process(&data[pos..pos + b], false);
                    if consumed > 0 {
                        pos += consumed;
                        emit.read.store(pos as u64, Ordering::Relaxed);
                        emit.all(reports, (pos - consumed) as u64)?;
                        break;
                    }
                }
                window = window.saturating_mul(2);
            }
            map.release_before(pos);
        }
        Ok(())
    }

    /// Returns the read error that ended the stream early, if any.
    fn run_stream(
        &self,
        mut r: Box<dyn Read + Send>,
        emit: &mut Emitter<'_>,
    ) -> io::Result<Option<String>> {
        let block = (self.cfg.region_size / 4).clamp(1, 8 << 20);
        let (tx, rx) = sync_channel::<Result<Vec<u8>, io::Error>>(4);
        // Decompression runs on its own thread, ahead of the audit.
        let reader = std::thread::spawn(move || {
            loop {
                let mut buf = Vec::new();
                match input::fill(&mut *r, &mut buf, block) {
                    Ok(0) => break,
                    Ok(_) => {
                        if tx.send(Ok(buf)).is_err() {
                            break;
                        }
                    }
                    Err(e) => {
                        // `buf` keeps what was read before the error
                        let _ = tx.send(Ok(buf));
                        let _ = tx.send(Err(e));
                        break;
                    }
                }
            }
        });

        let mut pending: Vec<u8> = Vec::new();
        let mut base: u64 = 0; // stream offset of pending[0]
        let mut first = true;
        let mut error = None;
        let mut total: u64 = 0;
        let mut threshold = self.cfg.region_size.max(1);
        for msg in rx.iter() {
            let bytes = match msg {
                Ok(b) => b,
                Err(e) => {
                    error = Some(format!(
                        "read error after {total} uncompressed bytes: {e}; the games before it are counted"
                    ));
                    break;
                }
            };
            total += bytes.len() as u64;
            pending.extend_from_slice(&bytes);
            if first && !pending.is_empty() {
                first = false;
                let bom = bom_len(&pending);
                pending.drain(..bom);
                base = bom as u64;
            }
            if pending.len() >= threshold {
                // A game longer than a region (or a comment never closed)
                // doubles the region rather than being split again and again.
                threshold = pending.len().saturating_mul(2);
                if let Some(b) = split::last_boundary(&pending) {
                    let (reports, consumed) = self.process(&pending[..b], false);
                    emit.all(reports, base)?;
                    pending.drain(..consumed);
                    base += consumed as u64;
                    if consumed > 0 {
                        threshold = self.cfg.region_size.max(1);
                    }
                }
            }
        }
        drop(rx);
        let _ = reader.join();
        if !pending.is_empty() {
            let (reports, _) = self.process(&pending, true);
            emit.all(reports, base)?;
        }
        emit.stats.bytes = total;
        Ok(error)
    }

    /// Splits and audits `buf`, which starts at a game start (or between
    /// games). Returns the reports (offsets relative to `buf`) and how many
    /// bytes they cover: unless `at_eof`, a game still open at the end of
    /// `buf` is left for the next call.
    fn process(&self, buf: &[u8], at_eof: bool) -> (Vec<GameReport>, usize) {
        let laws = self.cfg.laws;
        let mut cuts = vec![0];
        let chunk = self.cfg.chunk_size.max(1);
        let mut target = chunk;
        while target < buf.len() {
            match split::next_boundary(buf, target) {
                Some(b) => {
                    cuts.push(b);
                    target = b + chunk;
                }
                None => break,
            }
        }
        cuts.push(buf.len());
        let pieces: Vec<Piece> = self.pool.install(|| {
            cuts.par_windows(2)
                .map(|w| audit_piece(buf, w[0], w[1], laws))
                .collect()
        });

        let mut out: Vec<GameReport> = Vec::new();
        let mut prev: Option<(usize, EndState)> = None; // (start, end state)
        for piece in pieces {
            let sound = match &prev {
                None => true,
                Some((_, end)) => split::cut_is_sound(end, &buf[piece.start..]),
            };
            if sound {
                out.extend(piece.reports);
                prev = Some((piece.start, piece.end_state));
            } else {
                // Wrong cut: redo from the game left open before it.
                let (pstart, pend) = prev.take().expect("a piece before");
                let restart = pstart + pend.open_game_offset().expect("an open game");
                out.pop();
                let redo = audit_piece(buf, restart, piece.end, laws);
                out.extend(redo.reports);
                prev = Some((redo.start, redo.end_state));
            }
        }
        let mut consumed = buf.len();
        if !at_eof {
            if let Some((start, end)) = &prev {
                if let Some(open) = end.open_game_offset() {
                    out.pop();
                    consumed = start + open;
                }
            }
        }
        (out, consumed)
    }
}

fn audit_piece(buf: &[u8], start: usize, end: usize, laws: Laws) -> Piece {
    let mut auditor = Auditor::new();
    let next = Cell::new(&[][..]);
    let mut movetext = MovetextReader::new(&next);
    let mut splitter = Splitter::new(&buf[start..end]);
    let mut reports = Vec::new();
    for game in splitter.by_ref() {
        let mut report = auditor.audit_with(&game, laws, &mut movetext);
        report.offset += start as u64;
        reports.push(report);
    }
    let end_state = splitter.end_state().cloned().unwrap_or_default();
    Piece {
        start,
        end,
        reports,
        end_state,
    }
}

fn bom_len(data: &[u8]) -> usize {
    if data.starts_with(b"\xef\xbb\xbf") {
        3
    } else {
        0
    }
}

struct Emitter<'a> {
    name: &'a str,
    sink: &'a mut dyn Sink,
    stats: &'a mut Stats,
    progress: &'a dyn Progress,
    read: &'a AtomicU64,
}

impl Emitter<'_> {
    fn all(&mut self, reports: Vec<GameReport>, base: u64) -> io::Result<()> {
        for mut report in reports {
            report.offset += base;
            let index = self.stats.games;
            self.stats.add_game(&report);
            self.sink.game(self.name, index, &report)?;
        }
        self.progress
            .update(self.read.load(Ordering::Relaxed), self.stats.games);
        Ok(())
    }
}
