//! A judged game's share of every count of the aggregate ([`Fact`]), and
//! its bytes in the file of games beside an aggregate. A run counts its
//! games from their facts; a merge counts the facts of all its parts again
//! in input order, leaving out every repeat it finds, so merged parts give
//! exactly the statistics of one run over the same inputs.
//!
//! The bytes of a fact: a flags byte (bit 0 analysed; bit 1 a site; bit 2
//! a ruling checked; bit 3 the ruling supported; bit 4 a correction; bit 5
//! examples), the plies (LEB128), the edition, the time class, the year (2
//! bytes, 0 unknown), the rating band (2, `u16::MAX` unknown), the site
//! (where bit 1), the recorded result's code and the result the Laws give
//! (0: none of their own), `White`, `Black`, the event's key and
//! `Termination` (each its length plus one, 0 for absent, then the bytes),
//! the findings (their number, then per finding the kind with bit 7 for
//! White to move, a detail code, the ply and the occurrences), then, where
//! flagged, the example rows (their number, then per row the finding's
//! index and the row as JSON, length first) and the correction (JSON,
//! length first). Integers little-endian.

use super::rows::{Correction, ExampleRow};
use crate::audit::Status;
use crate::example::{game_link, Example};
use crate::facets::Facets;
use crate::finding::{Detail, Outcome, Via};
use crate::kind::{ByKind, Family, Kind};
use crate::pipeline::GameRecord;
use crate::rules::result::decided_result;

/// Findings of a kind, counted in input order over the judged games, that
/// carry their example row: the report's examples are the first
/// [`super::EXAMPLES_PER_KIND`] of these outside repeats. (The first ones of
/// a part are the first ones of the whole while the parts are in order.)
pub(super) const EXAMPLE_CANDIDATES: u32 = 64;

/// One finding as the aggregate counts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct FactFinding {
    pub(super) kind: Kind,
    /// White to move at the finding's position.
    pub(super) white: bool,
    /// [`DETAIL_NONE`], a missed claim (1 + outcome × 2 + via), a site
    /// rule ([`DETAIL_RULE`] + rule), a flag scored otherwise
    /// ([`DETAIL_FLAG`]).
    pub(super) detail: u8,
    pub(super) ply: u32,
    pub(super) occurrences: u32,
}

pub(super) const DETAIL_NONE: u8 = 0;
pub(super) const DETAIL_RULE: u8 = 16;
pub(super) const DETAIL_FLAG: u8 = 32;

const OUTCOMES: [Outcome; 4] = [Outcome::Lost, Outcome::Drew, Outcome::Won, Outcome::Unknown];

impl FactFinding {
    /// The missed claim's outcome and via, where it is one.
    pub(super) fn missed(&self) -> Option<(Outcome, Via)> {
        (1..=8).contains(&self.detail).then(|| {
            let d = self.detail - 1;
            let via = if d & 1 == 1 {
                Via::Announced
            } else {
                Via::Occurred
            };
            (OUTCOMES[usize::from(d >> 1)], via)
        })
    }

    /// The site rule broken, as its index in [`crate::site::Rule::ALL`].
    pub(super) fn rule(&self) -> Option<usize> {
        (DETAIL_RULE..DETAIL_FLAG)
            .contains(&self.detail)
            .then(|| usize::from(self.detail - DETAIL_RULE))
    }
}

/// A judged game (analysed or invalid) as the aggregate counts it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Fact<'a> {
    pub(super) analysed: bool,
    pub(super) plies: u32,
    /// Index in [`crate::laws::Edition::ALL`].
    pub(super) edition: u8,
    /// Index in [`crate::facets::TimeClass::ALL`].
    pub(super) time_class: u8,
    /// 0: unknown.
    pub(super) year: u16,
    /// The band of mean rating (its low end); `u16::MAX`: unknown.
    pub(super) band: u16,
    /// Index in [`crate::site::Site::ALL`] of the site whose rules judged it.
    pub(super) site: Option<u8>,
    /// A ruling the record names, checked: whether the game supports it.
    pub(super) ruling: Option<bool>,
    /// The recorded result's code ([`RESULTS`]).
    pub(super) result: u8,
    /// The result the Laws give, where they decide one ([`decided_result`]).
    pub(super) laws: u8,
    pub(super) white: Option<&'a [u8]>,
    pub(super) black: Option<&'a [u8]>,
    /// The event's key ([`super::event::write_key`]).
    pub(super) event: Option<&'a [u8]>,
    pub(super) termination: Option<&'a [u8]>,
    pub(super) findings: Vec<FactFinding>,
    /// A finding's index → its example row.
    pub(super) examples: Vec<(u32, ExampleRow)>,
    /// The result the Laws decide otherwise than the tag, with where the
    /// game is (for the event's standings, Art. 11).
    pub(super) correction: Option<Correction>,
}

