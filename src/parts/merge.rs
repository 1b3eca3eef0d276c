//! The merge of parts: their findings with `game`, `offset` and `line`
//! made those of the whole input, their summaries as one run's, their
//! aggregates merged by [`AggregateMerge`] once their examples and
//! corrections are numbered as in the whole input.

use crate::aggregate::{Aggregate, AggregateMerge, GameShift};
use crate::report::summary::{InputSummary, RunSummary};
use crate::stats::Stats;
use crate::Error;

/// What the parts of a file before a part held: added to the part's own
/// `game`, `offset` and `line`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Shift {
    /// Games.
    pub games: u64,
    /// Uncompressed bytes.
    pub bytes: u64,
    /// Newlines.
    pub lines: u64,
}

/// Findings as a part wrote them, renumbered by a [`Shift`]: JSON Lines
/// (`Vec<u8>`, as `audit --jsonl` writes them) or, with the `arrow`
/// feature, record batches (`Vec<RecordBatch>`, as `report::arrow` makes
/// them).
pub trait Findings: Sized {
    /// The findings with `game`, `offset` and `line` moved on by `by`.
    fn shift(self, by: &Shift) -> Result<Self, Error>;
}

/// One part's output: its summary (with its [`PartInfo`]), findings and,
/// if written, aggregate.
///
/// [`PartInfo`]: crate::report::summary::PartInfo
#[derive(Debug, Clone)]
pub struct PartOutput<F> {
    /// `audit --part ... --summary-json`.
    pub summary: RunSummary,
    /// Its findings.
    pub findings: F,
    /// `audit --part ... --report-json`.
    pub aggregate: Option<Aggregate>,
}

/// The parts merged: what one run over the whole writes (but for the
/// summary's `seconds`, added, and `threads`, the largest, and the
/// aggregate's `run`, one entry per part).
#[derive(Debug, Clone)]
pub struct Merged<F> {
    /// The summary; `failed_conditions` is empty (a gate is checked on the
    /// merged counts: [`crate::gate::check`]).
    pub summary: RunSummary,
    /// The findings of each part, renumbered, in input order.
    pub findings: Vec<F>,
    /// The aggregate, if every part had one.
    pub aggregate: Option<Aggregate>,
}

/// Merges the outputs of every part of a plan (in any order): the result
/// equals one run over the inputs planned. Refused: a part that is not a
/// part's (no `part` in its summary), parts of different plans or laws, a
/// part missing or given twice. (To hold one part's findings at a time,
/// not all, merge by a [`MergePlan`] as `pgn-arbiter merge` does.)
pub fn merge<F: Findings>(parts: Vec<PartOutput<F>>) -> Result<Merged<F>, Error> {
    let plan = MergePlan::of(&parts.iter().map(|p| &p.summary).collect::<Vec<_>>())?;
    let mut slots: Vec<Option<PartOutput<F>>> = parts.into_iter().map(Some).collect();
    let mut findings = Vec::with_capacity(plan.order.len());
    let mut aggregates: Vec<Option<Aggregate>> = (0..slots.len()).map(|_| None).collect();
    for &i in &plan.order {
        let part = slots[i].take().expect("each part once");
        findings.push(part.findings.shift(plan.shift(i))?);
        aggregates[i] = part.aggregate;
    }
    let aggregate = plan.merge_aggregates(|i| Ok::<_, Error>(aggregates[i].take()))?;
    Ok(Merged {
        summary: plan.summary,
        findings,
        aggregate,
    })
}

/// A merge as the parts' summaries alone decide it: the parts' order in
/// the input, what each part's numbers move on by, and the merged summary.
/// Findings and aggregates are then merged one part at a time, in
/// [`MergePlan::order`]: a merge need not hold every part's findings.
#[derive(Debug, Clone)]
pub struct MergePlan {
    /// What one run over the whole writes (but for `seconds`, added,
    /// `threads`, the largest, and `failed_conditions`, empty: a gate is
    /// checked on the merged counts, [`crate::gate::check`]).
    pub summary: RunSummary,
    /// The parts (their places in the list given) in input order.
    pub order: Vec<usize>,
    shifts: Vec<Shift>,
    files: Vec<String>,
}

