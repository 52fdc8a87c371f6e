"""Shared fixtures: the command-line binary, and a corpus of the labelled
text sets (with a planted paragraph copy) as Parquet."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

REPO = Path(__file__).resolve().parents[2]
DATASETS = next(
    (p for p in (Path("/work/shared/datasets"), REPO.parent / "shared" / "datasets") if p.is_dir()),
    REPO.parent / "shared" / "datasets",
)
TEXT_SETS = ("clough-open", "pan-even")


@pytest.fixture(scope="session")
def cli() -> str:
    """The ``copyhound`` binary: ``$COPYHOUND``, else the workspace's debug
    build, else the one on PATH."""
    candidates = [
        os.environ.get("COPYHOUND"),
        str(Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target")) / "debug" / "copyhound"),
        shutil.which("copyhound"),
    ]
    for candidate in candidates:
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    pytest.fail("no copyhound binary: build it (cargo build -p copyhound) or set COPYHOUND")


def decode(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


PLANTED_HOST = "planted/host"


@pytest.fixture(scope="session")
def text_corpus(tmp_path_factory) -> tuple[Path, dict[str, str], tuple[int, int]]:
    """The documents of the labelled text sets as ``corpus.parquet`` (id:
    the set and the file's path), plus one long document of unrelated
    prose with a paragraph of a pan-even source planted in its middle.
    Returns the file, the texts by id, and the planted byte range."""
    if not DATASETS.is_dir():
        pytest.skip(f"no labelled data sets at {DATASETS}")
    texts = {}
    for name in TEXT_SETS:
        files = DATASETS / name / "files"
        for path in sorted(files.rglob("*")):
            if path.is_file():
                texts[f"{name}/{path.relative_to(files)}"] = decode(path.read_bytes())
    source = texts["pan-even/src/source-document00035.txt"]
    paragraph = source[: source.index(".", 600) + 1]
    filler = " ".join(
        f"Entry {i} of the harbour ledger notes {i * 7 % 13} crates of {('tea', 'salt', 'rope', 'tin')[i % 4]}."
        for i in range(300)
    )
    half = len(filler) // 2
    host = filler[:half] + "\n\n" + paragraph + "\n\n" + filler[half:]
    start = len((filler[:half] + "\n\n").encode())
    texts[PLANTED_HOST] = host
    ids = sorted(texts)
    path = tmp_path_factory.mktemp("corpus") / "corpus.parquet"
    pq.write_table(pa.table({"id": ids, "text": [texts[i] for i in ids]}), path)
    return path, texts, (start, start + len(paragraph.encode()))
