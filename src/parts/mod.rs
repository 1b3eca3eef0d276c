//! One input over many machines: a plan cuts inputs into size-balanced
//! parts, each part is audited alone ([`audit_part`]), and [`merge`] makes
//! of the parts' findings, summaries and aggregates exactly the output of
//! one run over the whole: `game`, `offset` and `line` counted from the
//! start of each file, every count added.
//!
//! A part reads the games that start in it, whole:
//!
//! - plain PGN: bytes `start..end`, both cuts at game boundaries found by
//!   the pipeline's rule ([`split::next_boundary`]: a `[` starting a line
//!   after a blank line), each checked against the game before it;
//! - pzstd (Lichess's dumps): a range of frames; the part begins at the
//!   first such boundary in its frames and reads on into the frames after
//!   its own to finish its last game (see `input/parts.rs`);
//! - Parquet: a range of row groups (a game per row);
//! - anything else (a single zstd frame, old Mac line ends, an empty
//!   file): one part, and the plan says why.
//!
//! A cut can fall inside a game (a comment or a tag section that holds a
//! blank line and then a line starting with `[`). A part checks, with the
//! splitter's state at its end, that its last game ended at the cut; when
//! it did not, the part's input carries an error saying so, and the merge
//! keeps it: nothing is silently miscounted.

mod merge;

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::Instant;

pub use self::merge::{merge, Findings, MergePlan, Merged, PartOutput, Shift};
pub use crate::input::parts::PartRange;
use crate::input::parts::{layout, open_part, Layout};
use crate::input::{self, InputPath};
pub use crate::report::summary::PartInfo;
use crate::run::Audit;
use crate::sink::{RunOutcome, Sink};
use crate::split;
use crate::{pipeline, Error};

/// One part of a plan: which bytes of which file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// Its index in the plan (0-based, over every input planned).
    pub index: usize,
    /// The parts in the plan.
    pub of: usize,
    /// The input's name in the reports: its path, as given or as found in a
    /// directory.
    pub file: String,
    /// Which of its bytes.
    pub range: PartRange,
}

/// A plan: the parts, in input order, and for each file read as one part
/// although more were asked, why.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The parts; their indices are 0, 1, 2, ...
    pub parts: Vec<Part>,
    /// `(file, why)` for each file that is one part only because it cannot
    /// be cut.
    pub notes: Vec<(String, String)>,
}

impl Part {
    /// The part as one line of text, read back by [`Part::parse`]:
    /// `INDEX/OF:RANGE:PATH`, RANGE being `whole`, `bytes=S-E`,
    /// `frames=S-E` (compressed offsets of pzstd frame headers) or
    /// `groups=S-E` (Parquet row groups).
    pub fn spec(&self) -> String {
        let range = match self.range {
            PartRange::Whole => "whole".to_string(),
            PartRange::Bytes { start, end } => format!("bytes={start}-{end}"),
            PartRange::Frames { start, end } => format!("frames={start}-{end}"),
            PartRange::RowGroups { start, end } => format!("groups={start}-{end}"),
        };
        format!("{}/{}:{range}:{}", self.index, self.of, self.file)
    }

    /// Reads a part written by [`Part::spec`].
    pub fn parse(spec: &str) -> Result<Part, Error> {
        let bad = |why: &str| {
            Error::Usage(format!(
                "part {spec:?}: {why} (a part reads INDEX/OF:RANGE:PATH, as `pgn-arbiter plan` writes it)"
            ))
        };
        let mut fields = spec.splitn(3, ':');
        let (Some(which), Some(range), Some(file)) = (fields.next(), fields.next(), fields.next())
        else {
            return Err(bad("not three fields"));
        };
        let (index, of) = which
            .split_once('/')
            .and_then(|(i, n)| Some((i.parse::<usize>().ok()?, n.parse::<usize>().ok()?)))
            .filter(|(i, n)| i < n)
            .ok_or_else(|| bad("INDEX/OF is not two numbers, INDEX below OF"))?;
        let range = if range == "whole" {
            PartRange::Whole
        } else {
            let (kind, span) = range.split_once('=').ok_or_else(|| bad("no RANGE"))?;
            let (start, end) = span
                .split_once('-')
                .and_then(|(s, e)| Some((s.parse::<u64>().ok()?, e.parse::<u64>().ok()?)))
                .filter(|(s, e)| s <= e)
                .ok_or_else(|| bad("RANGE is not START-END"))?;
            match kind {
                "bytes" => PartRange::Bytes { start, end },
                "frames" => PartRange::Frames { start, end },
                "groups" => PartRange::RowGroups { start, end },
                _ => return Err(bad("RANGE is whole, bytes=, frames= or groups=")),
            }
        };
        if file.is_empty() {
            return Err(bad("no PATH"));
        }
        Ok(Part {
            index,
            of,
            file: file.to_string(),
            range,
        })
    }
}

