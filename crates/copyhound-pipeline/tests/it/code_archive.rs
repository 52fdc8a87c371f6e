//! A batch compared against an archive scores every pair as a comparison
//! of the batch and the whole archive does, lists the same pairs with a new
//! unit, and never pairs two archived units.

use std::collections::BTreeMap;
use std::path::Path;

use copyhound_index::MaxOccurrences;
use copyhound_pipeline::code_archive::{ArchiveSettings, Storing, add_to_archive, create_archive};
use copyhound_pipeline::{CompareSettings, FrontEndChoice, Inputs, Selection, UnitMode};
use copyhound_report::{Report, UnitOrigin};

use crate::support::{Batch, outcome, report};

/// A line every program of one language shares (a template), so that
/// rarity weights differ from full ones.
fn java(name: &str, body: &str) -> String {
    format!(
        "import java.util.Scanner;\npublic class {name} {{\n    static Scanner in = new Scanner(System.in);\n    static int readInt() {{ return in.nextInt(); }}\n{body}\n}}\n"
    )
}

fn python(body: &str) -> String {
    format!(
        "import sys\n\ndef read_ints():\n    return [int(x) for x in sys.stdin.read().split()]\n\n{body}\n"
    )
}

fn c(body: &str) -> String {
    format!(
        "#include <stdio.h>\nstatic int read_int(void) {{ int x; scanf(\"%d\", &x); return x; }}\n{body}\n"
    )
}

const JAVA_BODIES: [&str; 4] = [
    "    public static void main(String[] args) {\n        int n = readInt(); long total = 0;\n        for (int i = 0; i < n; i++) { total += readInt() * (long) i; }\n        System.out.println(\"weighted \" + total);\n    }\n    static int gcd(int a, int b) { while (b != 0) { int t = a % b; a = b; b = t; } return a; }",
    "    public static void main(String[] args) {\n        int n = readInt(); int[] seen = new int[n];\n        for (int i = 0; i < n; i++) { seen[i] = readInt(); }\n        java.util.Arrays.sort(seen);\n        System.out.println(\"median \" + seen[n / 2]);\n    }",
    "    static boolean prime(int p) { if (p < 2) return false; for (int d = 2; d * d <= p; d++) if (p % d == 0) return false; return true; }\n    public static void main(String[] args) {\n        int count = 0, limit = readInt();\n        for (int q = 2; q < limit; q++) if (prime(q)) count++;\n        System.out.println(count + \" primes\");\n    }",
    "    public static void main(String[] args) {\n        String word = in.next(); StringBuilder out = new StringBuilder();\n        for (int i = word.length() - 1; i >= 0; i--) out.append(word.charAt(i));\n        System.out.println(out.toString().equals(word) ? \"palindrome\" : \"plain\");\n    }",
];

const PYTHON_BODIES: [&str; 3] = [
    "def mean(values):\n    return sum(values) / len(values)\n\ndef spread(values):\n    m = mean(values)\n    return sum((v - m) ** 2 for v in values) / len(values)\n\nnumbers = read_ints()\nprint('mean', mean(numbers), 'spread', spread(numbers))",
    "def collatz(n):\n    steps = 0\n    while n != 1:\n        n = n // 2 if n % 2 == 0 else 3 * n + 1\n        steps += 1\n    return steps\n\nfor value in read_ints():\n    print(value, collatz(value))",
    "def histogram(values):\n    counts = {}\n    for v in values:\n        counts[v] = counts.get(v, 0) + 1\n    return counts\n\nfor key, count in sorted(histogram(read_ints()).items()):\n    print(key, '*' * count)",
];

const C_BODIES: [&str; 3] = [
    "int main(void) {\n    int n = read_int(), best = -1000000;\n    for (int i = 0; i < n; i++) { int v = read_int(); if (v > best) best = v; }\n    printf(\"max %d\\n\", best);\n    return 0;\n}",
    "static long power(long b, int e) { long r = 1; while (e-- > 0) r *= b; return r; }\nint main(void) {\n    int e = read_int();\n    for (int b = 1; b <= 5; b++) printf(\"%ld\\n\", power(b, e));\n    return 0;\n}",
    "int main(void) {\n    int rows = read_int();\n    for (int r = 0; r < rows; r++) { for (int c = 0; c <= r; c++) putchar('*'); putchar('\\n'); }\n    return 0;\n}",
];

/// A method that `j0` and the `k` units share and no new unit holds: the
/// `k` units pair with no new unit, so they are not compared, yet they make
/// its fingerprints common in `j0` (rarity).
const SHARED_METHOD: &str = "    static double[] scaled(double[] xs, double f) {\n        double[] out = new double[xs.length];\n        for (int i = 0; i < xs.length; i++) out[i] = xs[i] * f;\n        return out;\n    }";

