"""Assignment 3: word frequencies.

Complete the three functions below. Do not change their names or
signatures; main() is given and must not be changed either.
"""
import sys


def read_words(path):
    """Return the list of lower-case words in the file at `path`."""
    words = []
    with open(path, encoding="utf-8") as text:
        for raw_line in text:
            for piece in raw_line.split():
                letters = "".join(ch for ch in piece if ch.isalpha())
                if letters:
                    words.append(letters.lower())
    return words


def count_words(words):
    """Return a dict mapping each word to its number of occurrences."""
    seen = sorted(words)
    counts = {}
    i = 0
    while i < len(seen):
        j = i
        while j < len(seen) and seen[j] == seen[i]:
            j += 1
        counts[seen[i]] = j - i
        i = j
    return counts


def top_words(counts, n):
    """Return the n most frequent (word, count) pairs, most frequent first.

    Ties are broken alphabetically.
    """
    by_count = {}
    for word, count in counts.items():
        by_count.setdefault(count, []).append(word)
    answer = []
    for count in sorted(by_count, reverse=True):
        for word in sorted(by_count[count]):
            if len(answer) == n:
                return answer
            answer.append((word, count))
    return answer


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
