//! The Python skin of pgn-arbiter: the same `Audit` as the command line
//! (no second pipeline), its findings handed over as Arrow record batches
//! through the Arrow C Data Interface, its summary as the JSON the CLI's
//! `--summary-json` writes. The Python package (`pgn_arbiter/__init__.py`)
//! turns both into a `pyarrow.Table` and a `dict`.

use std::io;
use std::ptr::addr_of_mut;

use arrow_array::ffi::{from_ffi, to_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::{Array, RecordBatch, StructArray};
use arrow_schema::DataType;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyList;

use pgn_arbiter::aggregate::{merge_texts, Aggregator};
use pgn_arbiter::audit::TagSet;
use pgn_arbiter::input::columns::{cell, is_tag_type};
use pgn_arbiter::input::rows::{tag_name, write_game};
use pgn_arbiter::pipeline::{GameRecord, InputOutcome, RunOutcome, Sink};
use pgn_arbiter::report::arrow::ArrowSink;
use pgn_arbiter::report::summary::RunSummary;
use pgn_arbiter::{Audit, DeadMode, Laws, SiteMode};

/// `laws` as the CLI's `--laws` reads it (the library's `FromStr`).
fn laws(name: &str) -> PyResult<Laws> {
    name.parse()
        .map_err(|e| PyValueError::new_err(format!("laws={e}")))
}

/// `dead` as the CLI's `--dead` reads it (the library's `FromStr`).
fn dead(name: &str) -> PyResult<DeadMode> {
    name.parse()
        .map_err(|e| PyValueError::new_err(format!("dead={e}")))
}

/// `site` as the CLI's `--site` reads it (the library's `FromStr`).
fn site(name: &str) -> PyResult<SiteMode> {
    name.parse()
        .map_err(|e| PyValueError::new_err(format!("site={e}")))
}

fn builder(
    laws_name: &str,
    dead_name: &str,
    site_name: &str,
    threads: Option<usize>,
    tags: &TagSet,
) -> PyResult<Audit> {
    let mut audit = Audit::new()
        .laws(laws(laws_name)?)
        .dead(dead(dead_name)?)
        .site(site(site_name)?)
        .tags(tags.clone());
    if let Some(n) = threads {
        audit = audit.threads(n);
    }
    Ok(audit)
}

/// The summary JSON of a run, as `--summary-json` writes it.
fn summary_json(run: &RunOutcome, laws_name: &str) -> PyResult<String> {
    serde_json::to_string(&RunSummary::new(run, laws_name.to_string(), &[]))
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A record batch as a `pyarrow.RecordBatch`, moved through the C Data
/// Interface (no copy of the buffers).
fn to_pyarrow<'py>(py: Python<'py>, batch: RecordBatch) -> PyResult<Bound<'py, PyAny>> {
    let data = StructArray::from(batch).into_data();
    let (mut array, mut schema) =
        to_ffi(&data).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let pyarrow = py.import("pyarrow")?;
    let struct_array = pyarrow.getattr("Array")?.call_method1(
        "_import_from_c",
        (addr_of_mut!(array) as usize, addr_of_mut!(schema) as usize),
    )?;
    pyarrow
        .getattr("RecordBatch")?
        .call_method1("from_struct_array", (struct_array,))
}

/// The column `column` of `audit_arrow` as text per row (`None` for
/// nulls), read as the Parquet input reads a column
/// (`pgn_arbiter::input::columns`): `movetext` must hold strings; a tag
/// column strings, integers, floats, dates or times, and a tag column of
/// Arrow's Null type (every value null, as pyarrow types a column it has
/// seen no value of) is a missing tag: `Ok(None)`. An error names the
/// column (an error that said "a column of Null" would not say which).
fn column_texts(array: &Bound<'_, PyAny>, column: &str) -> PyResult<Option<Vec<Option<String>>>> {
    let array = import_array(array)?;
    let t = array.data_type();
    if column == "movetext" {
        if !matches!(t, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View) {
            return Err(PyValueError::new_err(format!(
                "column movetext holds {t}: expected strings (the moves of each game)"
            )));
        }
    } else if *t == DataType::Null {
        return Ok(None);
    } else if !is_tag_type(t) {
        return Err(PyValueError::new_err(format!(
            "column {column} holds {t}: expected strings, integers, floats, dates or times"
        )));
    }
    Ok(Some(
        (0..array.len()).map(|row| cell(&array, row)).collect(),
    ))
}

