//! Parquet input: one game per row, the layout of the Lichess database as
//! published on Hugging Face (`Lichess/standard-chess-games`: tag columns
//! `Event`, `Site`, `White`, `Black`, `Result`, `UTCDate`, `TimeControl`,
//! `Termination`, ... and the whole movetext in `movetext`). Each row is
//! written as one PGN game ([`super::rows`]) and streamed to the one
//! pipeline, so a finding's `game` is its row's index and the findings of
//! a Parquet file equal those of the same games as PGN. Row groups are
//! decoded in order on the reading thread while the games of the previous
//! ones are audited in parallel.
//!
//! Columns: `movetext` is required; every other column of strings,
//! integers, dates or times is a tag (`UTCDate` standing for `Date` when
//! there is none); other columns are ignored.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Int16Type, Int32Type, Int64Type, Int8Type, UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{DataType, TimeUnit};
use parquet::arrow::arrow_reader::{ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder};
use parquet::arrow::ProjectionMask;

use super::rows::{tag_name, write_game};

/// Rows of a Parquet file as a stream of PGN text.
pub struct Rows {
    batches: ParquetRecordBatchReader,
    /// Index of `movetext` among the projected columns.
    movetext: usize,
    /// The other projected columns, with the tag each is written as.
    tags: Vec<(usize, String)>,
    /// PGN text of the rows decoded and not yet read.
    buf: Vec<u8>,
    pos: usize,
    /// Bytes of the file decoded so far (row groups' compressed sizes).
    read: Arc<AtomicU64>,
    group_sizes: Vec<u64>,
    rows_read: usize,
    group_rows: Vec<usize>,
}

fn invalid(path: &Path, why: impl std::fmt::Display) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("{}: {why}", path.display()),
    )
}

/// A column is read as a tag when its values can be written as text.
fn is_tag_type(t: &DataType) -> bool {
    matches!(
        t,
        DataType::Utf8
            | DataType::LargeUtf8
            | DataType::Utf8View
            | DataType::Int8
            | DataType::Int16
            | DataType::Int32
            | DataType::Int64
            | DataType::UInt8
            | DataType::UInt16
            | DataType::UInt32
            | DataType::UInt64
            | DataType::Float32
            | DataType::Float64
            | DataType::Date32
            | DataType::Time32(_)
            | DataType::Time64(_)
    )
}

/// Opens `path` (already known to start with `PAR1`). A file without a
/// `movetext` column of strings is an error naming what is missing.
pub fn open(path: &Path, read: Arc<AtomicU64>) -> io::Result<Rows> {
    let file = File::open(path)?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| invalid(path, e))?;
    let schema = builder.schema().clone();
    let Some((index, field)) = schema.column_with_name("movetext") else {
        return Err(invalid(
            path,
            "no `movetext` column: a Parquet input holds one game per row, its moves in `movetext` and its tags in columns named after them (the Lichess dataset's layout)",
        ));
    };
    if !matches!(
        field.data_type(),
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
    ) {
        return Err(invalid(
            path,
            format!("`movetext` holds {}, not strings", field.data_type()),
        ));
    }
    let has_date = schema.column_with_name("Date").is_some();
    let mut roots = vec![index];
    let mut names = Vec::new();
    for (i, f) in schema.fields().iter().enumerate() {
        if i == index || !is_tag_type(f.data_type()) {
            continue;
        }
        if let Some(name) = tag_name(f.name(), has_date) {
            roots.push(i);
            names.push((i, name.to_string()));
        }
    }
    roots.sort_unstable();
    // Positions among the projected columns (in schema order).
    let at = |i: usize| roots.iter().position(|&r| r == i).unwrap_or(0);
    let movetext = at(index);
    let tags = names.into_iter().map(|(i, name)| (at(i), name)).collect();
    let meta = builder.metadata().clone();
    let group_sizes = meta
        .row_groups()
        .iter()
        .map(|g| u64::try_from(g.compressed_size()).unwrap_or(0))
        .collect();
    let group_rows = meta
        .row_groups()
        .iter()
        .map(|g| usize::try_from(g.num_rows()).unwrap_or(0))
        .collect();
    let mask = ProjectionMask::roots(builder.parquet_schema(), roots);
    let batches = builder
        .with_projection(mask)
        .with_batch_size(8192)
        .build()
        .map_err(|e| invalid(path, e))?;
    Ok(Rows {
        batches,
        movetext,
        tags,
        buf: Vec::with_capacity(1 << 20),
        pos: 0,
        read,
        group_sizes,
        rows_read: 0,
        group_rows,
    })
}

impl Rows {
    /// Writes the next batch's rows as PGN into `buf`; `false` at the end.
    fn fill(&mut self) -> io::Result<bool> {
        let Some(batch) = self.batches.next() else {
            return Ok(false);
        };
        let batch = batch.map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
        self.buf.clear();
        self.pos = 0;
        self.write_rows(&batch);
        self.count_progress(batch.num_rows());
        Ok(true)
    }

