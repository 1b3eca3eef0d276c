//! Inputs a gate meets that are not plain files (issue: hostile input):
//! pipes and FIFOs named as paths are read once, as streams (zstd found on
//! the stream); a FIFO inside a directory is named and skipped instead of
//! hanging the run; input compressed otherwise than with zstd is refused
//! with a message that says what to do; absurd thread counts are capped.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::util::{self, bin, root};

fn sample() -> Vec<u8> {
    std::fs::read(root().join("data/lichess-2000.pgn")).unwrap()
}

/// `audit --summary-json -` over `args`: exit code, summary, stderr.
fn summary(cmd: &mut Command) -> (i32, serde_json::Value, String) {
    let out = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let v = serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
    (out.status.code().unwrap_or(-1), v, stderr)
}

fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo").arg(path).status().unwrap().success();
    assert!(ok, "mkfifo {}", path.display());
}

#[test]
fn a_pipe_named_as_a_path_is_read_as_a_stream() {
    // `cat a.pgn a.pgn | pgn-arbiter audit /dev/stdin`
    let mut child = bin()
        .args(["audit", "--quiet", "--summary-json", "-", "/dev/stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let data = sample();
    {
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(&data).unwrap();
        stdin.write_all(&data).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["total"]["games_read"], 4000);
}

#[test]
fn process_substitution_of_a_zstd_stream_is_decoded() {
    // `pgn-arbiter audit <(zstd -c a.pgn)`, the zstd written by this test
    let dir = tempfile::tempdir().unwrap();
    let zst = dir.path().join("a.pgn.zst");
    std::fs::write(&zst, zstd::encode_all(&sample()[..], 3).unwrap()).unwrap();
    let script = format!(
        "{} audit --quiet --summary-json - <(cat {})",
        util::BIN,
        zst.display()
    );
    let (code, v, stderr) = summary(Command::new("bash").args(["-c", &script]));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(v["total"]["games_read"], 2000);
}

#[test]
fn a_fifo_named_as_a_path_is_read_and_one_in_a_directory_is_skipped_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("z.pgn");
    mkfifo(&fifo);
    // a writer: zstd-compressed games, as `zstd -c a.pgn > fifo`
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let bytes = zstd::encode_all(&sample()[..], 3).unwrap();
            let mut f = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
            f.write_all(&bytes).unwrap();
        })
    };
    let (code, v, stderr) = summary(
        bin()
            .args(["audit", "--quiet", "--summary-json", "-"])
            .arg(&fifo),
    );
    writer.join().unwrap();
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(v["total"]["games_read"], 2000);

    // the same FIFO found in a directory: named, skipped, no hang; the other
    // files are read
    std::fs::write(dir.path().join("a.pgn"), sample()).unwrap();
    let (code, v, stderr) = summary(
        bin()
            .args(["audit", "--quiet", "--summary-json", "-"])
            .arg(dir.path()),
    );
    assert_eq!(code, 2);
    assert!(
        stderr.contains("z.pgn") && stderr.contains("not a regular file"),
        "{stderr}"
    );
    assert_eq!(v["total"]["games_read"], 2000);
    assert_eq!(v["input_errors"], 1);
}

/// `audit` of the file `name` holding `bytes`, written in `dir`, then of
/// `good`: exit code, summary, stderr.
fn before_a_good_file(
    dir: &Path,
    name: &str,
    bytes: &[u8],
    good: &Path,
) -> (i32, serde_json::Value, String) {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    summary(
        bin()
            .args(["audit", "--quiet", "--summary-json", "-"])
            .arg(&p)
            .arg(good),
    )
}

/// `audit -` of `bytes` on stdin: exit code and stderr.
fn on_stdin(bytes: &[u8]) -> (i32, String) {
    let mut child = bin()
        .args(["audit", "--quiet", "-"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(bytes).unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code().unwrap_or(-1), stderr)
}

#[test]
fn gzip_bzip2_and_xz_are_refused_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.pgn");
    std::fs::write(&good, sample()).unwrap();
    for (name, head, tool) in [
        ("a.pgn.gz", &[0x1f, 0x8b, 8, 0, 0, 0][..], "gzip -dc"),
        ("b.pgn.bz2", &b"BZh91AY&SY"[..], "bzip2 -dc"),
        (
            "c.pgn.xz",
            &[0xfd, b'7', b'z', b'X', b'Z', 0, 0, 4][..],
            "xz -dc",
        ),
    ] {
        let (code, v, stderr) = before_a_good_file(dir.path(), name, head, &good);
        assert_eq!(code, 2, "{name}");
        assert!(
            stderr.contains(name) && stderr.contains(tool),
            "{name}: {stderr}"
        );
        // the other input is read all the same
        assert_eq!(v["total"]["games_read"], 2000);
        // and the same on stdin
        let (code, stderr) = on_stdin(head);
        assert_eq!(code, 2, "{name} on stdin");
        assert!(stderr.contains(tool), "{name} on stdin: {stderr}");
    }
}

