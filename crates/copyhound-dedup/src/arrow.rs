//! Arrow entry points, for data-frame engines that hand over record
//! batches (Spark's `mapInArrow`, the Python package): the candidate
//! fingerprints of a batch of documents, and the scores of a batch of
//! pairs, each row by [`Scheme`] exactly as a one-machine run does it.

use std::sync::Arc;

use arrow_array::{ArrayRef, Int64Array, RecordBatch, UInt32Array};
use arrow_schema::{Field, Schema};
use rayon::prelude::*;

use crate::input::{is_string_type, string_at};
use crate::output::{match_columns, match_fields};
use crate::{DedupError, Place, Scheme};

/// What errors about a record batch name instead of a file.
const BATCH: &str = "record batch";

/// The candidate fingerprints of a batch of documents: one row per
/// document and distinct hash, `(id, hash)`, the id as the batch holds it
/// (column `id_column`) and the hash as a signed 64-bit integer (its bits
/// unchanged), so that engines without unsigned integers can join on it.
pub fn fingerprint_batch(
    scheme: &Scheme,
    batch: &RecordBatch,
    id_column: &str,
    text_column: &str,
) -> Result<RecordBatch, DedupError> {
    let ids = column(batch, id_column)?;
    let texts = string_column(batch, text_column)?;
    let hashes: Vec<Vec<u64>> = (0..batch.num_rows())
        .into_par_iter()
        .map(|i| {
            let text = string_at(texts, i).ok_or_else(|| {
                DedupError::input(
                    BATCH,
                    Place::Row(i as u64 + 1),
                    format!("the text `{text_column}` is null"),
                )
            })?;
            Ok(scheme.candidate_hashes(text))
        })
        .collect::<Result<_, DedupError>>()?;
    let rows = UInt32Array::from_iter_values(
        hashes
            .iter()
            .enumerate()
            .flat_map(|(i, h)| std::iter::repeat_n(i as u32, h.len())),
    );
    let hash = Int64Array::from_iter_values(hashes.iter().flatten().map(|&h| h.cast_signed()));
    let schema = Schema::new(vec![
        Field::new(id_column, ids.data_type().clone(), true),
        Field::new("hash", arrow_schema::DataType::Int64, false),
    ]);
    let ids = arrow_select::take::take(ids, &rows, None).expect("indices in bounds");
    Ok(RecordBatch::try_new(Arc::new(schema), vec![ids, Arc::new(hash)]).expect("matches schema"))
}

/// The scores of a batch of pairs, columns `a`, `b` (ids, any type),
/// `text_a`, `text_b`: the listed pairs only (sharing a passage of at
/// least the minimum length), as `a`, `b`, `similarity`, `containment_a`,
/// `containment_b`, `passages` — the columns of `pairs.parquet`.
pub fn score_batch(scheme: &Scheme, batch: &RecordBatch) -> Result<RecordBatch, DedupError> {
    let (a, b) = (column(batch, "a")?, column(batch, "b")?);
    let (text_a, text_b) = (
        string_column(batch, "text_a")?,
        string_column(batch, "text_b")?,
    );
    let found: Vec<_> = (0..batch.num_rows())
        .into_par_iter()
        .map(|i| {
            let text = |texts, name| {
                string_at(texts, i).ok_or_else(|| {
                    DedupError::input(BATCH, Place::Row(i as u64 + 1), format!("`{name}` is null"))
                })
            };
            let found = scheme.score(text(text_a, "text_a")?, text(text_b, "text_b")?);
            Ok(found.is_listed().then_some((i as u32, found)))
        })
        .collect::<Result<Vec<_>, DedupError>>()?
        .into_iter()
        .flatten()
        .collect();
    let rows = UInt32Array::from_iter_values(found.iter().map(|(i, _)| *i));
    let take =
        |column: &ArrayRef| arrow_select::take::take(column, &rows, None).expect("in bounds");
    let mut fields = vec![
        Field::new("a", a.data_type().clone(), true),
        Field::new("b", b.data_type().clone(), true),
    ];
    fields.extend(match_fields());
    let mut columns = vec![take(a), take(b)];
    columns.extend(match_columns(&found.iter().map(|(_, m)| m)));
    Ok(RecordBatch::try_new(Arc::new(Schema::new(fields)), columns).expect("matches schema"))
}

fn column<'b>(batch: &'b RecordBatch, name: &str) -> Result<&'b ArrayRef, DedupError> {
    batch.column_by_name(name).ok_or_else(|| {
        let names: Vec<&str> = batch
            .schema_ref()
            .fields()
            .iter()
            .map(|f| f.name().as_str())
            .collect();
        DedupError::input(
            BATCH,
            Place::File,
            format!("has no column `{name}` (its columns: {})", names.join(", ")),
        )
    })
}

fn string_column<'b>(batch: &'b RecordBatch, name: &str) -> Result<&'b ArrayRef, DedupError> {
    let array = column(batch, name)?;
    if is_string_type(array.data_type()) {
        Ok(array)
    } else {
        Err(DedupError::input(
            BATCH,
            Place::File,
            format!(
                "the column `{name}` holds {}, not strings",
                array.data_type()
            ),
        ))
    }
}
