//! The CI gate as a pipeline meets it: `--fail-on` and the exit codes (0
//! clean, 1 a condition held, 2 could not run; 2 wins over 1), the failed
//! condition named with its figure, and findings a person can act on.

use std::path::Path;
use std::process::Output;

use crate::util::{bin, text, write};

/// Black can claim threefold by announcing 4... Ng8 (the start position a
/// third time), plays it on the board and loses.
const REPEAT: &str =
    "[Event \"t\"]\n[Site \"https://lichess.org/abcdEFGH\"]\n[White \"A\"]\n[Black \"B\"]\n\
[Result \"1-0\"]\n[WhiteElo \"1500\"]\n[TimeControl \"180+2\"]\n[Opening \"Reti\"]\n\n\
1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 1-0\n\n";
/// An illegal second move.
const ILLEGAL: &str =
    "[Event \"t\"]\n[White \"C\"]\n[Black \"D\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n\n";
const CLEAN: &str =
    "[Event \"t\"]\n[White \"E\"]\n[Black \"F\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n";

fn audit(args: &[&str]) -> Output {
    bin().arg("audit").args(args).output().unwrap()
}

#[test]
fn findings_alone_never_fail_a_run() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "a.pgn", [REPEAT, ILLEGAL].concat());
    let out = audit(&["--quiet", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn a_condition_that_holds_exits_1_and_says_which_with_its_figure() {
    let dir = tempfile::tempdir().unwrap();
    // 4 games: 1 repetition, 1 invalid, 2 clean
    let p = write(
        dir.path(),
        "a.pgn",
        [REPEAT, ILLEGAL, CLEAN, CLEAN].concat(),
    );
    let p = p.to_str().unwrap();
    for (list, code) in [
        ("any", 1),
        ("invalid_game", 1),
        ("fivefold", 0),
        ("missed_threefold>0", 1),
        ("missed_threefold>1", 0),
        // 1 of 3 analysed = 33.3 %
        ("missed_threefold>33%", 1),
        ("missed_threefold>34%", 0),
        // invalid_game counts against games read: 1 of 4 = 25 %
        ("invalid_game>24.9%", 1),
        ("invalid_game>25%", 0),
        ("fivefold,wrong_result,invalid_game>0", 1),
    ] {
        let out = audit(&["--fail-on", list, p]);
        assert_eq!(out.status.code(), Some(code), "--fail-on {list}");
        let stdout = text(&out.stdout);
        if code == 1 {
            assert!(stdout.contains("--fail-on FAILED: "), "{list}: {stdout}");
        } else {
            assert!(stdout.contains("passed"), "{list}: {stdout}");
        }
    }
    let out = audit(&["--fail-on", "invalid_game>24.9%", p]);
    assert!(text(&out.stdout).contains(
        "--fail-on FAILED: invalid_game>24.9%: 1 game with invalid_game of 4 read (25.00%)"
    ));
    // quiet: the reason on stderr, and in --summary-json
    let summary = dir.path().join("s.json");
    let out = audit(&[
        "--quiet",
        "--fail-on",
        "missed_threefold",
        "--summary-json",
        summary.to_str().unwrap(),
        p,
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("missed_threefold: 1 game with missed_threefold of 3 analysed")
    );
    let s: serde_json::Value = serde_json::from_slice(&std::fs::read(&summary).unwrap()).unwrap();
    assert_eq!(s["failed_conditions"].as_array().unwrap().len(), 1);
    assert_eq!(s["total"]["flagged"], 2);
}

#[test]
fn could_not_run_exits_2_and_wins_over_a_failed_condition() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "a.pgn", ILLEGAL);
    let missing = dir.path().join("missing.pgn");
    let out = audit(&[
        "--quiet",
        "--fail-on",
        "any",
        p.to_str().unwrap(),
        missing.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("missing.pgn"));
    // a condition that cannot be read is a usage error
    for bad in ["threefold", "fivefold>many", "fivefold>-1%", ""] {
        let out = audit(&["--quiet", "--fail-on", bad, p.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "--fail-on {bad:?}");
        assert!(text(&out.stderr).contains("--fail-on"));
    }
}

#[test]
fn a_missing_input_keeps_its_row_in_the_summary() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "a.pgn", CLEAN);
    let missing = dir.path().join("missing.pgn");
    let summary = dir.path().join("s.json");
    let out = audit(&[
        "--quiet",
        "--summary-json",
        summary.to_str().unwrap(),
        missing.to_str().unwrap(),
        p.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let s: serde_json::Value = serde_json::from_slice(&std::fs::read(&summary).unwrap()).unwrap();
    assert_eq!(s["input_errors"], 1);
    let inputs = s["inputs"].as_array().unwrap();
    assert_eq!(inputs.len(), 2);
    assert!(inputs[0]["file"].as_str().unwrap().ends_with("missing.pgn"));
    assert!(inputs[0]["error"].is_string());
}

#[test]
fn help_documents_the_exit_codes() {
    let out = bin().args(["audit", "--help"]).output().unwrap();
    let help = text(&out.stdout);
    assert!(help.contains("Exit codes: 0"), "{help}");
    assert!(help.contains("--fail-on"));
}

#[test]
fn findings_carry_where_and_who_and_messages_count_from_1() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "a.pgn", [CLEAN, REPEAT, ILLEGAL].concat());
    let out = audit(&["--jsonl", "-", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let v: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(v.len(), 2);
    let rep = &v[0];
    assert_eq!(rep["kind"], "missed_threefold");
    assert_eq!(rep["game"], 1);
    assert_eq!(rep["line"], 8);
    assert_eq!(rep["ply"], 7);
    assert_eq!(rep["side"], "black");
    assert_eq!(rep["move_number"], 4);
    assert_eq!(rep["san"], "Ng8");
    assert_eq!(
        rep["fen"],
        "rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 7 4"
    );
    assert_eq!(rep["game_id"].as_str().unwrap().len(), 32);
    assert_eq!(rep["schema_version"], 1);
    // the default tags beyond the five, where present; not the others
    assert_eq!(rep["WhiteElo"], "1500");
    assert_eq!(rep["TimeControl"], "180+2");
    assert_eq!(rep["Event"], "t");
    assert!(rep.get("Opening").is_none());
    assert!(rep.get("BlackElo").is_none());
    let bad = &v[1];
    assert_eq!(bad["kind"], "invalid_game");
    assert_eq!(bad["san"], "Ke3");
    assert_eq!(bad["move_number"], 2);
    assert_eq!(bad["line"], 19);
    // people read "game 3 (line 19), 2. Ke3"
    let stderr = text(&out.stderr);
    assert!(stderr.contains("game 3 (line 19), 2. Ke3: "), "{stderr}");
    // the human summary shows examples, with a Lichess link at the ply
    let out = audit(&[p.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("game 2 (line 8), 4... Ng8: A - B"),
        "{stdout}"
    );
    assert!(
        stdout.contains("https://lichess.org/abcdEFGH#7"),
        "{stdout}"
    );
    // --tags adds tags, `all` keeps every one
    let out = audit(&[
        "--quiet",
        "--jsonl",
        "-",
        "--tags",
        "Opening",
        p.to_str().unwrap(),
    ]);
    let first: serde_json::Value =
        serde_json::from_str(text(&out.stdout).lines().next().unwrap()).unwrap();
    assert_eq!(first["Opening"], "Reti");
    let out = audit(&[
        "--quiet",
        "--jsonl",
        "-",
        "--tags",
        "all",
        p.to_str().unwrap(),
    ]);
    let first: serde_json::Value =
        serde_json::from_str(text(&out.stdout).lines().next().unwrap()).unwrap();
    assert_eq!(first["Opening"], "Reti");
}

/// The same game text has the same id wherever it stands, and whatever its
/// line ends.
#[test]
fn game_id_follows_the_text_not_the_place() {
    let dir = tempfile::tempdir().unwrap();
    let a = write(dir.path(), "a.pgn", [REPEAT, CLEAN].concat());
    let b = write(
        dir.path(),
        "b.pgn",
        [CLEAN, CLEAN, REPEAT.replace('\n', "\r\n").as_str()].concat(),
    );
    let id = |p: &Path| {
        let out = audit(&["--quiet", "--jsonl", "-", p.to_str().unwrap()]);
        let v: serde_json::Value =
            serde_json::from_str(text(&out.stdout).lines().next().unwrap()).unwrap();
        (
            v["game_id"].as_str().unwrap().to_string(),
            v["game"].as_u64().unwrap(),
        )
    };
    let (ia, ga) = id(&a);
    let (ib, gb) = id(&b);
    assert_eq!((ga, gb), (0, 2));
    assert_eq!(ia, ib);
    let c = write(
        dir.path(),
        "c.pgn",
        REPEAT.replace("[White \"A\"]", "[White \"Z\"]"),
    );
    assert_ne!(id(&c).0, ia);
}

/// The CI formats from the command line: annotations on stdout (the human
/// summary then goes to stderr), the step summary appended, JUnit and
/// SARIF files written, and the gate's exit code unchanged.
#[test]
fn ci_formats_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "a.pgn", [REPEAT, ILLEGAL, CLEAN].concat());
    let step = dir.path().join("step.md");
    std::fs::write(&step, "earlier step\n").unwrap();
    let junit = dir.path().join("j.xml");
    let sarif = dir.path().join("s.sarif");
    let out = bin()
        .env("GITHUB_STEP_SUMMARY", &step)
        .args(["audit", "--github", "--fail-on", "invalid_game", "--junit"])
        .arg(&junit)
        .arg("--sarif")
        .arg(&sarif)
        .arg(&p)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("::error ") && l.contains("line=12")),
        "{stdout}"
    );
    assert!(
        stdout.lines().any(|l| l.starts_with("::notice ")),
        "{stdout}"
    );
    assert!(
        !stdout.contains("finding  "),
        "the human summary goes to stderr"
    );
    assert!(text(&out.stderr).contains("--fail-on FAILED: invalid_game"));
    let md = std::fs::read_to_string(&step).unwrap();
    assert!(
        md.starts_with("earlier step\n") && md.contains("invalid_game"),
        "{md}"
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("<testsuites") && xml.contains("<failure"));
    let log: serde_json::Value = serde_json::from_slice(&std::fs::read(&sarif).unwrap()).unwrap();
    assert_eq!(log["version"], "2.1.0");
    assert_eq!(log["runs"][0]["results"].as_array().unwrap().len(), 2);
    // two writers to stdout is a usage error
    let out = audit(&["--github", "--jsonl", "-", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
}
