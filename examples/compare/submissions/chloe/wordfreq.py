"""Assignment 3: word frequencies.

Complete the three functions below. Do not change their names or
signatures; main() is given and must not be changed either.
"""
import sys
import re


def top_words(counts, n):
    """Return the n most frequent (word, count) pairs, most frequent first.

    Ties are broken alphabetically.
    """
    # sort twice: the second sort is stable so ties stay alphabetical
    items = list(counts.items())
    items.sort(key=lambda entry: entry[0])
    items.sort(key=lambda entry: entry[1], reverse=True)
    if n < 0:
        raise ValueError("n cannot be negative")
    return items[:n]


def read_words(path):
    """Return the list of lower-case words in the file at `path`."""
    with open(path, encoding="utf-8") as f:
        content = f.read().lower()
    return re.findall(r"[a-z']+", content)


def count_words(words):
    """Return a dict mapping each word to its number of occurrences."""
    freq = {}
    for w in words:
        w = w.strip("'")
        if not w:
            continue
        if w in freq:
            freq[w] += 1
        else:
            freq[w] = 1
    return freq


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
