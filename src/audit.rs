//! Auditing one game: replay the mainline from P0 and apply every rule at
//! every position (SPEC "What is checked in each game").

use std::cell::Cell;

use shakmaty::{fen::Fen, san::San, CastlingMode, Chess, Color, Move, MoveList, Position};

use crate::facets::Facets;
use crate::finding::{Detail, Finding, Outcome, Spot, Via};
use crate::kind::{ByKind, Kind};
use crate::laws::{Edition, Laws};
use crate::parse::{tag_text, trim, Mainline, MovetextReader, Variant};
use crate::rules::dead::{self, DeadMode, Deadness, Prover};
use crate::rules::unwinnable::{Answer, Budget, Proof};
use crate::rules::{fifty, repetition::RepetitionTable, result};
use crate::split::RawGame;

/// How a game was accounted for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Replayed to its last move.
    Analysed,
    /// Stopped at an `invalid_game` finding (Art. 3, 4): an illegal or
    /// unreadable move, or an illegal FEN.
    Invalid,
    /// Not analysed: a variant other than standard chess and Chess960.
    Skipped,
    /// Not a game: text the splitter cut as one with no tag pair, no move
    /// and no result token at its end (see [`is_no_game`]): a binary, a
    /// README, a run of NUL bytes. It keeps its place in the game index
    /// and is counted as skipped (`not_pgn`).
    NotPgn,
}

/// The tags every report line carries, present or not (SPEC "Reports").
pub const BASE_TAGS: [&str; 5] = ["White", "Black", "Date", "Result", "Site"];

/// The tags a report line carries by default besides [`BASE_TAGS`], where
/// the game has them.
pub const DEFAULT_TAGS: [&str; 7] = [
    "Event",
    "Round",
    "WhiteElo",
    "BlackElo",
    "TimeControl",
    "Termination",
    "ECO",
];

/// Which tags a game's report keeps: [`BASE_TAGS`], [`DEFAULT_TAGS`] and
/// those named, or every tag of the game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum TagSet {
    /// [`BASE_TAGS`] and [`DEFAULT_TAGS`].
    #[default]
    Default,
    /// The defaults and these.
    With(Vec<String>),
    /// Every tag of the game.
    All,
}

impl TagSet {
    /// Reads `all`, or a comma-separated list of tag names.
    pub fn parse(list: &str) -> TagSet {
        if list.trim().eq_ignore_ascii_case("all") {
            return TagSet::All;
        }
        let names: Vec<String> = list
            .split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .filter(|n| !BASE_TAGS.contains(n) && !DEFAULT_TAGS.contains(n))
            .map(String::from)
            .collect();
        if names.is_empty() {
            TagSet::Default
        } else {
            TagSet::With(names)
        }
    }

    /// The tags of `game` kept, [`BASE_TAGS`] first, each name once (the
    /// last value of a repeated name).
    fn select(&self, game: &RawGame<'_>) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        let mut keep = |name: &str, value: &[u8]| {
            if !out.iter().any(|(n, _)| n == name) {
                out.push((name.to_string(), tag_text(value)));
            }
        };
        let named: &[String] = match self {
            TagSet::With(names) => names,
            _ => &[],
        };
        for name in BASE_TAGS
            .iter()
            .chain(DEFAULT_TAGS.iter())
            .copied()
            .chain(named.iter().map(String::as_str))
        {
            if let Some(v) = game.tag(name) {
                keep(name, v);
            }
        }
        if *self == TagSet::All {
            for (name, _) in &game.tags {
                if let Ok(name) = std::str::from_utf8(name) {
                    if let Some(v) = game.tag(name) {
                        keep(name, v);
                    }
                }
            }
        }
        out
    }
}

/// The tags kept for a game's report, in order, each name once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReportTags(pub Vec<(String, String)>);

impl ReportTags {
    /// The value of tag `name`, if kept.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A game's fingerprint (SPEC "Reports": `game_id`): XXH3-128 of the
/// game's own text, carriage returns and trailing whitespace left out, so
/// the same game text has the same id wherever it stands and whatever its
/// line ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(pub u128);

impl GameId {
    /// The fingerprint of `text`, a game's own text ([`RawGame::text`]).
    pub fn of(text: &[u8]) -> GameId {
        let end = text
            .iter()
            .rposition(|b| !b.is_ascii_whitespace())
            .map_or(0, |i| i + 1);
        let text = &text[..end];
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        let mut from = 0;
        for cr in memchr::memchr_iter(b'\r', text) {
            h.update(&text[from..cr]);
            from = cr + 1;
        }
        h.update(&text[from..]);
        GameId(h.digest128())
    }
}

impl std::fmt::Display for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:032x}", self.0)
    }
}

