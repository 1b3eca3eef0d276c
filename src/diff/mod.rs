//! `pgn-arbiter diff OLD.jsonl NEW.jsonl`: the findings that appeared,
//! disappeared or changed between two runs, games matched by `game_id`.
//!
//! **Matching.** A finding is keyed by (`game_id`, `kind`): `game_id` is a
//! fingerprint of the game's own text, so a game is found again wherever it
//! stands. Its index, offset, line and file are never used to match, so
//! inserting, deleting or reordering games, or reordering and renaming
//! files, changes nothing for the games left untouched. Findings that share
//! a key (copies of one game text) are paired in their order of appearance,
//! the n-th in OLD with the n-th in NEW; the ones left over appeared or
//! disappeared.
//!
//! **Changed.** A pair is changed when a field that describes the finding
//! itself differs ([`DESCRIBED`]). Where the game stands (`file`, `game`,
//! `offset`, `line`) and its tags are not compared, only carried, so that a
//! person can find the game.
//!
//! **Output.** Appeared (`+`) and changed (`~`) findings in NEW's order, then
//! disappeared ones (`-`) in OLD's order, then a count line. With `--json`,
//! one object per change on stdout and the count line on stderr, so that
//! stdout holds nothing but JSON.
//!
//! **Exit codes.** 0 nothing appeared (with `--fail-on`: no condition held
//! on the appeared findings); 1 something appeared (a condition held); 2 a
//! usage error, an unreadable file, a line that is not a finding of schema
//! version 1. A closed stdout ends the run quietly with 0.
//!
//! **Memory.** Both files are memory-mapped, their pages given back as they
//! are read; per line only its place, key and number are kept (40 bytes),
//! and a line is parsed again when it is compared or printed. Two files of
//! 3 million lines (1.6 GB each) take 400 MB.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Read, Write};

use memmap2::Mmap;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use crate::error::Error;
use crate::finding::Kind;
use crate::gate;
use crate::kind::Severity;
use crate::stats::Stats;
use crate::text::thousands;
use text::{show_value, str_of, text_line};

mod text;

/// What to compare, and how to write the changes.
#[derive(Debug, Clone, Default)]
pub struct DiffOptions {
    /// The findings of the earlier run (`-`: stdin).
    pub old: String,
    /// The findings of the later run (`-`: stdin).
    pub new: String,
    /// One JSON object per change instead of text.
    pub json: bool,
    /// `--fail-on` conditions checked on the appeared findings (no
    /// percentages: a diff does not know how many games were read).
    pub fail_on: Option<String>,
}

/// What a diff found.
#[derive(Debug, Clone, Default)]
pub struct DiffOutcome {
    /// Findings in NEW without a partner in OLD.
    pub appeared: u64,
    /// Findings in OLD without a partner in NEW.
    pub disappeared: u64,
    /// Pairs that differ in a field that describes the finding.
    pub changed: u64,
    /// Pairs that do not.
    pub unchanged: u64,
    /// With `fail_on`: the conditions that held on the appeared findings.
    pub failures: Option<Vec<gate::Failure>>,
}

impl DiffOutcome {
    /// Whether the diff fails a gate: a condition held, or without
    /// conditions, anything appeared.
    pub fn failed(&self) -> bool {
        match &self.failures {
            None => self.appeared > 0,
            Some(f) => !f.is_empty(),
        }
    }

    /// The count line: `1 appeared, 0 disappeared, 2 changed, 3 unchanged`.
    pub fn count_line(&self) -> String {
        format!(
            "{} appeared, {} disappeared, {} changed, {} unchanged\n",
            thousands(self.appeared),
            thousands(self.disappeared),
            thousands(self.changed),
            thousands(self.unchanged)
        )
    }
}

/// The fields that describe a finding itself, in the order a change lists
/// them: a pair differing in one of these is `changed`.
pub const DESCRIBED: [&str; 16] = [
    "ply",
    "move_number",
    "side",
    "san",
    "move",
    "fen",
    "occurrences",
    "edition",
    "article",
    "outcome",
    "via",
    "winner",
    "proof",
    "reason",
    "site",
    "rule",
];

/// The schema version this diff knows the fields of.
const SCHEMA_VERSION: u64 = crate::record::SCHEMA_VERSION as u64;

