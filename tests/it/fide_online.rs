//! `--site fide-online` (SPEC "Site rules"): FIDE's Online Chess
//! Regulations, chosen only explicitly. Automatic draws (Art. 5.4) at the
//! third occurrence of a position (the Laws' identity), at 100 half-moves
//! without a pawn move or capture, in a dead position; a loss on time
//! against a side that cannot mate is a draw (Art. 4.4). No grace plies: a
//! finding wherever moves followed the draw or the result is not ½-½.
//! Hand-made games on both sides of each boundary.

use crate::util::{audit, of_kind, tagged_game};
use serde_json::Value;

const FIDE: [&str; 2] = ["--site", "fide-online"];

/// A game from `fen` (no site of its own) with these moves and result,
/// and a `Termination` when given.
fn game(fen: &str, moves: &str, result: &str, termination: Option<&str>) -> String {
    let mut tags = vec![
        ("Site", "Berlin"),
        ("Date", "2021.03.01"),
        ("SetUp", "1"),
        ("FEN", fen),
    ];
    if let Some(t) = termination {
        tags.push(("Termination", t));
    }
    tagged_game(&tags, moves, result)
}

/// The (rule, ply) of the `site_rule` findings of `pgn` judged by FIDE's
/// online regulations with these options too.
fn fide(pgn: &str, options: &[&str]) -> Vec<(String, u64)> {
    let all: Vec<&str> = FIDE.iter().chain(options).copied().collect();
    let f: Vec<Value> = audit(pgn, &all);
    of_kind(&f, "site_rule")
        .into_iter()
        .map(|f| {
            assert_eq!(f["site"], "fide-online", "{f}");
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

// P0 = P4 = P8: the third occurrence at P8.
const LOOP_FEN: &str = "r3k3/8/8/8/8/8/8/R3K3 w - - 0 1";
const THIRD: &str = "1. Ra2 Ra7 2. Ra1 Ra8 3. Ra2 Ra7 4. Ra1 Ra8";

#[test]
fn fide_online_third_occurrence_with_no_grace_plies() {
    // Ended at the third occurrence: the draw applied there.
    assert!(fide(&game(LOOP_FEN, THIRD, "1/2-1/2", None), &[]).is_empty());
    // One ply more (chess.com's grace would allow 4), or not scored ½-½.
    let on = format!("{THIRD} 5. Ra2");
    assert_eq!(
        fide(&game(LOOP_FEN, &on, "1/2-1/2", None), &[]),
        rules(&[("repetition", 8)])
    );
    assert_eq!(
        fide(&game(LOOP_FEN, THIRD, "1-0", None), &[]),
        rules(&[("repetition", 8)])
    );
    // Only on request: `auto` never picks these regulations.
    let f = audit(&game(LOOP_FEN, &on, "1/2-1/2", None), &[]);
    assert!(of_kind(&f, "site_rule").is_empty(), "{f:#?}");
    // The Laws' own findings do not change.
    let laws = |options: &[&str]| -> Vec<Value> {
        audit(&game(LOOP_FEN, &on, "1/2-1/2", None), options)
            .into_iter()
            .filter(|f| f["kind"] != "site_rule")
            .map(|mut f| {
                f["file"] = Value::Null; // a new temporary file each run
                f
            })
            .collect()
    };
    assert_eq!(laws(&FIDE), laws(&[]));
}

#[test]
fn fide_online_third_occurrence_counts_castling_rights() {
    // White may castle long in P0 only: after 1. Ra2 the placement of P0
    // comes back at P4 and P8 without the right, so P8 is the second
    // occurrence of its position; P1 = P5 = P9 is the first third one.
    let fen = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1";
    let moves = "1. Ra2 Kd8 2. Ra1 Ke8 3. Ra2 Kd8 4. Ra1 Ke8 5. Ra2";
    assert!(fide(&game(fen, moves, "1/2-1/2", None), &[]).is_empty());
    let on = format!("{moves} Kd8");
    assert_eq!(
        fide(&game(fen, &on, "1/2-1/2", None), &[]),
        rules(&[("repetition", 9)])
    );
    // Without the right in P0: P0 = P4 = P8, the third at P8.
    let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
    assert_eq!(
        fide(&game(fen, moves, "1/2-1/2", None), &[]),
        rules(&[("repetition", 8)])
    );
}

#[test]
fn fide_online_third_occurrence_counts_a_legal_en_passant_capture() {
    // 1... d5 with a white pawn on e5: exd6 e.p. is legal in P1 only, so
    // P1 differs from P5 and P9; P2 = P6 = P10 is the first third one.
    let moves = "1... d5 2. Ke2 Ke7 3. Ke1 Ke8 4. Ke2 Ke7 5. Ke1 Ke8 6. Ke2";
    let fen = "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1";
    assert!(fide(&game(fen, moves, "1/2-1/2", None), &[]).is_empty());
    // A pawn on e4 cannot take en passant: P1 = P5 = P9, the third at P9.
    let fen = "4k3/3p4/8/8/4P3/8/8/4K3 b - - 0 1";
    assert_eq!(
        fide(&game(fen, moves, "1/2-1/2", None), &[]),
        rules(&[("repetition", 9)])
    );
}

#[test]
fn fide_online_fifty_moves_at_100_half_moves_not_99() {
    // The clock at 97 in P0: 99 in P2, no draw, the win stands.
    let g = game(
        "4k3/8/8/8/8/8/8/R3K3 w - - 97 60",
        "60. Ra2 Kd8",
        "1-0",
        None,
    );
    assert!(fide(&g, &[]).is_empty());
    // At 98: 100 in P2, the 50 moves by each player are complete.
    let g = game(
        "4k3/8/8/8/8/8/8/R3K3 w - - 98 60",
        "60. Ra2 Kd8",
        "1-0",
        None,
    );
    assert_eq!(fide(&g, &[]), rules(&[("fifty_moves", 2)]));
    let g = game(
        "4k3/8/8/8/8/8/8/R3K3 w - - 98 60",
        "60. Ra2 Kd8",
        "1/2-1/2",
        None,
    );
    assert!(fide(&g, &[]).is_empty());
}

#[test]
fn fide_online_dead_position_proven_by_the_engine() {
    // 1. b4 locks the last free pawn: dead from P1 (a proof of blocked
    // pawns, not of material).
    let fen = "8/8/4k3/1p1p1p1p/3P1P1P/1P2K3/8/8 w - - 0 1";
    let moves = "1. b4 Kd6 2. Kd3 Ke6 3. Ke3";
    let thorough = ["--dead", "thorough"];
    assert_eq!(
        fide(&game(fen, moves, "1-0", None), &thorough),
        rules(&[("dead_position", 1)])
    );
    // Drawn at the dead position: the draw applied there.
    assert!(fide(&game(fen, "1. b4", "1/2-1/2", None), &thorough).is_empty());
    // Not dead before the lock: moves may still open the position.
    assert!(fide(&game(fen, "1. Kd3", "1/2-1/2", None), &thorough).is_empty());
    // `--dead material` proves nothing here.
    let material = ["--dead", "material"];
    assert!(fide(&game(fen, moves, "1-0", None), &material).is_empty());
}

#[test]
fn fide_online_timeout_against_a_side_that_cannot_mate() {
    // Black flags; White has time left. K+B against K+P: a helpmate
    // exists (the pawn can block its own king), so the win stands under
    // Art. 4.4, where chess.com and FICS draw on material.
    let kb_kp = "k7/p7/8/8/8/8/8/4K1B1 b - - 0 1";
    let flag = Some("Time forfeit");
    assert!(fide(&game(kb_kp, "", "1-0", flag), &[]).is_empty());
    // K+B against a lone K cannot mate: a draw by Art. 4.4, and a dead
    // position too (Art. 5.4) since the game went on to a result.
    let kb_k = "k7/8/8/8/8/8/8/4K1B1 b - - 0 1";
    assert_eq!(
        fide(&game(kb_k, "", "1-0", flag), &[]),
        rules(&[("dead_position", 0), ("timeout", 0)])
    );
    // A lone K against K+R: Black could still mate (not dead), White could
    // not. Its win on time is a draw by Art. 4.4; scored ½-½ it is right.
    let k_kr = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
    assert_eq!(
        fide(&game(k_kr, "", "0-1", flag), &[]),
        rules(&[("timeout", 0)])
    );
    assert!(fide(&game(k_kr, "", "1/2-1/2", flag), &[]).is_empty());
    // Not lost on time (White resigned): nothing to judge.
    assert!(fide(&game(k_kr, "", "0-1", Some("Normal")), &[]).is_empty());
}

#[test]
fn fide_online_checks_no_site_ruling_and_reads_the_sites_words_for_a_flag() {
    // chess.com's repetition ruling where no position stood three times:
    // chess.com's rulebook says the record is wrong, FIDE's regulations
    // check no site's ruling.
    let pgn = tagged_game(
        &[
            ("Site", "Chess.com"),
            ("Date", "2021.03.01"),
            ("Termination", "Game drawn by repetition"),
        ],
        "1. Nf3 Nf6 2. Ng1 Ng8",
        "1/2-1/2",
    );
    assert!(fide(&pgn, &[]).is_empty());
    let f = audit(&pgn, &[]);
    assert_eq!(of_kind(&f, "site_rule").len(), 1, "{f:#?}");
    // FICS's words for a loss on time still say who flagged: White's
    // lone king won on time against K+R is drawn by Art. 4.4.
    let pgn = tagged_game(
        &[
            ("Site", "FICS freechess.org"),
            ("Date", "2021.03.01"),
            ("SetUp", "1"),
            ("FEN", "4k3/8/8/8/8/8/r7/4K3 b - - 0 1"),
        ],
        "{Black forfeits on time}",
        "1-0",
    );
    assert_eq!(fide(&pgn, &[]), rules(&[("timeout", 0)]));
}
