//! `--export-pgn`: the games with findings, for a chess GUI. Each game is
//! written byte for byte as it was, except
//!
//! - a tag `PgnArbiterFindings` listing its kinds, after its last tag;
//! - a comment `{ pgn-arbiter: ... }` after the move that leads to the
//!   position of each finding (before the first move for the start
//!   position), so a GUI shows it where it happened;
//! - with `--fix-results`, the `Result` tag (and the result token ending the
//!   movetext) corrected where the Laws decide the result and it was proven:
//!   a fivefold repetition, 75 moves or a dead position under the edition in
//!   force (the game ended there, drawn: 9.6, whatever came after), else a
//!   final checkmate or stalemate the result contradicts (5.1, 5.2.1), else
//!   a loss on time the winner could not have won (6.9: drawn). The old value
//!   is kept in an `OriginalResult` tag. Never for a missed claim (the player
//!   chose to play on), never for an invalid game (its final position is not
//!   known), never on an unknown (the engine only reports what it proved):
//!   [`crate::rules::result::decided_result`] decides it. The notes of a
//!   corrected game agree with its new result: a missed claim says what the
//!   claimant got under it ("played on and drew (as corrected)"), never the
//!   recorded outcome the tag beside it no longer shows.

use std::io::{self, Write};

use crate::example::{describe, describe_fixed};
use crate::finding::{Finding, Kind};
use crate::parse::{Mainline, MovetextMap};
use crate::pipeline::{GameRecord, RunOutcome, Sink};
use crate::rules::result::decided_result;
use crate::split::Splitter;
use crate::text::escape_tag;

/// Writes the games with findings (of the chosen kinds) as PGN.
pub struct PgnExport {
    out: Box<dyn Write>,
    kinds: Option<Vec<Kind>>,
    fix_results: bool,
    /// Games written.
    pub games: u64,
    /// Games whose Result was corrected.
    pub fixed: u64,
    /// Games whose comments could not be placed at their moves (the
    /// movetext read otherwise than pgn-reader reads it): their comments
    /// stand before the first move, naming the ply.
    pub unplaced: u64,
}

/// A change to a game's text: replace `start..end` with `with`.
struct Edit {
    start: usize,
    end: usize,
    with: Vec<u8>,
}

impl PgnExport {
    /// `kinds`: only games with findings of these kinds (`None`: any).
    pub fn new(out: Box<dyn Write>, kinds: Option<Vec<Kind>>, fix_results: bool) -> PgnExport {
        PgnExport {
            out,
            kinds,
            fix_results,
            games: 0,
            fixed: 0,
            unplaced: 0,
        }
    }

    /// The game's text with the edits of its findings.
    fn edit(&mut self, game: &GameRecord<'_>, findings: &[&Finding]) -> Vec<u8> {
        let text = game.text;
        let mut edits: Vec<Edit> = Vec::new();
        let Some(raw) = Splitter::new(text).next() else {
            return text.to_vec();
        };
        let offset_of = |s: &[u8]| s.as_ptr() as usize - text.as_ptr() as usize;

        // the tags: after the last tag line
        let tags_end = raw
            .tags
            .last()
            .map(|(_, v)| {
                let v = offset_of(v);
                memchr::memchr(b'\n', &text[v..]).map_or(text.len(), |e| v + e + 1)
            })
            .unwrap_or(0);
        let mut kinds: Vec<&str> = findings.iter().map(|f| f.kind.name()).collect();
        kinds.dedup();
        let mut tags = format!("[PgnArbiterFindings \"{}\"]\n", kinds.join(","));
        if tags_end > 0 && !text[..tags_end].ends_with(b"\n") {
            tags.insert(0, '\n');
        }

        // the result, where the Laws decide it
        let valid = !findings.iter().any(|f| f.kind == Kind::InvalidGame);
        let old = raw.tag("Result").map(crate::parse::trim);
        let fixed = if self.fix_results && valid {
            decided_result(&game.report.findings).filter(|new| old != Some(new.as_bytes()))
        } else {
            None
        };
        let has_movetext = !raw.movetext.is_empty();
        let movetext_at = if has_movetext {
            offset_of(raw.movetext)
        } else {
            text.len()
        };
        if let Some(new) = fixed {
            self.fixed += 1;
            let old_text = old.map(|o| String::from_utf8_lossy(o).into_owned());
            tags.push_str(&format!(
                "[OriginalResult \"{}\"]\n",
                escape_tag(old_text.as_deref().unwrap_or("?"))
            ));
            match raw.tag("Result") {
                Some(v) => edits.push(Edit {
                    start: offset_of(v),
                    end: offset_of(v) + v.len(),
                    with: new.as_bytes().to_vec(),
                }),
                None => tags.push_str(&format!("[Result \"{new}\"]\n")),
            }
            if has_movetext {
                if let Some((s, e)) = MovetextMap::read(raw.movetext).result {
                    edits.push(Edit {
                        start: movetext_at + s,
                        end: movetext_at + e,
                        with: new.as_bytes().to_vec(),
                    });
                }
            }
        }
        edits.push(Edit {
            start: tags_end,
            end: tags_end,
            with: tags.into_bytes(),
        });

        // the notes agree with the corrected result
        let ended_at = game
            .report
            .findings
            .iter()
            .filter(|f| f.kind.is_automatic_draw())
            .map(|f| f.ply)
            .min();
        let describe = |f: &Finding| match fixed {
            Some(new) => describe_fixed(f, new, ended_at),
            None => describe(f),
        };
        self.comment_edits(raw.movetext, movetext_at, findings, &describe, &mut edits);
        apply(text, edits)
    }

