//! Outputs as a long run meets them: each checked before the first game is
//! read, write errors that name the file, Ctrl-C when nobody reads stdout.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::{self, bin, text, wait_within};

/// Every option that writes a file, and what it needs besides.
fn file_outputs() -> Vec<&'static str> {
    let mut o = vec![
        "--jsonl",
        "--summary-json",
        "--export-pgn",
        "--junit",
        "--sarif",
        "--gitlab",
        "--report-json",
        "--html",
    ];
    if cfg!(feature = "parquet") {
        o.push("--parquet");
    }
    o
}

/// A variable set for a run: its name and value.
type Env<'a> = Option<(&'a str, &'a Path)>;

/// `audit -` with `args`, stdin a pipe that is never written to nor
/// closed: a run that reads a game waits for ever.
fn audit_waiting_stdin(
    args: &[&str],
    env: Option<(&str, &Path)>,
) -> (Child, std::process::ChildStdin) {
    let mut cmd = bin();
    cmd.args(["audit", "--quiet"])
        .args(args)
        .arg("-")
        .env_remove("GITHUB_STEP_SUMMARY")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if let Some((k, v)) = env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
    let stdin = child.stdin.take().unwrap();
    (child, stdin)
}

/// `--html` or `--summary-json` to a directory that does not
/// exist failed after the whole audit (an hour into a Lichess month).
/// Every output is opened before the first game is read: the run below
/// would wait for ever on its stdin if it read it.
#[test]
fn unwritable_outputs_fail_before_the_first_game_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-dir").join("out");
    let missing_s = missing.to_str().unwrap();
    let mut cases: Vec<(String, Vec<&str>, Env<'_>)> = file_outputs()
        .into_iter()
        .map(|o| (o.to_string(), vec![o, missing_s], None))
        .collect();
    cases.push((
        "GITHUB_STEP_SUMMARY".into(),
        vec!["--github"],
        Some(("GITHUB_STEP_SUMMARY", &missing)),
    ));
    for (what, args, env) in cases {
        let (mut child, stdin) = audit_waiting_stdin(&args, env);
        let status = wait_within(&mut child, Duration::from_secs(20), &what);
        drop(stdin);
        let err = text(&child.wait_with_output().unwrap().stderr);
        assert_eq!(status.code(), Some(2), "{what}: {err}");
        // the option as well as the path: which of several outputs failed
        let named = format!("{what} {missing_s}: cannot ");
        assert!(err.contains(&named), "{what}: {err}");
    }
    // and the other commands that write files
    let sample = util::root().join("data/lichess-2000.pgn");
    let made = dir.path().join("agg.json");
    let summary = dir.path().join("summary.json");
    let ok = bin()
        .args(["audit", "--quiet", "--report-json"])
        .arg(&made)
        .arg("--summary-json")
        .arg(&summary)
        .arg(&sample)
        .status()
        .unwrap();
    assert!(ok.success());
    let mut cases: Vec<(&str, Command)> = Vec::new();
    for o in ["--json", "--html"] {
        let mut cmd = bin();
        cmd.args(["report", o, missing_s]).arg(&made);
        cases.push((o, cmd));
    }
    for (o, with) in [
        ("--jsonl", &["--findings", "/dev/null"][..]),
        ("--summary-json", &[]),
        ("--report-json", &["--reports", "/dev/null"]),
    ] {
        let mut cmd = bin();
        cmd.arg("merge")
            .arg(&summary)
            .args([o, missing_s])
            .args(with);
        cases.push((o, cmd));
    }
    for (o, mut cmd) in cases {
        let out = cmd.stdout(Stdio::null()).output().unwrap();
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{o}: {err}");
        let named = format!("{o} {missing_s}: cannot create: ");
        assert!(err.contains(&named), "{o}: {err}");
    }
}

