//! Site rules (SPEC "Site rules"): a game played on a site with a
//! rulebook here is also judged by that site's own rules, and each place
//! where its record contradicts them is a `site_rule` finding. The Laws'
//! findings do not change: a site's rule is not the Laws.
//!
//! The rulebooks are data, one file per site ([`lichess`], [`chesscom`],
//! [`fics`]) and one for FIDE's online regulations ([`fide_online`],
//! chosen only by `--site fide-online`), each rule one [`book::Row`] with its source; the game's date
//! (`Date`, else `UTCDate`) picks the version of a rule a site changed.
//! What a record says (the ruling it names, a loss on time) is read in
//! [`record`], in the words of the site that wrote it.

use shakmaty::{Chess, Color, Position};

use super::track::DrawTrack;
use super::{At, End};
use crate::finding::{Detail, Finding, Spot};
use crate::kind::Kind;
use crate::laws::Day;
use crate::split::RawGame;

pub use crate::site::{Rule, Site, SiteMode, UnknownSite};

pub mod book;
pub mod chesscom;
pub mod fics;
pub mod fide_online;
pub mod lichess;
pub mod record;

use book::{minors_only, Material, Rulebook, Test, Timeout};
use record::Record;

/// A site's rulebook.
pub fn book(site: Site) -> &'static Rulebook {
    match site {
        Site::Lichess => &lichess::BOOK,
        Site::Chesscom => &chesscom::BOOK,
        Site::Fics => &fics::BOOK,
        Site::FideOnline => &fide_online::BOOK,
    }
}

/// How a site's record says the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ruling {
    /// A draw by repetition.
    Repetition,
    /// A draw by insufficient material.
    Material,
    /// A draw by the 50-move rule.
    FiftyMoves,
    /// A draw by stalemate.
    Stalemate,
    /// A loss on time: scored as a win, or as a draw against material that
    /// cannot mate.
    OnTime,
    /// Anything else the record names: an agreement, a resignation, a
    /// checkmate, an abandoned game.
    Other,
}

impl Ruling {
    /// One of the site's own draws (a game the site ended by itself).
    fn ends_by_itself(self) -> bool {
        matches!(
            self,
            Ruling::Repetition | Ruling::Material | Ruling::FiftyMoves | Ruling::Stalemate
        )
    }
}

/// SPEC: a record that ends with the site's own ruling at most this many
/// plies after its rule applied is consistent (the sites rule a little
/// late, or count positions a little differently).
pub const LATE: u32 = 4;

/// A game's rules of its site, read from its rulebook for its date.
#[derive(Debug, Clone, Copy, Default)]
struct Rules {
    material: Option<Material>,
    fifty: Option<u32>,
    repetition: Option<u32>,
    timeout: Option<Timeout>,
    /// The Laws' dead position (9.6) is an automatic draw.
    dead: bool,
    /// The Laws' 6.9 test decides a loss on time automatically.
    unwinnable: bool,
    /// [`Rulebook::grace`].
    grace: Option<u32>,
}

impl Rules {
    fn of(book: &Rulebook, date: Option<Day>) -> Rules {
        let mut rules = Rules {
            grace: book.grace,
            ..Rules::default()
        };
        for row in book.rows.iter().filter(|row| row.applies_on(date)) {
            match row.test {
                Test::Material(m) => rules.material = Some(m),
                Test::HalfMoves(n) => rules.fifty = Some(n),
                Test::Occurrences(n) => rules.repetition = Some(n),
                Test::Timeout(t) => rules.timeout = Some(t),
                Test::Dead => rules.dead = true,
                Test::Unwinnable => rules.unwinnable = true,
            }
        }
        rules
    }
}