/// Everything the audit of one game produced.
#[derive(Debug, Clone)]
pub struct GameReport {
    /// Offset of the game's first byte, relative to where its splitter
    /// started (the pipeline makes it absolute).
    pub offset: u64,
    /// Length of the game's own text, in bytes.
    pub len: u64,
    /// 1-based line of the game's first byte (the pipeline counts lines;
    /// an auditor alone leaves 0, and 1-based lines before its splitter's
    /// input are not known to it).
    pub line: u64,
    /// The game's fingerprint; present when there are findings.
    pub id: Option<GameId>,
    /// Whether the game was analysed, invalid, skipped, or no game at all.
    pub status: Status,
    /// Mainline half-moves replayed (legal moves only).
    pub plies: u32,
    /// The edition the game was judged by.
    pub edition: Edition,
    /// Sorted by ply, then by kind.
    pub findings: Vec<Finding>,
    /// Present when there are findings.
    pub tags: Option<Box<ReportTags>>,
    /// The kinds the proof engine left open (`Unknown` within its budget):
    /// whether a position of the game is dead (Art. 9.6 / 5.2.2), whether
    /// the side that won on time could still checkmate (Art. 6.9).
    pub undecided: ByKind<bool>,
    /// Tag sections swallowed by a comment of this game that ran on (see
    /// [`RawGame::swallowed`]), and whether the comment ran to the end of
    /// the input.
    pub swallowed: u32,
    /// A comment of this game was still open at the end of the input.
    pub unterminated: bool,
    /// What the statistics report breaks the game down by (read only when
    /// the auditor is asked to, see [`Auditor::with_facets`]).
    pub facets: Facets,
}

/// Per-thread state, reused from game to game.
#[derive(Default)]
pub struct Auditor {
    mainline: Mainline,
    table: RepetitionTable,
    effort: DeadMode,
    prover: Prover,
    /// The mainline moves played, for walking back from a dead final
    /// position (rare) without keeping every position.
    played: Vec<Move>,
    tags: TagSet,
    facets: bool,
}

/// The first ply at which a missed claim held, how many plies it held at,
/// and the last two of them (those the final draw may excuse).
/// The first position where something held, kept so that its FEN and SAN
/// are only written when it becomes a finding (most claims are excused by
/// a draw at the end).
struct First {
    ply: u32,
    pos: Chess,
    mv: Option<Move>,
}

impl First {
    fn spot(&self) -> Spot {
        match self.mv {
            Some(m) => Spot::with_move(&self.pos, m),
            None => Spot::of(&self.pos),
        }
    }
}

#[derive(Default)]
struct ClaimTrack {
    first: Option<(First, Via)>,
    count: u32,
    last: [Option<u32>; 2],
}

impl ClaimTrack {
    /// A claim held at `ply`; `announce` gives the announcing move (9.2a /
    /// 9.3a), asked only at the first.
    fn hit(&mut self, ply: u32, pos: &Chess, via: Via, announce: impl FnOnce() -> Option<Move>) {
        if self.first.is_none() {
            let mv = match via {
                Via::Announced => announce(),
                Via::Occurred => None,
            };
            let pos = pos.clone();
            self.first = Some((First { ply, pos, mv }, via));
        }
        self.count += 1;
        self.last = [self.last[1], Some(ply)];
    }

    /// SPEC: "A claim that could be made at Pi was missed unless the game
    /// ended drawn at Pi or at Pi+1".
    fn finding(&self, kind: Kind, n: u32, excused: bool, result: &[u8]) -> Option<Finding> {
        let (first, via) = self.first.as_ref()?;
        let (ply, side, via) = (first.ply, first.pos.turn(), *via);
        let mut count = self.count;
        if excused {
            let late = self
                .last
                .iter()
                .flatten()
                .filter(|&&p| u64::from(p) + 1 >= u64::from(n))
                .count() as u32;
            count -= late;
            if count == 0 {
                return None;
            }
        }
        Some(Finding {
            kind,
            ply,
            side,
            occurrences: count,
            detail: Detail::Missed {
                outcome: Outcome::for_color(side, result),
                via,
            },
            at: first.spot(),
        })
    }
}

/// The first ply at which an automatic draw held, and at how many.
#[derive(Default)]
struct DrawTrack {
    first: Option<First>,
    count: u32,
}

