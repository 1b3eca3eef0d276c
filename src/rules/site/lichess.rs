//! Lichess's rules (SPEC "Site rules", the Lichess column). Sources, read
//! 2026-12: scalachess at commit cbffc9d (`variant/Variant.scala`
//! `autoDraw`, `InsufficientMatingMaterial.scala`), scalachess commit
//! 8ca89d7 of 2020-01-14 (fivefold drawn by itself), lila's
//! `Finisher.scala` `outOfTime`.

use super::book::{Material, Place, Row, Rulebook, Test, Timeout};
use super::{Rule, Ruling, Site, LATE};

/// Lichess's rulebook.
pub const BOOK: Rulebook = Rulebook {
    site: Site::Lichess,
    rows: &[
        // `autoDraw`: `InsufficientMatingMaterial(board)`: only kings and
        // minor pieces, and at most 3 men or bishops of one colour only.
        Row::always(
            Rule::Material,
            Test::Material(Material::MinorsFewOrBishopsOfOneColour),
        ),
        // `autoDraw`: `fiftyMoves`, the half-move clock at 100.
        Row::always(Rule::FiftyMoves, Test::HalfMoves(100)),
        // `autoDraw`: `isFivefold`, since commit 8ca89d7 (2020-01-14);
        // before it a repetition was only claimed.
        Row::since((2020, 1, 14), Rule::Repetition, Test::Occurrences(5)),
        // lila `Finisher.outOfTime`: a draw when the side with time left
        // has `InsufficientMatingMaterial(board, color)`.
        Row::always(
            Rule::Timeout,
            Test::Timeout(Timeout::LoneKingKnightOrBishops),
        ),
    ],
    grace: Some(LATE),
    place: Some(Place::Termination),
    // Lichess names a material draw; a loss on time is `Time forfeit`,
    // scored 1/2-1/2 when the side with time left could not win.
    words: &[
        ("insufficient material", Ruling::Material),
        ("time forfeit", Ruling::OnTime),
    ],
    names_flagging_side: false,
    // lila ends a game drawn on a claim after the opponent left with the
    // status Timeout and no winner, which its export writes `Time
    // forfeit` too.
    claim_alike: true,
};
