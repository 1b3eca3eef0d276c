//! FICS's rules (SPEC "Site rules", the FICS column). Source, read
//! 2026-12: the FICS server (`uhlin/fics`: `gameproc.c`, `movecheck.c`,
//! `help/draw`, `help/flag`).

use super::book::{Material, Place, Row, Rulebook, Test, Timeout};
use super::{Rule, Ruling, Site, LATE};

/// FICS's rulebook.
pub const BOOK: Rulebook = Rulebook {
    site: Site::Fics,
    rows: &[
        // `movecheck.c`: at most one minor piece besides the kings ends
        // the game ("Neither player has mating material").
        Row::always(Rule::Material, Test::Material(Material::OneMinorInAll)),
        // No row for 50 moves or repetition: `help/draw`, both are claims.
        // `help/flag`: a flag against only K, or K and one minor piece,
        // is a draw.
        Row::always(Rule::Timeout, Test::Timeout(Timeout::KingAndOneMinor)),
    ],
    grace: Some(LATE),
    place: Some(Place::LastComment),
    words: &[
        ("drawn by repetition", Ruling::Repetition),
        ("neither player has mating material", Ruling::Material),
        ("drawn by the 50 move rule", Ruling::FiftyMoves),
        ("drawn by stalemate", Ruling::Stalemate),
        ("has no material to mate", Ruling::OnTime),
        ("forfeits on time", Ruling::OnTime),
    ],
    names_flagging_side: true,
    claim_alike: false,
};
