//! The pieces users plug into their CI, each run for real:
//!
//! * the GitHub Action (`action.yml`): valid against SchemaStore's schema
//!   of action metadata (`github-action.json`, as PyPI's
//!   `check-jsonschema` ships it: `--builtin-schema vendor.github-actions`),
//!   which rejects it with a `run` step's `shell` taken out; its steps run
//!   outside GitHub by `tests/run_action.py` as the runner runs them
//!   (inputs through `${{ inputs.x }}`, GITHUB_OUTPUT, GITHUB_PATH,
//!   GITHUB_STEP_SUMMARY, `bash -eo pipefail`). The first run builds
//!   pgn-arbiter with `cargo install --locked` from the repository; later
//!   runs with the same HOME take it from where actions/cache would have
//!   restored it. Checked: the annotations, the step summary and the exit
//!   codes (1 with a broken game, 0 once fixed or without a gate, 2 for a
//!   missing input), globs and new lines in `paths`, the SARIF handed to
//!   upload-sarif only when asked, and the baseline: an old finding passes,
//!   a new one fails, a new finding outside `fail-on` passes;
//! * the pre-commit hook (`.pre-commit-hooks.yaml`): valid for
//!   `pre-commit validate-manifest`, and docs/CI.md's config for
//!   `validate-config`; pre-commit from PyPI runs
//!   `pre-commit try-repo` against a snapshot of this repository (its
//!   files, committed in a temporary repository, so that uncommitted work
//!   is what is tried) in a temporary git repository holding `data/`
//!   files: it fails on the staged broken game (an illegal move, a wrong
//!   result; the non-PGN file beside them is not handed over) and passes
//!   once they are fixed; docs/CI.md's `.pre-commit-config.yaml`, naming
//!   that snapshot, passes on missed claims, and fails on them with `args`
//!   added;
//! * docs/CI.md's workflow and GitLab job: valid against SchemaStore's
//!   `github-workflow.json` and GitLab's CI schema (check-jsonschema's
//!   `vendor.github-workflows`, `vendor.gitlab-ci`), and the workflow
//!   gives the action only inputs it has.
//!
//! pre-commit builds the hook with `cargo install` (without `--locked`:
//! pre-commit does not pass it, so the newest crates that build with the
//! `rust-version` of Cargo.toml). Both builds go to `target/ci-wiring/`,
//! so that runs after the first on a machine reuse the dependencies.
//! They need python3 with PyYAML, pre-commit, check-jsonschema, git, bash
//! and cargo (`.ci/run` installs them); without them they are skipped with
//! a `SKIPPED` line (see `util::Needs`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::Value;

use crate::util::{self, root, text, Needs};

/// An illegal second move (invalid_game).
const ILLEGAL: &str =
    "[Event \"t\"]\n[White \"C\"]\n[Black \"D\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n\n";
/// The same game, legal.
const ILLEGAL_FIXED: &str =
    "[Event \"t\"]\n[White \"C\"]\n[Black \"D\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke2 *\n\n";
/// Fool's mate scored as a draw (wrong_result).
const WRONG: &str = "[Event \"t\"]\n[White \"W\"]\n[Black \"M\"]\n[Result \"1/2-1/2\"]\n\n\
1. f3 e5 2. g4 Qh4# 1/2-1/2\n\n";
/// The same game, scored as it ended.
const WRONG_FIXED: &str = "[Event \"t\"]\n[White \"W\"]\n[Black \"M\"]\n[Result \"0-1\"]\n\n\
1. f3 e5 2. g4 Qh4# 0-1\n\n";
/// A missed threefold claim (a note, outside the default gate).
const REPEAT: &str = "[Event \"t\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n\
1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 1-0\n\n";
const CLEAN: &str =
    "[Event \"t\"]\n[White \"E\"]\n[Black \"F\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n";

/// Where the builds of these tests go (kept between runs).
fn build_dir() -> PathBuf {
    root().join("target/ci-wiring")
}

/// `CARGO_HOME` and `RUSTUP_HOME` as they are now: the action runs with
/// another HOME, and cargo must not fetch every crate again there.
fn toolchain_env(cmd: &mut Command) -> &mut Command {
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_default();
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| home.join(".cargo"));
    let rustup_home = std::env::var_os("RUSTUP_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| home.join(".rustup"));
    cmd.env("CARGO_HOME", cargo_home)
        .env("RUSTUP_HOME", rustup_home)
        .env("CARGO_TARGET_DIR", build_dir())
}

