//! Findings as Arrow record batches: one row per finding, the columns of a
//! `--jsonl` line with the same values (SPEC "Reports"), so that a Parquet
//! file (`report::parquet`), a dataframe or a query engine sees what the
//! JSON Lines say without parsing JSON.
//!
//! A field the JSON line leaves out, or writes as `null`, is a null here.
//! Tags are columns of their own, one per name the run keeps ([`BASE_TAGS`],
//! [`DEFAULT_TAGS`] and those asked for with `--tags`); with `--tags all`,
//! whose names are only known game by game, the tags beyond those are in a
//! `tags` map column instead (a name the JSONL reserves, so no tag is
//! called that).

use std::io;
use std::sync::Arc;

use arrow_array::builder::{
    MapBuilder, MapFieldNames, StringBuilder, UInt32Builder, UInt64Builder,
};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};

use crate::audit::{GameReport, ReportTags, TagSet, BASE_TAGS, DEFAULT_TAGS};
use crate::finding::{side_name, Finding};
use crate::pipeline::{GameRecord, RunOutcome, Sink};
use crate::record::{DetailFields, FIELDS, SCHEMA_VERSION};

/// Rows per batch: large enough for Parquet's dictionaries and compression
/// to pay, small enough that a run's findings are never all held at once.
pub const BATCH_ROWS: usize = 64 * 1024;

/// The tag columns of a run: fixed by its [`TagSet`] before the first game,
/// as a schema must be.
#[derive(Debug, Clone)]
struct TagColumns {
    /// One nullable column each, in the JSONL's order.
    names: Vec<String>,
    /// `--tags all`: every other kept tag goes to the `tags` map.
    map: bool,
}

impl TagColumns {
    /// The columns for `tags`. A name the JSONL would drop (a field's name)
    /// is dropped here too, and each name comes once.
    fn of(tags: &TagSet) -> TagColumns {
        let named: &[String] = match tags {
            TagSet::With(names) => names,
            _ => &[],
        };
        let mut names: Vec<String> = Vec::new();
        for name in BASE_TAGS
            .iter()
            .chain(DEFAULT_TAGS.iter())
            .copied()
            .chain(named.iter().map(String::as_str))
        {
            if !FIELDS.contains(&name) && !names.iter().any(|n| n == name) {
                names.push(name.to_string());
            }
        }
        TagColumns {
            names,
            map: *tags == TagSet::All,
        }
    }

    /// Whether a kept tag goes to the map rather than to a column.
    fn in_map(&self, name: &str) -> bool {
        self.map && !FIELDS.contains(&name) && !self.names.iter().any(|n| n == name)
    }
}

/// The names in the `tags` map's entries, as pyarrow and the Parquet spec
/// name them (arrow-rs's defaults differ).
fn map_names() -> MapFieldNames {
    MapFieldNames {
        entry: "key_value".to_string(),
        key: "key".to_string(),
        value: "value".to_string(),
    }
}

fn new_map_builder() -> MapBuilder<StringBuilder, StringBuilder> {
    MapBuilder::new(
        Some(map_names()),
        StringBuilder::new(),
        StringBuilder::new(),
    )
}

/// The type of the `tags` column: taken from the builder that fills it, so
/// the two cannot disagree.
fn map_type() -> DataType {
    new_map_builder().finish().data_type().clone()
}

/// The schema of the rows: the JSONL's fields in its order, the tags where
/// it writes them (before `edition`).
fn schema_of(tags: &TagColumns) -> Schema {
    let field = |name: &str, t: DataType, nullable: bool| Field::new(name, t, nullable);
    let text = |name: &str, nullable: bool| field(name, DataType::Utf8, nullable);
    let mut fields = vec![
        text("file", false),
        field("game", DataType::UInt64, false),
        text("game_id", true),
        text("content_id", true),
        field("offset", DataType::UInt64, false),
        field("line", DataType::UInt64, false),
        text("kind", false),
        text("article", false),
        field("ply", DataType::UInt32, false),
        field("move_number", DataType::UInt32, false),
        text("side", false),
        text("san", true),
        text("fen", false),
        field("occurrences", DataType::UInt32, false),
    ];
    // The JSONL's `site` is `rule_site` here: SQL engines fold the `Site`
    // tag's column and a `site` column together (DuckDB reads the second
    // as `site_1`).
    for name in [
        "outcome",
        "via",
        "move",
        "reason",
        "proof",
        "winner",
        "mate",
        "rule_site",
        "rule",
    ] {
        fields.push(text(name, true));
    }
    fields.extend(tags.names.iter().map(|n| text(n, true)));
    if tags.map {
        fields.push(field("tags", map_type(), false));
    }
    fields.push(text("edition", false));
    fields.push(field("schema_version", DataType::UInt32, false));
    Schema::new(fields)
}

