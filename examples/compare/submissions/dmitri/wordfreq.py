"""Assignment 3: word frequencies.

Complete the three functions below. Do not change their names or
signatures; main() is given and must not be changed either.
"""
import sys


def read_words(path):
    """Return the list of lower-case words in the file at `path`."""
    result = []
    current = ""
    with open(path, "r", encoding="utf-8", errors="replace") as file:
        for char in file.read():
            if char.isalpha():
                current += char.lower()
            elif current:
                result.append(current)
                current = ""
    if current:
        result.append(current)
    return result


def count_words(words):
    """Return a dict mapping each word to its number of occurrences."""
    table = {}
    for token in words:
        table[token] = table.get(token, 0) + 1
    return table


def top_words(counts, n):
    """Return the n most frequent (word, count) pairs, most frequent first.

    Ties are broken alphabetically.
    """
    def rank(entry):
        return (-entry[1], entry[0])

    return sorted(counts.items(), key=rank)[:n]


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