/// Renames identifiers and swaps the two halves of a body: what a copier
/// does to hide a copy.
fn disguise(body: &str, renames: &[(&str, &str)]) -> String {
    let mut body = body.to_string();
    for (from, to) in renames {
        body = body.replace(from, to);
    }
    match body.split_once("\n    static") {
        Some((first, rest)) => format!("    static{rest}\n{first}"),
        None => body,
    }
}

/// Earlier submissions (`old/`) and a new batch (`new/`) holding disguised
/// copies of some of them, in Java, Python and C.
pub(crate) fn submissions(batch: &Batch) {
    for (i, body) in JAVA_BODIES.iter().enumerate() {
        let body = if i == 0 {
            format!("{body}\n{SHARED_METHOD}")
        } else {
            (*body).to_string()
        };
        batch.write(&format!("old/j{i}.java"), java(&format!("P{i}"), &body));
    }
    for i in 0..3 {
        batch.write(
            &format!("old/k{i}.java"),
            format!("class K{i} {{\n{SHARED_METHOD}\n}}\n"),
        );
    }
    for (i, body) in PYTHON_BODIES.iter().enumerate() {
        batch.write(&format!("old/p{i}.py"), python(body));
    }
    for (i, body) in C_BODIES.iter().enumerate() {
        batch.write(&format!("old/c{i}.c"), c(body));
    }
    let java_copy = disguise(JAVA_BODIES[0], &[("total", "acc"), ("gcd", "divisor")]);
    batch.write("new/copy.java", java(&format!("Q{}", 0), &java_copy));
    batch.write("new/fresh.java", java("Fresh", JAVA_BODIES[3]));
    let python_copy = disguise(PYTHON_BODIES[1], &[("steps", "count"), ("collatz", "walk")]);
    batch.write("new/copy.py", python(&python_copy));
    let c_copy = disguise(C_BODIES[1], &[("power", "raise"), ("r *= b", "r = r * b")]);
    batch.write("new/copy.c", c(&c_copy));
}

/// Every pair of `report` by its units' names (in name order), with its
/// scores.
fn pairs(report: &Report) -> BTreeMap<(String, String), [String; 3]> {
    report
        .pairs
        .iter()
        .map(|pair| {
            let name = |u: usize| report.units[u].path.clone();
            let scores =
                [pair.similarity, pair.a.coverage, pair.b.coverage].map(|x| format!("{x:.9}"));
            let (a, b) = (name(pair.a.unit), name(pair.b.unit));
            ((a.clone().min(b.clone()), a.max(b)), scores)
        })
        .collect()
}

pub(crate) fn archive_of(batch: &Batch, old: &Path) -> std::path::PathBuf {
    archive_keeping(batch, old, true)
}

/// An archive of the units of `old`, keeping their texts or not.
pub(crate) fn archive_keeping(batch: &Batch, old: &Path, keep_texts: bool) -> std::path::PathBuf {
    let dir = batch.path("archive");
    let settings = ArchiveSettings {
        front_end: FrontEndChoice::default(),
        selection: Selection::default(),
    };
    create_archive(&dir, &settings, keep_texts).unwrap();
    let inputs = Inputs {
        new: vec![old.to_path_buf()],
        unit: UnitMode::File,
        ..Inputs::default()
    };
    let added = add_to_archive(
        &dir,
        &inputs,
        &FrontEndChoice::default(),
        Storing::default(),
        &(),
    )
    .unwrap();
    assert_eq!(added.added.len(), 13, "{added:?}");
    dir
}

#[test]
fn a_batch_against_an_archive_scores_as_a_comparison_of_both() {
    let unlimited = against_and_union(&CompareSettings::default());
    // Fingerprints in more than 3 units pair none: archived units holding
    // only such fingerprints of the batch are not read, only counted.
    let limited = against_and_union(&CompareSettings {
        max_occurrences: MaxOccurrences::Count(3),
        ..CompareSettings::default()
    });
    assert!(
        limited < unlimited,
        "{limited} archived units read, {unlimited} unlimited"
    );
}

/// Checks that a batch against an archive lists the pairs with a new unit
/// that a comparison of both lists, with the same scores, under
/// `settings`; returns how many archived units it compared.
fn against_and_union(settings: &CompareSettings) -> usize {
    let batch = Batch::new();
    submissions(&batch);
    let (new, old) = (batch.path("new"), batch.path("old"));
    let archive = archive_of(&batch, &old);

    let union = Inputs {
        new: vec![new.clone(), old],
        unit: UnitMode::File,
        ..Inputs::default()
    };
    let union = report(&outcome(&union, settings));
    let is_new = |name: &str| name.starts_with("copy") || name.starts_with("fresh");
    let expected: BTreeMap<_, _> = pairs(&union)
        .into_iter()
        .filter(|((a, b), _)| is_new(a) || is_new(b))
        .collect();

    let against = Inputs {
        new: vec![new],
        against: vec![archive],
        unit: UnitMode::File,
        ..Inputs::default()
    };
    let against = report(&outcome(&against, settings));
    assert_eq!(pairs(&against), expected);
    // The k units were counted, not compared.
    assert!(!against.units.iter().any(|u| u.path.starts_with('k')));
    assert!(union.units.iter().any(|u| u.path.starts_with('k')));
    for (copy, original) in [
        ("copy.java", "j0.java"),
        ("copy.py", "p1.py"),
        ("copy.c", "c1.c"),
    ] {
        let key = (
            copy.min(original).to_string(),
            copy.max(original).to_string(),
        );
        let similarity: f64 = expected[&key][0].parse().unwrap();
        assert!(similarity > 0.6, "{copy} and {original}: {similarity}");
    }
    for pair in &against.pairs {
        let origins = [pair.a.unit, pair.b.unit].map(|u| against.units[u].origin);
        assert!(
            origins.contains(&UnitOrigin::New),
            "an archived pair: {pair:?}"
        );
    }
    assert!(
        against
            .units
            .iter()
            .any(|u| u.origin == UnitOrigin::Archive && u.path == "j0.java")
    );
    against
        .units
        .iter()
        .filter(|u| u.origin == UnitOrigin::Archive)
        .count()
}

