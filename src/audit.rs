//! Auditing one game: replay the mainline from P0 and apply every rule at
//! every position (SPEC "What is checked in each game").

use std::cell::Cell;

use shakmaty::san::{San, SanPlus};
use shakmaty::{fen::Fen, CastlingMode, Chess, Color, Move, Position};

use crate::facets::Facets;
use crate::finding::{Detail, Finding, Spot};
use crate::kind::{ByKind, Kind, Severity};
use crate::laws::{parse_date, Day, Edition, Laws};
use crate::parse::{tag_text, trim, Mainline, MovetextReader, Variant};
use crate::rules::dead::{Dead, DeadMode};
use crate::rules::fifty::Fifty;
use crate::rules::repetition::Repetition;
use crate::rules::site::SiteRules;
use crate::rules::{flag, result, At, End};
use crate::site::{Site, SiteMode};
use crate::split::RawGame;

mod content;
pub use content::ContentId;
use content::{content_code, content_rest, content_start};

/// How a game was accounted for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Replayed to its last move.
    Analysed,
    /// Stopped at an `invalid_game` finding (Art. 3, 4): an illegal or
    /// unreadable move, or an illegal FEN.
    Invalid,
    /// Not analysed: a variant other than standard chess and Chess960.
    Skipped,
    /// Not a game: text the splitter cut as one with no tag pair, no move
    /// and no result token at its end (see [`is_no_game`]): a binary, a
    /// README, a run of NUL bytes. It keeps its place in the game index
    /// and is counted as skipped (`not_pgn`).
    NotPgn,
}

/// The tags every report line carries, present or not (SPEC "Reports").
pub const BASE_TAGS: [&str; 5] = ["White", "Black", "Date", "Result", "Site"];

/// The tags a report line carries by default besides [`BASE_TAGS`], where
/// the game has them.
pub const DEFAULT_TAGS: [&str; 7] = [
    "Event",
    "Round",
    "WhiteElo",
    "BlackElo",
    "TimeControl",
    "Termination",
    "ECO",
];

/// Which tags a game's report keeps: [`BASE_TAGS`], [`DEFAULT_TAGS`] and
/// those named, or every tag of the game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum TagSet {
    /// [`BASE_TAGS`] and [`DEFAULT_TAGS`].
    #[default]
    Default,
    /// The defaults and these.
    With(Vec<String>),
    /// Every tag of the game.
    All,
}

impl TagSet {
    /// Reads `all`, or a comma-separated list of tag names.
    pub fn parse(list: &str) -> TagSet {
        if list.trim().eq_ignore_ascii_case("all") {
            return TagSet::All;
        }
        let names: Vec<String> = list
            .split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .filter(|n| !BASE_TAGS.contains(n) && !DEFAULT_TAGS.contains(n))
            .map(String::from)
            .collect();
        if names.is_empty() {
            TagSet::Default
        } else {
            TagSet::With(names)
        }
    }

    /// The tags of `game` kept, [`BASE_TAGS`] first, each name once (the
    /// last value of a repeated name).
    fn select(&self, game: &RawGame<'_>) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        let mut keep = |name: &str, value: &[u8]| {
            if !out.iter().any(|(n, _)| n == name) {
                out.push((name.to_string(), tag_text(value)));
            }
        };
        let named: &[String] = match self {
            TagSet::With(names) => names,
            _ => &[],
        };
        for name in BASE_TAGS
            .iter()
            .chain(DEFAULT_TAGS.iter())
            .copied()
            .chain(named.iter().map(String::as_str))
        {
            if let Some(v) = game.tag(name) {
                keep(name, v);
            }
        }
        if *self == TagSet::All {
            for (name, _) in &game.tags {
                if let Ok(name) = std::str::from_utf8(name) {
                    if let Some(v) = game.tag(name) {
                        keep(name, v);
                    }
                }
            }
        }
        out
    }
}

/// The tags kept for a game's report, in order, each name once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReportTags(pub Vec<(String, String)>);

impl ReportTags {
    /// The value of tag `name`, if kept.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A game's fingerprint (SPEC "Reports": `game_id`): XXH3-128 of the
/// game's own text, carriage returns and trailing whitespace left out, so
/// the same game text has the same id wherever it stands and whatever its
/// line ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(pub u128);

impl GameId {
    /// The fingerprint of `text`, a game's own text ([`RawGame::text`]).
    pub fn of(text: &[u8]) -> GameId {
        let end = text
            .iter()
            .rposition(|b| !b.is_ascii_whitespace())
            .map_or(0, |i| i + 1);
        let text = &text[..end];
        if memchr::memchr(b'\r', text).is_none() {
            // the whole text at once: the same hash, without the state's
            // buffering
            return GameId(xxhash_rust::xxh3::xxh3_128(text));
        }
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        let mut from = 0;
        for cr in memchr::memchr_iter(b'\r', text) {
            h.update(&text[from..cr]);
            from = cr + 1;
        }
        h.update(&text[from..]);
        GameId(h.digest128())
    }
}

impl std::fmt::Display for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:032x}", self.0)
    }
}

