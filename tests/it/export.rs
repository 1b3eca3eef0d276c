//! `--export-pgn` and `--fix-results` as an arbiter meets them: the flagged
//! games, each as it was plus a comment at each finding, read back by
//! python-chess and pgn-extract with the same mainline; results corrected
//! only where the Laws decide them and the engine proved it.
//!
//! The read-back needs python with python-chess and jsonschema, and
//! pgn-extract; its corpus files need the shared corpus (`../shared/` or
//! `PGN_ARBITER_SHARED`). Without them it is skipped with a `SKIPPED` line
//! (see `util::Needs`), or fails when `PGN_ARBITER_REQUIRE_ALL` is set.

use std::path::{Path, PathBuf};

use crate::util::{self, bin, root, shared, text, Needs};

/// Black can announce 4... Ng8 (threefold) and loses: a missed claim.
const MISSED: &str = "[Event \"m\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n\
1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 1-0\n\n";
/// Fool's mate scored as a draw.
const MATE_DRAWN: &str = "[Event \"w\"]\n[White \"C\"]\n[Black \"D\"]\n[Result \"1/2-1/2\"]\n\n\
1. f3 e5 2. g4 Qh4# 1/2-1/2\n\n";
/// King and knight against king, lost on time: dead, and unwinnable.
const FLAG: &str = "[Event \"f\"]\n[White \"E\"]\n[Black \"F\"]\n[Result \"1-0\"]\n\
[SetUp \"1\"]\n[FEN \"8/8/8/4k3/8/8/8/4KN2 w - - 0 1\"]\n[Termination \"Time forfeit\"]\n\n\
1. Kf2 Kd4 1-0\n\n";
/// An illegal move, with a wrong-looking result that must stay.
const ILLEGAL: &str = "[Event \"i\"]\n[White \"G\"]\n[Black \"H\"]\n[Result \"1-0\"]\n\n\
1. e4 e5 2. Ke3 1-0\n\n";
const CLEAN: &str =
    "[Event \"c\"]\n[White \"I\"]\n[Black \"J\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n";

fn export(pgn: &Path, extra: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.pgn");
    let run = bin()
        .args(["audit", "--quiet", "--export-pgn"])
        .arg(&out)
        .args(extra)
        .arg(pgn)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    std::fs::read_to_string(&out).unwrap()
}

fn games(exported: &str) -> Vec<&str> {
    exported.split("\n\n[Event").collect()
}

#[test]
fn flagged_games_are_written_as_they_were_with_a_comment_at_each_finding() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("a.pgn");
    std::fs::write(
        &pgn,
        [CLEAN, MISSED, CLEAN, MATE_DRAWN, FLAG, ILLEGAL].concat(),
    )
    .unwrap();
    let x = export(&pgn, &[]);
    let g = games(&x);
    assert_eq!(g.len(), 4, "{x}");
    // the missed claim: the comment before the announcing move, the tag after the tags
    assert!(x.starts_with(
        "[Event \"m\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[PgnArbiterFindings \"missed_threefold\"]\n\n\
         1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 { pgn-arbiter: Black could have claimed a draw by threefold \
         repetition (9.2) by announcing 4... Ng8; played on and lost } Ng8 5. e4 1-0\n\n"
    ), "{x}");
    // without --fix-results nothing else changes
    assert!(g[1].contains("[Result \"1/2-1/2\"]") && g[1].contains("Qh4# { pgn-arbiter: "));
    assert!(!x.contains("OriginalResult"));
    // --export-kinds
    let only = export(&pgn, &["--export-kinds", "wrong_result,invalid_game"]);
    assert_eq!(games(&only).len(), 2, "{only}");
    assert!(only.contains("[Event \"w\"]") && only.contains("[Event \"i\"]"));
}

#[test]
fn results_are_fixed_only_where_the_laws_decide_and_it_was_proven() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("a.pgn");
    std::fs::write(&pgn, [MISSED, MATE_DRAWN, FLAG, ILLEGAL].concat()).unwrap();
    let x = export(&pgn, &["--fix-results"]);
    let g = games(&x);
    assert_eq!(g.len(), 4);
    // a missed claim: the player chose to play on
    assert!(g[0].contains("[Result \"1-0\"]") && !g[0].contains("OriginalResult"));
    // checkmate: 0-1, in the tag and in the movetext
    assert!(g[1].contains("[Result \"0-1\"]"), "{}", g[1]);
    assert!(g[1].contains("[OriginalResult \"1/2-1/2\"]"));
    assert!(g[1].trim_end().ends_with("} 0-1"), "{}", g[1]);
    // dead from the start and lost on time: drawn
    assert!(g[2].contains("[Result \"1/2-1/2\"]") && g[2].contains("[OriginalResult \"1-0\"]"));
    assert!(
        g[2].contains("[PgnArbiterFindings \"dead_position,unwinnable_flag\"]"),
        "{}",
        g[2]
    );
    // an invalid game: its final position is unknown
    assert!(g[3].contains("[Result \"1-0\"]") && !g[3].contains("OriginalResult"));
    assert!(g[3].contains("e5 { pgn-arbiter: "), "{}", g[3]);
}