/// Plans `paths` (files, directories searched as `audit` searches them) as
/// about `parts` parts of about equal size on disk: each file gets parts in
/// proportion to its size, at least one, at most as many as it can be cut
/// into. The parts are in the order `audit` reads the inputs.
pub fn plan(paths: &[impl AsRef<std::ffi::OsStr>], parts: usize) -> Result<Plan, Error> {
    if parts == 0 {
        return Err(Error::Usage("--parts must be at least 1".into()));
    }
    let (inputs, errors) = input::expand(paths);
    if let Some((name, why)) = errors.first() {
        return Err(Error::Io(io::Error::other(format!("{name}: {why}"))));
    }
    let mut files = Vec::new();
    for i in inputs {
        let InputPath::File(path) = i.path else {
            return Err(Error::Usage(
                "stdin (-) cannot be planned: parts are read from a file".into(),
            ));
        };
        let size = std::fs::metadata(&path)
            .map_err(|e| named(&i.name, e))?
            .len();
        files.push((i.name, path, size));
    }
    let total: u64 = files.iter().map(|f| f.2).sum::<u64>().max(1);
    let mut plan = Plan {
        parts: Vec::new(),
        notes: Vec::new(),
    };
    for (name, path, size) in files {
        let want = ((size as f64 * parts as f64 / total as f64).round() as usize).max(1);
        let layout = layout(&path).map_err(|e| named(&name, e))?;
        let ranges = cut(&layout, want);
        let units = match &layout {
            Layout::Frames { starts, .. } => Some((starts.len(), "pzstd frames")),
            Layout::RowGroups(groups) => Some((groups.len(), "row groups")),
            _ => None,
        };
        if let Some((n, what)) = units.filter(|_| ranges.len() < want) {
            plan.notes.push((
                name.clone(),
                format!(
                    "{} parts of the {want} its size asks for: it has {n} {what}",
                    ranges.len()
                ),
            ));
        }
        for range in ranges {
            plan.parts.push(Part {
                index: 0,
                of: 0,
                file: name.clone(),
                range,
            });
        }
        if let (Layout::Whole(why), true) = (&layout, want > 1) {
            plan.notes.push((name, format!("one part: {why}")));
        }
    }
    let of = plan.parts.len();
    for (index, p) in plan.parts.iter_mut().enumerate() {
        p.index = index;
        p.of = of;
    }
    Ok(plan)
}

fn named(name: &str, e: io::Error) -> Error {
    Error::Io(io::Error::new(e.kind(), format!("{name}: {e}")))
}

/// The ranges of a file cut into at most `want` parts of about equal weight.
fn cut(layout: &Layout, want: usize) -> Vec<PartRange> {
    match layout {
        Layout::Whole(_) => vec![PartRange::Whole],
        Layout::Plain(map) => {
            let data = map.bytes();
            let len = data.len() as u64;
            let mut cuts = vec![0u64];
            for i in 1..want {
                let target = (len as u128 * i as u128 / want as u128) as usize;
                let from = (*cuts.last().expect("one") as usize + 1).max(target);
                if let Some(c) = sound_boundary(data, from) {
                    cuts.push(c as u64);
                }
            }
            cuts.dedup();
            ranges(&cuts, len, |start, end| PartRange::Bytes { start, end })
        }
        Layout::Frames { starts, len } => {
            let weights: Vec<u64> = starts
                .iter()
                .zip(starts.iter().skip(1).chain([len]))
                .map(|(s, e)| e - s)
                .collect();
            let cuts: Vec<u64> = balanced(&weights, want)
                .into_iter()
                .map(|i| starts[i])
                .collect();
            ranges(&cuts, *len, |start, end| PartRange::Frames { start, end })
        }
        Layout::RowGroups(sizes) => {
            let cuts: Vec<u64> = balanced(sizes, want)
                .into_iter()
                .map(|i| i as u64)
                .collect();
            ranges(&cuts, sizes.len() as u64, |start, end| {
                PartRange::RowGroups { start, end }
            })
        }
    }
}

/// `cuts` (the first 0) as consecutive ranges up to `len`.
fn ranges(cuts: &[u64], len: u64, make: impl Fn(u64, u64) -> PartRange) -> Vec<PartRange> {
    cuts.iter()
        .zip(cuts.iter().skip(1).chain([&len]))
        .map(|(&s, &e)| make(s, e))
        .collect()
}

/// The indices (the first 0) where pieces of `weights` start, cut into
/// `want` runs of about equal weight (fewer only when there are fewer
/// pieces): each cut at the piece whose start is nearest its share.
fn balanced(weights: &[u64], want: usize) -> Vec<usize> {
    let n = weights.len();
    let mut starts = Vec::with_capacity(n);
    let mut total: u128 = 0;
    for &w in weights {
        starts.push(total);
        total += w as u128;
    }
    let mut cuts = vec![0usize];
    for k in 1..want.min(n) {
        let share = total * k as u128 / want as u128;
        let nearest = match starts.binary_search(&share) {
            Ok(i) => i,
            Err(i) if i >= n => n - 1,
            Err(i) if share - starts[i - 1] < starts[i] - share => i - 1,
            Err(i) => i,
        };
        let prev = *cuts.last().expect("one");
        // room for one piece in each run still to cut
        let i = nearest.max(prev + 1).min(n - (want.min(n) - k));
        if i > prev {
            cuts.push(i);
        }
    }
    cuts
}

