//! Reading documents: Parquet (in record batches), JSONL and JSONL.gz
//! (line by line), each row an id and a text, handed on in batches so a
//! file of any size is read in bounded memory.
//!
//! Every problem is an error naming the file and the row (Parquet) or
//! line (JSONL): a missing column or field, a null or non-string text, a
//! null id or one that is neither a string nor an integer, an empty file,
//! a file that is not Parquet or is cut short, a line that is not a JSON
//! object.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{DataType, Schema};
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use serde_json::Value;

use crate::{DedupError, Place};

/// Rows handed on at a time (fewer when their texts are large).
const BATCH_ROWS: usize = 1024;
/// A batch is handed on once its texts hold this many bytes.
const BATCH_TEXT_BYTES: usize = 32 << 20;

/// A document's id: a string or an integer, as its column holds it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DocId {
    /// From an integer column or a JSON integer.
    Int(i64),
    /// From a string column or a JSON string.
    Text(String),
}

impl std::fmt::Display for DocId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Int(n) => write!(f, "{n}"),
            Self::Text(s) => write!(f, "{s:?}"),
        }
    }
}

/// One input document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// Its id.
    pub id: DocId,
    /// Its text.
    pub text: String,
    /// Where it is in its file.
    pub place: Place,
}

/// The names of the id and text columns (JSONL: fields).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Columns {
    /// The id column.
    pub id: String,
    /// The text column.
    pub text: String,
}

/// The input formats, told apart by file name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `.parquet`, `.pq`.
    Parquet,
    /// `.jsonl`, `.ndjson`, `.json`: one JSON object per line.
    Jsonl,
    /// The same, gzip-compressed (`.gz`).
    JsonlGz,
}

impl Format {
    /// The format of `path`, by its name.
    // The name is lower-cased first: `.PARQUET` is Parquet too.
    #[allow(clippy::case_sensitive_file_extension_comparisons)]
    pub fn of(path: &Path) -> Option<Self> {
        let name = path.file_name()?.to_str()?.to_ascii_lowercase();
        let json = |n: &str| {
            [".jsonl", ".ndjson", ".json"]
                .iter()
                .any(|e| n.ends_with(e))
        };
        if name.ends_with(".parquet") || name.ends_with(".pq") {
            Some(Self::Parquet)
        } else if let Some(inner) = name.strip_suffix(".gz") {
            json(inner).then_some(Self::JsonlGz)
        } else {
            json(&name).then_some(Self::Jsonl)
        }
    }
}

/// The files `paths` name: each file as given (its format known by name),
/// each directory as the files directly in it with a known format, by
/// name (`_SUCCESS` and hidden files skipped, as Spark writes them).
pub fn input_files(paths: &[PathBuf]) -> Result<Vec<(PathBuf, Format)>, DedupError> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found: Vec<(PathBuf, Format)> = std::fs::read_dir(path)
                .map_err(DedupError::io(path))?
                .filter_map(Result::ok)
                .map(|entry| entry.path())
                .filter(|p| {
                    let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
                    p.is_file() && !name.starts_with(['.', '_'])
                })
                .filter_map(|p| Format::of(&p).map(|f| (p, f)))
                .collect();
            if found.is_empty() {
                return Err(DedupError::input(
                    path,
                    Place::File,
                    "holds no .parquet, .jsonl or .jsonl.gz file",
                ));
            }
            found.sort_by(|x, y| x.0.cmp(&y.0));
            files.extend(found);
        } else {
            let format = Format::of(path).ok_or_else(|| {
                DedupError::input(
                    path,
                    Place::File,
                    "unknown format: expected a .parquet, .jsonl, .ndjson or .jsonl.gz file",
                )
            })?;
            files.push((path.clone(), format));
        }
    }
    Ok(files)
}