/// A PGN file saved as UTF-16 (as Windows tools may save it) read as "no
/// PGN game found (1 block of text that is no game)", with no word of its
/// encoding. It is named as UTF-16, with or without its byte-order mark,
/// with the command that converts it; the other inputs are read.
#[test]
fn utf16_input_is_named_with_how_to_convert_it() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.pgn");
    std::fs::write(&good, sample()).unwrap();
    let text = "[Event \"t\"]\n[Result \"*\"]\n\n1. e4 *\n";
    let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
    for (name, bytes, from) in [
        ("bom-le.pgn", [&[0xff, 0xfe][..], &le].concat(), "UTF-16"),
        ("bom-be.pgn", [&[0xfe, 0xff][..], &be].concat(), "UTF-16"),
        ("le.pgn", le.clone(), "UTF-16LE"),
        ("be.pgn", be.clone(), "UTF-16BE"),
    ] {
        let (code, v, stderr) = before_a_good_file(dir.path(), name, &bytes, &good);
        assert_eq!(code, 2, "{name}: {stderr}");
        let convert = format!("iconv -f {from} -t UTF-8");
        assert!(
            stderr.contains(name) && stderr.contains("UTF-16") && stderr.contains(&convert),
            "{name}: {stderr}"
        );
        assert_eq!(v["input_errors"], 1, "{name}");
        assert_eq!(v["total"]["games_read"], 2000, "{name}");
        assert_eq!(v["total"]["accounted"], true, "{name}");
        // the same on stdin
        let (code, stderr) = on_stdin(&bytes);
        assert_eq!(code, 2, "{name} on stdin");
        assert!(stderr.contains(&convert), "{name} on stdin: {stderr}");
    }
}

#[test]
fn thousands_of_threads_are_capped_and_said_so() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("one.pgn");
    std::fs::write(&p, "[Result \"*\"]\n\n1. e4 *\n").unwrap();
    let (code, v, stderr) = summary(
        bin()
            .args([
                "audit",
                "--quiet",
                "--threads",
                "10000",
                "--summary-json",
                "-",
            ])
            .arg(&p),
    );
    assert_eq!(code, 0);
    assert!(stderr.contains("--threads 10000 capped at"), "{stderr}");
    let cap = v["threads"].as_u64().unwrap();
    let cores = std::thread::available_parallelism().unwrap().get() as u64;
    assert!(cap <= 4 * cores, "{cap} threads");
}

/// Ctrl-C: reading stops, the findings already made are written as whole
/// lines, the summary says it was interrupted and still accounts for every
/// game read, and the exit code is 130. Here the input is a pipe that never
/// ends (the writer keeps it open), as a stuck upstream job would.
#[test]
fn ctrl_c_ends_the_run_with_what_was_read() {
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("s.json");
    let mut child = bin()
        .args(["audit", "--quiet", "--jsonl", "-", "--summary-json"])
        .arg(&summary)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let data = sample();
    stdin.write_all(&data).unwrap();
    stdin.write_all(&data).unwrap();
    stdin.flush().unwrap();
    // let it read and audit, then interrupt while the pipe stays open
    std::thread::sleep(std::time::Duration::from_millis(1500));
    util::interrupt(child.id());
    let out = child.wait_with_output().unwrap();
    drop(stdin);
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("interrupted"));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.is_empty() || text.ends_with('\n'), "whole lines");
    for line in text.lines() {
        let _: serde_json::Value = serde_json::from_str(line).unwrap();
    }
    let s: serde_json::Value = serde_json::from_slice(&std::fs::read(&summary).unwrap()).unwrap();
    assert_eq!(s["interrupted"], true);
    let t = &s["total"];
    assert_eq!(t["accounted"], true);
    // the games handed over before Ctrl-C (at least the first copy: a
    // region is handed over when the pipe has no more for now) were audited;
    // what the reader still held was not read
    let read = t["games_read"].as_u64().unwrap();
    assert!((2000..=4000).contains(&read), "{read} games read");
    let findings: u64 = t["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["games"].as_u64().unwrap())
        .sum();
    assert_eq!(text.lines().count() as u64, findings);
}