/// The games for merging beside an aggregate (`AGG.json.ids`) that could
/// not be written were named by that path alone, which the user never
/// gave: the error names the aggregate they belong to.
#[test]
fn games_for_merging_that_cannot_be_written_name_their_aggregate() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("agg.json");
    // a directory where the file beside the aggregate goes
    std::fs::create_dir(dir.path().join("agg.json.ids")).unwrap();
    let json_s = json.to_str().unwrap();
    let sample = util::root().join("data/lichess-2000.pgn");
    let out = bin()
        .args(["audit", "--quiet", "--report-json", json_s])
        .arg(&sample)
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let named = format!("{json_s}: its games for merging, {json_s}.ids: ");
    assert!(err.contains(&named), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// A write error (a full disk) said only "No space left on
/// device", not which of the outputs could not be written.
#[test]
fn a_full_disk_names_the_output_file() {
    if !Path::new("/dev/full").exists() {
        // not Linux
        return;
    }
    let sample = util::root().join("data/lichess-2000.pgn");
    let mut cases: Vec<(String, Command)> = Vec::new();
    for o in file_outputs() {
        let mut cmd = bin();
        cmd.args(["audit", "--quiet", o, "/dev/full"]).arg(&sample);
        cases.push((o.to_string(), cmd));
    }
    let mut cmd = bin();
    cmd.args(["audit", "--quiet", "--github"])
        .arg(&sample)
        .env("GITHUB_STEP_SUMMARY", "/dev/full");
    cases.push(("GITHUB_STEP_SUMMARY".into(), cmd));
    let dir = tempfile::tempdir().unwrap();
    let agg = dir.path().join("agg.json");
    let made = bin()
        .args(["audit", "--quiet", "--report-json"])
        .args([&agg, &sample])
        .output()
        .unwrap();
    assert!(made.status.success());
    for o in ["--json", "--html"] {
        let mut cmd = bin();
        cmd.args(["report", o, "/dev/full"]).arg(&agg);
        cases.push((format!("report {o}"), cmd));
    }
    for (what, mut cmd) in cases {
        let out = cmd.stdout(Stdio::null()).output().unwrap();
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{what}: {err}");
        assert!(
            err.contains("/dev/full: No space left on device"),
            "{what}: {err}"
        );
    }
    // stdout is named too
    let out = bin()
        .args(["audit", "--quiet", "--jsonl", "-"])
        .arg(&sample)
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("stdout: No space left on device"), "{err}");
}

/// The binary starts at its own C `main` (src/main.rs), which
/// must do what Rust's start did for a closed stdout: open it on
/// `/dev/null`. Else the findings file, opened first, became fd 1 and the
/// summary table printed to stdout went into it.
#[test]
fn a_closed_stdout_is_not_the_findings_file() {
    let dir = tempfile::tempdir().unwrap();
    let findings = dir.path().join("f.jsonl");
    let out = Command::new("sh")
        .args([
            "-c",
            "exec \"$0\" \"$@\" >&-",
            util::BIN,
            "audit",
            "--jsonl",
        ])
        .arg(&findings)
        .arg(util::root().join("data/lichess-2000.pgn"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let written = std::fs::read(&findings).unwrap();
    assert!(written.len() > 1000, "{} bytes", written.len());
    for line in written.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let v: Result<serde_json::Value, _> = serde_json::from_slice(line);
        assert!(v.is_ok(), "not JSON: {}", String::from_utf8_lossy(line));
    }
}

/// Ctrl-C while stdout is a full pipe (the consumer stopped
/// reading) hung: 30 s after SIGINT the process was still trying to write
/// what it had read. A first Ctrl-C ends it within about a second with 130,
/// and what reached the pipe is whole JSON lines.
#[test]
fn ctrl_c_while_stdout_is_a_full_pipe_does_not_hang() {
    let dir = tempfile::tempdir().unwrap();
    // 50,000 games with a finding each: 5 MB in, 25 MB of JSON Lines out
    let game = "[Event \"t\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n\
1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 1-0\n\n";
    let input = util::write(dir.path(), "many.pgn", game.repeat(50_000));
    let mut child = bin()
        .args(["audit", "--quiet", "--jsonl", "-"])
        .arg(&input)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // nobody reads stdout: wait until the process waits in a write to it
    let wchan = format!("/proc/{}/wchan", child.id());
    let started = Instant::now();
    loop {
        match std::fs::read_to_string(&wchan) {
            Ok(w) if w.contains("pipe_write") => break,
            // elsewhere than Linux: the pipe (64 KiB) is full long before
            Err(_) if started.elapsed() > Duration::from_secs(3) => break,
            _ => {}
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "ended before its output blocked"
        );
        assert!(started.elapsed() < Duration::from_secs(30), "never blocked");
        std::thread::sleep(Duration::from_millis(20));
    }
    // blocked for a while already, as a stopped consumer leaves it
    std::thread::sleep(Duration::from_millis(300));
    util::interrupt(child.id());
    let signal = Instant::now();
    let status = wait_within(&mut child, Duration::from_secs(10), "after Ctrl-C");
    let took = signal.elapsed();
    eprintln!("ctrl_c_while_stdout_is_a_full_pipe_does_not_hang: ended {took:?} after SIGINT");
    assert_eq!(status.code(), Some(130));
    assert!(took < Duration::from_secs(3), "took {took:?}");
    // a reader comes at last: what is in the pipe is whole lines
    let out = child.wait_with_output().unwrap();
    assert!(
        text(&out.stderr).contains("interrupted"),
        "{}",
        text(&out.stderr)
    );
    assert!(out.stdout.len() > 4096, "{} bytes", out.stdout.len());
    assert!(out.stdout.ends_with(b"\n"), "a partial line at the end");
    for line in out.stdout.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let v: serde_json::Value = serde_json::from_slice(line).unwrap();
        assert_eq!(v["kind"], "missed_threefold");
    }
}

