//! Golden outputs: what every printer writes for the bundled sample
//! (`data/`), byte for byte, against `tests/golden/` (the run's seconds and
//! the timing line of the human summary set aside). A change that moves an
//! output fails here and names the file; when the change is meant,
//! `PGN_ARBITER_BLESS=1 cargo test --release --features parquet --test it golden::`
//! writes the files again, and the commit shows what moved.

use std::path::Path;

use crate::util::{bin, root, text};

/// The outputs of one `audit` of `data/` with every printer on.
const FILES: [&str; 11] = [
    "findings.jsonl",
    "summary.json",
    "report.json",
    "report.html",
    "findings.sarif",
    "gl-code-quality.json",
    "junit.xml",
    "export.pgn",
    "github.txt",
    "step.md",
    "human.txt",
];

/// `"seconds": 0.123` as `"seconds":0`, ` time="0.04"` as ` time="0"`;
/// the human summary's timing line and the HTML report's rows of runs
/// (their seconds) left out.
fn normalise(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for line in s.split_inclusive('\n') {
        if line.contains(" games/s, ") || line.contains("<td>pgn-arbiter ") {
            continue;
        }
        let mut rest = line;
        loop {
            let next = [
                ("\"seconds\":", "\"seconds\":0"),
                (" time=\"", " time=\"0\""),
            ]
            .iter()
            .filter_map(|(key, with)| rest.find(key).map(|i| (i, *key, *with)))
            .min();
            let Some((i, key, with)) = next else {
                out.push_str(rest);
                break;
            };
            out.push_str(&rest[..i]);
            out.push_str(with);
            let value = rest[i + key.len()..].trim_start_matches(' ');
            let n = value
                .find(|c: char| !(c.is_ascii_digit() || ".eE+-".contains(c)))
                .unwrap_or(value.len());
            rest = &value[n..];
            if key.ends_with('"') {
                rest = rest.strip_prefix('"').unwrap_or(rest);
            }
        }
    }
    out
}

fn run_audit(dir: &Path) {
    let o = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let audit = bin()
        .current_dir(root())
        .env("GITHUB_STEP_SUMMARY", o("step.md"))
        .args([
            "audit",
            "data",
            "--threads",
            "2",
            "--tags",
            "all",
            "--fix-results",
        ])
        .args([
            "--jsonl",
            &o("findings.jsonl"),
            "--summary-json",
            &o("summary.json"),
        ])
        .args([
            "--report-json",
            &o("report.json"),
            "--html",
            &o("report.html"),
        ])
        .args(["--sarif", &o("findings.sarif"), "--junit", &o("junit.xml")])
        .args(["--gitlab", &o("gl-code-quality.json")])
        .args(["--export-pgn", &o("export.pgn"), "--github"])
        .output()
        .unwrap();
    assert!(audit.status.success(), "{}", text(&audit.stderr));
    std::fs::write(dir.join("github.txt"), &audit.stdout).unwrap();
    let human = bin()
        .current_dir(root())
        .args(["audit", "data", "--threads", "2"])
        .output()
        .unwrap();
    assert!(human.status.success(), "{}", text(&human.stderr));
    std::fs::write(dir.join("human.txt"), &human.stdout).unwrap();
}

#[test]
fn every_printer_writes_what_it_wrote_for_the_bundled_sample() {
    let dir = tempfile::tempdir().unwrap();
    run_audit(dir.path());
    let golden = root().join("tests/golden");
    let bless = std::env::var_os("PGN_ARBITER_BLESS").is_some();
    let mut moved = Vec::new();
    for name in FILES {
        let now = normalise(&text(&std::fs::read(dir.path().join(name)).unwrap()));
        let path = golden.join(name);
        if bless {
            std::fs::create_dir_all(&golden).unwrap();
            std::fs::write(&path, &now).unwrap();
            continue;
        }
        let then = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (PGN_ARBITER_BLESS=1 writes it)", path.display()));
        if now != then {
            let line = now
                .lines()
                .zip(then.lines())
                .position(|(a, b)| a != b)
                .map_or(now.lines().count().min(then.lines().count()), |i| i);
            moved.push(format!("{name} (first difference at line {})", line + 1));
        }
    }
    assert!(moved.is_empty(), "outputs moved: {}", moved.join(", "));
}

#[test]
fn the_normalisation_sets_aside_only_the_seconds() {
    assert_eq!(
        normalise("{\"seconds\": 0.047,\"x\":1}\n<testsuite time=\"0.016\" a=\"b\">\n"),
        "{\"seconds\":0,\"x\":1}\n<testsuite time=\"0\" a=\"b\">\n"
    );
    assert_eq!(
        normalise("4,000 games, 2.7 MB in 0.08 s: 50,918 games/s, 34.5 MB/s\nrest\n"),
        "rest\n"
    );
    assert_eq!(normalise("\"secondsx\": 1"), "\"secondsx\": 1");
}
