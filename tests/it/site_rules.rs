//! SPEC "Site rules": one hand-made game per cell of the site table, on
//! both sides of each boundary, run through the binary. `Pi` is the
//! position after the i-th half-move; a `site_rule` finding stands at the
//! ply where the site's rule applied (its own draws) or at the final
//! position (`timeout`, `ruling`).

use std::path::Path;

use crate::util::{audit, bin, of_kind, python, root, shared, Needs};
use serde_json::Value;

const LICHESS: &str = "https://lichess.org/abcdEFGH";
const CHESSCOM: &str = "Chess.com";
const FICS: &str = "FICS freechess.org";

/// One game of `site`: its date, Termination (if any), FEN start, moves,
/// a comment before the result (if any) and the result.
struct Game<'a> {
    site: &'a str,
    date: &'a str,
    termination: Option<&'a str>,
    fen: &'a str,
    moves: &'a str,
    comment: Option<&'a str>,
    result: &'a str,
}

impl Game<'_> {
    fn pgn(&self) -> String {
        let mut s = format!(
            "[Event \"site rules\"]\n[Site \"{}\"]\n[Date \"{}\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"{}\"]\n",
            self.site, self.date, self.result
        );
        if let Some(t) = self.termination {
            s.push_str(&format!("[Termination \"{t}\"]\n"));
        }
        s.push_str(&format!(
            "[SetUp \"1\"]\n[FEN \"{}\"]\n\n{}",
            self.fen, self.moves
        ));
        if let Some(c) = self.comment {
            s.push_str(&format!(" {{{c}}}"));
        }
        s.push_str(&format!(" {}\n\n", self.result));
        s
    }
}

fn game<'a>(site: &'a str, fen: &'a str, moves: &'a str, result: &'a str) -> Game<'a> {
    Game {
        site,
        date: "2019.03.01",
        termination: None,
        fen,
        moves,
        comment: None,
        result,
    }
}

/// The `site_rule` findings of `g`, as (rule, ply).
fn site_rules(g: &Game<'_>) -> Vec<(String, u64)> {
    site_rules_with(g, &[])
}

