//! One small hand-made game per rule of SPEC.md, run through the binary;
//! each test asserts the exact findings (ply, side, via, occurrences,
//! outcome) that the hand analysis in its comment gives. Plies count
//! positions: P0 is the start, Pi the position after the i-th half-move.

use crate::util::{audit, of_kind, one};
use serde_json::Value;

fn game(date: &str, result: &str, fen: Option<&str>, moves: &str) -> String {
    let mut s = format!("[Event \"t\"]\n[Date \"{date}\"]\n[Result \"{result}\"]\n");
    if let Some(fen) = fen {
        s.push_str(&format!("[FEN \"{fen}\"]\n[SetUp \"1\"]\n"));
    }
    s.push_str(&format!("\n{moves} {result}\n"));
    s
}

fn assert_claim(f: &Value, ply: u64, side: &str, via: &str, occurrences: u64, outcome: &str) {
    assert_eq!(f["ply"], ply, "{f}");
    assert_eq!(f["side"], side, "{f}");
    assert_eq!(f["via"], via, "{f}");
    assert_eq!(f["occurrences"], occurrences, "{f}");
    assert_eq!(f["outcome"], outcome, "{f}");
}

// Art. 9.2, e.p.: after 1... d5 the position P1 has White to move and the
// placement of P5 and P9. With a legal e.p. capture (exd6) P1 differs from
// them, so the first claim is at P9: White announces 6. Ke2, the third
// occurrence of P2 = P6 = P10. Were P1 counted, P9 would already be the
// third occurrence of P1 and Black could announce 5... Ke8 at P8.
const EP_MOVES: &str = "1... d5 2. Ke2 Ke7 3. Ke1 Ke8 4. Ke2 Ke7 5. Ke1 Ke8 6. Ke2";

#[test]
fn legal_en_passant_makes_the_position_different() {
    let pgn = game(
        "2020.01.01",
        "0-1",
        Some("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1"),
        EP_MOVES,
    );
    let f = audit(&pgn, &[]);
    // P9 (announced), P10 (occurred): two plies; White then lost.
    assert_claim(
        one(&f, "missed_threefold"),
        9,
        "white",
        "announced",
        2,
        "lost",
    );
}

#[test]
fn pinned_en_passant_does_not_make_the_position_different() {
    // exd6 e.p. would open the fifth rank from a5 to the king on h5.
    let pgn = game(
        "2020.01.01",
        "0-1",
        Some("4k3/3p4/8/r3P2K/8/8/8/8 b - - 0 1"),
        "1... d5 2. Kh4 Ke7 3. Kh5 Ke8 4. Kh4 Ke7 5. Kh5 Ke8 6. Kh4",
    );
    let f = audit(&pgn, &[]);
    // P8: Black announces Ke8, the third occurrence of P1 = P5 = P9; the
    // claim holds at P8, P9 and P10 (P2 = P6 = P10).
    assert_claim(
        one(&f, "missed_threefold"),
        8,
        "black",
        "announced",
        3,
        "won",
    );
}

#[test]
fn absent_en_passant_does_not_make_the_position_different() {
    // No white pawn beside d5: the double push gives no e.p. capture.
    let pgn = game(
        "2020.01.01",
        "0-1",
        Some("4k3/3p4/8/8/8/8/8/4K3 b - - 0 1"),
        EP_MOVES,
    );
    let f = audit(&pgn, &[]);
    assert_claim(
        one(&f, "missed_threefold"),
        8,
        "black",
        "announced",
        3,
        "won",
    );
}

// Art. 9.2, castling rights: P0 (KQkq) and P4 have the same placement but
// the kings have moved, so they differ; P1 (Black still has kq) and P5
// differ too. P2 = P6 = P10 is the first triple: Black announces 5... Ke7
// at P9. Were rights ignored, P0 = P4 = P8 and White could announce at P7.
#[test]
fn castling_rights_lost_by_a_king_that_comes_back() {
    let pgn = game(
        "2020.01.01",
        "1-0",
        Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
        "1. Ke2 Ke7 2. Ke1 Ke8 3. Ke2 Ke7 4. Ke1 Ke8 5. Ke2 Ke7",
    );
    let f = audit(&pgn, &[]);
    assert_claim(
        one(&f, "missed_threefold"),
        9,
        "black",
        "announced",
        2,
        "lost",
    );
}

#[test]
fn castling_rights_lost_by_a_rook_that_comes_back() {
    // 1. Rh2 loses K, 1... Rh7 loses k: P4 has only Qq, unlike P0.
    let pgn = game(
        "2020.01.01",
        "1-0",
        Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
        "1. Rh2 Rh7 2. Rh1 Rh8 3. Rh2 Rh7 4. Rh1 Rh8 5. Rh2 Rh7",
    );
    let f = audit(&pgn, &[]);
    assert_claim(
        one(&f, "missed_threefold"),
        9,
        "black",
        "announced",
        2,
        "lost",
    );
}

