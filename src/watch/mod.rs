//! The arbiter's live view: games followed as they are played, and an
//! event each time a draw can be claimed (Art. 9.2, 9.3), a claim comes
//! near, the game ends by the Laws (Art. 5.1, 5.2, 9.6) or the result
//! written contradicts them (Art. 5, 6.9, 11, a site's rules).
//!
//! Every verdict is the audit's ([`crate::audit`], the rule hooks of
//! [`crate::rules`]): a version of a game is judged as the audit judges a
//! game (see `judge`), and the events are what it finds, each reported
//! once per game and position.
//!
//! ```
//! use pgn_arbiter::watch::Watch;
//! use std::time::SystemTime;
//!
//! let mut watch = Watch::new(Default::default(), Default::default(), Default::default());
//! // a board file after each move: the knights go out and back twice
//! let game = |moves: &str| format!("[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n{moves} *\n");
//! let mut events = Vec::new();
//! let line = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8";
//! let words: Vec<&str> = line.split(' ').collect();
//! for n in 1..=words.len() {
//!     let text = game(&words[..n].join(" "));
//!     events.extend(watch.read("board.pgn", text.as_bytes(), SystemTime::now()).events);
//! }
//! let names: Vec<&str> = events.iter().map(|e| e.event.name()).collect();
//! // P4 and P5 stand twice, from P7 a repetition can be claimed (9.2a, 9.2b)
//! assert_eq!(names.iter().filter(|n| **n == "near_threefold").count(), 4);
//! assert!(events.iter().any(|e| e.event.name() == "claim_available" && e.ply == 8 && e.via == Some("occurred")));
//! ```

mod event;
mod html;
mod identity;
mod judge;
mod source;

use std::collections::{HashMap, HashSet};
use std::time::SystemTime;

use shakmaty::san::SanPlus;

pub use event::{rfc3339, Clocks, Event, EventInfo, EventKind, SCHEMA_VERSION};
pub use html::render as render_html;
pub use identity::GameKey;
pub use judge::Board;
pub use source::{may_follow, whole_games, Change, Files, Whole};

use crate::audit::{is_no_game, Auditor};
use crate::laws::Laws;
use crate::parse::{Mainline, MovetextReader};
use crate::rules::dead::DeadMode;
use crate::site::SiteMode;
use crate::split::RawGame;

/// What reading a text gave: new events, and lines for people about input
/// that could not be judged.
#[derive(Debug, Default)]
pub struct Update {
    /// The events not reported before, in the order of the games and of
    /// their plies.
    pub events: Vec<Event>,
    /// Bad input (no PGN, an illegal move, ...), each said once, naming
    /// the file, the game and the move.
    pub problems: Vec<String>,
    /// Games judged (new or changed versions).
    pub judged: usize,
}

/// A game as last judged.
struct Game {
    /// The file of the version judged.
    source: String,
    /// XXH3 of that version's text.
    hash: u64,
    sans: Vec<SanPlus>,
    /// Where the next version's replay can take up.
    resume: Option<judge::Resume>,
    result: String,
    /// The events reported.
    reported: Reported,
    /// The tags of the version judged.
    tags: Option<judge::Tags>,
    board: Board,
}

/// The live view over every game seen.
pub struct Watch {
    laws: Laws,
    auditor: Auditor,
    games: HashMap<GameKey, Game>,
    /// The games in the order they were first seen.
    order: Vec<GameKey>,
    /// (file, XXH3 of the text) of each text already said to be no game or
    /// to have an illegal move: said once.
    said: HashSet<(String, u64)>,
    mainline: Mainline,
    /// The events reported, newest last (the live page lists the latest).
    recent: Vec<Event>,
    /// Whether [`Watch::recent`] is kept.
    keep_recent: bool,
    /// Each file's trailing game that is not whole yet, as last read.
    waiting: HashMap<String, Waiting>,
}