/// A command's output, asserted to have run (any exit code).
fn run(cmd: &mut Command) -> Output {
    cmd.output()
        .unwrap_or_else(|e| panic!("{cmd:?} cannot run: {e}"))
}

/// Runs `git` in `dir`, asserting success.
fn git(dir: &Path, args: &[&str]) {
    let out = run(Command::new("git")
        .current_dir(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.org"])
        .args(args));
    assert!(out.status.success(), "git {args:?}: {}", text(&out.stderr));
}

/// What the CI files of docs/CI.md name for where pgn-arbiter comes from.
const DOCS_REPO_URL: &str = "https://github.com/OWNER/pgn-arbiter";
const DOCS_REV: &str = "v0.1.0";

/// The YAML block that follows `<!-- ci:NAME -->` in docs/CI.md.
fn docs_block(name: &str) -> String {
    let page = std::fs::read_to_string(root().join("docs/CI.md")).unwrap();
    let marker = format!("<!-- ci:{name} -->\n```yaml\n");
    let start = page
        .find(&marker)
        .unwrap_or_else(|| panic!("docs/CI.md has no {marker:?}"))
        + marker.len();
    let end = start + page[start..].find("```\n").unwrap();
    page[start..end].to_string()
}

/// check-jsonschema with one of the schemas it ships, on `file`.
fn check_jsonschema(schema: &str, file: &Path) -> Output {
    let exe = util::program("check-jsonschema", "/usr/local/bin/check-jsonschema").unwrap();
    run(Command::new(exe)
        .args(["--builtin-schema", schema])
        .arg(file))
}

#[test]
fn the_ci_pages_workflow_and_gitlab_job_are_valid() {
    if !Needs::test().check_jsonschema().pyyaml().met() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let workflow = util::write(dir.path(), "pgn.yml", docs_block("github-workflow"));
    let gitlab = util::write(dir.path(), ".gitlab-ci.yml", docs_block("gitlab-job"));
    for (schema, file) in [
        ("vendor.github-workflows", &workflow),
        ("vendor.gitlab-ci", &gitlab),
    ] {
        let out = check_jsonschema(schema, file);
        assert!(
            out.status.success(),
            "{schema}: {}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
    }
    // the workflow gives the action only inputs it has, and reads outputs
    // it writes
    const CHECK: &str = r#"
import sys, yaml
action = yaml.safe_load(open(sys.argv[1]))
workflow = yaml.safe_load(open(sys.argv[2]))
steps = workflow["jobs"]["audit"]["steps"]
ours = [s for s in steps if s.get("uses", "").startswith(sys.argv[3] + "@")]
assert len(ours) == 1, ours
unknown = set(ours[0]["with"]) - set(action["inputs"])
assert not unknown, f"inputs the action does not have: {unknown}"
text = open(sys.argv[2]).read()
for name in ("findings",):
    assert f"steps.audit.outputs.{name}" in text and name in action["outputs"]
"#;
    let out = run(util::python()
        .arg("-c")
        .arg(CHECK)
        .arg(root().join("action.yml"))
        .arg(&workflow)
        .arg(DOCS_REPO_URL.trim_start_matches("https://github.com/")));
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

// ---------------------------------------------------------------------------
// The GitHub Action
// ---------------------------------------------------------------------------

/// One run of the action's steps by `tests/run_action.py`: its report.
fn run_action(home: &Path, workspace: &Path, inputs: &[(&str, &str)]) -> Value {
    let report = home.join("report.json");
    let mut cmd = util::python();
    cmd.arg(root().join("tests/run_action.py"))
        .arg(root())
        .arg(workspace)
        .arg(home)
        .arg(&report);
    for (k, v) in inputs {
        cmd.arg(format!("{k}={v}"));
    }
    let out = run(toolchain_env(&mut cmd));
    assert!(
        out.status.success(),
        "run_action.py: {}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap()
}

/// The step of the report with this name.
fn step<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no step {name} in {report:#}"))
}

/// The audit step's workflow-command lines.
fn annotations(report: &Value) -> Vec<String> {
    step(report, "Audit")["stdout"]
        .as_str()
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("::"))
        .map(str::to_string)
        .collect()
}

/// Whatever the action says about itself, for a failed assertion.
fn log(report: &Value) -> String {
    let mut s = String::new();
    for st in report["steps"].as_array().unwrap() {
        s.push_str(&format!(
            "--- {} (ran {}, exit {})\n{}{}\n",
            st["name"],
            st["ran"],
            st["code"],
            st["stdout"].as_str().unwrap_or(""),
            st["stderr"].as_str().unwrap_or("")
        ));
    }
    s + "--- summary\n" + report["summary"].as_str().unwrap_or("")
}

fn action_needs() -> bool {
    Needs::test().pyyaml().git_bash_cargo().met()
}

#[test]
fn action_yml_is_valid_against_the_action_metadata_schema() {
    if !Needs::test().check_jsonschema().met() {
        return;
    }
    let check = |path: &Path| {
        run(Command::new(
            util::program("check-jsonschema", "/usr/local/bin/check-jsonschema").unwrap(),
        )
        .args(["--builtin-schema", "vendor.github-actions"])
        .arg(path))
    };
    let out = check(&root().join("action.yml"));
    assert!(
        out.status.success(),
        "action.yml:\n{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    // the validator is live: a composite's run step needs its shell
    let dir = tempfile::tempdir().unwrap();
    let action = std::fs::read_to_string(root().join("action.yml")).unwrap();
    let without_shell = action.replacen("      shell: bash\n", "", 1);
    assert_ne!(without_shell, action);
    let bad = util::write(dir.path(), "action.yml", without_shell);
    let out = check(&bad);
    assert!(
        !out.status.success(),
        "a run step without shell was accepted"
    );
}

#[test]
fn the_action_annotates_summarises_and_gates() {
    if !action_needs() {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let ws = tempfile::tempdir().unwrap();
    let ws = ws.path();
    util::write(ws, "data/good.pgn", [CLEAN, REPEAT].concat());
    util::write(ws, "data/broken.pgn", [ILLEGAL, WRONG].concat());
    util::write(ws, "data/notes.txt", "not a game");

    // a broken game: annotations, a failed gate, exit 1
    let r = run_action(home.path(), ws, &[("paths", "data")]);
    let why = log(&r);
    assert_eq!(r["exit"], 1, "{why}");
    let key = step(&r, "Cache pgn-arbiter and cargo's downloads");
    assert!(key["uses"].as_str().unwrap().starts_with("actions/cache@"));
    assert!(
        key["with"]["key"]
            .as_str()
            .unwrap()
            .starts_with("pgn-arbiter-Linux-X64-"),
        "{why}"
    );
    let install = step(&r, "Install pgn-arbiter");
    assert!(
        install["stdout"]
            .as_str()
            .unwrap()
            .starts_with("building pgn-arbiter")
            || install["stdout"]
                .as_str()
                .unwrap()
                .starts_with("pgn-arbiter from the cache"),
        "{why}"
    );
    assert!(install["stdout"]
        .as_str()
        .unwrap()
        .contains(&format!("pgn-arbiter {}", env!("CARGO_PKG_VERSION"))));
    let lines = annotations(&r);
    assert_eq!(
        lines,
        [
            "::error file=data/broken.pgn,line=1,title=invalid_game (Art. 3%2C 4)::game 1 (line 1), 2. Ke3: illegal move — C - D",
            "::error file=data/broken.pgn,line=8,title=wrong_result (Art. 5.1%2C 5.2.1%2C 11)::game 2 (line 8), move 3, White to move: checkmate, expected 0-1; the Result tag disagrees — W - M",
            "::notice file=data/good.pgn,line=8,title=missed_threefold (Art. 9.2)::game 2 (line 8), 4... Ng8: Black could have claimed a draw by threefold repetition (9.2) by announcing 4... Ng8; played on and lost — A - B",
        ],
        "{why}"
    );
    let summary = r["summary"].as_str().unwrap();
    assert!(summary.starts_with("## pgn-arbiter\n"), "{summary}");
    assert!(summary.contains("4 games read in 2 inputs"), "{summary}");
    assert!(summary.contains("**--fail-on FAILED:**"), "{summary}");
    assert!(
        summary.contains("- wrong\\_result\\: 1 game with wrong\\_result"),
        "{summary}"
    );
    let findings = r["outputs"]["findings"].as_str().unwrap();
    assert_eq!(util::json_lines(&std::fs::read(findings).unwrap()).len(), 3);
    assert_eq!(r["outputs"]["exit-code"], "1");
    assert_eq!(step(&r, "Upload SARIF to code scanning")["ran"], false);
    assert_eq!(step(&r, "Gate")["code"], 1);

    // asked for SARIF: upload-sarif gets a log of the three findings
    let r = run_action(home.path(), ws, &[("paths", "data"), ("sarif", "true")]);
    assert_eq!(r["exit"], 1, "{}", log(&r));
    assert!(step(&r, "Install pgn-arbiter")["stdout"]
        .as_str()
        .unwrap()
        .starts_with("pgn-arbiter from the cache"));
    let upload = step(&r, "Upload SARIF to code scanning");
    assert_eq!(upload["ran"], true);
    assert!(upload["uses"]
        .as_str()
        .unwrap()
        .starts_with("github/codeql-action/upload-sarif@"));
    let sarif: Value = serde_json::from_slice(
        &std::fs::read(upload["with"]["sarif_file"].as_str().unwrap()).unwrap(),
    )
    .unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    assert_eq!(sarif["runs"][0]["results"].as_array().unwrap().len(), 3);

    // no gate: the findings are shown, the step passes
    let r = run_action(home.path(), ws, &[("paths", "data"), ("fail-on", "")]);
    assert_eq!(r["exit"], 0, "{}", log(&r));
    assert_eq!(annotations(&r).len(), 3);
    assert!(!r["summary"].as_str().unwrap().contains("--fail-on"));

    // globs and new lines in paths
    let r = run_action(
        home.path(),
        ws,
        &[("paths", "data/good.pgn\n  data/b*.pgn\n")],
    );
    assert_eq!(r["exit"], 1, "{}", log(&r));
    assert_eq!(annotations(&r).len(), 3);

    // a path that is not there: exit 2, said in the log
    let r = run_action(home.path(), ws, &[("paths", "data missing.pgn")]);
    assert_eq!(r["exit"], 2, "{}", log(&r));
    assert!(annotations(&r)
        .iter()
        .any(|l| l.starts_with("::error file=missing.pgn,title=input not read to its end::")));
    assert!(step(&r, "Gate")["stdout"]
        .as_str()
        .unwrap()
        .contains("could not audit as asked (exit 2"));

    // fixed: the note stays, the step passes
    util::write(ws, "data/broken.pgn", [ILLEGAL_FIXED, WRONG_FIXED].concat());
    let r = run_action(home.path(), ws, &[("paths", "data")]);
    assert_eq!(r["exit"], 0, "{}", log(&r));
    assert_eq!(annotations(&r).len(), 1);
    assert!(r["summary"]
        .as_str()
        .unwrap()
        .contains("**--fail-on invalid\\_game\\,wrong\\_result: passed**"));
    assert_eq!(step(&r, "Gate")["stdout"], "pgn-arbiter: passed\n");
}

#[test]
fn the_actions_baseline_fails_only_on_new_findings() {
    if !action_needs() {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let ws = tempfile::tempdir().unwrap();
    let ws = ws.path();
    // the base branch: an old invalid game fails without a baseline
    util::write(ws, "data/games.pgn", [ILLEGAL, REPEAT].concat());
    let base = run_action(home.path(), ws, &[("paths", "data")]);
    assert_eq!(base["exit"], 1, "{}", log(&base));
    std::fs::copy(
        base["outputs"]["findings"].as_str().unwrap(),
        ws.join("base-findings.jsonl"),
    )
    .unwrap();
    let with_baseline = [("paths", "data"), ("baseline", "base-findings.jsonl")];

    // a pull request that moves the old games and adds a clean one passes
    util::write(ws, "data/games.pgn", [CLEAN, REPEAT].concat());
    util::write(ws, "data/more/old.pgn", [CLEAN, ILLEGAL].concat());
    let r = run_action(home.path(), ws, &with_baseline);
    let why = log(&r);
    assert_eq!(r["exit"], 0, "{why}");
    assert_eq!(r["outputs"]["new-findings"], "0", "{why}");
    // the old finding is still annotated, and the gate left to the diff
    assert!(
        annotations(&r)[0].starts_with("::error file=data/more/old.pgn,line=8,title=invalid_game")
    );
    let summary = r["summary"].as_str().unwrap();
    assert!(!summary.contains("--fail-on FAILED"), "{summary}");
    assert!(
        summary.contains(
            "### Against the baseline\n\n**--fail-on `invalid_game,wrong_result`: passed on the new findings**"
        ),
        "{summary}"
    );
    assert!(
        summary.contains("0 appeared, 0 disappeared, 0 changed, 2 unchanged"),
        "{summary}"
    );

    // a new missed claim is new, but not in fail-on: passes
    util::write(
        ws,
        "data/new.pgn",
        [CLEAN, REPEAT.replace("\"A\"", "\"A2\"").as_str()].concat(),
    );
    let r = run_action(home.path(), ws, &with_baseline);
    assert_eq!(r["exit"], 0, "{}", log(&r));
    assert_eq!(r["outputs"]["new-findings"], "1");

    // a new wrong result fails, and the summary names it
    util::write(ws, "data/new.pgn", [CLEAN, WRONG].concat());
    let r = run_action(home.path(), ws, &with_baseline);
    let why = log(&r);
    assert_eq!(r["exit"], 1, "{why}");
    assert_eq!(r["outputs"]["new-findings"], "1", "{why}");
    let summary = r["summary"].as_str().unwrap();
    assert!(
        summary.contains("**--fail-on `invalid_game,wrong_result` FAILED on the new findings**"),
        "{summary}"
    );
    assert!(
        summary.contains("+ wrong_result  data/new.pgn: game 2 (line 8)"),
        "{summary}"
    );
    assert!(step(&r, "Audit")["stderr"]
        .as_str()
        .unwrap()
        .contains("pgn-arbiter: --fail-on wrong_result: 1 game with wrong_result appeared"));
    assert_eq!(step(&r, "Gate")["code"], 1);

    // no gate: the new finding is counted, the step passes
    let r = run_action(
        home.path(),
        ws,
        &[("fail-on", ""), with_baseline[0], with_baseline[1]],
    );
    assert_eq!(r["exit"], 0, "{}", log(&r));
    assert_eq!(r["outputs"]["new-findings"], "1");
    assert!(r["summary"]
        .as_str()
        .unwrap()
        .contains("**no gate (fail-on is empty)**"));
}

// ---------------------------------------------------------------------------
// The pre-commit hook
// ---------------------------------------------------------------------------

/// This repository's files as they are now (tracked and untracked, not
/// ignored), committed in a temporary repository: what `try-repo` and a
/// `.pre-commit-config.yaml` name. Made once per run.
fn snapshot() -> &'static Path {
    static SNAPSHOT: OnceLock<PathBuf> = OnceLock::new();
    SNAPSHOT.get_or_init(|| {
        let dir = tempfile::Builder::new()
            .prefix("pgn-arbiter-snapshot-")
            .tempdir()
            .unwrap()
            .keep();
        let out = run(Command::new("git").current_dir(root()).args([
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ]));
        assert!(out.status.success(), "{}", text(&out.stderr));
        for name in out.stdout.split(|&b| b == 0).filter(|n| !n.is_empty()) {
            let name = std::str::from_utf8(name).unwrap();
            let from = root().join(name);
            if from.is_file() {
                let to = dir.join(name);
                std::fs::create_dir_all(to.parent().unwrap()).unwrap();
                std::fs::copy(&from, &to).unwrap();
            }
        }
        git(&dir, &["init", "-q"]);
        git(&dir, &["add", "-A"]);
        git(&dir, &["commit", "-q", "-m", "snapshot"]);
        dir
    })
}

/// A git repository with `data/` files staged: a clean game and the real
/// TWIC sample (missed claims only), a text file, and `broken`'s games.
fn user_repo(broken: &str) -> tempfile::TempDir {
    let repo = tempfile::tempdir().unwrap();
    let p = repo.path();
    git(p, &["init", "-q"]);
    util::write(p, "data/good.pgn", CLEAN);
    std::fs::copy(
        root().join("data/twic-2000.pgn.zst"),
        p.join("data/TWIC.PGN.ZST"),
    )
    .unwrap();
    util::write(
        p,
        "data/notes.txt",
        "not a game, and not handed to the hook",
    );
    util::write(p, "data/broken.pgn", broken);
    git(p, &["add", "-A"]);
    repo
}

/// pre-commit in `repo` with `args`, its home in `home`: (exit code, what
/// it printed).
fn pre_commit(repo: &Path, home: &Path, args: &[&str]) -> (i32, String) {
    let exe = util::program("pre-commit", "/usr/local/bin/pre-commit").unwrap();
    let out = run(toolchain_env(
        Command::new(exe)
            .current_dir(repo)
            .env("PRE_COMMIT_HOME", home)
            .env("PRE_COMMIT_COLOR", "never")
            .args(args),
    ));
    (
        out.status.code().unwrap_or(-1),
        text(&out.stdout) + &text(&out.stderr),
    )
}

fn pre_commit_needs() -> bool {
    Needs::test().pre_commit().git_bash_cargo().met()
}

#[test]
fn the_pre_commit_manifest_and_the_ci_pages_config_are_valid() {
    if !Needs::test().pre_commit().met() {
        return;
    }
    let exe = util::program("pre-commit", "/usr/local/bin/pre-commit").unwrap();
    let out = run(Command::new(&exe)
        .arg("validate-manifest")
        .arg(root().join(".pre-commit-hooks.yaml")));
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let dir = tempfile::tempdir().unwrap();
    let config = util::write(
        dir.path(),
        ".pre-commit-config.yaml",
        docs_block("pre-commit-config"),
    );
    let out = run(Command::new(&exe).arg("validate-config").arg(&config));
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

#[test]
fn the_pre_commit_hook_fails_on_a_broken_game_and_passes_once_fixed() {
    if !pre_commit_needs() {
        return;
    }
    let snap = snapshot().to_str().unwrap().to_string();
    let home = tempfile::tempdir().unwrap();
    let repo = user_repo(&[CLEAN, ILLEGAL, WRONG].concat());
    let (code, said) = pre_commit(
        repo.path(),
        home.path(),
        &["try-repo", &snap, "pgn-arbiter"],
    );
    assert_eq!(code, 1, "{said}");
    assert!(
        said.contains("- hook id: pgn-arbiter\n- exit code: 1"),
        "{said}"
    );
    assert!(
        said.contains("pgn-arbiter: data/broken.pgn: game 2 (line 8), 2. Ke3: illegal move"),
        "{said}"
    );
    assert!(
        said.contains("--fail-on FAILED: invalid_game: 1 game with invalid_game of 2,004 read"),
        "{said}"
    );
    assert!(
        said.contains("wrong_result: 1 game with wrong_result"),
        "{said}"
    );
    // the .zst file in capitals was handed over, the text file was not
    assert!(said.contains("data/TWIC.PGN.ZST"), "{said}");
    assert!(!said.contains("notes.txt"), "{said}");

    util::write(
        repo.path(),
        "data/broken.pgn",
        [CLEAN, ILLEGAL_FIXED, WRONG_FIXED].concat(),
    );
    git(repo.path(), &["add", "-A"]);
    let (code, said) = pre_commit(
        repo.path(),
        home.path(),
        &["try-repo", &snap, "pgn-arbiter"],
    );
    assert_eq!(code, 0, "{said}");
    assert!(
        said.lines().any(
            |l| l.starts_with("pgn-arbiter (FIDE Laws audit of PGN files)")
                && l.ends_with("Passed")
        ),
        "{said}"
    );
}

#[test]
fn the_pre_commit_hooks_args_replace_its_gate() {
    if !pre_commit_needs() {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let repo = user_repo(CLEAN);
    let rev = run(Command::new("git")
        .current_dir(snapshot())
        .args(["rev-parse", "HEAD"]));
    // docs/CI.md's config, naming this repository's snapshot
    let readme = docs_block("pre-commit-config")
        .replace(DOCS_REPO_URL, snapshot().to_str().unwrap())
        .replace(DOCS_REV, text(&rev.stdout).trim());
    assert!(readme.ends_with("      - id: pgn-arbiter\n"), "{readme}");
    let config = |args: &str| format!("{readme}{args}");
    // the default gate: the TWIC sample's missed claims pass
    util::write(repo.path(), ".pre-commit-config.yaml", config(""));
    git(repo.path(), &["add", "-A"]);
    let (code, said) = pre_commit(repo.path(), home.path(), &["run"]);
    assert_eq!(code, 0, "{said}");
    // args: [--fail-on, any] fails on them
    util::write(
        repo.path(),
        ".pre-commit-config.yaml",
        config("        args: [--fail-on, any]\n"),
    );
    git(repo.path(), &["add", "-A"]);
    let (code, said) = pre_commit(repo.path(), home.path(), &["run"]);
    assert_eq!(code, 1, "{said}");
    assert!(
        said.contains("--fail-on FAILED: any: 72 games with findings of 2,002 judged"),
        "{said}"
    );
}