/// One stray `{` in game 5 of 200 real games: pgn-reader reads the rest of
/// the file as that comment (SPEC.md follows it), and the run says so: the
/// game is named with its line, the summary counts the comment left open
/// and the 195 tag sections it hides, whatever the chunking.
#[test]
fn a_comment_left_open_is_named_with_the_games_it_hides() {
    let data = sample();
    let starts: Vec<usize> = data
        .windows(3)
        .enumerate()
        .filter(|(_, w)| *w == b"\n\n[")
        .map(|(i, _)| i + 2)
        .collect();
    let game5 = starts[3];
    let movetext = game5
        + data[game5..]
            .windows(4)
            .position(|w| w == b"\n1. ")
            .unwrap()
        + 1;
    let mut text = data[..movetext].to_vec();
    text.extend_from_slice(b"{ ");
    text.extend_from_slice(&data[movetext..starts[199]]);
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("brace.pgn");
    std::fs::write(&p, &text).unwrap();
    let line = 1 + text[..game5].iter().filter(|&&b| b == b'\n').count();
    for extra in [
        &["--threads", "1"][..],
        &["--threads", "2", "--chunk-size", "4096"][..],
    ] {
        let (code, v, stderr) = summary(
            bin()
                .args(["audit", "--summary-json", "-"])
                .args(extra)
                .arg(&p),
        );
        assert_eq!(code, 0, "{stderr}");
        assert!(
            stderr.contains(&format!(
                "brace.pgn: game 5 (line {line}, byte {game5}): a comment left open runs over 195 tag sections"
            )) && stderr.contains("to the end of the input"),
            "{stderr}"
        );
        let t = &v["total"];
        assert_eq!(t["games_read"], 5);
        assert_eq!(t["open_comments"], 1);
        assert_eq!(t["hidden_games"], 195);
    }
}

