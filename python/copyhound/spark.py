"""``copyhound dedup`` on Spark: the same stages, the same output files and
columns, for corpora beyond one machine.

Run it as ``spark-submit -m copyhound.spark`` or
``python -m copyhound.spark --input IN --id-column ID --text-column TEXT
--output OUT [--master local[2]]`` (every executor needs the ``copyhound``
package installed). The stages are those of ``copyhound dedup``, each
calling the package's Rust code where ``dedup`` does:

1. fingerprints on the executors (``mapInArrow`` over
   :meth:`copyhound.Scheme.fingerprint_batch`): ``(id, hash)`` rows, the
   hash as a signed 64-bit integer;
2. a hash in more than ``--max-documents-per-hash`` documents is dropped;
3. candidate pairs: a join on the hash, the rows partitioned by the hash's
   top 8 bits so that each partition is an independent job; the pairs
   sharing at least ``--min-shared-fingerprints`` distinct hashes;
4. every candidate pair scored by :meth:`copyhound.Scheme.score_batch`
   (``mapInArrow`` over the pair's two texts), kept when it shares a
   passage of at least the minimum length;
5. clusters: connected components of the pairs at or above
   ``--min-similarity`` by the large-star/small-star rounds (Kiveris et
   al., 2014); each document's cluster is the smallest id of its
   component, and that document is kept.

With a local output directory, each output is written as one Parquet file
(``OUT/pairs.parquet``, ``OUT/clusters.parquet``, as ``dedup`` writes
them); on a cluster file system (``hdfs://``, ``s3a://``) as Spark's
directory of part files under the same names. Either way the outputs are
written to a temporary directory inside ``OUT`` first and moved into place
only when both are complete.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import sys
import uuid
from typing import Iterator, Optional, Sequence

import pyarrow as pa
import pyarrow.parquet as pq

from copyhound import CopyhoundError, Scheme

PAIRS_FILE = "pairs.parquet"
CLUSTERS_FILE = "clusters.parquet"
#: Bits of the hash prefix that partitions the fingerprints.
PREFIX_BITS = 8

PASSAGE = pa.struct(
    [pa.field(name, pa.int64(), nullable=False) for name in ("a_start", "a_end", "b_start", "b_end")]
)


def scheme_options(args: argparse.Namespace) -> dict:
    """The :class:`copyhound.Scheme` keyword arguments of the command line."""
    return {
        "text_mode": args.text_mode,
        "k": args.k,
        "w": args.w,
        "index_window": args.index_window,
        "min_shared_fingerprints": args.min_shared_fingerprints,
        "seed": args.seed,
        "max_documents_per_hash": args.max_documents_per_hash,
        "min_passage": args.min_passage,
        "merge_gap": args.merge_gap,
        "min_similarity": args.min_similarity,
    }


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m copyhound.spark",
        description="copyhound dedup on Spark: pairs.parquet and clusters.parquet from Parquet/JSONL rows.",
    )
    parser.add_argument("--input", required=True, action="append", help="an input file or directory (repeatable)")
    parser.add_argument("--id-column", default="id")
    parser.add_argument("--text-column", default="text")
    parser.add_argument("--output", required=True, help="the output directory")
    parser.add_argument("--master", default=None, help="Spark master, e.g. local[2] (default: spark-submit's)")
    parser.add_argument("--partitions", type=int, default=None, help="shuffle partitions (default: 4 x the cores)")
    parser.add_argument("--driver-memory", default=None, help="the driver's memory, e.g. 4g (with --master local[N], all of Spark's)")
    parser.add_argument("--text-mode", default="chars", choices=["chars", "words", "consonants"])
    parser.add_argument("-k", type=int, default=None)
    parser.add_argument("-w", type=int, default=None)
    parser.add_argument("--index-window", type=int, default=None)
    parser.add_argument("--min-shared-fingerprints", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("-m", "--max-documents-per-hash", type=int, default=100)
    parser.add_argument("--min-passage", type=int, default=None)
    parser.add_argument("--merge-gap", type=int, default=None)
    parser.add_argument("--min-similarity", type=float, default=0.8)
    return parser.parse_args(argv)


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parse_args(argv)
    options = scheme_options(args)
    try:
        Scheme(**options)  # checks the settings before Spark starts
    except CopyhoundError as error:
        print(f"copyhound.spark: error: {error}", file=sys.stderr)
        return 2
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("copyhound-dedup")
    if args.master:
        builder = builder.master(args.master)
    if args.driver_memory:
        builder = builder.config("spark.driver.memory", args.driver_memory)
    spark = builder.getOrCreate()
    try:
        summary = run(spark, args.input, args.id_column, args.text_column, args.output, options, args.partitions)
    except CopyhoundError as error:
        print(f"copyhound.spark: error: {error}", file=sys.stderr)
        return 2
    finally:
        spark.stop()
    print(
        f"{summary['documents']} documents, {summary['listed_pairs']} pairs listed, "
        f"{summary['clusters']} clusters of near-duplicates ({summary['removed']} documents not kept)",
        file=sys.stderr,
    )
    return 0


def _input_format(path: str) -> str:
    name = path.lower().rstrip("/")
    if name.endswith((".parquet", ".pq")):
        return "parquet"
    if name.endswith((".jsonl", ".ndjson", ".json", ".jsonl.gz", ".ndjson.gz", ".json.gz")):
        return "json"
    if os.path.isdir(path):
        names = [n for n in os.listdir(path) if not n.startswith((".", "_"))]
        formats = {_input_format(os.path.join(path, n)) for n in names if not os.path.isdir(os.path.join(path, n))}
        formats.discard("unknown")
        if len(formats) == 1:
            return formats.pop()
    return "unknown"


def _spark_errors() -> tuple:
    """What Spark raises when it cannot read an input."""
    from py4j.protocol import Py4JJavaError
    from pyspark.errors import PySparkException

    return (Py4JJavaError, PySparkException)


def _spark_message(error: Exception) -> str:
    """The first line of Spark's own message, without the Java trace."""
    text = str(getattr(error, "java_exception", None) or error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _first_bad_json_line(path: str) -> Optional[str]:
    """Where the first line of a local JSONL file that is not a JSON
    object is, and why; ``None`` if there is none or the file is not local."""
    local = path[len("file://"):] if path.startswith("file://") else path
    if not os.path.isfile(local):
        return None
    opener = gzip.open if local.endswith(".gz") else open
    with opener(local, "rt", encoding="utf-8", errors="replace") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                if not isinstance(json.loads(line), dict):
                    return f"line {number}: not a JSON object"
            except ValueError as error:
                return f"line {number}: not valid JSON ({error})"
    return None


#: Spark's names of a variant's types (``schema_of_variant``), as
#: ``copyhound dedup`` names a JSON value that is not a string.
_VARIANT_KINDS = (("OBJECT", "an object"), ("ARRAY", "an array"), ("BOOLEAN", "a boolean"))


def _json_kind(variant_type: str) -> str:
    return next((kind for prefix, kind in _VARIANT_KINDS if variant_type.startswith(prefix)), "a number")


def _json_line_of(path: str, id_column: str, id_value) -> Optional[int]:
    """The line of a local JSONL file whose id is ``id_value``, if the
    file is local and has it."""
    local = _local_name(path)
    if not os.path.isfile(local):
        return None
    opener = gzip.open if local.endswith(".gz") else open
    with opener(local, "rt", encoding="utf-8", errors="replace") as lines:
        for number, line in enumerate(lines, 1):
            try:
                row = json.loads(line)
            except ValueError:
                continue
            if isinstance(row, dict) and row.get(id_column) == id_value:
                return number
    return None


def _check_json_texts(spark, path: str, id_column: str, id_type, text_column: str) -> None:
    """Refuses a JSONL text that is not a string. Spark's JSON reader
    turns a column mixing strings and numbers (or booleans, objects,
    arrays) into strings; read as a variant, each value keeps its JSON
    type, so the first that is not a string is named with its document
    (and line, for a local file), as ``copyhound dedup`` names it."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import StructField, StructType, VariantType

    schema = StructType([StructField(id_column, id_type), StructField(text_column, VariantType())])
    kind = F.schema_of_variant(F.col(text_column))
    bad = (
        spark.read.schema(schema)
        .option("mode", "FAILFAST")
        .json(path)
        .where(F.col(text_column).isNotNull() & ~kind.isin("STRING", "VOID"))
        .select(F.col(id_column).alias("id"), kind.alias("kind"), F.input_file_name().alias("file"))
        .first()
    )
    if bad is None:
        return
    file = _local_name(bad["file"])
    line = _json_line_of(file, id_column, bad["id"])
    where = f"{file}, line {line}" if line else file
    raise CopyhoundError(
        f"{where}: the text `{text_column}` of the document {bad['id']!r} is {_json_kind(bad['kind'])}, not a string"
    )


def _load(spark, path: str, fmt: str):
    """``path`` as a data frame; an input Spark cannot read is named, and
    for a local JSONL file so is its first bad line."""
    reader = spark.read.option("mode", "FAILFAST") if fmt == "json" else spark.read
    try:
        return reader.format(fmt).load(path)
    except _spark_errors() as error:
        where = _first_bad_json_line(path) if fmt == "json" else None
        raise CopyhoundError(f"{path}: {where or 'cannot be read: ' + _spark_message(error)}") from None


def _local_name(file: str) -> str:
    """A file name as Spark's ``input_file_name`` gives it, without the
    ``file://`` of a local file."""
    return file[len("file://"):] if file.startswith("file://") else file


def read_documents(spark, inputs: Sequence[str], id_column: str, text_column: str):
    """The documents of ``inputs`` as ``(id, text, file)`` rows, checked:
    both columns present, the text a string, no null, no id twice."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import IntegralType, StringType

    frames = []
    for path in inputs:
        if os.path.exists(path) and os.path.isfile(path) and os.path.getsize(path) == 0:
            raise CopyhoundError(f"{path}: is empty")
        fmt = _input_format(path)
        if fmt == "unknown":
            raise CopyhoundError(f"{path}: unknown format: expected a .parquet, .jsonl, .ndjson or .jsonl.gz file")
        frame = _load(spark, path, fmt)
        for column, role in ((id_column, "id"), (text_column, "text")):
            if column not in frame.columns:
                raise CopyhoundError(f"{path}: has no column `{column}` (its columns: {', '.join(frame.columns)})")
        id_type = frame.schema[id_column].dataType
        text_type = frame.schema[text_column].dataType
        if not isinstance(text_type, StringType):
            raise CopyhoundError(f"{path}: the text column `{text_column}` holds {text_type.simpleString()}, not strings")
        if not isinstance(id_type, (StringType, IntegralType)):
            raise CopyhoundError(
                f"{path}: the id column `{id_column}` holds {id_type.simpleString()}, not strings or integers"
            )
        if fmt == "json":
            _check_json_texts(spark, path, id_column, id_type, text_column)
        frames.append(
            frame.select(
                F.col(id_column).alias("id"),
                F.col(text_column).alias("text"),
                F.input_file_name().alias("file"),
            )
        )
    docs = frames[0]
    for frame in frames[1:]:
        docs = docs.unionByName(frame)
    try:
        bad = docs.where(F.col("id").isNull() | F.col("text").isNull()).select("file", "id", "text").first()
        twice = docs.groupBy("id").agg(F.count("*").alias("n"), F.min("file").alias("file")).where("n > 1").first()
    except _spark_errors() as error:
        raise CopyhoundError(f"{', '.join(inputs)}: cannot be read: {_spark_message(error)}") from None
    if bad is not None:
        what = f"the id `{id_column}` is null" if bad["id"] is None else f"the text `{text_column}` of the document {bad['id']!r} is null"
        raise CopyhoundError(f"{_local_name(bad['file'])}: {what}")
    if twice is not None:
        raise CopyhoundError(f"{_local_name(twice['file'])}: the id {twice['id']!r} is the id of {twice['n']} documents")
    return docs


def candidate_pairs(docs, options: dict, partitions: int):
    """Stages 1-3: fingerprints on the executors, common hashes dropped,
    pairs ``(a, b)``, ``a < b``, of documents sharing at least
    ``min_shared_fingerprints`` distinct hashes."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F
    from pyspark.sql.types import LongType, StructField, StructType

    id_type = docs.schema["id"].dataType
    prints_schema = StructType([StructField("id", id_type), StructField("hash", LongType(), False)])

    def fingerprints(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        scheme = Scheme(**options)
        for batch in batches:
            yield scheme.fingerprint_batch(batch, "id", "text")

    prints = (
        docs.select("id", "text")
        .mapInArrow(fingerprints, prints_schema)
        .withColumn("prefix", F.shiftrightunsigned("hash", 64 - PREFIX_BITS))
        .repartition(partitions, "prefix")
    )
    by_hash = Window.partitionBy("prefix", "hash")
    kept = prints.withColumn("n", F.count("*").over(by_hash)).where(
        F.col("n") <= options["max_documents_per_hash"]
    )
    x, y = kept.alias("x"), kept.alias("y")
    return (
        x.join(y, (F.col("x.prefix") == F.col("y.prefix")) & (F.col("x.hash") == F.col("y.hash")))
        .where(F.col("x.id") < F.col("y.id"))
        .groupBy(F.col("x.id").alias("a"), F.col("y.id").alias("b"))
        .count()
        .where(F.col("count") >= options["min_shared_fingerprints"])
        .select("a", "b")
    )


def scored_pairs(pairs, docs, options: dict):
    """Stage 4: each candidate pair scored by the library; the listed ones
    with the columns of ``pairs.parquet``."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import (
        ArrayType,
        DoubleType,
        LongType,
        StructField,
        StructType,
    )

    id_type = docs.schema["id"].dataType
    passage = StructType([StructField(n, LongType(), False) for n in ("a_start", "a_end", "b_start", "b_end")])
    schema = StructType(
        [
            StructField("a", id_type),
            StructField("b", id_type),
            StructField("similarity", DoubleType(), False),
            StructField("containment_a", DoubleType(), False),
            StructField("containment_b", DoubleType(), False),
            StructField("passages", ArrayType(passage, False), False),
        ]
    )
    texts = docs.select("id", "text")
    with_texts = pairs.join(
        texts.select(F.col("id").alias("a"), F.col("text").alias("text_a")), "a"
    ).join(texts.select(F.col("id").alias("b"), F.col("text").alias("text_b")), "b")

    def score(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        scheme = Scheme(**options)
        for batch in batches:
            yield scheme.score_batch(batch)

    return with_texts.select("a", "b", "text_a", "text_b").mapInArrow(score, schema)


def connected_components(edges):
    """Stage 5: each node of ``edges`` (``a``, ``b``) with the smallest
    node of its component, as ``(id, cluster)``, by alternating large-star
    and small-star rounds until every node points at its component's
    smallest node."""
    from pyspark.sql import functions as F

    graph = edges.select(F.col("a").alias("u"), F.col("b").alias("v")).where("u != v").distinct()
    # Kept small: each round's plan would otherwise hold every round before it.
    graph = graph.localCheckpoint()
    while True:
        both = graph.union(graph.select(F.col("v").alias("u"), F.col("u").alias("v")))
        smallest = both.groupBy("u").agg(F.least(F.min("v"), F.col("u")).alias("m"))
        # Large star: every larger neighbour of u is linked to u's smallest.
        large = (
            both.join(smallest, "u")
            .where(F.col("v") > F.col("u"))
            .select(F.col("v").alias("u"), F.col("m").alias("v"))
            .distinct()
        )
        # Small star: u and its smaller neighbours are linked to the
        # smallest of them (every edge of `large` points to a smaller node).
        low = large.groupBy("u").agg(F.min("v").alias("m"))
        small = (
            large.join(low, "u")
            .select(F.col("v").alias("u"), F.col("m").alias("v"))
            .union(low.select("u", F.col("m").alias("v")))
            .where("u != v")
            .distinct()
            .localCheckpoint()
        )
        graph = small
        out_degree = graph.groupBy("u").count().where("count > 1").limit(1).count()
        chained = graph.join(graph.select(F.col("u").alias("v")).distinct(), "v").limit(1).count()
        if out_degree == 0 and chained == 0:
            return graph.select(F.col("u").alias("id"), F.col("v").alias("cluster"))


def run(
    spark,
    inputs: Sequence[str],
    id_column: str,
    text_column: str,
    output: str,
    options: dict,
    partitions: Optional[int] = None,
) -> dict:
    """The whole job; writes ``OUT/pairs.parquet`` and
    ``OUT/clusters.parquet`` and returns counts."""
    from pyspark.sql import functions as F

    partitions = partitions or 4 * spark.sparkContext.defaultParallelism
    spark.conf.set("spark.sql.shuffle.partitions", str(partitions))
    docs = read_documents(spark, inputs, id_column, text_column).select("id", "text").cache()
    pairs = candidate_pairs(docs, options, partitions)
    scored = scored_pairs(pairs, docs, options).orderBy("a", "b").localCheckpoint()
    edges = scored.where(F.col("similarity") >= options["min_similarity"]).select("a", "b")
    roots = connected_components(edges)
    clusters = (
        docs.select("id")
        .join(roots, "id", "left")
        .select("id", F.coalesce("cluster", "id").alias("cluster"))
        .withColumn("keep", F.col("id") == F.col("cluster"))
        .orderBy("id")
    )
    summary = {
        "documents": docs.count(),
        "listed_pairs": scored.count(),
        "clusters": clusters.where("keep").join(roots.select(F.col("cluster").alias("id")).distinct(), "id").count(),
        "removed": clusters.where(~F.col("keep")).count(),
    }
    _write(scored, clusters, output)
    docs.unpersist()
    return summary


def _is_local(path: str) -> bool:
    return "://" not in path or path.startswith("file://")


def _write(pairs, clusters, output: str) -> None:
    """Writes both outputs to a temporary directory inside ``output`` and
    moves them into place once both are complete."""
    work_name = f".copyhound-spark-{uuid.uuid4().hex}"
    if not _is_local(output):
        work = f"{output.rstrip('/')}/{work_name}"
        pairs.write.parquet(f"{work}/{PAIRS_FILE}")
        clusters.write.parquet(f"{work}/{CLUSTERS_FILE}")
        _move_remote(pairs.sparkSession, work, output)
        return
    local = output[len("file://"):] if output.startswith("file://") else output
    os.makedirs(local, exist_ok=True)
    work = os.path.join(local, work_name)
    try:
        for frame, name in ((pairs, PAIRS_FILE), (clusters, CLUSTERS_FILE)):
            parts = os.path.join(work, name + ".parts")
            frame.write.parquet(parts)
            _merge_parts(parts, os.path.join(work, name))
        for name in (PAIRS_FILE, CLUSTERS_FILE):
            target = os.path.join(local, name)
            if os.path.isdir(target):
                shutil.rmtree(target)
            os.replace(os.path.join(work, name), target)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _merge_parts(parts: str, target: str) -> None:
    """Spark's part files, in order (each sorted range after the last),
    into one Parquet file, a row group at a time."""
    files = sorted(os.path.join(parts, n) for n in os.listdir(parts) if n.endswith(".parquet"))
    writer = None
    try:
        for path in files:
            source = pq.ParquetFile(path)
            if writer is None:
                writer = pq.ParquetWriter(target, source.schema_arrow, compression="snappy")
            for group in range(source.num_row_groups):
                writer.write_table(source.read_row_group(group))
    finally:
        if writer is not None:
            writer.close()


def _move_remote(spark, work: str, output: str) -> None:
    """On a cluster file system: renames the finished outputs into place
    through Hadoop's file system API."""
    jvm = spark.sparkContext._jvm
    conf = spark.sparkContext._jsc.hadoopConfiguration()
    path = jvm.org.apache.hadoop.fs.Path
    fs = path(output).getFileSystem(conf)
    for name in (PAIRS_FILE, CLUSTERS_FILE):
        target = path(f"{output.rstrip('/')}/{name}")
        if fs.exists(target):
            fs.delete(target, True)
        fs.rename(path(f"{work}/{name}"), target)
    fs.delete(path(work), True)


if __name__ == "__main__":
    sys.exit(main())
