"""copyhound: find copied passages in text, code and data sets.

The functions here call the same Rust library crates as the ``copyhound``
command line (no subprocess):

- :class:`Scheme` -- deduplication settings; ``Scheme().compare(a, b)``
  says how similar two texts are, how much of each the other contains, and
  where (fragments and passages as byte ranges into each text's UTF-8);
- :func:`compare` -- the same with default settings;
- :func:`compare_batch` -- ``copyhound compare``: a batch of submissions
  (paths), the report as a dict; :func:`compare_texts` the same over
  documents in memory;
- :func:`dedup` -- ``copyhound dedup``: Parquet/JSONL rows in,
  ``pairs.parquet`` and ``clusters.parquet`` out;
- :func:`fingerprint` -- the fingerprints of a text or code string with any
  front-end and selector (``copyhound fingerprint``);
- :func:`fingerprint_table`, :func:`score_table` -- the Arrow entry points
  (a ``pyarrow`` table of id + text in, fingerprints out; pairs of texts
  in, scored pairs out) that data-frame engines call; the Spark job
  (``python -m copyhound.spark``) runs on them;
- :class:`Database` -- open a fingerprint database (``copyhound db``), add
  texts, search it (the results of ``copyhound db search --json``).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

import pyarrow as pa

from copyhound import _native
from copyhound._native import CopyhoundError, Scheme, dedup, fingerprint

__all__ = [
    "CopyhoundError",
    "Database",
    "Scheme",
    "compare",
    "compare_batch",
    "compare_texts",
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


def compare_texts(
    new: Mapping[str, str], old: Mapping[str, str] = {}, base: Mapping[str, str] = {}
) -> dict[str, Any]:
    """:func:`compare_batch` over documents in memory: each mapping is
    file name -> text, and each document is one submission named by its
    file name (whose extension tells its language, as for files). The
    texts are written to a temporary directory for the pipeline's walker
    and removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="copyhound-") as work:
        roots = []
        for role, documents in (("new", new), ("old", old), ("base", base)):
            root = Path(work) / role
            root.mkdir()
            for name, text in documents.items():
                if not name or os.sep in name or name in (".", ".."):
                    raise CopyhoundError(f"{name!r}: a document's name must be a file name")
                (root / name).write_text(text, encoding="utf-8")
            roots.append([str(root)] if documents else [])
        return compare_batch(*roots)


class Database:
    """A fingerprint database directory made by ``copyhound db init``,
    through the same layer as ``copyhound db``."""

    def __init__(self, path: Union[str, os.PathLike]) -> None:
        self._db = _native.Database(os.fspath(path))

    def add(self, text: str, *, title: str = "", location: str = "", email: str = "") -> int:
        """Registers ``text``; returns its id. A text too short to give a
        fingerprint is refused."""
        return self._db.add(text, title=title, location=location, email=email)

    def search(
        self, text: str, *, name: str = "query", limit: int = 20, min_hits: int = 1, fragments: int = 3
    ) -> dict[str, Any]:
        """The registered documents ``text`` shares fingerprints with, as
        ``copyhound db search --json`` reports them: ``matches`` best first
        (``id``, ``title``, ``location``, ``hits``, ``ratio``,
        ``query_ratio``…, ``fragments`` with byte offsets for the best
        ``fragments`` whose text is at hand), the ratio ``distribution``."""
        return json.loads(
            self._db.search(text, name=name, limit=limit, min_hits=min_hits, fragments=fragments)
        )


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
