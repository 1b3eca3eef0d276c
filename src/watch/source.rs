//! Where the games come from: files rewritten in place, replaced by a
//! rename or appended to; folders whose `*.pgn` files come and go; a stream
//! of whole games sent again each time they change. This module notices
//! that a file changed (by its size, time and inode, so that polling is
//! cheap); it knows no chess.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ffi::OsStr;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::audit::ends_with_result;
use crate::split::{RawGame, Splitter};

/// The games of a text that are whole, and where they end.
pub struct Whole<'a> {
    /// The games to judge: every game of the text but a trailing one that
    /// is not finished yet.
    pub games: Vec<RawGame<'a>>,
    /// The bytes the games take, to the end of the last whole one: a
    /// stream drops them.
    pub end: usize,
    /// A trailing game is not finished (cut mid-movetext, no result token
    /// yet, a comment left open): it is read again later.
    pub waiting: Option<RawGame<'a>>,
}

/// The whole games of `text`. A game is finished when its movetext ends
/// with a result token (PGN's game termination marker: a live board
/// writes `*` until the game ends) and no comment is left open, or when
/// another game follows it (its writer has moved on). `at_end`: no more
/// text will come (a stream closed), the last game is whole as it is.
pub fn whole_games(text: &[u8], at_end: bool) -> Whole<'_> {
    let mut games: Vec<RawGame<'_>> = Splitter::new(text).collect();
    let mut waiting = None;
    if !at_end {
        if let Some(last) = games.last() {
            if last.unterminated || !ends_with_result(last.movetext) {
                waiting = games.pop();
            }
        }
    }
    let end = if at_end {
        text.len()
    } else {
        games.last().map_or(0, |g| g.offset + g.text.len())
    };
    Whole {
        games,
        end,
        waiting,
    }
}

/// What a file looked like when it was read: a change of any of these
/// means it must be read again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
    inode: u64,
}

impl Stamp {
    fn of(meta: &fs::Metadata) -> Stamp {
        #[cfg(unix)]
        let inode = std::os::unix::fs::MetadataExt::ino(meta);
        #[cfg(not(unix))]
        let inode = 0;
        Stamp {
            len: meta.len(),
            modified: meta.modified().ok(),
            inode,
        }
    }
}

/// A change [`Files::scan`] found.
#[derive(Debug)]
pub enum Change {
    /// A file that is new or changed, and its whole content now.
    Read(PathBuf, Vec<u8>),
    /// A file that was there and is gone.
    Gone(PathBuf),
    /// A path that cannot be read, and why (said once until it can be).
    Unreadable(PathBuf, io::Error),
}

/// The files given (and the `*.pgn` files of the folders given), each with
/// the stamp it had when last read.
pub struct Files {
    roots: Vec<PathBuf>,
    /// Each root's canonical path, where it exists: notices name paths in
    /// their own way (`./a.pgn` for `a.pgn`).
    canonical: Vec<Option<PathBuf>>,
    stamps: HashMap<PathBuf, Stamp>,
    /// Which roots were folders at the last scan.
    folders: BTreeMap<PathBuf, bool>,
    /// Paths already said to be unreadable.
    unreadable: BTreeMap<PathBuf, String>,
}

impl Files {
    /// Watches `roots`: files, and folders whose `*.pgn` files (any case)
    /// are read, new ones as they appear.
    pub fn new(roots: Vec<PathBuf>) -> Files {
        Files {
            canonical: roots.iter().map(|r| canonical(r)).collect(),
            roots,
            stamps: HashMap::new(),
            folders: BTreeMap::new(),
            unreadable: BTreeMap::new(),
        }
    }

    /// The paths given.
    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// The files to look at now, in a fixed order: each root file, and the
    /// `*.pgn` files of each root folder by name.
    fn listing(&mut self, changes: &mut Vec<Change>) -> Vec<PathBuf> {
        let mut files = Vec::new();
        for root in self.roots.clone() {
            let meta = fs::metadata(&root);
            self.folders
                .insert(root.clone(), meta.as_ref().is_ok_and(|m| m.is_dir()));
            match meta {
                Ok(m) if m.is_dir() => match fs::read_dir(&root) {
                    Ok(entries) => {
                        self.unreadable.remove(&root);
                        let mut found: Vec<PathBuf> = entries
                            .filter_map(Result::ok)
                            .filter(|e| is_pgn(&e.path()) && is_file(e))
                            .map(|e| e.path())
                            .collect();
                        found.sort_by_cached_key(|p| natural_key(&p.to_string_lossy()));
                        files.extend(found);
                    }
                    Err(e) => self.cannot_read(&root, e, changes),
                },
                Ok(_) => files.push(root),
                Err(e) if self.stamps.contains_key(&root) => {
                    // a file that was read and is gone: said by the scan
                    let _ = e;
                    files.push(root);
                }
                Err(e) => self.cannot_read(&root, e, changes),
            }
        }
        files
    }

