"""The Spark job (local[2]) against ``copyhound dedup`` on the labelled
text sets with a planted paragraph copy: the same pairs, similarities
within 1e-6, the same passages and clusters."""

from __future__ import annotations

import subprocess
import sys

import pyarrow.parquet as pq
import pytest

from conftest import PLANTED_HOST

pytest.importorskip("pyspark")


def rows(path, sort):
    return sorted(pq.read_table(path).to_pylist(), key=lambda r: tuple(r[k] for k in sort))


def test_spark_and_dedup_give_the_same_pairs_and_clusters(cli, text_corpus, tmp_path):
    corpus, texts, planted = text_corpus
    subprocess.run(
        [cli, "dedup", corpus, "--id-column", "id", "--text-column", "text", "--output", tmp_path / "one", "-q"],
        check=True,
    )
    subprocess.run(
        [
            sys.executable, "-m", "copyhound.spark",
            "--input", str(corpus), "--id-column", "id", "--text-column", "text",
            "--output", str(tmp_path / "spark"), "--master", "local[2]", "--partitions", "4",
        ],
        check=True,
    )
    one = rows(tmp_path / "one" / "pairs.parquet", ("a", "b"))
    spark = rows(tmp_path / "spark" / "pairs.parquet", ("a", "b"))
    assert [(r["a"], r["b"]) for r in spark] == [(r["a"], r["b"]) for r in one]
    assert len(one) > 100, "the text sets' copies"
    for x, y in zip(one, spark):
        for column in ("similarity", "containment_a", "containment_b"):
            assert abs(x[column] - y[column]) <= 1e-6, (x["a"], x["b"], column)
        assert x["passages"] == y["passages"]
    assert rows(tmp_path / "spark" / "clusters.parquet", ("id",)) == rows(tmp_path / "one" / "clusters.parquet", ("id",))

    [hit] = [r for r in one if r["b"] == PLANTED_HOST]
    assert hit["a"] == "pan-even/src/source-document00035.txt"
    [passage] = hit["passages"]
    start, end = planted
    assert abs(passage["b_start"] - start) <= 5 and abs(passage["b_end"] - end) <= 5, (passage, planted)
    host = texts[PLANTED_HOST].encode()
    source = texts[hit["a"]].encode()
    assert host[passage["b_start"] : passage["b_end"]] == source[passage["a_start"] : passage["a_end"]]
    assert not [p for p in (tmp_path / "spark").iterdir() if p.name.startswith(".")], "no work files left"
