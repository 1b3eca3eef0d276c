//! The games an aggregate carries for merging ([`super::InputIds`]), packed:
//! per game, in game order, the 0-based game number's step from the
//! previous one (LEB128), then a flags byte (bits 0-1: the result, 0 `*`,
//! 1 `1-0`, 2 `0-1`, 3 `1/2-1/2`; bit 2: a long mainline; bit 3: a
//! mainline; bit 4: a site id), the mainline's hash (8 bytes, where bit
//! 3), the site id's hash (8 bytes, where bit 4), White's and Black's
//! [`NameKey`] (4 + 1 bytes each), the date (4), the round (2) and the
//! spelling of each compared tag (6 × 2), integers little-endian; then the
//! game's share of the counts ([`super::fact`]).

use crate::identity::{Identity, NameKey};

use super::fact::{varint, Fact, Reader};
use super::seen::Key;

/// Games packed one after another, with the last game number.
#[derive(Default)]
pub(super) struct Packer {
    pub(super) bytes: Vec<u8>,
    pub(super) last: u64,
}

impl Packer {
    /// Packs game `game` of key `key` and fact `fact`.
    pub(super) fn push(&mut self, game: u64, key: &Key, fact: &Fact<'_>) {
        self.push_key(game, key);
        fact.write(&mut self.bytes);
    }

    /// Packs game `game` whose key and fact were packed as `bytes` (from
    /// [`unpacked`]).
    pub(super) fn push_packed(&mut self, game: u64, bytes: &[u8]) {
        self.step(game);
        self.bytes.extend_from_slice(bytes);
    }

    fn step(&mut self, game: u64) {
        // games come in order; a step back (a caller's) is kept as 0
        varint(&mut self.bytes, game.saturating_sub(self.last));
        self.last = self.last.max(game);
    }

    fn push_key(&mut self, game: u64, key: &Key) {
        self.step(game);
        let id = &key.id;
        let flags = key.result & 3
            | u8::from(key.long) << 2
            | u8::from(key.mainline != 0) << 3
            | u8::from(id.site != 0) << 4;
        self.bytes.push(flags);
        if key.mainline != 0 {
            self.bytes.extend_from_slice(&key.mainline.to_le_bytes());
        }
        if id.site != 0 {
            self.bytes.extend_from_slice(&id.site.to_le_bytes());
        }
        for n in id.names {
            self.bytes.extend_from_slice(&n.surname.to_le_bytes());
            self.bytes.push(n.initial);
        }
        self.bytes.extend_from_slice(&id.date.to_le_bytes());
        self.bytes.extend_from_slice(&id.round.to_le_bytes());
        for s in id.spelt {
            self.bytes.extend_from_slice(&s.to_le_bytes());
        }
    }
}

/// A packed game: its number, key and fact, and the bytes of the key and
/// the fact (to pack them again as they are).
pub(super) struct Unpacked<'a> {
    pub(super) game: u64,
    pub(super) key: Key,
    pub(super) fact: Fact<'a>,
    pub(super) bytes: &'a [u8],
}

/// The games packed in `bytes`. Stops at the first malformed one
/// ([`well_formed`] says whether there is one).
pub(super) fn unpacked(bytes: &[u8]) -> impl Iterator<Item = Unpacked<'_>> + '_ {
    unpacked_from(bytes, 0)
}

/// The games packed in `bytes`, which follow game `game` (their numbers
/// are steps from it): [`unpacked`] on a stretch of a longer packing.
pub(super) fn unpacked_from(
    bytes: &[u8],
    mut game: u64,
) -> impl Iterator<Item = Unpacked<'_>> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        let mut r = Reader { bytes, at };
        game = game.checked_add(r.varint()?)?;
        let start = r.at;
        let key = read_key(&mut r)?;
        let mut end = r.at;
        let fact = Fact::read(bytes, &mut end)?;
        at = end;
        Some(Unpacked {
            game,
            key,
            fact,
            bytes: &bytes[start..end],
        })
    })
}

/// Whether every game packed in `bytes` reads back.
pub(super) fn well_formed(bytes: &[u8]) -> bool {
    let mut at = 0;
    let mut r = Reader { bytes, at };
    while r.at < bytes.len() {
        let ok = r.varint().is_some() && read_key(&mut r).is_some() && {
            at = r.at;
            Fact::read(bytes, &mut at).is_some()
        };
        if !ok {
            return false;
        }
        r.at = at;
    }
    true
}

fn read_key(r: &mut Reader<'_>) -> Option<Key> {
    let flags = r.byte()?;
    let u64_of = |s: &[u8]| u64::from_le_bytes(s.try_into().expect("8 bytes"));
    let u32_of = |s: &[u8]| u32::from_le_bytes(s.try_into().expect("4 bytes"));
    let u16_of = |s: &[u8]| u16::from_le_bytes(s.try_into().expect("2 bytes"));
    let mainline = if flags & 8 != 0 {
        u64_of(r.take(8)?)
    } else {
        0
    };
    let site = if flags & 16 != 0 {
        u64_of(r.take(8)?)
    } else {
        0
    };
    let mut names = [NameKey::default(); 2];
    for n in &mut names {
        n.surname = u32_of(r.take(4)?);
        n.initial = r.byte()?;
    }
    let date = u32_of(r.take(4)?);
    let round = u16_of(r.take(2)?);
    let mut spelt = [0u16; 6];
    for s in &mut spelt {
        *s = u16_of(r.take(2)?);
    }
    Some(Key {
        mainline,
        long: flags & 4 != 0,
        result: flags & 3,
        id: Identity {
            site,
            names,
            date,
            round,
            spelt,
        },
    })
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// `bytes` in base64, without padding.
pub(super) fn base64(bytes: &[u8]) -> String {
    let mut out = Vec::with_capacity(bytes.len().div_ceil(3) * 4);
    let sextet = |n: u32, i: u32| B64[(n >> (18 - 6 * i) & 63) as usize];
    let mut chunks = bytes.chunks_exact(3);
    for c in &mut chunks {
        let n = u32::from(c[0]) << 16 | u32::from(c[1]) << 8 | u32::from(c[2]);
        out.extend_from_slice(&[sextet(n, 0), sextet(n, 1), sextet(n, 2), sextet(n, 3)]);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let n = rest
            .iter()
            .enumerate()
            .fold(0, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        out.extend((0..=rest.len() as u32).map(|i| sextet(n, i)));
    }
    String::from_utf8(out).expect("base64 is ASCII")
}

/// Each byte's value in base64, or 64 for a byte outside the alphabet.
const UNB64: [u8; 256] = {
    let mut t = [64u8; 256];
    let mut i = 0;
    while i < 64 {
        t[B64[i] as usize] = i as u8;
        i += 1;
    }
    t
};

/// Base64 back to bytes; characters outside the alphabet are skipped.
pub(super) fn unbase64(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let (mut n, mut bits) = (0u32, 0);
    for c in text.bytes() {
        let v = UNB64[usize::from(c)];
        if v == 64 {
            continue;
        }
        n = n << 6 | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((n >> bits) as u8);
        }
    }
    out
}