    fn cannot_read(&mut self, path: &Path, e: io::Error, changes: &mut Vec<Change>) {
        let said = e.to_string();
        if self.unreadable.get(path) != Some(&said) {
            self.unreadable.insert(path.to_path_buf(), said);
            changes.push(Change::Unreadable(path.to_path_buf(), e));
        }
    }

    /// Looks at every file: the content of each that is new or whose size,
    /// time or inode changed (a file replaced by a rename has a new inode),
    /// and those that are gone.
    pub fn scan(&mut self) -> Vec<Change> {
        let mut changes = Vec::new();
        self.canonical = self.roots.iter().map(|r| canonical(r)).collect();
        let files = self.listing(&mut changes);
        let mut there = HashSet::new();
        for path in files {
            if self.look(&path, &mut changes, false) {
                there.insert(path);
            }
        }
        // gone: read once and not there now (the listing's looks said so,
        // without a second look at every file)
        let mut gone: Vec<PathBuf> = self
            .stamps
            .keys()
            .filter(|p| !there.contains(*p))
            .cloned()
            .collect();
        gone.sort();
        for path in gone {
            self.stamps.remove(&path);
            changes.push(Change::Gone(path));
        }
        changes
    }

    /// Looks at these paths only (those a notice of the operating system
    /// names), where they are watched: a root file, or a `*.pgn` file in a
    /// root folder. A change then costs the files it touched, not a look at
    /// every file.
    pub fn scan_paths<'p>(&mut self, paths: impl IntoIterator<Item = &'p Path>) -> Vec<Change> {
        let mut changes = Vec::new();
        for path in paths {
            let Some(path) = self.watched(path) else {
                continue;
            };
            if !self.look(&path, &mut changes, true) && self.stamps.remove(&path).is_some() {
                changes.push(Change::Gone(path));
            }
        }
        changes
    }

    /// `path` as the full scan names it (a root file, or a root folder
    /// joined with the file's name), if it is watched. A notice names the
    /// folder as it was given to be watched, so the paths are compared as
    /// they are first; the canonical paths only when that fails (a
    /// notifier that resolves links).
    fn watched(&self, path: &Path) -> Option<PathBuf> {
        let name = path.file_name()?;
        // most notices are of other files (a writer's temporary file): a
        // name that no root can hold costs no look at the disk
        if !may_follow(name, &self.roots) {
            return None;
        }
        let pgn = is_pgn(path);
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        for root in &self.roots {
            if root == path {
                return Some(root.clone());
            }
            if pgn && root == parent && self.folder(root) {
                return Some(root.join(name));
            }
        }
        let parent = fs::canonicalize(parent).ok()?;
        let full = parent.join(name);
        for (root, canonical) in self.roots.iter().zip(&self.canonical) {
            let Some(canonical) = canonical else {
                continue;
            };
            if *canonical == full {
                return Some(root.clone());
            }
            if *canonical == parent && pgn && self.folder(root) {
                return Some(root.join(name));
            }
        }
        None
    }

    /// Whether `root` is a folder: as the last scan found it, else as it is.
    fn folder(&self, root: &Path) -> bool {
        self.folders
            .get(root)
            .copied()
            .unwrap_or_else(|| root.is_dir())
    }

    /// Reads `path` if it is new or changed since it was last read; whether
    /// it is there. A file a notice named has most likely changed: it is
    /// opened at once and its stamp taken from the open file (one walk of
    /// its path, not two).
    fn look(&mut self, path: &Path, changes: &mut Vec<Change>, noticed: bool) -> bool {
        let opened = if noticed {
            match fs::File::open(path) {
                Ok(f) => Some(f),
                Err(e) => return self.failed(path, e, changes),
            }
        } else {
            None
        };
        let meta = match &opened {
            Some(f) => f.metadata(),
            None => fs::metadata(path),
        };
        let Ok(meta) = meta else {
            return false;
        };
        if meta.is_dir() {
            return false;
        }
        let stamp = Stamp::of(&meta);
        if self.stamps.get(path) == Some(&stamp) {
            return true;
        }
        let file = match opened {
            Some(f) => Ok(f),
            None => fs::File::open(path),
        };
        match file
            .and_then(|f| read(f, stamp.len))
            .and_then(|b| decompressed(path, b))
        {
            Ok(bytes) => {
                self.unreadable.remove(path);
                // the stamp of what was read: a write during the read
                // changes it again, and the file is read once more
                self.stamps.insert(path.to_path_buf(), stamp);
                changes.push(Change::Read(path.to_path_buf(), bytes));
                true
            }
            Err(e) => self.failed(path, e, changes),
        }
    }

    /// `path` could not be read: whether it is there all the same.
    fn failed(&mut self, path: &Path, e: io::Error, changes: &mut Vec<Change>) -> bool {
        if e.kind() == io::ErrorKind::NotFound {
            return false;
        }
        self.cannot_read(path, e, changes);
        true
    }
}

