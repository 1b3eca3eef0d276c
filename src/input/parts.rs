//! The bytes of one part of an input (`crate::parts`): a byte range of a
//! plain PGN file, a range of pzstd frames, a range of Parquet row groups;
//! and what a plan needs to know of a file to cut it.
//!
//! Every part reads the games that start in it, whole: a part of frames
//! skips the tail of the game the part before it began, and reads on into
//! the frames after its own to finish its last game. Both sides find the
//! cut by one rule, on the same bytes (see `FramePart`), so the parts of
//! a file tile its uncompressed bytes exactly.

use std::io::{self, Read};
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::{frames, lone_cr, Mapped, Source, PARQUET_MAGIC};
use crate::split;

/// Which bytes of a file a part reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PartRange {
    /// The whole file (a file that is not cut: see [`Layout::Whole`]).
    Whole,
    /// Bytes `start..end` of a plain PGN file, both game boundaries (`end`
    /// is the file's size for its last part).
    Bytes {
        /// First byte.
        start: u64,
        /// One past the last byte.
        end: u64,
    },
    /// The pzstd frames whose headers start in `start..end` of the
    /// compressed file (`end` is the file's size for its last part).
    Frames {
        /// Where the first frame's skippable header starts.
        start: u64,
        /// Where the next part's first frame starts.
        end: u64,
    },
    /// Row groups `start..end` of a Parquet file.
    RowGroups {
        /// First row group.
        start: u64,
        /// One past the last.
        end: u64,
    },
}

/// What a plan knows of a file: where it can be cut, and what each piece
/// weighs (bytes on disk).
pub enum Layout {
    /// A plain PGN file, mapped: cut at game boundaries anywhere.
    Plain(Mapped),
    /// A pzstd file: where each frame's header starts (the first at 0; the
    /// last "frame" runs to the end of the file when what follows pzstd's
    /// frames is not announced by a size), and the file's size.
    Frames {
        /// Start of each frame's header.
        starts: Vec<u64>,
        /// The file's size.
        len: u64,
    },
    /// A Parquet file: each row group's compressed size.
    RowGroups(Vec<u64>),
    /// One part only, and why.
    Whole(&'static str),
}

/// How a file can be cut (see [`Layout`]).
pub fn layout(path: &Path) -> io::Result<Layout> {
    let file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Ok(Layout::Whole("not a regular file: read as one stream"));
    }
    if meta.len() == 0 {
        return Ok(Layout::Whole("empty"));
    }
    let map = Mapped::new(&file)?;
    let data = map.bytes();
    if data.starts_with(PARQUET_MAGIC) {
        return row_groups(path);
    }
    if super::is_zstd(data) {
        if !frames::is_pzstd(data) {
            return Ok(Layout::Whole(
                "zstd without pzstd's frame sizes (a single frame): decoded as one stream, one part; recompress it with pzstd to cut it",
            ));
        }
        let mut starts = vec![0u64];
        let mut pos = 0;
        while let Some(frame) = frames::frame_at(data, pos) {
            pos = frame.end;
            if pos >= data.len() {
                break;
            }
            starts.push(pos as u64);
        }
        if lone_cr(&decoded_head(data)) {
            return Ok(Layout::Whole("old Mac line ends (lone CR): one part"));
        }
        return Ok(Layout::Frames {
            starts,
            len: data.len() as u64,
        });
    }
    if super::foreign_compression(data).is_some() {
        return Ok(Layout::Whole("compressed otherwise than with zstd"));
    }
    if super::utf16(&data[..data.len().min(6)]).is_some() {
        return Ok(Layout::Whole("UTF-16 text: one part (which will say so)"));
    }
    if lone_cr(data) {
        return Ok(Layout::Whole("old Mac line ends (lone CR): one part"));
    }
    Ok(Layout::Plain(map))
}

#[cfg(feature = "parquet")]
fn row_groups(path: &Path) -> io::Result<Layout> {
    Ok(Layout::RowGroups(super::parquet::row_group_sizes(path)?))
}

#[cfg(not(feature = "parquet"))]
fn row_groups(_path: &Path) -> io::Result<Layout> {
    Ok(Layout::Whole(
        "Parquet, and this build reads no Parquet: one part (which will say so)",
    ))
}

/// The first 64 KiB the file decodes to, as [`lone_cr`] reads them.
fn decoded_head(data: &[u8]) -> Vec<u8> {
    let mut head = Vec::new();
    if let Ok(d) = zstd::stream::read::Decoder::with_buffer(data) {
        let _ = d.take(1 << 16).read_to_end(&mut head);
    }
    head
}

/// The first line of `bytes` (the line a cut falls on: whether the game
/// before it was complete is judged with it).
fn first_line(bytes: &[u8]) -> Vec<u8> {
    let end = memchr::memchr(b'\n', bytes).map_or(bytes.len(), |i| i + 1);
    bytes[..end].to_vec()
}

/// The line at a part's end, once known: `None` while unknown or when the
/// part ends with its file.
pub type After = Arc<Mutex<Option<Vec<u8>>>>;

