"""The Python API against the command line on the same input, and on its
own: fingerprints, pair comparison, dedup, the Arrow entry points, the
database."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import copyhound
from copyhound import CopyhoundError, Scheme

PARAGRAPH = (
    "The committee met on Tuesday to review the harbour budget, and after a long debate it agreed "
    "to postpone the dredging of the northern channel until the spring tides had been measured again."
)


def run(cli: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([cli, *map(str, args)], check=True, capture_output=True, text=True)


def test_a_copied_paragraph_is_found_with_its_bytes():
    host = "Weather for the coast: calm seas, light winds from the west. " * 40
    host = host[:1200] + PARAGRAPH + host[1200:]
    found = copyhound.compare(PARAGRAPH, host)
    assert found["containment"][0] == 1.0
    assert found["similarity"] < 0.6
    [passage] = found["passages"]
    a, b = passage["a"], passage["b"]
    assert PARAGRAPH.encode()[a[0] : a[1]] == host.encode()[b[0] : b[1]]
    assert b[0] <= 1200 + 5 and b[1] >= 1200 + len(PARAGRAPH) - 5


def test_fingerprints_equal_the_command_line(cli, tmp_path):
    code = "def area(r):\n    return 3.14159 * r * r\n\nfor i in range(10):\n    print(area(i))\n"
    cases = [
        ("essay.txt", PARAGRAPH, {"lang": "text"}, []),
        ("essay.txt", PARAGRAPH, {"lang": "text", "text_mode": "words", "selector": "all"}, ["--text-mode", "words", "--selector", "all"]),
        ("area.py", code, {"lang": "python", "k": 5, "w": 4, "seed": 7}, ["--lang", "python", "-k", "5", "-w", "4", "--seed", "7"]),
        ("area.py", code, {"lang": None, "selector": "winnow", "level": "exact"}, ["--selector", "winnow", "--level", "exact"]),
        ("essay.txt", PARAGRAPH * 3, {"selector": "koala", "n": 5, "text_mode": "consonants"}, ["--selector", "koala", "-n", "5", "--text-mode", "consonants"]),
    ]
    for name, text, options, flags in cases:
        path = tmp_path / name
        path.write_text(text)
        listed = json.loads(run(cli, "fingerprint", path, "--format", "json", *flags).stdout)
        expected = [{k: f[k] for k in ("hash", "pos", "start", "end")} for f in listed["fingerprints"]]
        assert copyhound.fingerprint(text, name=name, **options) == expected
        assert expected, name


def test_dedup_equals_the_command_line(cli, text_corpus, tmp_path):
    corpus, _, _ = text_corpus
    run(cli, "dedup", corpus, "--id-column", "id", "--text-column", "text", "--output", tmp_path / "cli", "-q")
    summary = copyhound.dedup([str(corpus)], str(tmp_path / "py"))
    assert summary["documents"] == 329
    for name in ("pairs.parquet", "clusters.parquet"):
        assert pq.read_table(tmp_path / "py" / name).equals(pq.read_table(tmp_path / "cli" / name)), name
    assert summary["listed_pairs"] == pq.read_table(tmp_path / "cli" / "pairs.parquet").num_rows


def test_the_arrow_entry_points_agree_with_the_scheme():
    scheme = Scheme()
    texts = [PARAGRAPH, "Something else entirely, about gardens and rain. " * 5, PARAGRAPH + " And more."]
    table = pa.table({"doc": [10, 20, 30], "body": texts})
    prints = copyhound.fingerprint_table(table, "doc", "body", scheme)
    assert prints.schema.field("hash").type == pa.int64()
    for doc, text in zip([10, 20, 30], texts):
        mine = sorted(h for d, h in zip(prints["doc"].to_pylist(), prints["hash"].to_pylist()) if d == doc)
        assert mine == scheme.candidate_hashes(text)
    pairs = pa.table({"a": [10, 10], "b": [20, 30], "text_a": texts[:2] and [texts[0], texts[0]], "text_b": [texts[1], texts[2]]})
    scored = copyhound.score_table(pairs, scheme)
    assert scored.column_names == ["a", "b", "similarity", "containment_a", "containment_b", "passages"]
    assert scored["b"].to_pylist() == [30], "only the pair sharing a passage is listed"
    assert scored["similarity"][0].as_py() == pytest.approx(scheme.compare(texts[0], texts[2])["similarity"])


def test_a_null_text_in_a_batch_is_named():
    table = pa.table({"id": ["a", "b"], "text": ["fine", None]})
    with pytest.raises(CopyhoundError, match="row 2: the text `text` is null"):
        copyhound.fingerprint_table(table)


def test_bad_input_names_the_file_and_row(tmp_path):
    bad = tmp_path / "rows.jsonl"
    bad.write_text('{"id": "a", "text": "ok"}\n{"id": "b"}\n')
    with pytest.raises(CopyhoundError, match=r"rows\.jsonl, line 2: has no field `text`"):
        copyhound.dedup([str(bad)], str(tmp_path / "out"))
    assert not (tmp_path / "out").exists()


def test_unknown_settings_are_refused():
    with pytest.raises(CopyhoundError, match="text mode"):
        Scheme("letters")
    with pytest.raises(CopyhoundError, match="at least 2"):
        Scheme(max_documents_per_hash=1)
    with pytest.raises(CopyhoundError, match="selector \"best\": expected winnow"):
        copyhound.fingerprint("text", selector="best")
    with pytest.raises(CopyhoundError, match="language"):
        copyhound.fingerprint("x = 1", lang="cobol-ish")


def test_a_database_search_equals_the_command_line(cli, tmp_path):
    db = tmp_path / "db"
    run(cli, "db", "init", db)
    essay = tmp_path / "essay.txt"
    essay.write_text(PARAGRAPH * 3)
    run(cli, "db", "add", db, essay)
    query = tmp_path / "query.txt"
    query.write_text("A preface of our own. " + PARAGRAPH * 2)
    expected = json.loads(run(cli, "db", "search", db, query, "--json").stdout)
    database = copyhound.Database(db)
    found = database.search(query.read_text(), name=str(query))
    assert found == expected
    [hit] = found["matches"]
    assert hit["title"] == "essay.txt" and hit["hits"] > 0
    [passage, *_] = hit["fragments"]
    assert passage, "the registered file is at hand, so passages are located"
    note = "An entirely different note about bicycles and their chains. " * 4
    added = database.add(note, title="note")
    assert database.search(note[:150] * 2)["matches"][0]["id"] == added
    with pytest.raises(CopyhoundError, match="tiny: the document gives no fingerprint"):
        database.add("tiny", title="tiny")


def test_a_missing_database_is_named(tmp_path):
    with pytest.raises(CopyhoundError, match="nowhere"):
        copyhound.Database(tmp_path / "nowhere")


def test_documents_in_memory_compare_as_files_do(cli, tmp_path):
    documents = {
        "anna.txt": PARAGRAPH + " Anna adds her own closing remarks about tides.",
        "ben.txt": "Ben writes about something else: orchards, frost and the price of apples in the valley.",
        "chloe.txt": "Chloe begins differently. " + PARAGRAPH,
    }
    (tmp_path / "docs").mkdir()
    for name, text in documents.items():
        (tmp_path / "docs" / name).write_text(text)
    run(cli, "compare", tmp_path / "docs", "--json", tmp_path / "report.json", "-q")
    expected = json.loads((tmp_path / "report.json").read_text())
    report = copyhound.compare_texts(documents)
    pairs = [(p["a"], p["b"], p["similarity"]) for p in report["pairs"]]
    assert pairs == [(p["a"], p["b"], p["similarity"]) for p in expected["pairs"]]
    assert (pairs[0][0]["path"], pairs[0][1]["path"]) == ("anna.txt", "chloe.txt")
    with pytest.raises(CopyhoundError, match="file name"):
        copyhound.compare_texts({"../escape.txt": "text"})


def test_a_batch_comparison_equals_the_command_line(cli, tmp_path):
    examples = Path(__file__).resolve().parents[2] / "examples" / "compare"
    flags = ["--old", examples / "previous", "--base", examples / "base"]
    run(cli, "compare", examples / "submissions", *flags, "--json", tmp_path / "report.json", "-q")
    expected = json.loads((tmp_path / "report.json").read_text())
    report = copyhound.compare_batch(
        [str(examples / "submissions")], old=[str(examples / "previous")], base=[str(examples / "base")]
    )
    assert report["units"] == expected["units"]
    pairs = [(p["a"], p["b"], p["similarity"]) for p in report["pairs"]]
    assert pairs == [(p["a"], p["b"], p["similarity"]) for p in expected["pairs"]]
    assert len(pairs) >= 2, "chloe copied anna, emma copied ben"
