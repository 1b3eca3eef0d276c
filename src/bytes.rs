//! Searches over short byte runs, sixteen bytes at a time.
//!
//! Most of what PGN is searched for lies close: the end of a tag line, of
//! an engine game's movetext line (a move and its comment a line; TCEC:
//! 66 bytes on average), of a clock comment (`{ [%clk 0:05:00] }`). There
//! memchr's setup costs more than its search (60 to 90 instructions a
//! call), so these searches look at the first bytes with SSE2 (part of
//! every x86-64 CPU) and hand long runs to memchr. Elsewhere, memchr
//! alone. Bytes only: no PGN rule is decided here.

use memchr::memchr;

/// Lines up to this length have their braces found here, not by memchr.
const SHORT: usize = 128;
/// [`find`] searches this many bytes itself, then hands over to memchr.
const HEAD: usize = 64;

/// The first `byte` in `hay`: `memchr`'s answer, cheaper when it is near.
#[inline]
pub(crate) fn find(byte: u8, hay: &[u8]) -> Option<usize> {
    let mut off = 0;
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    while off + 16 <= hay.len() && off < HEAD {
        let m = sse2::mask(&hay[off..off + 16], byte);
        if m != 0 {
            return Some(off + m.trailing_zeros() as usize);
        }
        off += 16;
    }
    memchr(byte, &hay[off..]).map(|i| off + i)
}

/// Whether `byte` occurs in `hay`: every 16-byte chunk of a run of 16
/// bytes or more looked at without stopping (the last one overlapping;
/// two looks, in place, up to 32 bytes: a tag line), eight bytes at a time
/// below that (the first and the last eight), a byte at a time below 8.
#[inline]
pub(crate) fn contains(byte: u8, hay: &[u8]) -> bool {
    let n = hay.len();
    if n >= 16 {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        {
            if n <= 32 {
                return sse2::mask(hay, byte) | sse2::mask(&hay[n - 16..], byte) != 0;
            }
            return sse2::contains(hay, byte);
        }
        #[allow(unreachable_code)]
        return hay.contains(&byte);
    }
    if n >= 8 {
        return has_byte(word(hay), byte) || has_byte(word(&hay[n - 8..]), byte);
    }
    // core's `contains` is a memchr call, whose set-up costs more than
    // looking at seven bytes
    #[allow(clippy::manual_contains)]
    hay.iter().any(|&b| b == byte)
}

/// The first eight bytes of `b`, as one word.
#[inline]
fn word(b: &[u8]) -> u64 {
    u64::from_le_bytes(b[..8].try_into().expect("eight bytes"))
}

/// Whether one of the eight bytes of `w` is `byte` (the exact zero-byte
/// test on `w` XOR `byte` in every byte).
#[inline]
fn has_byte(w: u64, byte: u8) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let v = w ^ (u64::from(byte) * ONES);
    v.wrapping_sub(ONES) & !v & (ONES << 7) != 0
}

/// Where the line starting at `start` ends: just past its `\n`, or at the
/// end of `buf`.
#[inline]
pub(crate) fn line_end(buf: &[u8], start: usize) -> usize {
    find(b'\n', &buf[start..]).map_or(buf.len(), |i| start + i + 1)
}