/// Opens the bytes of a part of `path`: the source, the newlines it holds
/// (counted as it is read) and the line at its end (see [`After`]).
/// `read` counts the bytes taken from the file, for the progress bar.
pub fn open_part(
    path: &Path,
    range: PartRange,
    read: Arc<AtomicU64>,
    newlines: Arc<AtomicU64>,
) -> io::Result<(Source, After)> {
    let after: After = Arc::default();
    let counted = |r: Box<dyn Read + Send>| {
        Source::Stream(Box::new(Lines {
            inner: r,
            count: newlines.clone(),
        }))
    };
    let source = match range {
        PartRange::Whole => match super::open(&super::InputPath::File(path.into()), read, 1)? {
            Source::Mapped(map) => {
                let n = memchr::memchr_iter(b'\n', map.bytes()).count();
                newlines.fetch_add(n as u64, Ordering::Relaxed);
                Source::Mapped(map)
            }
            Source::Stream(r) => counted(r),
            Source::Empty => Source::Empty,
        },
        PartRange::Bytes { start, end } => {
            let map = Arc::new(Mapped::new(&std::fs::File::open(path)?)?);
            let len = map.bytes().len() as u64;
            if start > end || end > len {
                return Err(bad_range(path, "bytes", start, end, len));
            }
            if end < len {
                *after.lock().expect("not poisoned") =
                    Some(first_line(&map.bytes()[end as usize..]));
            }
            counted(Box::new(Slice {
                map,
                pos: start as usize,
                end: end as usize,
                read,
            }))
        }
        PartRange::Frames { start, end } => {
            let map = Arc::new(Mapped::new(&std::fs::File::open(path)?)?);
            let len = map.bytes().len() as u64;
            if start > end || end > len {
                return Err(bad_range(path, "frames", start, end, len));
            }
            counted(Box::new(FramePart::new(
                map,
                start as usize..end as usize,
                read,
                after.clone(),
            )))
        }
        PartRange::RowGroups { start, end } => row_group_part(path, start..end, read, counted)?,
    };
    Ok((source, after))
}

#[cfg(feature = "parquet")]
fn row_group_part(
    path: &Path,
    groups: Range<u64>,
    read: Arc<AtomicU64>,
    counted: impl Fn(Box<dyn Read + Send>) -> Source,
) -> io::Result<Source> {
    let groups = groups.start as usize..groups.end as usize;
    Ok(counted(Box::new(super::parquet::open_groups(
        path,
        read,
        Some(groups),
    )?)))
}

#[cfg(not(feature = "parquet"))]
fn row_group_part(
    path: &Path,
    _groups: Range<u64>,
    read: Arc<AtomicU64>,
    _counted: impl Fn(Box<dyn Read + Send>) -> Source,
) -> io::Result<Source> {
    super::open(&super::InputPath::File(path.into()), read, 1)
}

fn bad_range(path: &Path, what: &str, start: u64, end: u64, len: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(
            "{}: {what}={start}-{end} does not fit the file ({len} bytes): was it planned on another file?",
            path.display()
        ),
    )
}

/// Counts the newlines read through it: the merge of parts makes each
/// part's `line` numbers global with the newlines of the parts before.
struct Lines {
    inner: Box<dyn Read + Send>,
    count: Arc<AtomicU64>,
}

