//! Which judged games could be copies at all: those whose site id hash is
//! shared with another judged game, or whose mainline hash is shared with
//! another where one of the games has no site id. Any other game can
//! repeat no game and be repeated by none ([`super::seen`]: every match is
//! by the site id, or by the mainline where not both records carry a site
//! id), so the duplicate finder's table needs only the games marked here,
//! and its memory grows with the copies, not with the games (a month of
//! unique games keeps nothing in it, however many share an opening).
//!
//! Exact and out of core: each game's hashes go, with the game's ordinal,
//! into one of [`BUCKETS`] buckets by their top bits; past
//! [`MEMORY_ENTRIES`] entries the buckets are spilled to temporary files.
//! At the end each bucket is sorted alone and the games of every hash
//! that can match are marked in a bitset (one bit a game). A mark only
//! sends a game through the exact table: two hashes equal by chance cost
//! a lookup, never a wrong answer.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::PathBuf;

/// An entry's ordinal carries, in its top bits, whether the hash is a
/// mainline's (not a site id's), and whether that game has no site id.
const MAINLINE: u64 = 1 << 63;
const NO_SITE: u64 = 1 << 62;
const ORDINAL: u64 = NO_SITE - 1;

/// Buckets, by the hash's top bits.
const BUCKETS: usize = 256;
/// Entries held in memory before the buckets go to temporary files:
/// 16 bytes each, so 64 MiB.
const MEMORY_ENTRIES: usize = 1 << 22;

/// The hashes of the games judged, in order, to find those shared.
#[derive(Default)]
pub(super) struct SharedHashes {
    /// Games added.
    games: u64,
    /// Entries in memory, per bucket: (hash, ordinal and flags).
    memory: Vec<Vec<(u64, u64)>>,
    held: usize,
    spilled: Option<Spill>,
}

/// The buckets' temporary files.
struct Spill {
    dir: PathBuf,
    files: Vec<BufWriter<File>>,
}

