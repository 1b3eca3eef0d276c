//! Findings as a Parquet file (`audit --parquet FILE`): the rows of
//! [`ArrowSink`], the columns and values of a `--jsonl` line, zstd
//! compressed, a row group per batch written as soon as the batch is full,
//! so memory holds one batch whatever the number of findings.

use std::fs::File;
use std::io::{self, BufWriter, Write};

use ::parquet::arrow::ArrowWriter;
use ::parquet::basic::{Compression, ZstdLevel};
use ::parquet::errors::ParquetError;
use ::parquet::file::properties::WriterProperties;

use crate::audit::TagSet;
use crate::pipeline::{GameRecord, RunOutcome, Sink};
use crate::report::arrow::{ArrowSink, BATCH_ROWS};

/// Writes findings as Parquet to a writer; errors name the output.
pub struct ParquetSink<W: Write + Send> {
    /// The output's name in error messages (the path as given).
    name: String,
    rows: ArrowSink,
    /// `None` once the file is closed.
    writer: Option<ArrowWriter<W>>,
}

impl ParquetSink<Box<dyn Write + Send>> {
    /// Creates the file at `path` (`-`: stdout) for a run that keeps `tags`.
    pub fn create(path: &str, tags: &TagSet) -> io::Result<Self> {
        let out: Box<dyn Write + Send> = if path == "-" {
            Box::new(BufWriter::with_capacity(1 << 16, io::stdout()))
        } else {
            let file =
                File::create(path).map_err(|e| io::Error::new(e.kind(), format!("{path}: {e}")))?;
            Box::new(file)
        };
        ParquetSink::new(out, path, tags)
    }
}

impl<W: Write + Send> ParquetSink<W> {
    /// Writes to `out`, named `name` in errors, for a run that keeps `tags`
    /// (they decide the tag columns).
    pub fn new(out: W, name: &str, tags: &TagSet) -> io::Result<Self> {
        ParquetSink::with_batch_rows(out, name, tags, BATCH_ROWS)
    }

    /// As [`ParquetSink::new`], with row groups of `rows` rows (the last
    /// one smaller).
    pub fn with_batch_rows(out: W, name: &str, tags: &TagSet, rows: usize) -> io::Result<Self> {
        let rows = ArrowSink::with_batch_rows(tags, rows);
        let props = WriterProperties::builder()
            .set_compression(Compression::ZSTD(ZstdLevel::default()))
            .set_max_row_group_row_count(Some(rows.batch_rows()))
            .build();
        let writer =
            ArrowWriter::try_new(out, rows.schema(), Some(props)).map_err(|e| named(name, e))?;
        Ok(ParquetSink {
            name: name.to_string(),
            rows,
            writer: Some(writer),
        })
    }

    /// Writes the batches completed so far.
    fn write_batches(&mut self) -> io::Result<()> {
        let Some(writer) = &mut self.writer else {
            return Err(io::Error::other(format!(
                "{}: written to after it was closed",
                self.name
            )));
        };
        for batch in self.rows.take_batches() {
            writer.write(&batch).map_err(|e| named(&self.name, e))?;
        }
        Ok(())
    }
}

impl<W: Write + Send> Sink for ParquetSink<W> {
    fn game(&mut self, game: &GameRecord<'_>) -> io::Result<()> {
        self.rows.game(game)?;
        self.write_batches()
    }

    /// Writes the last batch and the footer, and flushes the output: the
    /// file is complete (and readable) only now.
    fn finish(&mut self, run: &RunOutcome) -> io::Result<()> {
        self.rows.finish(run)?;
        self.write_batches()?;
        if let Some(mut writer) = self.writer.take() {
            writer.finish().map_err(|e| named(&self.name, e))?;
        }
        Ok(())
    }
}

/// `e` as an I/O error naming the output, of the kind of the I/O error
/// under it where there is one (a closed stdout stays a broken pipe).
fn named(name: &str, e: ParquetError) -> io::Error {
    match e {
        ParquetError::External(inner) => match inner.downcast::<io::Error>() {
            Ok(io) => io::Error::new(io.kind(), format!("{name}: {io}")),
            Err(other) => io::Error::other(format!("{name}: {other}")),
        },
        e => io::Error::other(format!("{name}: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::Audit;

    const GAME: &[u8] =
        b"[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n\n";

    #[test]
    fn a_complete_file_starts_and_ends_with_the_magic() {
        let mut out = Vec::new();
        let mut sink = ParquetSink::new(&mut out, "mem", &TagSet::Default).unwrap();
        Audit::new().run_bytes("t.pgn", GAME, &mut sink).unwrap();
        drop(sink);
        assert!(out.starts_with(b"PAR1") && out.ends_with(b"PAR1"));
    }

    /// Row groups of 2 rows read back as the batches the Arrow sink makes.
    #[test]
    fn row_groups_are_the_batches_and_read_back_equal() {
        use ::parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
        let games = [GAME; 5].concat();
        let file = tempfile::tempfile().unwrap();
        let out = file.try_clone().unwrap();
        let mut sink = ParquetSink::with_batch_rows(out, "tmp", &TagSet::All, 2).unwrap();
        Audit::new().run_bytes("t.pgn", &games, &mut sink).unwrap();
        drop(sink);
        let mut arrow = ArrowSink::with_batch_rows(&TagSet::All, 2);
        Audit::new().run_bytes("t.pgn", &games, &mut arrow).unwrap();
        let expected = arrow.take_batches();
        let reader = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
        assert_eq!(reader.metadata().num_row_groups(), 3);
        let rows: usize = expected.iter().map(|b| b.num_rows()).sum();
        assert_eq!(rows, 5);
        let read: Vec<_> = reader
            .with_batch_size(2)
            .build()
            .unwrap()
            .map(|b| b.unwrap())
            .collect();
        assert_eq!(read, expected);
    }

    /// A writer that takes `room` bytes, then fails as a full disk does.
    struct Full {
        room: usize,
    }

    impl Write for Full {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.room == 0 {
                return Err(io::Error::from(io::ErrorKind::StorageFull));
            }
            let n = buf.len().min(self.room);
            self.room -= n;
            Ok(n)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_failing_output_is_an_error_naming_it_not_a_panic() {
        let mut sink = ParquetSink::new(Full { room: 2 }, "out.parquet", &TagSet::All).unwrap();
        let e = Audit::new()
            .run_bytes("t.pgn", GAME, &mut sink)
            .unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::StorageFull);
        assert!(e.to_string().starts_with("out.parquet: "), "{e}");
    }
}
