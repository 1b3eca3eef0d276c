//! Judging one version of a game with the audit's own code: the events it
//! shows and the board's state.
//!
//! Three passes over the mainline, none of which implements a Law anew:
//!
//! - a replay that calls the rule hooks the audit's replay calls
//!   ([`Repetition::position`] and [`repetition::claim`] for Art. 9.2,
//!   [`fifty::claim`] for Art. 9.3) and reads at each position whether a
//!   claim can be made there, how often the position stood and the
//!   half-move clock: the audit reports a missed claim once, at its first
//!   ply, with the number of plies at which it held, and these are those
//!   plies;
//! - the audit of the game with its result left open (`*`): where the game
//!   ended by the Laws (fivefold, 75 moves, dead position, checkmate,
//!   stalemate), whether or not a result is written yet;
//! - once a result is written, the audit of the game as it is: the
//!   findings that judge the result (wrong result, losses on time, site
//!   rules).

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Move, Position};

use super::event::{Clocks, Event, EventKind, SCHEMA_VERSION};
use super::identity::GameKey;
use super::Reported;
use crate::audit::{game_day, resolve, start_position, Auditor, GameReport};
use crate::finding::{side_name, Detail, Finding, Kind, Spot, Via};
use crate::laws::{Edition, Laws};
use crate::parse::{tag_text, trim, Mainline, MovetextMap, Variant};
use crate::rules::repetition::{self, Repetition};
use crate::rules::{fifty, At};
use crate::split::RawGame;

/// The state of one board, for the live page.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Board {
    /// The game's identity ([`GameKey`]).
    pub game: String,
    /// The file (or `-`) of its current version.
    pub source: String,
    /// The game as people name it: event, round, players.
    pub label: String,
    /// Half-moves played (the position shown is P*ply*).
    pub ply: u32,
    /// The last move, as people write it.
    pub last_move: Option<String>,
    /// The position, in FEN.
    pub fen: String,
    /// How many times the position has stood (Art. 9.2).
    pub repetitions: u32,
    /// The half-move clock: half-moves since the last capture or pawn move
    /// (Art. 9.3: a claim from 100).
    pub halfmoves: u32,
    /// The claims the player to move may make now.
    pub open_claims: Vec<String>,
    /// How and where the game ended by the Laws, if it has.
    pub game_over: Option<String>,
    /// The result written (`*` while the game goes on).
    pub result: String,
    /// The clocks, from `[%clk]` comments.
    pub clock: Clocks,
    /// What is wrong with the record, if anything (an illegal move).
    pub problem: Option<String>,
}

/// Where the replay of a later version of a game can take up: the start
/// of the last run of reversible moves the replay reached. The repetition
/// table holds no position before it, so a replay started there with an
/// empty table reads the same counts and claims as one from P0. Valid for
/// a version with the same start (its `FEN`, `SetUp` and `Variant` tags),
/// the same edition of the Laws, and the same moves before it.
pub(crate) struct Resume {
    start: [Option<Vec<u8>>; 3],
    edition: Edition,
    ply: u32,
    pos: Chess,
    /// The replay at the version's last position, its table holding it: a
    /// version that only adds moves (a live board's next one) takes up
    /// there, and replays its new moves alone.
    last: Option<Box<Last>>,
}

/// The replay's state at the last position of a version: P*ply*, pushed on
/// the table.
struct Last {
    ply: u32,
    pos: Chess,
    repetition: Repetition,
}

/// Where a replay starts.
enum Begin {
    /// At P*ply* (P0, or the start of a run of reversible moves), with an
    /// empty table.
    Run(u32, Chess),
    /// After the last position of the version before, whose moves are all
    /// kept: its table as it was, and the start of its last run.
    Last(Box<Last>, (u32, Chess)),
}

/// What a replay leaves for the next version: the start of the last run of
/// reversible moves reached, and the state at the last position where
/// every move was legal.
type Ended = ((u32, Chess), Option<Box<Last>>);

