//! pzstd files (independent zstd frames, each announced by a skippable
//! frame holding its size, as Lichess's dumps are written) are decoded by
//! several threads: the findings must be those of the plain file, and a
//! corrupt frame must end the input with an error at that frame.

use std::io::Write;
use std::path::Path;
use std::process::Output;

use crate::util::{self, bin};

/// The bundled sample: 4,000 games, 2.7 MB, 73 findings.
fn sample() -> Vec<u8> {
    let dir = util::root().join("data");
    let mut data = std::fs::read(dir.join("lichess-2000.pgn")).unwrap();
    data.extend_from_slice(b"\n\n");
    let twic = std::fs::read(dir.join("twic-2000.pgn.zst")).unwrap();
    data.extend_from_slice(&zstd::decode_all(&twic[..]).unwrap());
    data
}

/// `data` cut at `cuts`, each piece compressed on its own (with a checksum
/// and no decoded size, as pzstd writes frames) and preceded by pzstd's
/// skippable frame; the frame numbered `corrupt` has bytes flipped in its
/// middle.
fn pzstd(data: &[u8], cuts: &[usize], corrupt: Option<usize>) -> Vec<u8> {
    let mut out = Vec::new();
    let mut from = 0;
    for (i, &to) in cuts.iter().chain([&data.len()]).enumerate() {
        let mut e = zstd::stream::Encoder::new(Vec::new(), 3).unwrap();
        e.include_checksum(true).unwrap();
        e.write_all(&data[from..to]).unwrap();
        let mut frame = e.finish().unwrap();
        if corrupt == Some(i) {
            let mid = frame.len() / 2;
            for b in &mut frame[mid..mid + 32] {
                *b ^= 0x5a;
            }
        }
        util::push_pzstd_frame(&mut out, &frame);
        from = to;
    }
    out
}

/// Frame boundaries: three at game starts, three inside games (one inside
/// a tag section, two in movetext); the second frame is larger than the
/// pieces frames are decoded in (1 MiB).
fn cuts(data: &[u8]) -> Vec<usize> {
    let game_at = |part: f64| {
        let from = (data.len() as f64 * part) as usize;
        from + data[from..].windows(3).position(|w| w == b"\n\n[").unwrap() + 2
    };
    vec![
        game_at(0.05),
        game_at(0.45) + 5,
        game_at(0.55),
        game_at(0.62) - 40,
        game_at(0.8),
        data.len() * 9 / 10,
    ]
}

/// `pgn-arbiter audit NAME` run in `dir` (so that the file name in the
/// findings is the same for every input), findings on stdout.
fn audit(dir: &Path, name: &str, args: &[&str]) -> Output {
    bin()
        .current_dir(dir)
        .args([
            "audit",
            "--quiet",
            "--jsonl",
            "-",
            "--summary-json",
            "s.json",
        ])
        .args(args)
        .arg(name)
        .output()
        .unwrap()
}

fn summary(dir: &Path) -> serde_json::Value {
    let s: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("s.json")).unwrap()).unwrap();
    s["inputs"][0].clone()
}

fn accounted(input: &serde_json::Value) -> bool {
    let n = |k: &str| input[k].as_u64().unwrap();
    n("games_read") == n("analysed") + n("invalid") + n("skipped")
}

#[test]
fn a_pzstd_file_gives_the_findings_of_the_plain_file() {
    let data = sample();
    let plain = tempfile::tempdir().unwrap();
    let framed = tempfile::tempdir().unwrap();
    std::fs::write(plain.path().join("games.pgn"), &data).unwrap();
    // the same name: a .zst is known by its magic bytes
    std::fs::write(
        framed.path().join("games.pgn"),
        pzstd(&data, &cuts(&data), None),
    )
    .unwrap();
    let reference = audit(plain.path(), "games.pgn", &["--threads", "1"]);
    assert!(reference.status.success());
    assert!(reference.stdout.split(|&b| b == b'\n').count() > 70);
    for threads in ["1", "2"] {
        for sizes in [&[][..], &["--region-size", "70000", "--chunk-size", "9000"]] {
            let out = audit(
                framed.path(),
                "games.pgn",
                &[&["--threads", threads][..], sizes].concat(),
            );
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(
                out.stdout == reference.stdout,
                "{threads} threads {sizes:?}: findings differ from the plain file's"
            );
            let s = summary(framed.path());
            assert_eq!(s["games_read"], 4000);
            assert!(accounted(&s));
        }
    }
}

