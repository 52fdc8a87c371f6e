//! Each family's measured defaults and the guarantee they give: any shared
//! run of w + k − 1 symbols is found, whatever the hash key.

use std::path::Path;

use copyhound_normalize::TextMode;
use copyhound_pipeline::{CompareSettings, FrontEnd, FrontEndChoice, Selection, SelectorName};

use crate::support::{BIRDS, BREAD, Batch, ENGINES, RIVERS, compare, inputs};

/// Settings with text read in `mode` and the selection `selection`.
fn settings(mode: TextMode, selection: Selection) -> CompareSettings {
    CompareSettings {
        front_end: FrontEnd::new(&FrontEndChoice {
            text_mode: mode,
            ..FrontEndChoice::default()
        })
        .unwrap(),
        selection,
        ..CompareSettings::default()
    }
}

/// The longest shared fragment of each pair of `a` and `b`, in symbols.
fn longest_fragments(a: &Path, b: &Path, settings: &CompareSettings) -> Vec<usize> {
    compare(&inputs(&[a, b]), settings)
        .pairs
        .iter()
        .map(|pair| pair.longest_fragment)
        .collect()
}

/// Every k-gram of one symbol: the exact shared runs of `a` and `b`.
fn exact_shared_runs(a: &Path, b: &Path, mode: TextMode) -> Vec<usize> {
    let every_symbol = Selection {
        selector: SelectorName::All,
        k: Some(1),
        ..Selection::default()
    };
    longest_fragments(a, b, &settings(mode, every_symbol))
}

/// Hash keys 0 to 15, each with the longest fragments of `a` and `b`
/// compared in `mode` with window `w` (the default for `None`).
fn longest_fragments_at_every_key(
    a: &Path,
    b: &Path,
    mode: TextMode,
    w: Option<usize>,
) -> Vec<(u64, Vec<usize>)> {
    (0..16_u64)
        .map(|seed| {
            let keyed = Selection {
                seed,
                w,
                ..Selection::default()
            };
            (seed, longest_fragments(a, b, &settings(mode, keyed)))
        })
        .collect()
}

#[test]
fn code_defaults_find_every_shared_run_of_twelve_tokens() {
    // One shared statement of exactly 12 Python tokens, framed by different
    // code on each side; the code defaults (k = 10, w = 3) guarantee every
    // shared run of w + k − 1 = 12 tokens, whatever the hash key.
    let batch = Batch::new();
    let shared = "value = (total + extra) / count * -scale\n";
    let a = batch.write(
        "a.py",
        format!("import sys\nclass Q:\n    pass\n{shared}print(sys.argv)\n"),
    );
    let b = batch.write(
        "b.py",
        format!("def g(n):\n    return n\n{shared}assert g(1) == 1\n"),
    );
    let chars = TextMode::Chars;
    assert_eq!(
        exact_shared_runs(&a, &b, chars),
        [12],
        "the fixture shares exactly 12 tokens"
    );
    let report = compare(&inputs(&[&a, &b]), &CompareSettings::default());
    assert_eq!((report.parameters.k, report.parameters.window), (10, 3));
    assert_eq!(report.parameters.min_passage, 0);
    assert_eq!(report.parameters.symbol.as_deref(), Some("token"));
    for (seed, found) in longest_fragments_at_every_key(&a, &b, chars, None) {
        assert_eq!(
            found,
            [12],
            "defaults missed the 12-token run at seed {seed}"
        );
    }
    // The former default (w = 5, runs of 14 guaranteed) loses it for some
    // keys: the reason the default window is 3.
    let missed_at_w5 = longest_fragments_at_every_key(&a, &b, chars, Some(5))
        .into_iter()
        .filter(|(_, found)| found.is_empty())
        .count();
    assert!(missed_at_w5 > 0);
}

#[test]
fn each_text_mode_has_its_own_defaults_and_guarantee() {
    let batch = Batch::new();
    let a = batch.write("a.txt", RIVERS);
    let b = batch.write("b.txt", ENGINES);
    for (mode, k, w, min_passage) in [
        (TextMode::Chars, 15, 6, 100),
        (TextMode::Words, 3, 5, 20),
        (TextMode::Consonants, 10, 6, 60),
    ] {
        let report = compare(&inputs(&[&a, &b]), &settings(mode, Selection::default()));
        let parameters = &report.parameters;
        assert_eq!(
            (parameters.k, parameters.window, parameters.min_passage),
            (k, w, min_passage),
            "{mode:?}"
        );
    }

    // Words: any shared run of w + k − 1 = 7 words is found, for every key.
    let a = batch.write(
        "a.txt",
        format!("{BIRDS} quick brown fox jumps over lazy dogs {BREAD}"),
    );
    let b = batch.write(
        "b.txt",
        format!("{ENGINES} quick brown fox jumps over lazy dogs {RIVERS}"),
    );
    let words = TextMode::Words;
    assert_eq!(
        exact_shared_runs(&a, &b, words).iter().max(),
        Some(&7),
        "the fixture shares 7 words at most"
    );
    for (seed, found) in longest_fragments_at_every_key(&a, &b, words, None) {
        assert!(
            found.contains(&7),
            "words missed the 7-word run at seed {seed}: {found:?}"
        );
    }

    // Characters: any shared run of w + k − 1 = 20 letters is found, for
    // every key; the former window (w = 20, runs of 34) loses it at some.
    let a = batch.write(
        "a.txt",
        format!("{BIRDS} 7 fox jumps over lazy dogs 8 {BREAD}"),
    );
    let b = batch.write(
        "b.txt",
        format!("{ENGINES} 5 fox jumps over lazy dogs 6 {RIVERS}"),
    );
    let chars = TextMode::Chars;
    assert_eq!(
        exact_shared_runs(&a, &b, chars).iter().max(),
        Some(&20),
        "the fixture shares 20 letters at most"
    );
    for (seed, found) in longest_fragments_at_every_key(&a, &b, chars, None) {
        assert!(
            found.contains(&20),
            "chars missed the 20-letter run at seed {seed}: {found:?}"
        );
    }
    let missed_at_w20 = longest_fragments_at_every_key(&a, &b, chars, Some(20))
        .into_iter()
        .filter(|(_, found)| !found.contains(&20))
        .count();
    assert!(missed_at_w20 > 0);
}
