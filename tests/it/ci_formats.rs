//! The CI output formats as their consumers read them, each run through the
//! library's `Audit` over files written here (and the bundled Lichess
//! sample):
//!
//! * GitHub Actions (`report::github`): the exact workflow-command lines
//!   and their escaping, at most 10 errors, 10 warnings and 9 notices with a notice
//!   naming how many were left out, and the Markdown step summary's counts,
//!   `--fail-on` verdict and escaping (a player named `<script>&"'|` stays
//!   text and keeps the table whole);
//! * JUnit XML (`report::junit`): read back by python's `junitparser`,
//!   suites, cases, failures, errors and skips equal the run's figures, and
//!   hostile tag values survive the round trip;
//! * SARIF 2.1.0 (`report::sarif`): valid against the SARIF 2.1.0 JSON
//!   schema as Microsoft's SARIF Multitool ships it on npm (no registry
//!   package ships the OASIS file itself; `.ci/run` unpacks it to
//!   `target/schemas/`; python `jsonschema`), and the validator rejects the same log with a required property taken out; one
//!   result per finding with rule, level, location and fingerprint.
//!
//! * GitLab Code Quality (`report::gitlab`): valid against a JSON Schema
//!   written from GitLab's documentation of the format
//!   (`tests/schemas/gitlab-code-quality.json`: no package registry ships
//!   GitLab's; python `jsonschema`), which rejects the same report with a
//!   field taken out or made wrong; one issue per finding with the kind,
//!   the severity of the kinds' table, the game's lines and a fingerprint
//!   that is `game_id/kind/ply`'s, unique among copies of a game and the
//!   same wherever the game moves; an unreadable input is a `blocker`.
//!
//! The python parts need python3 with jsonschema and junitparser, and the
//! SARIF schema (`.ci/run` installs them): without them those checks are
//! skipped with a `SKIPPED` line (see `util::Needs`), or fail when
//! `PGN_ARBITER_REQUIRE_ALL` is set.

use std::cell::RefCell;
use std::io::{self, Write};
use std::path::Path;
use std::rc::Rc;

use serde_json::Value;

use pgn_arbiter::gate;
use pgn_arbiter::pipeline::{GameRecord, RunOutcome, Sink};
use pgn_arbiter::report::examples::Example;
use pgn_arbiter::report::github::GithubSink;
use pgn_arbiter::report::gitlab::{GitlabSink, INPUT_NOT_READ};
use pgn_arbiter::report::junit::JunitSink;
use pgn_arbiter::report::sarif::{file_uri, SarifSink};
use pgn_arbiter::text::{escape_data, escape_property};
use pgn_arbiter::{Audit, Kind};

use crate::util::{self, Needs};

// ---------------------------------------------------------------------------
// Games (see tests/gate.rs and tests/rules.rs for how each is judged)
// ---------------------------------------------------------------------------

/// Black can claim threefold by announcing 4... Ng8, plays it and loses
/// (missed_threefold: a note). 11 lines, with a Lichess link.
const REPEAT: &str =
    "[Event \"t\"]\n[Site \"https://lichess.org/abcdEFGH\"]\n[White \"A\"]\n[Black \"B\"]\n\
[Result \"1-0\"]\n[WhiteElo \"1500\"]\n[TimeControl \"180+2\"]\n[Opening \"Reti\"]\n\n\
1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 1-0\n\n";

/// An illegal second move (invalid_game: an error). 8 lines.
const ILLEGAL: &str =
    "[Event \"t\"]\n[White \"C\"]\n[Black \"D\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n\n";

const CLEAN: &str =
    "[Event \"t\"]\n[White \"E\"]\n[Black \"F\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n";

/// Fool's mate scored as a draw (wrong_result: an error). 8 lines.
fn wrong(white: &str, black: &str) -> String {
    format!(
        "[Event \"t\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"1/2-1/2\"]\n\n\
1. f3 e5 2. g4 Qh4# 1/2-1/2\n\n"
    )
}

/// The start position a fifth time at 8... Ng8 (P16): fivefold, an error
/// when the result is decisive, a warning when the game went on and was
/// drawn; each also has a missed threefold.
fn fivefold(result: &str, after: &str) -> String {
    format!(
        "[Event \"t\"]\n[White \"G\"]\n[Black \"H\"]\n[Result \"{result}\"]\n\n\
1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 {after}{result}\n\n"
    )
}

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/// A writer the test keeps a handle on after the sink took it.
#[derive(Clone, Default)]
struct Buf(Rc<RefCell<Vec<u8>>>);