/// The site's rules over a game: where each of its own draws first
/// applied, and what its record names.
#[derive(Default)]
pub struct SiteRules {
    mode: SiteMode,
    site: Option<Site>,
    rules: Rules,
    record: Record,
    material: DrawTrack,
    fifty: DrawTrack,
    repetition: DrawTrack,
    /// Some position stood three times (by the Laws' identity).
    threefold: bool,
    /// The half-move clock at which the site draws by itself (`u32::MAX`:
    /// never).
    clock: u32,
}

impl SiteRules {
    /// Judged by the sites `mode` picks.
    pub fn new(mode: SiteMode) -> SiteRules {
        SiteRules {
            mode,
            ..SiteRules::default()
        }
    }

    /// Ready for `game`, played on `day` (SPEC: by `Date`, else `UTCDate`).
    pub fn start(&mut self, game: &RawGame<'_>, day: Option<Day>) {
        self.site = self.mode.site_of(game);
        self.record = Record::read(record::writer(self.mode, game), game, day);
        self.material = DrawTrack::default();
        self.fifty = DrawTrack::default();
        self.repetition = DrawTrack::default();
        self.threefold = false;
        let Some(site) = self.site else {
            return;
        };
        let book = book(site);
        self.rules = Rules::of(book, day);
        self.clock = self.rules.fifty.unwrap_or(u32::MAX);
    }

    /// SPEC "Lost on time": the side that ran out of time, when the game
    /// ending in `pos` with `result` was lost on time ([`Record::flagged`]).
    pub fn flagged(&self, pos: &Chess, result: &[u8]) -> Option<Color> {
        self.record.flagged(pos, result)
    }

    /// At P*i*, which has occurred `occurrences` times: where the site's
    /// own draws apply. Not in a checkmate or a stalemate (the game ended
    /// there first): a position that occurred before is neither, and the
    /// legal moves are asked for only when a rule holds.
    #[inline]
    pub fn position(&mut self, at: &At<'_>, occurrences: u32) {
        if self.site.is_none() {
            return;
        }
        // Every rule needs a third occurrence (the repetitions, and a
        // ruling's threefold), a clock, or a board without pawns, rooks and
        // queens (each site's material draw has only minor pieces): most
        // positions have none of them.
        let pos = at.pos;
        if occurrences < 3 && pos.halfmoves() < self.clock && !minors_only(pos.board()) {
            return;
        }
        self.rules_at(at, occurrences);
    }

    /// [`SiteRules::position`] past its gate.
    #[inline(never)]
    fn rules_at(&mut self, at: &At<'_>, occurrences: u32) {
        let (pos, rules) = (at.pos, &self.rules);
        self.threefold |= occurrences >= 3;
        if let Some(n) = rules.repetition {
            if occurrences >= n && self.repetition.first.is_none() {
                self.repetition.hit(at.ply, pos);
            }
        }
        if let Some(n) = rules.fifty {
            if self.fifty.first.is_none() && pos.halfmoves() >= n && !at.legal().is_empty() {
                self.fifty.hit(at.ply, pos);
            }
        }
        if let Some(m) = rules.material {
            if self.material.first.is_none() && m.holds(pos.board()) && !at.legal().is_empty() {
                self.material.hit(at.ply, pos);
            }
        }
    }

