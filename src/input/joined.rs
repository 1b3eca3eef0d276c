//! A plain stream that turns into zstd: `cat a.pgn b.pgn.zst | pgn-arbiter
//! audit -`. The stream is known as plain by its first bytes, so the
//! compressed bytes after them would be read as text: blocks skipped as
//! "text that is no game" and a bogus invalid game where the two meet.
//! [`StopAtZstd`] passes the text on and ends, with an error that says
//! where, at the first zstd magic number (a frame's, or the skippable
//! frame pzstd writes first). Neither can be text: a frame's holds 0xB5
//! after `(`, which UTF-8 never has, and a skippable frame's holds 0x18, a
//! control character.

use std::io::{self, Read};

use memchr::memmem;

/// A zstd frame's magic number as it is in a file.
const FRAME: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];
/// The last three bytes of a skippable frame's magic (0x184D2A5?), whose
/// first byte is 0x50 to 0x5F.
const SKIPPABLE_TAIL: [u8; 3] = [0x2A, 0x4D, 0x18];

/// Where the first zstd magic number starts in `bytes`, if one does.
fn find_magic(bytes: &[u8]) -> Option<usize> {
    let frame = memmem::find(bytes, &FRAME);
    let skippable = memmem::find_iter(bytes, &SKIPPABLE_TAIL)
        .find(|&i| i > 0 && bytes[i - 1] & 0xF0 == 0x50)
        .map(|i| i - 1);
    match (frame, skippable) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// A plain stream that ends with an error at the first zstd magic number
/// in it, after handing on every byte before it.
pub(super) struct StopAtZstd<R> {
    inner: R,
    buf: Vec<u8>,
    /// `buf[start..end]` is read and not yet handed on; no magic number
    /// starts before `clean`.
    start: usize,
    end: usize,
    clean: usize,
    /// The stream's offset of `buf[start]`.
    offset: u64,
    /// A magic number starts at `buf[at]`.
    magic: Option<usize>,
    /// The stream has ended, with `error` if a read failed.
    eof: bool,
    error: Option<io::Error>,
}

impl<R: Read> StopAtZstd<R> {
    pub(super) fn new(inner: R) -> Self {
        StopAtZstd {
            inner,
            buf: vec![0; 1 << 16],
            start: 0,
            end: 0,
            clean: 0,
            offset: 0,
            magic: None,
            eof: false,
            error: None,
        }
    }

    /// Looks for a magic number in what was read and not yet looked at:
    /// sets `clean` (and `magic` when one is found).
    fn scan(&mut self) {
        if self.magic.is_some() {
            return;
        }
        let from = self.clean.max(self.start);
        if let Some(i) = find_magic(&self.buf[from..self.end]) {
            self.magic = Some(from + i);
            self.clean = from + i;
        } else if self.eof {
            self.clean = self.end;
        } else {
            // a magic number may start in the last three bytes
            self.clean = self.end.saturating_sub(3).max(from);
        }
    }
}

impl<R: Read> Read for StopAtZstd<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        loop {
            if self.clean > self.start {
                let n = out.len().min(self.clean - self.start);
                out[..n].copy_from_slice(&self.buf[self.start..self.start + n]);
                self.start += n;
                self.offset += n as u64;
                return Ok(n);
            }
            if self.magic.is_some() {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "zstd data at byte {} after plain text (a .zst joined to plain PGN, as `cat a.pgn b.pgn.zst` makes?): give the files as separate paths, or decompress the zstd part first (zstd -dc)",
                        self.offset
                    ),
                ));
            }
            if self.eof {
                return self.error.take().map_or(Ok(0), Err);
            }
            // keep the bytes not handed on, read more after them
            self.buf.copy_within(self.start..self.end, 0);
            self.clean -= self.start;
            self.end -= self.start;
            self.start = 0;
            loop {
                match self.inner.read(&mut self.buf[self.end..]) {
                    Ok(0) => self.eof = true,
                    Ok(n) => self.end += n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    // the bytes read before it are handed on first
                    Err(e) => {
                        self.eof = true;
                        self.error = Some(e);
                    }
                }
                break;
            }
            self.scan();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Everything read from `data` in reads of `size` bytes, and the error
    /// that ended it.
    fn read_all(data: &[u8], size: usize) -> (Vec<u8>, Option<String>) {
        let mut r = StopAtZstd::new(data);
        let mut out = Vec::new();
        let mut buf = vec![0; size];
        loop {
            match r.read(&mut buf) {
                Ok(0) => return (out, None),
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) => return (out, Some(e.to_string())),
            }
        }
    }

    #[test]
    fn text_passes_unchanged() {
        let text: Vec<u8> = (0..200_000u32)
            .map(|i| b"[( *P\n"[i as usize % 6])
            .collect();
        for size in [1, 3, 4, 1000, 1 << 20] {
            assert_eq!(read_all(&text, size), (text.clone(), None));
        }
        assert_eq!(read_all(b"", 10), (Vec::new(), None));
        assert_eq!(read_all(b"(\xb5/", 10), (b"(\xb5/".to_vec(), None));
    }

    #[test]
    fn text_then_zstd_ends_at_the_magic_number() {
        for magic in [
            &FRAME[..],
            &[0x50, 0x2A, 0x4D, 0x18],
            &[0x5E, 0x2A, 0x4D, 0x18],
        ] {
            for at in [0, 1, 65_533, 65_534, 65_535, 65_536, 100_000] {
                let mut data = vec![b'a'; at];
                data.extend_from_slice(magic);
                data.extend_from_slice(b"compressed bytes");
                for size in [1, 7, 1 << 20] {
                    let (out, error) = read_all(&data, size);
                    assert_eq!(out.len(), at, "{magic:x?} at {at}, reads of {size}");
                    let error = error.expect("an error");
                    assert!(
                        error.contains(&format!("zstd data at byte {at} ")),
                        "{error}"
                    );
                }
            }
        }
    }
}
