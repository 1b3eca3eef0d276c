//! chess.com's rules for live games (SPEC "Site rules", the chess.com
//! column). Sources, read 2026-12: chess.com's help pages "What are the
//! different ways to draw a game?", "What is insufficient material?" and
//! "What is timeout vs insufficient material?".

use super::book::{Material, Place, Row, Rulebook, Test, Timeout};
use super::{Rule, Ruling, Site, LATE};

/// chess.com's rulebook.
pub const BOOK: Rulebook = Rulebook {
    site: Site::Chesscom,
    rows: &[
        // Help, insufficient material: no pawns and each side K, K+B or
        // K+N; K+N+N against a lone K too.
        Row::always(
            Rule::Material,
            Test::Material(Material::OneMinorEachOrTwoKnightsAgainstKing),
        ),
        // No help page says so: the automatic 50-move draw rests on its
        // users' reports (and on records ending `Game drawn by 50-move
        // rule` at the 100th half-move).
        Row::always(Rule::FiftyMoves, Test::HalfMoves(100)),
        // Help, ways to draw: the third occurrence ends the game.
        Row::always(Rule::Repetition, Test::Occurrences(3)),
        // Help, timeout vs insufficient material: a draw when the side
        // with time left has only K, K+B or K+N.
        Row::always(Rule::Timeout, Test::Timeout(Timeout::KingAndOneMinor)),
    ],
    grace: Some(LATE),
    place: Some(Place::Termination),
    // `Game drawn by timeout vs insufficient material` before `... by
    // insufficient material`: the first match decides.
    words: &[
        ("timeout vs insufficient material", Ruling::OnTime),
        ("drawn by repetition", Ruling::Repetition),
        ("drawn by insufficient material", Ruling::Material),
        ("drawn by 50-move rule", Ruling::FiftyMoves),
        ("drawn by stalemate", Ruling::Stalemate),
        ("won on time", Ruling::OnTime),
    ],
    names_flagging_side: false,
    claim_alike: false,
};
