//! The pzstd frame index on arbitrary bytes read as a `.zst` file: no
//! panic (a bad frame, a wrong size hint, a cut file are errors), and the
//! file read through the index (`input/frames.rs`, decoders in parallel)
//! gives the bytes of the same file read in order as a stream (`audit -`):
//! both succeed or both fail, the same bytes when they succeed (one a
//! prefix of the other when they fail), and every compressed byte counted.
//! The good pzstd files of the seed corpus (`fuzz/seeds/frames/`) get the
//! fuzzer past the first header.
#![no_main]

use std::io::{Cursor, Read};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use pgn_arbiter::input::{is_zstd, open, open_reader, InputPath, Source};

/// Decoded bytes past this are not compared: a few bytes of zstd can
/// stand for megabytes (RLE blocks).
const CAP: usize = 4 << 20;

/// What a source gives: its bytes (up to `CAP`), whether it ended well,
/// whether it was cut at `CAP`.
fn drain(source: std::io::Result<Source>) -> (Vec<u8>, bool, bool) {
    let mut r = match source {
        Ok(Source::Stream(r)) => r,
        Ok(Source::Empty) | Ok(Source::Mapped(_)) => panic!("zstd is streamed"),
        Err(_) => return (Vec::new(), false, false),
    };
    let mut out = Vec::new();
    let mut buf = vec![0u8; 65_536];
    loop {
        match r.read(&mut buf) {
            Ok(0) => return (out, true, false),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(_) => return (out, false, false),
        }
        if out.len() >= CAP {
            return (out, false, true);
        }
    }
}

/// A file of its own for each input, unlinked once open: a decoder still
/// reading the last input's map must not see its file rewritten.
fn write_file(data: &[u8]) -> std::path::PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::path::Path::new("/dev/shm");
    let dir = if dir.is_dir() {
        dir.to_path_buf()
    } else {
        std::env::temp_dir()
    };
    let n = N.fetch_add(1, Ordering::Relaxed);
    let path = dir.join(format!(
        "pgn-arbiter-frames-{}-{n}.pgn.zst",
        std::process::id()
    ));
    std::fs::write(&path, data).expect("a temporary file");
    path
}

fuzz_target!(|data: &[u8]| {
    if !is_zstd(data) {
        return;
    }
    let path = write_file(data);
    let file_read = Arc::new(AtomicU64::new(0));
    let source = open(&InputPath::File(path.clone()), file_read.clone(), 3);
    let _ = std::fs::remove_file(&path);
    let (file, file_ok, file_cap) = drain(source);
    let stream_read = Arc::new(AtomicU64::new(0));
    let source = open_reader(Box::new(Cursor::new(data.to_vec())), stream_read.clone());
    let (stream, stream_ok, stream_cap) = drain(source);
    let n = file.len().min(stream.len());
    assert!(
        file[..n] == stream[..n],
        "the file and the stream decode differently"
    );
    if file_cap || stream_cap {
        return;
    }
    assert_eq!(file_ok, stream_ok, "one read fails and not the other");
    if file_ok {
        assert!(file == stream, "the same bytes");
        assert_eq!(
            file_read.load(Ordering::Relaxed),
            data.len() as u64,
            "file bytes counted"
        );
        assert_eq!(
            stream_read.load(Ordering::Relaxed),
            data.len() as u64,
            "stream bytes counted"
        );
    }
});