impl<'a> Fact<'a> {
    /// The fact of a judged game of recorded result `result`, whose event
    /// key is `event`. `candidates` counts each kind's findings so far: a
    /// finding among the first [`EXAMPLE_CANDIDATES`] of its kind carries
    /// its example row.
    pub(super) fn of(
        game: &GameRecord<'a>,
        result: u8,
        event: Option<&'a [u8]>,
        candidates: &mut ByKind<u32>,
    ) -> Fact<'a> {
        let r = game.report;
        let fa = &r.facets;
        let white = Facets::get(fa.white, game.text);
        let black = Facets::get(fa.black, game.text);
        let mut examples = Vec::new();
        let findings = r
            .findings
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let n = &mut candidates[f.kind];
                if *n < EXAMPLE_CANDIDATES {
                    examples.push((i as u32, example_row(Example::new(game, f))));
                }
                *n = n.saturating_add(1);
                let detail = match f.detail {
                    Detail::Missed { outcome, via } => {
                        let o = OUTCOMES.iter().position(|x| *x == outcome).unwrap_or(3) as u8;
                        1 + o * 2 + u8::from(via == Via::Announced)
                    }
                    Detail::SiteRule { rule, .. } => DETAIL_RULE + rule as u8,
                    Detail::DrawnFlag { .. } | Detail::Unwinnable { .. } => DETAIL_FLAG,
                    _ => DETAIL_NONE,
                };
                FactFinding {
                    kind: f.kind,
                    white: f.side.is_white(),
                    detail,
                    ply: f.ply,
                    occurrences: f.occurrences,
                }
            })
            .collect();
        let laws = decided_result(&r.findings).map_or(0, |l| result_code_of(l.as_bytes()));
        let analysed = r.status == Status::Analysed;
        let mut fact = Fact {
            analysed,
            plies: r.plies,
            edition: r.edition.index() as u8,
            time_class: fa.time_class as u8,
            year: fa.year.unwrap_or(0),
            band: fa.rating.map_or(u16::MAX, |m| m / 200 * 200),
            site: r.site.map(|s| s as u8),
            ruling: r.ruling,
            result,
            laws,
            white,
            black,
            event,
            termination: Facets::get(fa.termination, game.text),
            findings,
            examples,
            correction: None,
        };
        if analysed && result != 0 && laws != 0 && laws != result {
            if let (Some(_), Some(w), Some(b)) = (event, white, black) {
                fact.correction = Some(correction(game, w, b, result, laws));
            }
        }
        fact
    }

    /// Appends the fact's bytes (see the module's doc) to `out`.
    pub(super) fn write(&self, out: &mut Vec<u8>) {
        let flags = u8::from(self.analysed)
            | u8::from(self.site.is_some()) << 1
            | u8::from(self.ruling.is_some()) << 2
            | u8::from(self.ruling == Some(true)) << 3
            | u8::from(self.correction.is_some()) << 4
            | u8::from(!self.examples.is_empty()) << 5;
        out.push(flags);
        varint(out, u64::from(self.plies));
        out.push(self.edition);
        out.push(self.time_class);
        out.extend_from_slice(&self.year.to_le_bytes());
        out.extend_from_slice(&self.band.to_le_bytes());
        if let Some(s) = self.site {
            out.push(s);
        }
        out.push(self.result);
        out.push(self.laws);
        for s in [self.white, self.black, self.event, self.termination] {
            match s {
                Some(s) => {
                    varint(out, s.len() as u64 + 1);
                    out.extend_from_slice(s);
                }
                None => out.push(0),
            }
        }
        varint(out, self.findings.len() as u64);
        for f in &self.findings {
            out.push(f.kind.index() as u8 | u8::from(f.white) << 7);
            out.push(f.detail);
            varint(out, u64::from(f.ply));
            varint(out, u64::from(f.occurrences));
        }
        if !self.examples.is_empty() {
            varint(out, self.examples.len() as u64);
            for (i, row) in &self.examples {
                varint(out, u64::from(*i));
                json(out, row);
            }
        }
        if let Some(c) = &self.correction {
            json(out, c);
        }
    }

    /// The fact whose bytes start at `*at` in `bytes`; `*at` moves past
    /// them. `None` where they are cut short or malformed.
    pub(super) fn read(bytes: &'a [u8], at: &mut usize) -> Option<Fact<'a>> {
        let mut r = Reader { bytes, at: *at };
        let flags = r.byte()?;
        let plies = u32::try_from(r.varint()?).ok()?;
        let edition = r.byte()?;
        let time_class = r.byte()?;
        let year = u16::from_le_bytes(r.take(2)?.try_into().ok()?);
        let band = u16::from_le_bytes(r.take(2)?.try_into().ok()?);
        let site = if flags & 2 != 0 {
            Some(r.byte()?)
        } else {
            None
        };
        let result = r.byte()?;
        let laws = r.byte()?;
        let mut strings = [None; 4];
        for s in &mut strings {
            let n = r.varint()?;
            if n > 0 {
                *s = Some(r.take(usize::try_from(n - 1).ok()?)?);
            }
        }
        let n = r.varint()?;
        let mut findings = Vec::with_capacity(n.min(64) as usize);
        for _ in 0..n {
            let k = r.byte()?;
            findings.push(FactFinding {
                kind: *Kind::ALL.get(usize::from(k & 0x7f))?,
                white: k & 0x80 != 0,
                detail: r.byte()?,
                ply: u32::try_from(r.varint()?).ok()?,
                occurrences: u32::try_from(r.varint()?).ok()?,
            });
        }
        let mut examples = Vec::new();
        if flags & 32 != 0 {
            for _ in 0..r.varint()? {
                let i = u32::try_from(r.varint()?).ok()?;
                examples.push((i, r.json()?));
            }
        }
        let correction = if flags & 16 != 0 {
            Some(r.json()?)
        } else {
            None
        };
        if usize::from(edition) >= crate::laws::Edition::ALL.len()
            || usize::from(time_class) >= crate::facets::TimeClass::ALL.len()
            || site.is_some_and(|s| usize::from(s) >= crate::site::Site::ALL.len())
            || usize::from(result) >= RESULTS.len()
            || usize::from(laws) >= RESULTS.len()
        {
            return None;
        }
        *at = r.at;
        Some(Fact {
            analysed: flags & 1 != 0,
            plies,
            edition,
            time_class,
            year,
            band,
            site,
            ruling: (flags & 4 != 0).then_some(flags & 8 != 0),
            result,
            laws,
            white: strings[0],
            black: strings[1],
            event: strings[2],
            termination: strings[3],
            findings,
            examples,
            correction,
        })
    }

    /// Numbers its example rows and correction of `file` as in a whole of
    /// which they are the games after the first `games`, the lines after
    /// the first `lines` (a part's, `crate::parts`).
    pub(super) fn shift(&mut self, file: &str, games: u64, lines: u64) {
        for (_, row) in &mut self.examples {
            if row.file == file {
                row.game += games;
                row.line += lines;
            }
        }
        if let Some(c) = &mut self.correction {
            if c.file == file {
                c.game += games;
            }
        }
    }
}

