//! Art. 11 per event, collected game by game: each player's points as
//! recorded and as the Laws give them ([`decided_result`]), one player
//! under one name however the event's records spell it (names that
//! normalise equal, [`crate::identity`]), and the results
//! the Laws decide otherwise than the tag (corrections). Standings are kept
//! for events of at most [`EVENT_PLAYER_CAP`] players (a tournament, not
//! "Rated Blitz game"); corrections always.

use std::collections::BTreeMap;

use super::fact::Fact;
use super::model::{Correction, EventPoints, EVENT_PLAYER_CAP};
use crate::hashing::Table;
use crate::identity::write_player_key;

/// The events' points while the run goes on.
#[derive(Default)]
pub(super) struct Points {
    /// By event ([`super::event`]: `Event`, `Site`, year), as written.
    events: Table<Box<[u8]>, EventAcc>,
    /// White's and Black's keys, reused from game to game.
    keys: [Vec<u8>; 2],
}

/// An event's players and corrections while the run goes on.
#[derive(Default)]
struct EventAcc {
    /// Player, by [`crate::identity::player_key`] → the name first written, the other
    /// spellings joined to it, `[games, recorded, laws]` (points in halves).
    players: Table<Box<[u8]>, Player>,
    /// Too many players: no standings.
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

impl Points {
    /// Adds a game of `event` between `white` and `black`: an analysed one
    /// whose result tag is a result; other games count for nothing.
    pub(super) fn add(&mut self, event: &[u8], white: &[u8], black: &[u8], fact: &Fact<'_>) {
        let Some(recorded) = halves(fact.result).filter(|_| fact.analysed) else {
            return;
        };
        let laws = halves(fact.laws).unwrap_or(recorded);
        let acc = match self.events.get_mut(event) {
            Some(acc) => acc,
            None => self.events.entry(event.into()).or_default(),
        };
        if let Some(c) = &fact.correction {
            acc.corrections.push(c.clone());
        }
        if acc.untracked {
            // no standings: the players' names need not be normalised
            return;
        }
        let [w, b] = &mut self.keys;
        write_player_key(white, w);
        write_player_key(black, b);
        acc.add_players([(white, w), (black, b)], [recorded, laws]);
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

impl EventAcc {
    /// Adds the game to both players' standings while the event is
    /// followed: `[recorded, laws]` points in halves for White and Black.
    fn add_players(&mut self, players: [(&[u8], &[u8]); 2], points: [[u64; 2]; 2]) {
        if self.untracked {
            return;
        }
        for (side, (name, key)) in players.into_iter().enumerate() {
            if !self.players.contains_key(key) {
                if self.players.len() >= EVENT_PLAYER_CAP {
                    self.players = Table::default();
                    self.untracked = true;
                    return;
                }
                let first = Player {
                    name: name.into(),
                    ..Player::default()
                };
                self.players.insert(key.into(), first);
            }
            let p = self.players.get_mut(key).expect("inserted");
            if *p.name != *name && !p.others.iter().any(|o| **o == *name) {
                p.others.push(name.into());
            }
            p.points[0] += 1;
            p.points[1] += points[0][side];
            p.points[2] += points[1][side];
        }
    }
}

/// Points in halves for White and Black of a result's code
/// ([`super::fact::RESULTS`]).
fn halves(result: u8) -> Option<[u64; 2]> {
    match result {
        1 => Some([2, 0]),
        2 => Some([0, 2]),
        3 => Some([1, 1]),
        _ => None,
    }
}