/// A file's trailing game that is not whole (no result token yet, cut
/// mid-move, a comment left open), and since when it has stood so.
struct Waiting {
    text: Vec<u8>,
    /// Its place among the file's games.
    index: usize,
    since: SystemTime,
    /// Judged as it stands ([`Watch::settle`]).
    judged: bool,
}

/// How many events the live page lists.
const RECENT: usize = 60;

impl Watch {
    /// A watch that judges as `pgn-arbiter audit --laws --dead --site` does.
    pub fn new(laws: Laws, dead: DeadMode, site: SiteMode) -> Watch {
        Watch {
            laws,
            auditor: Auditor::with_effort(dead).with_sites(site).findings_only(),
            games: HashMap::new(),
            order: Vec::new(),
            said: HashSet::new(),
            mainline: Mainline::default(),
            recent: Vec::new(),
            keep_recent: true,
            waiting: HashMap::new(),
        }
    }

    /// Reads the whole content of a file (named `source`) as it is now: its
    /// whole games are judged where they are new or changed, a trailing
    /// game not yet finished waits for the next read (or for
    /// [`Watch::settle`]).
    pub fn read(&mut self, source: &str, text: &[u8], seen: SystemTime) -> Update {
        let mut update = Update::default();
        let whole = whole_games(text, false);
        self.judge_all(source, &whole, seen, &mut update);
        match &whole.waiting {
            Some(w) => {
                let index = whole.games.len();
                let same = self
                    .waiting
                    .get(source)
                    .is_some_and(|old| old.index == index && old.text == w.text);
                if !same {
                    let w = Waiting {
                        text: w.text.to_vec(),
                        index,
                        since: seen,
                        judged: false,
                    };
                    self.waiting.insert(source.to_string(), w);
                }
            }
            None => {
                self.waiting.remove(source);
            }
        }
        update
    }

    /// Judges as they stand the files' trailing games that are not whole
    /// and have stood unchanged since `quiet` or before: a board whose
    /// writer puts no result token (not even `*`) while the game goes on,
    /// or a file left half-written, is shown as it is rather than never.
    /// `--once` settles every one at once, as the audit would read them.
    pub fn settle(&mut self, quiet: SystemTime, seen: SystemTime) -> Update {
        let mut update = Update::default();
        let mut due: Vec<String> = self
            .waiting
            .iter()
            .filter(|(_, w)| !w.judged && w.since <= quiet)
            .map(|(source, _)| source.clone())
            .collect();
        due.sort_unstable();
        let seen = Seen::new(seen);
        for source in due {
            let Some(mut w) = self.waiting.remove(&source) else {
                continue;
            };
            let whole = whole_games(&w.text, true);
            if let Some(game) = whole.games.first() {
                self.judge_one(&source, w.index, game, &seen, &mut update);
            }
            drop(whole);
            w.judged = true;
            self.waiting.insert(source, w);
        }
        update
    }

    /// Reads the whole games at the start of a stream's buffer (a
    /// broadcast sends each game's whole PGN again each time it changes)
    /// and takes them out of it; an unfinished game stays, unless the
    /// stream is `closed`.
    pub fn read_stream(
        &mut self,
        source: &str,
        buffer: &mut Vec<u8>,
        closed: bool,
        seen: SystemTime,
    ) -> Update {
        let mut update = Update::default();
        let whole = whole_games(buffer, closed);
        let end = whole.end;
        self.judge_all(source, &whole, seen, &mut update);
        drop(whole);
        buffer.drain(..end);
        update
    }

    /// A file was deleted: its games stay as last seen.
    pub fn gone(&mut self, source: &str) -> String {
        self.waiting.remove(source);
        let games = self.games.values().filter(|g| g.source == source).count();
        format!(
            "{source}: deleted; its {} stay as last seen",
            crate::text::count(games as u64, "game", "games")
        )
    }

    /// Every board, in the order the games were first seen.
    pub fn boards(&self) -> impl Iterator<Item = &Board> {
        self.order.iter().map(|k| &self.games[k].board)
    }

