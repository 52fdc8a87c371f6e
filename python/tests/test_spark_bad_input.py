"""The Spark job refuses bad input as ``copyhound dedup`` does: a clear
error naming the file (and the row where Spark can know it), and nothing
written to the output directory. One Spark session serves every case, since
each start costs seconds."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from copyhound import CopyhoundError

pytest.importorskip("pyspark")

from copyhound import spark as job  # noqa: E402 (needs pyspark)


@pytest.fixture(scope="module")
def session():
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.master("local[2]").appName("copyhound-bad-input").getOrCreate()
    yield spark
    spark.stop()


def missing_column(path):
    path = path.with_suffix(".parquet")
    pq.write_table(pa.table({"id": ["a", "b"], "body": ["one", "two"]}), path)
    return path, ["has no column `text`", "its columns: id, body"]


def null_text(path):
    path.write_text('{"id": "a", "text": "one"}\n{"id": "b", "text": null}\n')
    return path, ["the text `text` of the document 'b' is null"]


def numbers_as_text(path):
    path = path.with_suffix(".parquet")
    pq.write_table(pa.table({"id": ["a", "b"], "text": [1, 2]}), path)
    return path, ["the text column `text` holds bigint, not strings"]


def strings_and_numbers_as_text(path):
    # Spark alone would read this column as strings ("2"); dedup refuses it.
    path.write_text('{"id": "a", "text": "one"}\n{"id": "b", "text": 2}\n{"id": "c", "text": "three"}\n')
    return path, ["line 2", "the text `text` of the document 'b' is a number, not a string"]


def empty_file(path):
    path.write_text("")
    return path, ["is empty"]


def invalid_jsonl(path):
    path.write_text('{"id": "a", "text": "one"}\n{"id": "b", "text": "tw\n{"id": "c", "text": "three"}\n')
    return path, ["line 2", "not valid JSON"]


@pytest.mark.parametrize(
    "make",
    [missing_column, null_text, numbers_as_text, strings_and_numbers_as_text, empty_file, invalid_jsonl],
)
def test_bad_input_is_named_and_nothing_is_written(session, tmp_path, make):
    path, expected = make(tmp_path / "in.jsonl")
    out = tmp_path / "out"
    options = job.scheme_options(job.parse_args(["--input", str(path), "--output", str(out)]))
    with pytest.raises(CopyhoundError) as error:
        job.run(session, [str(path)], "id", "text", str(out), options, partitions=2)
    message = str(error.value)
    assert str(path) in message, message
    for part in expected:
        assert part in message, message
    assert not out.exists() or not any(out.iterdir())
