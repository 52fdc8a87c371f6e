//! The Parquet outputs: `pairs.parquet` (`a`, `b`, `similarity`,
//! `containment_a`, `containment_b`, `passages`) and `clusters.parquet`
//! (`id`, `cluster`, `keep`), ids as the input gave them (64-bit integers
//! or strings), byte offsets as signed 64-bit integers so that every
//! engine (Spark among them) reads them as numbers.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::{
    ArrayRef, BooleanArray, Float64Array, Int64Array, ListArray, RecordBatch, StringArray,
    StructArray,
};
use arrow_buffer::OffsetBuffer;
use arrow_schema::{DataType, Field, Fields, Schema, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;

use crate::ids::Ids;
use crate::{DedupError, PairMatch, SharedSpan};

/// Clusters rows written per record batch.
const CLUSTER_BATCH: usize = 64 * 1024;

/// A listed pair: documents `a` (the smaller id) and `b`, and what they
/// share.
pub(crate) struct PairRow {
    pub(crate) a: u32,
    pub(crate) b: u32,
    pub(crate) found: PairMatch,
}

/// The fields of one passage: its byte range in `a`, then in `b`.
fn passage_fields() -> Fields {
    ["a_start", "a_end", "b_start", "b_end"]
        .into_iter()
        .map(|name| Field::new(name, DataType::Int64, false))
        .collect()
}

fn passage_item() -> Arc<Field> {
    Arc::new(Field::new(
        "item",
        DataType::Struct(passage_fields()),
        false,
    ))
}

/// The fields of what a pair shares: `similarity`, `containment_a`,
/// `containment_b`, `passages`.
pub(crate) fn match_fields() -> [Field; 4] {
    [
        Field::new("similarity", DataType::Float64, false),
        Field::new("containment_a", DataType::Float64, false),
        Field::new("containment_b", DataType::Float64, false),
        Field::new("passages", DataType::List(passage_item()), false),
    ]
}

/// The columns of [`match_fields`] for `matches`.
pub(crate) fn match_columns<'m>(
    matches: &(impl Iterator<Item = &'m PairMatch> + Clone),
) -> [ArrayRef; 4] {
    let floats = |f: fn(&PairMatch) -> f64| -> ArrayRef {
        Arc::new(Float64Array::from_iter_values(matches.clone().map(f)))
    };
    let passages = matches.clone().flat_map(|m| &m.passages);
    let offsets = |f: fn(&SharedSpan) -> usize| -> ArrayRef {
        Arc::new(Int64Array::from_iter_values(
            passages
                .clone()
                .map(|p| i64::try_from(f(p)).expect("offsets fit")),
        ))
    };
    let spans = StructArray::new(
        passage_fields(),
        vec![
            offsets(|p| p.a.start),
            offsets(|p| p.a.end),
            offsets(|p| p.b.start),
            offsets(|p| p.b.end),
        ],
        None,
    );
    let list = ListArray::new(
        passage_item(),
        OffsetBuffer::from_lengths(matches.clone().map(|m| m.passages.len())),
        Arc::new(spans),
        None,
    );
    [
        floats(|m| m.similarity),
        floats(|m| m.containment[0]),
        floats(|m| m.containment[1]),
        Arc::new(list),
    ]
}

fn id_type(ids: &Ids) -> DataType {
    match ids {
        Ids::Int(_) => DataType::Int64,
        Ids::Text { .. } => DataType::Utf8,
    }
}

fn id_array(ids: &Ids, docs: impl Iterator<Item = u32>) -> ArrayRef {
    match ids {
        Ids::Int(values) => Arc::new(Int64Array::from_iter_values(
            docs.map(|d| values[d as usize]),
        )),
        Ids::Text { .. } => Arc::new(StringArray::from_iter_values(docs.map(|d| ids.text(d)))),
    }
}

fn properties() -> WriterProperties {
    WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .build()
}

/// Writes `pairs.parquet`, a batch of rows at a time.
pub(crate) struct PairsWriter {
    path: PathBuf,
    schema: SchemaRef,
    writer: ArrowWriter<File>,
}

impl PairsWriter {
    pub(crate) fn create(path: &Path, ids: &Ids) -> Result<Self, DedupError> {
        let id = id_type(ids);
        let mut fields = vec![
            Field::new("a", id.clone(), false),
            Field::new("b", id, false),
        ];
        fields.extend(match_fields());
        let schema = Arc::new(Schema::new(fields));
        let file = File::create(path).map_err(DedupError::io(path))?;
        let writer = ArrowWriter::try_new(file, schema.clone(), Some(properties()))
            .map_err(write_error(path))?;
        Ok(Self {
            path: path.to_owned(),
            schema,
            writer,
        })
    }

    pub(crate) fn write(&mut self, ids: &Ids, rows: &[PairRow]) -> Result<(), DedupError> {
        if rows.is_empty() {
            return Ok(());
        }
        let [similarity, containment_a, containment_b, passages] =
            match_columns(&rows.iter().map(|r| &r.found));
        let batch = RecordBatch::try_new(
            self.schema.clone(),
            vec![
                id_array(ids, rows.iter().map(|r| r.a)),
                id_array(ids, rows.iter().map(|r| r.b)),
                similarity,
                containment_a,
                containment_b,
                passages,
            ],
        )
        .expect("columns match the schema");
        self.writer.write(&batch).map_err(write_error(&self.path))
    }

    pub(crate) fn finish(self) -> Result<(), DedupError> {
        self.writer.close().map_err(write_error(&self.path))?;
        Ok(())
    }
}

/// Writes `clusters.parquet`: every document in id order (`by_rank`), the
/// id of its cluster (the smallest id in it: `root_rank` gives each rank
/// the rank of its cluster's smallest id) and whether it is the one kept.
pub(crate) fn write_clusters(
    path: &Path,
    ids: &Ids,
    by_rank: &[u32],
    root_rank: &[u32],
) -> Result<(), DedupError> {
    let id = id_type(ids);
    let schema = Arc::new(Schema::new(vec![
        Field::new("id", id.clone(), false),
        Field::new("cluster", id, false),
        Field::new("keep", DataType::Boolean, false),
    ]));
    let file = File::create(path).map_err(DedupError::io(path))?;
    let mut writer = ArrowWriter::try_new(file, schema.clone(), Some(properties()))
        .map_err(write_error(path))?;
    for start in (0..by_rank.len()).step_by(CLUSTER_BATCH) {
        let ranks = start..(start + CLUSTER_BATCH).min(by_rank.len());
        let batch = RecordBatch::try_new(
            schema.clone(),
            vec![
                id_array(ids, ranks.clone().map(|r| by_rank[r])),
                id_array(ids, ranks.clone().map(|r| by_rank[root_rank[r] as usize])),
                Arc::new(
                    ranks
                        .map(|r| Some(root_rank[r] as usize == r))
                        .collect::<BooleanArray>(),
                ),
            ],
        )
        .expect("columns match the schema");
        writer.write(&batch).map_err(write_error(path))?;
    }
    writer.close().map_err(write_error(path))?;
    Ok(())
}

fn write_error(path: &Path) -> impl Fn(parquet::errors::ParquetError) -> DedupError + '_ {
    move |source| DedupError::Write {
        path: path.to_owned(),
        source,
    }
}
