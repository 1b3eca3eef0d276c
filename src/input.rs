//! Opening inputs: files (memory-mapped), `.zst` files and stdin
//! (streamed; pzstd files decoded by several threads, see `input/frames.rs`),
//! directories (walked for `*.pgn` and `*.pgn.zst`). A stream is read
//! ahead of the workers by a thread of its own (`input/reader.rs`).

#[cfg(feature = "arrow")]
pub mod columns;
mod frames;
mod joined;
#[cfg(feature = "parquet")]
pub mod parquet;
pub mod parts;
pub(crate) mod reader;
pub mod rows;

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

use memmap2::Mmap;

/// An input as the user named it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputPath {
    /// A file (plain PGN or zstd-compressed).
    File(PathBuf),
    /// Standard input (`-`).
    Stdin,
}

/// An input and the name reports give it (the path as the user gave it,
/// or as found in a directory given; `-` for stdin).
#[derive(Debug, Clone)]
pub struct NamedInput {
    /// The name reports give the input.
    pub name: String,
    /// Where its bytes come from.
    pub path: InputPath,
}

/// Expands the user's arguments: directories recursively (`*.pgn`,
/// `*.pgn.zst`, sorted by path), `-` as stdin. Paths that do not exist are
/// returned as errors, the rest goes on.
/// The inputs named by `args` (directories searched), and for each path
/// that cannot be read, the path and why.
/// A path need not be UTF-8: it is opened as given and named lossily.
pub fn expand<P: AsRef<std::ffi::OsStr>>(args: &[P]) -> (Vec<NamedInput>, Vec<(String, String)>) {
    let mut inputs = Vec::new();
    let mut errors = Vec::new();
    for arg in args {
        let path = Path::new(arg.as_ref());
        let arg = path.to_string_lossy().into_owned();
        if path.as_os_str() == "-" {
            inputs.push(NamedInput {
                name: "-".to_string(),
                path: InputPath::Stdin,
            });
            continue;
        }
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => {
                let mut found = Vec::new();
                let mut ignored = 0;
                if let Err(e) = walk(path, &mut found, &mut ignored, &mut errors) {
                    errors.push((arg.clone(), e.to_string()));
                } else if found.is_empty() {
                    // Said, not silently a run of nothing.
                    errors.push((
                        arg.clone(),
                        format!(
                            "no {} file in this directory ({} ignored)",
                            WANTED_NAMES,
                            crate::text::count(ignored as u64, "other file", "other files")
                        ),
                    ));
                }
                found.sort();
                inputs.extend(found.into_iter().map(|p| NamedInput {
                    name: p.to_string_lossy().into_owned(),
                    path: InputPath::File(p),
                }));
            }
            Ok(_) => inputs.push(NamedInput {
                name: arg.clone(),
                path: InputPath::File(path.to_path_buf()),
            }),
            Err(e) => errors.push((arg.clone(), e.to_string())),
        }
    }
    (inputs, errors)
}

/// Collects the `*.pgn` and `*.pgn.zst` files under `dir`. A matching name
/// that is not a regular file (a FIFO, a socket, a device: reading it could
/// wait forever) is named in `skipped` and not read.
fn walk(
    dir: &Path,
    out: &mut Vec<PathBuf>,
    ignored: &mut usize,
    skipped: &mut Vec<(String, String)>,
) -> io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let ty = entry.file_type()?;
        if ty.is_dir() {
            walk(&path, out, ignored, skipped)?;
        } else {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if wanted(&name) {
                // follows symbolic links
                match std::fs::metadata(&path) {
                    Ok(m) if m.is_file() => out.push(path),
                    Ok(_) => skipped.push((
                        path.to_string_lossy().into_owned(),
                        "not a regular file (a FIFO, socket or device found in a directory): skipped; name it alone to read it as a stream".into(),
                    )),
                    Err(e) => skipped.push((path.to_string_lossy().into_owned(), e.to_string())),
                }
            } else {
                *ignored += 1;
            }
        }
    }
    Ok(())
}

