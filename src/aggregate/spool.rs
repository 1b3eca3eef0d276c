//! The games packed for merging, on disk while the run goes on and read
//! back at its end in bounded memory: the file beside an aggregate
//! (`AGG.json.ids`, [`super::sidecar`]'s format), or a temporary file
//! where no aggregate is written.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use super::packed::{unpacked_from, Unpacked};

/// The first line of a file of games for merging.
pub(super) const MAGIC: &[u8] = b"pgn-arbiter ids 3\n";

/// The games for merging written to the file beside an aggregate while
/// the run goes on ([`super::Aggregator::with_output_name`]), so that
/// memory does not grow with them: per input its header with its games'
/// length left open, the games as they come, the length written last.
pub(super) struct IdsWriter {
    out: BufWriter<File>,
    path: PathBuf,
    /// Where the current input's games' length goes, and their length.
    open: Option<(u64, u64)>,
    /// Bytes written so far.
    at: u64,
}

impl IdsWriter {
    /// Creates the file `path`.
    pub(super) fn create(path: &Path) -> io::Result<IdsWriter> {
        let named = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
        let mut out = BufWriter::with_capacity(1 << 20, File::create(path).map_err(named)?);
        out.write_all(MAGIC).map_err(named)?;
        Ok(IdsWriter {
            out,
            path: path.to_path_buf(),
            open: None,
            at: MAGIC.len() as u64,
        })
    }

    /// Creates the temporary file `path` and, on Unix, removes its name
    /// at once: the file lives while it is open, and nothing is left
    /// behind however the process ends ([`IdsWriter::into_reader`] reads
    /// it back).
    pub(super) fn create_temporary(path: &Path) -> io::Result<IdsWriter> {
        let named = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(named)?;
        #[cfg(unix)]
        std::fs::remove_file(path).map_err(named)?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        out.write_all(MAGIC).map_err(named)?;
        Ok(IdsWriter {
            out,
            path: path.to_path_buf(),
            open: None,
            at: MAGIC.len() as u64,
        })
    }

    /// The file written.
    pub(super) fn path(&self) -> &Path {
        &self.path
    }

    /// Everything written, to read back from its start (a file made by
    /// [`IdsWriter::create_temporary`]).
    pub(super) fn into_reader(mut self) -> io::Result<File> {
        use std::io::{Seek, SeekFrom};
        self.finish()?;
        let path = self.path.clone();
        let named = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
        let mut file = self.out.into_inner().map_err(|e| named(e.into_error()))?;
        file.seek(SeekFrom::Start(0)).map_err(named)?;
        Ok(file)
    }

    fn named(&self, e: io::Error) -> io::Error {
        io::Error::new(e.kind(), format!("{}: {e}", self.path.display()))
    }

    /// An input named `file` starts (the previous one ends).
    pub(super) fn begin_input(&mut self, file: &str) -> io::Result<()> {
        self.end_input()?;
        let mut head = Vec::with_capacity(12 + file.len());
        head.extend_from_slice(&(file.len() as u32).to_le_bytes());
        head.extend_from_slice(file.as_bytes());
        let len_at = self.at + head.len() as u64;
        head.extend_from_slice(&0u64.to_le_bytes());
        self.out.write_all(&head).map_err(|e| self.named(e))?;
        self.at += head.len() as u64;
        self.open = Some((len_at, 0));
        Ok(())
    }

    /// More games of the current input, packed.
    pub(super) fn write(&mut self, games: &[u8]) -> io::Result<()> {
        self.out.write_all(games).map_err(|e| self.named(e))?;
        self.at += games.len() as u64;
        if let Some((_, len)) = &mut self.open {
            *len += games.len() as u64;
        }
        Ok(())
    }

    /// The current input ends: its games' length is written.
    pub(super) fn end_input(&mut self) -> io::Result<()> {
        use std::io::{Seek, SeekFrom};
        let Some((len_at, len)) = self.open.take() else {
            return Ok(());
        };
        let patch = |out: &mut BufWriter<File>| -> io::Result<()> {
            out.seek(SeekFrom::Start(len_at))?;
            out.write_all(&len.to_le_bytes())?;
            out.seek(SeekFrom::End(0))?;
            Ok(())
        };
        patch(&mut self.out).map_err(|e| self.named(e))
    }

