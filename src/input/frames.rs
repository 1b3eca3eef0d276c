//! pzstd files decoded in parallel.
//!
//! `pzstd` (and so Lichess's monthly dumps) writes a file as independent
//! zstd frames, each preceded by a skippable frame of 4 bytes that holds the
//! compressed size of the frame after it. Knowing where each frame starts,
//! several threads can decode frames at once; the reader hands out their
//! bytes in file order, so the result is exactly the stream one decoder
//! would give.
//!
//! The frame table is walked as the frames are handed to the decoders, not
//! up front (a dump of 30 GB has thousands of frames, and reading every
//! header before the first byte is decoded would cost a seek each on a
//! disk). Where the table stops being pzstd's (a plain zstd frame, a size
//! past the end of the file, a size hint that is not the size of the frame
//! after it), the rest of the file is streamed through one decoder, which
//! is what the whole file would have been without this module: so a file
//! never decodes differently, and truncated or corrupt files give the
//! errors they always gave.
//!
//! The hint is only a hint: `zstd -d` skips the skippable frame whatever it
//! holds, so a file whose hint is one byte off (or zero) is a good zstd
//! file. Each frame's size is therefore checked against its block headers
//! (`ZSTD_findFrameCompressedSize`: a walk from header to header, nothing
//! decoded) before the frame is handed to a decoder.

use std::collections::VecDeque;
use std::io::{self, BufRead, Read};
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender, SyncSender};
use std::sync::{Arc, Mutex};

use zstd::zstd_safe::{
    find_frame_compressed_size, get_error_name, DCtx, InBuffer, OutBuffer, ResetDirective,
};

use super::Mapped;

/// Magic of the skippable frame pzstd writes before each zstd frame.
const SKIPPABLE: u32 = 0x184D_2A50;
const ZSTD: u32 = 0xFD2F_B528;
/// Decoded bytes travel from a decoder to the reader in pieces of this size.
const SEGMENT: usize = 1 << 20;
/// How many pieces of one frame may wait decoded: 32 MiB, more than a
/// whole frame of pzstd at its default level (8 MiB) or at level 19
/// (32 MiB). A larger frame is decoded as fast as it is read.
const FRAME_SEGMENTS: usize = 32;

/// The zstd frame that the pzstd header at `pos` announces: its bytes, if
/// the header is pzstd's, the frame lies within `data` and its blocks end
/// where the header says (a wrong hint must not cut a frame).
pub(super) fn frame_at(data: &[u8], pos: usize) -> Option<Range<usize>> {
    let head = data.get(pos..pos.checked_add(16)?)?;
    let word = |i: usize| u32::from_le_bytes([head[i], head[i + 1], head[i + 2], head[i + 3]]);
    if word(0) != SKIPPABLE || word(4) != 4 || word(12) != ZSTD {
        return None;
    }
    let start = pos + 12;
    let end = start.checked_add(word(8) as usize)?;
    if end > data.len() {
        return None;
    }
    let size = find_frame_compressed_size(&data[start..]).ok()?;
    (size == end - start).then_some(start..end)
}

/// Whether `data` begins with at least two frames as pzstd writes them (a
/// single frame gains nothing from more decoders: it is streamed).
pub(super) fn is_pzstd(data: &[u8]) -> bool {
    frame_at(data, 0).is_some_and(|f| frame_at(data, f.end).is_some())
}

/// A frame given to a decoder: its index and bytes, and where its pieces go.
struct Job {
    index: usize,
    range: Range<usize>,
    tx: SyncSender<Piece>,
}

enum Piece {
    Bytes(Vec<u8>),
    End,
    Error(io::Error),
}

/// Buffers for pieces, given back by the reader once copied out: fresh
/// ones would cost a page fault every 4 KiB.
type Pool = Arc<Mutex<Vec<Vec<u8>>>>;