impl DrawTrack {
    fn hit(&mut self, ply: u32, pos: &Chess) {
        if self.first.is_none() {
            let pos = pos.clone();
            self.first = Some(First { ply, pos, mv: None });
        }
        self.count += 1;
    }

    /// A finding when moves were played after the game ended there, or the
    /// result is not a draw.
    fn finding(&self, kind: Kind, n: u32, valid: bool, drawn: bool) -> Option<Finding> {
        let first = self.first.as_ref()?;
        (!valid || first.ply < n || !drawn).then(|| Finding {
            kind,
            ply: first.ply,
            side: first.pos.turn(),
            occurrences: self.count,
            detail: Detail::None,
            at: first.spot(),
        })
    }
}

impl Auditor {
    /// An auditor with the default effort ([`DeadMode::Quick`]) and tags.
    pub fn new() -> Self {
        Self::default()
    }

    /// An auditor that proves dead positions with the given effort.
    pub fn with_effort(effort: DeadMode) -> Self {
        Self {
            effort,
            ..Self::default()
        }
    }

    /// Keeps these tags in the reports of games with findings.
    pub fn with_tags(mut self, tags: TagSet) -> Self {
        self.tags = tags;
        self
    }

    /// Reads every game's [`Facets`] for the statistics report.
    pub fn with_facets(mut self, facets: bool) -> Self {
        self.facets = facets;
        self
    }

    /// Audits one game.
    pub fn audit(&mut self, game: &RawGame<'_>, laws: Laws) -> GameReport {
        let next = Cell::new(&[][..]);
        let mut reader = MovetextReader::new(&next);
        self.audit_with(game, laws, &mut reader)
    }

