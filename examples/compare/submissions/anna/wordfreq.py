"""Assignment 3: word frequencies.

Complete the three functions below. Do not change their names or
signatures; main() is given and must not be changed either.
"""
import re
import sys


def read_words(path):
    """Return the list of lower-case words in the file at `path`."""
    with open(path, encoding="utf-8") as handle:
        text = handle.read().lower()
    # letters and apostrophes make a word ("don't" stays one word)
    return re.findall(r"[a-z']+", text)


def count_words(words):
    """Return a dict mapping each word to its number of occurrences."""
    counts = {}
    for word in words:
        word = word.strip("'")
        if not word:
            continue
        if word in counts:
            counts[word] += 1
        else:
            counts[word] = 1
    return counts


def top_words(counts, n):
    """Return the n most frequent (word, count) pairs, most frequent first.

    Ties are broken alphabetically.
    """
    pairs = list(counts.items())
    pairs.sort(key=lambda pair: pair[0])
    pairs.sort(key=lambda pair: pair[1], reverse=True)
    if n < 0:
        raise ValueError("n must not be negative")
    return pairs[:n]


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