/// One builder per column, in schema order.
struct Columns {
    file: StringBuilder,
    game: UInt64Builder,
    game_id: StringBuilder,
    content_id: StringBuilder,
    offset: UInt64Builder,
    line: UInt64Builder,
    kind: StringBuilder,
    article: StringBuilder,
    ply: UInt32Builder,
    move_number: UInt32Builder,
    side: StringBuilder,
    san: StringBuilder,
    fen: StringBuilder,
    occurrences: UInt32Builder,
    /// outcome, via, move, reason, proof, winner, mate, rule_site, rule.
    detail: [StringBuilder; 9],
    tags: Vec<StringBuilder>,
    tag_map: Option<MapBuilder<StringBuilder, StringBuilder>>,
    edition: StringBuilder,
    schema_version: UInt32Builder,
    /// Rows since the last batch.
    rows: usize,
    /// Scratch for `game_id`.
    id: String,
}

impl Columns {
    fn new(tags: &TagColumns) -> Columns {
        Columns {
            file: StringBuilder::new(),
            game: UInt64Builder::new(),
            game_id: StringBuilder::new(),
            content_id: StringBuilder::new(),
            offset: UInt64Builder::new(),
            line: UInt64Builder::new(),
            kind: StringBuilder::new(),
            article: StringBuilder::new(),
            ply: UInt32Builder::new(),
            move_number: UInt32Builder::new(),
            side: StringBuilder::new(),
            san: StringBuilder::new(),
            fen: StringBuilder::new(),
            occurrences: UInt32Builder::new(),
            detail: std::array::from_fn(|_| StringBuilder::new()),
            tags: tags.names.iter().map(|_| StringBuilder::new()).collect(),
            tag_map: tags.map.then(new_map_builder),
            edition: StringBuilder::new(),
            schema_version: UInt32Builder::new(),
            rows: 0,
            id: String::with_capacity(32),
        }
    }

    /// Appends finding `f` of `game`.
    fn push(&mut self, game: &GameRecord<'_>, f: &Finding, tags: &TagColumns) -> io::Result<()> {
        let r = game.report;
        self.push_place(game.file, game.index, r);
        self.kind.append_value(f.kind.name());
        self.article.append_value(f.kind.article(r.edition));
        self.ply.append_value(f.ply);
        self.move_number.append_value(f.at.move_number);
        self.side.append_value(side_name(f.side));
        self.san.append_option(f.at.san.as_deref());
        self.fen.append_value(&f.at.fen);
        self.occurrences.append_value(f.occurrences);
        self.push_detail(&DetailFields::of(&f.detail));
        self.push_tags(r.tags.as_deref(), tags)?;
        self.edition.append_value(r.edition.name());
        self.schema_version.append_value(SCHEMA_VERSION);
        self.rows += 1;
        Ok(())
    }

    /// The game's columns: where it is, its fingerprint and its content
    /// identity.
    fn push_place(&mut self, file: &str, index: u64, r: &GameReport) {
        use std::fmt::Write;
        self.file.append_value(file);
        self.game.append_value(index);
        let ids: [(Option<&dyn std::fmt::Display>, &mut StringBuilder); 2] = [
            (r.id.as_ref().map(|i| i as _), &mut self.game_id),
            (r.content.as_ref().map(|i| i as _), &mut self.content_id),
        ];
        for (id, column) in ids {
            match id {
                Some(id) => {
                    self.id.clear();
                    // formatting into a String cannot fail
                    let _ = write!(self.id, "{id}");
                    column.append_value(&self.id);
                }
                None => column.append_null(),
            }
        }
        self.offset.append_value(r.offset);
        self.line.append_value(r.line);
    }

    fn push_detail(&mut self, d: &DetailFields<'_>) {
        let values = [
            d.outcome,
            d.via,
            d.mv.flatten(),
            d.reason,
            d.proof,
            d.winner,
            d.mate,
            d.site,
            d.rule,
        ];
        for (b, v) in self.detail.iter_mut().zip(values) {
            b.append_option(v);
        }
    }

