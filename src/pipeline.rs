//! Per input: bytes → chunks cut at game boundaries → games audited in
//! parallel (rayon) → reports in input order.
//!
//! The main thread cuts chunks and hands them to the pool, a bounded number
//! at a time, and takes the results back in input order: the pool never
//! waits for the output, and a stream is decompressed on a thread of its own
//! ahead of both.
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
use std::collections::BTreeMap;
use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, sync_channel, Receiver, SyncSender};
use std::sync::Arc;

use crate::audit::{Auditor, GameReport, TagSet};
use crate::input::{self, NamedInput, Source};
use crate::laws::Laws;
use crate::parse::MovetextReader;
use crate::rules::dead::DeadMode;
use crate::split::{self, EndState, Splitter};
use crate::stats::Stats;

/// How a run is carried out.
#[derive(Debug, Clone)]
pub struct Config {
    /// Which laws games are judged by.
    pub laws: Laws,
    /// How hard dead positions and unwinnable flags are proven.
    pub dead: DeadMode,
    /// Worker threads (0 = all cores).
    pub threads: usize,
    /// Target size of a chunk handed to one worker.
    pub chunk_size: usize,
    /// Size of the regions a stream is read in (a few are in flight at
    /// once; a mapped file needs none).
    pub region_size: usize,
    /// The tags kept in the reports of games with findings.
    pub tags: TagSet,
    /// Read every game's facets for the statistics report.
    pub facets: bool,
    /// Set (by a Ctrl-C handler) to stop reading: the games read so far are
    /// audited and handed over, the rest is not read.
    pub interrupt: Option<Arc<AtomicBool>>,
}

impl Config {
    /// Whether the run was told to stop reading (see [`Config::interrupt`]).
    pub fn interrupted(&self) -> bool {
        is_set(&self.interrupt)
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            laws: Laws::Auto,
            dead: DeadMode::Quick,
            threads: 0,
            chunk_size: 1 << 20,
            region_size: 4 << 20,
            tags: TagSet::Default,
            facets: false,
            interrupt: None,
        }
    }
}

/// One game as a sink sees it.
#[derive(Clone, Copy)]
pub struct GameRecord<'a> {
    /// The input's name, as the user gave it (or as found in a directory).
    pub file: &'a str,
    /// 0-based index of the game in its input.
    pub index: u64,
    /// What the audit of the game produced.
    pub report: &'a GameReport,
    /// The game's own text, as it stands in the (uncompressed) input.
    pub text: &'a [u8],
}