/// What a directory walk looks for, as people write it.
const WANTED_NAMES: &str = if cfg!(feature = "parquet") {
    "*.pgn, *.pgn.zst or *.parquet"
} else {
    "*.pgn or *.pgn.zst"
};

/// A file a directory walk reads: `*.pgn`, `*.pgn.zst` and, with the
/// `parquet` feature, `*.parquet`, in any case.
fn wanted(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    name.ends_with(".pgn")
        || name.ends_with(".pgn.zst")
        || (cfg!(feature = "parquet") && name.ends_with(".parquet"))
}

/// What compressed input pgn-arbiter does not read, by its magic bytes:
/// the format and the tool that decompresses it.
fn foreign_compression(head: &[u8]) -> Option<(&'static str, &'static str)> {
    if head.starts_with(&[0x1f, 0x8b]) {
        Some(("gzip", "gzip -dc"))
    } else if head.starts_with(b"BZh") && head.get(3).is_some_and(|b| (b'1'..=b'9').contains(b)) {
        Some(("bzip2", "bzip2 -dc"))
    } else if head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0]) {
        Some(("xz", "xz -dc"))
    } else {
        None
    }
}

/// Text saved as UTF-16 (as Windows tools may save it), by its first
/// bytes: a byte-order mark (`FF FE` little-endian, `FE FF` big-endian),
/// or a NUL in every other byte of at least two characters with none in
/// the bytes between (ASCII text in UTF-16). Its error, which says how to
/// convert it; `None` for anything else (UTF-8 never holds `FE` or `FF`).
fn utf16(head: &[u8]) -> Option<io::Error> {
    let pairs = || head[..head.len() / 2 * 2].chunks_exact(2);
    let from = if head.starts_with(&[0xff, 0xfe]) || head.starts_with(&[0xfe, 0xff]) {
        "UTF-16"
    } else if head.len() >= 4 && pairs().all(|p| p[0] != 0 && p[1] == 0) {
        "UTF-16LE"
    } else if head.len() >= 4 && pairs().all(|p| p[0] == 0 && p[1] != 0) {
        "UTF-16BE"
    } else {
        return None;
    };
    let how = if from == "UTF-16" {
        "it starts with a UTF-16 byte-order mark"
    } else {
        "a NUL in every other byte"
    };
    Some(io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "looks like UTF-16 text ({how}); PGN is read as UTF-8: convert it first, e.g. iconv -f {from} -t UTF-8 FILE > FILE-utf8.pgn"
        ),
    ))
}

/// The first bytes of a Parquet file.
const PARQUET_MAGIC: &[u8] = b"PAR1";

/// A Parquet file's rows as a stream of PGN games (see `input/parquet.rs`).
#[cfg(feature = "parquet")]
fn open_parquet(path: &Path, read: Arc<AtomicU64>) -> io::Result<Source> {
    Ok(Source::Stream(Box::new(parquet::open(path, read)?)))
}

#[cfg(not(feature = "parquet"))]
fn open_parquet(_path: &Path, _read: Arc<AtomicU64>) -> io::Result<Source> {
    Err(io::Error::new(
        io::ErrorKind::InvalidData,
        "a Parquet file: this pgn-arbiter was built without Parquet (build it with `--features parquet`)",
    ))
}

/// The error for input compressed otherwise than with zstd.
fn refuse((format, tool): (&str, &str)) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "{format}-compressed input is not read (plain PGN and zstd are): decompress it first, e.g. {tool} FILE | pgn-arbiter audit -"
        ),
    )
}

/// The bytes of an input: mapped whole, or a stream of uncompressed bytes.
pub enum Source {
    /// A plain file, memory-mapped.
    Mapped(Mapped),
    /// An empty file (which cannot be mapped).
    Empty,
    /// Uncompressed bytes read in order: stdin, a reader, or a decoded
    /// `.zst` file.
    Stream(Box<dyn Read + Send>),
}

