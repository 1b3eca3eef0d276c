//! The splitter alone, on arbitrary bytes: no panic; games in order, apart,
//! inside the input, each slice inside its game's text; every byte outside
//! the games one the rules let fall between them (whitespace, or a line
//! that starts with `%` or `;`); and the chunks the pipeline cuts (at the
//! candidate boundaries, a cut found wrong glued again from the open
//! game's line, as `pipeline/chunks.rs` does) give the games of one pass.
//! The first byte sets the chunk size, so the fuzzer picks the cuts too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgn_arbiter::split::{
    cut_is_sound, last_boundary, line_start_before_blanks, next_boundary, EndState, Splitter,
};

/// A game as offsets into the whole input, comparable across chunkings.
#[derive(Debug, PartialEq, Eq)]
struct Game {
    text: (usize, usize),
    movetext: (usize, usize),
    tags: Vec<(Vec<u8>, Vec<u8>)>,
    swallowed: u32,
    unterminated: bool,
}

/// Where `part` lies in `whole`, which must hold it.
fn span(whole: &[u8], part: &[u8]) -> (usize, usize) {
    let start = part.as_ptr() as usize - whole.as_ptr() as usize;
    assert!(
        start + part.len() <= whole.len(),
        "a slice outside the input"
    );
    (start, start + part.len())
}

/// The games of `data[from..to]` (offsets into `data`) and where the
/// splitter stood at its end.
fn split(data: &[u8], from: usize, to: usize) -> (Vec<Game>, EndState) {
    let mut splitter = Splitter::new(&data[from..to]);
    let mut games = Vec::new();
    for g in splitter.by_ref() {
        let text = span(data, g.text);
        assert_eq!(
            text.0,
            from + g.offset,
            "a game's text starts at its offset"
        );
        let inside = |s: (usize, usize)| text.0 <= s.0 && s.1 <= text.1;
        let movetext = span(data, g.movetext);
        assert!(
            g.movetext.is_empty() || inside(movetext),
            "movetext in the text"
        );
        for (name, value) in &g.tags {
            assert!(
                inside(span(data, name)) && inside(span(data, value)),
                "tags in the text"
            );
        }
        games.push(Game {
            text,
            movetext: if g.movetext.is_empty() {
                (0, 0)
            } else {
                movetext
            },
            tags: g
                .tags
                .iter()
                .map(|(n, v)| (n.to_vec(), v.to_vec()))
                .collect(),
            swallowed: g.swallowed,
            unterminated: g.unterminated,
        });
    }
    let end = splitter
        .end_state()
        .cloned()
        .expect("set once the games ran out");
    (games, end)
}

/// The games of `data` cut into chunks of about `size` bytes at candidate
/// boundaries; a wrong cut is split again from the open game's line.
fn chunked(data: &[u8], size: usize) -> Vec<Game> {
    let mut cuts = vec![0];
    while let Some(&at) = cuts.last() {
        match next_boundary(data, at + size) {
            Some(b) if b < data.len() => {
                assert!(b >= at + size && data[b] == b'[' && data[b - 1] == b'\n');
                cuts.push(b);
            }
            _ => break,
        }
    }
    cuts.push(data.len());
    // every byte in exactly one chunk: the cuts rise from 0 to the end
    assert!(cuts.windows(2).all(|w| w[0] < w[1] || w[1] == data.len()));
    let mut games: Vec<Game> = Vec::new();
    let mut prev: Option<(usize, EndState)> = None;
    for w in cuts.windows(2) {
        let (mut start, end) = (w[0], w[1]);
        if let Some((pstart, state)) = &prev {
            if !cut_is_sound(state, &data[start..]) {
                let open = pstart + state.open_game_offset().expect("an open game");
                let taken = games.pop().expect("the open game was given");
                assert_eq!(taken.text.0, open, "the open game is the last one");
                start = line_start_before_blanks(data, *pstart, open);
            }
        }
        let (mut these, state) = split(data, start, end);
        games.append(&mut these);
        prev = Some((start, state));
    }
    games
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c | 0x1c..=0x1f)
}

fuzz_target!(|data: &[u8]| {
    let Some((&size, data)) = data.split_first() else {
        return;
    };
    let (games, _) = split(data, 0, data.len());
    // in order and apart; between them only what falls between games
    let mut in_game = vec![false; data.len()];
    let mut after = 0;
    for g in &games {
        assert!(g.text.0 >= after, "games overlap");
        in_game[g.text.0..g.text.1].fill(true);
        after = g.text.1.max(after);
    }
    let mut line = 0;
    for (at, &b) in data.iter().enumerate() {
        if at > 0 && data[at - 1] == b'\n' {
            line = at;
        }
        let between = is_space(b) || matches!(data[line], b'%' | b';');
        assert!(in_game[at] || between, "byte {at} is in no game");
    }
    // the last candidate boundary is the last of the chain of next ones
    let mut last = None;
    let mut from = 0;
    while let Some(b) = next_boundary(data, from) {
        last = Some(b);
        from = b + 1;
    }
    assert_eq!(last, last_boundary(data), "last_boundary");
    assert_eq!(
        chunked(data, 1 + size as usize % 64),
        games,
        "the same games in chunks"
    );
});