/// The games of input `file` renumbered as a merge reads them: their
/// numbers move on by `games`, and their example rows' lines by `lines`
/// (a part's games, numbered as in the whole file: `crate::parts`).
#[derive(Debug, Clone, Copy)]
pub struct GameShift<'a> {
    /// The input whose games move.
    pub file: &'a str,
    /// Games before the part's first.
    pub games: u64,
    /// Lines before the part's first.
    pub lines: u64,
}

/// The recorded results, by code.
pub(super) const RESULTS: [&str; 4] = ["*", "1-0", "0-1", "1/2-1/2"];

/// The code of a `Result` tag's value ([`RESULTS`]; 0 for anything else).
pub(super) fn result_code(tag: Option<&[u8]>) -> u8 {
    result_code_of(tag.map(crate::parse::trim).unwrap_or_default())
}

fn result_code_of(v: &[u8]) -> u8 {
    RESULTS.iter().position(|r| r.as_bytes() == v).unwrap_or(0) as u8
}

/// A finding's example row.
fn example_row(e: Example) -> ExampleRow {
    ExampleRow {
        file: e.file,
        game: e.game,
        line: e.line,
        players: e.players,
        place: e.place,
        what: e.what,
        link: e.link,
    }
}

/// The correction of a game the Laws score `laws` where `result` is
/// recorded, by the first finding of a kind that decides a result (an
/// automatic draw, a result the board contradicts), with where an arbiter
/// finds the game.
fn correction(
    game: &GameRecord<'_>,
    white: &[u8],
    black: &[u8],
    result: u8,
    laws: u8,
) -> Correction {
    let r = game.report;
    let decides = r
        .findings
        .iter()
        .find(|f| matches!(f.kind.info().family, Family::AutomaticDraw | Family::Result));
    let tag = |n: &str| {
        r.tags
            .as_deref()
            .and_then(|t| t.get(n))
            .unwrap_or_default()
            .to_string()
    };
    Correction {
        file: game.file.to_string(),
        game: game.index + 1,
        game_id: r.id.map(|i| i.to_string()).unwrap_or_default(),
        white: String::from_utf8_lossy(white).into_owned(),
        black: String::from_utf8_lossy(black).into_owned(),
        recorded: RESULTS[usize::from(result)].to_string(),
        laws: RESULTS[usize::from(laws)].to_string(),
        kind: decides.map_or("", |f| f.kind.name()).to_string(),
        article: decides
            .map_or("", |f| f.kind.article(r.edition))
            .to_string(),
        round: tag("Round"),
        date: tag("Date"),
        link: game_link(&tag("Site"), decides.map_or(r.plies, |f| f.ply)),
    }
}

