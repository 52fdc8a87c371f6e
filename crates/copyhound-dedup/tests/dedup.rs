//! `dedup` end to end on files written here: what it lists, how it
//! clusters, and that bad input is refused by name and row with nothing
//! left in the output directory.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, Int64Type};
use arrow_array::{Array, ArrayRef, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use copyhound_dedup::{Columns, DedupOptions, Scheme, dedup};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use proptest::prop_assert;

/// Deterministic prose: words drawn by a small linear congruential
/// generator from `seed`.
fn prose(seed: u64, words: usize) -> String {
    const WORDS: [&str; 24] = [
        "river", "stone", "garden", "lantern", "copper", "meadow", "signal", "harbour", "violet",
        "engine", "thunder", "pencil", "orchard", "canvas", "marble", "silver", "window", "falcon",
        "ember", "quartz", "willow", "beacon", "saddle", "glacier",
    ];
    let mut state = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
    let mut out = Vec::with_capacity(words);
    for _ in 0..words {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        out.push(WORDS[(state >> 33) as usize % WORDS.len()]);
    }
    out.join(" ")
}

fn columns() -> Columns {
    Columns {
        id: "id".into(),
        text: "text".into(),
    }
}

fn scheme() -> Scheme {
    Scheme::new(DedupOptions::default()).unwrap()
}

fn write_jsonl(path: &Path, rows: &[(&str, &str)]) {
    let lines: Vec<String> = rows
        .iter()
        .map(|(id, text)| serde_json::json!({"id": id, "text": text}).to_string())
        .collect();
    fs::write(path, lines.join("\n") + "\n").unwrap();
}

fn write_parquet(path: &Path, columns: Vec<(&str, ArrayRef)>) {
    let fields: Vec<Field> = columns
        .iter()
        .map(|(name, array)| Field::new(*name, array.data_type().clone(), true))
        .collect();
    let batch = RecordBatch::try_new(
        Arc::new(Schema::new(fields)),
        columns.into_iter().map(|(_, a)| a).collect(),
    )
    .unwrap();
    let mut writer =
        ArrowWriter::try_new(fs::File::create(path).unwrap(), batch.schema(), None).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
}

fn read_parquet(path: &Path) -> RecordBatch {
    let reader = ParquetRecordBatchReaderBuilder::try_new(fs::File::open(path).unwrap())
        .unwrap()
        .build()
        .unwrap();
    let batches: Vec<RecordBatch> = reader.map(Result::unwrap).collect();
    arrow_select_concat(&batches)
}

fn arrow_select_concat(batches: &[RecordBatch]) -> RecordBatch {
    assert!(!batches.is_empty());
    arrow_select::concat::concat_batches(&batches[0].schema(), batches).unwrap()
}

/// Every entry of `dir`, names only, sorted.
fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .map(|d| {
            d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn a_copied_paragraph_inside_a_long_document_is_listed_with_its_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let paragraph = format!(
        "Copied paragraph begins. {} Copied paragraph ends.",
        prose(7, 120)
    );
    let host = format!("{}\n\n{paragraph}\n\n{}", prose(1, 1500), prose(2, 1500));
    let unrelated = prose(3, 400);
    let input = dir.path().join("in.jsonl");
    write_jsonl(
        &input,
        &[
            ("host", &host),
            ("source", &paragraph),
            ("other", &unrelated),
        ],
    );
    let out = dir.path().join("out");
    let summary = dedup(&[input], &columns(), &scheme(), &out, &()).unwrap();
    assert_eq!(summary.documents, 3);
    assert_eq!(entries(&out), ["clusters.parquet", "pairs.parquet"]);

    let pairs = read_parquet(&out.join("pairs.parquet"));
    let host_pairs: Vec<usize> = (0..pairs.num_rows())
        .filter(|&i| pairs.column(0).as_string::<i32>().value(i) == "host")
        .collect();
    assert_eq!(host_pairs.len(), 1, "host and source, nothing else");
    let row = host_pairs[0];
    assert_eq!(pairs.column(1).as_string::<i32>().value(row), "source");
    let similarity = pairs.column(2).as_primitive::<Float64Type>().value(row);
    assert!(
        similarity < 0.6,
        "the mean of all of one side and a small part of the other: {similarity}"
    );
    let contained = pairs.column(4).as_primitive::<Float64Type>().value(row);
    assert!(
        contained > 0.99,
        "the source is all inside the host: {contained}"
    );
    let passages = pairs.column(5).as_list::<i32>().value(row);
    let passages = passages.as_struct();
    assert_eq!(passages.len(), 1);
    let at = |c: usize| passages.column(c).as_primitive::<Int64Type>().value(0) as usize;
    let in_host = &host[at(0)..at(1)];
    let in_source = &paragraph[at(2)..at(3)];
    assert_eq!(in_host, in_source);
    let start = host.find(&paragraph).unwrap();
    assert!(
        at(0) <= start + 10 && at(1) + 10 >= start + paragraph.len(),
        "{:?} vs {}..{}",
        at(0)..at(1),
        start,
        start + paragraph.len()
    );

    let clusters = read_parquet(&out.join("clusters.parquet"));
    assert_eq!(clusters.num_rows(), 3);
    let keep = clusters.column(2).as_boolean();
    assert!(
        keep.iter().all(|k| k == Some(true)),
        "a low similarity clusters nothing"
    );
}

#[test]
fn near_duplicates_cluster_and_the_smallest_id_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let base = prose(11, 500);
    let edited = base.replacen("river", "brook", 3);
    let input = dir.path().join("in.parquet");
    write_parquet(
        &input,
        vec![
            ("id", Arc::new(Int64Array::from(vec![30, 10, 20, 40]))),
            (
                "text",
                Arc::new(StringArray::from(vec![
                    edited.as_str(),
                    base.as_str(),
                    prose(12, 300).as_str(),
                    base.as_str(),
                ])),
            ),
        ],
    );
    let out = dir.path().join("out");
    let summary = dedup(&[input], &columns(), &scheme(), &out, &()).unwrap();
    assert_eq!((summary.clusters, summary.removed), (1, 2));
    let clusters = read_parquet(&out.join("clusters.parquet"));
    let ids = clusters.column(0).as_primitive::<Int64Type>();
    let cluster = clusters.column(1).as_primitive::<Int64Type>();
    let keep = clusters.column(2).as_boolean();
    let rows: Vec<(i64, i64, bool)> = (0..clusters.num_rows())
        .map(|i| (ids.value(i), cluster.value(i), keep.value(i)))
        .collect();
    assert_eq!(
        rows,
        [
            (10, 10, true),
            (20, 20, true),
            (30, 10, false),
            (40, 10, false)
        ]
    );
    let pairs = read_parquet(&out.join("pairs.parquet"));
    let a = pairs.column(0).as_primitive::<Int64Type>();
    let b = pairs.column(1).as_primitive::<Int64Type>();
    let listed: Vec<(i64, i64)> = (0..pairs.num_rows())
        .map(|i| (a.value(i), b.value(i)))
        .collect();
    assert_eq!(listed, [(10, 30), (10, 40), (30, 40)], "sorted, a < b");
    let similarity = pairs.column(2).as_primitive::<Float64Type>();
    assert!((similarity.value(1) - 1.0).abs() < 1e-12, "identical texts");
}

/// Runs `dedup` on `input` and returns its error message, checking that
/// the output directory it was given holds nothing afterwards.
fn refused(input: PathBuf) -> String {
    let out = input.parent().unwrap().join("out");
    fs::create_dir_all(&out).unwrap();
    let error = dedup(&[input], &columns(), &scheme(), &out, &())
        .expect_err("bad input is refused")
        .to_string();
    assert_eq!(entries(&out), Vec::<String>::new(), "nothing left in OUT");
    error
}

#[test]
fn a_missing_column_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("rows.parquet");
    write_parquet(
        &input,
        vec![
            ("id", Arc::new(StringArray::from(vec!["a"]))),
            ("body", Arc::new(StringArray::from(vec!["some text"]))),
        ],
    );
    let error = refused(input);
    assert!(
        error.contains("rows.parquet: has no column `text` (its columns: id, body)"),
        "{error}"
    );
}