/// The decoded bytes of a pzstd file, in order, decoded by `decoders`
/// threads at most `decoders + 2` frames ahead of the reader.
pub(super) struct Frames {
    map: Arc<Mapped>,
    /// Hands frames to the decoders; dropped (ending them) with `self`.
    jobs: Sender<Job>,
    /// Frames given to decoders and not yet read, in order, with the end of
    /// each frame in the file.
    pending: VecDeque<(Receiver<Piece>, usize)>,
    ahead: usize,
    /// Where the next pzstd header is expected, and that frame's index.
    next: usize,
    index: usize,
    /// The end of the last frame read: the compressed bytes counted.
    counted: usize,
    /// The header at `next` is not pzstd's: the rest is streamed.
    walked: bool,
    tail: Option<Box<dyn Read + Send>>,
    piece: Vec<u8>,
    pos: usize,
    pool: Pool,
    read: Arc<AtomicU64>,
    failed: Option<(io::ErrorKind, String)>,
    /// The decoders, joined when `self` is dropped.
    decoders: Vec<std::thread::JoinHandle<()>>,
}

/// The decoders end with the reader, not some time after it: told so (the
/// jobs and the frames' channels closed), each stops within a piece
/// (1 MiB decoded) and is joined, so its decoder context and the map are
/// freed when the reader is. Found by the `frames` fuzz target, whose leak
/// check ran while decoders of the last input were still ending.
impl Drop for Frames {
    fn drop(&mut self) {
        self.pending.clear();
        self.jobs = channel().0;
        for d in self.decoders.drain(..) {
            let _ = d.join();
        }
    }
}

impl Frames {
    /// `map` must satisfy [`is_pzstd`]. `read` counts the compressed bytes
    /// of the frames read so far.
    pub(super) fn new(map: Mapped, decoders: usize, read: Arc<AtomicU64>) -> Frames {
        let map = Arc::new(map);
        let decoders = decoders.max(1);
        let (jobs, rx) = channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        let pool: Pool = Arc::default();
        let mut handles = Vec::with_capacity(decoders);
        for _ in 0..decoders {
            let (map, rx, pool) = (map.clone(), rx.clone(), pool.clone());
            // Should no decoder start, the jobs are dropped and the first
            // read says so.
            if let Ok(h) = std::thread::Builder::new()
                .name("pzstd-decoder".into())
                .spawn(move || decoder(&map, &rx, &pool))
            {
                handles.push(h);
            }
        }
        let mut frames = Frames {
            map,
            jobs,
            pending: VecDeque::new(),
            ahead: decoders + 2,
            next: 0,
            index: 0,
            counted: 0,
            walked: false,
            tail: None,
            piece: Vec::new(),
            pos: 0,
            pool,
            read,
            failed: None,
            decoders: handles,
        };
        frames.dispatch();
        frames
    }

    /// Gives frames to the decoders until `ahead` are pending.
    fn dispatch(&mut self) {
        while !self.walked && self.pending.len() < self.ahead {
            let Some(range) = frame_at(self.map.bytes(), self.next) else {
                self.walked = true;
                break;
            };
            let (tx, rx) = sync_channel(FRAME_SEGMENTS);
            let end = range.end;
            // Should every decoder be gone, the job (and its sender) is
            // dropped and the read below reports it.
            let _ = self.jobs.send(Job {
                index: self.index,
                range,
                tx,
            });
            self.pending.push_back((rx, end));
            self.next = end;
            self.index += 1;
        }
    }

    fn fail(&mut self, e: io::Error) -> io::Error {
        self.failed = Some((e.kind(), e.to_string()));
        self.pending.clear();
        self.tail = None;
        e
    }
}