    /// Whether the latest events are kept for [`Watch::recent`] (the live
    /// page lists them): yes unless told otherwise. A watch without a page
    /// keeps no copy of each event.
    pub fn keep_recent(mut self, keep: bool) -> Watch {
        self.keep_recent = keep;
        self
    }

    /// The latest events, oldest first (none if not
    /// [kept](Watch::keep_recent)).
    pub fn recent(&self) -> &[Event] {
        &self.recent
    }

    fn judge_all(&mut self, source: &str, whole: &Whole<'_>, seen: SystemTime, up: &mut Update) {
        let seen = Seen::new(seen);
        for (index, game) in whole.games.iter().enumerate() {
            self.judge_one(source, index, game, &seen, up);
        }
        if let Some(w) = &whole.waiting {
            // text that will never finish as a game: a file that is no PGN
            let next = std::cell::Cell::new(&[][..]);
            MovetextReader::new(&next).read(w.movetext, &mut self.mainline);
            if is_no_game(w, &self.mainline) {
                self.say_no_game(source, w, up);
            }
        }
    }

    fn say_no_game(&mut self, source: &str, game: &RawGame<'_>, up: &mut Update) {
        let hash = xxhash_rust::xxh3::xxh3_64(game.text);
        if self.said.insert((source.to_string(), hash)) {
            up.problems.push(format!(
                "{source}: line {}: not PGN (no tag, move or result in {} bytes), skipped",
                game.line + 1,
                game.text.len()
            ));
        }
    }

    fn judge_one(
        &mut self,
        source: &str,
        index: usize,
        raw: &RawGame<'_>,
        seen: &Seen,
        up: &mut Update,
    ) {
        let hash = xxhash_rust::xxh3::xxh3_64(raw.text);
        let key = GameKey::of(raw, source, index);
        if self.games.get(&key).is_some_and(|g| g.hash == hash) {
            return;
        }
        let next = std::cell::Cell::new(&[][..]);
        MovetextReader::new(&next).read(raw.movetext, &mut self.mainline);
        if is_no_game(raw, &self.mainline) {
            self.say_no_game(source, raw, up);
            return;
        }
        let result = judge::result_of(raw, &self.mainline);
        if let Some(g) = self.games.get(&key) {
            if g.source != source && is_older(&self.mainline.sans, &result, g) {
                // another file's copy that lags behind (games.pgn beside
                // game-N.pgn): the newer version stands
                return;
            }
        }
        let tags = match self.games.get_mut(&key).and_then(|g| g.tags.take()) {
            Some(tags) if tags.same(raw, source) => tags,
            _ => judge::Tags::of(raw, &key, source),
        };
        // the events before where the replay takes up were made for the
        // version judged before, and reported then
        let (before, reported) = match self.games.get_mut(&key) {
            Some(g) => (
                g.resume.as_mut().map(|r| (&g.sans[..], r)),
                Some(&g.reported),
            ),
            None => (None, None),
        };
        let judged = judge::judge(
            &mut self.auditor,
            self.laws,
            raw,
            &mut self.mainline,
            &tags,
            before,
            reported,
        );
        up.judged += 1;
        if let Some(p) = judged.problem {
            if self.said.insert((key.as_str().to_string(), hash)) {
                up.problems.push(p);
            }
        }
        let game = self.games.entry(key.clone()).or_insert_with(|| {
            self.order.push(key);
            Game {
                source: String::new(),
                hash: 0,
                sans: Vec::new(),
                resume: None,
                result: String::new(),
                reported: Reported::default(),
                tags: None,
                board: Board::default(),
            }
        });
        game.source = source.to_string();
        game.hash = hash;
        game.sans = self.mainline.sans.clone();
        game.resume = judged.resume;
        game.result = result;
        game.board = judged.board;
        game.tags = Some(tags);
        for mut e in judged.events {
            if game.reported.insert(&e) {
                e.seen = seen.text().to_string();
                if self.keep_recent {
                    self.recent.push(e.clone());
                }
                up.events.push(e);
            }
        }
        if self.recent.len() > 2 * RECENT {
            self.recent.drain(..self.recent.len() - RECENT);
        }
    }
}

