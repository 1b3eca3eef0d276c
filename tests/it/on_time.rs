//! SPEC "Lost on time": one definition, read by `unwinnable_flag`,
//! `drawn_flag` (Art. 6.9) and every site's `timeout` rule. The
//! `Termination` tag's words, or the site's own words where it writes them
//! elsewhere (FICS: the comment before the result); the flagging side is
//! the one the record names, else the loser by the Result, else (½-½) the
//! side to move; a Lichess `Time forfeit` scored ½-½ is a loss on time only
//! where Lichess's timeout rule gives the side with time left no win.

use crate::util::{audit, of_kind, one, shared, tagged_game, Needs};
use serde_json::Value;

/// A one-position game: `fen`, no moves, with these tags and a comment
/// before the result.
fn at_end(tags: &[(&str, &str)], fen: &str, comment: Option<&str>, result: &str) -> String {
    let mut all: Vec<(&str, &str)> = vec![("Date", "2019.03.01"), ("SetUp", "1"), ("FEN", fen)];
    all.extend_from_slice(tags);
    let moves = comment.map(|c| format!("{{{c}}}")).unwrap_or_default();
    tagged_game(&all, &moves, result)
}

const FICS: (&str, &str) = ("Site", "FICS freechess.org");
const LICHESS: (&str, &str) = ("Site", "https://lichess.org/abcdEFGH");

/// (kind, winner) of the Art. 6.9 findings and (kind, rule) of the site's.
fn flags(f: &[Value]) -> Vec<(String, String)> {
    f.iter()
        .filter_map(|f| {
            let kind = f["kind"].as_str()?;
            let what = match kind {
                "drawn_flag" | "unwinnable_flag" => f["winner"].as_str()?,
                "site_rule" => f["rule"].as_str()?,
                _ => return None,
            };
            Some((kind.to_string(), what.to_string()))
        })
        .collect()
}

