//! The command line as a user meets it: inputs of every kind, bad inputs,
//! exit codes, output channels.

use std::io::Write;
use std::path::Path;
use std::process::Stdio;

use crate::util::{bin, json_lines, root, write};

const GAME: &str = "[Event \"t\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n\
1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 1-0\n\n";

fn zstd(bytes: &[u8]) -> Vec<u8> {
    zstd::encode_all(bytes, 3).unwrap()
}

#[test]
fn plain_zst_and_stdin_give_the_same_findings() {
    let dir = tempfile::tempdir().unwrap();
    let plain = write(dir.path(), "a.pgn", GAME.as_bytes());
    // a .zst recognised by its magic bytes, whatever its name
    let zst = write(dir.path(), "b.data", zstd(GAME.as_bytes()));
    let run = |p: &Path| {
        let out = bin()
            .args(["audit", "--quiet", "--jsonl", "-"])
            .arg(p)
            .output()
            .unwrap();
        assert!(out.status.success());
        let mut v = json_lines(&out.stdout);
        for x in &mut v {
            x["file"] = serde_json::Value::Null;
        }
        v
    };
    let a = run(&plain);
    let b = run(&zst);
    assert_eq!(a.len(), 1);
    assert_eq!(a[0]["kind"], "missed_threefold");
    assert_eq!(a, b);

    let mut child = bin()
        .args(["audit", "--quiet", "--jsonl", "-", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(&zstd(GAME.as_bytes()))
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let mut c = json_lines(&out.stdout);
    assert_eq!(c[0]["file"], "-");
    c[0]["file"] = serde_json::Value::Null;
    assert_eq!(a, c);
}

#[test]
fn directories_are_walked_for_pgn_and_pgn_zst() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    write(dir.path(), "x.pgn", GAME.as_bytes());
    write(&dir.path().join("sub"), "y.pgn.zst", zstd(GAME.as_bytes()));
    write(dir.path(), "notes.txt", b"not a pgn");
    let summary = dir.path().join("s.json");
    let out = bin()
        .args(["audit", "--quiet", "--summary-json"])
        .arg(&summary)
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    let s: serde_json::Value = serde_json::from_slice(&std::fs::read(summary).unwrap()).unwrap();
    assert_eq!(s["inputs"].as_array().unwrap().len(), 2);
    assert_eq!(s["total"]["games_read"], 2);
}

#[test]
fn missing_input_exits_2_and_the_others_are_still_processed() {
    let dir = tempfile::tempdir().unwrap();
    let good = write(dir.path(), "a.pgn", GAME.as_bytes());
    let out = bin()
        .args(["audit", "--quiet", "--jsonl", "-"])
        .arg(dir.path().join("missing.pgn"))
        .arg(&good)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.pgn"));
    assert_eq!(json_lines(&out.stdout).len(), 1);
}

#[test]
fn truncated_zst_reports_an_error_and_keeps_the_games_before_it() {
    let dir = tempfile::tempdir().unwrap();
    // games made different from each other, so that the stream does not
    // compress to nothing
    let mut seed: u64 = 7;
    let many: String = (0..2000)
        .map(|i| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            GAME.replace("[Event \"t\"]", &format!("[Event \"t{i} {seed:x}\"]"))
        })
        .collect();
    let z = zstd(many.as_bytes());
    let cut = write(dir.path(), "cut.pgn.zst", &z[..z.len() * 2 / 3]);
    let summary = dir.path().join("s.json");
    let out = bin()
        .args(["audit", "--quiet", "--summary-json"])
        .arg(&summary)
        .arg(&cut)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cut.pgn.zst") && err.contains("bytes"),
        "{err}"
    );
    let s: serde_json::Value = serde_json::from_slice(&std::fs::read(summary).unwrap()).unwrap();
    let input = &s["inputs"][0];
    let read = input["games_read"].as_u64().unwrap();
    assert!(read > 100 && read < 2000, "{read}");
    assert_eq!(
        read,
        input["analysed"].as_u64().unwrap()
            + input["invalid"].as_u64().unwrap()
            + input["skipped"].as_u64().unwrap()
    );
    assert!(input["error"].is_string());
}

#[test]
fn corrupt_zst_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let mut z = zstd(GAME.as_bytes());
    let n = z.len();
    for b in &mut z[8..n - 4] {
        *b ^= 0x5a;
    }
    let bad = write(dir.path(), "bad.pgn.zst", &z);
    let out = bin().args(["audit", "--quiet"]).arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