impl MergePlan {
    /// The plan for parts with these summaries (in any order). Refused: a
    /// summary that is not a part's (no `part`), parts of different plans
    /// or laws, a part missing or given twice.
    pub fn of(summaries: &[&RunSummary]) -> Result<MergePlan, Error> {
        let mut infos = Vec::with_capacity(summaries.len());
        for (i, s) in summaries.iter().enumerate() {
            let info = s.part.clone().ok_or_else(|| {
                Error::Data(format!(
                    "summary {i} is not of a part (no \"part\": written by `audit --part`?)"
                ))
            })?;
            if s.inputs.len() != 1 {
                return Err(Error::Data(format!(
                    "part {}: {} inputs in its summary, a part has one",
                    info.spec,
                    s.inputs.len()
                )));
            }
            infos.push(info);
        }
        let Some(first) = infos.first().cloned() else {
            return Err(Error::Usage("no part to merge".into()));
        };
        let mut order: Vec<usize> = (0..summaries.len()).collect();
        order.sort_by_key(|&i| infos[i].index);
        for (want, &i) in order.iter().enumerate() {
            let info = &infos[i];
            if info.of != first.of || info.index != want || summaries.len() != first.of {
                return Err(Error::Data(missing(&infos, first.of)));
            }
        }
        let laws = &summaries[0].laws;
        if let Some(s) = summaries.iter().find(|s| &s.laws != laws) {
            return Err(Error::Data(format!(
                "parts judged by different laws: {laws:?} and {:?}",
                s.laws
            )));
        }
        let mut inputs: Vec<InputSummary> = Vec::new();
        let mut shifts = vec![Shift::default(); summaries.len()];
        let mut shift = Shift::default();
        let (mut threads, mut seconds, mut interrupted) = (0, 0.0, false);
        for &i in &order {
            let part = summaries[i];
            let input = &part.inputs[0];
            match inputs.last_mut() {
                Some(last) if last.file == input.file => {}
                _ => {
                    shift = Shift::default();
                    inputs.push(InputSummary {
                        file: input.file.clone(),
                        error: None,
                        stats: Stats::default(),
                    });
                }
            }
            let whole = inputs.last_mut().expect("just pushed");
            whole.stats.merge(&input.stats);
            if whole.error.is_none() {
                whole.error.clone_from(&input.error);
            }
            shifts[i] = shift;
            threads = threads.max(part.threads);
            seconds += part.seconds;
            interrupted |= part.interrupted;
            shift.games += input.stats.games;
            shift.bytes += input.stats.bytes;
            shift.lines += infos[i].newlines;
        }
        let mut total = Stats::default();
        for input in &mut inputs {
            if input.error.is_none() {
                input.error = crate::run::no_game_error(&input.stats);
            }
            total.merge(&input.stats);
        }
        Ok(MergePlan {
            summary: RunSummary {
                threads,
                seconds,
                input_errors: inputs.iter().filter(|i| i.error.is_some()).count(),
                inputs,
                total,
                failed_conditions: Vec::new(),
                interrupted,
                part: None,
                ..summaries[0].clone()
            },
            order,
            shifts,
            files: summaries.iter().map(|s| s.inputs[0].file.clone()).collect(),
        })
    }

    /// What the `part`-th part's (in the list given) `game`, `offset` and
    /// `line` move on by.
    pub fn shift(&self, part: usize) -> &Shift {
        &self.shifts[part]
    }

    /// The `part`-th part's aggregate with its examples and corrections
    /// numbered as in the whole file, ready for [`AggregateMerge::add`] (in
    /// [`MergePlan::order`]).
    pub fn renumber(&self, part: usize, a: &mut Aggregate) {
        a.shift_games(self.game_shift(part));
    }

