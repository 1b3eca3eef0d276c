//! The documentation holds to what it says: README.md, docs/*.md,
//! CHANGELOG.md and the comments of src/ speak of the project, not of how
//! its work was organised; every relative link and anchor of the Markdown
//! resolves; the README stays short; and every shell example either runs
//! against the bundled data, with the output it shows, or says why not.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{root, text, BIN};

/// README.md and the Markdown pages of docs/.
fn markdown_files() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Words that contain "session" and are no work session: names of the
/// APIs the code and the docs call.
const SESSION_ALLOWED: &[&str] = &["sparksession", "sessiononly"];

/// Why `line` speaks of how the work was organised, if it does: an issue
/// number, a `#NN` reference, a work session, or a full date from 2024 on.
fn history_in(line: &str) -> Option<&'static str> {
    let lower = line.to_ascii_lowercase();
    let b = lower.as_bytes();
    let digits_at = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    // "issue 26", "issue #26", "issues 25"
    for (i, _) in lower.match_indices("issue") {
        let mut j = i + "issue".len();
        if b.get(j) == Some(&b's') {
            j += 1;
        }
        while matches!(b.get(j), Some(b' ' | b'#')) {
            j += 1;
        }
        if j > i + "issue".len() && digits_at(j) {
            return Some("an issue number");
        }
    }
    // "#43" after a blank or "(" (not `&#39;`, not a URL's "#52", not a
    // CSS colour `#444;` or `#a0a0a0`)
    for (i, _) in lower.match_indices('#') {
        let before = if i == 0 { b' ' } else { b[i - 1] };
        let end = (i + 1..=b.len())
            .find(|&k| !digits_at(k))
            .unwrap_or(b.len());
        let after = b.get(end).copied().unwrap_or(b' ');
        let number_alone = !after.is_ascii_alphanumeric() && after != b';';
        if (before == b' ' || before == b'(') && end >= i + 3 && number_alone {
            return Some("a #NN reference");
        }
    }
    let mut rest = lower.clone();
    for allowed in SESSION_ALLOWED {
        rest = rest.replace(allowed, "");
    }
    if rest.contains("session") {
        return Some("a work session");
    }
    // a full date YYYY-MM-DD of 2024 or later
    for i in 0..b.len().saturating_sub(9) {
        let s = &b[i..i + 10];
        let shape = s.iter().enumerate().all(|(k, c)| match k {
            4 | 7 => *c == b'-',
            _ => c.is_ascii_digit(),
        });
        let year: u32 = std::str::from_utf8(&b[i..i + 4])
            .ok()
            .and_then(|y| y.parse().ok())
            .unwrap_or(0);
        let alone = (i == 0 || !b[i - 1].is_ascii_alphanumeric())
            && b.get(i + 10).is_none_or(|c| !c.is_ascii_alphanumeric());
        if shape && alone && year >= 2024 {
            return Some("a date of the work");
        }
    }
    None
}

#[test]
fn the_history_of_the_work_stays_in_git() {
    let mut files = markdown_files();
    files.push(root().join("CHANGELOG.md"));
    rust_files(&root().join("src"), &mut files);
    let mut hits = Vec::new();
    for file in &files {
        let body = std::fs::read_to_string(file).unwrap();
        for (n, line) in body.lines().enumerate() {
            if let Some(why) = history_in(line) {
                hits.push(format!(
                    "{}:{}: {why}: {}",
                    relative(file),
                    n + 1,
                    line.trim()
                ));
            }
        }
    }
    assert!(
        hits.is_empty(),
        "say what the project does, not how the work went:\n{}",
        hits.join("\n")
    );
}

#[test]
fn the_history_check_sees_what_it_looks_for() {
    for line in [
        "(issue 26, 2026-12-05)",
        "as Issue #23 asked",
        "the fifth session",
        "Sessions",
        "kept (#40)",
        "measured on 2026-12-03",
    ] {
        assert!(history_in(line).is_some(), "{line}");
    }
    for line in [
        "SparkSession.builder.getOrCreate()",
        "ResetDirective::SessionOnly",
        "https://lichess.org/LgDtBtFa#52",
        "'\\'' => Some(\"&#39;\")",
        ".meta { color: #444; }",
        "border: 1px solid #a0a0a0;",
        "before 2014-07-01",
        "an issue per finding",
        "the 2018 laws",
    ] {
        assert_eq!(history_in(line), None, "{line}");
    }
}

/// The lines of `body` outside fenced code blocks, with their numbers.
fn prose_lines(body: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (n, line) in body.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            out.push((n + 1, line));
        }
    }
    out
}