impl Write for Buf {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Buf {
    fn text(&self) -> String {
        String::from_utf8(self.0.borrow().clone()).expect("UTF-8 output")
    }
}

/// One finding as the library hands it to any sink.
#[derive(Debug)]
struct Found {
    file: String,
    line: u64,
    kind: Kind,
    id: String,
    result: Option<String>,
    example: Example,
}

/// Keeps every finding of a run, in order.
#[derive(Default)]
struct Collect(Vec<Found>);

impl Sink for Collect {
    fn game(&mut self, game: &GameRecord<'_>) -> io::Result<()> {
        for f in &game.report.findings {
            self.0.push(Found {
                file: game.file.to_string(),
                line: game.report.line,
                kind: f.kind,
                id: game
                    .report
                    .id
                    .expect("a game with findings has an id")
                    .to_string(),
                result: game
                    .report
                    .tags
                    .as_deref()
                    .and_then(|t| t.get("Result"))
                    .map(str::to_string),
                example: Example::new(game, f),
            });
        }
        Ok(())
    }
}

/// [`util::write`], the path as the `String` that `Audit::run` takes.
fn write(dir: &Path, name: &str, text: &str) -> String {
    util::write(dir, name, text).to_str().unwrap().to_string()
}

/// Audits `paths` on one thread into `sinks`.
fn audit(paths: &[String], sinks: Vec<&mut dyn Sink>) -> RunOutcome {
    let mut sinks = sinks;
    Audit::new().threads(1).run(paths, &mut sinks, &()).unwrap()
}

/// The 1-based line on which the game that follows `before` starts.
fn line_after(before: &str) -> u64 {
    before.matches('\n').count() as u64 + 1
}

fn lichess() -> String {
    util::root()
        .join("data/lichess-2000.pgn")
        .to_str()
        .unwrap()
        .to_string()
}

/// Runs a python script with arguments; (success, stdout, stderr).
fn python(script: &str, args: &[&str]) -> (bool, String, String) {
    let out = util::python()
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

// ---------------------------------------------------------------------------
// GitHub Actions
// ---------------------------------------------------------------------------

#[test]
fn github_escaping_follows_the_runner_rules() {
    // data: % CR LF; properties also : and ,
    assert_eq!(escape_data("50% a:b,c\r\nd"), "50%25 a:b,c%0D%0Ad");
    assert_eq!(escape_property("50% a:b,c\r\nd"), "50%25 a%3Ab%2Cc%0D%0Ad");
    // an escaped % is not escaped twice
    assert_eq!(escape_data("%0A"), "%250A");
}

#[test]
fn github_annotations_name_file_line_kind_and_game() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().to_str().unwrap();
    assert!(
        !base.contains(['%', ':', ',']),
        "the temp dir's name needs no escaping: {base}"
    );
    let first = wrong("100%", "B");
    let file = write(
        dir.path(),
        "50%,a:b.pgn",
        &[first.as_str(), REPEAT].concat(),
    );
    let out = Buf::default();
    let mut sink = GithubSink::new(Box::new(out.clone()), None, Vec::new());
    let mut found = Collect::default();
    audit(std::slice::from_ref(&file), vec![&mut sink, &mut found]);
    assert_eq!(found.0.len(), 2, "{:#?}", found.0);
    let what = |i: usize| {
        let w = &found.0[i].example.what;
        assert!(!w.contains(['%', '\n', '\r']), "{w}");
        w.clone()
    };
    let escaped_file = format!("{base}/50%25%2Ca%3Ab.pgn");
    let repeat_line = line_after(&first);
    assert_eq!(repeat_line, 8);
    let expected = format!(
        "::error file={escaped_file},line=1,title=wrong_result (Art. 5.1%2C 5.2.1%2C 11)::\
game 1 (line 1), move 3, White to move: {} — 100%25 - B\n\
::notice file={escaped_file},line=8,title=missed_threefold (Art. 9.2)::\
game 2 (line 8), 4... Ng8: {} — A - B%0Ahttps://lichess.org/abcdEFGH#7\n",
        what(0),
        what(1)
    );
    // the data keeps its colons and commas; nothing was left out: no notice
    assert_eq!(out.text(), expected);
}

#[test]
fn github_shows_at_most_10_of_each_level_the_most_important_first() {
    let dir = tempfile::tempdir().unwrap();
    // games 1-2 wrong results, 3-14 invalid, 15-25 missed threefolds
    let mut text = String::new();
    let mut lines = Vec::new();
    for _ in 0..2 {
        lines.push(line_after(&text));
        text.push_str(&wrong("W", "B"));
    }
    for _ in 0..12 {
        lines.push(line_after(&text));
        text.push_str(ILLEGAL);
    }
    for _ in 0..11 {
        lines.push(line_after(&text));
        text.push_str(REPEAT);
    }
    let file = write(dir.path(), "many.pgn", &text);
    let missing = dir.path().join("missing.pgn").to_str().unwrap().to_string();
    let out = Buf::default();
    let mut sink = GithubSink::new(Box::new(out.clone()), None, Vec::new());
    let run = audit(&[missing.clone(), file.clone()], vec![&mut sink]);
    assert_eq!(run.total.games, 25);
    let text = out.text();
    let all: Vec<&str> = text.lines().collect();
    let errors: Vec<&str> = all
        .iter()
        .copied()
        .filter(|l| l.starts_with("::error "))
        .collect();
    // missed claims are notes: GitHub's notices, 9 of them and the one
    // that counts what was left out
    let notices: Vec<&str> = all
        .iter()
        .copied()
        .filter(|l| l.starts_with("::notice file="))
        .collect();
    assert_eq!(errors.len(), 10, "{text}");
    assert_eq!(notices.len(), 9, "{text}");
    assert_eq!(all.len(), 20, "{text}");
    // 15 errors: the unreadable input, 2 wrong results, 12 invalid games;
    // shown: the input, then invalid games before wrong results, in order
    assert!(
        errors[0].starts_with(&format!(
            "::error file={missing},title=input not read to its end::{missing}: cannot read"
        )),
        "{}",
        errors[0]
    );
    for (i, e) in errors[1..].iter().enumerate() {
        let game = 3 + i;
        let line = lines[game - 1];
        assert!(
            e.starts_with(&format!(
                "::error file={file},line={line},title=invalid_game (Art. 3%2C 4)::game {game} (line {line}), 2. Ke3: "
            )),
            "{e}"
        );
    }
    // notices: the first 9 of 11, in input order
    for (i, w) in notices.iter().enumerate() {
        let game = 15 + i;
        let line = lines[game - 1];
        assert!(
            w.starts_with(&format!(
                "::notice file={file},line={line},title=missed_threefold (Art. 9.2)::game {game} (line {line}), 4... Ng8: "
            )),
            "{w}"
        );
    }
    assert_eq!(
        *all.last().unwrap(),
        "::notice title=pgn-arbiter::5 of 15 errors and 2 of 11 notes were left out \
(GitHub shows at most 10 annotations of each level per step); the step summary counts them all"
    );
}

/// Markdown back to text: backslash escapes and the entities written.
fn unmarkdown(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            out.extend(chars.next());
        } else {
            out.push(c);
        }
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The cells of a Markdown table row (split at unescaped `|`).
fn cells(row: &str) -> Vec<String> {
    let mut cells = vec![String::new()];
    let mut chars = row.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let last = cells.last_mut().unwrap();
                last.push('\\');
                last.extend(chars.next());
            }
            '|' => cells.push(String::new()),
            c => cells.last_mut().unwrap().push(c),
        }
    }
    // the outer pipes leave an empty first and last cell
    assert!(
        cells.len() >= 2 && cells[0].is_empty() && cells.last().unwrap().is_empty(),
        "{row}"
    );
    cells[1..cells.len() - 1]
        .iter()
        .map(|c| c.trim().to_string())
        .collect()
}