/// Everything the audit of one game produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameReport {
    /// Offset of the game's first byte, relative to where its splitter
    /// started (the pipeline makes it absolute).
    pub offset: u64,
    /// Length of the game's own text, in bytes.
    pub len: u64,
    /// 1-based line of the game's first byte (the pipeline counts lines;
    /// an auditor alone leaves 0, and 1-based lines before its splitter's
    /// input are not known to it).
    pub line: u64,
    /// The game's fingerprint; present when there are findings.
    pub id: Option<GameId>,
    /// The game's content identity: present when it was judged (analysed
    /// or invalid) and has findings, or the auditor reads facets (for the
    /// statistics report, see [`Auditor::with_facets`]).
    pub content: Option<ContentId>,
    /// XXH3 of the game's start position and mainline alone (the
    /// [`ContentId`] without the tags), where it has moves and its content
    /// was read: what the duplicate finder compares beside the tags.
    pub mainline: Option<u64>,
    /// Whether the game was analysed, invalid, skipped, or no game at all.
    pub status: Status,
    /// Mainline half-moves replayed (legal moves only).
    pub plies: u32,
    /// The edition the game was judged by.
    pub edition: Edition,
    /// Sorted by ply, then by kind.
    pub findings: Vec<Finding>,
    /// Present when there are findings.
    pub tags: Option<Box<ReportTags>>,
    /// The kinds the proof engine left open (`Unknown` within its budget):
    /// whether a position of the game is dead (Art. 9.6 / 5.2.2), whether
    /// the side that won on time could still checkmate (Art. 6.9).
    pub undecided: ByKind<bool>,
    /// Tag sections swallowed by a comment of this game that ran on (see
    /// [`RawGame::swallowed`]), and whether the comment ran to the end of
    /// the input.
    pub swallowed: u32,
    /// A comment of this game was still open at the end of the input.
    pub unterminated: bool,
    /// The site whose rules also judged the game (SPEC "Site rules").
    pub site: Option<Site>,
    /// Whether the ruling its record names (a site's own draw, a loss on
    /// time) is one the game supports; `None` when none was checked.
    pub ruling: Option<bool>,
    /// What the statistics report breaks the game down by (read only when
    /// the auditor is asked to, see [`Auditor::with_facets`]).
    pub facets: Facets,
}

impl GameReport {
    /// How serious finding `f` of this game is for a pipeline: its kind's
    /// severity, an automatic draw scored as a win an error
    /// ([`Kind::severity_for`]).
    pub fn severity(&self, f: &Finding) -> Severity {
        f.kind
            .severity_for(self.tags.as_deref().and_then(|t| t.get("Result")))
    }
}

/// Per-thread state, reused from game to game.
#[derive(Default)]
pub struct Auditor {
    mainline: Mainline,
    repetition: Repetition,
    fifty: Fifty,
    dead: Dead,
    site: SiteRules,
    tags: TagSet,
    facets: bool,
    /// The reports carry the findings alone: no content id, tags or game
    /// id (see [`Auditor::findings_only`]).
    findings_only: bool,
    /// The bytes of the current game's [`ContentId`], reused.
    content: Vec<u8>,
    /// The moves the replay played, for the rules that look back
    /// ([`End::moves`]) and the game's [`ContentId`]: kept for every game,
    /// since a game with findings needs its id and playing it again cost
    /// more than recording (a second replay of every long game with
    /// findings: a fifth of TCEC's instructions).
    moves: Vec<Move>,
}

impl Auditor {
    /// An auditor with the default effort ([`DeadMode::Quick`]) and tags.
    pub fn new() -> Self {
        Self::default()
    }

    /// An auditor that proves dead positions with the given effort.
    pub fn with_effort(effort: DeadMode) -> Self {
        Self {
            dead: Dead::new(effort),
            ..Self::default()
        }
    }

    /// Judges the games of known sites by their site's rules too
    /// ([`SiteMode::Auto`] by default).
    pub fn with_sites(mut self, mode: SiteMode) -> Self {
        self.site = SiteRules::new(mode);
        self
    }

