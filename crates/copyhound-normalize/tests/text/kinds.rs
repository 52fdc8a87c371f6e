//! How the front door picks the front-end of a file.

use std::path::Path;

use copyhound_normalize::code::{CodeOptions, Language, normalize_code};
use copyhound_normalize::{DocumentKind, KindChoice, LoadOptions, load_bytes, load_file};

use super::support::assert_spans_valid;

const C_SOURCE: &[u8] = b"int main(void) {\r\n    return 0; /* done */\r\n}\r\n";

#[test]
fn code_is_detected_and_normalised_by_the_code_front_end() {
    let loaded = load_bytes(Path::new("main.c"), C_SOURCE, &LoadOptions::default()).unwrap();
    assert_eq!(loaded.kind, DocumentKind::Code(Language::C));
    assert_eq!(loaded.kind.name(), "c");
    let expected = normalize_code(
        Language::C,
        std::str::from_utf8(C_SOURCE).unwrap(),
        &CodeOptions::default(),
    );
    assert_eq!(loaded.doc, expected);
    assert_eq!(loaded.text_start_in_file, Some(0));
    assert_spans_valid(&loaded.text, &loaded.doc);
}

#[test]
fn kind_text_reads_code_as_prose() {
    let options = LoadOptions {
        kind: KindChoice::Text,
        ..LoadOptions::default()
    };
    let loaded = load_bytes(Path::new("main.c"), C_SOURCE, &options).unwrap();
    assert_eq!(loaded.kind, DocumentKind::Text);
    assert_eq!(loaded.doc.len(), "intmainvoidreturn0done".len());
}

#[test]
fn kind_code_forces_the_language() {
    let options = LoadOptions {
        kind: KindChoice::Code(Language::C),
        ..LoadOptions::default()
    };
    let loaded = load_bytes(Path::new("notes.txt"), C_SOURCE, &options).unwrap();
    assert_eq!(loaded.kind, DocumentKind::Code(Language::C));
}

#[test]
fn unknown_extension_is_text() {
    let loaded = load_bytes(
        Path::new("README"),
        b"Just some words.",
        &LoadOptions::default(),
    )
    .unwrap();
    assert_eq!(loaded.kind, DocumentKind::Text);
}

/// Every file of the Clough–Stevenson corpus loads as text; some are
/// Windows-1252. Skipped when the shared datasets are not on this machine.
#[test]
fn clough_corpus_loads() {
    let files =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/datasets/clough-open/files");
    let Ok(entries) = std::fs::read_dir(&files) else {
        eprintln!("skipped: {} is absent", files.display());
        return;
    };
    let mut guessed = 0;
    let mut count = 0;
    for entry in entries {
        let path = entry.unwrap().path();
        let loaded =
            load_file(&path, &LoadOptions::default()).unwrap_or_else(|error| panic!("{error}"));
        assert_eq!(loaded.kind, DocumentKind::Text, "{}", path.display());
        assert!(!loaded.doc.is_empty(), "{}", path.display());
        assert_spans_valid(&loaded.text, &loaded.doc);
        assert!(!loaded.text.contains('\u{FFFD}'), "{}", path.display());
        assert!(
            ["UTF-8", "windows-1252"].contains(&loaded.encoding),
            "{}: {}",
            path.display(),
            loaded.encoding
        );
        guessed += usize::from(loaded.encoding != "UTF-8");
        count += 1;
    }
    eprintln!("clough-open: {count} files, {guessed} not UTF-8");
    assert!(count > 0);
}