#[test]
fn github_step_summary_counts_gates_and_keeps_tags_as_text() {
    let dir = tempfile::tempdir().unwrap();
    let hostile = "<script>&\"'|";
    let text = [wrong(hostile, "|").as_str(), REPEAT, ILLEGAL, CLEAN].concat();
    let file = write(dir.path(), "a.pgn", &text);
    let conditions = gate::parse("invalid_game,fivefold,missed_threefold>5").unwrap();
    let (out, summary) = (Buf::default(), Buf::default());
    let mut sink = GithubSink::new(
        Box::new(out.clone()),
        Some(Box::new(summary.clone())),
        conditions.clone(),
    );
    let run = audit(std::slice::from_ref(&file), vec![&mut sink]);
    let md = summary.text();
    assert!(
        md.contains("4 games read in 1 input: 3 analysed, 1 invalid, 0 skipped; 3 with findings."),
        "{md}"
    );
    // one row per kind: games and share of the games read
    for (kind, article, games, share) in [
        ("invalid_game", "3, 4", 1, "25.00%"),
        ("missed_threefold", "9.2", 1, "25.00%"),
        ("missed_fifty_moves", "9.3", 0, "0.00%"),
        ("fivefold", "9.6.1", 0, "0.00%"),
        ("seventyfive_moves", "9.6.2", 0, "0.00%"),
        ("dead_position", "5.2.2 (9.6 before 2014-07-01)", 0, "0.00%"),
        ("unwinnable_flag", "6.9", 0, "0.00%"),
        ("wrong_result", "5.1, 5.2.1, 11", 1, "25.00%"),
    ] {
        let row = format!("| `{kind}` | {article} | {games} | {share} |");
        assert!(md.contains(&row), "{row} in\n{md}");
        assert_eq!(run.total.kind_games[Kind::from_name(kind).unwrap()], games);
    }
    // the failed conditions, as gate::check words them
    let failures = gate::check(&conditions, &run.total);
    assert_eq!(failures.len(), 1);
    assert!(md.contains("**--fail-on FAILED:**"), "{md}");
    let listed: Vec<String> = md
        .lines()
        .filter_map(|l| l.strip_prefix("- "))
        .map(unmarkdown)
        .collect();
    assert_eq!(listed, [failures[0].to_string()], "{md}");
    // tags stay text: no HTML, and every row of a table keeps its cells
    assert!(!md.contains("<script>"), "{md}");
    assert!(md.contains("&lt;script&gt;&amp;&quot;&#39;\\|"), "{md}");
    let mut width = None;
    let mut examples = Vec::new();
    for line in md.lines() {
        if !line.starts_with('|') {
            width = None;
            continue;
        }
        let c = cells(line);
        match width {
            None => width = Some(c.len()),
            Some(w) => assert_eq!(c.len(), w, "{line}"),
        }
        if c.len() == 5 && c[0] != "finding" && !c[0].starts_with(":--") {
            examples.push(c);
        }
    }
    assert_eq!(examples.len(), 3, "{md}");
    let wrong_row = examples
        .iter()
        .find(|c| c[0] == "`wrong_result`")
        .expect("a wrong_result example");
    assert_eq!(unmarkdown(&wrong_row[3]), format!("{hostile} - |"));
    assert_eq!(
        unmarkdown(&wrong_row[1]),
        format!("{file}: game 1 (line 1)")
    );
    // the link at the ply, as a Markdown link
    let repeat_row = examples
        .iter()
        .find(|c| c[0] == "`missed_threefold`")
        .unwrap();
    assert_eq!(
        repeat_row[2],
        "[4\\.\\.\\. Ng8](https://lichess.org/abcdEFGH#7)"
    );

    // conditions that hold on nothing: passed
    let summary = Buf::default();
    let mut sink = GithubSink::new(
        Box::new(Buf::default()),
        Some(Box::new(summary.clone())),
        gate::parse("fivefold,invalid_game>1").unwrap(),
    );
    audit(std::slice::from_ref(&file), vec![&mut sink]);
    let md = summary.text();
    assert!(
        md.contains("**--fail-on fivefold\\,invalid\\_game&gt;1: passed**"),
        "{md}"
    );
    assert!(!md.contains("FAILED"), "{md}");
}

