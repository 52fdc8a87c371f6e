"""Assignment 3: word frequencies.

Complete the three functions below. Do not change their names or
signatures; main() is given and must not be changed either.
"""
import sys
from collections import defaultdict


def read_words(path):
    """Return the list of lower-case words in the file at `path`."""
    text = open(path).read()
    spaced = "".join(ch.lower() if ch.isalnum() else " " for ch in text)
    return spaced.split()


def count_words(words):
    """Return a dict mapping each word to its number of occurrences."""
    counter = defaultdict(int)
    for w in words:
        counter[w] += 1
    return dict(counter)


def top_words(counts, n):
    """Return the n most frequent (word, count) pairs, most frequent first.

    Ties are broken alphabetically.
    """
    out = []
    left = dict(counts)
    while left and len(out) < n:
        pick = min(left, key=lambda k: (-left[k], k))
        out.append((pick, left.pop(pick)))
    return out


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