/// Compares two findings files and writes the changes to `out`:
/// appeared and changed findings in NEW's order, then disappeared ones in
/// OLD's order (the count line is [`DiffOutcome::count_line`]).
pub fn diff(args: &DiffOptions, out: &mut impl Write) -> Result<DiffOutcome, Error> {
    let refuse = Error::Usage;
    let gate = match args.fail_on.as_deref() {
        None => None,
        Some(list) => {
            let conditions = gate::parse(list).map_err(refuse)?;
            if let Some(c) = conditions.iter().find(|c| c.is_relative()) {
                return Err(refuse(format!(
                    "--fail-on {c}: a diff does not know how many games were read, \
                     so it cannot take a percentage; give a number of games (e.g. {}>0)",
                    c.what.name()
                )));
            }
            Some(conditions)
        }
    };
    if args.old == "-" && args.new == "-" {
        return Err(refuse("OLD and NEW cannot both be stdin (-)".to_string()));
    }
    let mut kinds = KindTable::new();
    let old = Findings::load(&args.old, &mut kinds)?;
    let new = Findings::load(&args.new, &mut kinds)?;
    let partner = pair(&old, &new);
    let mut matched = vec![false; old.entries.len()];
    for &p in partner.iter().filter(|&&p| p != NONE) {
        matched[p as usize] = true;
    }

    let mut line = Vec::with_capacity(1 << 10);
    let mut counts = DiffOutcome::default();
    let mut appeared = Appeared::default();
    let mut read = 0usize;
    let mut release = |n: usize| {
        read += n;
        if read >= RELEASE_EVERY {
            old.bytes.release();
            new.bytes.release();
            read = 0;
        }
    };
    for (i, &p) in partner.iter().enumerate() {
        let partner_len = old.entries.get(p as usize).map_or(0, |e| e.len as usize);
        release(new.entries[i].len as usize + partner_len);
        line.clear();
        if p == NONE {
            let f = new.shown(i)?;
            appeared.add(&f, new.entries[i].kind, &kinds, i);
            counts.appeared += 1;
            if args.json {
                line.extend_from_slice(b"{\"change\":\"appeared\",\"finding\":");
                line.extend_from_slice(new.raw(i));
                line.extend_from_slice(b"}\n");
            } else {
                line.extend_from_slice(text_line('+', new.kind_name(i, &kinds), &f, "").as_bytes());
            }
        } else {
            let j = p as usize;
            if old.raw(j) == new.raw(i) {
                counts.unchanged += 1;
                continue;
            }
            let (a, b) = (old.shown(j)?, new.shown(i)?);
            let fields = a.differing(&b);
            if fields.is_empty() {
                counts.unchanged += 1;
                continue;
            }
            counts.changed += 1;
            if args.json {
                line.extend_from_slice(b"{\"change\":\"changed\",\"old\":");
                line.extend_from_slice(old.raw(j));
                line.extend_from_slice(b",\"new\":");
                line.extend_from_slice(new.raw(i));
                line.extend_from_slice(b",\"fields\":");
                serde_json::to_writer(&mut line, &fields).map_err(io::Error::other)?;
                line.extend_from_slice(b"}\n");
            } else {
                let what: Vec<String> = fields
                    .iter()
                    .map(|name| {
                        format!(
                            "{name} {} -> {}",
                            show_value(a.get(name)),
                            show_value(b.get(name))
                        )
                    })
                    .collect();
                let what = format!(": {}", what.join(", "));
                line.extend_from_slice(
                    text_line('~', new.kind_name(i, &kinds), &b, &what).as_bytes(),
                );
            }
        }
        out.write_all(&line)?;
    }
    for (j, _) in matched.iter().enumerate().filter(|(_, m)| !**m) {
        release(old.entries[j].len as usize);
        line.clear();
        counts.disappeared += 1;
        if args.json {
            line.extend_from_slice(b"{\"change\":\"disappeared\",\"finding\":");
            line.extend_from_slice(old.raw(j));
            line.extend_from_slice(b"}\n");
        } else {
            let f = old.shown(j)?;
            line.extend_from_slice(text_line('-', old.kind_name(j, &kinds), &f, "").as_bytes());
        }
        out.write_all(&line)?;
    }
    let appeared = appeared.stats();
    counts.failures = gate.map(|conditions| gate::check(&conditions, &appeared));
    Ok(counts)
}