/// Appends `n` as LEB128.
pub(super) fn varint(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push(n as u8 | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// Appends `v` as JSON, its length first.
fn json<T: serde::Serialize>(out: &mut Vec<u8>, v: &T) {
    let text = serde_json::to_vec(v).expect("a row is JSON");
    varint(out, text.len() as u64);
    out.extend_from_slice(&text);
}

/// Reads bytes in order.
pub(super) struct Reader<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) at: usize,
}

impl<'a> Reader<'a> {
    pub(super) fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let s = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(s)
    }

    pub(super) fn byte(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }

    /// A LEB128 integer.
    pub(super) fn varint(&mut self) -> Option<u64> {
        let mut n = 0u64;
        let mut shift = 0;
        loop {
            let b = self.byte()?;
            n |= u64::from(b & 0x7f).checked_shl(shift)?;
            shift += 7;
            if b < 0x80 {
                return Some(n);
            }
            if shift > 63 {
                return None;
            }
        }
    }

    fn json<T: serde::de::DeserializeOwned>(&mut self) -> Option<T> {
        let n = usize::try_from(self.varint()?).ok()?;
        serde_json::from_slice(self.take(n)?).ok()
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A fact with every field set.
    pub(in crate::aggregate) fn rich_fact() -> Fact<'static> {
        Fact {
            analysed: true,
            plies: 300,
            edition: 2,
            time_class: 3,
            year: 2024,
            band: 1400,
            site: Some(1),
            ruling: Some(false),
            result: 1,
            laws: 3,
            white: Some(b"Adams, Michael"),
            black: Some(b""),
            event: None,
            termination: Some(b"Time forfeit"),
            findings: vec![
                FactFinding {
                    kind: Kind::MissedThreefold,
                    white: true,
                    detail: 1 + 2 * 2 + 1,
                    ply: 41,
                    occurrences: 3,
                },
                FactFinding {
                    kind: Kind::SiteRule,
                    white: false,
                    detail: DETAIL_RULE + 4,
                    ply: 300,
                    occurrences: 1,
                },
            ],
            examples: vec![(
                1,
                ExampleRow {
                    file: "a.pgn".into(),
                    game: 3,
                    line: 70,
                    players: "A - B".into(),
                    place: "21. Nf3".into(),
                    what: "x".into(),
                    link: None,
                },
            )],
            correction: Some(Correction {
                file: "a.pgn".into(),
                game: 3,
                recorded: "1-0".into(),
                laws: "1/2-1/2".into(),
                ..Correction::default()
            }),
        }
    }

    #[test]
    fn a_fact_reads_back_and_a_cut_one_does_not() {
        let fact = rich_fact();
        let mut bytes = Vec::new();
        fact.write(&mut bytes);
        Fact::default().write(&mut bytes);
        let mut at = 0;
        assert_eq!(Fact::read(&bytes, &mut at), Some(fact));
        assert_eq!(Fact::read(&bytes, &mut at), Some(Fact::default()));
        assert_eq!(at, bytes.len());
        let first = {
            let mut n = 0;
            Fact::read(&bytes, &mut n);
            n
        };
        for cut in 0..first {
            let mut at = 0;
            assert_eq!(Fact::read(&bytes[..cut], &mut at), None, "cut at {cut}");
            assert_eq!(at, 0);
        }
        let missed = rich_fact().findings[0];
        assert_eq!(missed.missed(), Some((Outcome::Won, Via::Announced)));
        assert_eq!(missed.rule(), None);
        assert_eq!(rich_fact().findings[1].rule(), Some(4));
        assert_eq!(rich_fact().findings[1].missed(), None);
    }
}
