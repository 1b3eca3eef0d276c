//! FIDE's Online Chess Regulations (SPEC "Site rules", `--site
//! fide-online`): FIDE Handbook E.04, 2021. Art. 1.3 (read on FIDE's
//! handbook page): Arts 4 and 5 of the Laws are superseded by Arts 3 and 5
//! of the Regulations. Arts 4.4 and 5.4 below come from a faithful
//! transcription, not from FIDE's page. The platform applies these draws
//! itself: no grace plies.

use super::book::{Row, Rulebook, Test};
use super::{Rule, Site};

/// The rulebook of FIDE's online regulations.
pub const BOOK: Rulebook = Rulebook {
    site: Site::FideOnline,
    rows: &[
        // Art. 5.4 (transcription): drawn automatically at the third
        // occurrence of a position, by the Laws' identity (9.2.2: castling
        // rights, a legal en-passant capture).
        Row::always(Rule::Repetition, Test::Occurrences(3)),
        // Art. 5.4 (transcription): drawn automatically when the last 50
        // moves by each player were made without a pawn move or a capture
        // (100 half-moves).
        Row::always(Rule::FiftyMoves, Test::HalfMoves(100)),
        // Art. 5.4 (transcription): drawn automatically in a dead position.
        // A stalemate, also drawn there, already ends the game by the
        // Laws' 5.2.1: `wrong_result` speaks for it.
        Row::always(Rule::DeadPosition, Test::Dead),
        // Art. 4.4 (transcription): a loss on time is a draw when the
        // opponent cannot checkmate by any series of legal moves.
        Row::always(Rule::Timeout, Test::Unwinnable),
    ],
    grace: None,
    // The records are the platforms': their words are read as their site's
    // (by the `Site` tag).
    place: None,
    words: &[],
    names_flagging_side: false,
    claim_alike: false,
};