impl Resume {
    fn start_tags(game: &RawGame<'_>) -> [Option<Vec<u8>>; 3] {
        ["FEN", "SetUp", "Variant"].map(|name| game.tag(name).map(<[u8]>::to_vec))
    }

    /// Where the replay of a version with `sans` takes up, and the last
    /// ply whose events are known (made for the version before, moves
    /// `old`): P0 to P*c* are the same positions after the same moves,
    /// where the first *c* moves are the same and so is the start.
    fn take_up(
        &mut self,
        game: &RawGame<'_>,
        edition: Edition,
        old: &[SanPlus],
        sans: &[SanPlus],
    ) -> Option<(Option<Begin>, u32)> {
        let last = self.last.take();
        if self.edition != edition || self.start != Resume::start_tags(game) {
            return None;
        }
        let c = old.iter().zip(sans).take_while(|(a, b)| a == b).count();
        let added = c == old.len() && sans.len() > c;
        let c = u32::try_from(c).unwrap_or(u32::MAX);
        let from = match last {
            Some(last) if added && last.ply == c => {
                Some(Begin::Last(last, (self.ply, self.pos.clone())))
            }
            _ => (self.ply <= c).then(|| Begin::Run(self.ply, self.pos.clone())),
        };
        Some((from, c))
    }
}

/// What one version of a game shows.
pub(crate) struct Judged {
    /// Every event of this version, in ply order (the caller drops those
    /// already reported); `seen` is left empty.
    pub events: Vec<Event>,
    /// The board after its last legal move.
    pub board: Board,
    /// An illegal move or start position, in words that name the game and
    /// the move.
    pub problem: Option<String>,
    /// Where the next version's replay can take up.
    pub resume: Option<Resume>,
}

/// The version judged before, where there is one: its moves and where its
/// replay can be taken up.
pub(crate) type Before<'b> = Option<(&'b [SanPlus], &'b mut Resume)>;

/// The tags every event of a game carries, and the game's label: made
/// again only when a version changes them (or comes from another file).
pub(crate) struct Tags {
    game: String,
    source: String,
    white: String,
    black: String,
    tournament: Option<String>,
    round: Option<String>,
    board: Option<String>,
    label: String,
    /// The tags they were read from, as written.
    raw: [Option<Vec<u8>>; 5],
}

/// The tags [`Tags`] reads.
const TAG_NAMES: [&str; 5] = ["White", "Black", "Event", "Round", "Board"];

impl Tags {
    /// The tags of `game` (known by `key`) in `source`.
    pub(crate) fn of(game: &RawGame<'_>, key: &GameKey, source: &str) -> Tags {
        let tag = |name| game.tag(name).map(|v| tag_text(trim(v)));
        let mut tags = Tags {
            game: key.as_str().to_string(),
            source: source.to_string(),
            white: tag("White").unwrap_or_else(|| "?".into()),
            black: tag("Black").unwrap_or_else(|| "?".into()),
            tournament: tag("Event"),
            round: tag("Round"),
            board: tag("Board"),
            label: String::new(),
            raw: TAG_NAMES.map(|name| game.tag(name).map(<[u8]>::to_vec)),
        };
        tags.label = super::event::label(
            tags.tournament.as_deref(),
            tags.round.as_deref(),
            tags.board.as_deref(),
            &tags.white,
            &tags.black,
        );
        tags
    }

    /// Whether these are the tags of `game` (known by the same key) in
    /// `source`.
    pub(crate) fn same(&self, game: &RawGame<'_>, source: &str) -> bool {
        self.source == source
            && TAG_NAMES
                .iter()
                .zip(&self.raw)
                .all(|(name, raw)| game.tag(name) == raw.as_deref())
    }

    fn label(&self) -> String {
        self.label.clone()
    }
}

/// The moves of a game as people write them, and the clocks after them.
struct Record<'m> {
    start_turn: Color,
    start_number: u32,
    sans: &'m [SanPlus],
    /// The `[%clk]` after each move, where the movetext has one: made text
    /// only for the plies an event or the board shows.
    clocks: Vec<Option<&'m [u8]>>,
}