    /// The last input ends; everything is on disk.
    pub(super) fn finish(&mut self) -> io::Result<()> {
        self.end_input()?;
        self.out.flush().map_err(|e| self.named(e))
    }
}

/// The inputs of a file of games for merging, header by header: the one
/// reader of the format's framing, for [`read_spool`] and
/// [`super::read_ids`] (each names what is wrong in its own words).
pub(super) struct Inputs<R> {
    r: R,
}

/// What is wrong with a file of games for merging.
pub(super) enum Framing {
    /// Shorter than its first line.
    TooShort,
    /// Another first line.
    OtherFormat,
    /// It ends inside an input's header.
    CutShort,
    Io(io::Error),
}

impl<R: Read> Inputs<R> {
    /// Checks the first line of `r`.
    pub(super) fn open(mut r: R) -> Result<Inputs<R>, Framing> {
        let mut magic = vec![0; MAGIC.len()];
        r.read_exact(&mut magic).map_err(|_| Framing::TooShort)?;
        if magic != MAGIC {
            return Err(Framing::OtherFormat);
        }
        Ok(Inputs { r })
    }

    /// The next input's name and its games' length in bytes (the games
    /// follow, to read from [`Inputs::games`]); `None` at the end.
    pub(super) fn next_input(&mut self) -> Result<Option<(Vec<u8>, u64)>, Framing> {
        let mut len = [0u8; 4];
        if self.r.read(&mut len[..1]).map_err(Framing::Io)? == 0 {
            return Ok(None);
        }
        let cut = |_| Framing::CutShort;
        self.r.read_exact(&mut len[1..]).map_err(cut)?;
        let mut name = vec![0; u32::from_le_bytes(len) as usize];
        self.r.read_exact(&mut name).map_err(cut)?;
        let mut n = [0u8; 8];
        self.r.read_exact(&mut n).map_err(cut)?;
        Ok(Some((name, u64::from_le_bytes(n))))
    }

    /// Where the current input's games are read.
    pub(super) fn games(&mut self) -> &mut R {
        &mut self.r
    }
}

/// What [`read_spool`] meets, in order.
pub(super) enum Spooled<'a> {
    /// An input starts, named so.
    Input(&'a str),
    /// A game of the current input.
    Game(&'a Unpacked<'a>),
}

/// Bytes of packed games held at a time while reading back.
const READ_BYTES: usize = 4 << 20;

/// Reads the file of games `path` ([`IdsWriter`]'s) back, input by input
/// and game by game, holding [`READ_BYTES`] of it at a time; errors name
/// the file.
pub(super) fn read_spool(path: &Path, visit: impl FnMut(Spooled<'_>)) -> io::Result<()> {
    let file = File::open(path)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
    read_spool_from(file, path, visit)
}

/// [`read_spool`] from the open `file`, named `path`.
pub(super) fn read_spool_from(
    file: File,
    path: &Path,
    mut visit: impl FnMut(Spooled<'_>),
) -> io::Result<()> {
    let bad = |what: &str| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{}: games for merging {what}", path.display()),
        )
    };
    let framing = |f: Framing| match f {
        Framing::TooShort => bad("too short"),
        Framing::OtherFormat => bad("of another format"),
        Framing::CutShort => bad("cut short"),
        Framing::Io(e) => e,
    };
    let mut inputs = Inputs::open(BufReader::with_capacity(1 << 16, file)).map_err(framing)?;
    let mut buf = Vec::new();
    while let Some((name, mut left)) = inputs.next_input().map_err(framing)? {
        let r = inputs.games();
        visit(Spooled::Input(&String::from_utf8_lossy(&name)));
        buf.clear();
        let mut game = 0u64;
        while left > 0 || !buf.is_empty() {
            // fill the buffer (twice as large where one game does not fit)
            let room = READ_BYTES.max(buf.len() * 2) - buf.len();
            let take = left.min(room as u64);
            let at = buf.len();
            buf.resize(at + take as usize, 0);
            r.read_exact(&mut buf[at..]).map_err(|_| bad("cut short"))?;
            left -= take;
            let mut used = 0;
            for g in unpacked_from(&buf, game) {
                used = g.bytes.as_ptr() as usize + g.bytes.len() - buf.as_ptr() as usize;
                game = g.game;
                visit(Spooled::Game(&g));
            }
            if used == 0 && left == 0 {
                return Err(bad("that do not read back"));
            }
            buf.drain(..used);
        }
    }
    Ok(())
}