/// Counts the bytes read from the underlying file (compressed bytes for a
/// `.zst`), for the progress bar.
pub struct Counting<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Whether bytes start a zstd stream: a zstd frame or a skippable frame
/// (pzstd writes one first).
pub fn is_zstd(head: &[u8]) -> bool {
    if head.len() < 4 {
        return false;
    }
    let magic = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
    magic == 0xFD2F_B528 || (magic & 0xFFFF_FFF0) == 0x184D_2A50
}

/// Whether 1 to 3 bytes are the start of a zstd magic number (a frame's or
/// a skippable frame's).
fn magic_prefix(head: &[u8]) -> bool {
    const FRAME: [u8; 4] = 0xFD2F_B528u32.to_le_bytes();
    const SKIPPABLE: [u8; 4] = 0x184D_2A50u32.to_le_bytes();
    (1..=3).contains(&head.len())
        && (FRAME.starts_with(head)
            || (head[0] & 0xF0 == 0x50 && SKIPPABLE[1..].starts_with(&head[1..])))
}

/// An input of 1 to 3 bytes that is a zstd file cut short (it
/// was read as text): the start of a magic number, and named `.zst` or
/// two bytes of a frame's magic or more (0xB5 after `(` is not text). Its
/// error; zstd itself says no more ("unexpected end of file").
fn cut_zstd(whole: &[u8], named_zst: bool) -> Option<io::Error> {
    let frame = whole.len() >= 2 && 0xFD2F_B528u32.to_le_bytes().starts_with(whole);
    (magic_prefix(whole) && (named_zst || frame)).then(|| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "a zstd file too short to hold a frame: its {} byte{} only begin zstd's 4-byte magic number (cut short?); nothing was decompressed",
                whole.len(),
                if whole.len() == 1 { "" } else { "s" }
            ),
        )
    })
}

/// Whether a path's name ends in `.zst` (in any case).
fn named_zst(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("zst"))
}

/// Opens an input. `.zst` is recognised by its magic bytes, whatever its
/// name; a pzstd file (several frames, each announced by its size) is
/// decoded by `decoders` threads. `read` counts the bytes taken from the
/// file or stdin.
pub fn open(input: &InputPath, read: Arc<AtomicU64>, decoders: usize) -> io::Result<Source> {
    match input {
        InputPath::Stdin => {
            let stdin = Counting {
                inner: io::stdin(),
                count: read,
            };
            stream(BufReader::with_capacity(1 << 20, stdin))
        }
        InputPath::File(path) => {
            let mut file = File::open(path)?;
            let meta = file.metadata()?;
            if !meta.is_file() {
                // a pipe, FIFO or device named as a path (`/dev/stdin`,
                // `<(zstd -c a.pgn)`): read once, as a stream, never re-opened
                let counted = Counting {
                    inner: file,
                    count: read,
                };
                return stream(BufReader::with_capacity(1 << 20, counted));
            }
            let len = meta.len();
            let mut head = [0u8; 6];
            let n = read_up_to(&mut file, &mut head)?;
            if let Some(kind) = foreign_compression(&head[..n]) {
                return Err(refuse(kind));
            }
            if let Some(e) = utf16(&head[..n]) {
                return Err(e);
            }
            if head[..n].starts_with(PARQUET_MAGIC) {
                return open_parquet(path, read);
            }
            if len == n as u64 {
                if let Some(e) = cut_zstd(&head[..n], named_zst(path)) {
                    return Err(e);
                }
            }
            if is_zstd(&head[..n]) {
                if head[..n.min(4)] == 0x184D_2A50u32.to_le_bytes() {
                    if let Some(map) = map_file(&file) {
                        if frames::is_pzstd(map.bytes()) {
                            // more decoders than cores would only hold more frames
                            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
                            let frames = frames::Frames::new(map, decoders.min(cores), read);
                            return Ok(Source::Stream(Box::new(LineEnds::new(frames))));
                        }
                    }
                }
                let file = File::open(path)?;
                let counted = Counting {
                    inner: file,
                    count: read,
                };
                let decoder = zstd::Decoder::new(counted)?;
                return Ok(Source::Stream(Box::new(LineEnds::new(decoder))));
            }
            if len == 0 {
                return Ok(Source::Empty);
            }
            let mapped = Mapped::new(&file)?;
            if lone_cr(mapped.bytes()) {
                let file = File::open(path)?;
                return Ok(Source::Stream(Box::new(LineEnds::new(file))));
            }
            Ok(Source::Mapped(mapped))
        }
    }
}

