//! `pgn-arbiter diff`: findings matched by game, not by place, on real
//! games (games inserted, deleted, files reordered and renamed); changed
//! fields; the text and JSON outputs; `--fail-on`; the exit codes.
//!
//! The tests on real games need the shared corpus (`../shared/` or
//! `PGN_ARBITER_SHARED`): without it they are skipped with a `SKIPPED` line
//! (see `util::Needs`), or fail when `PGN_ARBITER_REQUIRE_ALL` is set.

use std::collections::BTreeSet;
use std::io::Read;
use std::path::Path;
use std::process::{Output, Stdio};

use serde_json::Value;

use crate::util::{bin, json_lines, shared, text, write, Needs};

/// Black can claim threefold by announcing 4... Ng8, plays it and loses.
const REPEAT: &str = "[Event \"inserted\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n\
1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 1-0\n\n";
/// An illegal second move.
const ILLEGAL: &str = "[Event \"inserted\"]\n[White \"C\"]\n[Black \"D\"]\n[Result \"*\"]\n\n\
1. e4 e5 2. Ke3 *\n\n";
/// The start position five times: a missed threefold and a fivefold, one
/// game with two findings.
const FIVE: &str = "[Event \"inserted\"]\n[White \"E\"]\n[Black \"F\"]\n[Result \"1-0\"]\n\n\
1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 9. e4 1-0\n\n";
const CLEAN: &str =
    "[Event \"t\"]\n[White \"G\"]\n[Black \"H\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n";

/// Audits `inputs` in that order with `options`, findings to `out`.
fn audit_to(out: &Path, inputs: &[&Path], options: &[&str]) -> Vec<Value> {
    let run = bin()
        .args(["audit", "--quiet", "--jsonl"])
        .arg(out)
        .args(options)
        .args(inputs)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    json_lines(&std::fs::read(out).unwrap())
}

fn diff(old: &Path, new: &Path, options: &[&str]) -> Output {
    bin()
        .arg("diff")
        .arg(old)
        .arg(new)
        .args(options)
        .output()
        .unwrap()
}

/// The changes of a `--json` diff, by kind of change.
struct Changes {
    appeared: Vec<Value>,
    disappeared: Vec<Value>,
    changed: Vec<Value>,
}

fn changes(out: &Output) -> Changes {
    let mut c = Changes {
        appeared: Vec::new(),
        disappeared: Vec::new(),
        changed: Vec::new(),
    };
    for v in json_lines(&out.stdout) {
        match v["change"].as_str().unwrap() {
            "appeared" => c.appeared.push(v["finding"].clone()),
            "disappeared" => c.disappeared.push(v["finding"].clone()),
            "changed" => c.changed.push(v),
            other => panic!("unknown change {other}"),
        }
    }
    c
}