#[test]
fn a_null_text_is_named_with_its_row() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("rows.parquet");
    write_parquet(
        &input,
        vec![
            ("id", Arc::new(StringArray::from(vec!["a", "b", "c"]))),
            (
                "text",
                Arc::new(StringArray::from(vec![Some("x"), Some("y"), None])),
            ),
        ],
    );
    let error = refused(input);
    assert!(
        error.contains("rows.parquet, row 3: the text `text` is null"),
        "{error}"
    );
}

#[test]
fn a_text_column_of_numbers_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("rows.parquet");
    write_parquet(
        &input,
        vec![
            ("id", Arc::new(StringArray::from(vec!["a"]))),
            ("text", Arc::new(Int64Array::from(vec![5]))),
        ],
    );
    let error = refused(input);
    assert!(
        error.contains("the text column `text` holds Int64, not strings"),
        "{error}"
    );
}

#[test]
fn an_empty_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["empty.parquet", "empty.jsonl"] {
        let input = dir.path().join(name);
        fs::write(&input, "").unwrap();
        let error = refused(input);
        assert!(error.contains(&format!("{name}: is empty")), "{error}");
    }
    let blank = dir.path().join("blank.jsonl");
    fs::write(&blank, "\n\n").unwrap();
    assert!(refused(blank).contains("blank.jsonl: holds no rows"));
}