    /// The comments, after the move that leads to each finding's ply (all
    /// before the first move, each with its ply, when the movetext cannot
    /// be mapped to the moves pgn-reader reads).
    fn comment_edits(
        &mut self,
        movetext: &[u8],
        movetext_at: usize,
        findings: &[&Finding],
        describe: &dyn Fn(&Finding) -> String,
        edits: &mut Vec<Edit>,
    ) {
        let has_movetext = !movetext.is_empty();
        let map = MovetextMap::read(movetext);
        let mut mainline = Mainline::default();
        mainline.read(movetext);
        let placed = has_movetext
            && map.moves.len() == mainline.sans.len()
            && map
                .moves
                .iter()
                .zip(&mainline.sans)
                .all(|((_, a), b)| a == b);
        if !placed {
            self.unplaced += 1;
        }
        let mut comments: Vec<(usize, String)> = Vec::new();
        for f in findings {
            let place = if placed {
                match f.ply as usize {
                    0 => Some(movetext_at),
                    i => map.moves.get(i - 1).map(|(end, _)| movetext_at + end),
                }
            } else {
                None
            };
            let mut note = describe(f);
            let at = match place {
                Some(at) => at,
                None => {
                    note = format!("at ply {}: {note}", f.ply);
                    movetext_at
                }
            };
            match comments.iter_mut().find(|(p, _)| *p == at) {
                Some((_, c)) => {
                    c.push_str("; ");
                    c.push_str(&note);
                }
                None => comments.push((at, note)),
            }
        }
        for (at, note) in comments {
            let comment = format!("{{ pgn-arbiter: {} }}", sanitize_comment(&note));
            let with = if !has_movetext {
                format!("\n{comment}\n")
            } else if at == movetext_at {
                format!("{comment} ")
            } else {
                format!(" {comment}")
            };
            edits.push(Edit {
                start: at,
                end: at,
                with: with.into_bytes(),
            });
        }
    }
}

/// `text` with the edits applied, in order of position (insertions at one
/// place in the order made).
fn apply(text: &[u8], mut edits: Vec<Edit>) -> Vec<u8> {
    edits.sort_by_key(|e| (e.start, e.end));
    let mut out = Vec::with_capacity(text.len() + 256);
    let mut pos = 0;
    for e in edits {
        if e.start < pos {
            continue; // overlapping edits cannot happen; never write garbage
        }
        out.extend_from_slice(&text[pos..e.start]);
        out.extend_from_slice(&e.with);
        pos = e.end;
    }
    out.extend_from_slice(&text[pos..]);
    out
}

impl Sink for PgnExport {
    fn game(&mut self, game: &GameRecord<'_>) -> io::Result<()> {
        let findings: Vec<&Finding> = game
            .report
            .findings
            .iter()
            .filter(|f| self.kinds.as_ref().is_none_or(|k| k.contains(&f.kind)))
            .collect();
        if findings.is_empty() {
            return Ok(());
        }
        let mut text = self.edit(game, &findings);
        while text.last().is_some_and(|b| b.is_ascii_whitespace()) {
            text.pop();
        }
        text.extend_from_slice(b"\n\n");
        self.games += 1;
        self.out.write_all(&text)
    }

    fn finish(&mut self, _run: &RunOutcome) -> io::Result<()> {
        self.out.flush()
    }
}

/// A comment cannot hold `}`; one line keeps GUIs happy.
fn sanitize_comment(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '}' => ')',
            '{' => '(',
            '\n' | '\r' => ' ',
            c => c,
        })
        .collect()
}
