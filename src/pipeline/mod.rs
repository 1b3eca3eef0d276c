//! Per input: bytes → chunks cut at game boundaries → games audited in
//! parallel (rayon) → reports in input order.
//!
//! The main thread cuts chunks (`chunks.rs`) and hands them to the pool
//! (`worker.rs`; with one thread there is no pool, and it audits each chunk
//! itself), a bounded number at a time, and takes the results back in
//! input order (`emit.rs`): the pool never waits for the output, and a
//! stream is decompressed on a thread of its own ahead of both
//! (`input/reader.rs`).
//!
//! A cut can be wrong; the game it left open is then audited again with
//! the chunk after it (see `chunks.rs`). The result is the same as a
//! sequential pass, whatever the chunk size or thread count.

mod chunks;
mod emit;
mod worker;

use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::mpsc::channel;
use std::sync::Arc;

use self::chunks::{settle, Buf, Chunks, MappedChunks, Prev, StreamChunks};
use self::emit::{Emitter, InOrder};
use self::worker::{audit_piece, Piece, Settings};
use crate::audit::TagSet;
use crate::input::{self, NamedInput, Source};
use crate::laws::Laws;
use crate::rules::dead::DeadMode;
use crate::rules::site::SiteMode;
pub use crate::sink::{for_each_game, ForEachGame, GameRecord, InputOutcome, RunOutcome, Sink};
use crate::split::EndState;
use crate::stats::Stats;

/// How a run is carried out.
#[derive(Debug, Clone)]
pub struct Config {
    /// Which laws games are judged by.
    pub laws: Laws,
    /// How hard dead positions and unwinnable flags are proven.
    pub dead: DeadMode,
    /// Worker threads (0 = all cores; 1 = the calling thread, no pool).
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
    /// Which site's rules judge a game besides the Laws (SPEC "Site
    /// rules").
    pub site: SiteMode,
    /// Set (by a Ctrl-C handler) to stop reading: the games read so far are
    /// audited and handed over, the rest is not read.
    pub interrupt: Option<Arc<AtomicBool>>,
}

impl Config {
    /// Whether the run was told to stop reading (see [`Config::interrupt`]).
    pub fn interrupted(&self) -> bool {
        chunks::is_set(&self.interrupt)
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
            site: SiteMode::Auto,
            interrupt: None,
        }
    }
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
    /// `None` for one thread: the calling thread audits the chunks itself
    /// (a pool's thread, its start and the hand-overs cost more than they
    /// give then: about 0.35 ms of CPU a run).
    pool: Option<rayon::ThreadPool>,
}

/// Worker threads a run may use per core.
const THREADS_PER_CORE: usize = 4;