fn pairs(found: &[(&str, &str)]) -> Vec<(String, String)> {
    found
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[test]
fn fics_ran_out_of_time_comment_is_a_loss_on_time_for_the_side_it_names() {
    // White to move with K+B against K+P (Ka8, pa7, Kc7): 1. Bf3# would mate.
    // The comment names Black as flagging: White had time left and could
    // mate, so the Laws give White the point; FICS's rule draws K+B.
    let fen = "k7/p1K5/8/8/8/8/4B3/8 w - - 0 1";
    let comment = "Black ran out of time and White has no material to mate";
    let f = audit(&at_end(&[FICS], fen, Some(comment), "1/2-1/2"), &[]);
    assert_eq!(flags(&f), pairs(&[("drawn_flag", "white")]), "{f:#?}");
    let d = one(&f, "drawn_flag");
    let mate = d["mate"].as_str().unwrap();
    assert!(mate.starts_with("1. B") && mate.ends_with('#'), "{mate}");
    assert_eq!(d["ply"].as_u64(), Some(0));
    // Another ending named: no loss on time.
    let f = audit(
        &at_end(
            &[FICS],
            fen,
            Some("Game drawn by mutual agreement"),
            "1/2-1/2",
        ),
        &[],
    );
    assert!(flags(&f).is_empty(), "{f:#?}");
    // The Laws' findings read the record's words whatever rulebook judges.
    let f = audit(
        &at_end(&[FICS], fen, Some(comment), "1/2-1/2"),
        &["--site", "none"],
    );
    assert_eq!(flags(&f), pairs(&[("drawn_flag", "white")]), "{f:#?}");
}

#[test]
fn fics_forfeits_on_time_won_by_a_lone_king_is_an_unwinnable_flag() {
    // Black's lone king wins on time against K+R: the Laws draw it (6.9),
    // and so does FICS's own timeout rule.
    let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
    let f = audit(
        &at_end(&[FICS], fen, Some("White forfeits on time"), "0-1"),
        &[],
    );
    assert_eq!(
        flags(&f),
        pairs(&[("unwinnable_flag", "black"), ("site_rule", "timeout")]),
        "{f:#?}"
    );
    assert_eq!(one(&f, "unwinnable_flag")["proof"], "material");
    // Resigned, not flagged: neither.
    let f = audit(&at_end(&[FICS], fen, Some("White resigns"), "0-1"), &[]);
    assert!(flags(&f).is_empty(), "{f:#?}");
}

#[test]
fn chesscom_won_on_time_names_a_player_not_the_flagging_colour() {
    // A player called White wins on time as White with a lone king: the
    // name is no colour, the loser by the result flagged.
    let fen = "4k3/8/8/8/8/8/r7/4K3 w - - 0 1";
    let tags = [("Site", "Chess.com"), ("Termination", "White won on time")];
    let f = audit(&at_end(&tags, fen, None, "1-0"), &[]);
    assert_eq!(
        flags(&f),
        pairs(&[("unwinnable_flag", "white"), ("site_rule", "timeout")]),
        "{f:#?}"
    );
}

#[test]
fn lichess_time_forfeit_drawn_with_winning_material_is_no_flag() {
    // Black to move with a lone king against K+R, `Time forfeit` 1/2-1/2:
    // Lichess would have given White the win on a flag, so no flag fell
    // (a draw claimed after the opponent left).
    let fen = "4k3/8/8/8/8/8/8/R3K3 b - - 0 1";
    let tags = [LICHESS, ("Termination", "Time forfeit")];
    let pgn = at_end(&tags, fen, None, "1/2-1/2");
    for options in [&[][..], &["--site", "none"]] {
        let f = audit(&pgn, options);
        assert!(flags(&f).is_empty(), "{options:?} {f:#?}");
    }
    // Another writer's `Time forfeit` 1/2-1/2 is a loss on time: the rook
    // mates, the Laws give White the point.
    let other = pgn.replace(LICHESS.1, "Berlin");
    assert_eq!(
        flags(&audit(&other, &[])),
        pairs(&[("drawn_flag", "white")])
    );
    // Scored as a win, `Time forfeit` stays a loss on time at Lichess: a
    // lone king's win on time is drawn by the Laws and by Lichess's rule.
    let won = at_end(&tags, fen, None, "0-1");
    assert_eq!(
        flags(&audit(&won, &[])),
        pairs(&[("unwinnable_flag", "black"), ("site_rule", "timeout")])
    );
}

/// The shared online files: the three FICS draws by `X ran out of time and
/// Y has no material to mate` where Y could mate get `drawn_flag` with a
/// mating line; Lichess's game 7384 (`Time forfeit` 1/2-1/2 after 13 moves
/// with nearly all the pieces on the board) gets neither `drawn_flag` nor
/// `site_rule`.
#[test]
fn shared_fics_ran_out_of_time_draws_and_lichess_7384() {
    if !Needs::test()
        .shared("data/online-fics.pgn.zst")
        .shared("data/online-lichess.pgn.zst")
        .met()
    {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let findings = |name: &str| {
        let zst = shared().join(format!("data/{name}.pgn.zst"));
        let bytes = zstd::decode_all(std::fs::File::open(&zst).unwrap()).unwrap();
        let path = dir.path().join(format!("{name}.pgn"));
        std::fs::write(&path, bytes).unwrap();
        crate::util::audit_path(&path, &[])
    };
    let fics = findings("online-fics");
    let drawn: Vec<(u64, &str)> = of_kind(&fics, "drawn_flag")
        .iter()
        .map(|f| (f["game"].as_u64().unwrap(), f["winner"].as_str().unwrap()))
        .collect();
    assert_eq!(drawn, [(836, "black"), (898, "white"), (1249, "white")]);
    for f in of_kind(&fics, "drawn_flag") {
        assert!(f["mate"].as_str().is_some_and(|m| m.ends_with('#')), "{f}");
    }
    let lichess = findings("online-lichess");
    let at_7384: Vec<&Value> = lichess.iter().filter(|f| f["game"] == 7384).collect();
    assert!(
        at_7384
            .iter()
            .all(|f| f["kind"] != "drawn_flag" && f["kind"] != "site_rule"),
        "{at_7384:#?}"
    );
}
