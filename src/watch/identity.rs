//! Which game a text is: the same game across its versions (each move
//! rewrites it) and across files (a DGT LiveChess round folder holds each
//! board's game in `game-N.pgn` and all of them again in `games.pgn`).

use crate::parse::tag_text;
use crate::split::RawGame;

/// A game's identity: its `GameURL` tag where it has one (broadcasts give
/// each game its page), else its `Event`, `Round`, `Board`, `White` and
/// `Black` tags, which stay the same from move to move. A game with none of
/// them is known by its file and place in it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameKey(String);

impl GameKey {
    /// The key of `game`, the `index`-th game of `source`.
    pub fn of(game: &RawGame<'_>, source: &str, index: usize) -> GameKey {
        let tag = |name| game.tag(name).map(tag_text);
        if let Some(url) = tag("GameURL") {
            let url = url.trim();
            if !url.is_empty() && url != "?" {
                return GameKey(url.to_string());
            }
        }
        // the tags joined by `|`, in one string
        let mut key = String::new();
        let mut any = false;
        for (i, name) in ["Event", "Round", "Board", "White", "Black"]
            .into_iter()
            .enumerate()
        {
            if i > 0 {
                key.push('|');
            }
            if let Some(value) = tag(name) {
                let value = value.trim();
                any |= !value.is_empty();
                key.push_str(value);
            }
        }
        if !any {
            return GameKey(format!("{source}#{}", index + 1));
        }
        GameKey(key)
    }

    /// The key as text (`game` in the events).
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::split::Splitter;

    fn key(pgn: &str, source: &str) -> GameKey {
        let game = Splitter::new(pgn.as_bytes()).next().unwrap();
        GameKey::of(&game, source, 0)
    }

    #[test]
    fn a_game_is_known_by_its_url_else_its_tags() {
        let a = "[Event \"Open\"]\n[Round \"1.3\"]\n[White \"A\"]\n[Black \"B\"]\n\n1. e4 *\n";
        let b = "[Event \"Open\"]\n[Round \"1.3\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 *\n";
        assert_eq!(key(a, "game-3.pgn"), key(b, "games.pgn"));
        let c = "[Event \"Open\"]\n[Round \"1.4\"]\n[White \"A\"]\n[Black \"B\"]\n\n1. e4 *\n";
        assert_ne!(key(a, "x"), key(c, "x"));
        let u = "[GameURL \"https://example.org/g/1\"]\n[White \"A\"]\n\n1. e4 *\n";
        assert_eq!(key(u, "x").as_str(), "https://example.org/g/1");
        assert_eq!(key("1. e4 *\n", "x.pgn").as_str(), "x.pgn#1");
    }
}