/// `line` without its code spans.
fn without_code_spans(line: &str) -> String {
    let mut out = String::new();
    let mut in_code = false;
    for c in line.chars() {
        if c == '`' {
            in_code = !in_code;
        } else if !in_code {
            out.push(c);
        }
    }
    out
}

/// A heading's anchor as GitHub makes it: the text as rendered (links
/// and code marks dropped), lower-cased, every character but letters,
/// digits, blanks, `-` and `_` dropped, blanks made `-`.
fn slug(heading: &str) -> String {
    let mut rendered = String::new();
    let mut rest = heading;
    while let Some(open) = rest.find('[') {
        rendered.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match (after.find("]("), after.find(')')) {
            (Some(close), Some(end)) if close < end => {
                rendered.push_str(&after[..close]);
                rest = &after[end + 1..];
            }
            _ => {
                rendered.push('[');
                rest = after;
            }
        }
    }
    rendered.push_str(rest);
    rendered
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown file's headings (a repeated slug gets `-1`,
/// `-2`, ... as on GitHub).
fn anchors(body: &str) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::new();
    for (_, line) in prose_lines(body) {
        let hashes = line.chars().take_while(|c| *c == '#').count();
        if (1..=6).contains(&hashes) && line[hashes..].starts_with(' ') {
            let base = slug(line[hashes..].trim_end_matches('#'));
            let n = seen.entry(base.clone()).or_insert(0);
            out.push(if *n == 0 {
                base.clone()
            } else {
                format!("{base}-{n}")
            });
            *n += 1;
        }
    }
    out
}

