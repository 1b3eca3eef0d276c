//! The rules of SPEC.md pinned one small hand-made game at a time, run through
//! the binary (`pgn-arbiter audit --quiet --jsonl - FILE`). Each test asserts
//! the findings of its games and the exact fields of each (ply, side, via,
//! occurrences, outcome, edition), as worked out by hand in the comments;
//! most assert the complete list of findings. `Pi` is the position after the
//! i-th half-move (P0 = start), `ply` in a finding is that i, and `side` is
//! the colour to move in Pi.

use crate::util::{audit as audit_with, of_kind, one};
use serde_json::Value;

fn audit(pgn: &str) -> Vec<Value> {
    audit_with(pgn, &[])
}

/// One game: the given tags (Result last, and repeated as the movetext's
/// end), an optional FEN start, and the movetext.
fn game(tags: &[(&str, &str)], fen: Option<&str>, moves: &str) -> String {
    let mut s = String::from("[Event \"rules\"]\n[White \"W\"]\n[Black \"B\"]\n");
    let mut result = "*";
    for (name, value) in tags {
        s.push_str(&format!("[{name} \"{value}\"]\n"));
        if *name == "Result" {
            result = value;
        }
    }
    if let Some(fen) = fen {
        s.push_str(&format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n"));
    }
    s.push_str(&format!("\n{moves} {result}\n\n"));
    s
}

/// A game with a Date and a Result tag.
fn dated(date: &str, result: &str, fen: Option<&str>, moves: &str) -> String {
    game(&[("Date", date), ("Result", result)], fen, moves)
}

/// The kinds of all findings, in output order (by ply, then kind).
fn kinds(findings: &[Value]) -> Vec<&str> {
    findings
        .iter()
        .map(|f| f["kind"].as_str().unwrap())
        .collect()
}

/// A missed claim: where, by whom, how, how often, and what the claimant got.
fn assert_missed(
    f: &Value,
    ply: u64,
    side: &str,
    via: &str,
    occurrences: u64,
    outcome: &str,
    edition: &str,
) {
    assert_eq!(f["ply"], ply, "ply: {f}");
    assert_eq!(f["side"], side, "side: {f}");
    assert_eq!(f["via"], via, "via: {f}");
    assert_eq!(f["occurrences"], occurrences, "occurrences: {f}");
    assert_eq!(f["outcome"], outcome, "outcome: {f}");
    assert_eq!(f["edition"], edition, "edition: {f}");
}

/// Any other finding: where, whose move, how often, by which laws.
fn assert_at(f: &Value, ply: u64, side: &str, occurrences: u64, edition: &str) {
    assert_eq!(f["ply"], ply, "ply: {f}");
    assert_eq!(f["side"], side, "side: {f}");
    assert_eq!(f["occurrences"], occurrences, "occurrences: {f}");
    assert_eq!(f["edition"], edition, "edition: {f}");
}

// ---------------------------------------------------------------------------
// Art. 9.2, identity of positions: en passant
//
// White's e-pawn makes a double push next to (or not next to) a black pawn;
// then both kings shuffle, White Ke1-f1-e1, Black Ka4-a5-a4:
//   P1  Ke1, Pe4 / ka4, Black to move (right after e2-e4)
//   P2  ka5, W    P3  Kf1, B    P4  ka4, W    P5  Ke1 ka4, B (P1's placement)
//   P6 = P2   P7 = P3   P8 = P4   P9 = P5   P10 = P2
// If P1 is the same as P5, then P1 = P5 = P9: at P8 White can announce
// 5. Ke1 (9.2a), and P9 and P10 are third occurrences (9.2b): 3 plies.
// If P1 differs (a legal e.p. capture), P5 = P9 only twice, and the first
// claim is Black's at P9, announcing 5... Ka5 (the third P2), then P10:
// 2 plies.
// ---------------------------------------------------------------------------

const EP_SHUFFLE: &str = "1. e4 Ka5 2. Kf1 Ka4 3. Ke1 Ka5 4. Kf1 Ka4 5. Ke1 Ka5";

#[test]
fn en_passant_legal_capture_makes_the_double_push_position_different() {
    // black pawn d4: 1... dxe3 e.p. is legal in P1
    let pgn = dated(
        "2019.03.01",
        "0-1",
        Some("8/8/8/8/k2p4/8/4P3/4K3 w - - 0 1"),
        EP_SHUFFLE,
    );
    let f = audit(&pgn);
    assert_eq!(kinds(&f), ["missed_threefold"], "{f:#?}");
    assert_missed(&f[0], 9, "black", "announced", 2, "won", "2018");
}

#[test]
fn en_passant_pinned_capture_does_not_make_the_position_different() {
    // Rh4 pins: 1... dxe3 e.p. would open the fourth rank to the black king
    let pgn = dated(
        "2019.03.01",
        "0-1",
        Some("8/8/8/8/k2p3R/8/4P3/4K3 w - - 0 1"),
        EP_SHUFFLE,
    );
    let f = audit(&pgn);
    assert_eq!(kinds(&f), ["missed_threefold"], "{f:#?}");
    assert_missed(&f[0], 8, "white", "announced", 3, "lost", "2018");
}

#[test]
fn en_passant_without_an_adjacent_enemy_pawn_does_not_make_the_position_different() {
    // the black pawn on f5 could take on e4, but not en passant
    let pgn = dated(
        "2019.03.01",
        "0-1",
        Some("8/8/8/5p2/k7/8/4P3/4K3 w - - 0 1"),
        EP_SHUFFLE,
    );
    let f = audit(&pgn);
    assert_eq!(kinds(&f), ["missed_threefold"], "{f:#?}");
    assert_missed(&f[0], 8, "white", "announced", 3, "lost", "2018");
}

// The same from Black's side: after 1... d5 the position P1 has White to
// move and the placement of P5 and P9. With a legal e.p. capture (exd6) P1
// differs from them, so the first claim is at P9: White announces 6. Ke2,
// the third occurrence of P2 = P6 = P10. Were P1 counted, P9 would already
// be the third occurrence of P1 and Black could announce 5... Ke8 at P8.
const EP_SHUFFLE_AFTER_D5: &str = "1... d5 2. Ke2 Ke7 3. Ke1 Ke8 4. Ke2 Ke7 5. Ke1 Ke8 6. Ke2";

#[test]
fn en_passant_legal_capture_of_a_black_double_push_makes_the_position_different() {
    let pgn = dated(
        "2020.01.01",
        "0-1",
        Some("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1"),
        EP_SHUFFLE_AFTER_D5,
    );
    let f = audit(&pgn);
    // P9 (announced), P10 (occurred): two plies; White then lost.
    assert_missed(
        one(&f, "missed_threefold"),
        9,
        "white",
        "announced",
        2,
        "lost",
        "2018",
    );
}

#[test]
fn en_passant_pinned_capture_of_a_black_double_push_does_not_make_the_position_different() {
    // exd6 e.p. would open the fifth rank from a5 to the king on h5.
    let pgn = dated(
        "2020.01.01",
        "0-1",
        Some("4k3/3p4/8/r3P2K/8/8/8/8 b - - 0 1"),
        "1... d5 2. Kh4 Ke7 3. Kh5 Ke8 4. Kh4 Ke7 5. Kh5 Ke8 6. Kh4",
    );
    let f = audit(&pgn);
    // P8: Black announces Ke8, the third occurrence of P1 = P5 = P9; the
    // claim holds at P8, P9 and P10 (P2 = P6 = P10).
    assert_missed(
        one(&f, "missed_threefold"),
        8,
        "black",
        "announced",
        3,
        "won",
        "2018",
    );
}

#[test]
fn en_passant_absent_after_a_black_double_push_does_not_make_the_position_different() {
    // No white pawn beside d5: the double push gives no e.p. capture.
    let pgn = dated(
        "2020.01.01",
        "0-1",
        Some("4k3/3p4/8/8/8/8/8/4K3 b - - 0 1"),
        EP_SHUFFLE_AFTER_D5,
    );
    let f = audit(&pgn);
    assert_missed(
        one(&f, "missed_threefold"),
        8,
        "black",
        "announced",
        3,
        "won",
        "2018",
    );
}

// ---------------------------------------------------------------------------
// Art. 9.2, identity of positions: castling rights
// ---------------------------------------------------------------------------

const CASTLING_FEN: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";

#[test]
fn castling_rights_lost_by_a_king_that_comes_back_make_the_positions_different() {
    // P0 Ke1 ke8 W KQkq; P1 Kf1 B kq; P2 Kf1 kf8 W -; P3 Ke1 kf8 B -;
    // P4 Ke1 ke8 W - (P0's placement, other rights); P5 Kf1 ke8 B - (P1's
    // placement, other rights); P6 = P2, P7 = P3, P8 = P4, P9 = P5, P10 = P2.
    // P0 and P1 never recur: the first claim is at P9 (Black announces
    // 5... Kf8, the third P2), then P10. Counting P0 = P4 would put it at P7.
    let pgn = dated(
        "2019.03.01",
        "1-0",
        Some(CASTLING_FEN),
        "1. Kf1 Kf8 2. Ke1 Ke8 3. Kf1 Kf8 4. Ke1 Ke8 5. Kf1 Kf8",
    );
    let f = audit(&pgn);
    assert_eq!(kinds(&f), ["missed_threefold"], "{f:#?}");
    assert_missed(&f[0], 9, "black", "announced", 2, "lost", "2018");
}

#[test]
fn castling_rights_lost_by_a_rook_that_comes_back_make_the_positions_different() {
    // The same with the h-rooks: P1 (Rh2, rights Qkq) and P0 (KQkq) never
    // recur; P4 (Qq) = P8 = P12, P5 = P9, P2 = P6 = P10, P3 = P7 = P11.
    // First claim P9 (Black announces 5... Rh7), then P10, P11, P12 occurred.
    let pgn = dated(
        "2019.03.01",
        "0-1",
        Some(CASTLING_FEN),
        "1. Rh2 Rh7 2. Rh1 Rh8 3. Rh2 Rh7 4. Rh1 Rh8 5. Rh2 Rh7 6. Rh1 Rh8",
    );
    let f = audit(&pgn);
    assert_eq!(kinds(&f), ["missed_threefold"], "{f:#?}");
    assert_missed(&f[0], 9, "black", "announced", 4, "won", "2018");
}

// The kings step up the file instead: P0 (KQkq) and P4 have the same
// placement but the kings have moved, so they differ; P1 (Black still has
// kq) and P5 differ too. P2 = P6 = P10 is the first triple: Black announces
// 5... Ke7 at P9. Were rights ignored, P0 = P4 = P8 and White could announce
// at P7.
#[test]
fn castling_rights_lost_by_a_king_that_steps_up_and_comes_back_make_the_positions_different() {
    let pgn = dated(
        "2020.01.01",
        "1-0",
        Some(CASTLING_FEN),
        "1. Ke2 Ke7 2. Ke1 Ke8 3. Ke2 Ke7 4. Ke1 Ke8 5. Ke2 Ke7",
    );
    let f = audit(&pgn);
    assert_missed(
        one(&f, "missed_threefold"),
        9,
        "black",
        "announced",
        2,
        "lost",
        "2018",
    );
}

#[test]
fn castling_rights_lost_by_a_rook_that_comes_back_then_the_claimant_lost() {
    // 1. Rh2 loses K, 1... Rh7 loses k: P4 has only Qq, unlike P0. The game
    // of castling_rights_lost_by_a_rook_that_comes_back_make_the_positions_
    // different, ended two plies earlier and won by White.
    let pgn = dated(
        "2020.01.01",
        "1-0",
        Some(CASTLING_FEN),
        "1. Rh2 Rh7 2. Rh1 Rh8 3. Rh2 Rh7 4. Rh1 Rh8 5. Rh2 Rh7",
    );
    let f = audit(&pgn);
    assert_missed(
        one(&f, "missed_threefold"),
        9,
        "black",
        "announced",
        2,
        "lost",
        "2018",
    );
}

// ---------------------------------------------------------------------------
// Art. 9.2a / 9.2b and "missed unless the game ended drawn at Pi or Pi+1"
// ---------------------------------------------------------------------------

// Knights out and back from the standard start: P0 = P4 = P8, P1 = P5 = P9,
// P2 = P6, P3 = P7. First claim: P7, Black announces 4... Ng8 (third P0);
// P8 and P9 are third occurrences.
const KNIGHTS: &str = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1";

#[test]
fn threefold_missed_announced_before_the_third_occurrence_then_claimant_lost() {
    // 1. e4 first: P1 (e.p. square e3, no black pawn to use it) = P5 = P9;
    // P2 = P6, P3 = P7, P4 = P8. White is first: at P8 announces 5. Ng1
    // (third P1); P9 occurred; 5... e5 ends the repetitions. White lost.
    let pgn = dated(
        "2019.03.01",
        "0-1",
        None,
        "1. e4 Nf6 2. Nf3 Ng8 3. Ng1 Nf6 4. Nf3 Ng8 5. Ng1 e5",
    );
    let f = audit(&pgn);
    assert_eq!(kinds(&f), ["missed_threefold"], "{f:#?}");
    assert_missed(&f[0], 8, "white", "announced", 2, "lost", "2018");
}

#[test]
fn threefold_not_missed_when_the_game_is_drawn_at_the_claim_ply() {
    // ends at P7, the 9.2a opportunity itself, drawn
    let pgn = dated("2019.03.01", "1/2-1/2", None, KNIGHTS);
    let f = audit(&pgn);
    assert!(f.is_empty(), "{f:#?}");
}

#[test]
fn threefold_not_missed_when_the_game_is_drawn_at_the_next_ply() {
    // ends at P8 (the third occurrence), drawn: P7 and P8 are excused
    let pgn = dated("2019.03.01", "1/2-1/2", None, &format!("{KNIGHTS} Ng8"));
    let f = audit(&pgn);
    assert!(f.is_empty(), "{f:#?}");
}

#[test]
fn threefold_missed_when_the_draw_comes_two_plies_later() {
    // ends at P9, drawn: P8 and P9 are excused, P7 is a missed claim
    let pgn = dated(
        "2019.03.01",
        "1/2-1/2",
        None,
        &format!("{KNIGHTS} Ng8 5. Nf3"),
    );
    let f = audit(&pgn);
    assert_eq!(kinds(&f), ["missed_threefold"], "{f:#?}");
    assert_missed(&f[0], 7, "black", "announced", 1, "drew", "2018");
}

#[test]
fn threefold_missed_when_the_draw_comes_two_plies_later_after_a_pawn_move() {
    // Drawn at P9, a new position: the claim at P8 is excused (P8 + 1 = 9),
    // not the one at P7.
    let pgn = dated(
        "2020.01.01",
        "1/2-1/2",
        None,
        &format!("{KNIGHTS} Ng8 5. e4"),
    );
    let f = audit(&pgn);
    assert_missed(
        one(&f, "missed_threefold"),
        7,
        "black",
        "announced",
        1,
        "drew",
        "2018",
    );
}

#[test]
fn threefold_missed_in_a_decisive_or_unfinished_game_counts_every_ply() {
    // ends at P8: nothing is excused, P7 (announced) and P8 (occurred)
    let moves = format!("{KNIGHTS} Ng8");
    let f = audit(&dated("2019.03.01", "1-0", None, &moves));
    assert_eq!(kinds(&f), ["missed_threefold"], "{f:#?}");
    assert_missed(&f[0], 7, "black", "announced", 2, "lost", "2018");
    let f = audit(&dated("2019.03.01", "*", None, &moves));
    assert_eq!(kinds(&f), ["missed_threefold"], "{f:#?}");
    assert_missed(&f[0], 7, "black", "announced", 2, "unknown", "2018");
}

// ---------------------------------------------------------------------------
// Art. 9.3 (50 moves, claimed) and 9.6.2 (75 moves, automatic)
// ---------------------------------------------------------------------------

/// K+R v K, White to move; `{}` is the half-move clock.
fn rook_fen(clock: u32) -> String {
    format!("4k3/8/8/8/8/8/8/R3K3 w - - {clock} 80")
}

#[test]
fn fifty_moves_announced_at_clock_99_then_occurred_from_100() {
    // P0 98, P1 99 (Black has quiet king moves: 9.3a), P2 100, P3 101
    let pgn = dated(
        "2019.03.01",
        "1-0",
        Some(&rook_fen(98)),
        "80. Ra2 Kd8 81. Ra1",
    );
    let f = audit(&pgn);
    assert_eq!(kinds(&f), ["missed_fifty_moves"], "{f:#?}");
    assert_missed(&f[0], 1, "black", "announced", 3, "lost", "2018");
}

#[test]
fn fifty_moves_missed_at_clock_99_to_101_is_no_seventyfive_moves_draw() {
    // The clock of P0 is 98. P1 has 99 and Black has a quiet move (9.3a);
    // P2 and P3 have 100 and 101 (9.3b).
    let pgn = dated(
        "2020.01.01",
        "1-0",
        Some("4k3/8/8/8/8/8/8/R3K3 w - - 98 60"),
        "60. Ra2 Kd7 61. Ra3",
    );
    let f = audit(&pgn);
    assert_missed(
        one(&f, "missed_fifty_moves"),
        1,
        "black",
        "announced",
        3,
        "lost",
        "2018",
    );
    assert!(of_kind(&f, "seventyfive_moves").is_empty());
}

#[test]
fn fifty_moves_not_announced_at_clock_99_when_every_legal_move_is_a_pawn_move() {
    // 1. Kc7 (clock 99): Black's king on a8 has b8 and b7 covered, a7 is
    // its own pawn; its only moves are a6 and a5, which reset the clock.
    let pgn = dated(
        "2019.03.01",
        "1-0",
        Some("k7/p7/2K5/8/8/8/8/7R w - - 98 80"),
        "80. Kc7 a6",
    );
    let f = audit(&pgn);
    assert!(f.is_empty(), "{f:#?}");
}

// 120. Ra2 Kd8 121. Ra1 from clock 148: P0 148, P1 149, P2 150, P3 151.
const FROM_148: &str = "120. Ra2 Kd8 121. Ra1";

#[test]
fn seventyfive_moves_at_clock_150_under_2018_laws() {
    let pgn = dated("2019.03.01", "1-0", Some(&rook_fen(148)), FROM_148);
    let f = audit(&pgn);
    assert_eq!(
        kinds(&f),
        ["missed_fifty_moves", "seventyfive_moves"],
        "{f:#?}"
    );
    // 9.3b from P0 (148) to P3
    assert_missed(
        one(&f, "missed_fifty_moves"),
        0,
        "white",
        "occurred",
        4,
        "won",
        "2018",
    );
    // P2 and P3 (moves played after the automatic draw)
    assert_at(one(&f, "seventyfive_moves"), 2, "white", 2, "2018");
}

#[test]
fn seventyfive_moves_at_clock_150_in_2019_but_not_in_2010() {
    // Art. 9.6.2 (2014+): the clock reaches 150 at P2 and the game goes on.
    let fen = Some("4k3/8/8/8/8/8/8/R3K3 w - - 148 100");
    let moves = "100. Ra2 Kd7 101. Ra3";
    let f = audit(&dated("2019.01.01", "1-0", fen, moves));
    let s = one(&f, "seventyfive_moves");
    assert_eq!(
        (s["ply"].as_u64(), s["side"].as_str()),
        (Some(2), Some("white"))
    );
    assert_eq!(s["occurrences"], 2);
    assert_eq!(s["edition"], "2018");
    // The 2001 laws have no automatic draw.
    let old = dated("2010.01.01", "1-0", fen, moves);
    assert!(of_kind(&audit(&old), "seventyfive_moves").is_empty());
}

#[test]
fn seventyfive_moves_edition_follows_the_date_tag() {
    for (date, edition, automatic) in [
        ("2013.12.31", "2001", false),
        ("2014.06.30", "2001", false),
        ("2014.07.01", "2014", true),
        ("2015.03.01", "2014", true),
        ("2017.12.31", "2014", true),
        ("2018.01.01", "2018", true),
    ] {
        let pgn = dated(date, "1-0", Some(&rook_fen(148)), FROM_148);
        let f = audit(&pgn);
        assert_missed(
            one(&f, "missed_fifty_moves"),
            0,
            "white",
            "occurred",
            4,
            "won",
            edition,
        );
        if automatic {
            assert_eq!(kinds(&f), ["missed_fifty_moves", "seventyfive_moves"]);
            assert_at(one(&f, "seventyfive_moves"), 2, "white", 2, edition);
        } else {
            assert_eq!(kinds(&f), ["missed_fifty_moves"], "{date}: {f:#?}");
        }
    }
}

#[test]
fn seventyfive_moves_not_checked_with_laws_2001_option() {
    let pgn = dated("2019.03.01", "1-0", Some(&rook_fen(148)), FROM_148);
    let f = audit_with(&pgn, &["--laws", "2001"]);
    assert_eq!(kinds(&f), ["missed_fifty_moves"], "{f:#?}");
    assert_missed(&f[0], 0, "white", "occurred", 4, "won", "2001");
}

#[test]
fn seventyfive_moves_drawn_and_ended_at_clock_150_is_not_a_finding() {
    // ends at P2 (clock 150), drawn: the automatic draw was respected; the
    // 50-move claim at P0 was missed (P1 and P2 are excused)
    let pgn = dated(
        "2019.03.01",
        "1/2-1/2",
        Some(&rook_fen(148)),
        "120. Ra2 Kd8",
    );
    let f = audit(&pgn);
    assert_eq!(kinds(&f), ["missed_fifty_moves"], "{f:#?}");
    assert_missed(&f[0], 0, "white", "occurred", 1, "drew", "2018");
}

const MATE_FEN_149: &str = "7k/8/6K1/8/8/8/8/R7 w - - 149 120";

#[test]
fn seventyfive_moves_not_when_the_150th_half_move_mates() {
    // 120. Ra8#: P1 has clock 150 but is checkmate; no claim in P1 either
    let pgn = dated("2019.03.01", "1-0", Some(MATE_FEN_149), "120. Ra8#");
    let f = audit(&pgn);
    assert_eq!(kinds(&f), ["missed_fifty_moves"], "{f:#?}");
    assert_missed(&f[0], 0, "white", "occurred", 1, "won", "2018");
}

#[test]
fn seventyfive_moves_when_the_150th_half_move_does_not_mate() {
    // 120. Ra7: P1 has clock 150, Black has Kg8: an automatic draw at P1,
    // scored 1-0
    let pgn = dated("2019.03.01", "1-0", Some(MATE_FEN_149), "120. Ra7");
    let f = audit(&pgn);
    assert_eq!(
        kinds(&f),
        ["missed_fifty_moves", "seventyfive_moves"],
        "{f:#?}"
    );
    assert_missed(
        one(&f, "missed_fifty_moves"),
        0,
        "white",
        "occurred",
        2,
        "won",
        "2018",
    );
    assert_at(one(&f, "seventyfive_moves"), 1, "black", 1, "2018");
}

#[test]
fn seventyfive_moves_not_when_the_150th_half_move_mates_but_when_the_mate_comes_later() {
    let fen = Some("k7/8/1K6/8/8/8/8/7R w - - 149 120");
    let mate = dated("2019.01.01", "1-0", fen, "120. Rh8#");
    let f = audit(&mate);
    assert!(of_kind(&f, "seventyfive_moves").is_empty(), "{f:#?}");
    assert!(of_kind(&f, "wrong_result").is_empty(), "{f:#?}");
    // A quiet move instead reaches 150 in a position that is not mate.
    let quiet = dated("2019.01.01", "1-0", fen, "120. Rh7 Kb8 121. Rh8#");
    let f = audit(&quiet);
    let s = one(&f, "seventyfive_moves");
    assert_eq!(
        (s["ply"].as_u64(), s["side"].as_str()),
        (Some(1), Some("black"))
    );
}

// ---------------------------------------------------------------------------
// Art. 9.6.1, fivefold: 2014 (consecutive alternate moves) vs 2018 (any)
// ---------------------------------------------------------------------------

// K+R v K. S = P0 (Ra1 ke8, W). A 4-ply loop Ra2 Kd8 Ra1 Ke8 and a 6-ply
// loop Ra2 Kd8 Ra3 Kd7 Ra1 Ke8, both back to S; classes:
// S (Ra1 ke8 W), A (Ra2 ke8 B), B (Ra2 kd8 W), C (Ra1 kd8 B).
const LOOPS_FEN: &str = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";

// 4 + 4 + 6 + 4 + 2 plies: S at 0, 4, 8, 14, 18 (fifth at P18), A at 1, 5,
// 9, 15, 19, B at 2, 6, 10, 16, 20, C at 3, 7, 17; P11-P13 are new.
// 2014: P18 = P14 but P10 is B, not S; every i from 16 to 20 has one of
// P11, P12, P13 or P10 in its chain i-4, ..., i-16: never.
// 2018: fivefold at P18, P19, P20 (3 plies, moves played after P18).
// Threefold: P7 announces 4... Ke8 (third S); P8, P9, P10 occurred; P11,
// P12 nothing; P13 announces 7... Ke8 (fourth S); P14-P20 occurred. Drawn at
// P20: P19, P20 excused; 10 plies left.
const FIVE_NOT_CONSECUTIVE: &str = "1. Ra2 Kd8 2. Ra1 Ke8 3. Ra2 Kd8 4. Ra1 Ke8 \
5. Ra2 Kd8 6. Ra3 Kd7 7. Ra1 Ke8 8. Ra2 Kd8 9. Ra1 Ke8 10. Ra2 Kd8";

#[test]
fn fivefold_any_five_occurrences_under_2018_laws() {
    let pgn = dated(
        "2019.05.05",
        "1/2-1/2",
        Some(LOOPS_FEN),
        FIVE_NOT_CONSECUTIVE,
    );
    let f = audit(&pgn);
    assert_eq!(kinds(&f), ["missed_threefold", "fivefold"], "{f:#?}");
    assert_missed(
        one(&f, "missed_threefold"),
        7,
        "black",
        "announced",
        10,
        "drew",
        "2018",
    );
    assert_at(one(&f, "fivefold"), 18, "white", 3, "2018");
}

#[test]
fn fivefold_not_consecutive_is_no_draw_under_2014_laws() {
    let pgn = dated(
        "2015.05.05",
        "1/2-1/2",
        Some(LOOPS_FEN),
        FIVE_NOT_CONSECUTIVE,
    );
    let f = audit(&pgn);
    assert_eq!(kinds(&f), ["missed_threefold"], "{f:#?}");
    assert_missed(&f[0], 7, "black", "announced", 10, "drew", "2014");
}

#[test]
fn fivefold_not_checked_with_laws_2001_option() {
    let pgn = dated(
        "2019.05.05",
        "1/2-1/2",
        Some(LOOPS_FEN),
        FIVE_NOT_CONSECUTIVE,
    );
    let f = audit_with(&pgn, &["--laws", "2001"]);
    assert_eq!(kinds(&f), ["missed_threefold"], "{f:#?}");
    assert_missed(&f[0], 7, "black", "announced", 10, "drew", "2001");
}

// The 4-ply loop four times: S at 0, 4, 8, 12, 16, so P16 = P12 = P8 = P4 =
// P0 (A, B, C reach four occurrences only). Game ends at P16 scored 1-0.
// Threefold: P7 announced, P8-P16 occurred (10 plies), Black lost.
const FIVE_CONSECUTIVE: &str = "1. Ra2 Kd8 2. Ra1 Ke8 3. Ra2 Kd8 4. Ra1 Ke8 \
5. Ra2 Kd8 6. Ra1 Ke8 7. Ra2 Kd8 8. Ra1 Ke8";

#[test]
fn fivefold_on_consecutive_alternate_moves_under_2014_and_2018_laws() {
    for (date, edition) in [("2015.05.05", "2014"), ("2019.05.05", "2018")] {
        let pgn = dated(date, "1-0", Some(LOOPS_FEN), FIVE_CONSECUTIVE);
        let f = audit(&pgn);
        assert_eq!(kinds(&f), ["missed_threefold", "fivefold"], "{f:#?}");
        assert_missed(
            one(&f, "missed_threefold"),
            7,
            "black",
            "announced",
            10,
            "lost",
            edition,
        );
        // i = n, but the result is not a draw
        assert_at(one(&f, "fivefold"), 16, "white", 1, edition);
    }
    let pgn = dated("2019.05.05", "1-0", Some(LOOPS_FEN), FIVE_CONSECUTIVE);
    let f = audit_with(&pgn, &["--laws", "2001"]);
    assert_eq!(kinds(&f), ["missed_threefold"], "{f:#?}");
}

// Knights from the standard start: P0 occurs at P0, P4, P12, P16 and P20
// (the detour 3. Nc3 .. 6. Nb1 Nb8 takes eight plies). Under the 2018 laws
// P20 is a fifth occurrence; under 2014 it is not consecutive (P8 differs).
const KNIGHTS_FIVE_NOT_CONSECUTIVE: &str =
    "1. Nf3 Nf6 2. Ng1 Ng8 3. Nc3 Nc6 4. Nb5 Nb4 5. Nc3 Nc6 \
     6. Nb1 Nb8 7. Nf3 Nf6 8. Ng1 Ng8 9. Nf3 Nf6 10. Ng1 Ng8 11. e4";

#[test]
fn fivefold_of_knight_round_trips_counts_any_five_occurrences_under_2018_laws() {
    let f = audit(&dated(
        "2019.03.01",
        "1/2-1/2",
        None,
        KNIGHTS_FIVE_NOT_CONSECUTIVE,
    ));
    let five = one(&f, "fivefold");
    assert_eq!(
        (five["ply"].as_u64(), five["side"].as_str()),
        (Some(20), Some("white"))
    );
    assert_eq!(five["edition"], "2018");
}

#[test]
fn fivefold_of_knight_round_trips_needs_consecutive_alternate_moves_under_2014_laws() {
    let f = audit(&dated(
        "2015.03.01",
        "1/2-1/2",
        None,
        KNIGHTS_FIVE_NOT_CONSECUTIVE,
    ));
    assert!(of_kind(&f, "fivefold").is_empty(), "{f:#?}");
    // Four round trips: P0 = P4 = P8 = P12 = P16, consecutive.
    let consecutive = format!("{KNIGHTS} Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 9. e4");
    let f = audit(&dated("2015.03.01", "1/2-1/2", None, &consecutive));
    let five = one(&f, "fivefold");
    assert_eq!(five["ply"], 16);
    assert_eq!(five["edition"], "2014");
    // The 2001 laws (a date before 2014-07-01, or --laws 2001) have none.
    assert!(of_kind(
        &audit(&dated("2014.06.30", "1/2-1/2", None, &consecutive)),
        "fivefold"
    )
    .is_empty());
    let f = audit_with(
        &dated("2019.03.01", "1/2-1/2", None, &consecutive),
        &["--laws", "2001"],
    );
    assert!(of_kind(&f, "fivefold").is_empty());
}

// ---------------------------------------------------------------------------
// Numbering: a FEN start with Black to move and a running clock
// ---------------------------------------------------------------------------

#[test]
fn fen_start_with_black_to_move_numbers_plies_from_p0_black() {
    // P0 Ra1 ke8 B (97), P1 kd8 W (98), P2 Ra2 kd8 B (99), P3 ke8 W (100),
    // P4 = P0 (101), P5 = P1, P6 = P2, P7 = P3, P8 = P0 (105).
    // Threefold: White at P7 announces 84. Ra1 (third P0), P8 occurred.
    // 50 moves: Black at P2 (clock 99, quiet moves), P3-P8 occurred: 7.
    let pgn = dated(
        "2019.03.01",
        "0-1",
        Some("4k3/8/8/8/8/8/8/R3K3 b - - 97 80"),
        "80... Kd8 81. Ra2 Ke8 82. Ra1 Kd8 83. Ra2 Ke8 84. Ra1",
    );
    let f = audit(&pgn);
    assert_eq!(
        kinds(&f),
        ["missed_fifty_moves", "missed_threefold"],
        "{f:#?}"
    );
    assert_missed(
        one(&f, "missed_fifty_moves"),
        2,
        "black",
        "announced",
        7,
        "won",
        "2018",
    );
    assert_missed(
        one(&f, "missed_threefold"),
        7,
        "white",
        "announced",
        2,
        "lost",
        "2018",
    );
}

#[test]
fn fen_start_with_black_to_move_gives_white_the_fifty_moves_claim_at_p1() {
    // P0 is Black's (clock 98), P1 White's.
    let pgn = dated(
        "2020.01.01",
        "1-0",
        Some("4k3/8/8/8/8/8/8/R3K3 b - - 98 60"),
        "60... Kd7 61. Ra2 Kd6",
    );
    let f = audit(&pgn);
    // P1: clock 99, White to move, a quiet move exists: announced.
    assert_missed(
        one(&f, "missed_fifty_moves"),
        1,
        "white",
        "announced",
        3,
        "won",
        "2018",
    );
}

// ---------------------------------------------------------------------------
// Art. 9.6 / 5.2.2, dead position by material (shakmaty's
// is_insufficient_material): one capture into the material under test,
// then 1... Kd7, scored as a win. A dead P1 gives a finding at ply 1
// (Black to move) held at P1 and P2.
// ---------------------------------------------------------------------------

#[test]
fn dead_position_king_and_knight_against_king() {
    let pgn = dated(
        "2019.03.01",
        "1-0",
        Some("4k3/8/8/8/3p4/5N2/8/4K3 w - - 0 1"),
        "1. Nxd4 Kd7",
    );
    let f = audit(&pgn);
    assert_eq!(kinds(&f), ["dead_position"], "{f:#?}");
    assert_at(&f[0], 1, "black", 2, "2018");
    assert_eq!(f[0]["proof"], "material");
}

#[test]
fn dead_position_not_with_two_knights_against_king() {
    let pgn = dated(
        "2019.03.01",
        "1-0",
        Some("4k3/8/8/8/3p4/5N2/8/4K1N1 w - - 0 1"),
        "1. Nxd4 Kd7",
    );
    let f = audit(&pgn);
    assert!(f.is_empty(), "{f:#?}");
}

#[test]
fn dead_position_bishops_on_the_same_colour() {
    // Bg5 and bf8 both on dark squares
    let pgn = dated(
        "2019.03.01",
        "0-1",
        Some("4kb2/8/8/6p1/8/8/8/2B1K3 w - - 0 1"),
        "1. Bxg5 Kd7",
    );
    let f = audit(&pgn);
    assert_eq!(kinds(&f), ["dead_position"], "{f:#?}");
    assert_at(&f[0], 1, "black", 2, "2018");
    assert_eq!(f[0]["proof"], "material");
}

#[test]
fn dead_position_not_with_bishops_on_opposite_colours() {
    // Bg5 dark, bc8 light: a mate in a corner is possible
    let pgn = dated(
        "2019.03.01",
        "0-1",
        Some("2b1k3/8/8/6p1/8/8/8/2B1K3 w - - 0 1"),
        "1. Bxg5 Kd7",
    );
    let f = audit(&pgn);
    assert!(f.is_empty(), "{f:#?}");
}

#[test]
fn dead_position_not_with_a_knight_each() {
    let pgn = dated(
        "2019.03.01",
        "1-0",
        Some("1n2k3/8/8/8/3p4/5N2/8/4K3 w - - 0 1"),
        "1. Nxd4 Kd7",
    );
    let f = audit(&pgn);
    assert!(f.is_empty(), "{f:#?}");
}

#[test]
fn dead_position_by_material_from_the_fen_start() {
    let dead = |fen: &str| {
        let f = audit(&dated("2020.01.01", "1-0", Some(fen), "1. Kd2 Kd7"));
        of_kind(&f, "dead_position")
            .into_iter()
            .cloned()
            .collect::<Vec<_>>()
    };
    // KB v KB, bishops on the same colour (c1, f8 dark): dead from P0.
    let same = dead("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1");
    assert_eq!(same.len(), 1);
    assert_eq!(same[0]["ply"], 0);
    assert_eq!(same[0]["side"], "white");
    assert_eq!(same[0]["occurrences"], 3);
    assert_eq!(same[0]["proof"], "material");
    // Opposite colours (g8 light) can mate with help: not dead.
    assert!(dead("4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1").is_empty());
    // KNN v K: not insufficient material.
    assert!(dead("4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1").is_empty());
    // KN v KN: a knight can help mate the other king: not dead.
    assert!(dead("4kn2/8/8/8/8/8/8/1N2K3 w - - 0 1").is_empty());
}

// ---------------------------------------------------------------------------
// Art. 5.1, 5.2.1, 11: wrong_result; Art. 6.9: unwinnable_flag
// ---------------------------------------------------------------------------

const FOOLS_MATE: &str = "1. f3 e5 2. g4 Qh4#";

#[test]
fn wrong_result_when_checkmate_is_not_scored_for_the_mating_side() {
    for result in ["1-0", "1/2-1/2", "*"] {
        let f = audit(&dated("2019.03.01", result, None, FOOLS_MATE));
        assert_eq!(kinds(&f), ["wrong_result"], "{result}: {f:#?}");
        // P4, White to move and mated
        assert_at(&f[0], 4, "white", 1, "2018");
        assert!(f[0]["reason"].as_str().is_some_and(|r| !r.is_empty()));
    }
    let f = audit(&dated("2019.03.01", "0-1", None, FOOLS_MATE));
    assert!(f.is_empty(), "{f:#?}");
}

#[test]
fn wrong_result_when_stalemate_is_not_scored_as_a_draw() {
    // 1. Qf7: Black's Kh8 is not in check and g8, g7, h7 are covered
    let fen = Some("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1");
    for result in ["1-0", "0-1"] {
        let f = audit(&dated("2019.03.01", result, fen, "1. Qf7"));
        // SPEC: a stalemate is never a dead position: the game ended there
        // by 5.2.1, and `wrong_result` alone reports the wrong score.
        assert_eq!(kinds(&f), ["wrong_result"], "{result}: {f:#?}");
        assert_at(&f[0], 1, "black", 1, "2018");
    }
    let f = audit(&dated("2019.03.01", "1/2-1/2", fen, "1. Qf7"));
    assert!(f.is_empty(), "{f:#?}");
}

#[test]
fn wrong_result_when_a_queen_stalemates_a_king_in_the_corner() {
    // 1. Qb6: Black's Ka8 is not in check and a7, b7, b8 are covered
    let f = audit(&dated(
        "2020.01.01",
        "1-0",
        Some("k7/8/8/2Q5/8/8/8/K7 w - - 0 1"),
        "1. Qb6",
    ));
    let w = one(&f, "wrong_result");
    assert_eq!(
        (w["ply"].as_u64(), w["side"].as_str()),
        (Some(1), Some("black"))
    );
}

fn flag_game(result: &str, termination: &str) -> String {
    game(
        &[
            ("Date", "2019.03.01"),
            ("Termination", termination),
            ("Result", result),
        ],
        Some(LOOPS_FEN),
        "1. Ra2 Kd8",
    )
}

#[test]
fn unwinnable_flag_when_the_winner_on_time_has_a_bare_king() {
    // Black (bare king) "wins" on time against K+R: final position P2
    for termination in ["Time forfeit", "Black won on time"] {
        let f = audit(&flag_game("0-1", termination));
        assert_eq!(kinds(&f), ["unwinnable_flag"], "{termination}: {f:#?}");
        assert_at(&f[0], 2, "white", 1, "2018");
        assert_eq!(f[0]["winner"], "black");
        assert_eq!(f[0]["proof"], "material");
    }
    // the side with the rook wins on time; a bare king's win not on time
    assert!(audit(&flag_game("1-0", "Time forfeit")).is_empty());
    assert!(audit(&flag_game("0-1", "Normal")).is_empty());
}

#[test]
fn unwinnable_flag_when_a_bare_king_wins_on_time_against_a_pawn() {
    // (a FEN without a SetUp tag)
    let pgn = "[Event \"t\"]\n[Date \"2020.01.01\"]\n[Result \"0-1\"]\n\
               [Termination \"Time forfeit\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n\
               1. e4 Kd7 0-1\n";
    let f = audit(pgn);
    let u = one(&f, "unwinnable_flag");
    assert_eq!(
        (u["ply"].as_u64(), u["side"].as_str()),
        (Some(2), Some("white"))
    );
    assert_eq!(u["winner"], "black");
    assert_eq!(u["proof"], "material");
    // The same game lost on time by Black: White can still mate.
    let f = audit(&pgn.replace("0-1", "1-0"));
    assert!(of_kind(&f, "unwinnable_flag").is_empty());
}

#[test]
fn drawn_flag_when_the_side_with_time_left_could_mate_a_bare_king() {
    // Black (to move) ran out of time; White has K+Q against a bare king:
    // 1... Kg8 2. Qa8# (the king on g6 guards f7, g7, h7). Scored 1/2-1/2,
    // the Laws give White the point (Art. 6.9).
    let fen = "7k/8/6K1/8/8/8/8/Q7 b - - 0 1";
    let drawn = game(
        &[("Result", "1/2-1/2"), ("Termination", "Time forfeit")],
        Some(fen),
        "",
    );
    let f = audit(&drawn);
    assert_eq!(kinds(&f), ["drawn_flag"]);
    let d = one(&f, "drawn_flag");
    assert_eq!(
        (d["ply"].as_u64(), d["side"].as_str()),
        (Some(0), Some("black"))
    );
    assert_eq!(
        (d["winner"].as_str(), d["article"].as_str()),
        (Some("white"), Some("6.9"))
    );
    let mate = d["mate"].as_str().unwrap();
    assert!(mate.starts_with("1... ") && mate.ends_with('#'), "{mate}");
    // Scored 1-0 it is right; a draw agreed (no loss on time) is no flag.
    let won = drawn.replace("1/2-1/2", "1-0");
    assert!(audit(&won).is_empty(), "{:?}", audit(&won));
    let agreed = drawn.replace("Time forfeit", "Normal");
    assert!(audit(&agreed).is_empty());
    // --dead material asks no engine: nothing is claimed.
    assert!(audit_with(&drawn, &["--dead", "material"]).is_empty());
    // --fix-results gives the point to White (Art. 11 as the Laws decide).
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("drawn.pgn");
    std::fs::write(&path, &drawn).unwrap();
    let out = crate::util::bin()
        .args(["audit", "--quiet", "--export-pgn", "-", "--fix-results"])
        .arg(&path)
        .output()
        .unwrap();
    let pgn = String::from_utf8(out.stdout).unwrap();
    assert!(
        pgn.contains("[Result \"1-0\"]") && pgn.contains("[OriginalResult \"1/2-1/2\"]"),
        "{pgn}"
    );
}

#[test]
fn drawn_flag_not_reported_where_no_mate_was_possible() {
    // Bare kings: a dead position, correctly drawn; K+N against a bare
    // king: no mate, the draw is right.
    for fen in [
        "7k/8/6K1/8/8/8/8/8 b - - 0 1",
        "7k/8/6K1/8/8/8/8/N7 b - - 0 1",
    ] {
        let pgn = game(
            &[("Result", "1/2-1/2"), ("Termination", "Time forfeit")],
            Some(fen),
            "",
        );
        assert!(of_kind(&audit(&pgn), "drawn_flag").is_empty(), "{fen}");
    }
}

// ---------------------------------------------------------------------------
// Art. 3, 4: invalid games
// ---------------------------------------------------------------------------

#[test]
fn invalid_game_reports_the_bad_move_keeps_earlier_findings_and_the_file_goes_on() {
    // Game 0: the knights' repetition (P7 announced, P8 occurred), then
    // 5. e4 (P9, Black to move) and 5... Ke7, illegal (own pawn on e7).
    let g0 = dated(
        "2019.03.01",
        "1-0",
        None,
        "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 Ke7 6. Nf3",
    );
    // Game 1: valid, wrong result after mate.
    let g1 = dated("2019.03.01", "1-0", None, FOOLS_MATE);
    // Game 2: a capture mark onto an empty square in P0.
    let g2 = dated("2019.03.01", "1-0", None, "1. Nxf3 Nf6");
    // Game 3: a FEN without kings.
    let g3 = dated(
        "2019.03.01",
        "1-0",
        Some("8/8/8/8/8/8/8/8 b - - 0 1"),
        "1. e4",
    );
    let f = audit(&format!("{g0}{g1}{g2}{g3}"));
    let games: Vec<u64> = f.iter().map(|x| x["game"].as_u64().unwrap()).collect();
    assert_eq!(games, [0, 0, 1, 2, 3], "{f:#?}");
    assert_eq!(
        kinds(&f),
        [
            "missed_threefold",
            "invalid_game",
            "wrong_result",
            "invalid_game",
            "invalid_game"
        ]
    );

    assert_missed(&f[0], 7, "black", "announced", 2, "lost", "2018");
    assert_at(&f[1], 9, "black", 1, "2018");
    assert_eq!(f[1]["move"], "Ke7");
    assert!(f[1]["reason"].as_str().is_some_and(|r| !r.is_empty()));

    assert_at(&f[2], 4, "white", 1, "2018");

    assert_at(&f[3], 0, "white", 1, "2018");
    assert_eq!(f[3]["move"], "Nxf3");
    assert!(f[3]["reason"].as_str().is_some_and(|r| !r.is_empty()));

    // an illegal FEN: ply 0, the side the FEN gives
    assert_at(&f[4], 0, "black", 1, "2018");
    assert!(f[4]["reason"].as_str().is_some_and(|r| !r.is_empty()));
}

#[test]
fn invalid_game_does_not_analyse_the_position_the_bad_move_was_played_from() {
    // The knights' repetition, then 5. Ke3 from P8: illegal.
    let pgn = dated(
        "2020.01.01",
        "1-0",
        None,
        &format!("{KNIGHTS} Ng8 5. Ke3 Nf6"),
    );
    let f = audit(&pgn);
    let inv = one(&f, "invalid_game");
    assert_eq!(
        (inv["ply"].as_u64(), inv["side"].as_str()),
        (Some(8), Some("white"))
    );
    assert_eq!(inv["move"], "Ke3");
    assert!(inv["reason"].as_str().is_some_and(|r| !r.is_empty()));
    // P7 (9.2a) is reported; P8, the position the bad move was played from,
    // is not analysed.
    assert_missed(
        one(&f, "missed_threefold"),
        7,
        "black",
        "announced",
        1,
        "lost",
        "2018",
    );
}

// ---------------------------------------------------------------------------
// SPEC "Laws editions": `Date`, else `UTCDate` where `Date` is missing or has
// no year.

#[test]
fn utcdate_dates_a_game_without_a_usable_date() {
    // UTCDate 2015: the 2014 Laws, whose fivefold needs consecutive
    // repetitions, so only the missed claim remains (as dated 2015 above).
    for tags in [
        vec![("UTCDate", "2015.05.05"), ("Result", "1/2-1/2")],
        vec![
            ("Date", "????.??.??"),
            ("UTCDate", "2015.05.05"),
            ("Result", "1/2-1/2"),
        ],
    ] {
        let f = audit(&game(&tags, Some(LOOPS_FEN), FIVE_NOT_CONSECUTIVE));
        assert_eq!(kinds(&f), ["missed_threefold"], "{tags:?}: {f:#?}");
        assert_eq!(f[0]["edition"], "2014", "{tags:?}");
    }
    // A Date with a year wins over UTCDate.
    let tags = [
        ("Date", "2019.05.05"),
        ("UTCDate", "2015.05.05"),
        ("Result", "1/2-1/2"),
    ];
    let f = audit(&game(&tags, Some(LOOPS_FEN), FIVE_NOT_CONSECUTIVE));
    assert_eq!(kinds(&f), ["missed_threefold", "fivefold"], "{f:#?}");
    // No usable date at all: the newest Laws.
    let tags = [("Date", "????.??.??"), ("Result", "1/2-1/2")];
    let f = audit(&game(&tags, Some(LOOPS_FEN), FIVE_NOT_CONSECUTIVE));
    assert_eq!(kinds(&f), ["missed_threefold", "fivefold"], "{f:#?}");
}

#[test]
fn dead_position_before_a_final_stalemate_is_still_a_finding() {
    let f = audit(&dated(
        "2019.03.01",
        "1-0",
        Some("k7/8/1K6/8/3N4/8/8/8 w - - 0 1"),
        "1. Kc7 Ka7 2. Nc6+ Ka8 3. Kb6",
    ));
    // Dead at P0 (K+N v K) and played on: a finding at ply 0; the final
    // stalemate (Black's Ka8: a7, b7 by Kb6, b8 by Nc6) scored 1-0 is a
    // wrong result, and its own position adds no second dead position.
    assert_eq!(kinds(&f), ["dead_position", "wrong_result"], "{f:#?}");
    assert_at(&f[0], 0, "white", 6, "2018");
    assert_at(&f[1], 5, "black", 1, "2018");
}