/// Any reader as an input: streamed, zstd recognised by its magic bytes.
pub fn open_reader(reader: Box<dyn Read + Send>, read: Arc<AtomicU64>) -> io::Result<Source> {
    let counted = Counting {
        inner: reader,
        count: read,
    };
    stream(BufReader::with_capacity(1 << 20, counted))
}

/// A mapped compressed file, or `None` (then it is streamed) if it cannot
/// be mapped.
fn map_file(file: &File) -> Option<Mapped> {
    match file.metadata() {
        Ok(m) if m.len() > 0 => Mapped::new(file).ok(),
        _ => None,
    }
}

/// A memory-mapped file whose pages are given back once read, so that the
/// resident memory of a run does not grow with the size of the file.
pub struct Mapped {
    map: Mmap,
    released: AtomicUsize,
}

impl AsRef<[u8]> for Mapped {
    fn as_ref(&self) -> &[u8] {
        &self.map
    }
}

impl Mapped {
    /// The pages are given back this many bytes at a time, so a run holds
    /// at most this much of the file besides what it reads. Asking after
    /// every chunk (every 128 KiB at one thread) cost 2 to 4 % of the CPU
    /// time of a file of a few MB; a file smaller than this is
    /// never asked, its pages go with the mapping.
    const STEP: usize = 4 << 20;

    fn new(file: &File) -> io::Result<Mapped> {
        // SAFETY: the map is read-only and lives as long as the run
        // reads it. If another process truncates the file meanwhile,
        // reads past the new end fault (SIGBUS); that is the accepted
        // risk of every memory-mapped reader (ripgrep's too), and the
        // user can avoid it by streaming through stdin.
        let map = unsafe { Mmap::map(file)? };
        // Only a hint: read ahead, the file is read once from start to end.
        let _ = map.advise(memmap2::Advice::Sequential);
        Ok(Mapped {
            map,
            released: AtomicUsize::new(0),
        })
    }

    /// The whole file.
    pub fn bytes(&self) -> &[u8] {
        &self.map
    }

    /// The bytes before `pos` will not be read again: drop their pages
    /// from this process (the page cache keeps them), `STEP` (4 MiB)
    /// bytes or more at a time.
    pub fn release_before(&self, pos: usize) {
        const PAGE: usize = 4096;
        let end = pos / PAGE * PAGE;
        let released = self.released.load(Ordering::Relaxed);
        if end >= released + Self::STEP {
            // SAFETY: MADV_DONTNEED on a read-only, private file mapping only
            // drops this process's copies of the pages; were they read again
            // they would be read back from the file, unchanged. Nothing holds
            // a slice into the released range: regions before `pos` have
            // been audited and their reports own their data (of a
            // compressed file: the frames before it have been decoded).
            let _ = unsafe {
                self.map.unchecked_advise_range(
                    memmap2::UncheckedAdvice::DontNeed,
                    released,
                    end - released,
                )
            };
            self.released.store(end, Ordering::Relaxed);
        }
    }
}