/// After Ctrl-C the summary's `bytes` (and the MB/s the human summary
/// derives from them) counted the whole file, or nothing of a stream, not
/// what had been read. They count the bytes cut into chunks before the
/// interrupt, every one of which was audited, of a file and a stream
/// alike. The interrupt flag is set as the first game is written, as a
/// Ctrl-C handler would set it.
#[test]
fn bytes_after_ctrl_c_are_those_read_and_audited() {
    use pgn_arbiter::pipeline::for_each_game;
    use pgn_arbiter::Audit;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let path = util::root().join("data/lichess-2000.pgn");
    let data = std::fs::read(&path).unwrap();
    for stream in [false, true] {
        let flag = Arc::new(AtomicBool::new(false));
        let audit = Audit::new()
            .threads(1)
            .sizes(16 << 10, 16 << 10)
            .interrupt(flag.clone());
        let mut end = 0u64;
        let mut sink = for_each_game(|g| {
            flag.store(true, Ordering::Relaxed);
            end = end.max(g.report.offset + g.report.len);
        });
        let run = if stream {
            audit.run_reader("-", std::io::Cursor::new(data.clone()), &mut sink)
        } else {
            audit.run(&[&path], &mut sink, &())
        }
        .unwrap();
        let t = &run.total;
        assert!(run.interrupted, "stream {stream}");
        assert!(
            t.games > 0 && t.games < 2000,
            "stream {stream}: {} games",
            t.games
        );
        assert!(t.balanced(), "stream {stream}");
        assert!(
            t.bytes >= end && t.bytes < data.len() as u64 / 2,
            "stream {stream}: {} bytes, the last game read ends at {end}",
            t.bytes
        );
    }
}

/// On the default build `--parquet` was unknown to clap ("tip: to
/// pass '--parquet' as a value, use '-- --parquet'") while the README lists
/// it. It is in every build's help; without the feature it is a usage
/// error that names the feature; `--version` names the features built in.
#[test]
fn parquet_on_a_build_without_it_names_the_feature() {
    let version = text(&bin().arg("--version").output().unwrap().stdout);
    let features = if cfg!(feature = "parquet") {
        "features: cli, arrow, parquet;"
    } else if cfg!(feature = "arrow") {
        "features: cli, arrow;"
    } else {
        "features: cli;"
    };
    assert!(version.contains(features), "{version}");
    let help = text(&bin().args(["audit", "--help"]).output().unwrap().stdout);
    assert!(help.contains("--parquet <FILE>"), "{help}");
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("f.parquet");
    let out = bin()
        .args(["audit", "--quiet", "--parquet"])
        .arg(&out_file)
        .arg(util::root().join("data/lichess-2000.pgn"))
        .output()
        .unwrap();
    let err = text(&out.stderr);
    if cfg!(feature = "parquet") {
        assert!(out.status.success(), "{err}");
        assert!(out_file.exists());
    } else {
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains("--parquet needs the `parquet` feature"),
            "{err}"
        );
        assert!(!err.contains("tip:"), "{err}");
        assert!(!out_file.exists(), "nothing is written");
        assert!(help.contains("needs the `parquet` feature"), "{help}");
    }
}