impl Record<'_> {
    /// Move `k` (played from P*k*) as people write it: `23... Kf7`.
    fn move_text(&self, k: usize) -> String {
        let black_first = usize::from(self.start_turn.is_black());
        let number = self.start_number as usize + (k + black_first) / 2;
        let dots = if (k + black_first).is_multiple_of(2) {
            "."
        } else {
            "..."
        };
        format!("{number}{dots} {}", self.sans[k])
    }

    /// The move that made P*ply*.
    fn last_move(&self, ply: u32) -> Option<String> {
        (ply > 0).then(|| self.move_text(ply as usize - 1))
    }

    /// The clocks at P*ply*: the last `[%clk]` of each side's moves.
    fn clocks(&self, ply: u32) -> Clocks {
        let mut c = Clocks::default();
        let white_first = self.start_turn.is_white();
        let upto = (ply as usize).min(self.clocks.len());
        // from the last move back, until each side's is found
        for (k, clk) in self.clocks[..upto].iter().enumerate().rev() {
            let Some(clk) = *clk else {
                continue;
            };
            let side = if k.is_multiple_of(2) == white_first {
                &mut c.white
            } else {
                &mut c.black
            };
            if side.is_none() {
                *side = Some(String::from_utf8_lossy(clk).into_owned());
            }
            if c.white.is_some() && c.black.is_some() {
                break;
            }
        }
        c
    }
}

/// The value of the `[%clk ...]` comment after each mainline move, where
/// the movetext's moves can be placed (see [`MovetextMap`]).
fn clock_comments(movetext: &[u8], moves: usize) -> Vec<Option<&[u8]>> {
    if memchr::memmem::find(movetext, b"[%clk").is_none() {
        return vec![None; moves];
    }
    let map = MovetextMap::read(movetext);
    if map.moves.len() != moves {
        return vec![None; moves];
    }
    let ends: Vec<usize> = map.moves.iter().map(|(end, _)| *end).collect();
    (0..moves)
        .map(|k| {
            let from = ends[k];
            let to = ends.get(k + 1).copied().unwrap_or(movetext.len());
            let span = &movetext[from..to.max(from)];
            let at = memchr::memmem::find(span, b"[%clk")? + 5;
            let close = memchr::memchr(b']', &span[at..])?;
            let value = trim(&span[at..at + close]);
            (!value.is_empty()).then_some(value)
        })
        .collect()
}

/// The game's result: its `Result` tag, else the movetext's result token,
/// else `*` (as the audit reads it).
pub(crate) fn result_of(game: &RawGame<'_>, mainline: &Mainline) -> String {
    match game.tag("Result") {
        Some(r) => tag_text(trim(r)),
        None => mainline.result_token.unwrap_or("*").to_string(),
    }
}