/// The events reported for a game: (kind, what, ply, FEN), each once.
/// Looked up by kind and ply first, so that an event can be known as
/// reported before it is made.
#[derive(Default)]
pub(crate) struct Reported(HashMap<(EventKind, u32), Vec<WhatAndFen>>);

/// An event's `what` and `fen`.
type WhatAndFen = (Option<String>, String);

impl Reported {
    /// Whether the event of `kind` and `what` at ply `ply` (`fen`) was
    /// reported.
    pub(crate) fn has(&self, kind: EventKind, what: Option<&str>, ply: u32, fen: &str) -> bool {
        self.0
            .get(&(kind, ply))
            .is_some_and(|seen| seen.iter().any(|(w, f)| w.as_deref() == what && f == fen))
    }

    /// Takes `e` as reported; whether it was not before.
    fn insert(&mut self, e: &Event) -> bool {
        if self.has(e.event, e.what.as_deref(), e.ply, &e.fen) {
            return false;
        }
        self.0
            .entry((e.event, e.ply))
            .or_default()
            .push((e.what.clone(), e.fen.clone()));
        true
    }
}

/// When a read was made, as events write it: made at the first event
/// reported (most reads report none).
struct Seen {
    at: SystemTime,
    text: std::cell::OnceCell<String>,
}

impl Seen {
    fn new(at: SystemTime) -> Seen {
        Seen {
            at,
            text: std::cell::OnceCell::new(),
        }
    }

    fn text(&self) -> &str {
        self.text.get_or_init(|| rfc3339(self.at))
    }
}