// Art. 9.2 (a) and (b), and "missed unless the game ended drawn at Pi or
// Pi+1": P0 = P4 = P8 after two knight round trips. Black could announce
// 4... Ng8 at P7 (a); at P8 White could claim the third occurrence (b).
const KNIGHTS: &str = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8";

#[test]
fn threefold_announced_then_occurred_and_the_claimant_lost() {
    let f = audit(&game("2020.01.01", "1-0", None, KNIGHTS), &[]);
    assert_claim(
        one(&f, "missed_threefold"),
        7,
        "black",
        "announced",
        2,
        "lost",
    );
}

#[test]
fn threefold_not_missed_when_the_game_ends_drawn_at_the_next_ply() {
    let f = audit(&game("2020.01.01", "1/2-1/2", None, KNIGHTS), &[]);
    assert!(of_kind(&f, "missed_threefold").is_empty(), "{f:#?}");
}

#[test]
fn threefold_missed_at_i_when_the_draw_comes_two_plies_later() {
    // Drawn at P9: the claim at P8 is excused (P8 + 1 = 9), not the one
    // at P7.
    let pgn = game("2020.01.01", "1/2-1/2", None, &format!("{KNIGHTS} 5. e4"));
    let f = audit(&pgn, &[]);
    assert_claim(
        one(&f, "missed_threefold"),
        7,
        "black",
        "announced",
        1,
        "drew",
    );
}

// Art. 9.3: the clock of P0 is 98. P1 has 99 and Black has a quiet move
// (a); P2 and P3 have 100 and 101 (b).
#[test]
fn fifty_moves_announced_at_99_then_occurred_at_100() {
    let pgn = game(
        "2020.01.01",
        "1-0",
        Some("4k3/8/8/8/8/8/8/R3K3 w - - 98 60"),
        "60. Ra2 Kd7 61. Ra3",
    );
    let f = audit(&pgn, &[]);
    assert_claim(
        one(&f, "missed_fifty_moves"),
        1,
        "black",
        "announced",
        3,
        "lost",
    );
    assert!(of_kind(&f, "seventyfive_moves").is_empty());
}

// Art. 9.6.2 (2014+): the clock reaches 150 at P2 and the game goes on.
#[test]
fn seventyfive_moves_at_150() {
    let pgn = game(
        "2019.01.01",
        "1-0",
        Some("4k3/8/8/8/8/8/8/R3K3 w - - 148 100"),
        "100. Ra2 Kd7 101. Ra3",
    );
    let f = audit(&pgn, &[]);
    let s = one(&f, "seventyfive_moves");
    assert_eq!(
        (s["ply"].as_u64(), s["side"].as_str()),
        (Some(2), Some("white"))
    );
    assert_eq!(s["occurrences"], 2);
    assert_eq!(s["edition"], "2018");
    // The 2001 laws have no automatic draw.
    let old = game(
        "2010.01.01",
        "1-0",
        Some("4k3/8/8/8/8/8/8/R3K3 w - - 148 100"),
        "100. Ra2 Kd7 101. Ra3",
    );
    assert!(of_kind(&audit(&old, &[]), "seventyfive_moves").is_empty());
}

#[test]
fn mate_on_the_150th_half_move_is_not_a_seventyfive_moves_draw() {
    let mate = game(
        "2019.01.01",
        "1-0",
        Some("k7/8/1K6/8/8/8/8/7R w - - 149 120"),
        "120. Rh8#",
    );
    let f = audit(&mate, &[]);
    assert!(of_kind(&f, "seventyfive_moves").is_empty(), "{f:#?}");
    assert!(of_kind(&f, "wrong_result").is_empty(), "{f:#?}");
    // A quiet move instead reaches 150 in a position that is not mate.
    let quiet = game(
        "2019.01.01",
        "1-0",
        Some("k7/8/1K6/8/8/8/8/7R w - - 149 120"),
        "120. Rh7 Kb8 121. Rh8#",
    );
    let f = audit(&quiet, &[]);
    let s = one(&f, "seventyfive_moves");
    assert_eq!(
        (s["ply"].as_u64(), s["side"].as_str()),
        (Some(1), Some("black"))
    );
}

// Art. 9.6.1: P0 occurs at P0, P4, P12, P16 and P20 (the detour
// 3. Nc3 .. 6. Nb1 Nb8 takes eight plies). Under the 2018 laws P20 is a
// fifth occurrence; under 2014 it is not consecutive (P8 differs).
const FIVE_NOT_CONSECUTIVE: &str = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nc3 Nc6 4. Nb5 Nb4 5. Nc3 Nc6 \
     6. Nb1 Nb8 7. Nf3 Nf6 8. Ng1 Ng8 9. Nf3 Nf6 10. Ng1 Ng8 11. e4";

