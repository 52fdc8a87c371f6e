//! `copyhound compare --max-pairs`: which pairs are listed when not all
//! can be, and what stderr says about the rest.

use std::fs;
use std::path::Path;

use crate::support::{copyhound, temp_dir, write};

const WORDS: [&str; 24] = [
    "river", "engine", "bird", "bread", "valley", "piston", "star", "yeast", "plain", "crank",
    "ocean", "sugar", "soil", "steam", "nest", "gluten", "stone", "water", "field", "heat",
    "mountain", "sun", "coal", "flour",
];

/// `count` words chosen by a generator seeded with `seed`.
fn words(count: usize, seed: u64) -> String {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        out.push(WORDS[(state % WORDS.len() as u64) as usize]);
    }
    out.join(" ")
}

/// The `(a, b)` of each row of a CSV report.
fn csv_pairs(path: &Path) -> Vec<(String, String)> {
    let text = fs::read_to_string(path).unwrap();
    text.lines()
        .skip(1)
        .map(|line| {
            let cells: Vec<&str> = line.split(',').collect();
            (cells[0].into(), cells[1].into())
        })
        .collect()
}

#[test]
fn short_copies_are_listed_above_long_texts_sharing_a_template() {
    let dir = temp_dir();
    let batch = dir.path().join("batch");
    // Twenty long texts share a template of 300 words, each with 200 of
    // its own: 190 pairs sharing far more fingerprints than any copy (and
    // the few words make most other pairs share a little).
    let template = words(300, 1);
    for i in 0..20 {
        let text = format!("{template} {}", words(200, 100 + i));
        write(&batch, &format!("long{i:02}.txt"), text);
    }
    // Six short texts, each copied once.
    for i in 0..6 {
        let text = words(30, 1000 + i);
        for side in ["a", "b"] {
            write(&batch, &format!("short{i}{side}.txt"), &text);
        }
    }
    let csv = dir.path().join("pairs.csv");
    let output = copyhound()
        .args(["compare", "--max-pairs", "6", "--top", "0", "--csv"])
        .arg(&csv)
        .arg(&batch)
        .output()
        .unwrap();
    assert!(output.status.success());
    let expected: Vec<(String, String)> = (0..6)
        .map(|i| (format!("short{i}a.txt"), format!("short{i}b.txt")))
        .collect();
    assert_eq!(csv_pairs(&csv), expected);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("text: listed the 6 most similar pairs, down to 100.0%; ")
            && stderr.contains(" other pairs found are not listed (--max-pairs)"),
        "{stderr}"
    );
    assert!(!stderr.contains("warning"), "{stderr}");
}