/// Collects the findings and names the first input that could not be read.
struct Collect {
    arrow: ArrowSink,
    unreadable: Option<(String, String)>,
}

impl Sink for Collect {
    fn begin_input(&mut self, name: &str) -> io::Result<()> {
        self.arrow.begin_input(name)
    }
    fn game(&mut self, game: &GameRecord<'_>) -> io::Result<()> {
        self.arrow.game(game)
    }
    fn end_input(&mut self, input: &InputOutcome) -> io::Result<()> {
        if let (None, Some(error)) = (&self.unreadable, &input.error) {
            self.unreadable = Some((input.name.clone(), error.clone()));
        }
        self.arrow.end_input(input)
    }
    fn finish(&mut self, run: &RunOutcome) -> io::Result<()> {
        self.arrow.finish(run)
    }
}

/// Audits files (PGN, `.pgn.zst`, directories of them): the findings as a
/// list of `pyarrow.RecordBatch`, the schema, and the summary JSON. The GIL
/// is released while the audit runs. A path that cannot be read raises
/// `OSError` naming it, unless `errors == "summary"` (then it is only
/// counted, as the CLI does).
#[pyfunction]
#[pyo3(signature = (paths, laws="auto", dead="quick", site="auto", threads=None, tags=None, errors="raise"))]
#[allow(clippy::too_many_arguments)] // its Python keyword arguments
fn audit<'py>(
    py: Python<'py>,
    paths: Vec<String>,
    laws: &str,
    dead: &str,
    site: &str,
    threads: Option<usize>,
    tags: Option<&str>,
    errors: &str,
) -> PyResult<(Bound<'py, PyList>, Bound<'py, PyAny>, String)> {
    let tags = tags.map(TagSet::parse).unwrap_or_default();
    let run_audit = builder(laws, dead, site, threads, &tags)?;
    let mut sink = Collect {
        arrow: ArrowSink::new(&tags),
        unreadable: None,
    };
    let run = py
        .detach(|| run_audit.run(&paths, &mut sink, &()))
        .map_err(|e| PyOSError::new_err(e.to_string()))?;
    if errors == "raise" {
        if let Some((name, error)) = sink.unreadable.take() {
            return Err(PyOSError::new_err(format!("{name}: {error}")));
        }
    }
    finish(py, sink.arrow, &run, laws)
}

/// Audits games held in Arrow arrays, one game per row (the Lichess
/// dataset's layout: tag columns and a `movetext` column): the same output
/// as [`audit`], each finding's `game` the row's index, its `file` `name`.
/// `UTCDate` stands for `Date` when there is no `Date` column, so the laws
/// edition follows the date the game was played.
#[pyfunction]
#[pyo3(signature = (movetext, tag_names, tag_arrays, name="<arrow>", laws="auto", dead="quick", site="auto", threads=None, tags=None))]
#[allow(clippy::too_many_arguments)]
fn audit_arrow<'py>(
    py: Python<'py>,
    movetext: Bound<'py, PyAny>,
    tag_names: Vec<String>,
    tag_arrays: Vec<Bound<'py, PyAny>>,
    name: &str,
    laws: &str,
    dead: &str,
    site: &str,
    threads: Option<usize>,
    tags: Option<&str>,
) -> PyResult<(Bound<'py, PyList>, Bound<'py, PyAny>, String)> {
    let moves = column_texts(&movetext, "movetext")?.unwrap_or_default();
    let mut columns = Vec::with_capacity(tag_arrays.len());
    for (tag, array) in tag_names.iter().zip(&tag_arrays) {
        let Some(values) = column_texts(array, tag)? else {
            continue;
        };
        if values.len() != moves.len() {
            return Err(PyValueError::new_err(format!(
                "tag {tag}: {} rows, movetext has {}",
                values.len(),
                moves.len()
            )));
        }
        columns.push((tag.clone(), values));
    }
    let pgn = pgn_of_rows(&moves, &columns);
    let tags = tags.map(TagSet::parse).unwrap_or_default();
    let run_audit = builder(laws, dead, site, threads, &tags)?;
    let mut sink = ArrowSink::new(&tags);
    let name = name.to_string();
    let run = py
        .detach(|| run_audit.run_bytes(&name, &pgn, &mut sink))
        .map_err(|e| PyOSError::new_err(e.to_string()))?;
    finish(py, sink, &run, laws)
}

