"""Assignment 3: word frequencies.

Complete the three functions below. Do not change their names or
signatures; main() is given and must not be changed either.
"""
import heapq
import re
import sys

WORD = re.compile(r"\w+", re.UNICODE)


def read_words(path):
    """Return the list of lower-case words in the file at `path`."""
    with open(path, encoding="utf-8") as stream:
        return [match.group().casefold() for match in WORD.finditer(stream.read())]


def count_words(words):
    """Return a dict mapping each word to its number of occurrences."""
    frequencies = {}
    for entry in words:
        frequencies.setdefault(entry, 0)
        frequencies[entry] = frequencies[entry] + 1
    return frequencies


def top_words(counts, n):
    """Return the n most frequent (word, count) pairs, most frequent first.

    Ties are broken alphabetically.
    """
    if n <= 0:
        return []
    chosen = heapq.nsmallest(n, counts.items(), key=lambda wc: (-wc[1], wc[0]))
    return [(word, count) for word, count in chosen]


def main():
    if len(sys.argv) != 3:
        print("usage: wordfreq.py FILE N")
        sys.exit(1)
    words = read_words(sys.argv[1])
    counts = count_words(words)
    for word, count in top_words(counts, int(sys.argv[2])):
        print(f"{word}\t{count}")


if __name__ == "__main__":
    main()
