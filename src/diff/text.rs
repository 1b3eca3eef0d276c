//! How a change is written for people: one line per finding, the game
//! counted from 1 and the move as people write it.

use std::fmt::Write as _;

use serde_json::Value;

use super::Shown;

pub(super) fn str_of(v: &Option<Value>) -> Option<&str> {
    v.as_ref().and_then(Value::as_str)
}

/// A value in a change, short: strings bare unless they hold spaces or
/// commas (a FEN, a reason), then quoted.
pub(super) fn show_value(v: &Option<Value>) -> String {
    match v {
        None => "(absent)".to_string(),
        Some(Value::String(s)) if s.is_empty() || s.contains([' ', ',', '"']) => {
            Value::String(s.clone()).to_string()
        }
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

/// `+ missed_threefold  data/x.pgn: game 807 (line 10479), 27. Rg7+  german11 - stvrtlik, 2016.05.24`
/// (games counted from 1, the move as people write it), then `tail`.
pub(super) fn text_line(sign: char, kind: &str, f: &Shown, tail: &str) -> String {
    let number = |v: &Option<Value>| v.as_ref().and_then(Value::as_u64);
    let file = str_of(&f.file).unwrap_or("?");
    let game = number(&f.game).map_or("?".to_string(), |g| (g + 1).to_string());
    let line = number(&f.line).map_or("?".to_string(), |l| l.to_string());
    let white_to_move = str_of(&f.side) != Some("black");
    let place = match (number(&f.move_number), str_of(&f.san)) {
        (Some(n), Some(san)) => format!("{n}{} {san}", if white_to_move { "." } else { "..." }),
        (Some(n), None) => format!(
            "move {n}, {} to move",
            if white_to_move { "White" } else { "Black" }
        ),
        (None, _) => match number(&f.ply) {
            Some(p) => format!("ply {p}"),
            None => "?".to_string(),
        },
    };
    let mut s = format!(
        "{sign} {kind}  {file}: game {game} (line {line}), {place}  {} - {}",
        str_of(&f.white).unwrap_or("?"),
        str_of(&f.black).unwrap_or("?")
    );
    if let Some(date) = str_of(&f.date) {
        let _ = write!(s, ", {date}");
    }
    s.push_str(tail);
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(json: &str) -> Shown {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn writes_the_move_as_people_do() {
        let f = shown(
            r#"{"file":"x.pgn","game":806,"line":10479,"move_number":27,"side":"white","san":"Rg7+","White":"a","Black":"b","Date":"2016.05.24"}"#,
        );
        assert_eq!(
            text_line('+', "missed_threefold", &f, ""),
            "+ missed_threefold  x.pgn: game 807 (line 10479), 27. Rg7+  a - b, 2016.05.24\n"
        );
        let f = shown(
            r#"{"file":"x.pgn","game":0,"line":1,"move_number":4,"side":"black","White":null,"Black":"b"}"#,
        );
        assert_eq!(
            text_line('-', "fivefold", &f, ": ply 1 -> 2"),
            "- fivefold  x.pgn: game 1 (line 1), move 4, Black to move  ? - b: ply 1 -> 2\n"
        );
    }
}