/// Receives every game of a run, in input order, between `begin_input` and
/// `end_input` of its input; `finish` once at the end of the run.
pub trait Sink {
    /// An input starts; `file` is its name in the reports.
    fn begin_input(&mut self, _file: &str) -> io::Result<()> {
        Ok(())
    }
    /// The next game of the current input.
    fn game(&mut self, game: &GameRecord<'_>) -> io::Result<()>;
    /// The current input is finished (or could not be read).
    fn end_input(&mut self, _outcome: &InputOutcome) -> io::Result<()> {
        Ok(())
    }
    /// The run is finished.
    fn finish(&mut self, _run: &RunOutcome) -> io::Result<()> {
        Ok(())
    }
}

/// A sink that calls a closure with every game: `for_each_game(|g| ...)`.
pub struct ForEachGame<F>(F);

/// A sink from a closure called with every game, in input order.
pub fn for_each_game<F: FnMut(&GameRecord<'_>)>(f: F) -> ForEachGame<F> {
    ForEachGame(f)
}

impl<F: FnMut(&GameRecord<'_>)> Sink for ForEachGame<F> {
    fn game(&mut self, game: &GameRecord<'_>) -> io::Result<()> {
        (self.0)(game);
        Ok(())
    }
}

/// Every sink of a list gets every call, in order.
impl Sink for Vec<&mut dyn Sink> {
    fn begin_input(&mut self, file: &str) -> io::Result<()> {
        self.iter_mut().try_for_each(|s| s.begin_input(file))
    }
    fn game(&mut self, game: &GameRecord<'_>) -> io::Result<()> {
        self.iter_mut().try_for_each(|s| s.game(game))
    }
    fn end_input(&mut self, outcome: &InputOutcome) -> io::Result<()> {
        self.iter_mut().try_for_each(|s| s.end_input(outcome))
    }
    fn finish(&mut self, run: &RunOutcome) -> io::Result<()> {
        self.iter_mut().try_for_each(|s| s.finish(run))
    }
}

/// What a whole run made of its inputs.
#[derive(Debug, Clone)]
pub struct RunOutcome {
    /// The run was interrupted (Ctrl-C): the counts are of what was read.
    pub interrupted: bool,
    /// Each input, in the order read.
    pub inputs: Vec<InputOutcome>,
    /// The counts of every input together.
    pub total: Stats,
    /// The worker threads that audited the games.
    pub threads: usize,
    /// Wall-clock time of the run.
    pub seconds: f64,
}

/// What a run made of one input.
#[derive(Debug, Clone)]
pub struct InputOutcome {
    /// The input's name in the reports.
    pub name: String,
    /// The counts of its games.
    pub stats: Stats,
    /// The input could not be read, or not to its end.
    pub error: Option<String>,
}

/// Reports progress: bytes taken from the input so far, games so far.
pub trait Progress {
    /// Now and then during an input: `input_bytes` taken from it so far
    /// (compressed bytes for a `.zst`), `games` read from it so far.
    fn update(&self, input_bytes: u64, games: u64);
    /// The run starts; `total_bytes` is the inputs' size on disk, if known.
    fn start(&self, _total_bytes: Option<u64>) {}
    /// An input is about to be read.
    fn input_start(&self, _name: &str) {}
    /// An input is finished: `bytes` of it on disk, `games` read.
    fn input_done(&self, _bytes: u64, _games: u64) {}
}

impl Progress for () {
    fn update(&self, _: u64, _: u64) {}
}

/// Audits inputs one at a time on a thread pool, with one [`Config`].
pub struct Pipeline {
    cfg: Config,
    pool: rayon::ThreadPool,
}

/// The most worker threads a run uses, whatever is asked: 4 × the cores.
/// More only costs (thousands of threads took over a minute to start for a
/// one-game file) since the work is bound by the cores.
pub fn max_threads() -> usize {
    4 * std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Games of one chunk, audited on the guess that the chunk starts a game.
/// Each report's `line` counts the newlines from `start` to the game.
struct Piece {
    start: usize,
    end: usize,
    reports: Vec<GameReport>,
    end_state: EndState,
    /// Newlines in `start..end`.
    newlines: u64,
}

/// Bytes shared by the chunks cut from them: a mapped file, or a region of
/// a stream.
type Bytes = Arc<dyn AsRef<[u8]> + Send + Sync>;

/// A stretch of the input: `bytes`, whose first byte is at `base` in the
/// uncompressed input.
#[derive(Clone)]
struct Buf {
    bytes: Bytes,
    base: u64,
}

impl Buf {
    fn get(&self) -> &[u8] {
        (*self.bytes).as_ref()
    }
}

/// A chunk to audit: `buf[start..end]`.
struct Job {
    seq: u64,
    buf: Buf,
    start: usize,
    end: usize,
}

/// Where the chunks come from.
trait Chunks {
    /// The next chunk, `None` at the end of the input.
    fn next(&mut self, chunk_size: usize) -> Option<(Buf, usize, usize)>;
    /// Bytes before `pos` of `buf` will not be read again.
    fn release(&self, _buf: &Buf, _pos: usize) {}
    /// Input bytes read so far, for the progress bar.
    fn read(&self) -> u64;
    /// Why the input ended early, if it did.
    fn error(&mut self) -> Option<String> {
        None
    }
}

impl Pipeline {
    /// A pipeline with its thread pool; `Err` when the pool cannot be
    /// started.
    pub fn new(cfg: Config) -> io::Result<Pipeline> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(cfg.threads.min(max_threads()))
            .build()
            .map_err(io::Error::other)?;
        Ok(Pipeline { cfg, pool })
    }

    /// The number of worker threads.
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
        let source = input::open(&input.path, read.clone(), self.threads());
        self.run_source(&input.name, source, read, sink, progress)
    }