    /// How the `part`-th part's games move to be numbered as in the whole
    /// file.
    fn game_shift(&self, part: usize) -> GameShift<'_> {
        let by = &self.shifts[part];
        GameShift {
            file: &self.files[part],
            games: by.games,
            lines: by.lines,
        }
    }

    /// The parts' aggregates merged, each renumbered, in
    /// [`MergePlan::order`]: `aggregate(i)` gives the `i`-th part's (in the
    /// list given) when it is asked, so that one is held at a time. `None`
    /// when a part has none (then the rest are not asked for).
    pub fn merge_aggregates<E: From<Error>>(
        &self,
        aggregate: impl FnMut(usize) -> Result<Option<Aggregate>, E>,
    ) -> Result<Option<Aggregate>, E> {
        self.merge_aggregates_into(AggregateMerge::default(), aggregate)
    }

    /// [`MergePlan::merge_aggregates`] into `all` (one whose games go to
    /// a file: [`AggregateMerge::spooled_beside`]).
    pub fn merge_aggregates_into<E: From<Error>>(
        &self,
        mut all: AggregateMerge,
        mut aggregate: impl FnMut(usize) -> Result<Option<Aggregate>, E>,
    ) -> Result<Option<Aggregate>, E> {
        for &i in &self.order {
            let Some(mut a) = aggregate(i)? else {
                return Ok(None);
            };
            self.renumber(i, &mut a);
            all.add(&a)
                .map_err(|e| Error::Data(format!("part {i}: {e}")))?;
        }
        Ok(Some(all.finish().map_err(Error::Data)?))
    }

    /// The parts' aggregates in the files `paths` (one per part, in the
    /// list given) merged, each renumbered, in [`MergePlan::order`]: one
    /// aggregate in memory at a time, the games beside it read as they
    /// are counted ([`AggregateMerge::add_file`]).
    pub fn merge_aggregate_files_into(
        &self,
        mut all: AggregateMerge,
        paths: &[String],
    ) -> Result<Aggregate, Error> {
        for &i in &self.order {
            all.add_file(&paths[i], Some(self.game_shift(i)))
                .map_err(|e| Error::Data(format!("part {i}: {e}")))?;
        }
        all.finish().map_err(Error::Data)
    }
}

/// What is wrong with the parts' indices.
fn missing(infos: &[crate::report::summary::PartInfo], of: usize) -> String {
    if let Some(other) = infos.iter().find(|i| i.of != of) {
        return format!(
            "parts of different plans: {} and {} (a plan of {of} parts and one of {})",
            infos[0].spec, other.spec, other.of
        );
    }
    let mut seen = vec![0usize; of];
    for i in infos {
        seen[i.index] += 1;
    }
    if let Some(twice) = seen.iter().position(|&n| n > 1) {
        return format!("part {twice} of {of} given twice");
    }
    let absent: Vec<String> = (0..of)
        .filter(|&i| seen[i] == 0)
        .take(10)
        .map(|i| i.to_string())
        .collect();
    format!(
        "parts missing of a plan of {of}: {}{}",
        absent.join(", "),
        if seen.iter().filter(|&&n| n == 0).count() > 10 {
            ", ..."
        } else {
            ""
        }
    )
}

impl Findings for Vec<u8> {
    /// Every line is read, the first part's of a file too (no shift): a
    /// line that is not `audit --jsonl`'s fails the merge wherever it is.
    fn shift(self, by: &Shift) -> Result<Vec<u8>, Error> {
        let mut out = Vec::with_capacity(self.len() + self.len() / 50);
        for (n, line) in self.split_inclusive(|&b| b == b'\n').enumerate() {
            shift_line(line, by, &mut out).ok_or_else(|| {
                Error::Data(format!(
                    "findings line {}: not a line of `audit --jsonl` (it starts {{\"file\":...,\"game\":N,\"game_id\":...,\"offset\":N,\"line\":N)",
                    n + 1
                ))
            })?;
        }
        Ok(out)
    }
}

