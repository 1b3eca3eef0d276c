//! The `position` subcommand: for arbiters and tests, whether each side of
//! a position can still checkmate (Art. 9.6 / 5.2.2 dead position, Art. 6.9
//! loss on time), with the mating line or how the opposite was proven.

use std::fmt::Write as _;
use std::fs;
use std::io::{self, BufWriter, Write};
use std::time::Instant;

use clap::ValueEnum;
use serde::Serialize;
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Color, Move, Position};

use crate::finding::side_name;
use crate::rules::unwinnable::{Analyzer, Answer, Budget};

/// Which sides are asked about.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Sides {
    /// White and Black.
    Both,
    /// White only.
    White,
    /// Black only.
    Black,
    /// The side to move.
    ToMove,
    /// The side not to move (the winner when the side to move lost on time).
    NotToMove,
}

impl Sides {
    fn of(self, turn: Color) -> &'static [Color] {
        match (self, turn) {
            (Sides::Both, _) => &[Color::White, Color::Black],
            (Sides::White, _)
            | (Sides::ToMove, Color::White)
            | (Sides::NotToMove, Color::Black) => &[Color::White],
            _ => &[Color::Black],
        }
    }
}

/// The arguments of `position`.
#[derive(clap::Args, Debug)]
pub struct PositionArgs {
    /// Positions in FEN (quote each one).
    #[arg(value_name = "FEN")]
    pub fens: Vec<String>,
    /// Read positions from FILE, one FEN per line (words after the FEN are
    /// kept as a label; empty lines and lines starting with # are ignored).
    #[arg(long, value_name = "FILE")]
    pub file: Option<String>,
    /// One JSON object per position instead of text.
    #[arg(long)]
    pub json: bool,
    /// Which sides to decide for.
    #[arg(long = "for", value_enum, default_value_t = Sides::Both)]
    pub sides: Sides,
    /// Effort: quick (the audit's budget) or thorough.
    #[arg(long, value_enum, default_value_t = Effort::Thorough)]
    pub dead: Effort,
}

/// How much the unwinnability engine may spend per question.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Effort {
    /// The audit's budget: a short search for a mate, no enumeration.
    Quick,
    /// A long search for a mate, then every reachable position enumerated.
    Thorough,
}

impl Effort {
    /// The engine's budget for this effort.
    pub fn budget(self) -> Budget {
        match self {
            Effort::Quick => Budget::QUICK,
            Effort::Thorough => Budget::THOROUGH,
        }
    }
}

#[derive(Serialize)]
struct SideJson {
    side: &'static str,
    verdict: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    proof: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mate: Option<Vec<String>>,
}

#[derive(Serialize)]
struct PositionJson<'a> {
    source: &'a str,
    line: usize,
    fen: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    label: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    sides: Vec<SideJson>,
    micros: u64,
}

/// Splits a line into the FEN (its first six fields, or fewer when the line
/// ends or a word cannot be the next field) and the rest.
fn split_fen(line: &str) -> (&str, &str) {
    let mut fields = 0;
    let mut in_word = false;
    for (i, c) in line.char_indices() {
        if c.is_whitespace() {
            if in_word {
                fields += 1;
                in_word = false;
                if fields == 6 {
                    return (&line[..i], line[i..].trim());
                }
            }
        } else if !in_word {
            // A word that cannot be the next field ends the FEN early (FENs
            // without clocks, "<placement> w - -", or without castling and
            // en-passant fields, "<placement> w").
            let word = line[i..].split_whitespace().next().unwrap_or("");
            let fits = match fields {
                2 => word == "-" || word.chars().all(|c| "KQkqABCDEFGHabcdefgh".contains(c)),
                3 => word == "-" || (word.len() == 2 && word.as_bytes()[0].is_ascii_lowercase()),
                4 | 5 => c.is_ascii_digit(),
                _ => true,
            };
            if !fits {
                return (line[..i].trim_end(), line[i..].trim());
            }
            in_word = true;
        }
    }
    (line.trim(), "")
}

/// A position as an arbiter would set it up: composed positions with more
/// material than a game can reach, or an impossible check, are still
/// analysed (the rules of movement apply to them all the same).
pub fn read_position(text: &str) -> Result<Chess, String> {
    let fen: Fen = text
        .parse()
        .map_err(|e: shakmaty::fen::ParseFenError| e.to_string())?;
    let error = match fen.into_position::<Chess>(CastlingMode::Standard) {
        Ok(pos) => return Ok(pos),
        Err(e) => e,
    };
    let message = error.to_string();
    let error = match error.ignore_too_much_material() {
        Ok(pos) => return Ok(pos),
        Err(e) => e,
    };
    error.ignore_impossible_check().map_err(|_| message)
}

/// One JSON object and its newline.
fn write_line(out: &mut impl Write, record: &PositionJson<'_>) -> io::Result<()> {
    serde_json::to_writer(&mut *out, record).map_err(io::Error::other)?;
    out.write_all(b"\n")
}

/// SAN of a line of moves from `pos`, with move numbers.
pub fn san_line(pos: &Chess, line: &[Move]) -> Vec<String> {
    let mut pos = pos.clone();
    let mut out = Vec::with_capacity(line.len());
    for &m in line {
        let mut text = String::new();
        let number = pos.fullmoves().get();
        if pos.turn() == Color::White {
            let _ = write!(text, "{number}. ");
        } else if out.is_empty() {
            let _ = write!(text, "{number}... ");
        }
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, m);
        let _ = write!(text, "{san}");
        out.push(text);
    }
    out
}

