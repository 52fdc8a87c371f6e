//! Throughput of the text front-ends and the decoder on 4 MiB of generated
//! prose: plain ASCII English, and text mixing accents, Greek, Cyrillic and
//! compatibility characters.
//!
//! Run: `cargo bench -p copyhound-normalize --bench text`

use std::hint::black_box;

use copyhound_normalize::decode::decode;
use copyhound_normalize::extract::html::visible_text;
use copyhound_normalize::text::{TextMode, TextOptions, normalize_text};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const TEXT_BYTES: usize = 4 << 20;

const ASCII_WORDS: &[&str] = &[
    "the",
    "document",
    "fingerprint",
    "of",
    "a",
    "winnowing",
    "window",
    "selects",
    "minimum",
    "hash",
    "copy",
    "detection",
    "students",
    "program",
    "text,",
    "and",
    "K-gram.",
    "(2003)",
];

const MIXED_WORDS: &[&str] = &[
    "Straße",
    "garçon",
    "crème",
    "brûlée",
    "naïve",
    "Ὀδυσσεύς",
    "Москва",
    "ﬁne",
    "Ｗｉｄｅ",
    "déjà-vu",
    "the",
    "copy",
    "and",
    "Ærøskøbing",
    "e\u{301}te\u{301}",
    "—",
    "“quoted”",
];

/// Pseudo-random prose of about `len` bytes from `words`, with line breaks.
fn prose(words: &[&str], len: usize) -> String {
    let mut state = 0x5EED_u64;
    let mut text = String::with_capacity(len + 64);
    let mut line = 0;
    while text.len() < len {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let word = words[((state >> 33) % words.len() as u64) as usize];
        text.push_str(word);
        line += word.len() + 1;
        if line > 72 {
            text.push('\n');
            line = 0;
        } else {
            text.push(' ');
        }
    }
    text
}

fn text_modes(c: &mut Criterion) {
    for (corpus, words) in [("ascii", ASCII_WORDS), ("mixed-unicode", MIXED_WORDS)] {
        let text = prose(words, TEXT_BYTES);
        let mut group = c.benchmark_group(format!("text-modes/{corpus}"));
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.sample_size(10);
        for mode in TextMode::ALL {
            let options = TextOptions::with_mode(mode);
            group.bench_function(mode.name(), |b| {
                b.iter(|| normalize_text(black_box(&text), &options).len());
            });
        }
        group.finish();
    }
}

fn decoding(c: &mut Criterion) {
    let text = prose(MIXED_WORDS, TEXT_BYTES);
    let latin1_text = prose(
        &["café", "naïve", "über", "the", "copy", "déjà", "vu"],
        TEXT_BYTES,
    );
    let (windows_1252, _, _) = encoding_rs::WINDOWS_1252.encode(&latin1_text);
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    let mut html = String::from("<!DOCTYPE html><html><head><style>p {}</style></head><body>");
    for line in text.lines() {
        html.push_str("<p>");
        html.push_str(line);
        html.push_str(" &amp; <b>bold</b> &eacute;</p>\n");
    }
    html.push_str("</body></html>");

    let mut group = c.benchmark_group("decode");
    group.sample_size(10);
    for (name, bytes) in [
        ("utf8", text.as_bytes()),
        ("windows-1252-guessed", &windows_1252[..]),
        ("utf16le-bom", &utf16[..]),
    ] {
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| decode(black_box(bytes), None).expect("decodes").text.len());
        });
    }
    group.throughput(Throughput::Bytes(html.len() as u64));
    group.bench_function("html-visible-text", |b| {
        b.iter(|| visible_text(black_box(&html)).len());
    });
    group.finish();
}

criterion_group!(benches, text_modes, decoding);
criterion_main!(benches);