/// (game_id, kind) of findings.
fn keys<'a>(findings: impl IntoIterator<Item = &'a Value>) -> BTreeSet<(String, String)> {
    findings
        .into_iter()
        .map(|f| {
            (
                f["game_id"].as_str().unwrap().to_string(),
                f["kind"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The byte where each game starts: a tag line after a line that is not
/// one (or at the start).
fn game_starts(pgn: &[u8]) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut previous_is_tag = false;
    let mut at = 0;
    for line in pgn.split_inclusive(|&b| b == b'\n') {
        let is_tag = line.first() == Some(&b'[')
            && line
                .iter()
                .skip(1)
                .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                .count()
                > 0;
        if is_tag && !previous_is_tag {
            starts.push(at);
        }
        previous_is_tag = is_tag;
        at += line.len();
    }
    starts
}

/// The first `n` games of a `.pgn.zst` of the shared corpus, and where
/// each starts.
/// PGN text, and the byte where each of its games starts.
struct Pgn {
    bytes: Vec<u8>,
    starts: Vec<usize>,
}

fn first_games(name: &str, n: usize) -> Pgn {
    let path = shared().join("data").join(name);
    let all = zstd::decode_all(std::fs::File::open(&path).expect("../shared/data")).unwrap();
    let mut starts = game_starts(&all);
    assert!(starts.len() > n, "{name}: fewer than {n} games");
    let end = starts[n];
    starts.truncate(n);
    Pgn {
        bytes: all[..end].to_vec(),
        starts,
    }
}

/// Lichess games as A, over-the-board games as B: 3,000 each, with a few
/// hundred findings between them; `None` (the test skipped) without the
/// shared corpus.
fn corpus() -> Option<(Pgn, Pgn)> {
    if !Needs::test()
        .shared("data/online-lichess.pgn.zst")
        .shared("data/otb-twic-events.pgn.zst")
        .met()
    {
        return None;
    }
    Some((
        first_games("online-lichess.pgn.zst", 3000),
        first_games("otb-twic-events.pgn.zst", 3000),
    ))
}

fn count_line(stdout: &str) -> &str {
    stdout.lines().last().unwrap_or("")
}

/// The case: games inserted at the start of one file, the files
/// given in the other order and one renamed. Exactly the inserted games'
/// findings appear; nothing of the 6,000 untouched games moves.
#[test]
fn inserted_games_appear_and_nothing_else_moves() {
    let Some((Pgn { bytes: a, .. }, Pgn { bytes: b, .. })) = corpus() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let pa = write(dir.path(), "a.pgn", &a);
    let pb = write(dir.path(), "b.pgn", &b);
    let old_path = dir.path().join("old.jsonl");
    let old = audit_to(&old_path, &[&pa, &pb], &[]);
    assert!(old.len() > 100, "only {} findings", old.len());

    let inserted = [REPEAT, ILLEGAL].concat();
    let a2 = [inserted.as_bytes(), &a].concat();
    let pa2 = write(dir.path(), "renamed/a2.pgn", &a2);
    let new_path = dir.path().join("new.jsonl");
    let new = audit_to(&new_path, &[&pb, &pa2], &[]);
    // what the inserted games find on their own
    let alone = write(dir.path(), "inserted.pgn", inserted.as_bytes());
    let own = audit_to(&dir.path().join("own.jsonl"), &[&alone], &[]);
    assert_eq!(
        keys(&own),
        BTreeSet::from([
            (
                own[0]["game_id"].as_str().unwrap().into(),
                "missed_threefold".into()
            ),
            (
                own[1]["game_id"].as_str().unwrap().into(),
                "invalid_game".into()
            ),
        ])
    );
    assert_eq!(new.len(), old.len() + own.len());

    let out = diff(&old_path, &new_path, &["--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let c = changes(&out);
    assert_eq!(keys(&c.appeared), keys(&own));
    assert!(c.disappeared.is_empty(), "{:#?}", c.disappeared);
    assert!(c.changed.is_empty(), "{:#?}", c.changed);
    // the appeared finding is NEW's line, where the game now stands
    assert_eq!(c.appeared[0]["file"], pa2.to_str().unwrap());
    assert_eq!(c.appeared[0]["game"], 0);
    assert_eq!(
        c.appeared[0],
        *new.iter()
            .find(|f| f["game_id"] == own[0]["game_id"])
            .unwrap()
    );
    assert_eq!(
        text(&out.stderr).trim_end(),
        format!(
            "2 appeared, 0 disappeared, 0 changed, {} unchanged",
            old.len()
        )
    );

    // the same for people
    let out = diff(&old_path, &new_path, &[]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    let a2 = pa2.to_str().unwrap();
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        [
            format!("+ missed_threefold  {a2}: game 1 (line 1), 4... Ng8  A - B"),
            format!("+ invalid_game  {a2}: game 2 (line 8), 2. Ke3  C - D"),
            format!(
                "2 appeared, 0 disappeared, 0 changed, {} unchanged",
                old.len()
            ),
        ]
    );
}

/// Only the order of the files changes: every finding moves (other file
/// order, other lines), none is reported.
#[test]
fn reordering_files_changes_nothing() {
    let Some((Pgn { bytes: a, .. }, Pgn { bytes: b, .. })) = corpus() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let pa = write(dir.path(), "a.pgn", &a);
    let pb = write(dir.path(), "b.pgn", &b);
    let old_path = dir.path().join("old.jsonl");
    let old = audit_to(&old_path, &[&pa, &pb], &[]);
    let new_path = dir.path().join("new.jsonl");
    let new = audit_to(&new_path, &[&pb, &pa], &[]);
    assert_eq!(new.len(), old.len());
    assert_ne!(old[0], new[0], "the findings should come in another order");

    for options in [&[][..], &["--json"][..]] {
        let out = diff(&old_path, &new_path, options);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let summary = format!(
            "0 appeared, 0 disappeared, 0 changed, {} unchanged",
            old.len()
        );
        if options.is_empty() {
            assert_eq!(text(&out.stdout).trim_end(), summary);
        } else {
            assert!(out.stdout.is_empty());
            assert_eq!(text(&out.stderr).trim_end(), summary);
        }
    }
    // a file against itself, too
    let out = diff(&old_path, &old_path, &[]);
    assert_eq!(out.status.code(), Some(0));
}

/// A game with findings deleted from the middle of a file: exactly its
/// findings disappear, the games after it (all moved up) stay.
#[test]
fn a_deleted_game_disappears_alone() {
    let Some((
        Pgn { bytes: a, .. },
        Pgn {
            bytes: b,
            starts: b_starts,
        },
    )) = corpus()
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let pa = write(dir.path(), "a.pgn", &a);
    let pb = write(dir.path(), "b.pgn", &b);
    let old_path = dir.path().join("old.jsonl");
    let old = audit_to(&old_path, &[&pa, &pb], &[]);

    // a game of B in the middle with a finding, whose text is unique
    let in_b: Vec<&Value> = old
        .iter()
        .filter(|f| f["file"] == pb.to_str().unwrap() && f["game"].as_u64().unwrap() > 100)
        .collect();
    let victim = in_b
        .iter()
        .find(|f| {
            old.iter()
                .filter(|g| g["game_id"] == f["game_id"])
                .map(|g| (g["file"].to_string(), g["game"].as_u64()))
                .collect::<BTreeSet<_>>()
                .len()
                == 1
        })
        .expect("a game of B with a finding");
    let index = victim["game"].as_u64().unwrap() as usize;
    let start = victim["offset"].as_u64().unwrap() as usize;
    assert_eq!(
        b_starts[index], start,
        "games split as the audit splits them"
    );
    let end = b_starts.get(index + 1).copied().unwrap_or(b.len());
    let b2 = [&b[..start], &b[end..]].concat();
    let pb2 = write(dir.path(), "b2.pgn", &b2);
    let new_path = dir.path().join("new.jsonl");
    audit_to(&new_path, &[&pa, &pb2], &[]);

    let gone: Vec<&Value> = old
        .iter()
        .filter(|f| f["game_id"] == victim["game_id"])
        .collect();
    let out = diff(&old_path, &new_path, &["--json"]);
    // nothing appeared: a clean exit
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let c = changes(&out);
    assert!(c.appeared.is_empty() && c.changed.is_empty());
    assert_eq!(c.disappeared.len(), gone.len());
    assert_eq!(keys(&c.disappeared), keys(gone.iter().copied()));
    assert_eq!(c.disappeared[0], *gone[0]);
    let out = diff(&old_path, &new_path, &[]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with(&format!(
            "- {}  {}: game {} (line {}), ",
            victim["kind"].as_str().unwrap(),
            pb.to_str().unwrap(),
            index + 1,
            victim["line"]
        )),
        "{stdout}"
    );
    assert_eq!(
        count_line(&stdout),
        format!(
            "0 appeared, {} disappeared, 0 changed, {} unchanged",
            gone.len(),
            old.len() - gone.len()
        )
    );
}

/// Copies of one game text share a key: paired in order, the extra copy
/// appears (and disappears, the other way round).
#[test]
fn copies_of_a_game_pair_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let two = write(
        dir.path(),
        "two.pgn",
        [REPEAT, CLEAN, REPEAT].concat().as_bytes(),
    );
    let three = write(
        dir.path(),
        "three.pgn",
        [REPEAT, REPEAT, CLEAN, REPEAT].concat().as_bytes(),
    );
    let (o, n) = (dir.path().join("o.jsonl"), dir.path().join("n.jsonl"));
    audit_to(&o, &[&two], &[]);
    audit_to(&n, &[&three], &[]);
    let out = diff(&o, &n, &[]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    let three = three.to_str().unwrap();
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        [
            format!("+ missed_threefold  {three}: game 4 (line 22), 4... Ng8  A - B"),
            "1 appeared, 0 disappeared, 0 changed, 2 unchanged".to_string(),
        ]
    );
    let out = diff(&n, &o, &[]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with(&format!("- missed_threefold  {three}: game 4 (line 22), ")),
        "{stdout}"
    );
    assert_eq!(
        count_line(&stdout),
        "0 appeared, 1 disappeared, 0 changed, 2 unchanged"
    );
}

/// The same game judged by other Laws: the finding changed (its edition),
/// though the game also moved to another file and place, which is not a
/// change.
#[test]
fn a_finding_judged_otherwise_changed() {
    let dir = tempfile::tempdir().unwrap();
    let before = write(dir.path(), "before.pgn", REPEAT.as_bytes());
    let after = write(dir.path(), "after.pgn", [CLEAN, REPEAT].concat().as_bytes());
    let (o, n) = (dir.path().join("o.jsonl"), dir.path().join("n.jsonl"));
    let old = audit_to(&o, &[&before], &["--laws", "2001"]);
    let new = audit_to(&n, &[&after], &["--laws", "2018"]);
    assert_eq!((old.len(), new.len()), (1, 1));
    assert_eq!(old[0]["game_id"], new[0]["game_id"]);

    let out = diff(&o, &n, &["--json"]);
    // a change is not an appearance
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let c = changes(&out);
    assert!(c.appeared.is_empty() && c.disappeared.is_empty());
    assert_eq!(c.changed.len(), 1);
    let change = &c.changed[0];
    assert_eq!(change["fields"], serde_json::json!(["edition"]));
    assert_eq!(change["old"], old[0]);
    assert_eq!(change["new"], new[0]);
    assert_eq!(
        text(&out.stderr).trim_end(),
        "0 appeared, 0 disappeared, 1 changed, 0 unchanged"
    );

    let out = diff(&o, &n, &[]);
    let after = after.to_str().unwrap();
    assert_eq!(
        text(&out.stdout).lines().collect::<Vec<_>>(),
        [
            format!(
                "~ missed_threefold  {after}: game 2 (line 8), 4... Ng8  A - B: edition 2001 -> 2018"
            ),
            "0 appeared, 0 disappeared, 1 changed, 0 unchanged".to_string(),
        ]
    );

    // a changed described field other than the edition, by hand: ply and
    // occurrences listed, the place and tags not
    let mut edited = new[0].clone();
    edited["ply"] = 9.into();
    let occurrences = new[0]["occurrences"].as_u64().unwrap();
    edited["occurrences"] = (occurrences + 1).into();
    edited["line"] = 99.into();
    edited["White"] = "Someone".into();
    let e = write(dir.path(), "e.jsonl", format!("{edited}\n").as_bytes());
    let out = diff(&n, &e, &[]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(&format!(
            "4... Ng8  Someone - B: ply 7 -> 9, occurrences {occurrences} -> {}\n",
            occurrences + 1
        )),
        "{stdout}"
    );
    let out = diff(&n, &e, &["--json"]);
    assert_eq!(
        changes(&out).changed[0]["fields"],
        serde_json::json!(["ply", "occurrences"])
    );
}

/// Every line of `--json` is a whole JSON object with `change`, and each
/// change carries the finding(s) as written.
#[test]
fn json_lines_carry_the_findings() {
    let dir = tempfile::tempdir().unwrap();
    let before = write(
        dir.path(),
        "before.pgn",
        [CLEAN, ILLEGAL].concat().as_bytes(),
    );
    let after = write(dir.path(), "after.pgn", [REPEAT, CLEAN].concat().as_bytes());
    let (o, n) = (dir.path().join("o.jsonl"), dir.path().join("n.jsonl"));
    let old = audit_to(&o, &[&before], &[]);
    let new = audit_to(&n, &[&after], &[]);
    let out = diff(&o, &n, &["--json"]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(stdout.ends_with('\n'));
    let v = json_lines(&out.stdout);
    assert_eq!(v.len(), 2);
    assert_eq!(v[0]["change"], "appeared");
    assert_eq!(v[0]["finding"], new[0]);
    assert_eq!(v[1]["change"], "disappeared");
    assert_eq!(v[1]["finding"], old[0]);
    // the finding as written, its fields in the audit's order
    let first_new = text(&std::fs::read(&n).unwrap())
        .lines()
        .next()
        .unwrap()
        .to_string();
    assert_eq!(
        stdout.lines().next().unwrap(),
        format!("{{\"change\":\"appeared\",\"finding\":{first_new}}}")
    );
}

/// `--fail-on` on the appeared findings, counted as games, by kind and
/// by severity; percentages refused.
#[test]
fn fail_on_counts_appeared_games() {
    let dir = tempfile::tempdir().unwrap();
    let before = write(dir.path(), "before.pgn", CLEAN.as_bytes());
    // three games appear: a missed threefold, an invalid game, and one game
    // with both a missed threefold and a fivefold
    let after = write(
        dir.path(),
        "after.pgn",
        [CLEAN, REPEAT, ILLEGAL, FIVE].concat().as_bytes(),
    );
    let (o, n) = (dir.path().join("o.jsonl"), dir.path().join("n.jsonl"));
    audit_to(&o, &[&before], &[]);
    let new = audit_to(&n, &[&after], &[]);
    assert_eq!(new.len(), 4);
    for (list, code) in [
        ("fivefold", 1),
        ("fivefold>0", 1),
        ("fivefold>1", 0),
        ("wrong_result", 0),
        ("dead_position,seventyfive_moves", 0),
        ("missed_threefold>1", 1),
        ("missed_threefold>2", 0),
        ("invalid_game", 1),
        ("any", 1),
        // three games, four findings
        ("any>2", 1),
        ("any>3", 0),
        ("wrong_result,any>2", 1),
        // severities, judged as the audit judged them: the invalid game
        // and the fivefold scored 1-0 are errors, the missed claim a note
        ("error", 1),
        ("error>1", 1),
        ("error>2", 0),
        ("warning>1", 1),
        ("warning>2", 0),
    ] {
        let out = diff(&o, &n, &["--fail-on", list]);
        assert_eq!(out.status.code(), Some(code), "--fail-on {list}");
        if code == 1 {
            assert!(
                text(&out.stderr).contains("--fail-on "),
                "{list}: {}",
                text(&out.stderr)
            );
        }
    }
    let out = diff(&o, &n, &["--fail-on", "any>2"]);
    assert!(text(&out.stderr).contains("any>2: 3 games with findings appeared"));
    let out = diff(&o, &n, &["--fail-on", "error>1"]);
    assert!(
        text(&out.stderr).contains("error>1: 2 games with an error appeared"),
        "{}",
        text(&out.stderr)
    );
    // only disappearances: 0, with or without a condition
    assert_eq!(diff(&n, &o, &[]).status.code(), Some(0));
    assert_eq!(diff(&n, &o, &["--fail-on", "any"]).status.code(), Some(0));
    // a percentage needs the games read, which a diff does not know
    let out = diff(&o, &n, &["--fail-on", "fivefold,invalid_game>5%"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("pgn-arbiter: --fail-on invalid_game>5%"),
        "{stderr}"
    );
    assert!(stderr.contains("percentage"), "{stderr}");
    assert!(out.stdout.is_empty());
    // a list that cannot be read
    for bad in ["threefold", "fivefold>many", ""] {
        let out = diff(&o, &n, &["--fail-on", bad]);
        assert_eq!(out.status.code(), Some(2), "--fail-on {bad:?}");
        assert!(text(&out.stderr).contains("--fail-on"));
    }
}

/// Files that cannot be read, lines that are not findings of schema 1: 2,
/// naming the file and the line.
#[test]
fn what_cannot_be_read_exits_2_naming_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let game = write(dir.path(), "g.pgn", REPEAT.as_bytes());
    let good = dir.path().join("good.jsonl");
    let found = audit_to(&good, &[&game], &[]);
    let line = found[0].to_string();
    let missing = dir.path().join("missing.jsonl");

    let out = diff(&missing, &good, &[]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with(&format!("pgn-arbiter: {}: ", missing.display())),
        "{stderr}"
    );
    let out = diff(&good, dir.path(), &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("is a directory"));

    // blank lines and CRLF are fine
    let ok = write(dir.path(), "ok.jsonl", format!("\n{line}\r\n\n").as_bytes());
    let out = diff(&good, &ok, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "0 appeared, 0 disappeared, 0 changed, 1 unchanged\n"
    );

    let mut no_id = found[0].clone();
    no_id.as_object_mut().unwrap().remove("game_id");
    let mut no_kind = found[0].clone();
    no_kind.as_object_mut().unwrap().remove("kind");
    let mut before_schema_1 = no_id.clone();
    before_schema_1
        .as_object_mut()
        .unwrap()
        .remove("schema_version");
    let mut bad_id = found[0].clone();
    bad_id["game_id"] = "xyz".into();
    for (second, says) in [
        (no_id.to_string(), "no game_id"),
        (no_kind.to_string(), "no kind"),
        ("{\"kind\": oops".to_string(), "not a finding"),
        ("[1, 2]".to_string(), "not a JSON object"),
        (bad_id.to_string(), "not 32 hexadecimal digits"),
        (before_schema_1.to_string(), "re-run pgn-arbiter audit"),
    ] {
        let p = write(
            dir.path(),
            "bad.jsonl",
            format!("{line}\n{second}\n{line}\n").as_bytes(),
        );
        for out in [diff(&p, &good, &[]), diff(&good, &p, &["--json"])] {
            assert_eq!(out.status.code(), Some(2), "{second}");
            let stderr = text(&out.stderr);
            assert!(
                stderr.starts_with(&format!("pgn-arbiter: {} line 2: ", p.display())),
                "{stderr}"
            );
            assert!(stderr.contains(says), "{stderr}");
            assert!(out.stdout.is_empty());
        }
    }

    // a usage error
    let out = bin().args(["diff", "only-one.jsonl"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// A reader that stops reading (`| head`) ends the diff quietly with 0.
#[test]
fn a_closed_stdout_ends_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let empty = write(dir.path(), "empty.jsonl", b"");
    // enough changes to fill any pipe buffer
    let many: String = (0..400)
        .map(|i| REPEAT.replace("[White \"A\"]", &format!("[White \"A{i}\"]")))
        .collect();
    let game = write(dir.path(), "many.pgn", many.as_bytes());
    let n = dir.path().join("n.jsonl");
    assert_eq!(audit_to(&n, &[&game], &[]).len(), 400);
    let mut child = bin()
        .arg("diff")
        .arg(&empty)
        .arg(&n)
        .arg("--json")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}
