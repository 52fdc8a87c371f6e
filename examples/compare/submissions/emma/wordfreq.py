"""Assignment 3: word frequencies.

Complete the three functions below. Do not change their names or
signatures; main() is given and must not be changed either.
"""
import sys
import string
from collections import Counter


def count_words(words):
    """Return a dict mapping each word to its number of occurrences."""
    return dict(Counter(words))


def top_words(counts, n):
    """Return the n most frequent (word, count) pairs, most frequent first.

    Ties are broken alphabetically.
    """
    result = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return result[: max(n, 0)]


def read_words(path):
    """Return the list of lower-case words in the file at `path`."""
    # replace punctuation by spaces, then split on whitespace
    remove = str.maketrans(string.punctuation, " " * len(string.punctuation))
    all_words = []
    with open(path) as fh:
        for row in fh:
            all_words.extend(row.translate(remove).lower().split())
    return all_words


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