    /// Audits one game, reading its movetext with `reader` (one reader can
    /// serve every game of a chunk).
    pub fn audit_with<'a>(
        &mut self,
        game: &RawGame<'a>,
        laws: Laws,
        reader: &mut MovetextReader<'a>,
    ) -> GameReport {
        let edition = laws.edition_for(game.tag("Date"));
        let mut report = GameReport {
            offset: game.offset as u64,
            len: game.text.len() as u64,
            line: 0,
            id: None,
            status: Status::Analysed,
            plies: 0,
            edition,
            findings: Vec::new(),
            tags: None,
            undecided: ByKind::default(),
            swallowed: game.swallowed,
            unterminated: game.unterminated,
            facets: if self.facets {
                Facets::of(game)
            } else {
                Facets::default()
            },
        };
        let variant = Variant::from_tag(game.tag("Variant"));
        if variant == Variant::Other {
            report.status = Status::Skipped;
            return report;
        }
        reader.read(game.movetext, &mut self.mainline);
        if is_no_game(game, &self.mainline) {
            report.status = Status::NotPgn;
            return report;
        }
        // SPEC: the Result tag; when it is missing, the result token at the
        // end of the movetext; `*` means unknown.
        let result: &[u8] = match game.tag("Result") {
            Some(r) => trim(r),
            None => self.mainline.result_token.unwrap_or("*").as_bytes(),
        };

        match start_position(game, variant) {
            Ok(p0) => self.replay(p0, game, edition, result, &mut report),
            Err((side, reason)) => {
                report.status = Status::Invalid;
                report.findings.push(Finding {
                    kind: Kind::InvalidGame,
                    ply: 0,
                    side,
                    occurrences: 1,
                    detail: Detail::Invalid { mv: None, reason },
                    at: illegal_fen_spot(game),
                });
            }
        }
        if !report.findings.is_empty() {
            report.findings.sort_by_key(|f| (f.ply, f.kind));
            report.tags = Some(Box::new(ReportTags(self.tags.select(game))));
            report.id = Some(GameId::of(game.text));
        }
        report
    }

    fn replay(
        &mut self,
        p0: Chess,
        game: &RawGame<'_>,
        edition: Edition,
        result: &[u8],
        report: &mut GameReport,
    ) {
        let sans = &self.mainline.sans;
        let table = &mut self.table;
        table.clear();
        let mut threefold = ClaimTrack::default();
        let mut fifty_claims = ClaimTrack::default();
        let mut fivefold = DrawTrack::default();
        let mut seventyfive = DrawTrack::default();
        let mut dead_pos = DrawTrack::default();
        let mut dead_proof: Option<Proof> = None;
        let budget = self.effort.budget();
        let prover = &mut self.prover;
        let played = &mut self.played;
        played.clear();
        let automatic = edition.has_automatic_draws();

        let start = budget.is_some().then(|| p0.clone());
        let mut pos = p0;
        let mut invalid: Option<Finding> = None;
        let mut legal = MoveList::new();
        let mut ply: u32 = 0;
        loop {
            let turn = pos.turn();
            // Resolve the next move first: the position it is played from
            // is only analysed when the move is legal (SPEC, invalid games).
            let next: Option<Move> = match sans.get(ply as usize) {
                None => None,
                Some(san_plus) => {
                    let resolved = match san_plus.san {
                        San::Null => Err("null move".to_string()),
                        san => crate::san::resolve(&pos, san).map_err(|e| e.to_string()),
                    };
                    match resolved {
                        Ok(m) => Some(m),
                        Err(reason) => {
                            let written = san_plus.to_string();
                            invalid = Some(Finding {
                                kind: Kind::InvalidGame,
                                ply,
                                side: turn,
                                occurrences: 1,
                                at: Spot {
                                    san: Some(written.clone()),
                                    ..Spot::of(&pos)
                                },
                                detail: Detail::Invalid {
                                    mv: Some(written),
                                    reason,
                                },
                            });
                            break;
                        }
                    }
                }
            };

            let count = table.push(&pos);
            let clock = pos.halfmoves();

            // Art. 9.2: (b) occurred, else (a) announced. A position that
            // occurred before had a move played from it, so it is neither
            // mate nor stalemate: no move generation is needed here.
            if count >= 3 {
                threefold.hit(ply, &pos, Via::Occurred, || None);
            } else if table.has_targets(!turn) && table.can_announce(&pos) {
                threefold.hit(ply, &pos, Via::Announced, || {
                    announcing_move(next, table.announcing_moves(&pos))
                });
            }
            // Art. 9.3
            if clock >= 99 {
                legal = pos.legal_moves();
                if let Some(via) = fifty::claim(&pos, &legal) {
                    fifty_claims.hit(ply, &pos, via, || {
                        announcing_move(next, legal.iter().copied().filter(|m| !m.is_zeroing()))
                    });
                }
            }
            // Art. 9.6.1 / 9.6.2 (2014+)
            if automatic {
                let five = match edition {
                    Edition::Laws2018 => count >= 5,
                    _ => table.consecutive_fivefold(),
                };
                if five {
                    fivefold.hit(ply, &pos);
                }
                if clock >= 150 && fifty::seventyfive(&pos, &legal) {
                    seventyfive.hit(ply, &pos);
                }
            }
            // Art. 9.6 (2001) / 5.2.2 by material, at every ply; beyond
            // material, once per game after the loop. A dead position
            // stays dead: once proven, every later position is dead too.
            if dead_proof.is_none() && dead::is_dead_by_material(&pos) {
                dead_proof = Some(Proof::Material);
            }
            if dead_proof.is_some() {
                dead_pos.hit(ply, &pos);
            }

            let Some(m) = next else { break };
            // After an irreversible move no earlier position can recur: a
            // capture or pawn move, a move from a position with a legal e.p.
            // capture, or a change of castling rights (see rules::repetition).
            let rights = pos.castles().castling_rights();
            let from_ep = pos.legal_ep_square().is_some();
            let mover = pos.turn();
            if start.is_some() {
                played.push(m);
            }
            pos.play_unchecked(m);
            let reversible =
                !from_ep && pos.castles().castling_rights() == rights && table.advance(&m, mover);
            if !reversible {
                table.clear();
            }
            ply += 1;
        }

        let n = ply;
        let valid = invalid.is_none();
        // The last position analysed: the final one, or for an invalid
        // game the one before the bad move's.
        let last = if valid { Some(n) } else { n.checked_sub(1) };
        // Art. 6.9: who won on time, asked at the final position.
        let flag_winner = if valid && result::lost_on_time(game.tag("Termination")) {
            result::winner(result)
        } else {
            None
        };
        let final_legal = valid.then(|| pos.legal_moves());
        let mut flag: Option<Answer> = None;
        // Art. 9.6 / 5.2.2 beyond material: one question per game, at the
        // last position not yet dead by material (a dead position stays
        // dead, so the game reached one exactly when that one is), then
        // back ply by ply to the first dead one.
        if let (Some(budget), Some(start)) = (budget, &start) {
            let material_from = dead_pos.first.as_ref().map(|f| f.ply);
            let asked = match material_from {
                Some(m) => m.checked_sub(1),
                None => last,
            };
            // A stalemate is dead too (no mate can follow), as SPEC's
            // definition reads; a mate is not (one just happened).
            if let Some(q) = asked {
                let final_moves = final_legal.as_ref().filter(|_| q == n);
                let question = if let Some(legal) = final_moves {
                    let winner_first = flag_winner.filter(|w| !pos.has_insufficient_material(*w));
                    let (deadness, answer) = prover.deadness_for(&pos, budget, winner_first, legal);
                    flag = answer;
                    deadness
                } else {
                    prover.deadness(&replay_to(start, &played[..q as usize]), budget)
                };
                match question {
                    Deadness::Dead(proof) => {
                        let (first, first_pos, proof) =
                            walk_back(prover, budget, start, &played[..q as usize], proof);
                        let analysed = if valid { n + 1 } else { n };
                        dead_pos.first = Some(First {
                            ply: first,
                            pos: first_pos,
                            mv: None,
                        });
                        dead_pos.count = analysed - first;
                        dead_proof = Some(dead_proof.map_or(proof, |p| p.max(proof)));
                    }
                    Deadness::Alive => {}
                    Deadness::Unknown => {
                        // Only the final position's question decides whether
                        // the game ended dead; before a material draw it
                        // only decides when.
                        if material_from.is_none() {
                            report.undecided[Kind::DeadPosition] = true;
                        }
                    }
                }
            }
        }
        let drawn = result == b"1/2-1/2";
        let excused = valid && drawn;
        let out = &mut report.findings;
        out.extend(threefold.finding(Kind::MissedThreefold, n, excused, result));
        out.extend(fifty_claims.finding(Kind::MissedFiftyMoves, n, excused, result));
        out.extend(fivefold.finding(Kind::Fivefold, n, valid, drawn));
        out.extend(seventyfive.finding(Kind::SeventyfiveMoves, n, valid, drawn));
        out.extend(
            dead_pos
                .finding(Kind::DeadPosition, n, valid, drawn)
                .map(|f| Finding {
                    detail: Detail::Dead {
                        proof: dead_proof.unwrap_or(Proof::Material),
                    },
                    ..f
                }),
        );
        report.plies = n;

        if let Some(f) = invalid {
            out.push(f);
            report.status = Status::Invalid;
            // SPEC: no end-of-game checks, the final position is unknown.
            return;
        }
        let legal = final_legal.unwrap_or_default();
        if let Some((expected, reason)) = result::forced_result(&pos, &legal) {
            if result != expected {
                out.push(Finding {
                    kind: Kind::WrongResult,
                    ply: n,
                    side: pos.turn(),
                    occurrences: 1,
                    detail: Detail::WrongResult {
                        reason: reason.to_string(),
                    },
                    at: Spot::of(&pos),
                });
            }
        }
        if let Some(winner) = flag_winner {
            // `None`: not examined (`--dead material` only asks about
            // material).
            let answer = match (dead_proof, budget) {
                (Some(proof), _) => Some(Answer::Unwinnable(proof)),
                (None, _) if pos.has_insufficient_material(winner) => {
                    Some(Answer::Unwinnable(Proof::Material))
                }
                (None, Some(budget)) => {
                    Some(flag.unwrap_or_else(|| prover.can_mate(&pos, winner, budget)))
                }
                (None, None) => None,
            };
            match answer {
                Some(Answer::Unwinnable(proof)) => out.push(Finding {
                    kind: Kind::UnwinnableFlag,
                    ply: n,
                    side: pos.turn(),
                    occurrences: 1,
                    detail: Detail::Unwinnable { winner, proof },
                    at: Spot::of(&pos),
                }),
                Some(Answer::Unknown) => report.undecided[Kind::UnwinnableFlag] = true,
                Some(Answer::Winnable(_)) | None => {}
            }
        }
    }
}

