//! The shape of a site's rulebook: one [`Row`] per cell of SPEC's site
//! table, so that a site's rule is changed by one edit of its file, and
//! the predicates the rows name.

use shakmaty::{Bitboard, Board, Color, Role};

use super::{Rule, Ruling, Site};

/// A day: (year, month, day).
pub use crate::laws::Day;

/// What a row of a rulebook decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Test {
    /// The game is drawn by itself when the material on the board is this.
    Material(Material),
    /// The game is drawn by itself at this many half-moves without a
    /// capture or a pawn move.
    HalfMoves(u32),
    /// The game is drawn by itself when a position occurs this many times
    /// (by the Laws' identity of positions).
    Occurrences(u32),
    /// A loss on time is a draw when the side with time left has only this.
    Timeout(Timeout),
    /// The game is drawn by itself in a dead position, proven as for the
    /// Laws' 9.6 (5.2.2 today) with the audit's `--dead` effort.
    Dead,
    /// A loss on time is a draw when the side with time left cannot
    /// checkmate by any series of legal moves (the Laws' 6.9 test).
    Unwinnable,
}

/// One rule of a site: a cell of SPEC's site table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    /// The rule it is.
    pub rule: Rule,
    /// The first day of the games it applies to; `None`: every game. A
    /// game without a known date is not judged by a dated row.
    pub since: Option<Day>,
    /// What it decides.
    pub test: Test,
}

impl Row {
    /// A rule of every game of the site.
    pub const fn always(rule: Rule, test: Test) -> Row {
        Row {
            rule,
            since: None,
            test,
        }
    }

    /// Whether the row applies to a game of `date` (a dated row never
    /// applies to a game without a known date).
    pub fn applies_on(&self, date: Option<Day>) -> bool {
        match (self.since, date) {
            (None, _) => true,
            (Some(since), Some(day)) => day >= since,
            (Some(_), None) => false,
        }
    }

    /// A rule of the games from `day` on.
    pub const fn since(day: Day, rule: Rule, test: Test) -> Row {
        Row {
            rule,
            since: Some(day),
            test,
        }
    }
}

/// Where a site's record names how the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// The `Termination` tag.
    Termination,
    /// The comment just before the result at the end of the movetext.
    LastComment,
}

/// A site's rulebook: its rules, and the words its records use for its
/// rulings.
#[derive(Debug, Clone, Copy)]
pub struct Rulebook {
    /// The site.
    pub site: Site,
    /// Its rules; for a rule with several rows, the latest that applies to
    /// the game's date.
    pub rows: &'static [Row],
    /// Plies a record may go on past one of its own draws when it ends with
    /// its own ruling for it (the sites rule a little late); `None`: the
    /// draw is automatic, and a finding wherever moves followed or the
    /// result is not ½-½, as for the Laws' automatic draws.
    pub grace: Option<u32>,
    /// Where its records name the ruling (`None`: a rulebook that writes
    /// no records, whose games' records are their sites').
    pub place: Option<Place>,
    /// The words of its rulings, matched in any case anywhere in the text,
    /// the first that matches deciding; text matching none is
    /// [`Ruling::Other`].
    pub words: &'static [(&'static str, Ruling)],
    /// Its words for a loss on time start with the colour that ran out of
    /// time (`White forfeits on time`).
    pub names_flagging_side: bool,
    /// Its words for a loss on time also end a game drawn on a claim, so
    /// that a drawn record is a loss on time only where its timeout rule
    /// gives the side with time left no win (SPEC "Lost on time").
    pub claim_alike: bool,
}

/// The material draws of the sites (SPEC "Site rules", first row).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Material {
    /// Only kings and minor pieces, and either at most 3 men or bishops
    /// only, all on squares of one colour (scalachess
    /// `InsufficientMatingMaterial(board)`).
    MinorsFewOrBishopsOfOneColour,
    /// No pawns, each side K, K+B or K+N; also K+N+N against a lone K
    /// (chess.com).
    OneMinorEachOrTwoKnightsAgainstKing,
    /// At most one minor piece besides the kings (FICS).
    OneMinorInAll,
}

/// The timeout rules: when the side with time left cannot win on time
/// (SPEC "Site rules", fourth row).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timeout {
    /// A lone K; or K+N while the flagging side has only K and queens; or
    /// K and bishops, with no bishop of the other square colour on the
    /// board and no knight or pawn on the flagging side (scalachess
    /// `InsufficientMatingMaterial(board, color)`).
    LoneKingKnightOrBishops,
    /// Only K, or K and one minor piece (chess.com, FICS).
    KingAndOneMinor,
}

/// The men besides the kings.
fn men(board: &Board) -> Bitboard {
    board.occupied() & !board.kings()
}

/// Only kings, bishops and knights on the board: what every site's
/// material draw needs.
#[inline]
pub fn minors_only(board: &Board) -> bool {
    (board.pawns() | board.rooks() | board.queens()).is_empty()
}

