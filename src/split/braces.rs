//! The brace state of a movetext line, which decides whether a blank line
//! or a line opening with `[` ends the game (not inside a comment).

use memchr::{memchr, memrchr};

use crate::bytes;

/// Brace state after one movetext line: `{...}` comments span lines, a `;`
/// outside a comment ends the line.
///
/// Without a `;` on the line the state at its end follows from the last
/// brace of each kind: after the last `}` the line is outside a comment
/// (that `}` closed one, or stood outside), and a `{` after it opens one.
/// Three searches over the line (one pass over a short line,
/// [`bytes::braces`]), against two for each comment in
/// [`scan_braces_in_order`] (Lichess's clock comments: some 70 a line).
pub(super) fn scan_braces(line: &[u8], in_brace: bool) -> bool {
    let (open, close) = match bytes::braces(line) {
        Some((_, _, true)) => return scan_braces_in_order(line, in_brace),
        Some((open, close, false)) => (open, close),
        None => {
            if memchr(b';', line).is_some() {
                return scan_braces_in_order(line, in_brace);
            }
            (memrchr(b'{', line), memrchr(b'}', line))
        }
    };
    match (open, close) {
        (Some(open), Some(close)) => open > close,
        (Some(_), None) => true,
        (None, Some(_)) => false,
        (None, None) => in_brace,
    }
}

/// Brace state after a run of whole movetext lines, none of which may end
/// the game (none blank, none opening with `[`), read from `in_brace`: as
/// [`scan_braces`] line after line, skipping a line that opens with `%`
/// outside a comment, as the splitter does.
///
/// The last brace that counts decides: after a `}` the run is outside a
/// comment, after a `{` inside one, whatever came before. The last brace
/// of the run counts unless a `;` stands before it on its line or its
/// line opens with `%` (then the run is read line by line). So one search
/// from the end, not one over every line: an engine's movetext is a line
/// a move, each with a comment.
pub(super) fn scan_run(run: &[u8], in_brace: bool) -> bool {
    let Some(last) = memchr::memrchr2(b'{', b'}', run) else {
        // `;` and `%` lines change nothing without a brace
        return in_brace;
    };
    let line = memrchr(b'\n', &run[..last]).map_or(0, |i| i + 1);
    if run[line] != b'%' && memchr(b';', &run[line..last]).is_none() {
        return run[last] == b'{';
    }
    let mut state = in_brace;
    for line in run.split_inclusive(|&b| b == b'\n') {
        if state || line[0] != b'%' {
            state = scan_braces(line, state);
        }
    }
    state
}

/// [`scan_braces`] brace by brace.
fn scan_braces_in_order(line: &[u8], mut in_brace: bool) -> bool {
    let mut rest = line;
    loop {
        if in_brace {
            match memchr(b'}', rest) {
                Some(i) => {
                    in_brace = false;
                    rest = &rest[i + 1..];
                }
                None => return true,
            }
        } else {
            match memchr::memchr2(b'{', b';', rest) {
                Some(i) if rest[i] == b'{' => {
                    in_brace = true;
                    rest = &rest[i + 1..];
                }
                _ => return false,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run read at once against its lines read one by one as the
    /// splitter read them (a `%` line skipped outside a comment): every run
    /// of two lines of one to three bytes over `{`, `}`, `;`, `%` and one
    /// other byte, and pseudo-random runs of up to six lines, from inside
    /// and outside a comment, with and without the last newline.
    #[test]
    fn a_run_of_lines_reads_as_its_lines_one_by_one() {
        const BYTES: [u8; 5] = [b'{', b'}', b';', b'%', b'a'];
        let by_lines = |run: &[u8], mut state: bool| {
            for line in run.split_inclusive(|&b| b == b'\n') {
                if state {
                    state = scan_braces_in_order(line, true);
                } else if line[0] != b'%' {
                    state = scan_braces_in_order(line, false);
                }
            }
            state
        };
        let line_of = |code: usize, len: u32| -> Vec<u8> {
            (0..len).map(|k| BYTES[code / 5usize.pow(k) % 5]).collect()
        };
        let mut runs: Vec<Vec<u8>> = Vec::new();
        for (la, lb) in [(1, 1), (1, 3), (2, 2), (3, 1), (3, 3)] {
            for a in 0..5usize.pow(la) {
                for b in 0..5usize.pow(lb) {
                    let mut run = line_of(a, la);
                    run.push(b'\n');
                    run.extend(line_of(b, lb));
                    runs.push(run);
                }
            }
        }
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |m: u64| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 33) % m
        };
        for _ in 0..20_000 {
            let mut run = Vec::new();
            for l in 0..1 + next(6) {
                if l > 0 {
                    run.push(b'\n');
                }
                for _ in 0..1 + next(8) {
                    run.push(BYTES[next(5) as usize]);
                }
            }
            runs.push(run);
        }
        for mut run in runs {
            for _ in 0..2 {
                for start in [false, true] {
                    assert_eq!(
                        scan_run(&run, start),
                        by_lines(&run, start),
                        "{:?} from {start}",
                        String::from_utf8_lossy(&run)
                    );
                }
                run.push(b'\n');
            }
        }
    }

    /// The shortcut without `;` against the brace-by-brace scan, on every
    /// line of up to 8 bytes over `{`, `}`, `;` and one other byte, from
    /// inside and outside a comment.
    #[test]
    fn braces_by_their_last_occurrence_equal_braces_in_order() {
        const BYTES: [u8; 4] = [b'{', b'}', b';', b'a'];
        for len in 0..=8u32 {
            for code in 0..4usize.pow(len) {
                let line: Vec<u8> = (0..len).map(|k| BYTES[code / 4usize.pow(k) % 4]).collect();
                for start in [false, true] {
                    assert_eq!(
                        scan_braces(&line, start),
                        scan_braces_in_order(&line, start),
                        "{:?} from {start}",
                        String::from_utf8_lossy(&line)
                    );
                }
            }
        }
    }
}