/// Whether a version from another file is older than the game as judged:
/// its moves a strict beginning of the game's, or the same moves without
/// the result written since.
fn is_older(sans: &[SanPlus], result: &str, game: &Game) -> bool {
    let prefix = sans.len() <= game.sans.len() && game.sans[..sans.len()] == *sans;
    prefix && (sans.len() < game.sans.len() || result == "*" || result == game.result)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(moves: &str) -> String {
        format!("[Event \"E\"]\n[Round \"1.1\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n{moves} *\n")
    }

    fn read(w: &mut Watch, source: &str, moves: &str) -> Vec<(u32, &'static str)> {
        let up = w.read(source, game(moves).as_bytes(), SystemTime::now());
        up.events.iter().map(|e| (e.ply, e.event.name())).collect()
    }

    /// A correction (a move replaced) and a takeback are judged again from
    /// the start; what was reported for positions still the same is not
    /// repeated; a copy in another file that lags behind changes nothing.
    #[test]
    fn corrections_are_judged_again_and_nothing_is_said_twice() {
        let mut w = Watch::new(Laws::Auto, DeadMode::Quick, SiteMode::Auto);
        let v1 = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1";
        let first = read(&mut w, "game-1.pgn", v1);
        assert_eq!(
            first,
            [
                (4, "near_threefold"),
                (5, "near_threefold"),
                (6, "near_threefold"),
                (7, "claim_available"),
                (7, "near_threefold")
            ]
        );
        // the arbiter corrects the last move: a new position at ply 7
        let v2 = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Nc3";
        assert_eq!(read(&mut w, "game-1.pgn", v2), []);
        assert_eq!(
            w.boards().next().unwrap().last_move.as_deref(),
            Some("4. Nc3")
        );
        assert!(w.boards().next().unwrap().open_claims.is_empty());
        // the record as played: ply 7 was said, ply 8 is new
        let v3 = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8";
        assert_eq!(read(&mut w, "game-1.pgn", v3), [(8, "claim_available")]);
        // a takeback to ply 6, then the same moves again: nothing new
        assert_eq!(
            read(&mut w, "game-1.pgn", "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6"),
            []
        );
        assert_eq!(read(&mut w, "game-1.pgn", v3), []);
        // games.pgn a move behind: the board stays at ply 8
        assert_eq!(read(&mut w, "games.pgn", v1), []);
        assert_eq!(w.boards().next().unwrap().ply, 8);
        assert_eq!(w.boards().count(), 1);
    }

    /// A board whose writer puts no result token while the game goes on,
    /// then stops writing: its game waited for ever, never judged nor
    /// shown. It is judged as it stands once its file has stood unchanged,
    /// once, and again when the file changes.
    #[test]
    fn a_trailing_game_without_a_result_waited_for_ever() {
        let mut w = Watch::new(Laws::Auto, DeadMode::Quick, SiteMode::Auto);
        let text = |moves: &str| format!("[White \"A\"]\n[Black \"B\"]\n\n{moves}\n");
        let t0 = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000);
        let later = |s| t0 + std::time::Duration::from_secs(s);
        let moves = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8";
        let up = w.read("b.pgn", text(moves).as_bytes(), t0);
        assert_eq!((up.judged, w.boards().count()), (0, 0));
        // the same text read again: it has stood since t0
        w.read("b.pgn", text(moves).as_bytes(), later(1));
        assert_eq!(
            w.settle(t0 - std::time::Duration::from_secs(1), later(2))
                .judged,
            0
        );
        let up = w.settle(t0, later(2));
        assert_eq!(up.judged, 1);
        assert!(up
            .events
            .iter()
            .any(|e| e.event.name() == "claim_available" && e.ply == 8));
        let board = w.boards().next().unwrap();
        assert_eq!((board.ply, board.result.as_str()), (8, "*"));
        assert_eq!(w.settle(later(3), later(3)).judged, 0);
        // the next move, still without a result token: judged once quiet
        w.read(
            "b.pgn",
            text(&format!("{moves} 5. Nf3")).as_bytes(),
            later(4),
        );
        assert_eq!(w.settle(later(3), later(5)).judged, 0);
        assert_eq!(w.settle(later(4), later(5)).judged, 1);
        assert_eq!(w.boards().next().unwrap().ply, 9);
    }

    /// The tags of a game known by its URL are kept from version to
    /// version: a version that corrects a name, or comes from another file,
    /// has its own in its events and on its board.
    #[test]
    fn kept_tags_follow_a_corrected_name() {
        let mut w = Watch::new(Laws::Auto, DeadMode::Quick, SiteMode::Auto);
        let text = |white: &str, moves: &str| {
            format!("[GameURL \"https://example.org/1\"]\n[White \"{white}\"]\n[Black \"B\"]\n\n{moves} *\n")
        };
        let moves = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3";
        let up = w.read("g.pgn", text("Smith", moves).as_bytes(), SystemTime::now());
        assert!(up
            .events
            .iter()
            .all(|e| e.white == "Smith" && e.source == "g.pgn"));
        let moves = format!("{moves} Nf6");
        let up = w.read("g.pgn", text("Smyth", &moves).as_bytes(), SystemTime::now());
        assert!(!up.events.is_empty());
        assert!(up.events.iter().all(|e| e.white == "Smyth"));
        assert!(w.boards().next().unwrap().label.contains("Smyth"));
        let moves = format!("{moves} 4. Ng1");
        let up = w.read(
            "all.pgn",
            text("Smyth", &moves).as_bytes(),
            SystemTime::now(),
        );
        assert!(!up.events.is_empty());
        assert!(up.events.iter().all(|e| e.source == "all.pgn"));
    }

    /// A draw scored after a checkmate: the board names the wrong result.
    #[test]
    fn the_board_names_a_wrong_result() {
        let mut w = Watch::new(Laws::Auto, DeadMode::Quick, SiteMode::Auto);
        let text =
            "[White \"A\"]\n[Black \"B\"]\n[Result \"1/2-1/2\"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2\n";
        let up = w.read("game-1.pgn", text.as_bytes(), SystemTime::now());
        assert!(up.events.iter().any(|e| e.event.name() == "wrong_result"));
        let problem = w
            .boards()
            .next()
            .unwrap()
            .problem
            .clone()
            .unwrap_or_default();
        assert!(
            problem.starts_with("1/2-1/2: ") && problem.contains("checkmate"),
            "{problem}"
        );
    }
}