#[test]
fn fivefold_2018_counts_any_five_occurrences() {
    let f = audit(
        &game("2019.03.01", "1/2-1/2", None, FIVE_NOT_CONSECUTIVE),
        &[],
    );
    let five = one(&f, "fivefold");
    assert_eq!(
        (five["ply"].as_u64(), five["side"].as_str()),
        (Some(20), Some("white"))
    );
    assert_eq!(five["edition"], "2018");
}

#[test]
fn fivefold_2014_needs_consecutive_alternate_moves() {
    let f = audit(
        &game("2015.03.01", "1/2-1/2", None, FIVE_NOT_CONSECUTIVE),
        &[],
    );
    assert!(of_kind(&f, "fivefold").is_empty(), "{f:#?}");
    // Four round trips: P0 = P4 = P8 = P12 = P16, consecutive.
    let consecutive = format!("{KNIGHTS} 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 9. e4");
    let f = audit(&game("2015.03.01", "1/2-1/2", None, &consecutive), &[]);
    let five = one(&f, "fivefold");
    assert_eq!(five["ply"], 16);
    assert_eq!(five["edition"], "2014");
    // The 2001 laws (a date before 2014-07-01, or --laws 2001) have none.
    assert!(of_kind(
        &audit(&game("2014.06.30", "1/2-1/2", None, &consecutive), &[]),
        "fivefold"
    )
    .is_empty());
    let f = audit(
        &game("2019.03.01", "1/2-1/2", None, &consecutive),
        &["--laws", "2001"],
    );
    assert!(of_kind(&f, "fivefold").is_empty());
}

// A FEN with Black to move and a clock of 98: P0 is Black's, P1 White's.
#[test]
fn fen_start_with_black_to_move_and_a_running_clock() {
    let pgn = game(
        "2020.01.01",
        "1-0",
        Some("4k3/8/8/8/8/8/8/R3K3 b - - 98 60"),
        "60... Kd7 61. Ra2 Kd6",
    );
    let f = audit(&pgn, &[]);
    // P1: clock 99, White to move, a quiet move exists: announced.
    assert_claim(
        one(&f, "missed_fifty_moves"),
        1,
        "white",
        "announced",
        3,
        "won",
    );
}

// Dead positions by material (shakmaty's insufficient material).
#[test]
fn dead_position_by_material() {
    let dead = |fen: &str| {
        let f = audit(&game("2020.01.01", "1-0", Some(fen), "1. Kd2 Kd7"), &[]);
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

#[test]
fn wrong_result_after_mate_and_after_stalemate() {
    let f = audit(&game("2020.01.01", "1-0", None, "1. f3 e5 2. g4 Qh4#"), &[]);
    let w = one(&f, "wrong_result");
    assert_eq!(
        (w["ply"].as_u64(), w["side"].as_str()),
        (Some(4), Some("white"))
    );
    let f = audit(
        &game(
            "2020.01.01",
            "1-0",
            Some("k7/8/8/2Q5/8/8/8/K7 w - - 0 1"),
            "1. Qb6",
        ),
        &[],
    );
    let w = one(&f, "wrong_result");
    assert_eq!(
        (w["ply"].as_u64(), w["side"].as_str()),
        (Some(1), Some("black"))
    );
    // The right results give no finding.
    let f = audit(&game("2020.01.01", "0-1", None, "1. f3 e5 2. g4 Qh4#"), &[]);
    assert!(of_kind(&f, "wrong_result").is_empty());
}

#[test]
fn unwinnable_flag_when_the_winner_on_time_has_a_bare_king() {
    let pgn = "[Event \"t\"]\n[Date \"2020.01.01\"]\n[Result \"0-1\"]\n\
               [Termination \"Time forfeit\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n\
               1. e4 Kd7 0-1\n";
    let f = audit(pgn, &[]);
    let u = one(&f, "unwinnable_flag");
    assert_eq!(
        (u["ply"].as_u64(), u["side"].as_str()),
        (Some(2), Some("white"))
    );
    assert_eq!(u["winner"], "black");
    assert_eq!(u["proof"], "material");
    // The same game lost on time by Black: White can still mate.
    let f = audit(&pgn.replace("0-1", "1-0"), &[]);
    assert!(of_kind(&f, "unwinnable_flag").is_empty());
}

#[test]
fn invalid_game_keeps_earlier_findings_and_names_the_move() {
    let pgn = game("2020.01.01", "1-0", None, &format!("{KNIGHTS} 5. Ke3 Nf6"));
    let f = audit(&pgn, &[]);
    let inv = one(&f, "invalid_game");
    assert_eq!(
        (inv["ply"].as_u64(), inv["side"].as_str()),
        (Some(8), Some("white"))
    );
    assert_eq!(inv["move"], "Ke3");
    assert!(inv["reason"].as_str().is_some_and(|r| !r.is_empty()));
    // P7 (a) is reported; P8, the position the bad move was played from,
    // is not analysed.
    assert_claim(
        one(&f, "missed_threefold"),
        7,
        "black",
        "announced",
        1,
        "lost",
    );
}
