//! The live page: one row per board (last move, repetitions, the 50-move
//! count, open claims, the end by the Laws) and the latest events. It
//! reloads itself (a meta refresh): no script, nothing fetched.

use super::event::Event;
use super::judge::Board;
use crate::text::escape_html as esc;

/// The page for `boards` and the `recent` events (oldest first), made at
/// `now` (RFC 3339), reloading every `refresh` seconds.
pub fn render<'a>(
    boards: impl IntoIterator<Item = &'a Board>,
    recent: &[Event],
    now: &str,
    refresh: u32,
) -> String {
    let mut rows = String::new();
    let mut n = 0;
    // boards as people count them: round 1.2 before round 1.10
    let mut boards: Vec<&Board> = boards.into_iter().collect();
    boards.sort_by_cached_key(|b| super::source::natural_key(&b.label));
    for b in boards {
        n += 1;
        let state = if b.game_over.is_some() {
            "over"
        } else if !b.open_claims.is_empty() {
            "claim"
        } else {
            "live"
        };
        let cell = |s: &str| format!("<td>{}</td>", esc(s));
        rows.push_str(&format!("<tr class=\"{state}\">"));
        rows.push_str(&cell(&b.label));
        rows.push_str(&cell(b.last_move.as_deref().unwrap_or("start")));
        rows.push_str(&format!("<td class=\"num\">{}</td>", b.ply));
        rows.push_str(&format!("<td class=\"num\">{}</td>", b.repetitions));
        rows.push_str(&format!(
            "<td class=\"num\">{} <small>({})</small></td>",
            b.halfmoves,
            crate::text::count(u64::from(b.halfmoves / 2), "move", "moves")
        ));
        rows.push_str(&cell(&b.open_claims.join("; ")));
        rows.push_str(&cell(b.game_over.as_deref().unwrap_or("")));
        rows.push_str(&cell(&b.result));
        let clock = match (&b.clock.white, &b.clock.black) {
            (None, None) => String::new(),
            (w, bl) => format!(
                "{} / {}",
                w.as_deref().unwrap_or("-"),
                bl.as_deref().unwrap_or("-")
            ),
        };
        rows.push_str(&cell(&clock));
        rows.push_str(&cell(b.problem.as_deref().unwrap_or("")));
        rows.push_str("</tr>\n");
    }
    let mut events = String::new();
    for e in recent.iter().rev() {
        events.push_str(&format!(
            "<li class=\"{}\"><code>{}</code></li>\n",
            e.event.name(),
            esc(&e.human())
        ));
    }
    format!(
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="refresh" content="{refresh}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>pgn-arbiter watch: {n} boards</title>
<style>
body {{ font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }}
table {{ border-collapse: collapse; width: 100%; }}
th, td {{ border-bottom: 1px solid #ddd; padding: 4px 8px; text-align: left; vertical-align: top; }}
th {{ background: #f3f3f3; }}
td.num {{ text-align: right; font-variant-numeric: tabular-nums; }}
tr.claim td {{ background: #fff4d6; }}
tr.over td {{ background: #e8e8e8; color: #555; }}
li.claim_available, li.game_over {{ font-weight: bold; }}
ul {{ padding-left: 1.2em; }}
small {{ color: #666; }}
</style>
</head>
<body>
<h1>pgn-arbiter watch</h1>
<p>{n} boards, updated {now}. Yellow: a draw can be claimed now (Art. 9.2, 9.3). Grey: the game is over by the Laws.</p>
<table id="boards">
<thead><tr><th>Game</th><th>Last move</th><th>Ply</th><th>Repetitions</th><th>50-move count (half-moves)</th><th>Open claims</th><th>Game over</th><th>Result</th><th>Clocks (W / B)</th><th>Problem</th></tr></thead>
<tbody>
{rows}</tbody>
</table>
<h2>Latest events</h2>
<ul id="events">
{events}</ul>
</body>
</html>
"#,
        now = esc(now),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_move_of_the_fifty_move_count_is_one_move() {
        let board = |halfmoves| Board {
            halfmoves,
            ..Board::default()
        };
        let page = render(&[board(3)], &[], "now", 2);
        assert!(page.contains("3 <small>(1 move)</small>"), "{page}");
        let page = render(&[board(4)], &[], "now", 2);
        assert!(page.contains("4 <small>(2 moves)</small>"), "{page}");
    }
}
