//! The words people read: a count of one is singular, big
//! counts have thousands separators, an invalid game's reason is the
//! README's ("illegal move") in human text while the JSON Lines keep the
//! value the oracle compares, and an error names its file once.

use crate::util::{bin, json_lines, text, write};

const GAME: &str = "[Event \"t\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n\
1. e4 e5 2. Nf3 Nc6 1-0\n\n";

/// The human summary (stdout) and stderr of `audit` with `options`.
fn human(options: &[&str], path: &std::path::Path) -> (String, String, Option<i32>) {
    let out = bin().arg("audit").args(options).arg(path).output().unwrap();
    (text(&out.stdout), text(&out.stderr), out.status.code())
}

#[test]
fn one_game_on_one_thread_is_not_1_games() {
    let dir = tempfile::tempdir().unwrap();
    let one = write(dir.path(), "one.pgn", GAME);
    let (summary, _, code) = human(&["--threads", "1"], &one);
    assert_eq!(code, Some(0));
    let last = summary.lines().last().unwrap();
    assert!(last.starts_with("1 game, "), "{last}");
    assert!(last.contains(" on 1 thread; "), "{last}");
    // "1 games" as a count, not the tail of a bigger number ("3,331 games/s")
    let plural_after_one = summary.match_indices("1 games").any(|(i, _)| {
        !summary[..i]
            .chars()
            .last()
            .is_some_and(|c| c.is_ascii_digit() || c == ',')
    });
    assert!(!plural_after_one, "{summary}");
    // and two are two, with the plural
    let two = write(dir.path(), "two.pgn", GAME.repeat(2));
    let (summary, _, _) = human(&["-j", "2"], &two);
    let last = summary.lines().last().unwrap();
    assert!(
        last.starts_with("2 games, ") && last.contains(" on 2 threads; "),
        "{last}"
    );
}

#[test]
fn one_other_file_in_a_directory_is_1_other_file() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "notes.txt", "not a game");
    let (_, err, code) = human(&["--quiet"], dir.path());
    assert_eq!(code, Some(2));
    assert!(err.contains("(1 other file ignored)"), "{err}");
    write(dir.path(), "more.txt", "not a game either");
    let (_, err, _) = human(&["--quiet"], dir.path());
    assert!(err.contains("(2 other files ignored)"), "{err}");
}

#[test]
fn big_counts_have_thousands_separators() {
    let dir = tempfile::tempdir().unwrap();
    let many = write(dir.path(), "many.pgn", GAME.repeat(1_234));
    let (summary, _, code) = human(&[], &many);
    assert_eq!(code, Some(0));
    let last = summary.lines().last().unwrap();
    assert!(last.starts_with("1,234 games, "), "{last}");
    // the JSON keeps plain numbers
    let json = dir.path().join("s.json");
    let out = bin()
        .args(["audit", "--quiet", "--summary-json"])
        .arg(&json)
        .arg(&many)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let s: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(s["total"]["games_read"], 1_234, "{s}");
}

#[test]
fn an_invalid_game_says_illegal_move_to_people_and_illegal_san_in_json_lines() {
    let dir = tempfile::tempdir().unwrap();
    let bad = "[White \"C\"]\n[Black \"D\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n\n";
    let path = write(dir.path(), "bad.pgn", bad);
    let (summary, err, _) = human(&[], &path);
    assert!(err.contains("2. Ke3: illegal move"), "{err}");
    assert!(summary.contains("illegal move"), "{summary}");
    assert!(!format!("{summary}{err}").contains("illegal san"));
    let out = bin()
        .args(["audit", "--quiet", "--jsonl", "-"])
        .arg(&path)
        .output()
        .unwrap();
    let findings = json_lines(&out.stdout);
    assert_eq!(
        findings[0]["reason"], "illegal san",
        "SPEC's value, the oracle's"
    );
}

/// A file that begins as Parquet does and is none: its name once in the
/// error (it was "bad.parquet: cannot read: .../bad.parquet: ...").
#[test]
fn a_bad_parquet_file_is_named_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "bad.parquet", b"PAR1 and then nothing Parquet");
    let (_, err, code) = human(&["--quiet"], &path);
    assert_eq!(code, Some(2));
    assert_eq!(err.matches("bad.parquet").count(), 1, "{err}");
}