/// Runs `position`; returns the exit code (2 when some FEN could not be
/// read or the file could not be opened; the others are still answered).
pub fn run_position(args: &PositionArgs) -> i32 {
    match position(args) {
        Ok(code) => code,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            eprintln!("pgn-arbiter: {e}");
            2
        }
    }
}

fn position(args: &PositionArgs) -> io::Result<i32> {
    let mut code = 0;
    let mut items: Vec<(String, usize, String)> = args
        .fens
        .iter()
        .enumerate()
        .map(|(i, f)| ("argument".to_string(), i + 1, f.clone()))
        .collect();
    if let Some(path) = &args.file {
        match fs::read(path) {
            Ok(bytes) => {
                let text = String::from_utf8_lossy(&bytes);
                for (i, line) in text.lines().enumerate() {
                    let line = line.trim();
                    if line.is_empty() || line.starts_with('#') {
                        continue;
                    }
                    items.push((path.clone(), i + 1, line.to_string()));
                }
            }
            Err(e) => {
                let line = format!("pgn-arbiter: {path}: {e}");
                eprintln!("{}", crate::text::terminal_safe(&line));
                code = 2;
            }
        }
    }
    if items.is_empty() && code == 0 {
        eprintln!("pgn-arbiter: no positions given (FEN arguments or --file)");
        return Ok(2);
    }
    let budget = args.dead.budget();
    let mut analyzer = Analyzer::new();
    let mut out = BufWriter::new(io::stdout().lock());
    for (source, number, text) in &items {
        let (fen_text, label) = split_fen(text);
        let record = |error, sides, micros| PositionJson {
            source,
            line: *number,
            fen: fen_text,
            label,
            error,
            sides,
            micros,
        };
        let parsed = read_position(fen_text);
        let pos = match parsed {
            Ok(pos) => pos,
            Err(e) => {
                let text = text.trim();
                let line = format!("pgn-arbiter: {source}: line {number}: {text}: {e}");
                eprintln!("{}", crate::text::terminal_safe(&line));
                code = 2;
                if args.json {
                    write_line(&mut out, &record(Some(e), Vec::new(), 0))?;
                }
                continue;
            }
        };
        let started = Instant::now();
        let answers: Vec<(Color, Answer)> = args
            .sides
            .of(pos.turn())
            .iter()
            .map(|&side| (side, analyzer.can_mate(&pos, side, budget)))
            .collect();
        let micros = started.elapsed().as_micros() as u64;
        let sides: Vec<SideJson> = answers
            .iter()
            .map(|(side, answer)| match answer {
                Answer::Winnable(line) => SideJson {
                    side: side_name(*side),
                    verdict: "winnable",
                    proof: None,
                    mate: Some(san_line(&pos, line)),
                },
                Answer::Unwinnable(proof) => SideJson {
                    side: side_name(*side),
                    verdict: "unwinnable",
                    proof: Some(proof.as_str()),
                    mate: None,
                },
                Answer::Unknown => SideJson {
                    side: side_name(*side),
                    verdict: "unknown",
                    proof: None,
                    mate: None,
                },
            })
            .collect();
        if args.json {
            write_line(&mut out, &record(None, sides, micros))?;
        } else {
            writeln!(out, "{fen_text}")?;
            for s in &sides {
                let detail = match (&s.proof, &s.mate) {
                    (Some(p), _) => format!(" ({p})"),
                    (_, Some(l)) if l.is_empty() => " (already checkmate)".to_string(),
                    (_, Some(l)) => format!(": {}", l.join(" ")),
                    _ => String::new(),
                };
                writeln!(out, "  {}: {}{detail}", s.side, s.verdict)?;
            }
        }
    }
    out.flush()?;
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::split_fen;

    #[test]
    fn fen_and_label_are_split_after_six_fields_or_at_a_word() {
        assert_eq!(
            split_fen("8/8/8/8/8/8/8/K6k w - - 0 1 abc def"),
            ("8/8/8/8/8/8/8/K6k w - - 0 1", "abc def")
        );
        assert_eq!(
            split_fen("8/8/8/8/8/8/8/K6k w - - gameid"),
            ("8/8/8/8/8/8/8/K6k w - -", "gameid")
        );
        assert_eq!(
            split_fen("8/8/8/8/8/8/8/K6k w - -"),
            ("8/8/8/8/8/8/8/K6k w - -", "")
        );
        // Test vector line 1461: two fields, then CHA's label.
        assert_eq!(
            split_fen("8/8/8/8/8/8/8/K6k b W-"),
            ("8/8/8/8/8/8/8/K6k b", "W-")
        );
        assert_eq!(
            split_fen("8/8/8/8/8/8/8/K6k b KQ --"),
            ("8/8/8/8/8/8/8/K6k b KQ", "--")
        );
        assert_eq!(
            split_fen("8/8/8/8/8/8/8/K6k b - e3 -B"),
            ("8/8/8/8/8/8/8/K6k b - e3", "-B")
        );
    }
}
