//! Every kind of bad input gets a clear error naming the file, or loads
//! with a warning.

use std::fs::File;
use std::io::Write;

use copyhound_normalize::{
    DEFAULT_MAX_BYTES, DocumentKind, LoadError, LoadOptions, load_bytes, load_file,
};

use super::support::{assert_spans_valid, load_written, symbol_string};

#[test]
fn missing_file() {
    let error = load_file("no/such/file.txt".as_ref(), &LoadOptions::default()).unwrap_err();
    assert!(matches!(error, LoadError::NotFound { .. }));
    assert_eq!(error.to_string(), "no/such/file.txt: no such file");
}

#[test]
fn directory() {
    let dir = tempfile::tempdir().unwrap();
    let error = load_file(dir.path(), &LoadOptions::default()).unwrap_err();
    assert!(matches!(error, LoadError::NotAFile { .. }));
}

#[test]
fn binary_file_with_nul_bytes() {
    let mut bytes = b"\x7fELF\x02\x01\x01".to_vec();
    bytes.extend(std::iter::repeat_n(0u8, 64));
    let (_dir, loaded) = load_written("program.bin", &bytes);
    let error = loaded.unwrap_err();
    assert!(matches!(error, LoadError::Binary { .. }), "{error}");
    let message = error.to_string();
    assert!(message.contains("program.bin"), "{message}");
    assert!(message.contains("NUL byte at offset 7"), "{message}");
}

#[test]
fn binary_file_of_control_characters() {
    let bytes: Vec<u8> = (0..4096u32).map(|i| (i % 32) as u8 | 1).collect();
    let (_dir, loaded) = load_written("noise.dat", &bytes);
    assert!(matches!(loaded, Err(LoadError::Binary { .. })));
}

#[test]
fn windows_1252_is_decoded_with_a_warning() {
    let (_dir, loaded) = load_written(
        "essay.txt",
        b"The na\xEFve caf\xE9 owner said \x93d\xE9j\xE0 vu\x94 \x96 twice.\r\n",
    );
    let loaded = loaded.unwrap();
    assert_eq!(
        loaded.text,
        "The naïve café owner said “déjà vu” – twice.\r\n"
    );
    assert_eq!(loaded.encoding, "windows-1252");
    assert_eq!(loaded.text_start_in_file, None);
    assert_eq!(
        loaded.warnings,
        ["not UTF-8; decoded as windows-1252 (guessed)"]
    );
    assert_eq!(
        symbol_string(&loaded.doc),
        "thenaïvecaféownersaiddéjàvutwice"
    );
    assert_spans_valid(&loaded.text, &loaded.doc);
}

#[test]
fn invalid_utf8_with_few_bad_bytes_stays_utf8() {
    let mut bytes = "Übung macht den Meister — ça va. ".repeat(4).into_bytes();
    bytes.push(0xE2); // a character cut in half at the end of the file
    let (_dir, loaded) = load_written("cut.txt", &bytes);
    let loaded = loaded.unwrap();
    assert_eq!(loaded.encoding, "UTF-8");
    assert!(loaded.text.ends_with("ça va. \u{FFFD}"));
    assert_eq!(
        loaded.warnings,
        ["invalid UTF-8: 1 malformed byte sequence(s) replaced with U+FFFD"]
    );
}

#[test]
fn utf16_with_bom() {
    let text = "Grüße aus Köln\r\nZweite Zeile";
    let mut bytes = vec![0xFF, 0xFE];
    bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    let (_dir, loaded) = load_written("letter.txt", &bytes);
    let loaded = loaded.unwrap();
    assert_eq!(loaded.text, text);
    assert_eq!(loaded.encoding, "UTF-16LE");
    assert_eq!(loaded.text_start_in_file, None);
    assert_eq!(symbol_string(&loaded.doc), "grüsseauskölnzweitezeile");
    assert!(loaded.warnings.is_empty());
}

#[test]
fn utf16_without_bom() {
    let text = "Notes saved by an old editor\r\n";
    let bytes: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let (_dir, loaded) = load_written("notes.txt", &bytes);
    let loaded = loaded.unwrap();
    assert_eq!(loaded.text, text);
    assert_eq!(
        loaded.warnings,
        ["not UTF-8; decoded as UTF-16LE (guessed)"]
    );
}

#[test]
fn utf8_bom_shifts_spans_by_three() {
    let body = "héllo wörld";
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend_from_slice(body.as_bytes());
    let (_dir, loaded) = load_written("bom.txt", &bytes);
    let loaded = loaded.unwrap();
    assert_eq!(loaded.text, body);
    assert_eq!(loaded.text_start_in_file, Some(3));
    let span = loaded.doc.spans[1].range();
    assert_eq!(&bytes[span.start + 3..span.end + 3], "é".as_bytes());
}

