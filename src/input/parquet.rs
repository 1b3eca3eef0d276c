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

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::DataType;
use parquet::arrow::arrow_reader::{ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder};
use parquet::arrow::ProjectionMask;

use super::columns::{cell, is_tag_type};
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
    /// Rows read of the current row group, and the row groups not yet
    /// counted: their rows and compressed bytes.
    rows_read: usize,
    groups: VecDeque<(usize, u64)>,
}

/// A file that is no Parquet input. Its name is not repeated here: the
/// input's error is shown under its name ("a.parquet: cannot read: ...").
fn invalid(why: impl std::fmt::Display) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, why.to_string())
}

/// Opens `path` (already known to start with `PAR1`). A file without a
/// `movetext` column of strings is an error naming what is missing.
pub fn open(path: &Path, read: Arc<AtomicU64>) -> io::Result<Rows> {
    open_groups(path, read, None)
}

/// The compressed size of each row group of `path` (a plan's weights).
pub fn row_group_sizes(path: &Path) -> io::Result<Vec<u64>> {
    let builder = ParquetRecordBatchReaderBuilder::try_new(File::open(path)?).map_err(invalid)?;
    Ok(builder
        .metadata()
        .row_groups()
        .iter()
        .map(|g| u64::try_from(g.compressed_size()).unwrap_or(0))
        .collect())
}

/// As [`open`], the rows of row groups `groups` only (all of them for
/// `None`): a part of the file (`crate::parts`).
pub fn open_groups(
    path: &Path,
    read: Arc<AtomicU64>,
    groups: Option<std::ops::Range<usize>>,
) -> io::Result<Rows> {
    let file = File::open(path)?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(invalid)?;
    let schema = builder.schema().clone();
    let Some((index, field)) = schema.column_with_name("movetext") else {
        return Err(invalid(
            "no `movetext` column: a Parquet input holds one game per row, its moves in `movetext` and its tags in columns named after them (the Lichess dataset's layout)",
        ));
    };
    if !matches!(
        field.data_type(),
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
    ) {
        return Err(invalid(format!(
            "`movetext` holds {}, not strings",
            field.data_type()
        )));
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
    let all = 0..meta.num_row_groups();
    let chosen = groups.unwrap_or(all.clone());
    if chosen.start > chosen.end || chosen.end > all.end {
        return Err(invalid(format!(
            "row groups {}-{} asked, the file has {}",
            chosen.start, chosen.end, all.end
        )));
    }
    let groups = meta.row_groups()[chosen.clone()]
        .iter()
        .map(|g| {
            let rows = usize::try_from(g.num_rows()).unwrap_or(0);
            (rows, u64::try_from(g.compressed_size()).unwrap_or(0))
        })
        .collect();
    let mask = ProjectionMask::roots(builder.parquet_schema(), roots);
    let batches = builder
        .with_row_groups(chosen.collect())
        .with_projection(mask)
        .with_batch_size(8192)
        .build()
        .map_err(invalid)?;
    Ok(Rows {
        batches,
        movetext,
        tags,
        buf: Vec::with_capacity(1 << 20),
        pos: 0,
        read,
        rows_read: 0,
        groups,
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
        while let Some(&(group_rows, size)) = self.groups.front() {
            if self.rows_read < group_rows {
                break;
            }
            self.rows_read -= group_rows;
            self.groups.pop_front();
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
