//! The whole audit of one input of arbitrary bytes: no panic, no hang,
//! every game accounted for, every JSON line whole and JSON, and the same
//! output whatever the chunking (tiny chunks and regions on two threads
//! against one pass).
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgn_arbiter::report::jsonl::JsonlSink;
use pgn_arbiter::{Audit, DeadMode};

fn run(data: &[u8], chunk: usize, region: usize, threads: usize) -> (Vec<u8>, u64) {
    let mut out = JsonlSink::new(Vec::new());
    let run = Audit::new()
        .dead(DeadMode::Material)
        .threads(threads)
        .sizes(chunk, region)
        .run_bytes("fuzz.pgn", data, &mut out)
        .expect("a sink writing to memory does not fail");
    assert!(run.total.balanced(), "read = analysed + invalid + skipped");
    (out.into_inner(), run.total.games)
}

fuzz_target!(|data: &[u8]| {
    let (one, games) = run(data, 1 << 30, 1 << 30, 1);
    let text = std::str::from_utf8(&one).expect("JSON Lines are UTF-8");
    assert!(text.is_empty() || text.ends_with('\n'), "the last line is whole");
    for line in text.lines() {
        let _: serde_json::Value = serde_json::from_str(line).expect("each line is JSON");
    }
    let (tiny, games2) = run(data, 7, 64, 2);
    assert_eq!(games, games2, "games read at any chunking");
    assert_eq!(one, tiny, "the same findings at any chunking");
});
