//! Art. 11 per event, collected game by game: each player's points as
//! recorded and as the Laws give them ([`decided_result`]), one player
//! under one name however the event's records spell it (names that
//! normalise equal, [`crate::identity`]), and the results
//! the Laws decide otherwise than the tag (corrections). Standings are kept
//! for events of at most [`EVENT_PLAYER_CAP`] players, and for at most
//! [`POINT_PAIR_CAP`] (event, player) pairs in all; corrections always.

use std::collections::{BTreeMap, HashMap};

use super::model::{Correction, EventPoints, EVENT_PLAYER_CAP, NAME_CAP, POINT_PAIR_CAP};
use crate::audit::Status;
use crate::example::game_link;
use crate::facets::Facets;
use crate::identity::player_key;
use crate::kind::Family;
use crate::pipeline::GameRecord;
use crate::rules::result::decided_result;

/// The events' points while the run goes on.
#[derive(Default)]
pub(super) struct Points {
    /// By event ([`super::event`]: `Event`, `Site`, year), as written.
    events: HashMap<Box<[u8]>, EventAcc>,
    /// (event, player) pairs kept, over all events.
    pairs: usize,
}

/// An event's players and corrections while the run goes on.
#[derive(Default)]
struct EventAcc {
    /// Player, by [`player_key`] → the name first written, the other
    /// spellings joined to it, `[games, recorded, laws]` (points in halves).
    players: HashMap<Box<[u8]>, Player>,
    /// Too many players, or too many pairs in all: no standings.
    untracked: bool,
    corrections: Vec<Correction>,
}

/// One player of an event: one name, however the records spell it.
#[derive(Default)]
struct Player {
    name: Box<[u8]>,
    others: Vec<Box<[u8]>>,
    points: [u64; 3],
}

/// A game's result as recorded and as the Laws give it.
struct Scored<'a> {
    recorded: &'a str,
    laws: &'a str,
    /// Points in halves for White and Black, as recorded and by the Laws.
    recorded_halves: [u64; 2],
    laws_halves: [u64; 2],
}

impl Points {
    /// Adds an analysed game of `event` between `white` and `black` whose
    /// result tag is a result; other games count for nothing.
    pub(super) fn add(&mut self, event: &[u8], white: &[u8], black: &[u8], game: &GameRecord<'_>) {
        let r = game.report;
        if r.status != Status::Analysed {
            return;
        }
        let Some(scored) = score(game) else {
            return;
        };
        let Some(acc) = event_acc(&mut self.events, event) else {
            return;
        };
        if scored.laws != scored.recorded {
            acc.corrections
                .push(correction(game, white, black, &scored));
        }
        let players = [(white, player_key(white)), (black, player_key(black))];
        acc.add_players(players, &scored, &mut self.pairs);
    }

    /// The events' points as the aggregate writes them. Names that differ
    /// only in bytes that are not UTF-8 share one.
    pub(super) fn events(&self) -> BTreeMap<String, EventPoints> {
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        let mut out: BTreeMap<String, EventPoints> = BTreeMap::new();
        for (event, acc) in &self.events {
            let e = out.entry(text(event)).or_default();
            e.untracked |= acc.untracked;
            e.corrections.extend(acc.corrections.iter().cloned());
            e.corrections.sort();
            for p in acc.players.values() {
                e.add_player(text(&p.name), &p.points);
                if !p.others.is_empty() {
                    let mut others: Vec<String> = p.others.iter().map(|o| text(o)).collect();
                    others.sort();
                    e.joined.insert(text(&p.name), others);
                }
            }
        }
        for e in out.values_mut() {
            if e.untracked {
                e.players.clear();
                e.joined.clear();
            }
        }
        out
    }
}

/// The event's accumulator, made on its first game; `None` beyond the
/// first [`NAME_CAP`] events (bounded memory: the test of a capped run is
/// `(other)` in `by.event`).
fn event_acc<'m>(
    events: &'m mut HashMap<Box<[u8]>, EventAcc>,
    event: &[u8],
) -> Option<&'m mut EventAcc> {
    if !events.contains_key(event) {
        if events.len() >= NAME_CAP {
            return None;
        }
        events.insert(event.into(), EventAcc::default());
    }
    events.get_mut(event)
}

impl EventAcc {
    /// Adds the game to both players' standings while the event is
    /// followed; `pairs` counts the (event, player) pairs kept in all.
    fn add_players(
        &mut self,
        players: [(&[u8], Box<[u8]>); 2],
        scored: &Scored<'_>,
        pairs: &mut usize,
    ) {
        if self.untracked {
            return;
        }
        for (side, (name, key)) in players.into_iter().enumerate() {
            if !self.players.contains_key(&key) {
                if self.players.len() >= EVENT_PLAYER_CAP || *pairs >= POINT_PAIR_CAP {
                    *pairs -= self.players.len();
                    self.players = HashMap::new();
                    self.untracked = true;
                    return;
                }
                *pairs += 1;
                let first = Player {
                    name: name.into(),
                    ..Player::default()
                };
                self.players.insert(key.clone(), first);
            }
            let p = self.players.get_mut(&key).expect("inserted");
            if *p.name != *name && !p.others.iter().any(|o| **o == *name) {
                p.others.push(name.into());
            }
            p.points[0] += 1;
            p.points[1] += scored.recorded_halves[side];
            p.points[2] += scored.laws_halves[side];
        }
    }
}

/// The game's result as recorded and as the Laws give it, where the tag is
/// a result.
fn score<'a>(game: &GameRecord<'a>) -> Option<Scored<'a>> {
    let r = game.report;
    let recorded = Facets::get(r.facets.result, game.text)
        .and_then(|v| std::str::from_utf8(v).ok())
        .unwrap_or("*");
    let recorded_halves = halves(recorded)?;
    let laws = decided_result(&r.findings).unwrap_or(recorded);
    Some(Scored {
        recorded,
        laws,
        recorded_halves,
        laws_halves: halves(laws).unwrap_or(recorded_halves),
    })
}

/// The correction of a game the Laws score otherwise, by the first finding
/// of a kind that decides a result (an automatic draw, a result the board
/// contradicts), with where an arbiter finds the game.
fn correction(
    game: &GameRecord<'_>,
    white: &[u8],
    black: &[u8],
    scored: &Scored<'_>,
) -> Correction {
    let r = game.report;
    let decides = r
        .findings
        .iter()
        .find(|f| matches!(f.kind.info().family, Family::AutomaticDraw | Family::Result));
    let tag = |n: &str| {
        r.tags
            .as_deref()
            .and_then(|t| t.get(n))
            .unwrap_or_default()
            .to_string()
    };
    Correction {
        file: game.file.to_string(),
        game: game.index + 1,
        game_id: r.id.map(|i| i.to_string()).unwrap_or_default(),
        white: String::from_utf8_lossy(white).into_owned(),
        black: String::from_utf8_lossy(black).into_owned(),
        recorded: scored.recorded.to_string(),
        laws: scored.laws.to_string(),
        kind: decides.map_or("", |f| f.kind.name()).to_string(),
        article: decides
            .map_or("", |f| f.kind.article(r.edition))
            .to_string(),
        round: tag("Round"),
        date: tag("Date"),
        link: game_link(&tag("Site"), decides.map_or(r.plies, |f| f.ply)),
    }
}

/// Points in halves for White and Black.
fn halves(result: &str) -> Option<[u64; 2]> {
    match result {
        "1-0" => Some([2, 0]),
        "0-1" => Some([0, 2]),
        "1/2-1/2" => Some([1, 1]),
        _ => None,
    }
}
