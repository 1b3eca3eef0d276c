//! Helpers the integration tests' modules share.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The path of the pgn-arbiter binary cargo built for these tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_pgn-arbiter");

/// A command running the pgn-arbiter binary.
pub fn bin() -> Command {
    Command::new(BIN)
}

/// The repository (the crate's manifest directory): `data/`, `tests/`.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A process's output as text (bytes that are not UTF-8 replaced).
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Writes `bytes` to `dir/name` (making the folders of `name`); returns the
/// path.
pub fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
    let p = dir.join(name);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&p, bytes).unwrap();
    p
}

/// A game with these tags, a `Result` tag and these moves, ended by the
/// result.
pub fn tagged_game(tags: &[(&str, &str)], moves: &str, result: &str) -> String {
    let mut s = String::new();
    for (k, v) in tags {
        s.push_str(&format!("[{k} \"{v}\"]\n"));
    }
    s.push_str(&format!("[Result \"{result}\"]\n\n{moves} {result}\n\n"));
    s
}

/// JSON Lines: UTF-8, one JSON value per line.
pub fn json_lines(bytes: &[u8]) -> Vec<Value> {
    std::str::from_utf8(bytes)
        .expect("JSON Lines are UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Audits one PGN text (one or more games) with extra options, asserting a
/// clean exit; returns the JSONL findings.
pub fn audit(pgn: &str, options: &[&str]) -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.pgn");
    std::fs::write(&path, pgn).unwrap();
    audit_path(&path, options)
}

/// The findings of auditing the file at `path` with `options` (exit 0
/// asserted), one JSON value per line.
pub fn audit_path(path: &Path, options: &[&str]) -> Vec<Value> {
    let out = bin()
        .args(["audit", "--quiet", "--jsonl", "-"])
        .args(options)
        .arg(path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    json_lines(&out.stdout)
}

/// The findings of `kind`.
pub fn of_kind<'a>(findings: &'a [Value], kind: &str) -> Vec<&'a Value> {
    findings.iter().filter(|f| f["kind"] == kind).collect()
}

/// The single finding of `kind`.
pub fn one<'a>(findings: &'a [Value], kind: &str) -> &'a Value {
    let found = of_kind(findings, kind);
    assert_eq!(found.len(), 1, "one {kind} expected in {findings:#?}");
    found[0]
}

/// Appends a zstd `frame` as pzstd writes it: after a skippable frame
/// (magic 0x184D2A50, length 4) that holds the frame's size.
pub fn push_pzstd_frame(out: &mut Vec<u8>, frame: &[u8]) {
    out.extend_from_slice(&0x184D_2A50u32.to_le_bytes());
    out.extend_from_slice(&4u32.to_le_bytes());
    out.extend_from_slice(&(frame.len() as u32).to_le_bytes());
    out.extend_from_slice(frame);
}

// ---------------------------------------------------------------------------
// What some tests need from outside the repository
// ---------------------------------------------------------------------------
//
// The shared corpus (`../shared/`, or `PGN_ARBITER_SHARED`), python
// (`PGN_ARBITER_PYTHON`, default `python3`) with some modules, pgn-extract
// and the SARIF schema. A test asks for what it needs with [`Needs`]:
//
//     if !Needs::test().shared("data").python(&["jsonschema"]).met() {
//         return;
//     }
//
// When something is missing the test (or, with [`Needs::check`], one check
// inside it) is skipped with one line on stderr that the test harness does
// not capture:
//
//     SKIPPED corpus::edge_files_run_cleanly: the shared corpus /work/shared not found; put the shared corpus beside the repository (../shared) or set PGN_ARBITER_SHARED
//
// With `PGN_ARBITER_REQUIRE_ALL=1` (`.ci/run` sets it) nothing may be
// skipped: the same words fail the test instead.

/// `PGN_ARBITER_REQUIRE_ALL` is set (and not `0`): every test must run.
pub fn require_all() -> bool {
    std::env::var_os("PGN_ARBITER_REQUIRE_ALL").is_some_and(|v| !v.is_empty() && v != "0")
}

/// The shared corpus: `PGN_ARBITER_SHARED`, else `shared/` beside the
/// repository.
pub fn shared() -> PathBuf {
    match std::env::var_os("PGN_ARBITER_SHARED") {
        Some(p) => PathBuf::from(p),
        None => root().parent().unwrap_or(root()).join("shared"),
    }
}