    /// Reads and audits one input from a reader (plain PGN, or zstd by its
    /// magic bytes), named `name` in the reports; as [`Pipeline::run`].
    pub fn run_reader(
        &self,
        name: &str,
        reader: Box<dyn Read + Send>,
        sink: &mut dyn Sink,
        progress: &dyn Progress,
    ) -> io::Result<InputOutcome> {
        let read = Arc::new(AtomicU64::new(0));
        let source = input::open_reader(reader, read.clone());
        self.run_source(name, source, read, sink, progress)
    }

    fn run_source(
        &self,
        name: &str,
        source: io::Result<Source>,
        read: Arc<AtomicU64>,
        sink: &mut dyn Sink,
        progress: &dyn Progress,
    ) -> io::Result<InputOutcome> {
        let mut outcome = InputOutcome {
            name: name.to_string(),
            stats: Stats::default(),
            error: None,
        };
        let source = match source {
            Ok(s) => s,
            Err(e) => {
                sink.begin_input(name)?;
                outcome.error = Some(format!("cannot read: {e}"));
                sink.end_input(&outcome)?;
                return Ok(outcome);
            }
        };
        sink.begin_input(name)?;
        let mut emit = Emitter {
            name,
            sink,
            stats: &mut outcome.stats,
            progress,
            held: None,
        };
        match source {
            Source::Empty => {}
            Source::Mapped(map) => {
                let map = Arc::new(map);
                let len = map.bytes().len();
                let start = bom_len(map.bytes());
                let mut chunks = MappedChunks {
                    buf: Buf {
                        bytes: map.clone(),
                        base: 0,
                    },
                    map,
                    pos: start,
                    len,
                };
                self.drive(&mut chunks, &mut emit)?;
                emit.stats.bytes = len as u64;
            }
            Source::Stream(r) => {
                let mut chunks =
                    StreamChunks::new(r, self.cfg.region_size, read, self.cfg.interrupt.clone());
                self.drive(&mut chunks, &mut emit)?;
                emit.stats.bytes = chunks.total;
                outcome.error = chunks.error();
            }
        }
        sink.end_input(&outcome)?;
        Ok(outcome)
    }

    /// Cuts chunks, audits them on the pool, and emits the games in order,
    /// repairing wrong cuts.
    fn drive(&self, chunks: &mut dyn Chunks, emit: &mut Emitter<'_>) -> io::Result<()> {
        let laws = Arc::new((
            self.cfg.laws,
            self.cfg.dead,
            self.cfg.tags.clone(),
            self.cfg.facets,
        ));
        let chunk_size = self.cfg.chunk_size.max(1);
        let limit = 4 * self.threads().max(1);
        let (tx, rx) = channel::<(u64, Buf, std::thread::Result<Piece>)>();
        self.pool.in_place_scope(|scope| -> io::Result<()> {
            let mut next_seq: u64 = 0;
            let mut emit_seq: u64 = 0;
            let mut in_flight = 0usize;
            let mut done: BTreeMap<u64, (Buf, Piece)> = BTreeMap::new();
            // the last piece emitted: its bytes, where it stood at its end,
            // and the newlines before it and in it
            let mut prev: Option<(Buf, usize, usize, EndState, u64, u64)> = None;
            let mut exhausted = false;
            loop {
                while !exhausted && in_flight < limit {
                    if self.cfg.interrupted() {
                        exhausted = true;
                        break;
                    }
                    match chunks.next(chunk_size) {
                        Some((buf, start, end)) => {
                            let job = Job {
                                seq: next_seq,
                                buf,
                                start,
                                end,
                            };
                            next_seq += 1;
                            in_flight += 1;
                            let tx = tx.clone();
                            let laws = laws.clone();
                            scope.spawn(move |_| {
                                // A panic must reach the main thread, which
                                // would otherwise wait for this chunk forever.
                                let piece =
                                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                                        audit_piece(job.buf.get(), job.start, job.end, &laws)
                                    }));
                                let _ = tx.send((job.seq, job.buf, piece));
                            });
                        }
                        None => exhausted = true,
                    }
                }
                if in_flight == 0 {
                    break;
                }
                let (seq, buf, piece) = rx.recv().expect("the pipeline holds a sender");
                in_flight -= 1;
                let piece = piece.map_err(|_| {
                    io::Error::other(format!(
                        "internal error: a worker panicked on the chunk at byte {}",
                        buf.base
                    ))
                })?;
                done.insert(seq, (buf, piece));
                while let Some((buf, piece)) = done.remove(&emit_seq) {
                    emit_seq += 1;
                    let sound = match &prev {
                        None => true,
                        Some((_, _, _, end, _, _)) => {
                            split::cut_is_sound(end, &buf.get()[piece.start..])
                        }
                    };
                    let (buf, piece, lines) = if sound {
                        let lines = prev.as_ref().map_or(0, |p| p.4 + p.5);
                        (buf, piece, lines)
                    } else {
                        let (pbuf, pstart, pend, pstate, plines, _) =
                            prev.take().expect("a piece before");
                        let open = pstart + pstate.open_game_offset().expect("an open game");
                        // from its line's start: leading blanks change how
                        // a tag line reads (found by the audit_bytes fuzz
                        // target)
                        let restart = split::line_start_before_blanks(pbuf.get(), pstart, open);
                        emit.retract();
                        let lines = plines + newlines(&pbuf.get()[pstart..restart]);
                        let (buf, piece) =
                            redo(&pbuf, restart, pend, &buf, piece.start, piece.end, &laws);
                        (buf, piece, lines)
                    };
                    if let Some((pbuf, pstart, ..)) = &prev {
                        chunks.release(pbuf, *pstart);
                    }
                    let Piece {
                        start,
                        end,
                        reports,
                        end_state,
                        newlines,
                    } = piece;
                    emit.all(reports, &buf, lines)?;
                    emit.progress(chunks.read());
                    prev = Some((buf, start, end, end_state, lines, newlines));
                }
            }
            Ok(())
        })?;
        emit.flush()
    }
}