// ---------------------------------------------------------------------------
// JUnit XML
// ---------------------------------------------------------------------------

/// Reads a JUnit file with junitparser and prints what it found as JSON:
/// the declared counts, the counts junitparser recomputes from the cases,
/// and each case with its results.
const READ_JUNIT: &str = r#"
import json, sys
from junitparser import JUnitXml
xml = JUnitXml.fromfile(sys.argv[1])
out = {"name": xml.name, "tests": xml.tests, "failures": xml.failures,
       "errors": xml.errors, "skipped": xml.skipped, "suites": []}
for suite in xml:
    s = {"name": suite.name, "tests": suite.tests, "failures": suite.failures,
         "errors": suite.errors, "skipped": suite.skipped, "time": suite.time,
         "properties": {p.name: p.value for p in suite.properties()}, "cases": []}
    for case in suite:
        s["cases"].append({"name": case.name, "classname": case.classname,
            "system_out": case.system_out,
            "results": [{"tag": type(r).__name__, "message": r.message,
                         "type": r.type, "text": r.text} for r in case.result]})
    suite.update_statistics()
    s["recomputed"] = [suite.tests, suite.failures, suite.errors, suite.skipped]
    out["suites"].append(s)
print(json.dumps(out))
"#;

#[test]
fn junit_reads_back_with_the_runs_figures() {
    let dir = tempfile::tempdir().unwrap();
    // 23 invalid games (more than the 20 a failure lists), a hostile name,
    // a control character XML 1.0 cannot hold
    let hostile = wrong("<script>&\"'", "x\u{1}y]]>");
    let mut text = hostile.clone();
    for _ in 0..23 {
        text.push_str(ILLEGAL);
    }
    text.push_str(REPEAT);
    let small = write(dir.path(), "small & <odd>.pgn", &text);
    let missing = dir.path().join("missing.pgn").to_str().unwrap().to_string();
    let paths = [small.clone(), lichess(), missing.clone()];
    let out = Buf::default();
    let mut sink = JunitSink::new(Box::new(out.clone()));
    let run = audit(&paths, vec![&mut sink]);
    assert_eq!(run.inputs.len(), 3);
    assert!(
        run.inputs[1]
            .stats
            .kind_games
            .iter()
            .map(|(_, n)| n)
            .sum::<u64>()
            > 0
    );
    let xml = out.text();
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites "));
    assert!(!xml.contains("<script>") && !xml.contains('\u{1}'), "{xml}");
    assert_eq!(xml.matches("<testcase ").count(), 3 * Kind::COUNT + 1);

    if !Needs::check("the JUnit read-back by junitparser")
        .python(&["junitparser"])
        .met()
    {
        return;
    }
    let path = dir.path().join("junit.xml");
    std::fs::write(&path, &xml).unwrap();
    let (ok, stdout, stderr) = python(READ_JUNIT, &[path.to_str().unwrap()]);
    assert!(ok, "junitparser could not read the file: {stderr}\n{xml}");
    let doc: Value = serde_json::from_str(&stdout).unwrap();
    let suites = doc["suites"].as_array().unwrap();
    assert_eq!(suites.len(), run.inputs.len());
    let (mut tests, mut failures, mut errors, mut skipped) = (0, 0, 0, 0);
    for (suite, input) in suites.iter().zip(&run.inputs) {
        let st = &input.stats;
        assert_eq!(suite["name"], input.name.as_str());
        let unread = input.error.is_some() && st.games == 0;
        // missed claims are notes: their test cases pass
        let failed = Kind::ALL
            .iter()
            .filter(|&&k| st.kind_games[k] > 0 && !k.is_missed_claim())
            .count() as u64;
        let kinds = Kind::COUNT as u64;
        let want = (
            kinds + u64::from(input.error.is_some()),
            if unread { 0 } else { failed },
            u64::from(input.error.is_some()),
            if unread { kinds } else { 0 },
        );
        let got = |k: &str| suite[k].as_u64().unwrap();
        assert_eq!(
            (got("tests"), got("failures"), got("errors"), got("skipped")),
            want,
            "{}",
            input.name
        );
        // what junitparser counts from the cases agrees with the attributes
        assert_eq!(
            suite["recomputed"],
            serde_json::json!([want.0, want.1, want.2, want.3])
        );
        assert_eq!(suite["properties"]["games"], st.games.to_string().as_str());
        tests += want.0;
        failures += want.1;
        errors += want.2;
        skipped += want.3;
        let cases = suite["cases"].as_array().unwrap();
        assert_eq!(cases.len() as u64, want.0);
        for (case, kind) in cases.iter().zip(Kind::ALL) {
            assert_eq!(case["name"], kind.name());
            assert_eq!(case["classname"], input.name.as_str());
            let games = st.kind_games[kind];
            let results = case["results"].as_array().unwrap();
            if unread {
                assert_eq!(results[0]["tag"], "Skipped");
            } else if games == 0 {
                assert!(results.is_empty(), "{case}");
            } else if kind.is_missed_claim() {
                // a note: the case passes, its games in <system-out>
                assert!(results.is_empty(), "{case}");
                let out = case["system_out"].as_str().unwrap();
                let plural = if games == 1 { "" } else { "s" };
                let head = format!("{games} game{plural} with {} (a note", kind.name());
                assert!(out.starts_with(&head), "{out}");
                let listed = games.min(20) as usize;
                assert_eq!(
                    out.lines().filter(|l| l.starts_with("game ")).count(),
                    listed
                );
            } else {
                let r = &results[0];
                assert_eq!(r["tag"], "Failure");
                let plural = if games == 1 { "" } else { "s" };
                assert_eq!(
                    r["message"],
                    format!("{games} game{plural} with {}", kind.name()).as_str()
                );
                assert_eq!(r["type"], kind.name());
                let body: Vec<&str> = r["text"].as_str().unwrap().lines().collect();
                let listed = games.min(20) as usize;
                assert_eq!(body.len(), listed + usize::from(games > 20), "{body:#?}");
                assert!(body[0].starts_with("game "), "{}", body[0]);
                if games > 20 {
                    assert_eq!(body[20], format!("… and {} more", games - 20));
                }
            }
        }
        if input.error.is_some() {
            let read = cases.last().unwrap();
            assert_eq!(read["name"], "read");
            assert_eq!(read["results"][0]["tag"], "Error");
            assert_eq!(
                read["results"][0]["message"],
                input.error.as_deref().unwrap()
            );
        }
    }
    assert_eq!(
        serde_json::json!([doc["tests"], doc["failures"], doc["errors"], doc["skipped"]]),
        serde_json::json!([tests, failures, errors, skipped])
    );
    // the hostile tags, intact; the control character left out
    let wrong_case = &suites[0]["cases"][Kind::WrongResult.index()]["results"][0]["text"];
    assert_eq!(
        wrong_case.as_str().unwrap().trim_end(),
        format!(
            "game 1 (line 1), move 3, White to move: {} — <script>&\"' - xy]]>",
            run_what(&small, Kind::WrongResult)
        )
    );
    assert_eq!(suites[0]["name"], small.as_str());
    assert_eq!(suites[2]["name"], missing.as_str());
}

