"""Assignment 3: word frequencies.

Complete the three functions below. Do not change their names or
signatures; main() is given and must not be changed either.
"""
import string
import sys
from collections import Counter


def read_words(path):
    """Return the list of lower-case words in the file at `path`."""
    table = str.maketrans(string.punctuation, " " * len(string.punctuation))
    words = []
    with open(path) as source:
        for line in source:
            words.extend(line.translate(table).lower().split())
    return words


def count_words(words):
    """Return a dict mapping each word to its number of occurrences."""
    return dict(Counter(words))


def top_words(counts, n):
    """Return the n most frequent (word, count) pairs, most frequent first.

    Ties are broken alphabetically.
    """
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return ranked[: max(n, 0)]


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
