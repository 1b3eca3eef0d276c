//! What the rules report: one [`Finding`] per game and kind (SPEC "What is
//! checked in each game").

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, EnPassantMode, Move, Position};

pub use crate::kind::Kind;
use crate::site::{Rule, Site};

/// How a draw claim could have been made (Art. 9.2 / 9.3 (a) or (b)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// (b): the position or the 50 moves are already on the board.
    Occurred,
    /// (a): by announcing the move that brings them about.
    Announced,
}

impl Via {
    /// The SPEC's name (`via` in the reports).
    pub fn name(self) -> &'static str {
        match self {
            Via::Occurred => "occurred",
            Via::Announced => "announced",
        }
    }
}

/// What the player who could have claimed got in the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The opponent won.
    Lost,
    /// The game was drawn.
    Drew,
    /// The claimant won.
    Won,
    /// The result is `*` or not a result.
    Unknown,
}

impl Outcome {
    /// The outcome for `color` of a game with this result.
    pub fn for_color(color: Color, result: &[u8]) -> Outcome {
        match result {
            b"1/2-1/2" => Outcome::Drew,
            b"1-0" if color.is_white() => Outcome::Won,
            b"1-0" => Outcome::Lost,
            b"0-1" if color.is_black() => Outcome::Won,
            b"0-1" => Outcome::Lost,
            _ => Outcome::Unknown,
        }
    }

    /// The SPEC's name (`outcome` in the reports).
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Lost => "lost",
            Outcome::Drew => "drew",
            Outcome::Won => "won",
            Outcome::Unknown => "unknown",
        }
    }
}

/// How an `Unwinnable` answer was proven.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Proof {
    /// The side has insufficient material (Art. 9.6 examples; shakmaty's
    /// `has_insufficient_material`).
    Material,
    /// A semi-static proof, no move played: the locked pawns and the
    /// pieces' regions around them leave no square where the king could be
    /// mated ([`crate::rules::unwinnable::blocked_proof`]); or where every man may ever stand admits
    /// no mating picture ([`crate::rules::mobility::mobility_proof`]); or only a
    /// stalemate could change the pawns ([`crate::rules::stalemate::stalemate_proof`]);
    /// or every reachable position was enumerated and none changed the
    /// pawns.
    Blocked,
    /// Every reachable position was enumerated (pawn moves and captures
    /// included) and none is checkmate.
    Search,
}

impl Proof {
    /// The SPEC's name (`proof` in the reports).
    pub fn as_str(self) -> &'static str {
        match self {
            Proof::Material => "material",
            Proof::Blocked => "blocked",
            Proof::Search => "search",
        }
    }
}

/// The fields only some kinds carry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Detail {
    /// Nothing more (`fivefold`, `seventyfive_moves`).
    None,
    /// A missed claim (Art. 9.2, 9.3).
    Missed {
        /// What the claimant got in the end.
        outcome: Outcome,
        /// Whether the claim was there to make (b) or to announce (a).
        via: Via,
    },
    /// `mv` is `None` when the start position (FEN) is illegal.
    Invalid {
        /// The bad move, as written.
        mv: Option<String>,
        /// Why the move or the FEN was refused.
        reason: String,
    },
    /// A dead position and how it was proven.
    Dead {
        /// Why no checkmate is reachable.
        proof: Proof,
    },
    /// A loss on time the winner could not have won (Art. 6.9).
    Unwinnable {
        /// The side the result gives the point to.
        winner: Color,
        /// Why it could not checkmate.
        proof: Proof,
    },
    /// A loss on time scored as a draw although the side with time left
    /// could mate (Art. 6.9).
    DrawnFlag {
        /// The side with time left, to whom the Laws give the point.
        winner: Color,
        /// A mating line from the final position, in SAN with move
        /// numbers (`54. Kxh5 Ke5 55. g8=Q ...`): the proof.
        mate: String,
    },
    /// A site's own rule the record contradicts (SPEC "Site rules").
    SiteRule {
        /// The site whose rules judged the game.
        site: Site,
        /// Its rule.
        rule: Rule,
    },
    /// A result the final position contradicts (Art. 5.1, 5.2.1).
    WrongResult {
        /// The position and the result it imposes, e.g. `checkmate,
        /// expected 1-0`.
        reason: String,
    },
}

/// One finding of one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// What was found.
    pub kind: Kind,
    /// Index of the position Pi the finding is about (0 = start position).
    pub ply: u32,
    /// The colour to move in Pi.
    pub side: Color,
    /// The number of plies at which it held.
    pub occurrences: u32,
    /// The fields of this kind.
    pub detail: Detail,
    /// Where it is, for a person: Pi as FEN, its move number, the move.
    pub at: Spot,
}

/// A position of a game as a person finds it without replaying the game
/// (SPEC "Reports": `move_number`, `fen`, `san`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Spot {
    /// Pi in FEN; the e.p. square only where a legal capture exists (as
    /// python-chess writes it).
    pub fen: String,
    /// The move number of Pi: White's move *n* and Black's reply share it.
    pub move_number: u32,
    /// The move the finding is about, in SAN: the announcing move of a claim
    /// under 9.2a / 9.3a, the bad move of an invalid game (as written).
    pub san: Option<String>,
}

impl Spot {
    /// `pos` as a spot, with no move.
    pub fn of(pos: &Chess) -> Spot {
        // written straight into the string: `to_string` goes through the
        // formatter a character at a time, several times slower
        let mut fen = String::with_capacity(90);
        Fen::from_position(pos, EnPassantMode::Legal).append_to_string(&mut fen);
        Spot {
            fen,
            move_number: pos.fullmoves().get(),
            san: None,
        }
    }

    /// `pos` and the legal move `m` from it, written in SAN with its
    /// check or mate suffix.
    pub fn with_move(pos: &Chess, m: Move) -> Spot {
        Spot {
            san: Some(SanPlus::from_move(pos.clone(), m).to_string()),
            ..Spot::of(pos)
        }
    }

    /// How people write the move from this spot: `2. Ke3`, `2... Ke3`.
    pub fn move_text(&self, side: Color, san: &str) -> String {
        let dots = if side.is_white() { "." } else { "..." };
        format!("{}{dots} {san}", self.move_number)
    }
}

impl Finding {
    /// For a missed claim, what the claimant got in the end.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.detail {
            Detail::Missed { outcome, .. } => Some(outcome),
            _ => None,
        }
    }
}

/// `white` or `black`, as the reports write a colour.
pub fn side_name(color: Color) -> &'static str {
    if color.is_white() {
        "white"
    } else {
        "black"
    }
}