/// All bishops on the board stand on squares of one colour.
fn bishops_of_one_colour(board: &Board) -> bool {
    let b = board.bishops();
    (b & Bitboard::LIGHT_SQUARES).is_empty() || (b & Bitboard::DARK_SQUARES).is_empty()
}

impl Material {
    /// Whether the site draws the game by itself on this material.
    #[inline]
    pub fn holds(self, board: &Board) -> bool {
        if !minors_only(board) {
            return false;
        }
        match self {
            Material::MinorsFewOrBishopsOfOneColour => {
                board.occupied().count() <= 3
                    || (board.knights().is_empty() && bishops_of_one_colour(board))
            }
            Material::OneMinorEachOrTwoKnightsAgainstKing => {
                let minors = |c: Color| men(board) & board.by_color(c);
                let one_each = Color::ALL.iter().all(|&c| minors(c).count() <= 1);
                let two_knights = Color::ALL.iter().any(|&c| {
                    minors(c).count() == 2
                        && (minors(c) & board.knights()) == minors(c)
                        && minors(!c).is_empty()
                });
                one_each || two_knights
            }
            Material::OneMinorInAll => men(board).count() <= 1,
        }
    }
}

impl Timeout {
    /// Whether the side with time left, `winner`, cannot win on time here
    /// (the site scores the loss on time as a draw).
    pub fn draws(self, board: &Board, winner: Color) -> bool {
        let own = men(board) & board.by_color(winner);
        let theirs = men(board) & board.by_color(!winner);
        match self {
            Timeout::LoneKingKnightOrBishops => {
                let only = |role: Role| (own & !board.by_role(role)).is_empty();
                if own.is_empty() {
                    true
                } else if own.count() == 1 && only(Role::Knight) {
                    (theirs & !board.queens()).is_empty()
                } else if only(Role::Bishop) {
                    bishops_of_one_colour(board)
                        && (theirs & (board.knights() | board.pawns())).is_empty()
                } else {
                    false
                }
            }
            Timeout::KingAndOneMinor => {
                own.count() <= 1 && (own & (board.bishops() | board.knights())) == own
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    fn board(fen: &str) -> Board {
        fen.parse::<Fen>().unwrap().as_setup().board.clone()
    }

    #[test]
    fn material_draws_by_site() {
        let lichess = Material::MinorsFewOrBishopsOfOneColour;
        let chesscom = Material::OneMinorEachOrTwoKnightsAgainstKing;
        let fics = Material::OneMinorInAll;
        let kn_k = board("8/8/8/4k3/8/8/8/4K1N1");
        let kbb_k_one = board("8/8/8/4k3/8/8/8/2B1KB2"); // c1 and f1: dark, light
        let kb_kb_same = board("8/8/8/4k3/8/b7/8/2B1K3"); // a3 and c1: both dark
        let kb_kb_other = board("8/8/8/4k3/8/8/b7/2B1K3"); // a2 light, c1 dark
        let knn_k = board("8/8/8/4k3/8/8/8/1N2K1N1");
        let knn_kp = board("8/8/8/4k3/4p3/8/8/1N2K1N1");
        let kn_kn = board("8/8/3n4/4k3/8/8/8/4K1N1");
        for (b, l, c, f) in [
            (&kn_k, true, true, true),
            (&kbb_k_one, false, false, false),
            (&kb_kb_same, true, true, false),
            (&kb_kb_other, false, true, false),
            (&knn_k, false, true, false),
            (&knn_kp, false, false, false),
            (&kn_kn, false, true, false),
        ] {
            assert_eq!(lichess.holds(b), l, "lichess {b:?}");
            assert_eq!(chesscom.holds(b), c, "chesscom {b:?}");
            assert_eq!(fics.holds(b), f, "fics {b:?}");
        }
    }

    #[test]
    fn timeout_draws_by_site() {
        let lichess = Timeout::LoneKingKnightOrBishops;
        let others = Timeout::KingAndOneMinor;
        // White has time left in each.
        let kn_kq = board("8/8/8/4k3/8/3q4/8/4K1N1");
        let kn_kqp = board("8/8/8/4k3/4p3/3q4/8/4K1N1");
        let kb_kp = board("8/8/8/4k3/4p3/8/8/2B1K3");
        let kb_kb_same = board("8/8/8/4k3/8/b7/8/2B1K3");
        let kb_kr = board("8/8/8/4k3/8/r7/8/2B1K3");
        let kr_k = board("8/8/8/4k3/8/8/8/R3K3");
        for (b, l, o) in [
            (&kn_kq, true, true),
            (&kn_kqp, false, true),
            (&kb_kp, false, true),
            (&kb_kb_same, true, true),
            (&kb_kr, true, true),
            (&kr_k, false, false),
        ] {
            assert_eq!(lichess.draws(b, Color::White), l, "lichess {b:?}");
            assert_eq!(others.draws(b, Color::White), o, "others {b:?}");
        }
    }
}