impl Read for Frames {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some((kind, msg)) = &self.failed {
            return Err(io::Error::new(*kind, msg.clone()));
        }
        loop {
            if self.pos < self.piece.len() {
                let n = buf.len().min(self.piece.len() - self.pos);
                buf[..n].copy_from_slice(&self.piece[self.pos..self.pos + n]);
                self.pos += n;
                return Ok(n);
            }
            if let Some((rx, end)) = self.pending.front() {
                let end = *end;
                match rx.recv() {
                    Ok(Piece::Bytes(bytes)) => {
                        let old = std::mem::replace(&mut self.piece, bytes);
                        self.pos = 0;
                        if old.capacity() > 0 {
                            lock(&self.pool).push(old);
                        }
                    }
                    Ok(Piece::End) => {
                        // the frame and the header before it
                        self.read
                            .fetch_add((end - self.counted) as u64, Ordering::Relaxed);
                        self.counted = end;
                        self.map.release_before(end);
                        self.pending.pop_front();
                        self.dispatch();
                    }
                    Ok(Piece::Error(e)) => return Err(self.fail(e)),
                    Err(_) => {
                        let e = io::Error::other("internal error: a zstd decoder stopped");
                        return Err(self.fail(e));
                    }
                }
                continue;
            }
            if self.next >= self.map.bytes().len() {
                return Ok(0);
            }
            if self.tail.is_none() {
                let rest = Tail {
                    map: self.map.clone(),
                    pos: self.next,
                    read: self.read.clone(),
                };
                self.tail = Some(Box::new(zstd::Decoder::with_buffer(rest)?));
            }
            let tail = self.tail.as_mut().expect("just set");
            return match tail.read(buf) {
                Ok(n) => Ok(n),
                Err(e) => Err(self.fail(e)),
            };
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A decoder thread: takes frames until the reader is gone.
fn decoder(map: &Mapped, jobs: &Mutex<Receiver<Job>>, pool: &Pool) {
    let mut dctx = None;
    loop {
        let job = lock(jobs).recv();
        let Ok(job) = job else { return };
        let dctx = match &mut dctx {
            Some(d) => d,
            None => match DCtx::try_create() {
                Some(d) => dctx.insert(d),
                None => {
                    let _ = job.tx.send(Piece::Error(io::Error::other(
                        "cannot allocate a zstd decoder",
                    )));
                    return;
                }
            },
        };
        if decode(dctx, map.bytes(), &job, pool).is_err() {
            // the reader is gone
            return;
        }
    }
}

/// Decodes one frame into pieces; `Err` when the reader is gone.
fn decode(dctx: &mut DCtx<'_>, data: &[u8], job: &Job, pool: &Pool) -> Result<(), ()> {
    let src = &data[job.range.clone()];
    let fail = |what: &str| {
        Piece::Error(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "zstd frame {} (compressed bytes {}..{}): {what}",
                job.index, job.range.start, job.range.end
            ),
        ))
    };
    let send = |p: Piece| job.tx.send(p).map_err(|_| ());
    if let Err(code) = dctx.reset(ResetDirective::SessionOnly) {
        return send(fail(get_error_name(code)));
    }
    let mut input = InBuffer::around(src);
    loop {
        let mut bytes = lock(pool).pop().unwrap_or_default();
        bytes.clear();
        bytes.reserve(SEGMENT);
        let status = fill(dctx, &mut bytes, &mut input);
        if !bytes.is_empty() {
            send(Piece::Bytes(bytes))?;
        }
        match status {
            Ok(false) => {}
            Ok(true) if input.pos() < src.len() => {
                return send(fail("bytes after the end of the frame"));
            }
            Ok(true) => return send(Piece::End),
            Err(what) => return send(fail(what)),
        }
    }
}

/// Decodes into `bytes` until it is full (`Ok(false)`) or the frame ends
/// (`Ok(true)`).
fn fill(
    dctx: &mut DCtx<'_>,
    bytes: &mut Vec<u8>,
    input: &mut InBuffer<'_>,
) -> Result<bool, &'static str> {
    let mut out = OutBuffer::around(bytes);
    loop {
        if out.pos() == out.capacity() {
            return Ok(false);
        }
        let before = (input.pos(), out.pos());
        match dctx.decompress_stream(&mut out, input) {
            Ok(0) => return Ok(true),
            // Nothing moved with room to write: the frame wants bytes that
            // are not there.
            Ok(_) if (input.pos(), out.pos()) == before => return Err("truncated frame"),
            Ok(_) => {}
            Err(code) => return Err(get_error_name(code)),
        }
    }
}

/// The file from where the pzstd frames stop, for one streaming decoder.
struct Tail {
    map: Arc<Mapped>,
    pos: usize,
    read: Arc<AtomicU64>,
}