/// What the library says about the first finding of `kind` in `file`.
fn run_what(file: &str, kind: Kind) -> String {
    let mut found = Collect::default();
    audit(&[file.to_string()], vec![&mut found]);
    found
        .0
        .into_iter()
        .find(|f| f.kind == kind)
        .unwrap()
        .example
        .what
}

// ---------------------------------------------------------------------------
// SARIF
// ---------------------------------------------------------------------------

/// Validates a document against a JSON Schema (the draft its `$schema`
/// names); prints the first errors and exits 1 when there are any.
const VALIDATE: &str = r#"
import json, sys, jsonschema
schema = json.load(open(sys.argv[1], encoding="utf-8"))
doc = json.load(open(sys.argv[2], encoding="utf-8"))
cls = jsonschema.validators.validator_for(schema)
cls.check_schema(schema)
errors = list(cls(schema, format_checker=jsonschema.FormatChecker()).iter_errors(doc))
for e in errors[:10]:
    print("/" + "/".join(map(str, e.absolute_path)) + ": " + e.message)
sys.exit(1 if errors else 0)
"#;

/// Whether `doc` validates against the SARIF schema; the validator's words.
fn validate(dir: &Path, name: &str, doc: &Value) -> (bool, String) {
    validate_against(&util::sarif_schema(), dir, name, doc)
}

/// Whether `doc` validates against the JSON Schema at `schema`; the
/// validator's words.
fn validate_against(schema: &Path, dir: &Path, name: &str, doc: &Value) -> (bool, String) {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_vec(doc).unwrap()).unwrap();
    let (ok, stdout, stderr) = python(
        VALIDATE,
        &[schema.to_str().unwrap(), path.to_str().unwrap()],
    );
    (ok, format!("{stdout}{stderr}"))
}

/// RFC 3986 `URI-reference` characters, with `%` only as `%XX`.
fn is_uri_reference(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                let hex = |j: usize| b.get(j).is_some_and(u8::is_ascii_hexdigit);
                if !(hex(i + 1) && hex(i + 2)) {
                    return false;
                }
                i += 3;
                continue;
            }
            c if c.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=".contains(&c) => {}
            _ => return false,
        }
        i += 1;
    }
    true
}