#[test]
fn adding_a_unit_again_is_idempotent_and_a_changed_one_is_updated_on_request() {
    let batch = Batch::new();
    submissions(&batch);
    let old = batch.path("old");
    let archive = archive_of(&batch, &old);
    let inputs = Inputs {
        new: vec![old],
        unit: UnitMode::File,
        ..Inputs::default()
    };
    let add = |update| {
        add_to_archive(
            &archive,
            &inputs,
            &FrontEndChoice::default(),
            Storing {
                update,
                ..Storing::default()
            },
            &(),
        )
        .unwrap()
    };
    let again = add(false);
    assert!(again.added.is_empty());
    assert_eq!(again.unchanged.len(), 13);

    batch.write("old/c2.c", c(C_BODIES[0]));
    let changed = add(false);
    assert_eq!(changed.changed, ["c2.c"]);
    let updated = add(true);
    assert_eq!(updated.updated, ["c2.c"]);
    assert_eq!(add(false).unchanged.len(), 13);
}

#[test]
fn without_texts_archived_files_are_read_again_and_a_missing_one_is_a_problem() {
    let batch = Batch::new();
    submissions(&batch);
    let (new, old) = (batch.path("new"), batch.path("old"));
    let archive = archive_keeping(&batch, &old, false);
    let against = Inputs {
        new: vec![new],
        against: vec![archive],
        unit: UnitMode::File,
        ..Inputs::default()
    };
    let settings = CompareSettings::default();
    let found = pairs(&report(&outcome(&against, &settings)));
    assert!(found.contains_key(&("c1.c".to_string(), "copy.c".to_string())));

    std::fs::remove_file(old.join("c1.c")).unwrap();
    let outcome = outcome(&against, &settings);
    let message = &outcome
        .problems
        .iter()
        .find(|p| p.path == "c1.c")
        .expect("the missing archived file is a problem")
        .message;
    assert!(message.contains("cannot be read any more"), "{message}");
    assert!(
        !pairs(&report(&outcome))
            .keys()
            .any(|(a, b)| a == "c1.c" || b == "c1.c")
    );
}

/// The text of each archived unit a report holds, as an output reads it
/// again, by the unit's name.
fn archived_texts(against: &Inputs) -> BTreeMap<String, Option<String>> {
    let outcome = outcome(against, &CompareSettings::default());
    let report = report(&outcome);
    report
        .units
        .iter()
        .enumerate()
        .filter(|(_, unit)| unit.origin == UnitOrigin::Archive)
        .map(|(u, unit)| (unit.path.clone(), outcome.document_text(&report, u, 0)))
        .collect()
}

#[test]
fn outputs_fetch_the_texts_of_archived_units_from_the_archive_or_their_files() {
    for keep_texts in [true, false] {
        let batch = Batch::new();
        submissions(&batch);
        let (new, old) = (batch.path("new"), batch.path("old"));
        let archive = archive_keeping(&batch, &old, keep_texts);
        let against = Inputs {
            new: vec![new],
            against: vec![archive],
            unit: UnitMode::File,
            ..Inputs::default()
        };
        let texts = archived_texts(&against);
        assert!(texts.contains_key("j0.java"), "{texts:?}");
        for (name, text) in &texts {
            let file = std::fs::read_to_string(old.join(name)).unwrap();
            assert_eq!(
                text.as_deref(),
                Some(file.as_str()),
                "{name}, kept {keep_texts}"
            );
        }
        // Kept texts do not need the files any more; the others do.
        std::fs::remove_file(old.join("j0.java")).unwrap();
        let outcome = outcome(&against, &CompareSettings::default());
        let report = report(&outcome);
        let j0 = report.units.iter().position(|u| u.path == "j0.java");
        if keep_texts {
            let text = outcome.document_text(&report, j0.unwrap(), 0);
            assert_eq!(text, texts["j0.java"]);
        } else {
            assert!(j0.is_none(), "a missing archived file is not compared");
        }
    }
}