/// Judges a version of a game (`mainline` read from it, `tags` its tags). The events of the
/// positions before where `before`'s replay is taken up are not made again:
/// they were made for the version before, and are the same; nor are the
/// game_over events already `reported`.
pub(crate) fn judge(
    auditor: &mut Auditor,
    laws: Laws,
    game: &RawGame<'_>,
    mainline: &mut Mainline,
    tags: &Tags,
    before: Before<'_>,
    reported: Option<&Reported>,
) -> Judged {
    let source = tags.source.as_str();
    let result = result_of(game, mainline);
    let mut board = Board {
        game: tags.game.clone(),
        source: source.to_string(),
        label: tags.label(),
        result: result.clone(),
        ..Board::default()
    };
    let variant = Variant::from_tag(game.tag("Variant"));
    let problem = |what: String| Some(format!("{source}: {}: {what}", tags.label()));
    if variant == Variant::Other {
        return Judged {
            events: Vec::new(),
            board,
            problem: problem("a variant other than chess and Chess960, not judged".into()),
            resume: None,
        };
    }
    let p0 = match start_position(game, variant) {
        Ok(p0) => p0,
        Err((_, reason)) => {
            board.problem = Some(reason.clone());
            return Judged {
                events: Vec::new(),
                board,
                problem: problem(reason),
                resume: None,
            };
        }
    };
    // The audit's judgements, from the moves already read: where the game
    // ended by the Laws (its result left open), and once a result is
    // written, the game as it is.
    let written = ["1-0", "0-1", "1/2-1/2"].contains(&result.as_str());
    let mut open = game.clone();
    open.tags.retain(|(name, _)| *name != b"Result");
    open.tags.push((&b"Result"[..], &b"*"[..]));
    let ended = auditor.audit_parsed(&open, laws, mainline);
    let judged = written.then(|| auditor.audit_parsed(game, laws, mainline));
    let maker = Maker {
        tags,
        record: Record {
            start_turn: p0.turn(),
            start_number: p0.fullmoves().get(),
            sans: &mainline.sans,
            clocks: clock_comments(game.movetext, mainline.sans.len()),
        },
    };
    let edition = laws.edition_on(game_day(game));
    let (from, known) = before
        .and_then(|(old, r)| r.take_up(game, edition, old, &mainline.sans))
        .map_or((None, None), |(from, c)| (from, Some(c)));
    let fresh = known.map_or(0, |c| c.saturating_add(1));
    let from = from.unwrap_or(Begin::Run(0, p0));
    let (mut events, bad_move, ((ply, pos), last)) = maker.replay(from, fresh, edition, &mut board);
    let resume = Some(Resume {
        start: Resume::start_tags(game),
        edition,
        ply,
        pos,
        last,
    });
    let mut problem_line = None;
    if let Some(f) = &bad_move {
        if let Detail::Invalid { mv, reason } = &f.detail {
            let what = match mv {
                Some(mv) => format!("{}: {reason}", f.at.move_text(f.side, mv)),
                None => reason.clone(),
            };
            board.problem = Some(what.clone());
            problem_line = problem(format!("{what}; judged up to the move before"));
        }
    }
    events.extend(maker.ended(&ended, reported, &mut board));
    // Once a result is written: the findings that judge it.
    if let Some(report) = judged {
        for f in &report.findings {
            if let Some(kind) = EventKind::of_result_finding(f.kind) {
                let e = maker.event(kind, f.ply, f.side, &f.at);
                let e = result_event(e, f, &result, report.edition);
                // the page's Problem column names the result and what is
                // wrong with it (the first, where there are several)
                board.problem.get_or_insert_with(|| match &e.reason {
                    Some(reason) => format!("{result}: {} ({reason})", kind.info().plain),
                    None => format!("{result}: {}", kind.info().plain),
                });
                events.push(e);
            }
        }
    }
    events.sort_by_key(|e| (e.ply, e.event));
    Judged {
        events,
        board,
        problem: problem_line,
        resume,
    }
}

/// Makes the events of one version of a game.
struct Maker<'t, 'm> {
    tags: &'t Tags,
    record: Record<'m>,
}

impl Maker<'_, '_> {
    /// An event of `kind` at P*ply* (`side` to move, at `spot`), its own
    /// fields left empty.
    fn event(&self, kind: EventKind, ply: u32, side: Color, spot: &Spot) -> Event {
        let tags = self.tags;
        Event {
            schema_version: SCHEMA_VERSION,
            event: kind,
            game: tags.game.clone(),
            source: tags.source.clone(),
            white: tags.white.clone(),
            black: tags.black.clone(),
            tournament: tags.tournament.clone(),
            round: tags.round.clone(),
            board: tags.board.clone(),
            ply,
            move_number: spot.move_number,
            side: side_name(side),
            last_move: self.record.last_move(ply),
            san: spot.san.clone(),
            fen: spot.fen.clone(),
            seen: String::new(),
            clock: Some(self.record.clocks(ply)).filter(|c| !c.is_empty()),
            article: String::new(),
            what: None,
            via: None,
            repeat_side: None,
            halfmoves: None,
            counting_from: None,
            result: None,
            reason: None,
        }
    }