/// The bytes of an open file whose size was just seen to be `len`. A read
/// that stops short once those bytes are in is at the file's end: no
/// further read to learn it (a file that grew fills the buffer, and is
/// read on).
fn read(mut file: fs::File, len: u64) -> io::Result<Vec<u8>> {
    let len = usize::try_from(len).unwrap_or(0);
    let mut bytes = vec![0; len.saturating_add(1)];
    let mut filled = 0;
    loop {
        let n = match file.read(&mut bytes[filled..]) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        filled += n;
        if n == 0 || (filled >= len && filled < bytes.len()) {
            break;
        }
        if filled == bytes.len() {
            bytes.resize(bytes.len().saturating_mul(2), 0);
        }
    }
    bytes.truncate(filled);
    Ok(bytes)
}

/// Whether a folder's entry is a file, without a look at the disk where
/// the folder's listing says (a link is followed).
fn is_file(entry: &fs::DirEntry) -> bool {
    match entry.file_type() {
        Ok(t) if t.is_file() => true,
        Ok(t) if t.is_dir() => false,
        _ => entry.path().is_file(),
    }
}

/// The text of a file named `*.zst` (zstd), else `bytes` as they are. A
/// compressed file caught half-written fails here, and is read again when
/// it changes.
fn decompressed(path: &Path, bytes: Vec<u8>) -> io::Result<Vec<u8>> {
    let zst = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("zst"));
    if zst {
        zstd::decode_all(&bytes[..])
    } else {
        Ok(bytes)
    }
}

/// The canonical path of `path`; of a file not there yet, its folder's
/// canonical path and its name (a file given before it is written).
fn canonical(path: &Path) -> Option<PathBuf> {
    fs::canonicalize(path).ok().or_else(|| {
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        Some(fs::canonicalize(parent).ok()?.join(path.file_name()?))
    })
}

/// A key that orders names as people count: `game-2` before `game-10`
/// (each run of digits compared as a number).
pub fn natural_key(name: &str) -> Vec<(String, u64)> {
    let mut key = Vec::new();
    let mut text = String::new();
    let mut chars = name.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            let mut n = u64::from(c as u8 - b'0');
            while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                n = n.saturating_mul(10).saturating_add(u64::from(d));
                chars.next();
            }
            key.push((std::mem::take(&mut text), n));
        } else {
            text.push(c);
        }
    }
    key.push((text, u64::MAX));
    key
}

/// Whether a file named `name` can be one of those `roots` names: a
/// `*.pgn` file (of a folder), or a root file's own name. A notice of any
/// other name (a writer's temporary file) needs no look.
pub fn may_follow(name: &OsStr, roots: &[PathBuf]) -> bool {
    is_pgn(Path::new(name)) || roots.iter().any(|r| r.file_name() == Some(name))
}

/// A `*.pgn` file name, in any case.
fn is_pgn(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trailing_game_waits_until_it_is_finished() {
        let one = "[White \"A\"]\n\n1. e4 e5 *\n\n";
        let text = format!("{one}[White \"B\"]\n\n1. d4 d5 2. c4");
        let w = whole_games(text.as_bytes(), false);
        assert_eq!(w.games.len(), 1);
        assert!(w.waiting.is_some());
        assert_eq!(
            &text[..w.end],
            one.trim_end_matches('\n').to_string() + "\n"
        );
        // finished: both whole
        let done = format!("{text} *\n");
        let w = whole_games(done.as_bytes(), false);
        assert_eq!((w.games.len(), w.waiting.is_none()), (2, true));
        // an open comment waits, even after a result-like token
        let open = format!("{one}[White \"B\"]\n\n1. d4 {{ 1-0");
        assert_eq!(whole_games(open.as_bytes(), false).games.len(), 1);
        // at the end of a stream the last game is taken as it is
        assert_eq!(whole_games(text.as_bytes(), true).games.len(), 2);
        // a game cut in its tags waits
        let cut = format!("{one}[White \"B\"]\n[Bla");
        assert_eq!(whole_games(cut.as_bytes(), false).games.len(), 1);
    }

    #[test]
    fn names_are_ordered_as_people_count() {
        let mut names = ["game-10.pgn", "game-2.pgn", "games.pgn", "game-1.pgn"];
        names.sort_by_key(|n| natural_key(n));
        assert_eq!(
            names,
            ["game-1.pgn", "game-2.pgn", "game-10.pgn", "games.pgn"]
        );
    }
}