    /// Keeps these tags in the reports of games with findings.
    pub fn with_tags(mut self, tags: TagSet) -> Self {
        self.tags = tags;
        self
    }

    /// Reads every game's [`Facets`] for the statistics report.
    pub fn with_facets(mut self, facets: bool) -> Self {
        self.facets = facets;
        self
    }

    /// Reports carry the findings (and the plies, status, edition) alone,
    /// not the game's content id, tags or id: the live view reads nothing
    /// else, and audits each version of each game.
    pub(crate) fn findings_only(mut self) -> Self {
        self.findings_only = true;
        self
    }

    /// Audits one game.
    pub fn audit(&mut self, game: &RawGame<'_>, laws: Laws) -> GameReport {
        let next = Cell::new(&[][..]);
        let mut reader = MovetextReader::new(&next);
        self.audit_with(game, laws, &mut reader)
    }

    /// Audits one game, reading its movetext with `reader` (one reader can
    /// serve every game of a chunk).
    pub fn audit_with<'a>(
        &mut self,
        game: &RawGame<'a>,
        laws: Laws,
        reader: &mut MovetextReader<'a>,
    ) -> GameReport {
        self.audit_read(game, laws, |mainline| reader.read(game.movetext, mainline))
    }

    /// Audits one game whose movetext was read into `mainline` already
    /// (the live view reads each version once, and audits it twice).
    pub(crate) fn audit_parsed(
        &mut self,
        game: &RawGame<'_>,
        laws: Laws,
        mainline: &mut Mainline,
    ) -> GameReport {
        std::mem::swap(&mut self.mainline, mainline);
        let report = self.audit_read(game, laws, |_| {});
        std::mem::swap(&mut self.mainline, mainline);
        report
    }

    /// Audits one game, its movetext read into the auditor's mainline by
    /// `read`.
    fn audit_read(
        &mut self,
        game: &RawGame<'_>,
        laws: Laws,
        read: impl FnOnce(&mut Mainline),
    ) -> GameReport {
        let day = game_day(game);
        let edition = laws.edition_on(day);
        let mut report = GameReport {
            offset: game.offset as u64,
            len: game.text.len() as u64,
            line: 0,
            id: None,
            content: None,
            mainline: None,
            status: Status::Analysed,
            plies: 0,
            edition,
            findings: Vec::new(),
            tags: None,
            undecided: ByKind::default(),
            swallowed: game.swallowed,
            unterminated: game.unterminated,
            site: None,
            ruling: None,
            facets: if self.facets {
                Facets::of(game)
            } else {
                Facets::default()
            },
        };
        let variant = Variant::from_tag(game.tag("Variant"));
        if variant == Variant::Other {
            report.status = Status::Skipped;
            return report;
        }
        read(&mut self.mainline);
        if is_no_game(game, &self.mainline) {
            report.status = Status::NotPgn;
            return report;
        }
        // SPEC: the Result tag; when it is missing, the result token at the
        // end of the movetext; `*` means unknown.
        let result: &[u8] = match game.tag("Result") {
            Some(r) => trim(r),
            None => self.mainline.result_token.unwrap_or("*").as_bytes(),
        };

        match start_position(game, variant) {
            Ok(p0) => {
                self.site.start(game, day);
                self.replay(p0, edition, result, &mut report);
            }
            Err((side, reason)) => {
                report.status = Status::Invalid;
                report.findings.push(Finding {
                    kind: Kind::InvalidGame,
                    ply: 0,
                    side,
                    occurrences: 1,
                    detail: Detail::Invalid { mv: None, reason },
                    at: illegal_fen_spot(game),
                });
            }
        }
        // The statistics report counts every game by its content; otherwise
        // only the findings carry it, and none where the findings alone
        // are asked for ([`Auditor::findings_only`]).
        let lean = self.findings_only && !self.facets;
        if self.facets || (!lean && !report.findings.is_empty()) {
            let moves_start = content_start(&mut self.content, game);
            let start = self.content.len();
            let moves = &self.moves[..report.plies as usize];
            self.content.resize(start + 2 * moves.len(), 0);
            for (code, &m) in self.content[start..].chunks_exact_mut(2).zip(moves) {
                code.copy_from_slice(&content_code(m).to_le_bytes());
            }
            let rest = &self.mainline.sans[report.plies as usize..];
            content_rest(&mut self.content, rest);
            report.content = Some(ContentId(xxhash_rust::xxh3::xxh3_128(&self.content)));
            if !moves.is_empty() || !rest.is_empty() {
                let moves = &self.content[moves_start..];
                report.mainline = Some(xxhash_rust::xxh3::xxh3_64(moves));
            }
        }
        report.findings.sort_by_key(|f| (f.ply, f.kind));
        if !lean && !report.findings.is_empty() {
            report.tags = Some(Box::new(ReportTags(self.tags.select(game))));
            report.id = Some(GameId::of(game.text));
        }
        report
    }

    /// Replays the mainline from `p0`, calling each rule's hooks in the
    /// order [`crate::rules`] gives; records each move played for the
    /// game's [`ContentId`].
    fn replay(&mut self, p0: Chess, edition: Edition, result: &[u8], report: &mut GameReport) {
        let (repetition, fifty, dead, site, moves) = (
            &mut self.repetition,
            &mut self.fifty,
            &mut self.dead,
            &mut self.site,
            &mut self.moves,
        );
        repetition.start();
        fifty.start();
        dead.start(&p0);
        moves.clear();
        let mut pos = p0;
        let mut invalid: Option<Finding> = None;
        let mut ply: u32 = 0;
        loop {
            // Resolve the next move first: the position it is played from
            // is only analysed when the move is legal (SPEC, invalid games).
            let next = match resolve(&pos, self.mainline.sans.get(ply as usize), ply) {
                Ok(next) => next,
                Err(f) => {
                    invalid = Some(f);
                    break;
                }
            };
            let at = At::new(ply, &pos, next, edition);
            let occurrences = repetition.position(&at);
            fifty.position(&at);
            dead.position(&at);
            site.position(&at, occurrences);
            let Some(m) = next else { break };
            moves.push(m);
            repetition.play(&mut pos, m);
            ply += 1;
        }

        let valid = invalid.is_none();
        // Generated in place (an `Option<MoveList>` copied its 1.3 KB at
        // every game), and only as far as the rules ask; an invalid game's
        // list is not used.
        let final_legal = crate::rules::final_moves(&pos);
        let end = End {
            n: ply,
            valid,
            moves,
            pos: &pos,
            legal: valid.then_some(&final_legal),
            result,
            // Art. 6.9: who ran out of time, asked at the final position.
            flagged: valid.then(|| site.flagged(&pos, result)).flatten(),
        };
        let out = &mut report.findings;
        let dead_end = dead.finish(&end, &mut report.undecided, out);
        repetition.finish(&end, out);
        fifty.finish(&end, out);
        report.plies = end.n;
        if let Some(f) = invalid {
            out.push(f);
            report.status = Status::Invalid;
            // SPEC: no end-of-game checks, the final position is unknown.
        } else {
            result::wrong_result(&end, out);
            let dead_at_end = dead_end.proof.is_some();
            flag::unwinnable(&end, dead_end, dead, &mut report.undecided, out);
            flag::drawn(&end, dead_at_end, dead, &mut report.undecided, out);
        }
        // Last: a rulebook may read the Laws' findings.
        (report.site, report.ruling) = site.finish(&end, out);
    }
}