fn finish<'py>(
    py: Python<'py>,
    mut sink: ArrowSink,
    run: &RunOutcome,
    laws: &str,
) -> PyResult<(Bound<'py, PyList>, Bound<'py, PyAny>, String)> {
    let schema = sink.schema();
    let batches = PyList::empty(py);
    for batch in sink.take_batches() {
        batches.append(to_pyarrow(py, batch)?)?;
    }
    // The schema travels as an empty batch, so an empty table keeps it.
    let empty = to_pyarrow(py, RecordBatch::new_empty(schema))?;
    Ok((batches, empty.getattr("schema")?, summary_json(run, laws)?))
}

/// PGN text with one game per row (see `pgn_arbiter::input::rows`).
fn pgn_of_rows(moves: &[Option<String>], columns: &[(String, Vec<Option<String>>)]) -> Vec<u8> {
    let has_date = columns.iter().any(|(name, _)| name == "Date");
    let names: Vec<Option<&str>> = columns
        .iter()
        .map(|(name, _)| tag_name(name, has_date))
        .collect();
    let mut out = Vec::with_capacity(
        moves
            .iter()
            .map(|m| m.as_ref().map_or(0, String::len) + 400)
            .sum(),
    );
    for (row, text) in moves.iter().enumerate() {
        let tags = columns
            .iter()
            .zip(&names)
            .filter_map(|((_, values), name)| Some(((*name)?, values[row].as_deref()?)));
        write_game(&mut out, tags, text.as_deref());
    }
    out
}

/// The aggregator of a run, repeats counted as `duplicates` says (`once`,
/// `all` or `exact`, as the CLI's `--duplicates`). Made where it is used:
/// its output slot is not `Send`.
fn aggregator(laws: &str, dead: &str, duplicates: &str) -> Result<Aggregator, String> {
    Aggregator::new(None, laws, dead).with_duplicate_mode(duplicates)
}

/// `duplicates` checked before any work.
fn check_duplicates(duplicates: &str) -> PyResult<()> {
    aggregator("auto", "quick", duplicates)
        .map(drop)
        .map_err(PyValueError::new_err)
}