/// Splits and audits again, as one, the bytes from `restart` in `pbuf` to
/// `pend`, and the chunk `buf[start..end]` that follows them.
fn redo(
    pbuf: &Buf,
    restart: usize,
    pend: usize,
    buf: &Buf,
    start: usize,
    end: usize,
    laws: &Settings,
) -> (Buf, Piece) {
    if Arc::ptr_eq(&pbuf.bytes, &buf.bytes) && pend == start {
        let piece = audit_piece(buf.get(), restart, end, laws);
        return (buf.clone(), piece);
    }
    // The two lie in different regions of a stream: join them.
    let mut joined = pbuf.get()[restart..pend].to_vec();
    joined.extend_from_slice(&buf.get()[start..end]);
    let len = joined.len();
    let joined = Buf {
        base: pbuf.base + restart as u64,
        bytes: Arc::new(joined),
    };
    let piece = audit_piece(joined.get(), 0, len, laws);
    (joined, piece)
}

/// Chunks of a mapped file.
struct MappedChunks {
    map: Arc<input::Mapped>,
    buf: Buf,
    pos: usize,
    len: usize,
}

impl Chunks for MappedChunks {
    fn next(&mut self, chunk_size: usize) -> Option<(Buf, usize, usize)> {
        if self.pos >= self.len {
            return None;
        }
        let data = self.map.bytes();
        let start = self.pos;
        let end = match self.pos.checked_add(chunk_size) {
            Some(t) if t < self.len => split::next_boundary(data, t).unwrap_or(self.len),
            _ => self.len,
        };
        self.pos = end;
        Some((self.buf.clone(), start, end))
    }

    fn release(&self, _buf: &Buf, pos: usize) {
        self.map.release_before(pos);
    }

    fn read(&self) -> u64 {
        self.pos as u64
    }
}

/// Chunks of a stream. A thread of its own reads (and decompresses) the
/// stream into regions, each ending at the last chunk boundary read so far;
/// the bytes after it begin the next region.
struct StreamChunks {
    /// Regions from the reader thread, which ends when this is dropped.
    rx: Receiver<Region>,
    /// The current region, how far it has been cut, and where it ends.
    region: Option<(Buf, usize, usize)>,
    total: u64,
    error: Option<String>,
    read: Arc<AtomicU64>,
    interrupt: Option<Arc<AtomicBool>>,
    /// Uncompressed bytes received from the reader so far.
    read_so_far: u64,
}

