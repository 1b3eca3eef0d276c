//! Cutting the work: chunks of an input cut at game boundaries, from a
//! mapped file or from the regions of the reader thread; and gluing, when a
//! cut proves wrong, the game left open to the chunk after it.
//!
//! A chunk boundary is a `[` at the start of a line after a blank line. It
//! can be wrong: a comment may hold a blank line and a `[`, and a blank line
//! inside a tag section does not always end it. Every chunk is split on the
//! guess that its boundary is right; then, in order, the splitter's state at
//! the end of the previous chunk says whether it was (see
//! [`split::cut_is_sound`]). When it was not, the game left open there is
//! split and audited again together with the next chunk.

use std::io::Read;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::Arc;

use super::worker::{audit_piece, newlines, Piece, Settings};
use crate::input::reader::{self, Region};
use crate::input::{self, bom_len};
use crate::split::{self, EndState};

/// Bytes shared by the chunks cut from them: a mapped file, or a region of
/// a stream.
type Bytes = Arc<dyn AsRef<[u8]> + Send + Sync>;

/// A stretch of the input: `bytes`, whose first byte is at `base` in the
/// uncompressed input.
#[derive(Clone)]
pub(super) struct Buf {
    bytes: Bytes,
    pub(super) base: u64,
}

impl Buf {
    pub(super) fn get(&self) -> &[u8] {
        (*self.bytes).as_ref()
    }
}

/// Where the chunks come from.
pub(super) trait Chunks {
    /// The next chunk, `None` at the end of the input.
    fn next(&mut self, chunk_size: usize) -> Option<(Buf, usize, usize)>;
    /// Bytes before `pos` of `buf` will not be read again.
    fn release(&self, _buf: &Buf, _pos: usize) {}
    /// Input bytes read so far, for the progress bar.
    fn read(&self) -> u64;
    /// The input's size, where it is known before reading (a mapped file).
    fn len(&self) -> Option<usize> {
        None
    }
    /// Why the input ended early, if it did.
    fn error(&mut self) -> Option<String> {
        None
    }
}

/// Chunks of a mapped file.
pub(super) struct MappedChunks {
    map: Arc<input::Mapped>,
    buf: Buf,
    pos: usize,
    /// The file's size.
    len: usize,
}

impl MappedChunks {
    pub(super) fn new(map: input::Mapped) -> Self {
        let map = Arc::new(map);
        let len = map.bytes().len();
        let start = bom_len(map.bytes());
        MappedChunks {
            buf: Buf {
                bytes: map.clone(),
                base: 0,
            },
            map,
            pos: start,
            len,
        }
    }
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

    fn len(&self) -> Option<usize> {
        Some(self.len)
    }
}

/// Chunks of a stream, cut from the regions of the reader thread (see
/// `input/reader.rs`).
pub(super) struct StreamChunks {
    /// Regions from the reader thread, which ends when this is dropped.
    rx: Receiver<Region>,
    /// The current region, how far it has been cut, and where it ends.
    region: Option<(Buf, usize, usize)>,
    /// Uncompressed bytes of the stream, once it has ended.
    total: u64,
    /// Whether the stream has ended (its end, or a read error).
    ended: bool,
    /// Uncompressed bytes cut into chunks so far: all that is judged
    /// when the run stops early (Ctrl-C).
    cut: u64,
    error: Option<String>,
    read: Arc<AtomicU64>,
    interrupt: Option<Arc<AtomicBool>>,
}

/// Whether an interrupt flag is set.
pub(super) fn is_set(flag: &Option<Arc<AtomicBool>>) -> bool {
    flag.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
}

impl StreamChunks {
    pub(super) fn new(
        r: Box<dyn Read + Send>,
        region_size: usize,
        read: Arc<AtomicU64>,
        interrupt: Option<Arc<AtomicBool>>,
    ) -> Self {
        StreamChunks {
            rx: reader::spawn(r, region_size),
            region: None,
            total: 0,
            ended: false,
            cut: 0,
            error: None,
            read,
            interrupt,
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
                        return false;
                    }
                }
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break Err(()),
            }
        };
        match next {
            Ok(Region::Bytes { bytes, base }) => {
                let len = bytes.as_ref().len();
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
                self.ended = true;
                self.error = Some(format!(
                    "read error after {total} uncompressed bytes: {error}; the games before it are counted"
                ));
                false
            }
            Ok(Region::End { total }) => {
                self.total = total;
                self.ended = true;
                false
            }
            Err(_) => false,
        }
    }
}

impl StreamChunks {
    /// The uncompressed bytes of the input that were judged: all of
    /// them once the stream has ended, else (a run stopped early) those
    /// cut into chunks, each of which was audited.
    pub(super) fn judged(&self) -> u64 {
        if self.ended {
            self.total
        } else {
            self.cut
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
                    self.cut = buf.base + stop as u64;
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

/// The last piece handed on: its bytes, where it stood at its end, and the
/// newlines before it and in it.
pub(super) struct Prev {
    pub(super) buf: Buf,
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) end_state: EndState,
    pub(super) lines: u64,
    pub(super) newlines: u64,
}

/// The next piece in input order, once its cut was checked.
pub(super) struct Settled {
    pub(super) buf: Buf,
    pub(super) piece: Piece,
    /// Newlines of the input before the piece.
    pub(super) lines: u64,
    /// The cut was wrong: the piece starts at the game the previous one
    /// left open, whose report must be taken back.
    pub(super) glued: bool,
}

/// Checks the cut between `prev` and the piece of `buf` after it; when it
/// was wrong, splits and audits again, as one, the game left open and the
/// piece (`prev` is then taken: its bytes are not released).
pub(super) fn settle(prev: &mut Option<Prev>, buf: Buf, piece: Piece, laws: &Settings) -> Settled {
    let sound = match prev {
        None => true,
        Some(p) => split::cut_is_sound(&p.end_state, &buf.get()[piece.start..]),
    };
    if sound {
        let lines = prev.as_ref().map_or(0, |p| p.lines + p.newlines);
        return Settled {
            buf,
            piece,
            lines,
            glued: false,
        };
    }
    let p = prev.take().expect("a piece before");
    let open = p.start + p.end_state.open_game_offset().expect("an open game");
    // from its line's start: leading blanks change how a tag line reads
    // (found by the audit_bytes fuzz target)
    let restart = split::line_start_before_blanks(p.buf.get(), p.start, open);
    let lines = p.lines + newlines(&p.buf.get()[p.start..restart]);
    let (buf, piece) = redo(&p.buf, restart, p.end, &buf, piece.start, piece.end, laws);
    Settled {
        buf,
        piece,
        lines,
        glued: true,
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