/// The python executable: `PGN_ARBITER_PYTHON`, else `python3`.
pub fn python_exe() -> PathBuf {
    std::env::var_os("PGN_ARBITER_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("python3"))
}

/// A command running the python executable.
pub fn python() -> Command {
    Command::new(python_exe())
}

/// pgn-extract: `PGN_ARBITER_PGN_EXTRACT` if set, else
/// `/usr/games/pgn-extract` (Debian's place), else on the PATH.
pub fn pgn_extract() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("PGN_ARBITER_PGN_EXTRACT") {
        let p = PathBuf::from(p);
        return p.is_file().then_some(p);
    }
    let games = PathBuf::from("/usr/games/pgn-extract");
    if games.is_file() {
        return Some(games);
    }
    on_path("pgn-extract")
}

/// An executable program `name`: `PGN_ARBITER_<NAME>` if set (`-` in the
/// name as `_`: `PGN_ARBITER_CHROMIUM`), else `default` (Debian's place)
/// if it is there, else `name` on the PATH.
pub fn program(name: &str, default: &str) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(program_var(name)) {
        let p = PathBuf::from(p);
        return p.is_file().then_some(p);
    }
    let at = PathBuf::from(default);
    if at.is_file() {
        return Some(at);
    }
    on_path(name)
}

/// The variable naming where `name` is: `PGN_ARBITER_CHROMIUM`.
pub fn program_var(name: &str) -> String {
    format!("PGN_ARBITER_{}", name.to_uppercase().replace('-', "_"))
}

/// Headless Chromium (Debian's `chromium`; `PGN_ARBITER_CHROMIUM` names
/// another).
pub fn chromium() -> Option<PathBuf> {
    program("chromium", "/usr/bin/chromium")
}

/// An executable `name` in a directory of the PATH.
pub fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// The SARIF 2.1.0 schema as Microsoft's SARIF Multitool ships it on npm
/// (`@microsoft/sarif-multitool-linux`, file `sarif-2.1.0.json`): `.ci/run`
/// unpacks it to `target/schemas/`; `PGN_ARBITER_SARIF_SCHEMA` names another
/// copy.
pub fn sarif_schema() -> PathBuf {
    match std::env::var_os("PGN_ARBITER_SARIF_SCHEMA") {
        Some(p) => PathBuf::from(p),
        None => root().join("target/schemas/sarif-2.1.0.json"),
    }
}

