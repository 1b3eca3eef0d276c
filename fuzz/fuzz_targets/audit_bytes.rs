//! The whole audit of one input of arbitrary bytes: no panic, no hang,
//! every game accounted for, every JSON line whole and JSON, and the same
//! output whatever the chunking (tiny chunks and regions on two threads
//! against one pass).
//!
//! The two pipelines (and their thread pools) are built once for the
//! process: a pool per input cost more than most inputs' audit.
#![no_main]

use std::io::Cursor;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use pgn_arbiter::pipeline::{Config, Pipeline};
use pgn_arbiter::report::jsonl::JsonlSink;
use pgn_arbiter::DeadMode;

/// One pass on one thread, and tiny chunks and regions on two.
fn pipelines() -> &'static (Pipeline, Pipeline) {
    static PIPELINES: OnceLock<(Pipeline, Pipeline)> = OnceLock::new();
    PIPELINES.get_or_init(|| {
        let build = |chunk, region, threads| {
            Pipeline::new(Config {
                dead: DeadMode::Material,
                threads,
                chunk_size: chunk,
                region_size: region,
                ..Config::default()
            })
            .expect("a thread pool")
        };
        (build(1 << 30, 1 << 30, 1), build(7, 64, 2))
    })
}

fn run(pipeline: &Pipeline, data: &[u8]) -> (Vec<u8>, u64) {
    let mut out = JsonlSink::new(Vec::new());
    let outcome = pipeline
        .run_reader(
            "fuzz.pgn",
            Box::new(Cursor::new(data.to_vec())),
            &mut out,
            &(),
        )
        .expect("a sink writing to memory does not fail");
    assert!(
        outcome.stats.balanced(),
        "read = analysed + invalid + skipped"
    );
    (out.into_inner(), outcome.stats.games)
}

fuzz_target!(|data: &[u8]| {
    let (whole, tiny) = pipelines();
    let (one, games) = run(whole, data);
    let text = std::str::from_utf8(&one).expect("JSON Lines are UTF-8");
    assert!(
        text.is_empty() || text.ends_with('\n'),
        "the last line is whole"
    );
    for line in text.lines() {
        let _: serde_json::Value = serde_json::from_str(line).expect("each line is JSON");
    }
    let (chunked, games2) = run(tiny, data);
    assert_eq!(games, games2, "games read at any chunking");
    assert_eq!(one, chunked, "the same findings at any chunking");
});
