#!/usr/bin/env python3
"""A deterministic corpus for benchmarking deduplication: prose-like
documents of about 3 KB with planted near-duplicates and planted partial
copies (a paragraph of one document inside another).

    python3 bench/dedup-corpus.py OUT --documents 200000 [--seed 1]

writes

- ``OUT/corpus.parquet``: ``id`` (string), ``text``;
- ``OUT/slice.parquet`` and ``OUT/slice.jsonl``: the first block of
  ``--block`` documents (20,000 by default), for slower tools;
- ``OUT/truth.json``: the planted pairs, ``near`` as ``[a, b]`` (``b`` an
  edited copy of ``a``) and ``partial`` as ``[source, host, start, end]``
  (the copied paragraph's bytes in the host), each with the block it is in.

The documents are built in blocks; every planted pair lies inside one
block, so the slice holds all planted pairs of its documents. Words are
drawn from a fixed vocabulary with a Zipf-like (log-uniform) rank
distribution; a near-duplicate has 0.5-3 % of its words replaced, deleted
or inserted; a partial copy is a 700-900 character stretch of whole
sentences of its source inserted between two paragraphs of an unrelated
host.
"""

import argparse
import json
import os
import random

import pyarrow as pa
import pyarrow.parquet as pq

SYLLABLES = [a + b for a in "bcdfghjklmnprstvwz" for b in ("a", "e", "i", "o", "u", "ai", "ou", "ee")]


def vocabulary(size, rng):
    words = set()
    while len(words) < size:
        words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.choice((1, 2, 2, 3, 3, 4)))))
    words = sorted(words)
    rng.shuffle(words)  # rank unrelated to spelling
    return words


class Writer:
    def __init__(self, rng, words):
        self.rng = rng
        self.words = words

    def word(self):
        # Log-uniform rank: frequency about 1/rank, as in natural text.
        return self.words[int(len(self.words) ** self.rng.random()) - 1]

    def sentence(self):
        n = self.rng.randint(8, 22)
        words = [self.word() for _ in range(n)]
        return words[0].capitalize() + " " + " ".join(words[1:]) + "."

    def paragraph(self):
        return " ".join(self.sentence() for _ in range(self.rng.randint(3, 6)))

    def document(self, target_bytes):
        paragraphs = []
        size = 0
        while size < target_bytes:
            paragraphs.append(self.paragraph())
            size += len(paragraphs[-1]) + 2
        return "\n\n".join(paragraphs)


def near_duplicate(text, rng, words):
    """``text`` with a share of 0.5-3 % of its words edited."""
    tokens = text.split(" ")
    rate = rng.uniform(0.005, 0.03)
    out = []
    for token in tokens:
        r = rng.random()
        if r < rate / 3:
            continue  # deleted
        if r < 2 * rate / 3:
            out.append(rng.choice(words))  # replaced
            continue
        out.append(token)
        if r < rate:
            out.append(rng.choice(words))  # inserted
    return " ".join(out)


def sentences_span(text, rng, low=700, high=900):
    """A stretch of whole sentences of ``text`` of ``low``-``high`` bytes,
    or ``None``."""
    starts = [0] + [i + 2 for i in range(len(text) - 1) if text[i] == "." and text[i + 1] == " "]
    rng.shuffle(starts)
    for start in starts[:50]:
        end = start
        while end < len(text):
            dot = text.find(".", end)
            if dot < 0:
                break
            end = dot + 1
            if end - start >= low:
                break
        if low <= end - start <= high:
            return text[start:end]
    return None


def block(first, size, rng, writer, words, near_share, partial_share):
    texts = [writer.document(rng.randint(2600, 3400)) for _ in range(size)]
    order = list(range(size))
    rng.shuffle(order)
    n_near = int(size * near_share)
    n_partial = int(size * partial_share)
    near = []
    for i in range(n_near):
        a, b = order[2 * i], order[2 * i + 1]
        texts[b] = near_duplicate(texts[a], rng, words)
        near.append((a, b))
    rest = order[2 * n_near:]
    partial = []
    for i in range(n_partial):
        source, host = rest[2 * i], rest[2 * i + 1]
        span = sentences_span(texts[source], rng)
        if span is None:
            continue
        breaks = [j for j in range(len(texts[host]) - 1) if texts[host][j : j + 2] == "\n\n"]
        at = rng.choice(breaks) + 2 if breaks else len(texts[host])
        texts[host] = texts[host][:at] + span + "\n\n" + texts[host][at:]
        partial.append((source, host, len(texts[host][:at].encode()), len(texts[host][:at].encode()) + len(span.encode())))
    ids = [f"doc{first + i:07d}" for i in range(size)]
    return (
        ids,
        texts,
        [[ids[a], ids[b]] for a, b in near],
        [[ids[s], ids[h], start, end] for s, h, start, end in partial],
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out")
    parser.add_argument("--documents", type=int, default=200_000)
    parser.add_argument("--block", type=int, default=20_000)
    parser.add_argument("--near-share", type=float, default=0.1, help="near-duplicate pairs per document")
    parser.add_argument("--partial-share", type=float, default=0.05, help="partial copies per document")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(args.seed)
    words = vocabulary(30_000, rng)
    writer = Writer(rng, words)
    schema = pa.schema([("id", pa.string()), ("text", pa.string())])
    truth = {"near": [], "partial": [], "block": args.block, "documents": args.documents}
    corpus = pq.ParquetWriter(os.path.join(args.out, "corpus.parquet"), schema, compression="snappy")
    for first in range(0, args.documents, args.block):
        size = min(args.block, args.documents - first)
        ids, texts, near, partial = block(first, size, rng, writer, words, args.near_share, args.partial_share)
        table = pa.table({"id": ids, "text": texts}, schema=schema)
        corpus.write_table(table, row_group_size=10_000)
        truth["near"] += near
        truth["partial"] += partial
        if first == 0:
            pq.write_table(table, os.path.join(args.out, "slice.parquet"), compression="snappy")
            with open(os.path.join(args.out, "slice.jsonl"), "w") as out:
                for i, t in zip(ids, texts):
                    out.write(json.dumps({"id": i, "text": t}) + "\n")
    corpus.close()
    with open(os.path.join(args.out, "truth.json"), "w") as out:
        json.dump(truth, out)
    print(f"{args.documents} documents, {len(truth['near'])} near-duplicate pairs, {len(truth['partial'])} partial copies")


if __name__ == "__main__":
    main()