/// The day the game was played (SPEC, laws editions): by its `Date` tag,
/// or its `UTCDate` tag where `Date` is missing or has no year.
pub fn game_day(game: &RawGame<'_>) -> Option<Day> {
    let day = |name| game.tag(name).and_then(parse_date);
    day("Date").or_else(|| day("UTCDate"))
}

/// The move written at `ply`, resolved from `pos`: `Ok(None)` after the
/// last move, an `invalid_game` finding (Art. 3, 4) when it is a null move
/// or not a legal move there.
pub(crate) fn resolve(
    pos: &Chess,
    written: Option<&SanPlus>,
    ply: u32,
) -> Result<Option<Move>, Finding> {
    let Some(san_plus) = written else {
        return Ok(None);
    };
    let resolved = match san_plus.san {
        San::Null => Err("null move".to_string()),
        san => crate::san::resolve(pos, san).map_err(|e| e.to_string()),
    };
    resolved.map(Some).map_err(|reason| {
        let written = san_plus.to_string();
        Finding {
            kind: Kind::InvalidGame,
            ply,
            side: pos.turn(),
            occurrences: 1,
            at: Spot {
                san: Some(written.clone()),
                ..Spot::of(pos)
            },
            detail: Detail::Invalid {
                mv: Some(written),
                reason,
            },
        }
    })
}