#[test]
fn a_truncated_parquet_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("cut.parquet");
    write_parquet(
        &input,
        vec![
            ("id", Arc::new(StringArray::from(vec!["a", "b"]))),
            (
                "text",
                Arc::new(StringArray::from(vec![prose(1, 200), prose(2, 200)])),
            ),
        ],
    );
    let bytes = fs::read(&input).unwrap();
    fs::write(&input, &bytes[..bytes.len() / 2]).unwrap();
    let error = refused(input);
    assert!(
        error.contains("cut.parquet: not a readable Parquet file"),
        "{error}"
    );
}

#[test]
fn invalid_jsonl_lines_are_named_with_their_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "{\"id\": \"a\", \"text\": \"fine\"}\n{\"id\": \"b\", \"text\": ",
            "line 2: not valid JSON",
        ),
        (
            "{\"id\": \"a\", \"text\": 7}\n",
            "line 1: the text `text` is a number, not a string",
        ),
        (
            "{\"id\": \"a\", \"text\": null}\n",
            "line 1: the text `text` is null",
        ),
        ("\n[1, 2]\n", "line 2: not a JSON object but an array"),
        ("{\"text\": \"no id\"}\n", "line 1: has no field `id`"),
        (
            "{\"id\": 1.5, \"text\": \"x\"}\n",
            "line 1: the id `id` is a number, not a string or an integer",
        ),
        (
            "{\"id\": 1, \"text\": \"x\"}\n{\"id\": \"2\", \"text\": \"y\"}\n",
            "line 2: the id \"2\" is a string, but the first document's id is an integer",
        ),
    ];
    for (contents, expected) in cases {
        let input = dir.path().join("rows.jsonl");
        fs::write(&input, contents).unwrap();
        let error = refused(input);
        assert!(
            error.contains(&format!("rows.jsonl, {expected}")),
            "{error} (expected {expected})"
        );
    }
}

#[test]
fn a_repeated_id_is_named_with_both_places() {
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("one.jsonl");
    let second = dir.path().join("two.jsonl");
    write_jsonl(&first, &[("a", "alpha text"), ("b", "beta text")]);
    write_jsonl(&second, &[("c", "gamma"), ("a", "again")]);
    let out = dir.path().join("out");
    let error = dedup(&[first, second], &columns(), &scheme(), &out, &())
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("two.jsonl, line 2: the id \"a\" is already the id of the document at"),
        "{error}"
    );
    assert!(error.ends_with("one.jsonl, line 1"), "{error}");
    assert!(
        !out.exists(),
        "an output directory the run made is removed again"
    );
}

#[test]
fn gzipped_jsonl_and_directories_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("inputs");
    fs::create_dir(&inputs).unwrap();
    let text = prose(5, 300);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(
        &mut gz,
        serde_json::json!({"id": "z", "text": text})
            .to_string()
            .as_bytes(),
    )
    .unwrap();
    fs::write(inputs.join("part-0.jsonl.gz"), gz.finish().unwrap()).unwrap();
    write_jsonl(&inputs.join("part-1.jsonl"), &[("y", &text)]);
    fs::write(inputs.join("_SUCCESS"), "").unwrap();
    let out = dir.path().join("out");
    let summary = dedup(&[inputs], &columns(), &scheme(), &out, &()).unwrap();
    assert_eq!(
        (summary.documents, summary.listed_pairs, summary.removed),
        (2, 1, 1)
    );
}

