//! A finding as a person finds it: which game (counted from 1), who played
//! it, the move as people write it, what happened in words, and a link
//! where the game's `Site` is one. The printers (human summary, GitHub,
//! SARIF, JUnit, the PGN export's notes) and the statistics report's
//! examples all say it this way.

use crate::finding::{Detail, Finding, Kind, Outcome, Via};
use crate::pipeline::GameRecord;
use crate::site::{Rule, Site};

/// One finding, as a person reads it.
#[derive(Debug, Clone)]
pub struct Example {
    /// The finding's kind.
    pub kind: Kind,
    /// The input's name in the reports.
    pub file: String,
    /// 1-based game number in its file.
    pub game: u64,
    /// 1-based line of the game's first byte.
    pub line: u64,
    /// The finding's ply (0 = start position).
    pub ply: u32,
    /// "White - Black, 2021.03.04"
    pub players: String,
    /// "2. Ke3", or "move 34, Black to move"
    pub place: String,
    /// What happened, in a few words.
    pub what: String,
    /// The game on its site, at the ply (Lichess), where `Site` is a URL.
    pub link: Option<String>,
}

impl Example {
    /// The finding as people read it in one line: "game 18 (line 1234),
    /// 2. Ke3: what happened — White - Black, 2021.03.04" (GitHub, SARIF
    /// and JUnit messages).
    pub fn sentence(&self) -> String {
        format!(
            "game {} (line {}), {}: {} — {}",
            self.game, self.line, self.place, self.what, self.players
        )
    }

    /// Finding `f` of `game`, written out.
    pub fn new(game: &GameRecord<'_>, f: &Finding) -> Example {
        let tags = game.report.tags.as_deref();
        let tag = |n: &str| tags.and_then(|t| t.get(n)).unwrap_or("?").to_string();
        let mut players = format!("{} - {}", tag("White"), tag("Black"));
        if let Some(d) = tags.and_then(|t| t.get("Date")) {
            players.push_str(", ");
            players.push_str(d);
        }
        let side = if f.side.is_white() { "White" } else { "Black" };
        let place = match &f.at.san {
            Some(san) => f.at.move_text(f.side, san),
            None => format!("move {}, {side} to move", f.at.move_number),
        };
        let link = tags
            .and_then(|t| t.get("Site"))
            .and_then(|s| game_link(s, f.ply));
        Example {
            kind: f.kind,
            file: game.file.to_string(),
            game: game.index + 1,
            line: game.report.line,
            ply: f.ply,
            players,
            place,
            what: describe(f),
            link,
        }
    }

    /// "file: game 18 (line 1234), 2. Ke3"
    pub fn locus(&self) -> String {
        format!(
            "{}: game {} (line {}), {}",
            self.file, self.game, self.line, self.place
        )
    }
}

/// The game on its site where `site` (the `Site` tag) is a URL: Lichess
/// at the ply.
pub fn game_link(site: &str, ply: u32) -> Option<String> {
    if !(site.starts_with("https://") || site.starts_with("http://")) {
        return None;
    }
    Some(if site.contains("lichess.org/") && !site.contains('#') {
        format!("{site}#{ply}")
    } else {
        site.to_string()
    })
}

/// What a finding says, in a few words.
pub fn describe(f: &Finding) -> String {
    describe_with(f, None)
}

/// What a finding of a game whose result was corrected to `result` says
/// (`--fix-results`): a missed claim's outcome is what the claimant got
/// under the corrected result, so the note never contradicts the `Result`
/// tag beside it ("played on and lost" in a game now scored ½-½); a claim
/// that stood only after the automatic draw `ended_at` (a ply) came after
/// the game had ended.
pub fn describe_fixed(f: &Finding, result: &str, ended_at: Option<u32>) -> String {
    describe_with(f, Some((result, ended_at)))
}