/// A stream, known by its first bytes: zstd, or plain text (which ends
/// where zstd's magic number is found in it, see `input/joined.rs`).
fn stream<R: BufRead + Send + 'static>(mut r: R) -> io::Result<Source> {
    // The first bytes whole: a pipe may give fewer at first than a magic
    // number holds.
    let mut first = [0u8; 6];
    let n = read_up_to(&mut r, &mut first)?;
    let head = &first[..n];
    let r = io::Cursor::new(head.to_vec()).chain(r);
    if n < first.len() {
        if let Some(e) = cut_zstd(head, false) {
            return Err(e);
        }
    }
    if let Some(kind) = foreign_compression(head) {
        return Err(refuse(kind));
    }
    if let Some(e) = utf16(head) {
        return Err(e);
    }
    if head.starts_with(PARQUET_MAGIC) {
        // Its footer is at the end: it must be a file that can seek.
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "Parquet is read from a file named as a path, not from a stream",
        ));
    }
    if is_zstd(head) {
        let decoder = zstd::Decoder::with_buffer(r)?;
        Ok(Source::Stream(Box::new(LineEnds::new(decoder))))
    } else {
        let text = joined::StopAtZstd::new(r);
        Ok(Source::Stream(Box::new(LineEnds::new(text))))
    }
}

/// Old Mac files end their lines with a lone CR: read as such when the
/// first 64 KiB hold a CR and no LF at all (a file that mixes the two is
/// read as it is).
fn lone_cr(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(1 << 16)];
    memchr::memchr(b'\n', head).is_none() && memchr::memchr(b'\r', head).is_some()
}

/// A stream whose line ends are read as [`lone_cr`] decides from its
/// first 64 KiB: CRs become LFs in a file of old Mac line ends, nothing
/// changes otherwise.
struct LineEnds<R> {
    inner: R,
    /// The first bytes, read to decide; served first.
    head: Vec<u8>,
    at: usize,
    decided: bool,
    cr: bool,
    /// The read error that ended `head`, returned once it is served.
    error: Option<io::Error>,
}

impl<R: Read> LineEnds<R> {
    fn new(inner: R) -> LineEnds<R> {
        LineEnds {
            inner,
            head: Vec::new(),
            at: 0,
            decided: false,
            cr: false,
            error: None,
        }
    }

    fn decide(&mut self) -> io::Result<()> {
        let mut chunk = [0u8; 8192];
        while self.head.len() < 1 << 16 {
            match self.inner.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => self.head.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if self.head.is_empty() => return Err(e),
                // the bytes before the error are served first
                Err(e) => {
                    self.error = Some(e);
                    break;
                }
            }
        }
        self.cr = lone_cr(&self.head);
        self.decided = true;
        Ok(())
    }
}

impl<R: Read> Read for LineEnds<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if !self.decided {
            self.decide()?;
        }
        let n = if self.at < self.head.len() {
            let n = buf.len().min(self.head.len() - self.at);
            buf[..n].copy_from_slice(&self.head[self.at..self.at + n]);
            self.at += n;
            if self.at == self.head.len() {
                self.head = Vec::new();
                self.at = 0;
            }
            n
        } else if let Some(e) = self.error.take() {
            return Err(e);
        } else {
            self.inner.read(buf)?
        };
        if self.cr {
            for b in &mut buf[..n] {
                if *b == b'\r' {
                    *b = b'\n';
                }
            }
        }
        Ok(n)
    }
}

fn read_up_to(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Reads once (up to `want` bytes, appending): what the source has now;
/// 0 only at the end of the stream.
pub fn read_some(r: &mut dyn Read, buf: &mut Vec<u8>, want: usize) -> io::Result<usize> {
    let start = buf.len();
    buf.resize(start + want, 0);
    loop {
        match r.read(&mut buf[start..]) {
            Ok(k) => {
                buf.truncate(start + k);
                return Ok(k);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                buf.truncate(start);
                return Err(e);
            }
        }
    }
}

/// The length of a UTF-8 byte order mark at the start of `data` (0 or 3):
/// it is not read as part of the first game.
pub(crate) fn bom_len(data: &[u8]) -> usize {
    if data.starts_with(b"\xef\xbb\xbf") {
        3
    } else {
        0
    }
}
