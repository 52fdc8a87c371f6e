"""copyhound: find copied passages in text, code and data sets.

The functions here call the same Rust library crates as the ``copyhound``
command line (no subprocess):

- :class:`Scheme` -- deduplication settings; ``Scheme().compare(a, b)``
  says how similar two texts are, how much of each the other contains, and
  where (fragments and passages as byte ranges into each text's UTF-8);
- :func:`compare` -- the same with default settings;
- :func:`compare_batch` -- ``copyhound compare``: a batch of submissions
  (paths), the report as a dict;
- :func:`dedup` -- ``copyhound dedup``: Parquet/JSONL rows in,
  ``pairs.parquet`` and ``clusters.parquet`` out;
- :func:`fingerprint` -- the fingerprints of a text or code string with any
  front-end and selector (``copyhound fingerprint``);
- :func:`fingerprint_table`, :func:`score_table` -- the Arrow entry points
  (a ``pyarrow`` table of id + text in, fingerprints out; pairs of texts
  in, scored pairs out) that data-frame engines call; the Spark job
  (``python -m copyhound.spark``) runs on them;
- :class:`Database` -- open a fingerprint database (``copyhound db``), add
  texts, search it.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Optional, Sequence

import pyarrow as pa

from copyhound import _native
from copyhound._native import CopyhoundError, Database, Scheme, dedup, fingerprint

__all__ = [
    "CopyhoundError",
    "Database",
    "Scheme",
    "compare",
    "compare_batch",
    "dedup",
    "fingerprint",
    "fingerprint_table",
    "score_table",
]


def compare(a: str, b: str, scheme: Optional[Scheme] = None) -> dict[str, Any]:
    """What texts ``a`` and ``b`` share, with ``scheme`` (default settings
    if ``None``): ``similarity``, ``containment`` (of ``a``, of ``b``),
    ``fragments`` and ``passages`` (``{"a": (start, end), "b": (start, end),
    "matched_symbols": n}``, byte offsets)."""
    return (scheme or Scheme()).compare(a, b)


def compare_batch(new: Sequence[str], old: Sequence[str] = (), base: Sequence[str] = ()) -> dict[str, Any]:
    """Compares the submissions under ``new`` (files or directories) with
    each other and with those under ``old``, leaving out what ``base``
    holds, as ``copyhound compare`` does with its default settings; returns
    the report (the fields of its ``--json`` report, pairs most similar
    first, without fragments)."""
    return json.loads(_native.compare_batch(list(new), old=list(old), base=list(base)))


def _batches(table: pa.Table | pa.RecordBatch) -> Iterable[pa.RecordBatch]:
    if isinstance(table, pa.RecordBatch):
        return [table]
    return table.to_batches()


def fingerprint_table(
    table: pa.Table | pa.RecordBatch,
    id_column: str = "id",
    text_column: str = "text",
    scheme: Optional[Scheme] = None,
) -> pa.Table:
    """The candidate fingerprints of every document of ``table``: one row
    per document and distinct hash, columns ``id_column`` and ``hash``
    (signed 64-bit)."""
    scheme = scheme or Scheme()
    batches = [scheme.fingerprint_batch(b, id_column, text_column) for b in _batches(table)]
    if not batches:
        id_type = table.schema.field(id_column).type
        schema = pa.schema([(id_column, id_type), ("hash", pa.int64())])
        return schema.empty_table()
    return pa.Table.from_batches(batches)


def score_table(table: pa.Table | pa.RecordBatch, scheme: Optional[Scheme] = None) -> pa.Table:
    """The listed pairs of ``table`` (columns ``a``, ``b``, ``text_a``,
    ``text_b``): those sharing a passage of at least the minimum length,
    with the columns of ``pairs.parquet``."""
    scheme = scheme or Scheme()
    batches = [scheme.score_batch(b) for b in _batches(table)]
    if not batches:
        empty = pa.RecordBatch.from_pylist([], schema=table.schema)
        return pa.Table.from_batches([scheme.score_batch(empty)])
    return pa.Table.from_batches(batches)