/// The most worker threads a run uses, whatever is asked: 4 × the cores.
/// More only costs (thousands of threads took over a minute to start for a
/// one-game file) since the work is bound by the cores.
pub fn max_threads() -> usize {
    // asked once: each call reads the cgroup's files (some 27 µs, at every
    // start)
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    THREADS_PER_CORE
        * *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// `threads` capped at [`max_threads`]; the cores are asked only for more
/// than 4, which no machine caps.
pub fn cap_threads(threads: usize) -> usize {
    if threads <= THREADS_PER_CORE {
        threads
    } else {
        threads.min(max_threads())
    }
}

/// A chunk to audit: `buf[start..end]`.
struct Job {
    seq: u64,
    buf: Buf,
    start: usize,
    end: usize,
}

impl Pipeline {
    /// A pipeline with its thread pool (none for one thread); `Err` when
    /// the pool cannot be started.
    pub fn new(cfg: Config) -> io::Result<Pipeline> {
        let pool = match cfg.threads {
            1 => None,
            n => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(cap_threads(n))
                    .build()
                    .map_err(io::Error::other)?,
            ),
        };
        Ok(Pipeline { cfg, pool })
    }

    /// The number of worker threads.
    pub fn threads(&self) -> usize {
        self.pool.as_ref().map_or(1, |p| p.current_num_threads())
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
        self.run_ending(name, source, read, sink, progress)
            .map(|(outcome, _)| outcome)
    }

    /// As [`Pipeline::run`] over `source`, and where the splitter stood at
    /// its end: a part of an input (`crate::parts`) checks with it that the
    /// part's last game ended where the next part begins.
    pub(crate) fn run_ending(
        &self,
        name: &str,
        source: io::Result<Source>,
        read: Arc<AtomicU64>,
        sink: &mut dyn Sink,
        progress: &dyn Progress,
    ) -> io::Result<(InputOutcome, EndState)> {
        let mut end = EndState::default();
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
                return Ok((outcome, end));
            }
        };
        sink.begin_input(name)?;
        let mut emit = Emitter::new(name, sink, &mut outcome.stats);
        match source {
            Source::Empty => {}
            Source::Mapped(map) => {
                let mut chunks = MappedChunks::new(map);
                end = self.drive(&mut chunks, &mut emit, progress)?;
                // the bytes cut into chunks, each audited: the whole file,
                // or what was judged before a Ctrl-C
                outcome.stats.bytes = chunks.read();
            }
            Source::Stream(r) => {
                let mut chunks =
                    StreamChunks::new(r, self.cfg.region_size, read, self.cfg.interrupt.clone());
                end = self.drive(&mut chunks, &mut emit, progress)?;
                outcome.stats.bytes = chunks.judged();
                outcome.error = chunks.error();
            }
        }
        sink.end_input(&outcome)?;
        Ok((outcome, end))
    }

    /// Cuts chunks, audits them on the pool (or, with one thread, in
    /// turn on this one), and emits the games in order, repairing wrong
    /// cuts; where the splitter stood at the end.
    fn drive(
        &self,
        chunks: &mut dyn Chunks,
        emit: &mut Emitter<'_>,
        progress: &dyn Progress,
    ) -> io::Result<EndState> {
        let laws = Arc::new(Settings::new(
            self.cfg.laws,
            self.cfg.dead,
            self.cfg.tags.clone(),
            self.cfg.facets,
            self.cfg.site,
        ));
        let chunk_size = chunk_size_for(self.cfg.chunk_size, chunks.len(), self.threads());
        // chunks audited and not yet emitted: one at a time without a pool,
        // as the progress bar and the output went with a pool of one
        let limit = if self.pool.is_some() {
            4 * self.threads().max(1)
        } else {
            1
        };
        let (tx, rx) = channel::<(u64, Buf, std::thread::Result<Piece>)>();
        // `spawn` runs a chunk's job: on the pool, or at once
        let mut run = |spawn: &mut dyn FnMut(Box<dyn FnOnce() + Send>)| -> io::Result<EndState> {
            let mut next_seq: u64 = 0;
            let mut in_flight = 0usize;
            let mut done = InOrder::new();
            let mut prev: Option<Prev> = None;
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
                            spawn(Box::new(move || {
                                // A panic must reach the main thread, which
                                // would otherwise wait for this chunk forever.
                                let piece =
                                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                                        audit_piece(job.buf.get(), job.start, job.end, &laws)
                                    }));
                                let _ = tx.send((job.seq, job.buf, piece));
                            }));
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
                while let Some((buf, piece)) = done.next() {
                    let settled = settle(&mut prev, buf, piece, &laws);
                    if settled.glued {
                        emit.retract();
                    }
                    if let Some(p) = &prev {
                        chunks.release(&p.buf, p.start);
                    }
                    let Piece {
                        start,
                        end,
                        mut reports,
                        end_state,
                        newlines,
                    } = settled.piece;
                    let (buf, lines) = (settled.buf, settled.lines);
                    emit.all(&mut reports, &buf, lines)?;
                    laws.recycle(reports);
                    progress.update(chunks.read(), emit.games());
                    prev = Some(Prev {
                        buf,
                        start,
                        end,
                        end_state,
                        lines,
                        newlines,
                    });
                }
            }
            Ok(prev.map(|p| p.end_state).unwrap_or_default())
        };
        let end = match &self.pool {
            Some(pool) => pool.in_place_scope(|scope| run(&mut |job| scope.spawn(move |_| job()))),
            None => run(&mut |job| job()),
        }?;
        emit.flush()?;
        Ok(end)
    }
}

/// The size of the chunks of an input: the configured size, or smaller
/// where the input is known to be small, so that each thread gets several
/// chunks (a tournament's file of a few hundred KB under `--dead thorough`
/// is expensive per game, and one chunk would be one core's work); never
/// below [`MIN_CHUNK`] (each chunk costs a worker's set-up). One thread
/// takes at most [`ONE_THREAD_CHUNK`] at a time.
fn chunk_size_for(configured: usize, len: Option<usize>, threads: usize) -> usize {
    let configured = configured.max(1);
    match len {
        Some(len) if threads > 1 => {
            (len / (threads * CHUNKS_PER_THREAD)).clamp(MIN_CHUNK.min(configured), configured)
        }
        _ if threads <= 1 => configured.min(ONE_THREAD_CHUNK),
        _ => configured,
    }
}

/// The chunk of one thread: its reports (240 bytes a game) are held until
/// the chunk is emitted, and the pages they take are touched once, then
/// reused by every later chunk; a 1 MiB chunk's took some 65 more page
/// faults (about 2 us each here) than a 128 KiB one's.
const ONE_THREAD_CHUNK: usize = 128 << 10;

/// The least chunk [`chunk_size_for`] cuts a small input into.
const MIN_CHUNK: usize = 16 << 10;
/// How many chunks each thread should get of an input of known size.
const CHUNKS_PER_THREAD: usize = 8;

#[cfg(test)]
mod tests {
    use super::chunk_size_for;

    #[test]
    fn small_inputs_are_cut_for_every_thread() {
        let mib = 1 << 20;
        // 465 KB on 2 threads: 16 chunks.
        assert_eq!(chunk_size_for(mib, Some(465_000), 2), 29_062);
        assert_eq!(chunk_size_for(mib, Some(100 * mib), 2), mib);
        assert_eq!(chunk_size_for(mib, Some(10_000), 2), 16 << 10);
        // A smaller configured size (the tests') stays as set; one thread
        // takes 128 KiB at most.
        assert_eq!(chunk_size_for(300, Some(465_000), 2), 300);
        assert_eq!(chunk_size_for(mib, Some(465_000), 1), 128 << 10);
        assert_eq!(chunk_size_for(mib, None, 1), 128 << 10);
        assert_eq!(chunk_size_for(300, None, 1), 300);
        assert_eq!(chunk_size_for(mib, None, 2), mib);
    }
}