/// Found by fuzzing: a stream read with a huge region size allocated the
/// whole region up front and aborted.
#[test]
fn a_huge_region_size_on_a_stream_is_not_allocated_up_front() {
    let mut child = bin()
        .args(["audit", "--quiet", "--region-size", "4611686018427387903"])
        .args(["--summary-json", "-", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&sample()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["total"]["games_read"], 2000);
}

/// A file with old Mac line endings (a lone CR) was one game.
#[test]
fn lone_cr_line_endings_are_line_ends() {
    let dir = tempfile::tempdir().unwrap();
    let lf: Vec<u8> = sample().into_iter().take(200_000).collect();
    let cr: Vec<u8> = lf
        .iter()
        .map(|&b| if b == b'\n' { b'\r' } else { b })
        .collect();
    std::fs::write(dir.path().join("lf.pgn"), &lf).unwrap();
    std::fs::write(dir.path().join("cr.pgn"), &cr).unwrap();
    let zst = zstd::encode_all(&cr[..], 1).unwrap();
    std::fs::write(dir.path().join("cr.pgn.zst"), zst).unwrap();
    let run = |args: &[&str], stdin: Option<&[u8]>| {
        let mut cmd = bin();
        cmd.current_dir(dir.path())
            .args(["audit", "--quiet", "--summary-json", "-"])
            .args(args);
        if let Some(bytes) = stdin {
            let mut child = cmd
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .unwrap();
            child.stdin.take().unwrap().write_all(bytes).unwrap();
            let out = child.wait_with_output().unwrap();
            serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()["total"].clone()
        } else {
            summary(&mut cmd).1["total"].clone()
        }
    };
    let lf_total = run(&["lf.pgn"], None);
    assert!(lf_total["games_read"].as_u64().unwrap() > 300);
    for cr_total in [
        run(&["cr.pgn"], None),
        run(&["cr.pgn.zst"], None),
        run(&["-"], Some(&cr)),
    ] {
        for field in ["games_read", "analysed", "plies", "flagged"] {
            assert_eq!(cr_total[field], lf_total[field], "{field}");
        }
    }
}

/// `\"` and `\\` in tag values reached the JSONL undecoded.
#[test]
fn tag_escapes_are_decoded_in_the_reports() {
    let pgn = "[Event \"a \\\"quoted\\\" \\\\ name\"]\n[White \"W\"]\n[Black \"B\"]\n\
               [Result \"1-0\"]\n[FEN \"7k/8/6K1/8/8/8/8/5Q2 w - - 0 1\"]\n\n1. Qf7 1-0\n\n";
    let findings = util::audit(pgn, &["--tags", "Event"]);
    assert!(!findings.is_empty());
    assert_eq!(findings[0]["Event"], "a \"quoted\" \\ name");
}

/// A directory holding no PGN gave exit 0 and no word; names are
/// matched in any case.
#[test]
fn a_directory_without_pgn_is_said_and_names_match_in_any_case() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    std::fs::write(empty.join("README.txt"), "not chess").unwrap();
    let (code, _, stderr) = summary(
        bin()
            .args(["audit", "--quiet", "--summary-json", "-"])
            .arg(&empty),
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("no *.pgn") && stderr.contains("1 other file ignored"),
        "{stderr}"
    );
    let upper = dir.path().join("upper");
    std::fs::create_dir(&upper).unwrap();
    std::fs::write(upper.join("GAMES.PGN"), sample()).unwrap();
    let (code, v, stderr) = summary(
        bin()
            .args(["audit", "--quiet", "--summary-json", "-"])
            .arg(&upper),
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(v["total"]["games_read"], 2000);
}

/// Escape bytes in a file name reached the terminal raw (the
/// human summary, the input errors).
#[test]
fn escape_bytes_in_names_are_shown_not_sent_to_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let name = "x\u{1b}[31mred\u{7}.pgn";
    std::fs::write(dir.path().join(name), sample()).unwrap();
    let out = bin()
        .current_dir(dir.path())
        .args(["audit", name, "missing\u{1b}[2J.pgn"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    for (what, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        assert!(
            !bytes.contains(&0x1b) && !bytes.contains(&0x07),
            "{what} holds a control byte"
        );
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("x\\x1b[31mred\\x07.pgn"), "{stdout}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing\\x1b[2J.pgn"));
}

/// A path argument that is not UTF-8 aborted the whole run; it
/// is read as given and named lossily.
#[test]
fn a_path_that_is_not_utf8_is_read_and_named_lossily() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let name = OsStr::from_bytes(b"caf\xe9.pgn");
    std::fs::write(dir.path().join(name), sample()).unwrap();
    let (code, v, stderr) = summary(
        bin()
            .current_dir(dir.path())
            .args(["audit", "--quiet", "--summary-json", "-"])
            .arg(name)
            .arg(OsStr::from_bytes(b"gone\xff.pgn")),
    );
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(v["inputs"][0]["file"], "caf\u{fffd}.pgn");
    assert_eq!(v["inputs"][0]["games_read"], 2000);
    assert_eq!(v["inputs"][1]["file"], "gone\u{fffd}.pgn");
    assert_eq!(v["input_errors"], 1);
}