/// Whether the text the splitter cut as a game is no game at all: it has
/// no tag pair (none whose name is a PGN symbol: a letter or digit, then
/// letters, digits and `_+#=:-`), pgn-reader reads no move in it, and it
/// does not end with a result token (`1-0`, `0-1`, `1/2-1/2`, `*`: in PGN
/// the game termination marker ends the movetext). A result token amid
/// other text does not make a game: `*` is a token wherever it stands, so
/// it is all over binaries and random bytes.
pub fn is_no_game(game: &RawGame<'_>, mainline: &Mainline) -> bool {
    mainline.sans.is_empty()
        && !game.tags.iter().any(|(name, _)| is_symbol(name))
        && !(mainline.result_token.is_some() && ends_with_result(game.movetext))
}

/// A tag name is a symbol (PGN standard 8.1.1), which (7) starts with a
/// letter or digit and goes on with letters, digits and `_+#=:-`.
fn is_symbol(name: &[u8]) -> bool {
    name.first().is_some_and(u8::is_ascii_alphanumeric)
        && name
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b"_+#=:-".contains(&b))
}

/// Whether `text`, trailing whitespace aside, ends with a result token as
/// pgn-reader reads one (its dashes may be `-`, `–` or `—`, its halves
/// `1/2` or `½`).
fn ends_with_result(text: &[u8]) -> bool {
    let text = &text[..text
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |i| i + 1)];
    if text.ends_with(b"*") {
        return true;
    }
    ["-", "\u{2013}", "\u{2014}"].iter().any(|dash| {
        [("1", "0"), ("0", "1"), ("1/2", "1/2"), ("\u{bd}", "\u{bd}")]
            .iter()
            .any(|(a, b)| {
                text.strip_suffix(b.as_bytes())
                    .and_then(|t| t.strip_suffix(dash.as_bytes()))
                    .is_some_and(|t| t.ends_with(a.as_bytes()))
            })
    })
}