/// Whether an interrupt flag is set.
fn is_set(flag: &Option<Arc<AtomicBool>>) -> bool {
    flag.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
}

enum Region {
    Bytes {
        bytes: Recycled,
        base: u64,
    },
    /// The stream ended early; `total` uncompressed bytes were read.
    Error {
        total: u64,
        error: io::Error,
    },
    End {
        total: u64,
    },
}

impl StreamChunks {
    fn new(
        r: Box<dyn Read + Send>,
        region_size: usize,
        read: Arc<AtomicU64>,
        interrupt: Option<Arc<AtomicBool>>,
    ) -> Self {
        let (tx, rx) = sync_channel::<Region>(2);
        std::thread::spawn(move || read_regions(r, region_size.max(1), tx));
        StreamChunks {
            rx,
            region: None,
            total: 0,
            error: None,
            read,
            interrupt,
            read_so_far: 0,
        }
    }

    /// Takes the next region from the reader thread; `false` at the end.
    fn refill(&mut self) -> bool {
        // The reader may wait on a pipe for ever: look at the interrupt
        // now and then instead of waiting with it.
        let next = loop {
            match self.rx.recv_timeout(std::time::Duration::from_millis(100)) {
                Ok(r) => break Ok(r),
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    if is_set(&self.interrupt) {
                        self.total = self.read_so_far;
                        return false;
                    }
                }
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break Err(()),
            }
        };
        if let Ok(Region::Bytes { base, bytes }) = &next {
            self.read_so_far = base + bytes.bytes.len() as u64;
        }
        match next {
            Ok(Region::Bytes { bytes, base }) => {
                let len = bytes.bytes.len();
                self.region = Some((
                    Buf {
                        bytes: Arc::new(bytes),
                        base,
                    },
                    0,
                    len,
                ));
                true
            }
            Ok(Region::Error { total, error }) => {
                self.total = total;
                self.error = Some(format!(
                    "read error after {total} uncompressed bytes: {error}; the games before it are counted"
                ));
                false
            }
            Ok(Region::End { total }) => {
                self.total = total;
                false
            }
            Err(_) => false,
        }
    }
}

/// A region's bytes, which go back to the reader thread when dropped.
struct Recycled {
    bytes: Vec<u8>,
    back: SyncSender<Vec<u8>>,
}

impl AsRef<[u8]> for Recycled {
    fn as_ref(&self) -> &[u8] {
        &self.bytes
    }
}

impl Drop for Recycled {
    fn drop(&mut self) {
        let _ = self.back.try_send(std::mem::take(&mut self.bytes));
    }
}

/// The reader thread: fills regions of about `region_size` bytes, cuts
/// each at its last chunk boundary, and sends them in order.
fn read_regions(mut r: Box<dyn Read + Send>, region_size: usize, tx: SyncSender<Region>) {
    let block = (region_size / 4).clamp(1, 4 << 20);
    // Region buffers come back once audited: fresh ones would cost a page
    // fault per 4 KiB.
    let (back_tx, back_rx) = sync_channel::<Vec<u8>>(4);
    let fresh = |back_rx: &Receiver<Vec<u8>>| -> Vec<u8> {
        match back_rx.try_recv() {
            Ok(mut v) => {
                v.clear();
                v
            }
            // grown as needed beyond 64 MiB: a huge --region-size must not
            // allocate it all up front (found by fuzzing)
            Err(_) => Vec::with_capacity(region_size.saturating_add(block).min(64 << 20)),
        }
    };
    let mut carry: Vec<u8> = fresh(&back_rx);
    let mut base: u64 = 0;
    let mut total: u64 = 0;
    let mut want = region_size;
    let mut first = true;
    let mut error = None;
    loop {
        let mut eof = false;
        while carry.len() < want {
            match input::read_some(&mut *r, &mut carry, block) {
                Ok(0) => {
                    eof = true;
                    break;
                }
                Ok(n) => {
                    total += n as u64;
                    // A short read: a pipe gave what it had. Hand over the
                    // games read so far rather than wait for a full region
                    // (the writer may be slow, or never close the pipe).
                    if n < block && carry.len() >= block && split::last_boundary(&carry).is_some() {
                        break;
                    }
                }
                Err(e) => {
                    // `carry` keeps what was read before the error
                    total = base + carry.len() as u64;
                    error = Some(e);
                    eof = true;
                    break;
                }
            }
        }
        if first && !carry.is_empty() {
            first = false;
            let bom = bom_len(&carry);
            carry.drain(..bom);
            base = bom as u64;
        }
        let cut = if eof {
            carry.len()
        } else {
            match split::last_boundary(&carry) {
                Some(b) => b,
                None => {
                    // one game longer than a region: read on
                    want = carry.len().saturating_mul(2);
                    continue;
                }
            }
        };
        want = region_size;
        let mut next = fresh(&back_rx);
        next.extend_from_slice(&carry[cut..]);
        carry.truncate(cut);
        let bytes = std::mem::replace(&mut carry, next);
        if !bytes.is_empty() {
            let len = bytes.len() as u64;
            let bytes = Recycled {
                bytes,
                back: back_tx.clone(),
            };
            if tx.send(Region::Bytes { bytes, base }).is_err() {
                return;
            }
            base += len;
        }
        if eof {
            let _ = tx.send(match error {
                Some(error) => Region::Error { total, error },
                None => Region::End { total },
            });
            return;
        }
    }
}