/// The python modules of `wanted` ("name" or "name==version") that the
/// python executable cannot import, or has at another version: each as
/// (spec, what was found); `Err` when the executable does not run at all.
pub fn python_lacks(wanted: &[&str]) -> Result<Vec<(String, String)>, String> {
    const PROBE: &str = r#"
import importlib, sys
for spec in sys.argv[1:]:
    name, _, version = spec.partition("==")
    try:
        found = getattr(importlib.import_module(name), "__version__", None)
    except Exception:
        print(spec, "not installed", sep="\t")
        continue
    if version and found != version:
        print(spec, f"{found} installed", sep="\t")
"#;
    let out = python()
        .arg("-c")
        .arg(PROBE)
        .args(wanted)
        .output()
        .map_err(|e| format!("{} cannot run ({e})", python_exe().display()))?;
    if !out.status.success() {
        return Err(format!(
            "{} fails ({})",
            python_exe().display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .map(|(spec, found)| (spec.to_string(), found.to_string()))
        .collect())
}

/// What a test, or one check inside it, needs from outside the repository;
/// [`Needs::met`] says whether it can run.
#[must_use = "call .met()"]
pub struct Needs {
    check: Option<String>,
    missing: Vec<String>,
    how: Vec<String>,
}

impl Needs {
    /// The needs of the running test as a whole.
    pub fn test() -> Needs {
        Needs {
            check: None,
            missing: Vec::new(),
            how: Vec::new(),
        }
    }

    /// The needs of one check inside the running test (the rest of the test
    /// runs anyway).
    pub fn check(what: &str) -> Needs {
        Needs {
            check: Some(what.to_string()),
            ..Needs::test()
        }
    }

    fn lack(mut self, missing: String, how: String) -> Needs {
        if !self.missing.contains(&missing) {
            self.missing.push(missing);
        }
        if !self.how.contains(&how) {
            self.how.push(how);
        }
        self
    }

    /// `part` of the shared corpus (a file or folder, e.g. `data/edge`).
    pub fn shared(self, part: &str) -> Needs {
        let path = shared().join(part);
        if path.exists() {
            return self;
        }
        let missing = if shared().is_dir() {
            format!("{} not found", path.display())
        } else {
            format!("the shared corpus {} not found", shared().display())
        };
        self.lack(
            missing,
            "put the shared corpus beside the repository (../shared) or set PGN_ARBITER_SHARED"
                .to_string(),
        )
    }

    /// python with `modules` ("name", or "name==version" where the version
    /// matters: `chess==1.11.2` for the oracle).
    pub fn python(self, modules: &[&str]) -> Needs {
        match python_lacks(modules) {
            Ok(lacks) if lacks.is_empty() => self,
            Ok(lacks) => {
                let what: Vec<String> = lacks.iter().map(|(m, f)| format!("{m} ({f})")).collect();
                let specs: Vec<&str> = lacks.iter().map(|(m, _)| m.as_str()).collect();
                self.lack(
                    format!("{} lacks {}", python_exe().display(), what.join(", ")),
                    format!(
                        "pip install {} (or set PGN_ARBITER_PYTHON to a python that has it)",
                        specs.join(" ")
                    ),
                )
            }
            Err(e) => self.lack(
                e,
                format!(
                    "install python3 and pip install {} (or set PGN_ARBITER_PYTHON)",
                    modules.join(" ")
                ),
            ),
        }
    }

    /// The Python package (`python/`) installed for the python that runs
    /// the tests.
    pub fn python_package(self) -> Needs {
        match python_lacks(&["pgn_arbiter"]) {
            Ok(lacks) if lacks.is_empty() => self,
            _ => self.lack(
                format!("{} lacks pgn_arbiter", python_exe().display()),
                "pip install ./python (or set PGN_ARBITER_PYTHON to a python that has it)"
                    .to_string(),
            ),
        }
    }

    /// The oracle: the shared corpus's `tools/oracle.py` and `compare.py`,
    /// run by python with chess 1.11.2.
    pub fn oracle(self) -> Needs {
        self.shared("tools/oracle.py")
            .shared("tools/compare.py")
            .python(&["chess==1.11.2"])
    }

    /// pgn-extract (Debian's package).
    pub fn pgn_extract(self) -> Needs {
        if pgn_extract().is_some() {
            return self;
        }
        let missing = match std::env::var_os("PGN_ARBITER_PGN_EXTRACT") {
            Some(p) => format!("pgn-extract not found at {}", Path::new(&p).display()),
            None => "pgn-extract not found (/usr/games or the PATH)".to_string(),
        };
        self.lack(
            missing,
            "apt-get install pgn-extract (or set PGN_ARBITER_PGN_EXTRACT)".to_string(),
        )
    }

    /// A program (see [`program`]): `name`, found at `default` or on the
    /// PATH unless `PGN_ARBITER_<NAME>` names it; `install` says how to get
    /// it (`apt-get install chromium`).
    pub fn program(self, name: &str, default: &str, install: &str) -> Needs {
        if program(name, default).is_some() {
            return self;
        }
        let var = program_var(name);
        let missing = match std::env::var_os(&var) {
            Some(p) => format!("{name} not found at {}", Path::new(&p).display()),
            None => format!("{name} not found ({default} or the PATH)"),
        };
        self.lack(missing, format!("{install} (or set {var})"))
    }

    /// Headless Chromium (Debian's package).
    pub fn chromium(self) -> Needs {
        self.program("chromium", "/usr/bin/chromium", "apt-get install chromium")
    }

    /// python with PyYAML (module `yaml`, package `pyyaml`).
    pub fn pyyaml(self) -> Needs {
        match python_lacks(&["yaml"]) {
            Ok(lacks) if lacks.is_empty() => self,
            Ok(_) => self.lack(
                format!("{} lacks yaml", python_exe().display()),
                "pip install pyyaml (or set PGN_ARBITER_PYTHON to a python that has it)"
                    .to_string(),
            ),
            Err(e) => self.lack(
                e,
                "install python3 and pip install pyyaml (or set PGN_ARBITER_PYTHON)".to_string(),
            ),
        }
    }

    /// pre-commit (PyPI's `pre-commit`, on the PATH or where
    /// `PGN_ARBITER_PRE_COMMIT` says).
    pub fn pre_commit(self) -> Needs {
        self.program(
            "pre-commit",
            "/usr/local/bin/pre-commit",
            "pip install pre-commit",
        )
    }

    /// check-jsonschema (PyPI's `check-jsonschema`, which ships
    /// SchemaStore's schemas of GitHub Actions and workflows and GitLab
    /// CI's), on the PATH or where `PGN_ARBITER_CHECK_JSONSCHEMA` says.
    pub fn check_jsonschema(self) -> Needs {
        self.program(
            "check-jsonschema",
            "/usr/local/bin/check-jsonschema",
            "pip install check-jsonschema",
        )
    }

    /// git, bash and cargo, which the CI wiring runs (Debian's git; cargo
    /// from rustup).
    pub fn git_bash_cargo(self) -> Needs {
        self.program("git", "/usr/bin/git", "apt-get install git")
            .program("bash", "/bin/bash", "apt-get install bash")
            .program(
                "cargo",
                "/root/.cargo/bin/cargo",
                "install Rust with rustup",
            )
    }

    /// The SARIF 2.1.0 schema (see [`sarif_schema`]).
    pub fn sarif_schema(self) -> Needs {
        let path = sarif_schema();
        if path.is_file() {
            return self;
        }
        self.lack(
            format!("the SARIF schema {} not found", path.display()),
            "run .ci/run, or: npm pack @microsoft/sarif-multitool-linux@5.7.0 \
             && tar xzf microsoft-sarif-multitool-linux-5.7.0.tgz package/sarif-2.1.0.json \
             && mkdir -p target/schemas && mv package/sarif-2.1.0.json target/schemas/ \
             (or set PGN_ARBITER_SARIF_SCHEMA)"
                .to_string(),
        )
    }

    /// Whether everything asked for is there. If not: one `SKIPPED` line on
    /// stderr and `false`, or, with `PGN_ARBITER_REQUIRE_ALL` set, a failure
    /// with the same words.
    #[track_caller]
    pub fn met(self) -> bool {
        if self.missing.is_empty() {
            return true;
        }
        let mut what = test_name();
        if let Some(check) = &self.check {
            what = format!("{what} ({check})");
        }
        let line = format!(
            "{what}: {}; {}",
            self.missing.join(", "),
            self.how.join("; ")
        );
        if require_all() {
            panic!("{line}\nPGN_ARBITER_REQUIRE_ALL is set (as .ci/run sets it): nothing may be skipped");
        }
        // Not eprintln!: the test harness captures that and shows it only
        // when the test fails. Writes through the handle are not captured.
        use std::io::Write;
        // one write, so that another test's output cannot cut the line
        let whole = format!("SKIPPED {line}\n");
        let _ = std::io::stderr().write_all(whole.as_bytes());
        record_skip(&what, &self.how);
        false
    }
}

/// Appends a skip to the file `PGN_ARBITER_SKIPS` names, if set:
/// `scripts/test.sh` sets it and ends the run with one line that counts
/// the skips and says what would enable them (libtest has no hook at the
/// end of a run, and which test runs last is not known). One line per
/// skip, the test and each way to enable it, tab-separated, in one write
/// to a file opened for appending, so that tests running at once do not
/// cut each other's lines.
fn record_skip(what: &str, how: &[String]) {
    use std::io::Write;
    let Some(path) = std::env::var_os("PGN_ARBITER_SKIPS") else {
        return;
    };
    let clean = |s: &str| s.replace(['\t', '\n'], " ");
    let mut line = clean(what);
    for h in how {
        line.push('\t');
        line.push_str(&clean(h));
    }
    line.push('\n');
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    {
        let _ = f.write_all(line.as_bytes());
    }
}

/// `module::test_name` of the running test, as libtest names it (and the
/// test's thread after it): `corpus::edge_files_run_cleanly`.
pub fn test_name() -> String {
    match std::thread::current().name() {
        Some(name) if name != "main" => name.to_string(),
        _ => env!("CARGO_CRATE_NAME").to_string(),
    }
}

/// Sends SIGINT (Ctrl-C) to the process `pid`, with `kill`.
pub fn interrupt(pid: u32) {
    let ok = Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill -INT {pid}");
}

/// Waits for `child` at most `limit`; kills it (and fails) past that.
pub fn wait_within(child: &mut Child, limit: Duration, what: &str) -> ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}