/// The statistics report's aggregate of a run over `paths` (what `audit
/// --report-json` writes), as JSON.
#[pyfunction]
#[pyo3(signature = (paths, laws="auto", dead="quick", site="auto", threads=None, duplicates="once"))]
fn report(
    py: Python<'_>,
    paths: Vec<String>,
    laws: &str,
    dead: &str,
    site: &str,
    threads: Option<usize>,
    duplicates: &str,
) -> PyResult<String> {
    check_duplicates(duplicates)?;
    let run_audit = builder(laws, dead, site, threads, &TagSet::default())?.facets(true);
    // Made inside: its output slot is not `Send` (here it has none).
    let aggregate = py
        .detach(|| {
            let mut aggregator = aggregator(laws, dead, duplicates).map_err(std::io::Error::other)?;
            run_audit
                .run(&paths, &mut aggregator, &())
                .map(|_| aggregator.result.take())
        })
        .map_err(|e| PyOSError::new_err(e.to_string()))?
        .unwrap_or_default();
    serde_json::to_string(&aggregate).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The aggregate in the file `path` (`audit --report-json`), with its games
/// for merging read from beside it, as JSON.
#[pyfunction]
fn read_report(path: &str) -> PyResult<String> {
    let a = pgn_arbiter::aggregate::read_aggregate_file(path).map_err(PyValueError::new_err)?;
    serde_json::to_string(&a).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Aggregates (JSON texts) merged by the rules of `pgn-arbiter report`.
#[pyfunction]
fn merge_reports(parts: Vec<String>) -> PyResult<String> {
    let names: Vec<String> = (0..parts.len()).map(|i| format!("part {i}")).collect();
    let merged = merge_texts(
        names
            .iter()
            .zip(&parts)
            .map(|(n, p)| (n.as_str(), p.as_bytes())),
    )
    .map_err(PyValueError::new_err)?;
    serde_json::to_string(&merged).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Run summaries (JSON texts) merged as one run over the whole
/// ([`RunSummary::merge`]).
#[pyfunction]
fn merge_summaries(parts: Vec<String>) -> PyResult<String> {
    let parts = parts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            serde_json::from_str::<RunSummary>(p)
                .map_err(|e| PyValueError::new_err(format!("summary {i}: {e}")))
        })
        .collect::<PyResult<Vec<_>>>()?;
    let merged = RunSummary::merge(&parts).map_err(|e| PyValueError::new_err(e.to_string()))?;
    serde_json::to_string(&merged).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Each part's spec, and `(file, note)` for the files not cut as asked.
type PlanSpecs = (Vec<String>, Vec<(String, String)>);

/// A part's findings batches, their schema, its summary JSON and its
/// aggregate JSON (when asked).
type PartOutput<'py> = (
    Bound<'py, PyList>,
    Bound<'py, PyAny>,
    String,
    Option<String>,
);

/// A plan of `paths` as about `parts` parts (`pgn-arbiter plan`): each
/// part's spec, and `(file, note)` for the files not cut as asked.
#[pyfunction]
fn plan(paths: Vec<String>, parts: usize) -> PyResult<PlanSpecs> {
    let plan = pgn_arbiter::parts::plan(&paths, parts).map_err(|e| match e {
        pgn_arbiter::Error::Io(e) => PyOSError::new_err(e.to_string()),
        e => PyValueError::new_err(e.to_string()),
    })?;
    Ok((plan.parts.iter().map(|p| p.spec()).collect(), plan.notes))
}

/// Audits one part of a plan (`audit --part SPEC`): the findings as
/// [`audit`] gives them (numbered from the part's start), the summary JSON
/// with its `part`, and the aggregate JSON when `report` is true.
#[pyfunction]
#[pyo3(signature = (spec, laws="auto", dead="quick", site="auto", threads=None, tags=None, report=false, duplicates="once"))]
#[allow(clippy::too_many_arguments)]
fn audit_part<'py>(
    py: Python<'py>,
    spec: &str,
    laws: &str,
    dead: &str,
    site: &str,
    threads: Option<usize>,
    tags: Option<&str>,
    report: bool,
    duplicates: &str,
) -> PyResult<PartOutput<'py>> {
    check_duplicates(duplicates)?;
    let part =
        pgn_arbiter::parts::Part::parse(spec).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let tags = tags.map(TagSet::parse).unwrap_or_default();
    let run_audit = builder(laws, dead, site, threads, &tags)?.facets(report);
    let mut arrow = ArrowSink::new(&tags);
    let (run, info, aggregate) = py
        .detach(|| {
            let mut aggregator = report
                .then(|| aggregator(laws, dead, duplicates))
                .transpose()
                .map_err(std::io::Error::other)?;
            let mut sinks: Vec<&mut dyn Sink> = vec![&mut arrow];
            if let Some(a) = aggregator.as_mut() {
                sinks.push(a);
            }
            pgn_arbiter::parts::audit_part(&run_audit, &part, &mut sinks, &())
                .map(|(run, info)| (run, info, aggregator.and_then(|mut a| a.result.take())))
        })
        .map_err(|e| PyOSError::new_err(e.to_string()))?;
    let mut summary = RunSummary::new(&run, laws.to_string(), &[]);
    summary.part = Some(info);
    let summary =
        serde_json::to_string(&summary).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let aggregate = aggregate
        .map(|a| serde_json::to_string(&a))
        .transpose()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let schema = arrow.schema();
    let batches = PyList::empty(py);
    for batch in arrow.take_batches() {
        batches.append(to_pyarrow(py, batch)?)?;
    }
    let empty = to_pyarrow(py, RecordBatch::new_empty(schema))?;
    Ok((batches, empty.getattr("schema")?, summary, aggregate))
}

