//! The mainline scanner against pgn-reader, its definition (SPEC), on
//! arbitrary bytes: the same moves, result token and stop on an open
//! comment, or the scanner leaves the text to pgn-reader (a leading tag).
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgn_arbiter::movetext::scan;
use pgn_arbiter::parse::Mainline;

fuzz_target!(|data: &[u8]| {
    let mut want = Mainline::default();
    want.read_with_pgn_reader(data);
    let mut got = Mainline::default();
    if scan(data, &mut got) {
        assert_eq!(got, want);
    }
});