    /// The tag columns, and the map of the others under `--tags all` (in
    /// the game's order, as the JSONL lists them).
    fn push_tags(&mut self, kept: Option<&ReportTags>, tags: &TagColumns) -> io::Result<()> {
        for (b, name) in self.tags.iter_mut().zip(&tags.names) {
            b.append_option(kept.and_then(|t| t.get(name)));
        }
        if let Some(map) = &mut self.tag_map {
            for (name, value) in kept.iter().flat_map(|t| t.0.iter()) {
                if tags.in_map(name) {
                    map.keys().append_value(name);
                    map.values().append_value(value);
                }
            }
            map.append(true).map_err(io::Error::other)?;
        }
        Ok(())
    }

    /// The rows so far as arrays, in schema order; the builders start over.
    fn finish(&mut self) -> Vec<ArrayRef> {
        self.rows = 0;
        let mut out: Vec<ArrayRef> = vec![
            Arc::new(self.file.finish()),
            Arc::new(self.game.finish()),
            Arc::new(self.game_id.finish()),
            Arc::new(self.content_id.finish()),
            Arc::new(self.offset.finish()),
            Arc::new(self.line.finish()),
            Arc::new(self.kind.finish()),
            Arc::new(self.article.finish()),
            Arc::new(self.ply.finish()),
            Arc::new(self.move_number.finish()),
            Arc::new(self.side.finish()),
            Arc::new(self.san.finish()),
            Arc::new(self.fen.finish()),
            Arc::new(self.occurrences.finish()),
        ];
        for b in self.detail.iter_mut().chain(self.tags.iter_mut()) {
            out.push(Arc::new(b.finish()));
        }
        if let Some(map) = &mut self.tag_map {
            out.push(Arc::new(map.finish()));
        }
        out.push(Arc::new(self.edition.finish()));
        out.push(Arc::new(self.schema_version.finish()));
        out
    }
}

/// Collects every finding of a run as Arrow rows and cuts them into
/// [`RecordBatch`]es of [`BATCH_ROWS`] rows (the last one at `finish`),
/// which [`ArrowSink::take_batches`] hands over.
pub struct ArrowSink {
    schema: SchemaRef,
    tags: TagColumns,
    columns: Columns,
    batch_rows: usize,
    batches: Vec<RecordBatch>,
}

impl ArrowSink {
    /// A sink for a run that keeps `tags` (the run's [`TagSet`]: it decides
    /// the tag columns).
    pub fn new(tags: &TagSet) -> ArrowSink {
        ArrowSink::with_batch_rows(tags, BATCH_ROWS)
    }

    /// As [`ArrowSink::new`], with batches of `rows` rows (at least 1).
    pub fn with_batch_rows(tags: &TagSet, rows: usize) -> ArrowSink {
        let tags = TagColumns::of(tags);
        ArrowSink {
            schema: Arc::new(schema_of(&tags)),
            columns: Columns::new(&tags),
            tags,
            batch_rows: rows.max(1),
            batches: Vec::new(),
        }
    }

    /// The schema of every batch.
    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    /// The rows of a batch.
    pub fn batch_rows(&self) -> usize {
        self.batch_rows
    }

    /// The batches completed since the last call, in input order.
    pub fn take_batches(&mut self) -> Vec<RecordBatch> {
        std::mem::take(&mut self.batches)
    }

    /// Makes a batch of the rows not yet in one (if any).
    fn cut(&mut self) -> io::Result<()> {
        if self.columns.rows == 0 {
            return Ok(());
        }
        let batch = RecordBatch::try_new(self.schema.clone(), self.columns.finish())
            .map_err(|e| io::Error::other(format!("findings as Arrow: {e}")))?;
        self.batches.push(batch);
        Ok(())
    }
}

impl Sink for ArrowSink {
    fn game(&mut self, game: &GameRecord<'_>) -> io::Result<()> {
        for f in &game.report.findings {
            self.columns.push(game, f, &self.tags)?;
            if self.columns.rows >= self.batch_rows {
                self.cut()?;
            }
        }
        Ok(())
    }