/// Whether the text the splitter cut as a game is no game at all: it has
/// no tag pair (none whose name is a PGN symbol: a letter or digit, then
/// letters, digits and `_+#=:-`), pgn-reader reads no move in it but,
/// at most, a null move first (`--`: the `<!--` of an HTML comment, a
/// Markdown rule or option, which no record opens with), and it does not
/// end with a result token (`1-0`, `0-1`, `1/2-1/2`, `*`: in PGN the game
/// termination marker ends the movetext). A result token amid other text
/// does not make a game: `*` is a token wherever it stands, so it is all
/// over binaries and random bytes.
pub fn is_no_game(game: &RawGame<'_>, mainline: &Mainline) -> bool {
    mainline.sans.first().is_none_or(|m| m.san == San::Null)
        && !game.tags.iter().any(|(name, _)| is_symbol(name))
        && !(mainline.result_token.is_some() && ends_with_result(game.movetext))
}

/// A tag name is a symbol (PGN standard 8.1.1), which (7) starts with a
/// letter or digit and goes on with letters, digits and `_+#=:-`.
fn is_symbol(name: &[u8]) -> bool {
    name.first().is_some_and(u8::is_ascii_alphanumeric)
        && name
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b"_+#=:-".contains(&b))
}

/// Whether `text`, trailing whitespace aside, ends with a result token as
/// pgn-reader reads one (its dashes may be `-`, `–` or `—`, its halves
/// `1/2` or `½`).
pub(crate) fn ends_with_result(text: &[u8]) -> bool {
    let text = &text[..text
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |i| i + 1)];
    if text.ends_with(b"*") {
        return true;
    }
    ["-", "\u{2013}", "\u{2014}"].iter().any(|dash| {
        [("1", "0"), ("0", "1"), ("1/2", "1/2"), ("\u{bd}", "\u{bd}")]
            .iter()
            .any(|(a, b)| {
                text.strip_suffix(b.as_bytes())
                    .and_then(|t| t.strip_suffix(dash.as_bytes()))
                    .is_some_and(|t| t.ends_with(a.as_bytes()))
            })
    })
}

/// P0: the `FEN` tag whenever there is one (with or without `SetUp`), else
/// the standard start. An illegal FEN gives the side to move (as far as it
/// can be read) and the reason.
pub(crate) fn start_position(
    game: &RawGame<'_>,
    variant: Variant,
) -> Result<Chess, (Color, String)> {
    let Some(fen) = game.tag("FEN") else {
        return Ok(Chess::default());
    };
    let fen = trim(fen);
    let mode = match variant {
        Variant::Chess960 => CastlingMode::Chess960,
        _ => CastlingMode::Standard,
    };
    match Fen::from_ascii(fen) {
        Ok(parsed) => {
            let turn = parsed.as_setup().turn;
            parsed
                .into_position::<Chess>(mode)
                .map_err(|e| (turn, format!("illegal FEN: {e}")))
        }
        Err(e) => {
            let guess = match fen
                .split(|b| b.is_ascii_whitespace())
                .filter(|f| !f.is_empty())
                .nth(1)
            {
                Some(b"b") => Color::Black,
                _ => Color::White,
            };
            Err((guess, format!("illegal FEN: {e}")))
        }
    }
}

/// The spot of an illegal FEN: the FEN as written, its move number where it
/// can be read.
fn illegal_fen_spot(game: &RawGame<'_>) -> Spot {
    let fen = game.tag("FEN").map(trim).unwrap_or_default();
    Spot {
        fen: String::from_utf8_lossy(fen).into_owned(),
        move_number: Fen::from_ascii(fen)
            .map(|f| f.as_setup().fullmoves.get())
            .unwrap_or(1),
        san: None,
    }
}

#[cfg(test)]
mod tests {
    use super::GameId;

    /// The id is XXH3-128 of the text without its carriage returns and
    /// trailing whitespace, whether the text has carriage returns (hashed
    /// piece by piece) or not (hashed at once): pseudo-random texts over
    /// a few bytes, `\r` among them, of every length to 300.
    #[test]
    fn the_game_id_hashes_the_text_without_carriage_returns() {
        const BYTES: &[u8] = b"\r\n a1[";
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for len in 0..300 {
            for _ in 0..4 {
                let text: Vec<u8> = (0..len)
                    .map(|_| {
                        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                        BYTES[(seed >> 33) as usize % BYTES.len()]
                    })
                    .collect();
                let mut plain: Vec<u8> = text.iter().copied().filter(|&b| b != b'\r').collect();
                while plain.last().is_some_and(u8::is_ascii_whitespace) {
                    plain.pop();
                }
                let want = xxhash_rust::xxh3::xxh3_128(&plain);
                assert_eq!(GameId::of(&text).0, want, "{text:?}");
                assert_eq!(GameId::of(&plain).0, want, "{plain:?}");
            }
        }
    }
}