/// Reads every row of `path`, handing them on to `sink` in batches;
/// returns the number of rows. A file without a row is an error.
pub fn read_rows(
    path: &Path,
    format: Format,
    columns: &Columns,
    sink: &mut dyn FnMut(Vec<Row>) -> Result<(), DedupError>,
) -> Result<u64, DedupError> {
    let file = File::open(path).map_err(DedupError::io(path))?;
    let len = file.metadata().map_err(DedupError::io(path))?.len();
    if len == 0 {
        return Err(DedupError::input(path, Place::File, "is empty"));
    }
    let rows = match format {
        Format::Parquet => read_parquet(path, file, columns, sink)?,
        Format::Jsonl => read_jsonl(path, BufReader::new(file), columns, sink)?,
        Format::JsonlGz => {
            let decoder = flate2::read::MultiGzDecoder::new(BufReader::new(file));
            read_jsonl(path, BufReader::new(decoder), columns, sink)?
        }
    };
    if rows == 0 {
        return Err(DedupError::input(path, Place::File, "holds no rows"));
    }
    Ok(rows)
}

/// The number of rows of a Parquet file, from its footer, if it has one.
pub fn parquet_row_count(path: &Path) -> Option<u64> {
    let file = File::open(path).ok()?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).ok()?;
    u64::try_from(builder.metadata().file_metadata().num_rows()).ok()
}

fn read_parquet(
    path: &Path,
    file: File,
    columns: &Columns,
    sink: &mut dyn FnMut(Vec<Row>) -> Result<(), DedupError>,
) -> Result<u64, DedupError> {
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| {
        DedupError::input(
            path,
            Place::File,
            format!("not a readable Parquet file (truncated or not Parquet?): {e}"),
        )
    })?;
    let schema = builder.schema().clone();
    let id = column(path, &schema, &columns.id)?;
    let text = column(path, &schema, &columns.text)?;
    check_type(path, &schema, id, "id", is_id_type)?;
    check_type(path, &schema, text, "text", is_string_type)?;
    let mask = ProjectionMask::roots(builder.parquet_schema(), [id, text]);
    let reader = builder
        .with_projection(mask)
        .with_batch_size(BATCH_ROWS)
        .build()
        .map_err(|e| DedupError::input(path, Place::File, format!("unreadable: {e}")))?;
    let mut rows = 0u64;
    for batch in reader {
        let batch = batch.map_err(|e| {
            DedupError::input(path, Place::Row(rows + 1), format!("unreadable: {e}"))
        })?;
        let parsed = batch_rows(path, &batch, columns, rows)?;
        rows += batch.num_rows() as u64;
        sink(parsed)?;
    }
    Ok(rows)
}

fn column(path: &Path, schema: &Schema, name: &str) -> Result<usize, DedupError> {
    schema.index_of(name).map_err(|_| {
        let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
        DedupError::input(
            path,
            Place::File,
            format!("has no column `{name}` (its columns: {})", names.join(", ")),
        )
    })
}

fn check_type(
    path: &Path,
    schema: &Schema,
    index: usize,
    role: &str,
    allowed: fn(&DataType) -> bool,
) -> Result<(), DedupError> {
    let field = schema.field(index);
    if allowed(field.data_type()) {
        return Ok(());
    }
    let expected = if role == "id" {
        "strings or integers"
    } else {
        "strings"
    };
    Err(DedupError::input(
        path,
        Place::File,
        format!(
            "the {role} column `{}` holds {}, not {expected}",
            field.name(),
            field.data_type()
        ),
    ))
}

pub(crate) fn is_string_type(t: &DataType) -> bool {
    matches!(t, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View)
}

fn is_id_type(t: &DataType) -> bool {
    is_string_type(t) || t.is_integer()
}

/// The rows of one record batch whose first row is row `before + 1`.
fn batch_rows(
    path: &Path,
    batch: &RecordBatch,
    columns: &Columns,
    before: u64,
) -> Result<Vec<Row>, DedupError> {
    let place = |i: usize| Place::Row(before + i as u64 + 1);
    let ids = batch.column_by_name(&columns.id).expect("projected");
    let texts = batch.column_by_name(&columns.text).expect("projected");
    let ids = id_values(ids).map_err(|(i, message)| DedupError::input(path, place(i), message))?;
    (0..batch.num_rows())
        .map(|i| {
            let id = ids[i].clone().ok_or_else(|| {
                DedupError::input(path, place(i), format!("the id `{}` is null", columns.id))
            })?;
            let text = string_at(texts, i).ok_or_else(|| {
                DedupError::input(
                    path,
                    place(i),
                    format!("the text `{}` is null", columns.text),
                )
            })?;
            Ok(Row {
                id,
                text: text.to_owned(),
                place: place(i),
            })
        })
        .collect()
}