/// Text that is no game (no tag pair, no move, no result token at
/// its end) was counted as a valid game of 0 plies. It keeps its place in
/// the game index (the oracle counts every block), is counted as skipped
/// and as `not_pgn`, and is named on stderr with its line and byte. A game
/// with tags and no moves, or with moves and no tags, stays a game.
#[test]
fn text_that_is_no_game_is_skipped_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let first = b"[Event \"a\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 1/2-1/2\n\n";
    let second = b"[Event \"b\"]\n[White \"C\"]\n[Black \"D\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n";
    let mut text = first.to_vec();
    text.extend_from_slice(&[0u8; 4096]);
    text.extend_from_slice(b"\n\n");
    text.extend_from_slice(second);
    let nul = dir.path().join("nul.pgn");
    std::fs::write(&nul, &text).unwrap();
    let report = dir.path().join("r.json");
    let jsonl = dir.path().join("f.jsonl");
    let out = bin()
        .args(["audit", "--summary-json", "-", "--jsonl"])
        .arg(&jsonl)
        .arg("--report-json")
        .arg(&report)
        .arg(&nul)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let t = &v["total"];
    assert_eq!(
        [
            &t["games_read"],
            &t["analysed"],
            &t["invalid"],
            &t["skipped"],
            &t["not_pgn"]
        ],
        [3, 2, 0, 1, 1],
        "{t}"
    );
    assert_eq!(t["accounted"], true);
    assert_eq!(v["inputs"][0]["not_pgn"], 1);
    assert_eq!(v["input_errors"], 0);
    // named where it stands: the NULs start on line 8, byte 74
    assert_eq!(first.len(), 74);
    assert!(
        stderr.contains("nul.pgn: game 2 (line 8, byte 74): text that is no game"),
        "{stderr}"
    );
    // the game after it is still game 2 (0-based), as the oracle counts
    let lines = std::fs::read_to_string(&jsonl).unwrap();
    let finding: serde_json::Value = serde_json::from_str(lines.trim()).unwrap();
    assert_eq!(
        (&finding["game"], &finding["kind"]),
        (&2.into(), &"wrong_result".into())
    );
    let agg: serde_json::Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    assert_eq!(
        (&agg["games"]["skipped"], &agg["games"]["not_pgn"]),
        (&1.into(), &1.into())
    );

    // prose around games, as in the shared edge files; a game of moves
    // alone, a lone result token and a game of tags alone stay games; a
    // result token amid prose makes no game
    let mixed = dir.path().join("mixed.pgn");
    let text = "Adventure I. Silver Blaze\n\n\
                I am afraid, Watson, that I shall have to go, said Holmes.\n\
                Scores such as 1-0 and * are written in the tables.\n\n\
                1. d4 d5 2. c4 *\n\n\
                *\n\n\
                [Event \"tags only\"]\n[Result \"*\"]\n\n\
                [Event \"last\"]\n\n1. e4 *\n\n\
                The end.\n";
    std::fs::write(&mixed, text).unwrap();
    let (code, v, stderr) = summary(bin().args(["audit", "--summary-json", "-"]).arg(&mixed));
    assert_eq!(code, 0, "{stderr}");
    let t = &v["total"];
    assert_eq!(
        [
            &t["games_read"],
            &t["analysed"],
            &t["skipped"],
            &t["not_pgn"]
        ],
        [7, 4, 3, 3],
        "{t}"
    );
    assert_eq!(t["plies"], 4);
    for (game, line) in [(1, 1), (2, 3), (7, 17)] {
        assert!(
            stderr.contains(&format!("mixed.pgn: game {game} (line {line}, byte ")),
            "game {game}: {stderr}"
        );
    }
    assert_eq!(
        stderr.matches("): text that is no game (").count(),
        3,
        "{stderr}"
    );
}

/// A binary, random bytes or a README named as PGN read as
/// "valid games" of 0 plies, exit 0. Every block of such a file is text
/// that is no game: the input is an error (exit 2) that says so, its
/// blocks still counted; the first three are named, the rest counted.
#[test]
fn a_file_of_junk_is_an_input_error() {
    let dir = tempfile::tempdir().unwrap();
    // 1 MiB of seeded random bytes (xorshift64*)
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let random: Vec<u8> = (0..1 << 20)
        .map(|_| {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            (state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 56) as u8
        })
        .collect();
    let readme = "# frobnicate\n\n\
                  A small tool that frobnicates files.\n\n\
                  ## Usage\n\n    frobnicate --all FILE...\n\n\
                  * fast: 2x the old one\n* safe: see the tests\n\n\
                  Licence: MIT (c) 2024. Results are 1-0 or 0-1, never *, and\n\
                  a blank line ends a section.\n";
    let mut cases = vec![
        ("random.pgn", random),
        ("README.pgn", readme.as_bytes().to_vec()),
    ];
    if let Ok(ls) = std::fs::read("/bin/ls") {
        cases.push(("ls\u{1b}[2J.pgn", ls));
    }
    for (name, bytes) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, &bytes).unwrap();
        let (code, v, stderr) = summary(bin().args(["audit", "--summary-json", "-"]).arg(&path));
        assert_eq!(code, 2, "{name}: {stderr}");
        let input = &v["inputs"][0];
        let read = input["games_read"].as_u64().unwrap();
        assert!(read > 0, "{name}");
        assert_eq!(input["not_pgn"], read, "{name}: {input}");
        assert_eq!(input["skipped"], read, "{name}: {input}");
        assert_eq!(input["analysed"], 0, "{name}: {input}");
        assert_eq!(input["accounted"], true, "{name}");
        assert_eq!(v["input_errors"], 1, "{name}");
        let blocks = if read == 1 {
            "1 block of text that is"
        } else {
            &format!("{read} blocks of text that are")
        };
        let said = format!("no PGN game found ({blocks} no game)");
        assert_eq!(input["error"], said.as_str(), "{name}");
        assert!(stderr.contains(&said), "{name}: {stderr}");
        let named = stderr.matches("): text that is no game (").count() as u64;
        assert_eq!(named, read.min(3), "{name}: {stderr}");
        if read > 3 {
            let more = read - 3;
            let tail = if more == 1 {
                "1 more block of text that is no game".to_string()
            } else {
                format!("{more} more blocks of text that are no game")
            };
            assert!(stderr.contains(&tail), "{name}: {stderr}");
        }
        assert!(
            !stderr.as_bytes().contains(&0x1b),
            "{name}: an escape reached stderr"
        );
    }
}