impl Read for Tail {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let rest = self.fill_buf()?;
        let n = rest.len().min(buf.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Tail {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        let bytes = self.map.bytes();
        // a block at a time, so that pages can be released behind it
        let end = bytes.len().min(self.pos.saturating_add(1 << 20));
        Ok(&bytes[self.pos..end])
    }

    fn consume(&mut self, n: usize) {
        self.pos += n;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        self.map.release_before(self.pos);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/lichess-2000.pgn");

    /// One zstd frame of `data`: with the decoded size in its header (as
    /// `zstd::bulk` writes it) or without (as pzstd writes it), with a
    /// checksum or not.
    fn frame(data: &[u8], sized: bool, checksum: bool) -> Vec<u8> {
        if sized {
            return zstd::bulk::compress(data, 3).unwrap();
        }
        let mut e = zstd::stream::Encoder::new(Vec::new(), 3).unwrap();
        e.include_checksum(checksum).unwrap();
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn header(frame: &[u8]) -> Vec<u8> {
        let mut h = Vec::new();
        h.extend_from_slice(&SKIPPABLE.to_le_bytes());
        h.extend_from_slice(&4u32.to_le_bytes());
        h.extend_from_slice(&(frame.len() as u32).to_le_bytes());
        h
    }

    /// `data` cut at `cuts`, each piece a frame announced as pzstd does;
    /// also the start of each frame in the file.
    fn pzstd(data: &[u8], cuts: &[usize]) -> (Vec<u8>, Vec<usize>) {
        let mut out = Vec::new();
        let mut starts = Vec::new();
        let mut from = 0;
        for (i, &to) in cuts.iter().chain([&data.len()]).enumerate() {
            let f = frame(&data[from..to], i % 3 == 1, true);
            out.extend_from_slice(&header(&f));
            starts.push(out.len());
            out.extend_from_slice(&f);
            from = to;
        }
        (out, starts)
    }

    /// Everything `Frames` gives for `file`, the error that ended it, and
    /// the compressed bytes it counted.
    fn decode_all(file: &[u8], decoders: usize) -> (Vec<u8>, Option<io::Error>, u64) {
        let mut tmp = tempfile::tempfile().unwrap();
        tmp.write_all(file).unwrap();
        let map = Mapped::new(&tmp).unwrap();
        assert!(is_pzstd(map.bytes()));
        let read = Arc::new(AtomicU64::new(0));
        let mut frames = Frames::new(map, decoders, read.clone());
        let mut out = Vec::new();
        // an odd buffer size, so that reads end inside pieces
        let mut buf = vec![0u8; 77_777];
        let error = loop {
            match frames.read(&mut buf) {
                Ok(0) => break None,
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) => break Some(e),
            }
        };
        if error.is_some() {
            // it stays failed
            assert!(frames.read(&mut buf).is_err());
        }
        (out, error, read.load(Ordering::Relaxed))
    }

    fn sample() -> Vec<u8> {
        std::fs::read(SAMPLE).unwrap()
    }

    #[test]
    fn pzstd_is_two_frames_or_more_that_fit_the_file() {
        let data = sample();
        let (two, starts) = pzstd(&data, &[1000]);
        assert!(is_pzstd(&two));
        let (one, _) = pzstd(&data, &[]);
        assert!(!is_pzstd(&one), "a single frame is streamed");
        assert!(!is_pzstd(&two[..starts[1] + 10]), "second frame cut short");
        assert!(!is_pzstd(&two[12..]), "plain zstd");
        let mut odd = two.clone();
        odd[4] = 8;
        assert!(!is_pzstd(&odd), "skippable frame of another length");
        let mut big = two.clone();
        big[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(!is_pzstd(&big), "a size past the end");
        assert!(!is_pzstd(&[]) && !is_pzstd(&two[..15]));
    }

    #[test]
    fn frames_decode_in_order_to_the_original_bytes() {
        let data = sample();
        // three times the sample, so that frames span several pieces; cut
        // at game starts, inside games, and twice at the same place (an
        // empty frame)
        let data: Vec<u8> = [&data[..], &data[..], &data[..]].concat();
        let game = data[100_000..]
            .windows(3)
            .position(|w| w == b"\n\n[")
            .unwrap()
            + 100_002;
        let cuts = [1, game, game, 300_001, 2_700_000, 2_700_100, data.len() - 5];
        let (file, _) = pzstd(&data, &cuts);
        for decoders in [1, 2, 5] {
            let (out, error, read) = decode_all(&file, decoders);
            assert!(error.is_none(), "{error:?}");
            assert!(out == data, "{decoders} decoders: bytes differ");
            assert_eq!(read, file.len() as u64);
        }
    }

    #[test]
    fn what_follows_the_pzstd_frames_is_streamed() {
        let data = sample();
        let (mut file, _) = pzstd(&data[..500_000], &[200_000]);
        // a plain zstd frame, a skippable frame of another size, another frame
        file.extend_from_slice(&frame(&data[500_000..700_000], false, false));
        file.extend_from_slice(&SKIPPABLE.to_le_bytes());
        file.extend_from_slice(&3u32.to_le_bytes());
        file.extend_from_slice(b"abc");
        file.extend_from_slice(&frame(&data[700_000..], true, false));
        let (out, error, read) = decode_all(&file, 2);
        assert!(error.is_none(), "{error:?}");
        assert!(out == data);
        assert_eq!(read, file.len() as u64);
    }

    #[test]
    fn a_truncated_file_ends_as_one_decoder_would_end_it() {
        let data = sample();
        let (file, starts) = pzstd(&data, &[300_000, 600_000]);
        let cut = &file[..starts[2] + (file.len() - starts[2]) / 2];
        let (out, error, _) = decode_all(cut, 2);
        assert!(error.is_some());
        let mut streamed = Vec::new();
        let plain = zstd::Decoder::new(cut).unwrap().read_to_end(&mut streamed);
        assert!(plain.is_err());
        assert!(out.len() > 600_000 && out == streamed);
    }

    #[test]
    fn a_corrupt_frame_is_an_error_after_the_frames_before_it() {
        let data = sample();
        let cuts = [200_000, 400_000, 600_000];
        let (mut file, starts) = pzstd(&data, &cuts);
        // the middle of frame 2
        let mid = (starts[2] + starts[3]) / 2;
        for b in &mut file[mid..mid + 64] {
            *b ^= 0x5a;
        }
        for decoders in [1, 3] {
            let (out, error, read) = decode_all(&file, decoders);
            let error = error.expect("an error");
            assert!(error.to_string().contains("zstd frame 2"), "{error}");
            assert!(out.len() >= 400_000 && out.len() < 600_000, "{}", out.len());
            assert!(out[..400_000] == data[..400_000]);
            assert_eq!(read, (starts[2] - 12) as u64, "frames 0 and 1 counted");
        }
    }

    /// A hint one byte off or zero, past the first frames, is
    /// not a truncated frame: from it on the frames are streamed.
    #[test]
    fn a_wrong_size_hint_streams_the_frames_from_it() {
        let data = sample();
        let (good, starts) = pzstd(&data, &[200_000, 400_000, 600_000]);
        for hint in [1i64, -1, 0] {
            let mut file = good.clone();
            let at = starts[2] - 4;
            let size = (starts[3] - 12 - starts[2]) as i64;
            let wrong = if hint == 0 { 0 } else { size + hint } as u32;
            file[at..at + 4].copy_from_slice(&wrong.to_le_bytes());
            for decoders in [1, 3] {
                let (out, error, read) = decode_all(&file, decoders);
                assert!(error.is_none(), "{hint}: {error:?}");
                assert!(out == data, "{hint}: bytes differ");
                assert_eq!(read, file.len() as u64);
            }
        }
    }

    #[test]
    fn dropping_the_reader_early_stops_the_decoders() {
        let data = sample();
        let data: Vec<u8> = [&data[..], &data[..], &data[..]].concat();
        let cuts: Vec<usize> = (1..40).map(|i| i * 70_000).collect();
        let (file, _) = pzstd(&data, &cuts);
        let mut tmp = tempfile::tempfile().unwrap();
        tmp.write_all(&file).unwrap();
        let map = Mapped::new(&tmp).unwrap();
        let read = Arc::new(AtomicU64::new(0));
        let mut frames = Frames::new(map, 2, read);
        let mut buf = [0u8; 1000];
        frames.read_exact(&mut buf).unwrap();
        let map = Arc::downgrade(&frames.map);
        drop(frames);
        // the decoders held the map: joined on drop, they have ended
        assert_eq!(map.strong_count(), 0, "the decoders ended with the reader");
    }
}