#[test]
fn a_corrupt_frame_names_the_file_and_keeps_the_games_before_it() {
    let data = sample();
    let cuts = cuts(&data);
    let plain = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(plain.path().join("bad.pgn.zst"), &data).unwrap();
    // a plain file, whatever its name says
    let reference = audit(plain.path(), "bad.pgn.zst", &["--threads", "1"]);
    assert!(reference.status.success());
    let games_before = |end: usize| {
        data[..end].windows(3).filter(|w| w == b"\n\n[").count() as u64
            + u64::from(data.starts_with(b"["))
    };
    // findings of games that start before `end` and end before it too
    let complete = |out: &[u8], end: usize| -> Vec<String> {
        let last_start = data[..end].windows(3).rposition(|w| w == b"\n\n[").unwrap();
        std::str::from_utf8(out)
            .unwrap()
            .lines()
            .filter(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                (v["offset"].as_u64().unwrap() as usize) < last_start
            })
            .map(str::to_string)
            .collect()
    };
    // frame 3 of 7 starts at cuts[2]
    std::fs::write(dir.path().join("bad.pgn.zst"), pzstd(&data, &cuts, Some(3))).unwrap();
    for threads in ["1", "2"] {
        let out = audit(dir.path(), "bad.pgn.zst", &["--threads", threads]);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("bad.pgn.zst") && err.contains("zstd frame 3"),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
        let s = summary(dir.path());
        assert!(accounted(&s), "{s}");
        assert!(s["error"].is_string());
        let read = s["games_read"].as_u64().unwrap();
        assert!(
            read >= games_before(cuts[2]) && read <= games_before(cuts[3]) + 1,
            "{read} games read"
        );
        let kept = complete(&out.stdout, cuts[2]);
        assert!(!kept.is_empty());
        assert_eq!(kept, complete(&reference.stdout, cuts[2]));
    }
}

/// A pzstd file whose size hints are wrong (one byte more or
/// less, or zero) is read as `zstd -d` reads it: the hint is a hint, and
/// the frames are streamed when it does not hold.
#[test]
fn wrong_pzstd_size_hints_fall_back_to_streaming() {
    let data = sample();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("games.pgn"), &data).unwrap();
    let plain = audit(dir.path(), "games.pgn", &[]);
    assert!(plain.status.success());
    let good = pzstd(&data, &cuts(&data), None);
    for (what, shift) in [("one more", 1i64), ("one less", -1), ("zeroed", i64::MIN)] {
        // Rewrite every hint: the u32 after each skippable frame's header.
        let mut bytes = good.clone();
        let mut at = 0;
        while at + 12 <= bytes.len() {
            let size = u32::from_le_bytes(bytes[at + 8..at + 12].try_into().unwrap());
            let wrong = if shift == i64::MIN {
                0
            } else {
                (i64::from(size) + shift) as u32
            };
            bytes[at + 8..at + 12].copy_from_slice(&wrong.to_le_bytes());
            at += 12 + size as usize;
        }
        std::fs::write(dir.path().join("games.pgn"), &bytes).unwrap();
        let framed = audit(dir.path(), "games.pgn", &["--threads", "2"]);
        assert!(
            framed.status.success(),
            "{what}: {}",
            String::from_utf8_lossy(&framed.stderr)
        );
        assert_eq!(framed.stdout, plain.stdout, "{what}: findings differ");
        assert!(accounted(&summary(dir.path())));
    }
}

/// One frame's hint one byte off (or zero) in a file whose first
/// hints are right was "truncated frame" (or "bytes after the end of the
/// frame") at that frame, though `zstd -t` and `zstd -d` accept the file:
/// the frames from the wrong hint on are read in order, and the findings
/// are the plain file's.
#[test]
fn pzstd_hint_off_by_one_or_zero_is_not_a_truncated_frame() {
    let data = sample();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("games.pgn"), &data).unwrap();
    let plain = audit(dir.path(), "games.pgn", &[]);
    assert!(plain.status.success());
    let good = pzstd(&data, &cuts(&data), None);
    // where each hint is, and the size it holds
    let mut hints = Vec::new();
    let mut at = 0;
    while at + 12 <= good.len() {
        let size = u32::from_le_bytes(good[at + 8..at + 12].try_into().unwrap());
        hints.push((at + 8, size));
        at += 12 + size as usize;
    }
    assert_eq!(hints.len(), 7);
    // frame 2 (the first two right: read in parallel up to it), and the last
    for frame in [2, 6] {
        for (what, wrong) in [("one more", 1i64), ("one less", -1), ("zero", 0)] {
            let (pos, size) = hints[frame];
            let hint = if wrong == 0 {
                0
            } else {
                (i64::from(size) + wrong) as u32
            };
            let mut bytes = good.clone();
            bytes[pos..pos + 4].copy_from_slice(&hint.to_le_bytes());
            std::fs::write(dir.path().join("games.pgn.zst"), &bytes).unwrap();
            for threads in ["1", "2"] {
                let out = audit(dir.path(), "games.pgn.zst", &["--threads", threads]);
                let err = String::from_utf8_lossy(&out.stderr);
                assert!(out.status.success(), "frame {frame} {what}: {err}");
                let s = summary(dir.path());
                assert_eq!(s["games_read"], 4000, "frame {frame} {what}");
                assert!(accounted(&s));
                // the plain file's findings, but for the file's name
                let findings =
                    String::from_utf8_lossy(&out.stdout).replace("games.pgn.zst", "games.pgn");
                assert!(
                    findings.as_bytes() == plain.stdout,
                    "frame {frame} {what}, {threads} threads: findings differ"
                );
            }
        }
    }
}