/// Ctrl-C while the input sends nothing at all (a stdin kept open and
/// empty): nothing is held by an output, so the watchdog's backstop ends
/// the run 5 s after the signal, with 130, saying why. (The watchdog is a
/// SIGALRM handler started by the first signal, not a thread started by
/// every run.)
#[test]
fn ctrl_c_on_an_input_that_sends_nothing_ends_at_the_backstop() {
    use std::time::{Duration, Instant};
    let mut child = bin()
        .args(["audit", "--quiet", "--jsonl", "-", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    util::interrupt(child.id());
    let signal = Instant::now();
    let status = util::wait_within(&mut child, Duration::from_secs(20), "after Ctrl-C");
    let took = signal.elapsed();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(took >= Duration::from_millis(4900), "took {took:?}");
    assert!(err.contains("the run had not ended 5 s after it"), "{err}");
    assert!(out.stdout.is_empty());
}

/// A second Ctrl-C ends the run at once, whatever the run waits on. Here it
/// waits on its output: a pipe read slowly (a pager, a slow upload), so the
/// first Ctrl-C cannot finish the run soon (the games already read are
/// still being written; the first ends it only 0.8 s later, see
/// `outputs::ctrl_c_while_stdout_is_a_full_pipe_does_not_hang`). The second ends it with 130 within moments, and what
/// reached the pipe is whole JSON lines: each write to a pipe is of whole
/// lines and at most PIPE_BUF bytes, which a pipe takes all or nothing (it
/// used to write 64 KiB at a time and leave the last line cut).
#[test]
fn a_second_ctrl_c_ends_the_run_at_once_with_whole_lines() {
    use std::sync::{mpsc, Arc, Mutex};
    use std::time::{Duration, Instant};
    // 200,000 games with a finding each: 15 MB in, 86 MB of JSON Lines out
    let game = b"[Event \"b\"]\n[White \"C\"]\n[Black \"D\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n\n";
    let data = game.repeat(200_000);
    let mut child = bin()
        .args(["audit", "--quiet", "--jsonl", "-", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // the input: written, then kept open until the test is over
    let mut stdin = child.stdin.take().unwrap();
    let (done, wait) = mpsc::channel::<()>();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&data);
        let _ = wait.recv();
    });
    // the output: read 777 bytes every 2 ms, till the end
    let got = Arc::new(Mutex::new(Vec::new()));
    let mut stdout = child.stdout.take().unwrap();
    let sink = got.clone();
    let reader = std::thread::spawn(move || {
        let mut buf = [0u8; 777];
        loop {
            match std::io::Read::read(&mut stdout, &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => sink.lock().unwrap().extend_from_slice(&buf[..n]),
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    });
    let started = Instant::now();
    while got.lock().unwrap().len() < 100_000 {
        assert!(started.elapsed() < Duration::from_secs(20), "no output");
        std::thread::sleep(Duration::from_millis(10));
    }
    util::interrupt(child.id());
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        child.try_wait().unwrap().is_none(),
        "the first Ctrl-C ended the run: this test needs a run it cannot end"
    );
    util::interrupt(child.id());
    let second = Instant::now();
    let status = util::wait_within(
        &mut child,
        Duration::from_secs(10),
        "after the second Ctrl-C",
    );
    let took = second.elapsed();
    reader.join().unwrap();
    let _ = done.send(());
    writer.join().unwrap();
    assert_eq!(status.code(), Some(130), "{status:?}");
    assert!(took < Duration::from_secs(2), "took {took:?}");
    let out = got.lock().unwrap();
    assert!(out.len() >= 100_000);
    assert!(
        out.ends_with(b"\n"),
        "a partial line at the end of the output"
    );
    for line in out.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let v: serde_json::Value = serde_json::from_slice(line).unwrap();
        assert_eq!(v["kind"], "wrong_result");
    }
}