/// The string at `i` of a string array, `None` when null.
pub(crate) fn string_at(array: &ArrayRef, i: usize) -> Option<&str> {
    if array.is_null(i) {
        return None;
    }
    Some(match array.data_type() {
        DataType::Utf8 => array.as_string::<i32>().value(i),
        DataType::LargeUtf8 => array.as_string::<i64>().value(i),
        DataType::Utf8View => array.as_string_view().value(i),
        other => unreachable!("checked string type, found {other}"),
    })
}

/// Every id of an id array (`None` for a null); an unsigned id too large
/// for a signed 64-bit integer is an error at its index.
pub(crate) fn id_values(array: &ArrayRef) -> Result<Vec<Option<DocId>>, (usize, String)> {
    macro_rules! ints {
        ($t:ty) => {
            array
                .as_primitive::<$t>()
                .iter()
                .enumerate()
                .map(|(i, v)| match v {
                    None => Ok(None),
                    Some(v) => i64::try_from(v).map(|v| Some(DocId::Int(v))).map_err(|_| {
                        (
                            i,
                            format!("the id {v} does not fit a signed 64-bit integer"),
                        )
                    }),
                })
                .collect()
        };
    }
    match array.data_type() {
        DataType::Int8 => ints!(Int8Type),
        DataType::Int16 => ints!(Int16Type),
        DataType::Int32 => ints!(Int32Type),
        DataType::Int64 => ints!(Int64Type),
        DataType::UInt8 => ints!(UInt8Type),
        DataType::UInt16 => ints!(UInt16Type),
        DataType::UInt32 => ints!(UInt32Type),
        DataType::UInt64 => ints!(UInt64Type),
        _ => Ok((0..array.len())
            .map(|i| string_at(array, i).map(|s| DocId::Text(s.to_owned())))
            .collect()),
    }
}

fn read_jsonl(
    path: &Path,
    mut reader: impl BufRead,
    columns: &Columns,
    sink: &mut dyn FnMut(Vec<Row>) -> Result<(), DedupError>,
) -> Result<u64, DedupError> {
    let mut batch = Vec::with_capacity(BATCH_ROWS);
    let mut batch_bytes = 0;
    let mut line = Vec::new();
    let mut number = 0u64;
    let mut rows = 0u64;
    loop {
        line.clear();
        number += 1;
        let read = reader.read_until(b'\n', &mut line).map_err(|e| {
            DedupError::input(path, Place::Line(number), format!("could not be read: {e}"))
        })?;
        if read == 0 {
            break;
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let row = json_row(&line, columns)
            .map_err(|message| DedupError::input(path, Place::Line(number), message))?;
        batch_bytes += row.text.len();
        batch.push(Row {
            place: Place::Line(number),
            ..row
        });
        rows += 1;
        if batch.len() >= BATCH_ROWS || batch_bytes >= BATCH_TEXT_BYTES {
            sink(std::mem::take(&mut batch))?;
            batch_bytes = 0;
        }
    }
    if !batch.is_empty() {
        sink(batch)?;
    }
    Ok(rows)
}

/// The row of one JSON line, or what is wrong with it.
fn json_row(line: &[u8], columns: &Columns) -> Result<Row, String> {
    let value: Value = serde_json::from_slice(line).map_err(|e| format!("not valid JSON: {e}"))?;
    let Value::Object(mut object) = value else {
        return Err(format!("not a JSON object but {}", kind(&value)));
    };
    let id = match object.get(&columns.id) {
        None => return Err(format!("has no field `{}`", columns.id)),
        Some(Value::String(s)) => DocId::Text(s.clone()),
        Some(Value::Number(n)) if n.is_i64() => DocId::Int(n.as_i64().expect("checked")),
        Some(other) => {
            return Err(format!(
                "the id `{}` is {}, not a string or an integer",
                columns.id,
                kind(other)
            ));
        }
    };
    let text = match object.remove(&columns.text) {
        None => return Err(format!("has no field `{}`", columns.text)),
        Some(Value::String(s)) => s,
        Some(Value::Null) => return Err(format!("the text `{}` is null", columns.text)),
        Some(other) => {
            return Err(format!(
                "the text `{}` is {}, not a string",
                columns.text,
                kind(&other)
            ));
        }
    };
    Ok(Row {
        id,
        text,
        place: Place::File,
    })
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