/// Copies one JSON line with its `game`, `offset` and `line` moved on:
/// the fields as [`crate::report::jsonl::write_line`] writes them, first
/// and in that order, so the rest of the line is copied byte for byte.
fn shift_line(line: &[u8], by: &Shift, out: &mut Vec<u8>) -> Option<()> {
    let rest = line.strip_prefix(b"{\"file\":\"")?;
    let mut i = 0;
    while rest.get(i)? != &b'"' {
        i += if rest[i] == b'\\' { 2 } else { 1 };
    }
    out.extend_from_slice(&line[..9 + i + 1]);
    let rest = &rest[i + 1..];
    let (game, rest) = number(rest, b",\"game\":")?;
    out.extend_from_slice(format!(",\"game\":{}", game.checked_add(by.games)?).as_bytes());
    let id_end = memchr::memmem::find(rest, b",\"offset\":")?;
    out.extend_from_slice(&rest[..id_end]);
    let (offset, rest) = number(&rest[id_end..], b",\"offset\":")?;
    let (at, rest) = number(rest, b",\"line\":")?;
    out.extend_from_slice(
        format!(
            ",\"offset\":{},\"line\":{}",
            offset.checked_add(by.bytes)?,
            at.checked_add(by.lines)?
        )
        .as_bytes(),
    );
    out.extend_from_slice(rest);
    Some(())
}

/// The number after `key` at the start of `s`, and what follows it.
fn number<'a>(s: &'a [u8], key: &[u8]) -> Option<(u64, &'a [u8])> {
    let s = s.strip_prefix(key)?;
    let digits = s.iter().take_while(|b| b.is_ascii_digit()).count();
    let n = std::str::from_utf8(&s[..digits]).ok()?.parse().ok()?;
    Some((n, &s[digits..]))
}

#[cfg(feature = "arrow")]
impl Findings for Vec<arrow_array::RecordBatch> {
    fn shift(self, by: &Shift) -> Result<Self, Error> {
        use arrow_array::cast::AsArray;
        use arrow_array::types::UInt64Type;
        use arrow_array::{ArrayRef, UInt64Array};
        use std::sync::Arc;
        if *by == Shift::default() {
            return Ok(self);
        }
        let mut out = Vec::with_capacity(self.len());
        for batch in self {
            let schema = batch.schema();
            let mut columns: Vec<ArrayRef> = batch.columns().to_vec();
            for (name, add) in [("game", by.games), ("offset", by.bytes), ("line", by.lines)] {
                let i = schema
                    .index_of(name)
                    .map_err(|e| Error::Data(e.to_string()))?;
                let col = columns[i].as_primitive_opt::<UInt64Type>().ok_or_else(|| {
                    Error::Data(format!(
                        "findings column {name} is not of unsigned integers"
                    ))
                })?;
                let moved: UInt64Array = col.unary(|v| v + add);
                columns[i] = Arc::new(moved);
            }
            out.push(
                arrow_array::RecordBatch::try_new(schema, columns)
                    .map_err(|e| Error::Data(e.to_string()))?,
            );
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_renumbered_and_the_rest_kept_byte_for_byte() {
        let line = b"{\"file\":\"a \\\"q\\\".pgn\",\"game\":3,\"game_id\":\"00ff\",\"offset\":120,\"line\":7,\"kind\":\"x\",\"game\":9}\n";
        let by = Shift {
            games: 10,
            bytes: 1000,
            lines: 50,
        };
        let out = line.to_vec().shift(&by).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"file\":\"a \\\"q\\\".pgn\",\"game\":13,\"game_id\":\"00ff\",\"offset\":1120,\"line\":57,\"kind\":\"x\",\"game\":9}\n"
        );
        let null_id =
            b"{\"file\":\"a\",\"game\":0,\"game_id\":null,\"offset\":0,\"line\":1}\n".to_vec();
        assert!(String::from_utf8(null_id.shift(&by).unwrap())
            .unwrap()
            .contains("\"game\":10,\"game_id\":null,\"offset\":1000,\"line\":51"));
        assert!(b"{\"file\":1}\n".to_vec().shift(&by).is_err());
        // without a shift (a file's first part): the same bytes, and a bad
        // line is still refused
        assert_eq!(line.to_vec().shift(&Shift::default()).unwrap(), line);
        assert!(b"{\"file\":1}\n".to_vec().shift(&Shift::default()).is_err());
    }
}