/// A `pyarrow.RecordBatch` moved into Rust through the C Data Interface.
fn from_pyarrow(batch: &Bound<'_, PyAny>) -> PyResult<RecordBatch> {
    let array = import_array(&batch.call_method0("to_struct_array")?)?;
    Ok(RecordBatch::from(StructArray::from(array.to_data())))
}

/// A `pyarrow.Array` moved into Rust through the C Data Interface (one
/// place for the one `unsafe` of the crate).
fn import_array(array: &Bound<'_, PyAny>) -> PyResult<arrow_array::ArrayRef> {
    let mut ffi_array = FFI_ArrowArray::empty();
    let mut ffi_schema = FFI_ArrowSchema::empty();
    array.call_method1(
        "_export_to_c",
        (
            addr_of_mut!(ffi_array) as usize,
            addr_of_mut!(ffi_schema) as usize,
        ),
    )?;
    // SAFETY: pyarrow has just filled both structs per the C Data Interface.
    let data = unsafe { from_ffi(ffi_array, &ffi_schema) }
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(arrow_array::make_array(data))
}

/// The parts' outputs (each: findings batches, summary JSON, aggregate
/// JSON or `None`) merged as one run's (`pgn_arbiter::parts::merge`): the
/// findings batches, the summary JSON, the aggregate JSON if every part
/// had one.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn merge_parts<'py>(
    py: Python<'py>,
    parts: Vec<(Vec<Bound<'py, PyAny>>, String, Option<String>)>,
) -> PyResult<(Bound<'py, PyList>, String, Option<String>)> {
    let bad = |i: usize, e: serde_json::Error| PyValueError::new_err(format!("part {i}: {e}"));
    let mut outputs = Vec::with_capacity(parts.len());
    for (i, (batches, summary, aggregate)) in parts.iter().enumerate() {
        outputs.push(pgn_arbiter::parts::PartOutput {
            summary: serde_json::from_str(summary).map_err(|e| bad(i, e))?,
            findings: batches
                .iter()
                .map(from_pyarrow)
                .collect::<PyResult<Vec<_>>>()?,
            aggregate: aggregate
                .as_deref()
                .map(serde_json::from_str)
                .transpose()
                .map_err(|e| bad(i, e))?,
        });
    }
    let merged =
        pgn_arbiter::parts::merge(outputs).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let batches = PyList::empty(py);
    for batch in merged.findings.into_iter().flatten() {
        batches.append(to_pyarrow(py, batch)?)?;
    }
    let summary =
        serde_json::to_string(&merged.summary).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let aggregate = merged
        .aggregate
        .map(|a| serde_json::to_string(&a))
        .transpose()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok((batches, summary, aggregate))
}

/// The native part of the `pgn_arbiter` package.
#[pymodule]
fn _pgn_arbiter(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(audit, m)?)?;
    m.add_function(wrap_pyfunction!(audit_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(report, m)?)?;
    m.add_function(wrap_pyfunction!(merge_reports, m)?)?;
    m.add_function(wrap_pyfunction!(read_report, m)?)?;
    m.add_function(wrap_pyfunction!(merge_summaries, m)?)?;
    m.add_function(wrap_pyfunction!(plan, m)?)?;
    m.add_function(wrap_pyfunction!(audit_part, m)?)?;
    m.add_function(wrap_pyfunction!(merge_parts, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