/// Black can announce 4... Ng8 (threefold, missed) and the start position
/// stands a fifth time after 8... Ng8 (fivefold: drawn there), yet 1-0.
const MISSED_THEN_FIVEFOLD: &str = "[Event \"v\"]\n[White \"K\"]\n[Black \"L\"]\n[Result \"1-0\"]\n\n\
1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 9. e4 1-0\n\n";

/// With `--fix-results` a missed claim's note says what the
/// claimant got under the corrected result; without it, as recorded.
#[test]
fn a_missed_claims_note_agrees_with_the_corrected_result() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("a.pgn");
    std::fs::write(&pgn, MISSED_THEN_FIVEFOLD).unwrap();
    let fixed = export(&pgn, &["--fix-results"]);
    assert!(fixed.contains("[Result \"1/2-1/2\"]"), "{fixed}");
    assert!(fixed.contains("[OriginalResult \"1-0\"]"), "{fixed}");
    assert!(
        fixed.contains("by announcing 4... Ng8; played on and drew (as corrected) }"),
        "{fixed}"
    );
    assert!(!fixed.contains("lost"), "{fixed}");
    let as_recorded = export(&pgn, &[]);
    assert!(
        as_recorded.contains("by announcing 4... Ng8; played on and lost }"),
        "{as_recorded}"
    );
}

/// Real files: every exported game read back by python-chess with the same
/// mainline and tags, its comments at the findings' plies; pgn-extract reads
/// the same moves from the originals and the export. The games written here
/// and the bundled sample always; the corpus files when it is there.
#[test]
fn exported_real_games_read_back_in_python_chess_and_pgn_extract() {
    if !Needs::test()
        .python(&["chess", "jsonschema"])
        .pgn_extract()
        .met()
    {
        return;
    }
    let extract = util::pgn_extract().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let tiny = dir.path().join("tiny.pgn");
    std::fs::write(&tiny, [MISSED, MATE_DRAWN, FLAG, ILLEGAL].concat()).unwrap();
    let data = root().join("data");
    let twic = dir.path().join("twic-2000.pgn");
    let zst = std::fs::File::open(data.join("twic-2000.pgn.zst")).unwrap();
    std::fs::write(&twic, zstd::decode_all(zst).unwrap()).unwrap();
    let mut files: Vec<(String, PathBuf)> = vec![
        ("tiny.pgn".into(), tiny),
        ("lichess-2000.pgn".into(), data.join("lichess-2000.pgn")),
        ("twic-2000.pgn".into(), twic),
    ];
    if Needs::check("the corpus files").shared("data").met() {
        for stem in ["online-lichess", "online-fics", "otb-twic-events"] {
            let zst = shared().join(format!("data/{stem}.pgn.zst"));
            let bytes = zstd::decode_all(std::fs::File::open(&zst).unwrap()).unwrap();
            let path = dir.path().join(format!("{stem}.pgn"));
            std::fs::write(&path, bytes).unwrap();
            files.push((format!("{stem}.pgn"), path));
        }
    }
    for (name, path) in &files {
        let jsonl = dir.path().join("f.jsonl");
        let x = dir.path().join("x.pgn");
        let run = bin()
            .args(["audit", "--quiet", "--fix-results", "--jsonl"])
            .arg(&jsonl)
            .arg("--export-pgn")
            .arg(&x)
            .arg(path)
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
        let check = util::python()
            .arg(root().join("tests/check_export.py"))
            .arg(&jsonl)
            .arg(&x)
            .arg(format!("{name}={}", path.display()))
            .arg("--pgn-extract")
            .arg(&extract)
            .output()
            .unwrap();
        assert!(
            check.status.success(),
            "{name}: check_export.py:\n{}{}",
            text(&check.stdout),
            text(&check.stderr)
        );
    }
}
