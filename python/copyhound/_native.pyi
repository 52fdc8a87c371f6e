"""Type stubs of the native module (python/src)."""

from typing import Any, Optional, Sequence, TypedDict

import pyarrow as pa

class CopyhoundError(ValueError): ...

class Span(TypedDict):
    a: tuple[int, int]
    b: tuple[int, int]
    matched_symbols: int

class PairMatch(TypedDict):
    similarity: float
    containment: tuple[float, float]
    fragments: list[Span]
    passages: list[Span]

class Fingerprint(TypedDict):
    hash: int
    pos: int
    start: int
    end: int

class DedupSummary(TypedDict):
    documents: int
    dropped_hashes: int
    sharing_pairs: int
    candidate_pairs: int
    listed_pairs: int
    clusters: int
    removed: int

class Scheme:
    def __init__(
        self,
        text_mode: str = "chars",
        *,
        k: Optional[int] = None,
        w: Optional[int] = None,
        index_window: Optional[int] = None,
        min_shared_fingerprints: int = 3,
        seed: int = 0,
        max_documents_per_hash: int = 100,
        min_passage: Optional[int] = None,
        merge_gap: Optional[int] = None,
        min_similarity: float = 0.8,
    ) -> None: ...
    def options(self) -> dict[str, Any]: ...
    def candidate_hashes(self, text: str) -> list[int]: ...
    def compare(self, a: str, b: str) -> PairMatch: ...
    def fingerprint_batch(self, batch: pa.RecordBatch, id_column: str, text_column: str) -> pa.RecordBatch: ...
    def score_batch(self, batch: pa.RecordBatch) -> pa.RecordBatch: ...

class Database:
    def __init__(self, path: str) -> None: ...
    def add(self, text: str, *, title: str = "", location: str = "", email: str = "") -> int: ...
    def search(
        self, text: str, *, name: str = "query", limit: int = 20, min_hits: int = 1, fragments: int = 3
    ) -> str: ...

def dedup(
    inputs: Sequence[str],
    output: str,
    *,
    id_column: str = "id",
    text_column: str = "text",
    scheme: Optional[Scheme] = None,
) -> DedupSummary: ...
def compare_batch(new: Sequence[str], *, old: Sequence[str] = ..., base: Sequence[str] = ...) -> str: ...
def fingerprint(
    text: str,
    *,
    lang: Optional[str] = "text",
    name: str = "document",
    text_mode: str = "chars",
    level: str = "rename",
    drop_imports: bool = False,
    dead_code: str = "drop",
    statement_order: str = "written",
    loops: str = "while",
    selector: str = "robust-winnow",
    k: Optional[int] = None,
    w: Optional[int] = None,
    seed: int = 0,
    p: Optional[int] = None,
    n: int = 100,
) -> list[Fingerprint]: ...
