//! Snapshots of the symbol streams of the text fixtures. Invariants are
//! checked before each snapshot.

use std::fmt::Write;

use copyhound_normalize::text::{TextMode, TextOptions, normalize_words};
use copyhound_normalize::{DocumentKind, KindChoice, LoadOptions, load_file};

use super::support::{assert_spans_valid, fixture, render_char_symbols};

fn load_fixture(name: &str, mode: TextMode) -> copyhound_normalize::LoadedDocument {
    let options = LoadOptions {
        kind: KindChoice::Text,
        text: TextOptions::with_mode(mode),
        ..LoadOptions::default()
    };
    let loaded = load_file(&fixture(name), &options).expect("fixture loads");
    assert_spans_valid(&loaded.text, &loaded.doc);
    loaded
}

#[test]
fn multilingual_chars() {
    let loaded = load_fixture("multilingual.txt", TextMode::Chars);
    assert_eq!(loaded.text_start_in_file, Some(0));
    insta::assert_snapshot!(render_char_symbols(&loaded.text, &loaded.doc));
}

#[test]
fn multilingual_words() {
    let loaded = load_fixture("multilingual.txt", TextMode::Words);
    let mut words = String::new();
    for span in &loaded.doc.spans {
        let word = &loaded.text[span.range()];
        writeln!(words, "{:>4}..{:<4} {word}", span.start, span.end).unwrap();
    }
    // Each word's symbol is the hash of the folded word.
    let expected = normalize_words(&loaded.text, TextOptions::default().word_key);
    assert_eq!(loaded.doc, expected);
    insta::assert_snapshot!(words);
}

#[test]
fn conversion_noise_consonants() {
    let loaded = load_fixture("conversion-noise.txt", TextMode::Consonants);
    insta::assert_snapshot!(render_char_symbols(&loaded.text, &loaded.doc));
}

#[test]
fn lecture_notes_html_visible_text() {
    let loaded = load_fixture("lecture-notes.html", TextMode::Chars);
    assert_eq!(loaded.kind, DocumentKind::Html);
    assert!(!loaded.text.contains("script text") && !loaded.text.contains("comment"));
    insta::assert_snapshot!(loaded.text);
}

#[test]
fn lecture_notes_html_chars() {
    let loaded = load_fixture("lecture-notes.html", TextMode::Chars);
    let folded: String = loaded
        .doc
        .symbols
        .iter()
        .map(|&symbol| char::from_u32(symbol).unwrap())
        .collect();
    insta::assert_snapshot!(folded);
}