impl Chunks for StreamChunks {
    fn next(&mut self, chunk_size: usize) -> Option<(Buf, usize, usize)> {
        loop {
            if let Some((buf, pos, end)) = &mut self.region {
                if *pos < *end {
                    let start = *pos;
                    let stop = match start.checked_add(chunk_size) {
                        Some(t) if t < *end => {
                            split::next_boundary(&buf.get()[..*end], t).unwrap_or(*end)
                        }
                        _ => *end,
                    };
                    *pos = stop;
                    return Some((buf.clone(), start, stop));
                }
            }
            if !self.refill() {
                return None;
            }
        }
    }

    fn read(&self) -> u64 {
        self.read.load(Ordering::Relaxed)
    }

    fn error(&mut self) -> Option<String> {
        self.error.take()
    }
}

/// What every worker needs to audit a game.
type Settings = (Laws, DeadMode, TagSet, bool);

fn audit_piece(buf: &[u8], start: usize, end: usize, laws: &Settings) -> Piece {
    let (laws, dead, tags, facets) = laws;
    let mut auditor = Auditor::with_effort(*dead)
        .with_tags(tags.clone())
        .with_facets(*facets);
    let next = Cell::new(&[][..]);
    let mut movetext = MovetextReader::new(&next);
    let bytes = &buf[start..end];
    let mut splitter = Splitter::new(bytes);
    let mut reports = Vec::new();
    // newlines from `start` to the last game seen
    let (mut lines, mut counted) = (0u64, 0usize);
    while let Some(game) = splitter.next() {
        let mut report = auditor.audit_with(&game, *laws, &mut movetext);
        lines += newlines(&bytes[counted..game.offset]);
        counted = game.offset;
        report.line = lines;
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
        newlines: lines + newlines(&bytes[counted..]),
    }
}

fn newlines(bytes: &[u8]) -> u64 {
    memchr::memchr_iter(b'\n', bytes).count() as u64
}

fn bom_len(data: &[u8]) -> usize {
    if data.starts_with(b"\xef\xbb\xbf") {
        3
    } else {
        0
    }
}

/// Hands games to the sink in order. The last game of each piece is held
/// back until the next piece shows whether it was complete (a wrong cut
/// leaves it open: it is then audited again with the next chunk).
struct Emitter<'a> {
    name: &'a str,
    sink: &'a mut dyn Sink,
    stats: &'a mut Stats,
    progress: &'a dyn Progress,
    held: Option<(GameReport, Buf)>,
}

impl Emitter<'_> {
    /// The games of a piece of `buf` that starts after `lines` newlines of
    /// the input.
    fn all(&mut self, reports: Vec<GameReport>, buf: &Buf, lines: u64) -> io::Result<()> {
        for mut report in reports {
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
    fn retract(&mut self) {
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

    fn progress(&self, read: u64) {
        self.progress.update(read, self.stats.games);
    }

    fn flush(&mut self) -> io::Result<()> {
        if let Some(h) = self.held.take() {
            self.one(h)?;
        }
        Ok(())
    }
}