    /// The replay: the rule hooks, position by position from `from` (P0,
    /// the start of a run of reversible moves, or the last position of the
    /// version before). The claims and near_* events from P*fresh* on
    /// (those before are known), the board after the last legal move, the
    /// first illegal move if there is one, the start of the last run of
    /// reversible moves reached and, where every move was legal, the state
    /// at the last position.
    fn replay(
        &self,
        from: Begin,
        fresh: u32,
        edition: Edition,
        board: &mut Board,
    ) -> (Vec<Event>, Option<Finding>, Ended) {
        let sans = self.record.sans;
        let mut events = Vec::new();
        let (mut repetition, mut ply, mut pos, mut run, mut taken_up) = match from {
            Begin::Run(ply, pos) => {
                let mut repetition = Repetition::default();
                repetition.start();
                let run = (ply, pos.clone());
                (repetition, ply, pos, run, false)
            }
            Begin::Last(last, run) => {
                let Last {
                    ply,
                    pos,
                    repetition,
                } = *last;
                (repetition, ply, pos, run, true)
            }
        };
        let mut bad_move = None;
        loop {
            let next = match resolve(&pos, sans.get(ply as usize), ply) {
                Ok(next) => next,
                Err(f) => {
                    bad_move = Some(f);
                    break;
                }
            };
            // a position taken up was judged with the version before, and
            // a move follows it now
            if !std::mem::take(&mut taken_up) {
                let at = At::new(ply, &pos, next, edition);
                let count = repetition.position(&at);
                // a known position's events are not made again (a FEN and
                // an event each); the last position's claims are the board's
                if ply >= fresh || next.is_none() {
                    self.claims(&repetition, count, &at, ply >= fresh, board, &mut events);
                }
                if ply >= fresh {
                    self.near(count, &pos, ply, &mut events);
                }
                if next.is_none() {
                    board.repetitions = count;
                    board.halfmoves = pos.halfmoves();
                }
            }
            let Some(m) = next else { break };
            repetition.play(&mut pos, m);
            ply += 1;
            if repetition.table().is_empty() {
                run = (ply, pos.clone());
            }
        }
        board.ply = ply;
        board.last_move = self.record.last_move(ply);
        board.fen = Spot::of(&pos).fen;
        board.clock = self.record.clocks(ply);
        let last = bad_move.is_none().then(|| {
            Box::new(Last {
                ply,
                pos,
                repetition,
            })
        });
        (events, bad_move, (run, last))
    }

    /// The claims the player to move in `at` may make: on the board where
    /// `at` is the last position, and as events where `fresh`.
    fn claims(
        &self,
        repetition: &Repetition,
        count: u32,
        at: &At<'_>,
        fresh: bool,
        board: &mut Board,
        events: &mut Vec<Event>,
    ) {
        let (pos, ply) = (at.pos, at.ply);
        for (what, via, m) in claims(repetition, count, at) {
            let spot = match m {
                Some(m) => Spot::with_move(pos, m),
                None => Spot::of(pos),
            };
            let article = match (what, via) {
                ("threefold", Via::Occurred) => "9.2b",
                ("threefold", Via::Announced) => "9.2a",
                (_, Via::Occurred) => "9.3b",
                (_, Via::Announced) => "9.3a",
            };
            if at.next.is_none() {
                board.open_claims.push(match &spot.san {
                    Some(san) => format!("{what} ({article}, announcing {san})"),
                    None => format!("{what} ({article})"),
                });
            }
            if fresh {
                let mut e = self.event(EventKind::ClaimAvailable, ply, pos.turn(), &spot);
                e.article = article.to_string();
                e.what = Some(what.to_string());
                e.via = Some(via.name());
                events.push(e);
            }
        }
    }

    /// The near_* events at P*ply* (`pos`, standing for the `count`-th time).
    fn near(&self, count: u32, pos: &Chess, ply: u32, events: &mut Vec<Event>) {
        if count == 2 {
            let mut e = self.event(EventKind::NearThreefold, ply, pos.turn(), &Spot::of(pos));
            e.article = "9.2".to_string();
            // the third occurrence is made by the move into it: the opponent's
            e.repeat_side = Some(side_name(!pos.turn()));
            events.push(e);
        }
        let clock = pos.halfmoves();
        if clock == 90 || (ply == 0 && (90..100).contains(&clock)) {
            let mut e = self.event(EventKind::NearFifty, ply, pos.turn(), &Spot::of(pos));
            e.article = "9.3".to_string();
            e.halfmoves = Some(clock);
            e.counting_from = ply
                .checked_sub(clock)
                .map(|k| self.record.move_text(k as usize));
            events.push(e);
        }
    }