#[test]
fn closed_stdout_pipe_ends_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let many: String = (0..20000).map(|_| GAME).collect();
    let p = write(dir.path(), "many.pgn", many.as_bytes());
    let mut child = bin()
        .args(["audit", "--quiet", "--jsonl", "-"])
        .arg(&p)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // read one line, then close the pipe
    let mut stdout = child.stdout.take().unwrap();
    let mut buf = [0u8; 64];
    std::io::Read::read(&mut stdout, &mut buf).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn human_summary_on_stdout_without_jsonl() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "a.pgn", GAME.as_bytes());
    let out = bin().args(["audit"]).arg(&p).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("missed_threefold"), "{text}");
    assert!(
        text.contains("read = valid + invalid + skipped: yes"),
        "{text}"
    );
}

#[test]
fn latin1_tags_give_valid_json() {
    let dir = tempfile::tempdir().unwrap();
    let game = GAME.replace("[White \"A\"]", "[White \"M\u{fc}ller\"]");
    let bytes = game.replace('\u{fc}', "\u{1}").into_bytes();
    let bytes: Vec<u8> = bytes
        .into_iter()
        .map(|b| if b == 1 { 0xfc } else { b })
        .collect();
    let p = write(dir.path(), "latin1.pgn", &bytes);
    let out = bin()
        .args(["audit", "--quiet", "--jsonl", "-"])
        .arg(&p)
        .output()
        .unwrap();
    let v = json_lines(&out.stdout);
    assert_eq!(v[0]["White"], "M\u{fffd}ller");
}