#[test]
fn plain_utf8_spans_are_file_offsets() {
    let bytes = "Zeile eins\r\nzwei – drei\r\n".as_bytes();
    let (_dir, loaded) = load_written("lines.txt", bytes);
    let loaded = loaded.unwrap();
    assert_eq!(loaded.text_start_in_file, Some(0));
    assert_eq!(loaded.text.as_bytes(), bytes);
    for (&symbol, span) in loaded.doc.symbols.iter().zip(&loaded.doc.spans) {
        let source = std::str::from_utf8(&bytes[span.range()]).unwrap();
        assert_eq!(
            source.to_lowercase(),
            char::from_u32(symbol).unwrap().to_string()
        );
    }
}

#[test]
fn empty_file_is_an_empty_document_with_a_warning() {
    let (_dir, loaded) = load_written("empty.txt", b"");
    let loaded = loaded.unwrap();
    assert!(loaded.doc.is_empty());
    assert_eq!(loaded.kind, DocumentKind::Text);
    assert_eq!(loaded.warnings, ["empty file"]);
}

#[test]
fn punctuation_only_file_warns_that_nothing_is_left() {
    let (_dir, loaded) = load_written("dots.txt", b"... --- !!!\n");
    let loaded = loaded.unwrap();
    assert!(loaded.doc.is_empty());
    assert_eq!(
        loaded.warnings,
        ["no symbols: the text front-end found nothing to compare"]
    );
}

#[test]
fn huge_file_is_refused_without_reading_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.txt");
    // Sparse: 200 MB of NUL bytes that take no disk space. Reading it would
    // report a binary file, so the size error shows it was never read.
    File::create(&path).unwrap().set_len(200_000_000).unwrap();
    let error = load_file(&path, &LoadOptions::default()).unwrap_err();
    match &error {
        LoadError::TooLarge { size, limit, .. } => {
            assert_eq!(*size, 200_000_000);
            assert_eq!(*limit, DEFAULT_MAX_BYTES);
        }
        other => panic!("expected TooLarge, got {other}"),
    }
    let message = error.to_string();
    assert!(
        message.contains("huge.txt: too large: 200000000 bytes"),
        "{message}"
    );
}

#[test]
fn size_limit_is_configurable() {
    let options = LoadOptions {
        max_bytes: 10,
        ..LoadOptions::default()
    };
    let error = load_bytes("eleven.txt".as_ref(), b"eleven byte", &options).unwrap_err();
    assert!(matches!(
        error,
        LoadError::TooLarge {
            size: 11,
            limit: 10,
            ..
        }
    ));
    assert!(load_bytes("ten.txt".as_ref(), b"ten bytes!", &options).is_ok());
}

#[test]
fn html_with_scripts_and_entities() {
    let html = "<html><head><script>var s = '<p>not text</p>';</script>\
                <style>p{}</style></head><body><p>Fish &amp; chips&nbsp;&mdash; \
                &#x201C;caf&eacute;&#x201D;</p><p>next</body>";
    let (_dir, loaded) = load_written("page.html", html.as_bytes());
    let loaded = loaded.unwrap();
    assert_eq!(loaded.kind, DocumentKind::Html);
    assert_eq!(loaded.text, "Fish & chips — “café”\nnext\n");
    assert_eq!(symbol_string(&loaded.doc), "fishchipscafénext");
    assert_spans_valid(&loaded.text, &loaded.doc);
}

#[test]
fn malformed_html_is_never_an_error() {
    let (_dir, loaded) = load_written("broken.htm", b"<p>unclosed <b>bold <i>italic</p></div><");
    let loaded = loaded.unwrap();
    assert_eq!(symbol_string(&loaded.doc), "unclosedbolditalic");
}

#[test]
fn html_declared_charset_is_honoured() {
    let html = b"<!DOCTYPE html><meta charset=\"windows-1251\"><p>\xcf\xf0\xe8\xe2\xe5\xf2</p>";
    let (_dir, loaded) = load_written("privet.html", html);
    let loaded = loaded.unwrap();
    assert_eq!(loaded.encoding, "windows-1251");
    assert_eq!(loaded.text.trim(), "Привет");
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
}

#[test]
fn html_is_recognised_by_content_without_extension() {
    let (_dir, loaded) = load_written("page", b"<!doctype html><title>T</title><p>body</p>");
    assert_eq!(loaded.unwrap().kind, DocumentKind::Html);
}

#[test]
fn writing_errors_name_the_file() {
    // Every error message starts with the path.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("named.bin");
    File::create(&path).unwrap().write_all(b"\0\0\0").unwrap();
    let error = load_file(&path, &LoadOptions::default()).unwrap_err();
    assert!(error.to_string().starts_with(&path.display().to_string()));
    assert_eq!(error.path(), path);
}