/// Every pair the stages list is one that scoring all pairs lists, and
/// the reverse, on a corpus of planted copies among unrelated texts.
#[test]
fn the_listed_pairs_are_those_scoring_every_pair_lists() {
    let dir = tempfile::tempdir().unwrap();
    let mut texts: Vec<String> = (0..40).map(|i| prose(100 + i, 150)).collect();
    for i in 0..10 {
        let copied = texts[i * 3][200..500].to_owned();
        texts[i * 3 + 1].push_str(&copied);
    }
    texts[39] = texts[38].clone();
    let ids: Vec<String> = (0..texts.len()).map(|i| format!("doc{i:02}")).collect();
    let rows: Vec<(&str, &str)> = ids
        .iter()
        .map(String::as_str)
        .zip(texts.iter().map(String::as_str))
        .collect();
    let input = dir.path().join("in.jsonl");
    write_jsonl(&input, &rows);
    let out = dir.path().join("out");
    let scheme = scheme();
    dedup(&[input], &columns(), &scheme, &out, &()).unwrap();
    let pairs = read_parquet(&out.join("pairs.parquet"));
    let listed: Vec<(String, String, f64)> = (0..pairs.num_rows())
        .map(|i| {
            (
                pairs.column(0).as_string::<i32>().value(i).to_owned(),
                pairs.column(1).as_string::<i32>().value(i).to_owned(),
                pairs.column(2).as_primitive::<Float64Type>().value(i),
            )
        })
        .collect();
    let mut expected = Vec::new();
    for a in 0..texts.len() {
        for b in a + 1..texts.len() {
            let found = scheme.score(&texts[a], &texts[b]);
            if found.is_listed() {
                expected.push((ids[a].clone(), ids[b].clone(), found.similarity));
            }
        }
    }
    assert!(
        expected.len() >= 11,
        "the planted copies: {}",
        expected.len()
    );
    assert_eq!(listed, expected);
}

#[test]
fn ids_of_strings_keep_their_type_and_integers_theirs() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.jsonl");
    let text = prose(9, 100);
    fs::write(
        &input,
        format!(
            "{}\n{}\n",
            serde_json::json!({"id": 2, "text": text}),
            serde_json::json!({"id": 1, "text": text})
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    dedup(&[input], &columns(), &scheme(), &out, &()).unwrap();
    let pairs = read_parquet(&out.join("pairs.parquet"));
    assert_eq!(pairs.schema().field(0).data_type(), &DataType::Int64);
    assert_eq!(pairs.column(0).as_primitive::<Int64Type>().value(0), 1);
}

/// `len` random lowercase letters from `seed`: no k-gram repeats.
fn letters(seed: u64, len: usize) -> String {
    let mut state = seed ^ 0x9e37_79b9_7f4a_7c15;
    (0..len)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            char::from(b'a' + ((state >> 33) % 26) as u8)
        })
        .collect()
}

proptest::proptest! {
    /// The rule a run scores by: any two documents sharing a run of the
    /// minimum passage's length are a candidate pair.
    #[test]
    fn a_shared_run_of_the_minimum_passage_makes_a_candidate(
        seeds in (0u64..1000, 0u64..1000, 0u64..1000),
        at in (0usize..150, 0usize..150),
    ) {
        let scheme = scheme();
        let options = scheme.options();
        prop_assert!(
            options.k + options.min_shared_fingerprints * options.index_window - 1
                <= options.min_passage
        );
        let run = letters(seeds.2, options.min_passage);
        let host = |seed: u64, at: usize| {
            let mut words: Vec<String> = prose(seed, 150).split(' ').map(str::to_owned).collect();
            words.insert(at, run.clone());
            words.join(" ")
        };
        prop_assert!(scheme.is_candidate(&host(seeds.0, at.0), &host(seeds.1 + 1000, at.1)));
    }
}

/// Pairs sharing fewer fingerprints than the minimum are counted but
/// never scored, so never listed.
#[test]
fn pairs_sharing_too_few_fingerprints_are_not_scored() {
    let dir = tempfile::tempdir().unwrap();
    let copied = letters(7, 300);
    let texts = [
        format!("{} {copied} {}", letters(1, 500), letters(2, 500)),
        format!("{} {copied}", letters(3, 1000)),
        letters(4, 1000),
    ];
    let rows: Vec<(&str, &str)> = ["a", "b", "c"]
        .into_iter()
        .zip(texts.iter().map(String::as_str))
        .collect();
    let input = dir.path().join("in.jsonl");
    write_jsonl(&input, &rows);
    let run = |min_shared_fingerprints: usize, out: &str| {
        let options = DedupOptions {
            min_shared_fingerprints,
            ..DedupOptions::default()
        };
        let scheme = Scheme::new(options).unwrap();
        dedup(
            std::slice::from_ref(&input),
            &columns(),
            &scheme,
            &dir.path().join(out),
            &(),
        )
        .unwrap()
    };
    let scored = run(2, "two");
    assert_eq!(
        (
            scored.sharing_pairs,
            scored.candidate_pairs,
            scored.listed_pairs
        ),
        (1, 1, 1)
    );
    let unscored = run(10_000, "many");
    assert_eq!(
        (
            unscored.sharing_pairs,
            unscored.candidate_pairs,
            unscored.listed_pairs
        ),
        (1, 0, 0)
    );
}