impl Read for Lines {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        let lines = memchr::memchr_iter(b'\n', &buf[..n]).count();
        self.count.fetch_add(lines as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Bytes `pos..end` of a mapped file.
struct Slice {
    map: Arc<Mapped>,
    pos: usize,
    end: usize,
    read: Arc<AtomicU64>,
}

impl Read for Slice {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(self.end - self.pos);
        buf[..n].copy_from_slice(&self.map.bytes()[self.pos..self.pos + n]);
        self.pos += n;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Finds, in bytes read piece by piece from the start of a frame, the
/// first chunk boundary as [`split::next_boundary`] finds it in the
/// frame's bytes alone (a `[` starting a line after a blank line that
/// follows a newline of the frame): what both parts around a cut compute.
#[derive(Default)]
struct BoundaryScan {
    /// A newline was seen before the current line.
    newline_before: bool,
    /// The current line so far holds only blanks.
    blank: bool,
    /// The last byte was a newline ending a blank line that itself
    /// followed a newline.
    armed: bool,
    /// Bytes scanned so far.
    at: usize,
}

impl BoundaryScan {
    fn new() -> Self {
        BoundaryScan {
            blank: true,
            ..BoundaryScan::default()
        }
    }

    /// The index in `piece` of the boundary, if it is there.
    fn find(&mut self, piece: &[u8]) -> Option<usize> {
        for (i, &b) in piece.iter().enumerate() {
            if self.armed && b == b'[' {
                self.at += i;
                return Some(i);
            }
            if b == b'\n' {
                self.armed = self.newline_before && self.blank;
                self.newline_before = true;
                self.blank = true;
            } else {
                self.armed = false;
                if !split::is_blank(&[b]) {
                    self.blank = false;
                }
            }
        }
        self.at += piece.len();
        None
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Skipping the tail of the game the part before began.
    Skip,
    /// Serving the part's own frames.
    Own,
    /// Reading on, into the frames after the part's own, to the cut.
    Tail,
    Done,
}

/// The uncompressed bytes of a part of a pzstd file. The part begins at the
/// first boundary (see [`BoundaryScan`]) in its frames, each scanned from
/// its own start (the file's first part at the file's start); it ends where
/// the next part with a boundary begins, found by the same scan of the
/// frames after its own. A part whose frames hold no boundary is empty.
struct FramePart {
    map: Arc<Mapped>,
    /// The next frame to decode, and the end of the part's own frames.
    next: usize,
    own_end: usize,
    phase: Phase,
    decoder: Option<zstd::stream::read::Decoder<'static, io::BufReader<Frame>>>,
    scan: BoundaryScan,
    piece: Vec<u8>,
    pos: usize,
    read: Arc<AtomicU64>,
    after: After,
}

/// The compressed bytes of one frame (with its header), read from the map.
struct Frame {
    map: Arc<Mapped>,
    pos: usize,
    end: usize,
}

impl Read for Frame {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(self.end - self.pos);
        buf[..n].copy_from_slice(&self.map.bytes()[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

impl FramePart {
    fn new(map: Arc<Mapped>, own: Range<usize>, read: Arc<AtomicU64>, after: After) -> Self {
        FramePart {
            map,
            next: own.start,
            own_end: own.end,
            phase: if own.start == 0 {
                Phase::Own
            } else {
                Phase::Skip
            },
            decoder: None,
            scan: BoundaryScan::new(),
            piece: Vec::with_capacity(1 << 20),
            pos: 0,
            read,
            after,
        }
    }

    /// Starts decoding the frame at `next`; `false` at the end of the file.
    fn next_frame(&mut self) -> io::Result<bool> {
        let data = self.map.bytes();
        if self.next >= data.len() {
            return Ok(false);
        }
        if self.next >= self.own_end && self.phase != Phase::Tail {
            if self.phase == Phase::Skip {
                return Ok(false);
            }
            self.phase = Phase::Tail;
        }
        // a frame announced by its size, or what follows pzstd's frames
        let end = frames::frame_at(data, self.next).map_or(data.len(), |f| f.end);
        let frame = Frame {
            map: self.map.clone(),
            pos: self.next,
            end,
        };
        self.read
            .fetch_add((end - self.next) as u64, Ordering::Relaxed);
        self.next = end;
        self.decoder = Some(zstd::stream::read::Decoder::new(frame)?);
        self.scan = BoundaryScan::new();
        Ok(true)
    }

    /// Decodes the next piece into `self.piece` (what is to be served of
    /// it from `self.pos`); `false` when the part is over.
    fn refill(&mut self) -> io::Result<bool> {
        loop {
            if self.phase == Phase::Done {
                return Ok(false);
            }
            let Some(decoder) = self.decoder.as_mut() else {
                if !self.next_frame()? {
                    self.phase = Phase::Done;
                    return Ok(false);
                }
                continue;
            };
            self.piece.clear();
            super::read_some(decoder, &mut self.piece, 1 << 20)?;
            if self.piece.is_empty() {
                self.decoder = None;
                continue;
            }
            self.pos = 0;
            match self.phase {
                Phase::Skip => {
                    if let Some(i) = self.scan.find(&self.piece) {
                        self.pos = i;
                        self.phase = Phase::Own;
                        return Ok(true);
                    }
                }
                Phase::Own => return Ok(true),
                Phase::Tail => {
                    if let Some(i) = self.scan.find(&self.piece) {
                        *self.after.lock().expect("not poisoned") =
                            Some(first_line(&self.piece[i..]));
                        self.piece.truncate(i);
                        self.phase = Phase::Done;
                        self.decoder = None;
                    }
                    return Ok(true);
                }
                Phase::Done => return Ok(false),
            }
        }
    }
}

impl Read for FramePart {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.pos >= self.piece.len() {
            if !self.refill()? {
                return Ok(0);
            }
        }
        let n = buf.len().min(self.piece.len() - self.pos);
        buf[..n].copy_from_slice(&self.piece[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::BoundaryScan;
    use crate::split::next_boundary;

    #[test]
    fn the_scan_finds_what_next_boundary_finds_in_any_pieces() {
        let texts: [&[u8]; 7] = [
            b"1-0\n\n[Event \"a\"]\n",
            b"\n[Event \"a\"]\n",
            b"\n\n[a",
            b"x\n \t\n[b\n\n[c",
            b"[a\n\n[b",
            b"1. e4 {\n\n[x} *\n\n\n[y",
            b"no boundary\n[here\n",
        ];
        for text in texts {
            for step in 1..=text.len() {
                let mut scan = BoundaryScan::new();
                let mut found = None;
                for (k, piece) in text.chunks(step).enumerate() {
                    if let Some(i) = scan.find(piece) {
                        found = Some(k * step + i);
                        break;
                    }
                }
                assert_eq!(
                    found,
                    next_boundary(text, 0),
                    "{text:?} in pieces of {step}"
                );
            }
        }
    }
}