/// The position after the first `moves` from `start`.
fn replay_to(start: &Chess, moves: &[Move]) -> Chess {
    let mut pos = start.clone();
    for &m in moves {
        pos.play_unchecked(m);
    }
    pos
}

/// From a dead position after `moves`, back ply by ply while the positions
/// before it are proven dead too: the first dead ply, its position and the
/// strongest proof used.
fn walk_back(
    prover: &mut Prover,
    budget: Budget,
    start: &Chess,
    moves: &[Move],
    proof: Proof,
) -> (u32, Chess, Proof) {
    let mut positions = Vec::with_capacity(moves.len() + 1);
    positions.push(start.clone());
    for &m in moves {
        let mut next = positions[positions.len() - 1].clone();
        next.play_unchecked(m);
        positions.push(next);
    }
    let mut first = moves.len();
    let mut proof = proof;
    while first > 0 {
        match prover.deadness(&positions[first - 1], budget) {
            Deadness::Dead(earlier) => {
                proof = proof.max(earlier);
                first -= 1;
            }
            _ => break,
        }
    }
    let pos = positions.swap_remove(first);
    (first as u32, pos, proof)
}

/// P0: the `FEN` tag whenever there is one (with or without `SetUp`), else
/// the standard start. An illegal FEN gives the side to move (as far as it
/// can be read) and the reason.
fn start_position(game: &RawGame<'_>, variant: Variant) -> Result<Chess, (Color, String)> {
    let Some(fen) = game.tag("FEN") else {
        return Ok(Chess::default());
    };
    let fen = trim(fen);
    let mode = match variant {
        Variant::Chess960 => CastlingMode::Chess960,
        _ => CastlingMode::Standard,
    };
    match Fen::from_ascii(fen) {
        Ok(parsed) => {
            let turn = parsed.as_setup().turn;
            parsed
                .into_position::<Chess>(mode)
                .map_err(|e| (turn, format!("illegal FEN: {e}")))
        }
        Err(e) => {
            let guess = match fen
                .split(|b| b.is_ascii_whitespace())
                .filter(|f| !f.is_empty())
                .nth(1)
            {
                Some(b"b") => Color::Black,
                _ => Color::White,
            };
            Err((guess, format!("illegal FEN: {e}")))
        }
    }
}

/// The move to name for a claim announced from a position: the move played
/// there when it is one that announces it (the player wrote it and played
/// on), else the first of `candidates`.
fn announcing_move(
    played: Option<Move>,
    candidates: impl IntoIterator<Item = Move>,
) -> Option<Move> {
    let mut first = None;
    for m in candidates {
        if Some(m) == played {
            return Some(m);
        }
        first = first.or(Some(m));
    }
    first
}

/// The spot of an illegal FEN: the FEN as written, its move number where it
/// can be read.
fn illegal_fen_spot(game: &RawGame<'_>) -> Spot {
    let fen = game.tag("FEN").map(trim).unwrap_or_default();
    Spot {
        fen: String::from_utf8_lossy(fen).into_owned(),
        move_number: Fen::from_ascii(fen)
            .map(|f| f.as_setup().fullmoves.get())
            .unwrap_or(1),
        san: None,
    }
}