impl Drop for Spill {
    fn drop(&mut self) {
        self.files.clear();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The games marked: those that share a hash with another.
#[derive(Debug, Default)]
pub(super) struct Marks {
    bits: Vec<u64>,
}

impl Marks {
    /// Whether game `ordinal` (0-based, in the order added) shares a hash.
    pub(super) fn get(&self, ordinal: u64) -> bool {
        let word = (ordinal / 64) as usize;
        self.bits
            .get(word)
            .is_some_and(|w| w >> (ordinal % 64) & 1 != 0)
    }

    /// Whether any game is marked.
    pub(super) fn any(&self) -> bool {
        self.bits.iter().any(|&w| w != 0)
    }

    fn set(&mut self, ordinal: u64) {
        let word = (ordinal / 64) as usize;
        self.bits[word] |= 1 << (ordinal % 64);
    }
}

impl SharedHashes {
    /// The next game, of mainline hash `mainline` and site id hash `site`
    /// (0: none).
    pub(super) fn add(&mut self, mainline: u64, site: u64) -> io::Result<()> {
        let ordinal = self.games;
        self.games += 1;
        if site != 0 {
            self.push(site, ordinal)?;
        }
        if mainline != 0 {
            let no_site = if site == 0 { NO_SITE } else { 0 };
            self.push(mainline, ordinal | MAINLINE | no_site)?;
        }
        Ok(())
    }

    fn push(&mut self, hash: u64, ordinal: u64) -> io::Result<()> {
        if self.memory.is_empty() {
            self.memory = vec![Vec::new(); BUCKETS];
        }
        let b = (hash >> 56) as usize % BUCKETS;
        self.memory[b].push((hash, ordinal));
        self.held += 1;
        if self.held >= MEMORY_ENTRIES {
            self.spill()?;
        }
        Ok(())
    }

    /// The entries in memory to the buckets' files.
    fn spill(&mut self) -> io::Result<()> {
        if self.spilled.is_none() {
            self.spilled = Some(Spill::create()?);
        }
        let spill = self.spilled.as_mut().expect("created");
        for (bucket, out) in self.memory.iter_mut().zip(&mut spill.files) {
            for &(h, o) in bucket.iter() {
                out.write_all(&h.to_le_bytes())?;
                out.write_all(&o.to_le_bytes())?;
            }
            bucket.clear();
        }
        self.held = 0;
        Ok(())
    }

    /// The games that share a hash with another game.
    pub(super) fn marks(mut self) -> io::Result<Marks> {
        let mut marks = Marks {
            bits: vec![0; self.games.div_ceil(64) as usize],
        };
        if self.memory.is_empty() {
            return Ok(marks);
        }
        let Some(mut spill) = self.spilled.take() else {
            for bucket in &mut self.memory {
                mark_bucket(bucket, &mut marks);
            }
            return Ok(marks);
        };
        let files = std::mem::take(&mut spill.files);
        for (out, bucket) in files.into_iter().zip(&mut self.memory) {
            let mut file = out.into_inner().map_err(|e| e.into_error())?;
            file.seek(SeekFrom::Start(0))?;
            let mut r = BufReader::with_capacity(1 << 16, file);
            let mut entry = [0u8; 16];
            loop {
                match r.read_exact(&mut entry) {
                    Ok(()) => bucket.push((
                        u64::from_le_bytes(entry[..8].try_into().expect("8 bytes")),
                        u64::from_le_bytes(entry[8..].try_into().expect("8 bytes")),
                    )),
                    Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => break,
                    Err(e) => return Err(e),
                }
            }
            mark_bucket(bucket, &mut marks);
            *bucket = Vec::new();
        }
        Ok(marks)
    }
}

/// Marks the games of `bucket` that could be copies: a site id seen
/// twice or more; a mainline seen twice or more, once at least in a game
/// without a site id.
fn mark_bucket(bucket: &mut [(u64, u64)], marks: &mut Marks) {
    // sorted by hash, then site ids before mainlines
    bucket.sort_unstable();
    for run in bucket.chunk_by(|a, b| a.0 == b.0 && (a.1 ^ b.1) & MAINLINE == 0) {
        let mainline = run[0].1 & MAINLINE != 0;
        let can_match = run.len() > 1 && (!mainline || run.iter().any(|e| e.1 & NO_SITE != 0));
        if can_match {
            for &(_, o) in run {
                marks.set(o & ORDINAL);
            }
        }
    }
}

impl Spill {
    /// A directory of its own under the system's temporary directory
    /// (`TMPDIR`), one file per bucket, read back through the handles: on
    /// Unix the names are removed at once, so nothing is left behind
    /// however the process ends.
    fn create() -> io::Result<Spill> {
        use std::sync::atomic::{AtomicU64, Ordering};
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("pgn-arbiter-shared-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", dir.display())))?;
        let mut files = Vec::with_capacity(BUCKETS);
        for b in 0..BUCKETS {
            let path = dir.join(b.to_string());
            let f = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .open(&path)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
            files.push(BufWriter::with_capacity(1 << 14, f));
        }
        #[cfg(unix)]
        let _ = std::fs::remove_dir_all(&dir);
        Ok(Spill { dir, files })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marked(s: SharedHashes, n: u64) -> Vec<u64> {
        let m = s.marks().unwrap();
        (0..n).filter(|&o| m.get(o)).collect()
    }

    #[test]
    fn games_sharing_a_mainline_or_a_site_id_are_marked_and_no_other() {
        let mut s = SharedHashes::default();
        s.add(1, 0).unwrap(); // 0: shares its mainline with 3
        s.add(2, 10).unwrap(); // 1: shares its site id with 4
        s.add(0, 0).unwrap(); // 2: nothing to share
        s.add(1, 11).unwrap(); // 3
        s.add(5, 10).unwrap(); // 4
        s.add(6, 12).unwrap(); // 5: alone
        s.add(7, 13).unwrap(); // 6: the mainline of 7, both with site ids:
        s.add(7, 14).unwrap(); // 7: they cannot be one game
        s.add(8, 0).unwrap(); // 8: a mainline hash equal to 9's site
        s.add(9, 8).unwrap(); // 9: hash: one bucket, two kinds, no mark
        assert_eq!(marked(s, 10), [0, 1, 3, 4]);
    }

    #[test]
    fn spilled_buckets_mark_as_memory_does() {
        // more entries than memory holds: the buckets go to files
        let n = (MEMORY_ENTRIES as u64) + 1000;
        let mut s = SharedHashes::default();
        for o in 0..n {
            // every 1000th game repeats the mainline of game 0; hashes
            // spread over the buckets
            let h = if o % 1000 == 0 {
                0x9e37_79b9_7f4a_7c15
            } else {
                (o + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1
            };
            s.add(h, 0).unwrap();
        }
        assert!(s.spilled.is_some());
        let expected: Vec<u64> = (0..n).step_by(1000).collect();
        assert_eq!(marked(s, n), expected);
    }
}