/// The appeared findings counted as `--fail-on` counts them: games per
/// kind, games with any finding, games by their most serious finding.
#[derive(Default)]
struct Appeared {
    stats: Stats,
    /// (file, game) of the games counted in `stats.flagged`, and the
    /// severity of their most serious finding (of a known kind).
    games: HashMap<(String, u64), Option<Severity>>,
}

impl Appeared {
    fn add(&mut self, f: &Shown, kind: u16, kinds: &KindTable, index: usize) {
        let kind = kinds.kind(kind);
        if let Some(k) = kind {
            // At most one finding per game and kind: a finding is a game.
            self.stats.kind_games[k] += 1;
        }
        let game = match (str_of(&f.file), f.game.as_ref().and_then(Value::as_u64)) {
            (Some(file), Some(game)) => (file.to_string(), game),
            // Without a place, the line stands for its own game.
            _ => (String::new(), u64::MAX - index as u64),
        };
        // as the audit judged it: by the kind and the game's result
        let severity = kind.map(|k| k.severity_for(str_of(&f.result)));
        let worst = self.games.entry(game).or_insert(None);
        *worst = match (*worst, severity) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }

    /// The counts, games and severities included.
    fn stats(mut self) -> Stats {
        self.stats.flagged = self.games.len() as u64;
        for s in self.games.values().flatten() {
            self.stats.severity_games.0[*s as usize] += 1;
        }
        self.stats
    }
}

/// No partner.
const NONE: u32 = u32::MAX;

/// For each finding of NEW, the index of its partner in OLD (or [`NONE`]):
/// keys sorted, equal keys taken in file order on both sides, so that the
/// n-th copy in OLD pairs with the n-th in NEW.
fn pair(old: &Findings, new: &Findings) -> Vec<u32> {
    let order = |f: &Findings| {
        let mut o: Vec<u32> = (0..f.entries.len() as u32).collect();
        o.sort_unstable_by_key(|&i| (f.entries[i as usize].key(), i));
        o
    };
    let (oo, no) = (order(old), order(new));
    let mut partner = vec![NONE; new.entries.len()];
    let (mut a, mut b) = (0, 0);
    while a < oo.len() && b < no.len() {
        let (i, j) = (oo[a], no[b]);
        match old.entries[i as usize]
            .key()
            .cmp(&new.entries[j as usize].key())
        {
            std::cmp::Ordering::Less => a += 1,
            std::cmp::Ordering::Greater => b += 1,
            std::cmp::Ordering::Equal => {
                partner[j as usize] = i;
                a += 1;
                b += 1;
            }
        }
    }
    partner
}

/// Kind names as small numbers, the same in both files; the known kinds
/// first, so that a number below [`Kind::COUNT`] is [`Kind::index`]. A kind
/// this version does not know is kept and matched by name.
struct KindTable {
    names: Vec<String>,
    index: HashMap<String, u16>,
}

impl KindTable {
    fn new() -> KindTable {
        let mut t = KindTable {
            names: Vec::new(),
            index: HashMap::new(),
        };
        for k in Kind::ALL {
            debug_assert_eq!(t.names.len(), k.index());
            t.intern(k.name());
        }
        t
    }

    fn intern(&mut self, name: &str) -> u16 {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        let i = self.names.len() as u16;
        self.names.push(name.to_string());
        self.index.insert(name.to_string(), i);
        i
    }

    fn kind(&self, i: u16) -> Option<Kind> {
        Kind::ALL.get(i as usize).copied()
    }
}

/// One finding line: where it is in the file, and its key.
struct Entry {
    start: u64,
    len: u32,
    /// 1-based line number, for messages.
    line: u32,
    /// `game_id`, as two halves to keep the entry 8-aligned.
    id: [u64; 2],
    kind: u16,
}

impl Entry {
    fn key(&self) -> ([u64; 2], u16) {
        (self.id, self.kind)
    }
}

/// A findings file's bytes.
enum Bytes {
    Mapped(Mmap),
    Owned(Vec<u8>),
}