    /// The audit of the game with its result left open (`*`, `report`):
    /// where it ended by the Laws, as game_over events.
    fn ended(
        &self,
        report: &GameReport,
        reported: Option<&Reported>,
        board: &mut Board,
    ) -> Vec<Event> {
        let mut events = Vec::new();
        for f in &report.findings {
            let (what, result, article) = match (f.kind, &f.detail) {
                (Kind::Fivefold | Kind::SeventyfiveMoves | Kind::DeadPosition, _) => {
                    (f.kind.name(), "1/2-1/2", f.kind.article(report.edition))
                }
                (Kind::WrongResult, Detail::WrongResult { reason }) => {
                    // "checkmate, expected 1-0", "stalemate, expected 1/2-1/2"
                    let expected = reason.rsplit(' ').next().unwrap_or("*");
                    let expected = ["1-0", "0-1", "1/2-1/2"]
                        .into_iter()
                        .find(|r| *r == expected)
                        .unwrap_or("*");
                    if reason.starts_with("checkmate") {
                        ("checkmate", expected, "5.1.1")
                    } else {
                        ("stalemate", expected, "5.2.1")
                    }
                }
                _ => continue,
            };
            if board.game_over.is_none() {
                let by = self.record.last_move(f.ply).map(|m| format!(" ({m})"));
                board.game_over =
                    Some(format!("{what} at ply {}{}", f.ply, by.unwrap_or_default()));
            }
            // a game over is reported with each version after it: made once
            if reported.is_some_and(|r| r.has(EventKind::GameOver, Some(what), f.ply, &f.at.fen)) {
                continue;
            }
            let mut e = self.event(EventKind::GameOver, f.ply, f.side, &f.at);
            e.article = article.to_string();
            e.what = Some(what.to_string());
            e.result = Some(result.to_string());
            events.push(e);
        }
        events
    }
}

/// The claims the player to move in `at` may make (Art. 9.2, 9.3), each
/// with the move that announces it under (a): the rules' own tests.
fn claims(
    repetition: &Repetition,
    count: u32,
    at: &At<'_>,
) -> Vec<(&'static str, Via, Option<Move>)> {
    let mut out = Vec::new();
    if let Some(via) = repetition::claim(repetition.table(), count, at.pos) {
        let m = match via {
            Via::Announced => repetition::announcing(repetition.table(), at.pos, at.next),
            Via::Occurred => None,
        };
        out.push(("threefold", via, m));
    }
    // 9.3 needs a clock of 99 at least (fifty::claim says none below)
    if at.pos.halfmoves() >= 99 {
        if let Some(via) = fifty::claim(at.pos, at.legal()) {
            let m = match via {
                Via::Announced => fifty::announcing(at.legal(), at.next),
                Via::Occurred => None,
            };
            out.push(("fifty_moves", via, m));
        }
    }
    out
}

/// An event of the result kinds, from the audit's finding `f`.
fn result_event(mut e: Event, f: &Finding, result: &str, edition: crate::laws::Edition) -> Event {
    e.article = f.kind.article(edition).to_string();
    e.result = Some(result.to_string());
    e.reason = match &f.detail {
        Detail::WrongResult { reason } => Some(reason.clone()),
        Detail::Unwinnable { winner, proof } => Some(format!(
            "{} could not checkmate ({})",
            side_name(*winner),
            proof.as_str()
        )),
        Detail::DrawnFlag { winner, mate } => {
            Some(format!("{} could checkmate: {mate}", side_name(*winner)))
        }
        Detail::SiteRule { site, rule } => {
            e.what = Some(rule.name().to_string());
            Some(format!("{} rule: {}", site.title(), rule.name()))
        }
        _ => None,
    };
    e
}