#[test]
fn usage_error_exits_2() {
    let out = bin().args(["audit"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = bin()
        .args(["audit", "--laws", "1999", "x.pgn"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// `audit --quiet --summary-json s.json --jsonl - ARGS` in `dir`, `stdin`
/// fed to it: the output and the summary's first input.
fn audit_in(dir: &Path, args: &[&str], stdin: &[u8]) -> (std::process::Output, serde_json::Value) {
    let mut child = bin()
        .current_dir(dir)
        .args([
            "audit",
            "--quiet",
            "--summary-json",
            "s.json",
            "--jsonl",
            "-",
        ])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    let s: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("s.json")).unwrap()).unwrap();
    (out, s["inputs"][0].clone())
}

/// A `.pgn.zst` cut to 1 to 3 bytes (shorter than zstd's magic
/// number) was read as text: "text that is no game" at byte 0, with 1 byte
/// in the summary. It is a zstd file too short to hold a frame, and the
/// summary counts no byte decompressed, as the error says.
#[test]
fn a_zst_cut_shorter_than_the_magic_number_is_not_read_as_text() {
    let dir = tempfile::tempdir().unwrap();
    let mut pzstd = Vec::new();
    crate::util::push_pzstd_frame(&mut pzstd, &zstd(GAME.as_bytes()));
    for whole in [zstd(GAME.as_bytes()), pzstd] {
        for n in 1..=3 {
            write(dir.path(), "cut.pgn.zst", &whole[..n]);
            let (out, s) = audit_in(dir.path(), &["cut.pgn.zst"], b"");
            assert_eq!(out.status.code(), Some(2));
            let err = String::from_utf8_lossy(&out.stderr);
            let said = format!("zstd file too short to hold a frame: its {n} byte");
            assert!(err.contains("cut.pgn.zst") && err.contains(&said), "{err}");
            assert!(!err.contains("no game"), "{err}");
            assert!(s["error"].as_str().unwrap().contains(&said), "{s}");
            assert_eq!((&s["games_read"], &s["bytes"]), (&0.into(), &0.into()));
            assert!(out.stdout.is_empty());
        }
    }
    // on stdin, without a name: two bytes of a frame's magic or more
    let z = zstd(GAME.as_bytes());
    for n in 2..=3 {
        let (out, s) = audit_in(dir.path(), &["-"], &z[..n]);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("zstd file too short to hold a frame"), "{err}");
        assert_eq!(s["bytes"], 0);
    }
    // text that begins as a skippable frame's magic does is text
    write(dir.path(), "short.pgn", "[*");
    let (out, s) = audit_in(dir.path(), &["short.pgn"], b"");
    assert!(!String::from_utf8_lossy(&out.stderr).contains("zstd"));
    assert_eq!(s["bytes"], 2);
}

/// `cat a.pgn b.pgn.zst | pgn-arbiter audit -` read the zstd
/// bytes as text: blocks skipped and a bogus invalid game where the two
/// meet. The stream ends at zstd's magic number with an error that says
/// at which byte; the games before it are those of a.pgn.
#[test]
fn plain_then_zstd_on_stdin_is_an_error_naming_where() {
    let dir = tempfile::tempdir().unwrap();
    let big = std::fs::read(crate::util::root().join("data/lichess-2000.pgn")).unwrap();
    let small = GAME.repeat(3).into_bytes();
    let mut pzstd = Vec::new();
    crate::util::push_pzstd_frame(&mut pzstd, &zstd(GAME.as_bytes()));
    // a text longer and shorter than what is read to tell line ends (64 KiB)
    for text in [&big, &small] {
        write(dir.path(), "a.pgn", text);
        let (alone, plain) = audit_in(dir.path(), &["a.pgn"], b"");
        assert!(alone.status.success());
        for z in [zstd(GAME.as_bytes()), pzstd.clone()] {
            let joined = [&text[..], &z[..]].concat();
            let (out, s) = audit_in(dir.path(), &["-"], &joined);
            assert_eq!(out.status.code(), Some(2));
            let err = String::from_utf8_lossy(&out.stderr);
            let at = format!("zstd data at byte {} after plain text", text.len());
            assert!(
                err.contains("pgn-arbiter: -: ") && err.contains(&at),
                "{err}"
            );
            for k in ["games_read", "analysed", "invalid", "skipped", "bytes"] {
                assert_eq!(s[k], plain[k], "{k}: {s}");
            }
            let findings = String::from_utf8_lossy(&out.stdout)
                .replace("\"file\":\"-\"", "\"file\":\"a.pgn\"");
            assert!(findings.as_bytes() == alone.stdout, "findings differ");
        }
    }
}

/// Shell completions and a man page, generated from the command
/// line's own definition (clap_complete, clap_mangen).
#[test]
fn completions_and_the_man_page_come_from_the_command_line() {
    for shell in ["bash", "zsh", "fish"] {
        let out = bin().args(["completions", shell]).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let script = String::from_utf8_lossy(&out.stdout);
        for word in ["pgn-arbiter", "audit", "fail-on", "threads", "position"] {
            assert!(script.contains(word), "{shell}: {word}");
        }
    }
    let out = bin().args(["completions", "tcsh"]).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "an unknown shell is a usage error"
    );
    let out = bin().arg("man").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let page = String::from_utf8_lossy(&out.stdout);
    assert!(page.contains(".TH pgn-arbiter 1"), "{page}");
    assert!(
        page.contains("audit") && page.contains("completions"),
        "{page}"
    );
}

/// `man --dir DIR` writes the main page and a page for every command it
/// names (`pgn-arbiter-audit(1)`, ...), so no reference is left dangling.
#[test]
fn man_dir_writes_every_page_the_main_page_names() {
    let dir = tempfile::tempdir().unwrap();
    let out = bin()
        .args(["man", "--dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let main = std::fs::read_to_string(dir.path().join("pgn-arbiter.1")).unwrap();
    let mut named = 0;
    for (i, _) in main.match_indices("pgn\\-arbiter\\-") {
        let name: String = main[i..]
            .replace("\\-", "-")
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        assert!(
            dir.path().join(format!("{name}.1")).exists(),
            "{name}(1) is named but not written"
        );
        named += 1;
    }
    assert!(named > 0, "the main page names no command's page:\n{main}");
    assert!(dir.path().join("pgn-arbiter-audit.1").exists());
}

/// `audit` without a path or a part is a usage error, and its usage says
/// that one is required.
#[test]
fn audit_requires_a_path_or_a_part() {
    let out = bin().arg("audit").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let help = bin().args(["audit", "--help"]).output().unwrap();
    let usage = String::from_utf8_lossy(&help.stdout);
    assert!(usage.contains("<PATH>..."), "{usage}");
    assert!(!usage.contains("[PATH]..."), "{usage}");
}

/// A Markdown file read as PGN is no game: its `<!--` comments and `--`
/// rules read as a null move first, which no record opens with.
#[test]
fn a_markdown_file_holds_no_pgn_game() {
    let out = bin()
        .args(["audit", "-q", "--jsonl", "-"])
        .arg(root().join("README.md"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("no PGN game found"));
    // a game with tags that plays a null move is still an invalid game
    let game = "[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. -- e5 *\n";
    let dir = tempfile::tempdir().unwrap();
    let out = bin()
        .args(["audit", "-q", "--jsonl", "-"])
        .arg(write(dir.path(), "g.pgn", game))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"reason\":\"null move\""));
}