impl Bytes {
    fn as_slice(&self) -> &[u8] {
        match self {
            Bytes::Mapped(m) => m,
            Bytes::Owned(v) => v,
        }
    }

    /// Gives the pages read so far back, so that the resident memory does
    /// not grow with the files (the page cache keeps them; read again, they
    /// come back from it).
    fn release(&self) {
        if let Bytes::Mapped(m) = self {
            // SAFETY: MADV_DONTNEED on a read-only, private file mapping only
            // drops this process's copies of the pages; read again, they are
            // read back from the file, unchanged (the same caveat as `open`'s
            // if another process changes the file meanwhile).
            let _ = unsafe { m.unchecked_advise(memmap2::UncheckedAdvice::DontNeed) };
        }
    }
}

/// Bytes read between two [`Bytes::release`].
const RELEASE_EVERY: usize = 64 << 20;

/// What the first reading keeps of a line: its key, and whether it was
/// written before `game_id` existed.
#[derive(Deserialize)]
struct Head {
    #[serde(default)]
    game_id: Option<String>,
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    schema_version: Option<u64>,
}

struct Findings {
    name: String,
    bytes: Bytes,
    entries: Vec<Entry>,
}

impl Findings {
    /// Reads and checks every line, keeping its key.
    fn load(path: &str, kinds: &mut KindTable) -> Result<Findings, Error> {
        let bytes = open(path).map_err(|e| Error::Data(format!("{path}: {e}")))?;
        let mut entries = Vec::new();
        let data = bytes.as_slice();
        let mut start = 0usize;
        let mut number = 0u32;
        let mut released = 0usize;
        while start < data.len() {
            if start - released >= RELEASE_EVERY {
                bytes.release();
                released = start;
            }
            let end = memchr::memchr(b'\n', &data[start..]).map_or(data.len(), |n| start + n);
            number = number.saturating_add(1);
            let at = |msg: String| Error::Data(format!("{path} line {number}: {msg}"));
            let whole = &data[start..end];
            let from = start + (whole.len() - whole.trim_ascii_start().len());
            let raw = whole.trim_ascii();
            start = end + 1;
            if raw.is_empty() {
                continue;
            }
            let text = std::str::from_utf8(raw).map_err(|e| at(format!("not UTF-8 ({e})")))?;
            if !text.starts_with('{') {
                return Err(at("not a JSON object".to_string()));
            }
            let head: Head =
                serde_json::from_str(text).map_err(|e| at(format!("not a finding: {e}")))?;
            let version = head.schema_version.unwrap_or(0);
            if version > SCHEMA_VERSION {
                return Err(at(format!(
                    "schema_version {version} is newer than this pgn-arbiter knows \
                     ({SCHEMA_VERSION}); use the pgn-arbiter that wrote it"
                )));
            }
            let Some(id) = head.game_id else {
                return Err(at(if version < SCHEMA_VERSION {
                    "no game_id: these findings were written before schema_version 1, \
                     which cannot be matched by game; re-run pgn-arbiter audit --jsonl \
                     to write them again"
                        .to_string()
                } else {
                    "no game_id".to_string()
                }));
            };
            let id = parse_id(&id)
                .ok_or_else(|| at(format!("game_id '{id}' is not 32 hexadecimal digits")))?;
            let Some(kind) = head.kind else {
                return Err(at("no kind".to_string()));
            };
            let len = u32::try_from(raw.len()).map_err(|_| at("line too long".to_string()))?;
            entries.push(Entry {
                start: from as u64,
                len,
                line: number,
                id,
                kind: kinds.intern(&kind),
            });
        }
        Ok(Findings {
            name: path.to_string(),
            bytes,
            entries,
        })
    }

    /// The line as written (checked to be a JSON object).
    fn raw(&self, i: usize) -> &[u8] {
        let e = &self.entries[i];
        &self.bytes.as_slice()[e.start as usize..e.start as usize + e.len as usize]
    }

    fn kind_name<'a>(&self, i: usize, kinds: &'a KindTable) -> &'a str {
        &kinds.names[self.entries[i].kind as usize]
    }

    /// The fields a diff compares and prints.
    fn shown(&self, i: usize) -> Result<Shown, Error> {
        serde_json::from_slice(self.raw(i)).map_err(|e| {
            Error::Data(format!(
                "{} line {}: not a finding: {e}",
                self.name, self.entries[i].line
            ))
        })
    }
}