/// The first boundary at or after `from` that the game before it ends at,
/// as far as the boundary before it tells: the splitter is run from that
/// one (taken as a game's start) to the cut. A plan only prefers such cuts;
/// each part checks its own end exactly (see [`audit_part`]).
fn sound_boundary(data: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    loop {
        let cut = split::next_boundary(data, at)?;
        let before = split::last_boundary(&data[..cut]).unwrap_or(0);
        let mut splitter = split::Splitter::new(&data[before..cut]);
        for _ in splitter.by_ref() {}
        let end = splitter.end_state().cloned().unwrap_or_default();
        if split::cut_is_sound(&end, &data[cut..]) {
            return Some(cut);
        }
        at = cut + 1;
    }
}

/// Audits one part with `audit`'s settings, handing its games to `sink`
/// as [`Audit::run`] does: its `game`, `offset` and `line` counted from the
/// part's start, which [`merge`] makes global with the [`PartInfo`].
/// A part whose last game does not end where the next part begins (a cut
/// inside a game) has an error on its input saying so.
pub fn audit_part(
    audit: &Audit,
    part: &Part,
    sink: &mut dyn Sink,
    progress: &dyn pipeline::Progress,
) -> io::Result<(RunOutcome, PartInfo)> {
    let started = Instant::now();
    let pipeline = pipeline::Pipeline::new(audit.config().clone())?;
    let (read, newlines) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let path = PathBuf::from(&part.file);
    let opened = open_part(&path, part.range, read.clone(), newlines.clone());
    let (source, after) = match opened {
        Ok((s, a)) => (Ok(s), Some(a)),
        Err(e) => (Err(e), None),
    };
    progress.start(std::fs::metadata(&path).ok().map(|m| m.len()));
    progress.input_start(&part.file);
    let (mut outcome, end) = pipeline.run_ending(&part.file, source, read, sink, progress)?;
    let after = after.and_then(|a| a.lock().expect("not poisoned").take());
    if let (None, Some(line)) = (&outcome.error, after) {
        if !split::cut_is_sound(&end, &line) {
            outcome.error = Some(open_at_end(part, &path));
        }
    }
    let run = RunOutcome {
        interrupted: audit.config().interrupted(),
        total: outcome.stats.clone(),
        inputs: vec![outcome],
        threads: pipeline.threads(),
        seconds: started.elapsed().as_secs_f64(),
    };
    sink.finish(&run)?;
    let info = PartInfo {
        index: part.index,
        of: part.of,
        spec: part.spec(),
        newlines: newlines.load(std::sync::atomic::Ordering::Relaxed),
    };
    Ok((run, info))
}

/// The error of a part whose last game runs on past its end.
fn open_at_end(part: &Part, path: &Path) -> String {
    format!(
        "part {} of {} ({}) ends inside a game: a comment or tag section holds a blank line and then a line starting with `[` where the part was cut; plan {} with another number of parts, or audit it whole",
        part.index,
        part.of,
        part.spec(),
        path.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_part_reads_back_as_written() {
        for range in [
            PartRange::Whole,
            PartRange::Bytes { start: 0, end: 10 },
            PartRange::Frames { start: 5, end: 9 },
            PartRange::RowGroups { start: 2, end: 3 },
        ] {
            let p = Part {
                index: 1,
                of: 4,
                file: "dir/a:b.pgn".into(),
                range,
            };
            assert_eq!(Part::parse(&p.spec()).unwrap(), p);
        }
        for bad in [
            "",
            "1/4",
            "4/4:whole:a",
            "1/4:bytes=9-3:a",
            "1/4:lines=1-2:a",
            "x/4:whole:a",
        ] {
            assert!(Part::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn weights_are_cut_into_runs_of_about_equal_weight() {
        assert_eq!(balanced(&[1; 10], 2), [0, 5]);
        assert_eq!(balanced(&[1; 10], 1), [0]);
        assert_eq!(balanced(&[1; 3], 7), [0, 1, 2]);
        assert_eq!(balanced(&[8, 1, 1, 1, 1], 2), [0, 1]);
    }

    #[test]
    fn a_plan_cut_lands_after_a_comment_that_holds_a_boundary() {
        let data =
            b"[Event \"a\"]\n\n1. e4 {x\n\n[Event \"b\"]\n\n} e5 1-0\n\n[Event \"c\"]\n\n1. d4 *\n";
        let inside = data.windows(7).position(|w| w == b"[Event ").unwrap() + 1;
        let c = sound_boundary(data, inside).unwrap();
        assert_eq!(&data[c..c + 11], b"[Event \"c\"]");
    }
}