    /// The findings, after the Laws' own (which a rulebook that makes the
    /// Laws' tests automatic reads): each of the site's own draws the
    /// record went on past or did not score as a draw, a loss on time scored as a win that the
    /// site's timeout rule draws, and a ruling named that the game does not
    /// support. An invalid game is judged only where it went on more than
    /// [`LATE`] plies past a draw. Returns the site, and whether the ruling
    /// named was supported (`None`: none was checked).
    pub fn finish(&self, end: &End<'_>, out: &mut Vec<Finding>) -> (Option<Site>, Option<bool>) {
        let Some(site) = self.site else {
            return (None, None);
        };
        // A rulebook that writes no records (FIDE's regulations) checks no
        // site's rulings: the words are the platform's, for its own rules.
        let named = match book(site).place {
            Some(_) => self.record.named.map(|n| n.ruling),
            None => None,
        };
        let decided = matches!(end.result, b"1-0" | b"0-1");
        for (rule, track) in [
            (Rule::Material, &self.material),
            (Rule::FiftyMoves, &self.fifty),
            (Rule::Repetition, &self.repetition),
        ] {
            let Some(first) = &track.first else { continue };
            let after = end.n - first.ply;
            let broken = match self.rules.grace {
                Some(late) => {
                    after > late
                        || end.valid
                            && (decided || after > 0 && named.is_some_and(|r| !r.ends_by_itself()))
                }
                // Applied by the platform itself: as the Laws' automatic
                // draws are reported.
                None => !end.valid || after > 0 || !end.drawn(),
            };
            if broken {
                out.push(finding(site, rule, first.ply, &first.pos, first.spot()));
            }
        }
        self.automatic_laws(site, out);
        let Some(legal) = end.legal else {
            return (Some(site), None);
        };
        let pos = end.pos;
        let board = pos.board();
        let (rule, supported) = match (end.flagged, named) {
            // One definition of a loss on time for every rule (SPEC "Lost
            // on time"), whatever words the record used.
            (Some(flagged), _) => {
                let Some(timeout) = self.rules.timeout else {
                    return (Some(site), None);
                };
                let draws = timeout.draws(board, !flagged);
                if decided {
                    // A win on time the site's own rule draws.
                    (Rule::Timeout, !draws)
                } else if end.drawn() {
                    // A draw against material that cannot win on time.
                    (Rule::Ruling, draws)
                } else {
                    return (Some(site), None);
                }
            }
            (None, Some(Ruling::Repetition)) => (Rule::Ruling, self.threefold),
            (None, Some(Ruling::Material)) => (
                Rule::Ruling,
                self.rules.material.is_some_and(|m| m.holds(board)),
            ),
            (None, Some(Ruling::FiftyMoves)) => (Rule::Ruling, pos.halfmoves() >= 100),
            (None, Some(Ruling::Stalemate)) => (Rule::Ruling, legal.is_empty() && !pos.is_check()),
            // Words for a loss on time that the definition does not take
            // (a Lichess draw claimed after the opponent left), and the
            // rest: nothing to check.
            (None, Some(Ruling::OnTime | Ruling::Other) | None) => return (Some(site), None),
        };
        if !supported {
            out.push(finding(site, rule, end.n, pos, Spot::of(pos)));
        }
        (Some(site), Some(supported))
    }
}

impl SiteRules {
    /// A rulebook that makes the Laws' 9.6 and 6.9 automatic (FIDE's
    /// online regulations, Arts 5.4 and 4.4): its draw applied where the
    /// Laws' `dead_position` or `unwinnable_flag` stands, with the same
    /// proof, reported when the Laws report it (moves followed, or the
    /// result is not ½-½; a win on time). Called after the Laws' findings.
    fn automatic_laws(&self, site: Site, out: &mut Vec<Finding>) {
        let found: Vec<Finding> = [
            (self.rules.dead, Kind::DeadPosition, Rule::DeadPosition),
            (self.rules.unwinnable, Kind::UnwinnableFlag, Rule::Timeout),
        ]
        .into_iter()
        .filter(|&(on, ..)| on)
        .filter_map(|(_, kind, rule)| {
            let laws = out.iter().find(|f| f.kind == kind)?;
            Some(Finding {
                kind: Kind::SiteRule,
                ply: laws.ply,
                side: laws.side,
                occurrences: 1,
                detail: Detail::SiteRule { site, rule },
                at: laws.at.clone(),
            })
        })
        .collect();
        out.extend(found);
    }
}

/// A `site_rule` finding at P*ply*.
fn finding(site: Site, rule: Rule, ply: u32, pos: &Chess, at: Spot) -> Finding {
    Finding {
        kind: Kind::SiteRule,
        ply,
        side: pos.turn(),
        occurrences: 1,
        detail: Detail::SiteRule { site, rule },
        at,
    }
}