/// The targets of the inline links and images of a line: `[..](TARGET)`.
fn link_targets(line: &str) -> Vec<String> {
    let line = without_code_spans(line);
    let mut out = Vec::new();
    let mut rest = line.as_str();
    while let Some(i) = rest.find("](") {
        let after = &rest[i + 2..];
        let end = after.find(')').unwrap_or(after.len());
        let target = after[..end].split_whitespace().next().unwrap_or("");
        out.push(target.to_string());
        rest = &after[end..];
    }
    out
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let mut broken = Vec::new();
    for file in markdown_files() {
        let body = std::fs::read_to_string(&file).unwrap();
        let dir = file.parent().unwrap();
        for (n, line) in prose_lines(&body) {
            for target in link_targets(line) {
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                let (path, anchor) = match target.split_once('#') {
                    Some((p, a)) => (p, Some(a)),
                    None => (target.as_str(), None),
                };
                let linked = if path.is_empty() {
                    file.clone()
                } else {
                    dir.join(path)
                };
                let at = format!("{}:{n}: {target}", relative(&file));
                if !linked.exists() {
                    broken.push(format!("{at}: no such file"));
                    continue;
                }
                if let Some(anchor) = anchor {
                    let text = std::fs::read_to_string(&linked).unwrap_or_default();
                    if !anchors(&text).iter().any(|a| a == anchor) {
                        broken.push(format!("{at}: no heading with that anchor"));
                    }
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn slugs_are_githubs() {
    assert_eq!(
        slug("Merging parts give the statistics of one run"),
        "merging-parts-give-the-statistics-of-one-run"
    );
    assert_eq!(slug("Ctrl-C and closed pipes"), "ctrl-c-and-closed-pipes");
    assert_eq!(
        slug("SARIF, JUnit and other CI"),
        "sarif-junit-and-other-ci"
    );
    assert_eq!(slug("The `run` object (v2)"), "the-run-object-v2");
    assert_eq!(slug("See [the guide](GUIDE.md)"), "see-the-guide");
    assert_eq!(
        anchors("# A\n## A\n```\n# not a heading\n```\n## A\n"),
        ["a", "a-1", "a-2"]
    );
}

#[test]
fn the_readme_is_short() {
    let lines = std::fs::read_to_string(root().join("README.md"))
        .unwrap()
        .lines()
        .count();
    assert!(
        lines < 300,
        "README.md has {lines} lines: move the detail to a page of docs/"
    );
}

/// A shell example of the Markdown: its file and line, its language, its
/// lines, and whether a `<!-- not run: REASON -->` comment precedes it.
struct Example {
    at: String,
    lang: String,
    lines: Vec<String>,
    not_run: bool,
}

fn shell_examples(file: &Path) -> Vec<Example> {
    let body = std::fs::read_to_string(file).unwrap();
    let lines: Vec<&str> = body.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some(lang) = lines[i].strip_prefix("```") else {
            i += 1;
            continue;
        };
        let start = i;
        let end = (i + 1..lines.len())
            .find(|&j| lines[j].starts_with("```"))
            .unwrap_or(lines.len());
        if matches!(lang.trim(), "sh" | "console" | "bash") {
            let before = lines[..start].iter().rev().find(|l| !l.trim().is_empty());
            let not_run = before.is_some_and(|l| {
                let l = l.trim();
                l.starts_with("<!-- not run: ")
                    && l.ends_with("-->")
                    && l.len() > "<!-- not run:  -->".len()
            });
            out.push(Example {
                at: format!("{}:{}", relative(file), start + 1),
                lang: lang.trim().to_string(),
                lines: lines[start + 1..end]
                    .iter()
                    .map(|l| l.to_string())
                    .collect(),
                not_run,
            });
        }
        i = end + 1;
    }
    out
}

/// Whether `actual` is what `expected` shows: line by line, trailing
/// blanks ignored, a line `...` standing for any lines.
fn output_matches(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first.trim() == "..." => {
            (0..=actual.len()).any(|skip| output_matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual.split_first().is_some_and(|(a, more)| {
            a.trim_end() == first.trim_end() && output_matches(rest, more)
        }),
    }
}

/// A directory to run the examples in: `data` there is the bundled data,
/// so the examples name it as they do from the repository's root, and
/// what they write stays out of the repository.
fn example_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(root().join("data"), dir.path().join("data")).unwrap();
    dir
}

/// Runs `script` with `sh` in `dir`, pgn-arbiter on the PATH being the
/// binary these tests built.
fn sh(dir: &Path, script: &str) -> std::process::Output {
    let bin_dir = Path::new(BIN).parent().unwrap();
    let path = std::env::join_paths(std::iter::once(bin_dir.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .env("PATH", path)
        .output()
        .unwrap()
}

/// Runs one example; what went wrong, if anything.
fn run_example(example: &Example) -> Option<String> {
    let dir = example_dir();
    if example.lang != "console" {
        let out = sh(dir.path(), &format!("set -e\n{}", example.lines.join("\n")));
        return (!out.status.success())
            .then(|| format!("{}: failed: {}", example.at, text(&out.stderr)));
    }
    // `$ COMMAND` lines, each followed by the output it shows
    let mut commands: Vec<(String, Vec<String>)> = Vec::new();
    for line in &example.lines {
        match line.strip_prefix("$ ") {
            Some(command) => commands.push((command.to_string(), Vec::new())),
            None => match commands.last_mut() {
                Some((_, shown)) => shown.push(line.clone()),
                None => return Some(format!("{}: output before any `$ ` line", example.at)),
            },
        }
    }
    const SEP: char = '\u{1e}';
    // the separator is printed after each command, its exit status kept
    // for the next one (`echo $?`)
    let script: String = commands
        .iter()
        .map(|(c, _)| format!("{c}\nstatus=$?; printf '\\036'; (exit $status)\n"))
        .collect();
    let out = sh(dir.path(), &script);
    let stdout = text(&out.stdout);
    let outputs: Vec<&str> = stdout.split(SEP).collect();
    for (k, (command, shown)) in commands.iter().enumerate() {
        let actual: Vec<&str> = outputs.get(k).copied().unwrap_or("").lines().collect();
        if !output_matches(shown, &actual) {
            return Some(format!(
                "{}: `{command}` printed\n{}\ninstead of\n{}\n(stderr: {})",
                example.at,
                actual.join("\n"),
                shown.join("\n"),
                text(&out.stderr)
            ));
        }
    }
    None
}

#[test]
fn every_shell_example_runs_or_says_why_not() {
    let examples: Vec<Example> = markdown_files()
        .iter()
        .flat_map(|f| shell_examples(f))
        .collect();
    assert!(
        examples.iter().filter(|e| !e.not_run).count() >= 5,
        "too few examples run"
    );
    let failures: Vec<String> = examples
        .iter()
        .filter(|e| !e.not_run)
        .filter_map(run_example)
        .collect();
    assert!(
        failures.is_empty(),
        "examples that do not run as shown (fix them, or precede the block with `<!-- not run: REASON -->`):\n{}",
        failures.join("\n\n")
    );
}

#[test]
fn the_example_check_compares_output() {
    let shown = |s: &str| s.lines().map(str::to_string).collect::<Vec<_>>();
    assert!(output_matches(&shown("a\n...\nd"), &["a", "b", "c", "d"]));
    assert!(output_matches(&shown("a\n..."), &["a"]));
    assert!(!output_matches(&shown("a\nb"), &["a", "c"]));
    let example = Example {
        at: "here".into(),
        lang: "console".into(),
        lines: shown("$ echo one\none\n$ echo two\nthree"),
        not_run: false,
    };
    assert!(run_example(&example).is_some_and(|e| e.contains("`echo two`")));
}