    fn write_rows(&mut self, batch: &RecordBatch) {
        let moves = batch.column(self.movetext);
        let tags: Vec<(&ArrayRef, &str)> = self
            .tags
            .iter()
            .map(|(i, name)| (batch.column(*i), name.as_str()))
            .collect();
        let mut values: Vec<Option<String>> = vec![None; tags.len()];
        for row in 0..batch.num_rows() {
            for (slot, (column, _)) in values.iter_mut().zip(&tags) {
                *slot = cell(column, row);
            }
            let pairs = tags
                .iter()
                .zip(&values)
                .filter_map(|((_, name), v)| Some((*name, v.as_deref()?)));
            let text = cell(moves, row);
            write_game(&mut self.buf, pairs, text.as_deref());
        }
    }

    /// The progress bar counts a row group's compressed bytes once its
    /// last row has been read.
    fn count_progress(&mut self, rows: usize) {
        self.rows_read += rows;
        while let Some(&group) = self.group_rows.first() {
            if self.rows_read < group {
                break;
            }
            self.rows_read -= group;
            self.group_rows.remove(0);
            let size = if self.group_sizes.is_empty() {
                0
            } else {
                self.group_sizes.remove(0)
            };
            self.read.fetch_add(size, Ordering::Relaxed);
        }
    }
}

impl Read for Rows {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        while self.pos == self.buf.len() {
            if !self.fill()? {
                return Ok(0);
            }
        }
        let n = out.len().min(self.buf.len() - self.pos);
        out[..n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// One value as tag text; `None` for a null.
fn cell(column: &ArrayRef, row: usize) -> Option<String> {
    if column.is_null(row) {
        return None;
    }
    Some(match column.data_type() {
        DataType::Utf8 => column.as_string::<i32>().value(row).to_string(),
        DataType::LargeUtf8 => column.as_string::<i64>().value(row).to_string(),
        DataType::Utf8View => column.as_string_view().value(row).to_string(),
        DataType::Int8 => column.as_primitive::<Int8Type>().value(row).to_string(),
        DataType::Int16 => column.as_primitive::<Int16Type>().value(row).to_string(),
        DataType::Int32 => column.as_primitive::<Int32Type>().value(row).to_string(),
        DataType::Int64 => column.as_primitive::<Int64Type>().value(row).to_string(),
        DataType::UInt8 => column.as_primitive::<UInt8Type>().value(row).to_string(),
        DataType::UInt16 => column.as_primitive::<UInt16Type>().value(row).to_string(),
        DataType::UInt32 => column.as_primitive::<UInt32Type>().value(row).to_string(),
        DataType::UInt64 => column.as_primitive::<UInt64Type>().value(row).to_string(),
        DataType::Float32 => number(f64::from(
            column
                .as_primitive::<arrow_array::types::Float32Type>()
                .value(row),
        )),
        DataType::Float64 => number(
            column
                .as_primitive::<arrow_array::types::Float64Type>()
                .value(row),
        ),
        DataType::Date32 => date(
            column
                .as_primitive::<arrow_array::types::Date32Type>()
                .value(row),
        ),
        DataType::Time32(unit) => {
            let v = i64::from(match unit {
                TimeUnit::Second => column
                    .as_primitive::<arrow_array::types::Time32SecondType>()
                    .value(row),
                _ => {
                    column
                        .as_primitive::<arrow_array::types::Time32MillisecondType>()
                        .value(row)
                        / 1000
                }
            });
            time(v)
        }
        DataType::Time64(unit) => {
            let per_second = if *unit == TimeUnit::Nanosecond {
                1_000_000_000
            } else {
                1_000_000
            };
            let v = match unit {
                TimeUnit::Nanosecond => column
                    .as_primitive::<arrow_array::types::Time64NanosecondType>()
                    .value(row),
                _ => column
                    .as_primitive::<arrow_array::types::Time64MicrosecondType>()
                    .value(row),
            };
            time(v / per_second)
        }
        _ => return None,
    })
}

/// A number as a tag writes it: `1500`, not `1500.0` (ratings stored as
/// floats), else as Rust prints it.
fn number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        v.to_string()
    }
}

/// Days since 1970-01-01 as a PGN date, `YYYY.MM.DD` (the civil calendar,
/// after Howard Hinnant's `civil_from_days`).
fn date(days: i32) -> String {
    let z = i64::from(days) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Seconds since midnight as `HH:MM:SS`.
fn time(seconds: i64) -> String {
    let s = seconds.rem_euclid(86_400);
    format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_times_as_pgn_writes_them() {
        assert_eq!(date(0), "1970.01.01");
        assert_eq!(date(15_706), "2013.01.01");
        assert_eq!(date(19_782), "2024.02.29");
        assert_eq!(date(-1), "1969.12.31");
        assert_eq!(time(0), "00:00:00");
        assert_eq!(time(3_723), "01:02:03");
        assert_eq!(number(1500.0), "1500");
        assert_eq!(number(-7.0), "-7");
    }
}