    fn finish(&mut self, _run: &RunOutcome) -> io::Result<()> {
        self.cut()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::jsonl::JsonlSink;
    use crate::run::Audit;
    use arrow_array::cast::AsArray;
    use arrow_array::types::{UInt32Type, UInt64Type};
    use serde_json::{Map, Value};

    /// A missed claim, a wrong result, a dead position lost on time, an
    /// illegal move, an illegal FEN (its `move` is null), a game without tags.
    const GAMES: &str = "[Event \"m\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[Annotator \"x\"]\n\n\
        1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 1-0\n\n\
        [Event \"w\"]\n[White \"C\"]\n[Black \"D\"]\n[Result \"1/2-1/2\"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2\n\n\
        [Event \"f\"]\n[White \"E\"]\n[Black \"F\"]\n[Result \"1-0\"]\n[SetUp \"1\"]\n\
        [FEN \"8/8/8/4k3/8/8/8/4KN2 w - - 0 1\"]\n[Termination \"Time forfeit\"]\n\n1. Kf2 Kd4 1-0\n\n\
        [Event \"i\"]\n[White \"G\"]\n[Black \"H\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n\n\
        [Event \"x\"]\n[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n\n\
        1. f3 e5 2. g4 Qh4# 1-0\n\n";

    fn run(tags: TagSet, rows: usize) -> (Vec<Value>, Vec<RecordBatch>) {
        let audit = Audit::new().threads(1).tags(tags.clone());
        let mut jsonl = JsonlSink::new(Vec::new());
        audit
            .run_bytes("t.pgn", GAMES.as_bytes(), &mut jsonl)
            .unwrap();
        let lines = String::from_utf8(jsonl.into_inner()).unwrap();
        let json = lines.lines().map(|l| serde_json::from_str(l).unwrap());
        let mut arrow = ArrowSink::with_batch_rows(&tags, rows);
        audit
            .run_bytes("t.pgn", GAMES.as_bytes(), &mut arrow)
            .unwrap();
        (json.collect(), arrow.take_batches())
    }

    /// Row `i` of `batch` as the JSON object it stands for: nulls left out.
    fn row(batch: &RecordBatch, i: usize) -> Map<String, Value> {
        let mut out = Map::new();
        for (field, col) in batch.schema().fields().iter().zip(batch.columns()) {
            if col.is_null(i) {
                continue;
            }
            let v = match col.data_type() {
                DataType::UInt64 => Value::from(col.as_primitive::<UInt64Type>().value(i)),
                DataType::UInt32 => Value::from(col.as_primitive::<UInt32Type>().value(i)),
                DataType::Utf8 => Value::from(col.as_string::<i32>().value(i)),
                DataType::Map(..) => {
                    let entries = col.as_map().value(i);
                    let (k, v) = (entries.column(0), entries.column(1));
                    for j in 0..entries.len() {
                        let name = k.as_string::<i32>().value(j).to_string();
                        out.insert(name, Value::from(v.as_string::<i32>().value(j)));
                    }
                    continue;
                }
                t => panic!("unexpected type {t}"),
            };
            out.insert(field.name().clone(), v);
        }
        out
    }

    fn without_nulls(v: &Value) -> Map<String, Value> {
        let mut m = v.as_object().unwrap().clone();
        m.retain(|_, v| !v.is_null());
        m
    }

    fn assert_same(tags: TagSet, rows: usize) {
        let (json, batches) = run(tags, rows);
        assert!(json.len() >= 6, "{json:#?}");
        assert!(batches.iter().all(|b| b.num_rows() <= rows));
        let arrow: Vec<_> = batches
            .iter()
            .flat_map(|b| (0..b.num_rows()).map(move |i| row(b, i)))
            .collect();
        assert_eq!(arrow.len(), json.len());
        for (a, j) in arrow.iter().zip(&json) {
            assert_eq!(a, &without_nulls(j));
        }
    }

    #[test]
    fn rows_equal_the_jsonl_lines_whatever_the_batch_size() {
        for rows in [1, 2, 5, BATCH_ROWS] {
            assert_same(TagSet::Default, rows);
        }
    }

    #[test]
    fn named_tags_are_columns_and_all_tags_a_map() {
        assert_same(TagSet::parse("Annotator,SetUp,kind,Event"), 3);
        assert_same(TagSet::All, 4);
        let s = ArrowSink::new(&TagSet::parse("Annotator,kind,Annotator"));
        let names: Vec<_> = s
            .schema()
            .fields()
            .iter()
            .map(|f| f.name().clone())
            .collect();
        assert_eq!(names.iter().filter(|n| *n == "Annotator").count(), 1);
        assert_eq!(names.iter().filter(|n| *n == "kind").count(), 1);
        assert!(!names.contains(&"tags".to_string()));
        assert!(ArrowSink::new(&TagSet::All)
            .schema()
            .field_with_name("tags")
            .is_ok());
    }

    #[test]
    fn a_run_without_findings_gives_no_batch() {
        let mut arrow = ArrowSink::new(&TagSet::Default);
        Audit::new()
            .run_bytes("e.pgn", b"1. e4 e5 1-0\n\n", &mut arrow)
            .unwrap();
        assert!(arrow.take_batches().is_empty());
    }
}