/// The file's bytes: mapped when it is a regular file, read otherwise
/// (stdin, a pipe).
fn open(path: &str) -> io::Result<Bytes> {
    if path == "-" {
        let mut v = Vec::new();
        io::stdin().lock().read_to_end(&mut v)?;
        return Ok(Bytes::Owned(v));
    }
    let mut file = File::open(path)?;
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(io::Error::other("is a directory"));
    }
    if meta.is_file() && meta.len() > 0 {
        // SAFETY: the map is read-only and lives as long as the diff. If
        // another process truncates the file meanwhile, reads past the new
        // end fault (SIGBUS), the accepted risk of every memory-mapped
        // reader (the audit's inputs too).
        let map = unsafe { Mmap::map(&file)? };
        return Ok(Bytes::Mapped(map));
    }
    let mut v = Vec::new();
    file.read_to_end(&mut v)?;
    Ok(Bytes::Owned(v))
}

fn parse_id(s: &str) -> Option<[u64; 2]> {
    if s.len() != 32 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let hi = u64::from_str_radix(&s[..16], 16).ok()?;
    let lo = u64::from_str_radix(&s[16..], 16).ok()?;
    Some([hi, lo])
}

/// Keeps a field's value as written, `null` included: absent is `None`.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// The fields of a line that a diff compares or prints; the others (tags
/// beyond the players and date, offset, game_id...) are not kept.
#[derive(Deserialize)]
struct Shown {
    #[serde(default, deserialize_with = "present")]
    file: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    game: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    line: Option<Value>,
    #[serde(default, deserialize_with = "present", rename = "White")]
    white: Option<Value>,
    #[serde(default, deserialize_with = "present", rename = "Black")]
    black: Option<Value>,
    #[serde(default, deserialize_with = "present", rename = "Date")]
    date: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    ply: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    move_number: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    side: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    san: Option<Value>,
    #[serde(default, deserialize_with = "present", rename = "move")]
    mv: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    fen: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    occurrences: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    edition: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    article: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    outcome: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    via: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    winner: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    proof: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    reason: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    site: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    rule: Option<Value>,
    #[serde(default, deserialize_with = "present", rename = "Result")]
    result: Option<Value>,
}

impl Shown {
    /// A described field by its name in [`DESCRIBED`].
    fn get(&self, name: &str) -> &Option<Value> {
        match name {
            "ply" => &self.ply,
            "move_number" => &self.move_number,
            "side" => &self.side,
            "san" => &self.san,
            "move" => &self.mv,
            "fen" => &self.fen,
            "occurrences" => &self.occurrences,
            "edition" => &self.edition,
            "article" => &self.article,
            "outcome" => &self.outcome,
            "via" => &self.via,
            "winner" => &self.winner,
            "proof" => &self.proof,
            "reason" => &self.reason,
            "site" => &self.site,
            "rule" => &self.rule,
            _ => unreachable!("not a described field: {name}"),
        }
    }

    /// The described fields whose values differ (absent differs from
    /// `null`).
    fn differing(&self, other: &Shown) -> Vec<&'static str> {
        DESCRIBED
            .into_iter()
            .filter(|name| self.get(name) != other.get(name))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(json: &str) -> Shown {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn null_differs_from_absent_and_places_are_not_compared() {
        let a = shown(r#"{"file":"a","game":1,"ply":3,"move":null}"#);
        let b = shown(r#"{"file":"b","game":9,"ply":3}"#);
        assert_eq!(a.differing(&b), vec!["move"]);
        let c = shown(r#"{"file":"c","game":2,"line":7,"ply":3,"move":null,"White":"x"}"#);
        assert!(a.differing(&c).is_empty());
    }

    #[test]
    fn ids_are_32_hex_digits() {
        assert_eq!(parse_id("0000000000000001000000000000000f"), Some([1, 15]));
        assert_eq!(parse_id("+000000000000001000000000000000f"), None);
        assert_eq!(parse_id("abc"), None);
    }
}
