//! The hasher of the crate's own tables: the unwinnable-flag engine's
//! (Zobrist keys, packed positions), the duplicate finder's (hashes) and
//! the statistics report's (events, players, tag values by their bytes).
//! None needs SipHash's defence against chosen keys (nobody picks a
//! position or a player's name to slow the audit down by collisions), and
//! SipHash was a fifth of the engine's search and a tenth of the report's
//! counting with it.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A `HashMap` with [`WordHasher`].
pub(crate) type Table<K, V> = HashMap<K, V, BuildHasherDefault<WordHasher>>;

/// Mixes each 64-bit word in with a rotate, a xor and a multiply (the
/// FxHash step), and finishes with a fold of the high half into the low,
/// so that both the bucket (low bits) and the tag (high bits) depend on
/// every word.
#[derive(Default, Clone, Copy)]
pub(crate) struct WordHasher(u64);

const K: u64 = 0xf135_7aea_2e62_a9c5;

impl Hasher for WordHasher {
    #[inline]
    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(26) ^ word).wrapping_mul(K);
    }

    #[inline]
    fn write_u32(&mut self, word: u32) {
        self.write_u64(u64::from(word));
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, Hash};

    fn hash<T: Hash>(value: T) -> u64 {
        BuildHasherDefault::<WordHasher>::default().hash_one(value)
    }

    /// Keys that differ in one word, or only in the order of their words,
    /// hash apart; a table of many such keys keeps each value.
    #[test]
    fn nearby_keys_hash_apart_and_keep_their_values() {
        assert_ne!(hash((1u64, 2u64)), hash((2u64, 1u64)));
        assert_ne!(hash(0u64), hash(1u64));
        let mut table: Table<(u64, u64), u32> = Table::default();
        for i in 0..10_000u32 {
            table.insert((u64::from(i), u64::from(i) << 32), i);
        }
        assert_eq!(table.len(), 10_000);
        assert!((0..10_000u32).all(|i| table[&(u64::from(i), u64::from(i) << 32)] == i));
    }
}
