"""Assignment 3: word frequencies.

Complete the three functions below. Do not change their names or
signatures; main() is given and must not be changed either.
"""
import sys
from collections import defaultdict


def read_words(path):
    """Return the list of lower-case words in the file at `path`."""
    data = open(path).read()
    cleaned = "".join(c.lower() if c.isalnum() else " " for c in data)
    return cleaned.split()


def count_words(words):
    """Return a dict mapping each word to its number of occurrences."""
    tally = defaultdict(int)
    for item in words:
        tally[item] += 1
    return dict(tally)


def top_words(counts, n):
    """Return the n most frequent (word, count) pairs, most frequent first.

    Ties are broken alphabetically.
    """
    best = []
    remaining = dict(counts)
    while remaining and len(best) < n:
        top = min(remaining, key=lambda word: (-remaining[word], word))
        best.append((top, remaining.pop(top)))
    return best


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
