//! `pgn-arbiter position`: for arbiters and tests, whether each side of a
//! position can still checkmate (Art. 9.6 / 5.2.2 dead position, Art. 6.9
//! loss on time), with the mating line or how the opposite was proven.

use std::fs;
use std::io::{self, BufWriter, Write};
use std::time::Instant;

use clap::ValueEnum;
use serde::Serialize;
use shakmaty::{Color, Position};

use pgn_arbiter::finding::side_name;
use pgn_arbiter::positions::{read_position, san_line};
use pgn_arbiter::rules::unwinnable::{Analyzer, Answer, Proof};
use pgn_arbiter::text::terminal_safe;
use pgn_arbiter::DeadMode;

use super::{dead_modes, Exit};

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
    /// Read positions from FILE (- for stdin), one FEN per line (words after
    /// the FEN are kept as a label; empty lines and lines starting with #
    /// are ignored).
    #[arg(long, value_name = "FILE")]
    pub file: Option<String>,
    /// One JSON object per position instead of text.
    #[arg(long)]
    pub json: bool,
    /// Which sides to decide for.
    #[arg(long = "for", value_enum, default_value_t = Sides::Both)]
    pub sides: Sides,
    /// How hard to decide: the modes of `audit --dead`, with the same budgets;
    /// thorough by default here (audit's default is quick): one position is
    /// worth the larger budget.
    #[arg(long, default_value = "thorough", value_parser = dead_modes())]
    pub dead: DeadMode,
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

/// One JSON object and its newline.
fn write_line(out: &mut impl Write, record: &PositionJson<'_>) -> io::Result<()> {
    serde_json::to_writer(&mut *out, record).map_err(io::Error::other)?;
    out.write_all(b"\n")
}

/// The bytes of `--file`: `-` is stdin, as `audit -` reads it.
fn read_file(path: &str) -> io::Result<Vec<u8>> {
    if path == "-" {
        let mut bytes = Vec::new();
        io::Read::read_to_end(&mut io::stdin().lock(), &mut bytes)?;
        return Ok(bytes);
    }
    fs::read(path)
}

/// Runs `position`: [`Exit::InputOrUsage`] when some FEN could not be read
/// or the file could not be opened (the others are still answered).
pub fn run(args: &PositionArgs) -> io::Result<Exit> {
    let mut code = Exit::Ok;
    let mut items: Vec<(String, usize, String)> = args
        .fens
        .iter()
        .enumerate()
        .map(|(i, f)| ("argument".to_string(), i + 1, f.clone()))
        .collect();
    if let Some(path) = &args.file {
        match read_file(path) {
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
                eprintln!("{}", terminal_safe(&line));
                code = Exit::InputOrUsage;
            }
        }
    }
    if items.is_empty() && code == Exit::Ok {
        eprintln!("pgn-arbiter: no positions given (FEN arguments or --file)");
        return Ok(Exit::InputOrUsage);
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
                eprintln!("{}", terminal_safe(&line));
                code = Exit::InputOrUsage;
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
            .map(|&side| {
                let answer = match budget {
                    Some(budget) => analyzer.can_mate(&pos, side, budget),
                    // material only: the engine is not asked
                    None if pos.has_insufficient_material(side) => {
                        Answer::Unwinnable(Proof::Material)
                    }
                    None => Answer::Unknown,
                };
                (side, answer)
            })
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