/// The last `{`, the last `}` and whether a `;` occurs, in `line`; `None`
/// when it is too long for this search (then memchr searches it).
#[inline]
pub(crate) fn braces(line: &[u8]) -> Option<(Option<usize>, Option<usize>, bool)> {
    if line.len() > SHORT {
        return None;
    }
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    if line.len() >= 16 {
        return Some(sse2::braces(line));
    }
    let (mut open, mut close, mut semicolon) = (None, None, false);
    for (i, &b) in line.iter().enumerate() {
        match b {
            b'{' => open = Some(i),
            b'}' => close = Some(i),
            b';' => semicolon = true,
            _ => {}
        }
    }
    Some((open, close, semicolon))
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
    };

    // SAFETY (every `unsafe` below): SSE2 is enabled (this module is built
    // only then; it is part of the x86-64 baseline), and each load reads 16
    // bytes of a slice asserted to hold them, unaligned.

    #[inline]
    fn load(chunk: &[u8]) -> __m128i {
        assert!(chunk.len() >= 16);
        unsafe { _mm_loadu_si128(chunk.as_ptr().cast()) }
    }

    /// Bit i set where byte i of `v` equals the byte of `b`.
    #[inline]
    fn eq(v: __m128i, b: __m128i) -> u32 {
        unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(v, b)) as u32 }
    }

    #[inline]
    fn splat(byte: u8) -> __m128i {
        unsafe { _mm_set1_epi8(byte as i8) }
    }

    /// Bit i set where `chunk[i] == byte`, over the first 16 bytes.
    #[inline]
    pub(super) fn mask(chunk: &[u8], byte: u8) -> u32 {
        eq(load(chunk), splat(byte))
    }

    /// [`super::contains`] for 16 bytes or more.
    #[inline]
    pub(super) fn contains(hay: &[u8], byte: u8) -> bool {
        let b = splat(byte);
        let last = hay.len() - 16;
        let mut found = 0;
        let mut at = 0;
        while at < last {
            found |= eq(load(&hay[at..]), b);
            at += 16;
        }
        found |= eq(load(&hay[last..]), b);
        found != 0
    }

    /// [`super::braces`] of a line of 16 bytes or more: its 16-byte
    /// chunks, the last one overlapping the one before when the length is
    /// not a multiple of 16 (positions only grow, so the last hit wins).
    /// Each kind keeps the mask of the last chunk that held it; positions
    /// are worked out once, at the end.
    #[inline]
    pub(super) fn braces(line: &[u8]) -> (Option<usize>, Option<usize>, bool) {
        let (open_b, close_b, semi_b) = (splat(b'{'), splat(b'}'), splat(b';'));
        let ((mut open_at, mut open), (mut close_at, mut close)) = ((0, 0u32), (0, 0u32));
        let mut semicolon = 0u32;
        let last = line.len() - 16;
        let mut at = 0;
        loop {
            let at_now = at.min(last);
            let v = load(&line[at_now..]);
            let (o, c) = (eq(v, open_b), eq(v, close_b));
            semicolon |= eq(v, semi_b);
            if o != 0 {
                (open_at, open) = (at_now, o);
            }
            if c != 0 {
                (close_at, close) = (at_now, c);
            }
            if at_now == last {
                break;
            }
            at += 16;
        }
        let position =
            |at: usize, mask: u32| (mask != 0).then(|| at + 31 - mask.leading_zeros() as usize);
        (
            position(open_at, open),
            position(close_at, close),
            semicolon != 0,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every search here against memchr, memrchr or core's, on
    /// pseudo-random runs of every length up to past the limits, over bytes
    /// that matter and others.
    #[test]
    fn short_searches_equal_memchr_and_a_plain_scan() {
        const BYTES: [u8; 10] = [b'{', b'}', b';', b'\n', b'a', b' ', b'[', b'\r', 0x8d, 0xff];
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for len in 0..=200usize {
            for _ in 0..200 {
                // mostly ordinary bytes, as in real lines
                let buf: Vec<u8> = (0..len)
                    .map(|_| {
                        let r = next();
                        if r % 4 == 0 {
                            BYTES[(r >> 8) as usize % BYTES.len()]
                        } else {
                            b'a'
                        }
                    })
                    .collect();
                for start in [0, len / 3, len] {
                    let plain = memchr(b'\n', &buf[start..]).map_or(len, |i| start + i + 1);
                    assert_eq!(line_end(&buf, start), plain, "{buf:?} from {start}");
                    for byte in [b'}', b'{', b'q', b'\r'] {
                        let rest = &buf[start..];
                        assert_eq!(find(byte, rest), memchr(byte, rest), "{rest:?}: {byte}");
                        assert_eq!(
                            contains(byte, rest),
                            rest.contains(&byte),
                            "{rest:?}: {byte}"
                        );
                    }
                }
                let plain = (
                    memchr::memrchr(b'{', &buf),
                    memchr::memrchr(b'}', &buf),
                    memchr(b';', &buf).is_some(),
                );
                match braces(&buf) {
                    Some(found) => assert_eq!(found, plain, "{buf:?}"),
                    None => assert!(len > SHORT),
                }
            }
        }
    }
}