#[test]
fn sarif_is_valid_against_the_sarif_schema_and_has_every_finding() {
    let dir = tempfile::tempdir().unwrap();
    let text = [
        wrong("<script>&\"'", "B").as_str(),
        ILLEGAL,
        REPEAT,
        &fivefold("1-0", ""),
        &fivefold("1/2-1/2", "9. e4 "),
        CLEAN,
    ]
    .concat();
    let small = write(dir.path(), "a b%.pgn", &text);
    let missing = dir.path().join("missing.pgn").to_str().unwrap().to_string();
    let paths = [small.clone(), lichess(), missing.clone()];
    let out = Buf::default();
    let mut sink = SarifSink::new(Box::new(out.clone()));
    let mut found = Collect::default();
    let run = audit(&paths, vec![&mut sink, &mut found]);
    let doc: Value = serde_json::from_str(&out.text()).expect("one JSON document");

    assert_eq!(
        doc["$schema"],
        "https://json.schemastore.org/sarif-2.1.0.json"
    );
    assert_eq!(doc["version"], "2.1.0");
    let runs = doc["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1);
    let sarif_run = &runs[0];
    let driver = &sarif_run["tool"]["driver"];
    assert_eq!(driver["name"], "pgn-arbiter");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    // one rule per kind, citing its article
    let rules = driver["rules"].as_array().unwrap();
    assert_eq!(rules.len(), Kind::ALL.len());
    for (rule, kind) in rules.iter().zip(Kind::ALL) {
        assert_eq!(rule["id"], kind.name());
        let full = rule["fullDescription"]["text"].as_str().unwrap();
        let article = kind.article(pgn_arbiter::laws::Edition::Laws2018);
        assert!(full.contains(&format!("Art. {article}")), "{full}");
        assert!(rule["shortDescription"]["text"].is_string());
        assert!(rule["help"]["text"].is_string());
        assert!(["error", "warning", "note"]
            .contains(&rule["defaultConfiguration"]["level"].as_str().unwrap()));
    }
    let dead = rules[Kind::DeadPosition.index()]["fullDescription"]["text"]
        .as_str()
        .unwrap();
    assert!(dead.contains("5.2.2") && dead.contains("9.6"), "{dead}");

    // one result per finding, in order
    let results = sarif_run["results"].as_array().unwrap();
    assert_eq!(results.len(), found.0.len());
    assert!(found.0.iter().any(|f| f.file == lichess()));
    assert_eq!(
        results.len() as u64,
        run.total.kind_games.iter().map(|(_, n)| n).sum::<u64>(),
        "one finding per game and kind"
    );
    for (r, f) in results.iter().zip(&found.0) {
        assert_eq!(r["ruleId"], f.kind.name());
        assert_eq!(r["ruleIndex"], f.kind.index());
        let decisive = matches!(f.result.as_deref(), Some("1-0" | "0-1"));
        let level = match f.kind {
            Kind::InvalidGame | Kind::WrongResult | Kind::UnwinnableFlag => "error",
            Kind::Fivefold | Kind::SeventyfiveMoves | Kind::DeadPosition if decisive => "error",
            Kind::Fivefold | Kind::SeventyfiveMoves | Kind::DeadPosition => "warning",
            // a site's own timeout rule often gives the draw: worth a look
            Kind::DrawnFlag => "warning",
            // a site's rule, not the Laws
            Kind::SiteRule => "warning",
            // a player may choose not to claim: nothing is wrong
            Kind::MissedThreefold | Kind::MissedFiftyMoves => "note",
        };
        assert_eq!(r["level"], level, "{r}");
        let e = &f.example;
        assert_eq!(
            r["message"]["text"],
            format!(
                "game {} (line {}), {}: {} — {}",
                e.game, e.line, e.place, e.what, e.players
            )
            .as_str()
        );
        let loc = &r["locations"][0]["physicalLocation"];
        let uri = loc["artifactLocation"]["uri"].as_str().unwrap();
        assert_eq!(uri, file_uri(&f.file));
        assert!(is_uri_reference(uri), "{uri}");
        assert_eq!(loc["region"]["startLine"], f.line);
        assert!(loc["region"]["endLine"].as_u64().unwrap() >= f.line);
        assert_eq!(
            r["partialFingerprints"]["gameId/v1"],
            format!("{}/{}", f.id, f.kind.name()).as_str()
        );
    }
    // the file as given: a plain path unchanged, others percent-encoded
    let lichess_result = results
        .iter()
        .zip(&found.0)
        .find(|(_, f)| f.file == lichess())
        .unwrap()
        .0;
    assert_eq!(
        lichess_result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        lichess().as_str()
    );
    assert!(file_uri(&small).ends_with("/a%20b%25.pgn"));
    // the levels of the small file's findings: the documented split
    let small_levels: Vec<(String, String)> = results
        .iter()
        .zip(&found.0)
        .filter(|(_, f)| f.file == small)
        .map(|(r, _)| {
            (
                r["ruleId"].as_str().unwrap().to_string(),
                r["level"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let pairs = |v: &[(&str, &str)]| -> Vec<(String, String)> {
        v.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    assert_eq!(
        small_levels,
        pairs(&[
            ("wrong_result", "error"),
            ("invalid_game", "error"),
            ("missed_threefold", "note"),
            ("missed_threefold", "note"),
            ("fivefold", "error"),
            ("missed_threefold", "note"),
            ("fivefold", "warning"),
        ])
    );
    // the unreadable input is the invocation's notification
    let inv = &sarif_run["invocations"][0];
    assert_eq!(inv["executionSuccessful"], false);
    let note = &inv["toolExecutionNotifications"][0];
    assert_eq!(note["level"], "error");
    assert!(note["message"]["text"]
        .as_str()
        .unwrap()
        .starts_with(&format!("{missing}: cannot read")));

    if !Needs::check("the SARIF schema check")
        .python(&["jsonschema"])
        .sarif_schema()
        .met()
    {
        return;
    }
    let (ok, why) = validate(dir.path(), "log.sarif", &doc);
    assert!(
        ok,
        "the SARIF log does not validate against the SARIF schema:\n{why}"
    );
    // the validator is live: the same log without a required property fails
    for (pointer, change) in [
        ("/runs/0/results/0/message", None),
        ("/runs/0/tool/driver/name", None),
        ("/runs/0/invocations/0/executionSuccessful", None),
        ("/version", None),
        (
            "/runs/0/results/0/locations/0/physicalLocation/region/startLine",
            Some(serde_json::json!(0)),
        ),
        ("/runs/0/results/0/level", Some(serde_json::json!("fatal"))),
    ] {
        let mut bad = doc.clone();
        let (parent, key) = pointer.rsplit_once('/').unwrap();
        let object = bad.pointer_mut(parent).unwrap().as_object_mut().unwrap();
        match change {
            None => assert!(object.remove(key).is_some(), "{pointer}"),
            Some(v) => {
                object.insert(key.to_string(), v);
            }
        }
        let (ok, why) = validate(dir.path(), "bad.sarif", &bad);
        assert!(!ok, "the schema accepted a log with {pointer} changed");
        assert!(
            why.contains(parent) || why.contains(key),
            "{pointer}: {why}"
        );
    }
}

#[test]
fn sarif_of_a_run_without_findings_is_a_whole_log() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "clean.pgn", CLEAN);
    let out = Buf::default();
    let mut sink = SarifSink::new(Box::new(out.clone()));
    audit(&[file], vec![&mut sink]);
    let doc: Value = serde_json::from_str(&out.text()).unwrap();
    assert_eq!(doc["runs"][0]["results"], serde_json::json!([]));
    assert_eq!(
        doc["runs"][0]["invocations"][0]["executionSuccessful"],
        true
    );
    assert_eq!(doc["runs"][0]["properties"]["games"], 1);
    if !Needs::check("the SARIF schema check")
        .python(&["jsonschema"])
        .sarif_schema()
        .met()
    {
        return;
    }
    let (ok, why) = validate(dir.path(), "clean.sarif", &doc);
    assert!(ok, "{why}");
}

// ---------------------------------------------------------------------------
// GitLab Code Quality
// ---------------------------------------------------------------------------

/// The schema of GitLab's Code Quality report, as its documentation
/// describes it (written for these tests).
fn code_quality_schema() -> std::path::PathBuf {
    util::root().join("tests/schemas/gitlab-code-quality.json")
}

/// The fingerprint the report gives `key` (`game_id/kind/ply`, and `/n`
/// for the n+1-th copy).
fn fingerprint(key: &str) -> String {
    format!("{:032x}", xxhash_rust::xxh3::xxh3_128(key.as_bytes()))
}

/// Audits `paths` into a Code Quality report, paths relative to `base`:
/// the issues and the findings.
fn code_quality(paths: &[String], base: &Path) -> (Vec<Value>, Vec<Found>) {
    let out = Buf::default();
    let mut sink = GitlabSink::relative_to(Box::new(out.clone()), Some(base.to_path_buf()));
    let mut found = Collect::default();
    audit(paths, vec![&mut sink, &mut found]);
    let text = out.text();
    assert!(text.ends_with("]\n"), "{text}");
    let doc: Value = serde_json::from_str(&text).expect("one JSON document");
    (doc.as_array().expect("an array").clone(), found.0)
}

#[test]
fn gitlab_code_quality_is_valid_against_the_schema_and_has_every_finding() {
    let dir = tempfile::tempdir().unwrap();
    let text = [
        wrong("<script>&\"'", "B").as_str(),
        ILLEGAL,
        REPEAT,
        &fivefold("1-0", ""),
        &fivefold("1/2-1/2", "9. e4 "),
        CLEAN,
        ILLEGAL,
    ]
    .concat();
    let small = write(dir.path(), "data/a b%.pgn", &text);
    let missing = dir.path().join("data/missing.pgn");
    // the bundled sample as a relative path (cargo runs the tests in the
    // repository), the others absolute inside the base directory
    let paths = [
        small.clone(),
        "data/lichess-2000.pgn".to_string(),
        missing.to_str().unwrap().to_string(),
    ];
    let (issues, found) = code_quality(&paths, dir.path());
    assert_eq!(
        issues.len(),
        found.len() + 1,
        "one issue per finding, one per unread input"
    );
    assert!(found.iter().any(|f| f.file == paths[1]));
    let mut copies = std::collections::HashMap::new();
    for (issue, f) in issues.iter().zip(&found) {
        assert_eq!(issue["check_name"], f.kind.name(), "{issue}");
        assert_eq!(issue["description"], f.example.sentence().as_str());
        let decisive = matches!(f.result.as_deref(), Some("1-0" | "0-1"));
        let severity = match f.kind {
            Kind::InvalidGame => "critical",
            Kind::WrongResult | Kind::UnwinnableFlag => "major",
            Kind::Fivefold | Kind::SeventyfiveMoves | Kind::DeadPosition if decisive => "major",
            Kind::Fivefold
            | Kind::SeventyfiveMoves
            | Kind::DeadPosition
            | Kind::DrawnFlag
            | Kind::SiteRule => "minor",
            Kind::MissedThreefold | Kind::MissedFiftyMoves => "info",
        };
        assert_eq!(issue["severity"], severity, "{issue}");
        let path = if f.file == small {
            "data/a b%.pgn"
        } else {
            "data/lichess-2000.pgn"
        };
        let location = &issue["location"];
        assert_eq!(location["path"], path);
        assert_eq!(location["lines"]["begin"], f.line);
        assert!(location["lines"]["end"].as_u64().unwrap() >= f.line);
        let key = format!("{}/{}/{}", f.id, f.kind.name(), f.example.ply);
        let n = copies.entry(key.clone()).or_insert(0);
        let expected = match *n {
            0 => fingerprint(&key),
            n => fingerprint(&format!("{key}/{n}")),
        };
        *n += 1;
        assert_eq!(issue["fingerprint"], expected.as_str(), "{key}");
    }
    // the two copies of the illegal game: two issues, told apart
    assert_eq!(copies.values().filter(|&&n| n == 2).count(), 1);
    let fingerprints: std::collections::HashSet<&str> = issues
        .iter()
        .map(|i| i["fingerprint"].as_str().unwrap())
        .collect();
    assert_eq!(fingerprints.len(), issues.len(), "fingerprints are unique");
    let small_issues: Vec<(&str, &str)> = issues
        .iter()
        .zip(&found)
        .filter(|(_, f)| f.file == small)
        .map(|(i, _)| {
            (
                i["check_name"].as_str().unwrap(),
                i["severity"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        small_issues,
        [
            ("wrong_result", "major"),
            ("invalid_game", "critical"),
            ("missed_threefold", "info"),
            ("missed_threefold", "info"),
            ("fivefold", "major"),
            ("missed_threefold", "info"),
            ("fivefold", "minor"),
            ("invalid_game", "critical"),
        ]
    );
    // the unreadable input: a blocker at its first line
    let unread = issues.last().unwrap();
    assert_eq!(unread["check_name"], INPUT_NOT_READ);
    assert_eq!(unread["severity"], "blocker");
    assert_eq!(unread["location"]["path"], "data/missing.pgn");
    assert_eq!(unread["location"]["lines"]["begin"], 1);
    assert!(unread["description"]
        .as_str()
        .unwrap()
        .starts_with(&format!("{}: cannot read", paths[2])));

    if !Needs::check("the Code Quality schema check")
        .python(&["jsonschema"])
        .met()
    {
        return;
    }
    let doc = Value::Array(issues);
    let (ok, why) = validate_against(&code_quality_schema(), dir.path(), "cq.json", &doc);
    assert!(
        ok,
        "the report does not validate against the Code Quality schema:\n{why}"
    );
    // the validator is live: the same report with a field taken out or
    // made wrong fails
    for (pointer, change) in [
        ("/0/check_name", None),
        ("/0/fingerprint", None),
        ("/0/location/path", None),
        ("/0/location/lines", None),
        ("/0/severity", Some(serde_json::json!("warning"))),
        ("/0/location/lines/begin", Some(serde_json::json!(0))),
        ("/0/location/path", Some(serde_json::json!("./data/a.pgn"))),
        ("/0/location/path", Some(serde_json::json!("/data/a.pgn"))),
    ] {
        let mut bad = doc.clone();
        let (parent, key) = pointer.rsplit_once('/').unwrap();
        let object = bad.pointer_mut(parent).unwrap().as_object_mut().unwrap();
        match change {
            None => assert!(object.remove(key).is_some(), "{pointer}"),
            Some(v) => {
                object.insert(key.to_string(), v);
            }
        }
        let (ok, why) = validate_against(&code_quality_schema(), dir.path(), "bad.json", &bad);
        assert!(!ok, "the schema accepted a report with {pointer} changed");
        assert!(why.contains("/0"), "{pointer}: {why}");
    }
}

#[test]
fn gitlab_fingerprints_stay_when_games_move() {
    let dir = tempfile::tempdir().unwrap();
    let before = write(dir.path(), "a.pgn", &[REPEAT, ILLEGAL].concat());
    let after = write(
        dir.path(),
        "moved/b.pgn",
        &[CLEAN, ILLEGAL, CLEAN, REPEAT].concat(),
    );
    let (a, _) = code_quality(&[before], dir.path());
    let (b, _) = code_quality(&[after], dir.path());
    let prints = |issues: &[Value]| -> std::collections::BTreeSet<(String, String)> {
        issues
            .iter()
            .map(|i| {
                (
                    i["check_name"].as_str().unwrap().to_string(),
                    i["fingerprint"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    assert_eq!(a.len(), 2);
    assert_eq!(prints(&a), prints(&b));
    assert_ne!(a[0]["location"], b[1]["location"]);
}

#[test]
fn gitlab_code_quality_of_a_run_without_findings_is_an_empty_array() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "clean.pgn", CLEAN);
    let out = Buf::default();
    let mut sink = GitlabSink::relative_to(Box::new(out.clone()), Some(dir.path().to_path_buf()));
    audit(&[file], vec![&mut sink]);
    assert_eq!(out.text(), "[]\n");
    if !Needs::check("the Code Quality schema check")
        .python(&["jsonschema"])
        .met()
    {
        return;
    }
    let (ok, why) = validate_against(
        &code_quality_schema(),
        dir.path(),
        "clean.json",
        &serde_json::json!([]),
    );
    assert!(ok, "{why}");
}
