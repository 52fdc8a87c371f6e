"""Scores every pair of the listed files with copydetect at its defaults,
except two settings without which it cannot read the datasets:

* `encoding="DETECT"` (its `--encoding DETECT`): at the default UTF-8 it
  skips every Windows-1252 file;
* for text, `disable_filtering=True` (its `-f`): its filter drops every
  token Pygments' plain-text lexer yields, which is all of a .txt file,
  so it would compare empty documents.

    python copydetect_pairs.py FILES.json OUT.csv [--text]

FILES.json is a JSON list of paths. OUT.csv gets `a,b,score` for every
pair copydetect compared; the score is the larger of its two directed
similarities (the share of each file's tokens found in the other). The
display threshold is not applied: it only trims copydetect's HTML report.
Files copydetect skips (undecodable) have no rows.
"""

import csv
import json
import sys

from copydetect import CopyDetector


def main() -> int:
    listing, out = sys.argv[1], sys.argv[2]
    text = "--text" in sys.argv[3:]
    with open(listing, encoding="utf-8") as f:
        files = json.load(f)
    detector = CopyDetector(autoopen=False, silent=True, encoding="DETECT", disable_filtering=text)
    for path in files:
        detector.add_file(path)
    detector.run()
    matrix = detector.similarity_matrix
    skipped = [path for path in files if path not in detector.file_data]
    if skipped:
        print(f"copydetect skipped {len(skipped)} file(s): {skipped[:5]}", file=sys.stderr)
    with open(out, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["a", "b", "score"])
        for i, a in enumerate(detector.test_files):
            for j in range(i + 1, len(detector.ref_files)):
                first, second = matrix[i, j]
                if first < 0:
                    continue
                writer.writerow([a, detector.ref_files[j], max(first, second)])
    return 0


if __name__ == "__main__":
    sys.exit(main())