fn site_rules_with(g: &Game<'_>, options: &[&str]) -> Vec<(String, u64)> {
    let f: Vec<Value> = audit(&g.pgn(), options);
    of_kind(&f, "site_rule")
        .into_iter()
        .map(|f| {
            assert_eq!(f["article"], "site", "{f}");
            (
                f["rule"].as_str().unwrap().to_string(),
                f["ply"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn rules(found: &[(&str, u64)]) -> Vec<(String, u64)> {
    found.iter().map(|(r, p)| (r.to_string(), *p)).collect()
}

// Lichess: K+R against K, the clock at 98 in P0: 100 in P2.
const FIFTY_FEN: &str = "4k3/8/8/8/8/8/8/R3K3 w - - 98 60";

#[test]
fn lichess_fifty_moves_at_the_100th_half_move_and_four_plies_later() {
    // Ended drawn at P2 (clock 100), or 4 plies later: consistent.
    for moves in ["60. Ra2 Kd8", "60. Ra2 Kd8 61. Ra1 Ke8 62. Ra2 Kd8"] {
        let g = game(LICHESS, FIFTY_FEN, moves, "1/2-1/2");
        assert!(site_rules(&g).is_empty(), "{moves}");
    }
    // 5 plies past P2, or decided at P2: the site's draw was broken at P2.
    let g = game(
        LICHESS,
        FIFTY_FEN,
        "60. Ra2 Kd8 61. Ra1 Ke8 62. Ra2 Kd8 63. Ra1",
        "1/2-1/2",
    );
    assert_eq!(site_rules(&g), rules(&[("fifty_moves", 2)]));
    let g = game(LICHESS, FIFTY_FEN, "60. Ra2 Kd8", "1-0");
    assert_eq!(site_rules(&g), rules(&[("fifty_moves", 2)]));
    // The clock at 99 only (a capture at the 100th): no draw, however long.
    let fen = "r3k3/8/8/8/8/8/7R/R3K3 w - - 98 60";
    let moves = "60. Rh3 Rxa1+ 61. Ke2 Ra2+ 62. Kd3 Ra3+ 63. Kc4";
    let g = game(LICHESS, fen, moves, "1/2-1/2");
    assert!(site_rules(&g).is_empty());
}

#[test]
fn fics_has_no_automatic_fifty_moves() {
    let g = game(
        FICS,
        FIFTY_FEN,
        "60. Ra2 Kd8 61. Ra1 Ke8 62. Ra2 Kd8 63. Ra1",
        "1/2-1/2",
    );
    assert!(site_rules(&g).is_empty());
}

#[test]
fn lichess_material_bishops_of_one_colour_and_of_both() {
    // a3 and c1 are dark squares: drawn at P0; played on 5 plies.
    let moves = "1. Kd1 Kd8 2. Ke1 Ke8 3. Kd1";
    let g = game(
        LICHESS,
        "4k3/8/8/8/8/b7/8/2B1K3 w - - 0 1",
        moves,
        "1/2-1/2",
    );
    assert_eq!(site_rules(&g), rules(&[("material", 0)]));
    // a2 is light: no draw by itself.
    let g = game(
        LICHESS,
        "4k3/8/8/8/8/8/b7/2B1K3 w - - 0 1",
        moves,
        "1/2-1/2",
    );
    assert!(site_rules(&g).is_empty());
}

#[test]
fn lichess_timeout_knight_against_queen_and_against_queen_and_pawn() {
    // Black flags; White has K+N. Against K+Q Lichess draws, so 1-0 breaks
    // its rule; against K+Q+P the win stands.
    let mut g = game(LICHESS, "4k3/8/8/8/8/3q4/8/4K1N1 b - - 0 1", "", "1-0");
    g.termination = Some("Time forfeit");
    assert_eq!(site_rules(&g), rules(&[("timeout", 0)]));
    g.fen = "4k3/7p/8/8/8/3q4/8/4K1N1 b - - 0 1";
    assert!(site_rules(&g).is_empty());
}

#[test]
fn lichess_insufficient_material_named_where_two_knights_stand() {
    let mut g = game(LICHESS, "4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1", "", "1/2-1/2");
    g.termination = Some("Insufficient material");
    // K+N+N against K: Lichess does not draw by itself (4 men, knights).
    assert_eq!(site_rules(&g), rules(&[("ruling", 0)]));
    g.fen = "4k3/8/8/8/8/8/8/4K1N1 w - - 0 1";
    assert!(site_rules(&g).is_empty());
}

// P0 = P4 = P8 = P12 = P16 (rooks back and forth).
const LOOP_FEN: &str = "r3k3/8/8/8/8/8/8/R3K3 w - - 0 1";
const LOOP: &str =
    "1. Ra2 Ra7 2. Ra1 Ra8 3. Ra2 Ra7 4. Ra1 Ra8 5. Ra2 Ra7 6. Ra1 Ra8 7. Ra2 Ra7 8. Ra1 Ra8";

#[test]
fn lichess_fivefold_from_2020_01_14() {
    // The fifth occurrence at P16, then 5 more plies.
    let moves = format!("{LOOP} 9. Ra2 Ra7 10. Ra1 Ra8 11. Ra2");
    let mut g = game(LICHESS, LOOP_FEN, &moves, "1/2-1/2");
    g.date = "2020.01.14";
    assert_eq!(site_rules(&g), rules(&[("repetition", 16)]));
    g.date = "2020.01.13";
    assert!(site_rules(&g).is_empty());
    // No usable date: the dated rule is not applied.
    g.date = "????.??.??";
    assert!(site_rules(&g).is_empty());
    // Ended at the fifth occurrence: consistent.
    let mut g = game(LICHESS, LOOP_FEN, LOOP, "1/2-1/2");
    g.date = "2021.01.01";
    assert!(site_rules(&g).is_empty());
}

#[test]
fn chesscom_threefold_ended_late_or_otherwise() {
    // The third occurrence of P0 at P8.
    let third = "1. Ra2 Ra7 2. Ra1 Ra8 3. Ra2 Ra7 4. Ra1 Ra8";
    let cases = [
        (third.to_string(), "Game drawn by repetition", vec![]),
        // 4 plies later, the site's own ruling: consistent.
        (
            format!("{third} 5. Ra2 Ra7 6. Ra1 Ra8"),
            "Game drawn by repetition",
            vec![],
        ),
        // 5 plies later.
        (
            format!("{third} 5. Ra2 Ra7 6. Ra1 Ra8 7. Ra2"),
            "Game drawn by repetition",
            vec![("repetition", 8)],
        ),
        // Went on 3 plies and ended by agreement: another ending.
        (
            format!("{third} 5. Ra2 Ra7 6. Ra1"),
            "Game drawn by agreement",
            vec![("repetition", 8)],
        ),
        // Agreed at the third occurrence itself: it did not go on.
        (third.to_string(), "Game drawn by agreement", vec![]),
    ];
    for (moves, termination, expected) in cases {
        let mut g = game(CHESSCOM, LOOP_FEN, &moves, "1/2-1/2");
        g.termination = Some(termination);
        assert_eq!(site_rules(&g), rules(&expected), "{moves} {termination}");
    }
}

#[test]
fn chesscom_material_two_knights_against_a_lone_king_and_against_a_pawn() {
    let moves = "1. Kd1 Kd8 2. Ke1 Ke8 3. Kd1";
    let mut g = game(
        CHESSCOM,
        "4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1",
        moves,
        "1/2-1/2",
    );
    g.termination = Some("Game drawn by agreement");
    assert_eq!(site_rules(&g), rules(&[("material", 0)]));
    g.fen = "4k3/7p/8/8/8/8/8/1N2K1N1 w - - 0 1";
    assert!(site_rules(&g).is_empty());
}

#[test]
fn chesscom_timeout_rulings() {
    // Won on time by K+B: chess.com draws that (only K, K+B or K+N).
    let mut g = game(CHESSCOM, "4k3/7p/8/8/8/8/8/2B1K3 b - - 0 1", "", "1-0");
    g.termination = Some("W won on time");
    assert_eq!(site_rules(&g), rules(&[("timeout", 0)]));
    g.fen = "4k3/7p/8/8/8/8/8/R3K3 b - - 0 1";
    assert!(site_rules(&g).is_empty());
    // Drawn by timeout vs insufficient material: Black flagged (to move);
    // White's K+N cannot win on time there, K+R can.
    let mut g = game(CHESSCOM, "4k3/8/8/8/8/8/8/4K1N1 b - - 0 1", "", "1/2-1/2");
    g.termination = Some("Game drawn by timeout vs insufficient material");
    assert!(site_rules(&g).is_empty());
    g.fen = "4k3/8/8/8/8/8/8/R3K3 b - - 0 1";
    assert_eq!(site_rules(&g), rules(&[("ruling", 0)]));
}

#[test]
fn fics_material_bishop_and_two_bishops() {
    let moves = "1. Kd1 Kd8 2. Ke1 Ke8 3. Kd1";
    let g = game(FICS, "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", moves, "1/2-1/2");
    assert_eq!(site_rules(&g), rules(&[("material", 0)]));
    let g = game(FICS, "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", moves, "1/2-1/2");
    assert!(site_rules(&g).is_empty());
    // The ruling named: supported by K+B, not by K+B+B.
    let mut g = game(FICS, "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", "", "1/2-1/2");
    g.comment = Some("Neither player has mating material");
    assert!(site_rules(&g).is_empty());
    g.fen = "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1";
    assert_eq!(site_rules(&g), rules(&[("ruling", 0)]));
}

#[test]
fn fics_timeout_rulings() {
    // Black forfeits on time against K+N: FICS draws that.
    let mut g = game(FICS, "4k3/7p/8/8/8/8/8/4K1N1 b - - 0 1", "", "1-0");
    g.comment = Some("Black forfeits on time");
    assert_eq!(site_rules(&g), rules(&[("timeout", 0)]));
    g.fen = "4k3/7p/8/8/8/8/8/R3K3 b - - 0 1";
    assert!(site_rules(&g).is_empty());
    // White ran out of time (White to move or not): Black's K+N cannot
    // mate by FICS's rule, K+R can.
    let mut g = game(FICS, "4k3/8/8/3n4/8/8/8/4K3 w - - 0 1", "", "1/2-1/2");
    g.comment = Some("White ran out of time and Black has no material to mate");
    assert!(site_rules(&g).is_empty());
    g.fen = "4k3/8/8/3r4/8/8/8/4K3 w - - 0 1";
    assert_eq!(site_rules(&g), rules(&[("ruling", 0)]));
}

#[test]
fn fics_fifty_and_repetition_rulings_need_the_board_to_support_them() {
    let mut g = game(
        FICS,
        "4k3/8/8/8/8/8/8/R3K3 w - - 40 60",
        "60. Ra2 Kd8",
        "1/2-1/2",
    );
    g.comment = Some("Game drawn by the 50 move rule");
    assert_eq!(site_rules(&g), rules(&[("ruling", 2)]));
    g.fen = FIFTY_FEN;
    assert!(site_rules(&g).is_empty());
    let mut g = game(FICS, LOOP_FEN, "1. Ra2 Ra7 2. Ra1 Ra8", "1/2-1/2");
    g.comment = Some("Game drawn by repetition");
    assert_eq!(site_rules(&g), rules(&[("ruling", 4)]));
    let mut g = game(
        FICS,
        LOOP_FEN,
        "1. Ra2 Ra7 2. Ra1 Ra8 3. Ra2 Ra7 4. Ra1 Ra8",
        "1/2-1/2",
    );
    g.comment = Some("Game drawn by repetition");
    assert!(site_rules(&g).is_empty());
}

#[test]
fn the_site_option_picks_the_rulebook() {
    let moves = "1. Kd1 Kd8 2. Ke1 Ke8 3. Kd1";
    let g = game(FICS, "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", moves, "1/2-1/2");
    assert!(site_rules_with(&g, &["--site", "none"]).is_empty());
    // A game of no known site, judged by FICS's rules on request.
    let g = game(
        "Berlin",
        "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1",
        moves,
        "1/2-1/2",
    );
    assert!(site_rules(&g).is_empty());
    assert_eq!(
        site_rules_with(&g, &["--site", "fics"]),
        rules(&[("material", 0)])
    );
    let f = audit(&g.pgn(), &["--site", "fics"]);
    let s = of_kind(&f, "site_rule")[0];
    assert_eq!(s["site"], "fics");
    assert_eq!(s["Site"], "Berlin");
}

#[test]
fn a_checkmate_at_the_100th_half_move_is_no_fifty_move_draw() {
    // 60. Qg7# makes the clock 100 and mates: the mate stands.
    let g = game(
        LICHESS,
        "7k/8/5K2/8/8/8/8/6Q1 w - - 99 60",
        "60. Qg7#",
        "1-0",
    );
    assert!(site_rules(&g).is_empty());
}

/// The shared online corpus (chess.com, FICS, Lichess): pgn-arbiter's
/// `site_rule` findings equal those of an independent check written on
/// python-chess from SPEC's table (tests/check_site_rules.py), which also
/// tests python-chess's claim that `has_insufficient_material` is
/// Lichess's timeout rule on every Lichess game lost on time.
#[test]
fn site_rules_agree_with_an_independent_python_check_on_the_shared_corpus() {
    if !checkable() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let report = checked_online_files(dir.path(), &[]);
    // Every ruling named in these records is checked.
    assert!(
        report.contains("chesscom: rulings checked 956, supported 956"),
        "{report}"
    );
    assert!(
        report.contains("fics: rulings checked 168, supported 168"),
        "{report}"
    );
    // Lichess's game 7384 (`Time forfeit` 1/2-1/2 with winning material)
    // is no loss on time (SPEC "Lost on time"): no ruling to check there.
    assert!(
        report.contains("lichess: rulings checked 5427, supported 5427"),
        "{report}"
    );
    assert!(
        report.contains("site_rule findings: pgn-arbiter 3, this check 3"),
        "{report}"
    );
    // FICS's three `ran out of time` draws where a mate was possible, and
    // chess.com's timeout draw against K+N that could mate.
    assert!(
        report.contains("lost on time 6459: drawn_flag 4, unwinnable_flag 0, problems 0"),
        "{report}"
    );
}

/// Whether the shared online files and python-chess are there for the
/// independent check.
fn checkable() -> bool {
    Needs::test()
        .shared("data/online-lichess.pgn.zst")
        .python(&["chess==1.11.2"])
        .met()
}

/// The shared online files as plain PGN in `dir`, audited with `site` (the
/// `--site` option and its value, or nothing) and checked by
/// tests/check_site_rules.py with the same option: what the check prints,
/// once it has passed.
fn checked_online_files(dir: &Path, site: &[&str]) -> String {
    let mut plain = Vec::new();
    for name in ["online-chesscom", "online-fics", "online-lichess"] {
        let zst = shared().join(format!("data/{name}.pgn.zst"));
        let bytes = zstd::decode_all(std::fs::File::open(&zst).unwrap()).unwrap();
        let path = dir.join(format!("{name}.pgn"));
        std::fs::write(&path, bytes).unwrap();
        plain.push(path);
    }
    let jsonl = dir.join("findings.jsonl");
    let out = bin()
        .args(["audit", "--quiet", "--jsonl"])
        .arg(&jsonl)
        .args(site)
        .args(&plain)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let check = python()
        .arg(root().join("tests/check_site_rules.py"))
        .args(site)
        .arg(&jsonl)
        .args(&plain)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&check.stdout).into_owned();
    assert!(
        check.status.success(),
        "{report}{}",
        String::from_utf8_lossy(&check.stderr)
    );
    report
}

/// Under `--site fide-online` the same online files: the third occurrences
/// and 50-move draws the independent check finds are pgn-arbiter's, one
/// for one, and every dead position or flag against a side that cannot
/// mate that material alone proves is found too (tests/check_site_rules.py
/// `--site fide-online`).
#[test]
fn fide_online_agrees_with_the_independent_python_check_on_the_shared_corpus() {
    if !checkable() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let report = checked_online_files(dir.path(), &["--site", "fide-online"]);
    assert!(
        report.contains("fide-online exact findings: pgn-arbiter 49, this check 49"),
        "{report}"
    );
    assert!(report.contains("problems 0"), "{report}");
}

/// Under every other `--site` value (`none`, and each site's rulebook and
/// words for every game) the same files agree with the independent check
/// run with the same value, the Laws' flags included.
#[test]
fn every_site_value_agrees_with_the_independent_python_check_on_the_shared_corpus() {
    if !checkable() {
        return;
    }
    let values = ["none", "lichess", "chesscom", "fics"];
    let reports: Vec<(String, String)> = std::thread::scope(|scope| {
        let runs: Vec<_> = values
            .iter()
            .map(|v| {
                scope.spawn(move || {
                    let dir = tempfile::tempdir().unwrap();
                    (
                        v.to_string(),
                        checked_online_files(dir.path(), &["--site", v]),
                    )
                })
            })
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    });
    for (value, report) in &reports {
        let line = report
            .lines()
            .find(|l| l.starts_with("site_rule findings: "))
            .unwrap_or_else(|| panic!("--site {value}: {report}"));
        let counts: Vec<&str> = line.split(", ").collect();
        assert_eq!(
            counts[0].trim_start_matches("site_rule findings: pgn-arbiter "),
            counts[1].trim_start_matches("this check "),
            "--site {value}: {report}"
        );
        assert!(report.contains("problems 0"), "--site {value}: {report}");
    }
    // a rulebook for every game finds what the tag's alone did not
    let chesscom = &reports[2].1;
    assert!(
        chesscom.contains("site_rule findings: pgn-arbiter 46, this check 46"),
        "{chesscom}"
    );
    assert!(reports[0]
        .1
        .contains("site_rule findings: pgn-arbiter 0, this check 0"));
}

/// A site's rule never changes a result (`--fix-results` follows the Laws),
/// is written as a comment in the export, and fails a run on request.
#[test]
fn site_rules_fail_on_request_and_never_fix_a_result() {
    // Black forfeits on time against K+N at FICS (a site's draw); the Laws
    // let K+N mate K+P (the pawn can block): the 1-0 stands under the Laws.
    let mut g = game(FICS, "4k3/7p/8/8/8/8/8/4K1N1 b - - 0 1", "", "1-0");
    g.comment = Some("Black forfeits on time");
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("g.pgn");
    std::fs::write(&pgn, g.pgn()).unwrap();
    let export = dir.path().join("fixed.pgn");
    let out = bin()
        .args(["audit", "--quiet", "--fix-results", "--export-pgn"])
        .arg(&export)
        .arg(&pgn)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&export).unwrap();
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
    assert!(
        text.contains("FICS draws a loss on time against this material"),
        "{text}"
    );
    let out = bin()
        .args(["audit", "--quiet", "--fail-on", "site_rule"])
        .arg(&pgn)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = bin()
        .args([
            "audit",
            "--quiet",
            "--site",
            "none",
            "--fail-on",
            "site_rule",
        ])
        .arg(&pgn)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
}