/// Why a game is invalid, in the words of docs/AUDIT.md and the Laws (Art. 3,
/// 4: an illegal move). The JSON Lines' `reason` keeps shakmaty's words
/// (`illegal san`, `ambiguous san`), which the oracle's findings hold too
/// and the differential test compares.
fn human_reason(reason: &str) -> String {
    match reason {
        "illegal san" => "illegal move".to_string(),
        "ambiguous san" => "ambiguous move".to_string(),
        other => other.to_string(),
    }
}

fn describe_with(f: &Finding, fixed: Option<(&str, Option<u32>)>) -> String {
    let side = if f.side.is_white() { "White" } else { "Black" };
    match (&f.detail, f.kind) {
        (Detail::Invalid { reason, .. }, _) => human_reason(reason),
        (Detail::Missed { outcome, via }, kind) => {
            let what = kind.info().plain;
            let how = match (via, &f.at.san) {
                (Via::Announced, Some(san)) => {
                    format!(" by announcing {}", f.at.move_text(f.side, san))
                }
                (Via::Announced, None) => " by announcing a move".to_string(),
                (Via::Occurred, _) => " here".to_string(),
            };
            let outcome = match fixed {
                Some((result, _)) => Outcome::for_color(f.side, result.as_bytes()),
                None => *outcome,
            };
            let then = match (outcome, fixed) {
                (_, Some((_, Some(end)))) if end < f.ply => {
                    "the game had already ended drawn (as corrected)"
                }
                (Outcome::Lost, None) => "played on and lost",
                (Outcome::Drew, None) => "played on and drew",
                (Outcome::Won, None) => "played on and won",
                (Outcome::Lost, Some(_)) => "played on and lost (as corrected)",
                (Outcome::Drew, Some(_)) => "played on and drew (as corrected)",
                (Outcome::Won, Some(_)) => "played on and won (as corrected)",
                (Outcome::Unknown, _) => "played on",
            };
            format!("{side} could have claimed {what}{how}; {then}")
        }
        (Detail::None, kind) => kind.info().plain.to_string(),
        (Detail::Dead { proof }, _) => {
            format!(
                "no checkmate possible any more (proof: {}): drawn",
                proof.as_str()
            )
        }
        (Detail::Unwinnable { winner, proof }, _) => format!(
            "lost on time, but {} could not have mated (proof: {}): ½-½ (6.9)",
            if winner.is_white() { "White" } else { "Black" },
            proof.as_str()
        ),
        (Detail::DrawnFlag { winner, mate }, _) => format!(
            "lost on time and scored ½-½, but {} could have mated ({}): the point is theirs (6.9)",
            if winner.is_white() { "White" } else { "Black" },
            first_moves(mate, 6)
        ),
        (Detail::SiteRule { site, rule }, _) => site_rule_sentence(*site, *rule),
        (Detail::WrongResult { reason }, _) => format!("{reason}; the Result tag disagrees"),
    }
}

/// What a `site_rule` finding says, for people.
fn site_rule_sentence(site: Site, rule: Rule) -> String {
    let what = match rule {
        Rule::Material => "draws by itself on this material, yet the game went on or was not scored ½-½",
        Rule::FiftyMoves => "draws by itself at 100 half-moves without capture or pawn move, yet the game went on or was not scored ½-½",
        Rule::Repetition => "draws by itself on this repetition, yet the game went on or was not scored ½-½",
        Rule::Timeout if site == Site::FideOnline => {
            "draws a loss on time to a side that could not mate by any series of legal moves, yet it was scored as a win"
        }
        Rule::Timeout => "draws a loss on time against this material, yet it was scored as a win",
        Rule::Ruling => "would not rule as the record says: the game does not support it",
        Rule::DeadPosition => "draws by itself in this dead position, yet the game went on or was not scored ½-½",
    };
    format!("{} {what} (site rules)", site.title())
}

/// The first `n` words of a line of moves, `...` after them when more
/// follow.
fn first_moves(line: &str, n: usize) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    if words.len() <= n {
        line.to_string()
    } else {
        format!("{} ...", words[..n].join(" "))
    }
}
