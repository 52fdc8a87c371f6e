//! Synthetic documents and helpers shared by the tests.

use copyhound_db::{
    Database, DocId, DocumentMeta, DocumentPrint, Mode, NewDocument, Params, SearchOptions,
    SearchReport,
};
use copyhound_fingerprint::NormalizedDocument;

/// A deterministic generator of English-like text: words of 2–9 letters
/// from a fixed vocabulary, with a Zipf-like preference for short ones.
pub struct TextGenerator {
    state: u64,
    vocabulary: Vec<String>,
}

impl TextGenerator {
    pub fn new(seed: u64) -> Self {
        let mut vocab_state = 0x5eed_u64;
        let mut vocabulary = Vec::new();
        for _ in 0..3000 {
            let len = 2 + (next(&mut vocab_state) % 8) as usize;
            let word: String = (0..len)
                .map(|_| char::from(b'a' + (next(&mut vocab_state) % 26) as u8))
                .collect();
            vocabulary.push(word);
        }
        Self {
            state: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
            vocabulary,
        }
    }

    /// `count` words separated by spaces, with a full stop every so often.
    pub fn words(&mut self, count: usize) -> String {
        let mut out = String::new();
        for i in 0..count {
            let r = next(&mut self.state);
            // Squaring a uniform number favours low indices (common words).
            let u = (r % 10_000) as f64 / 10_000.0;
            let index = ((u * u) * self.vocabulary.len() as f64) as usize;
            out.push_str(&self.vocabulary[index]);
            out.push(if i % 17 == 16 { '.' } else { ' ' });
        }
        out
    }
}

fn next(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    let x = *state;
    (x ^ (x >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd) ^ (x >> 29)
}

/// Letters and digits, lower-cased, each with its byte span: the stand-in
/// text front-end.
pub fn normalize(text: &str) -> NormalizedDocument {
    let mut doc = NormalizedDocument::new();
    for (at, c) in text.char_indices().filter(|(_, c)| c.is_alphanumeric()) {
        doc.push(u32::from(c.to_ascii_lowercase()), at..at + c.len_utf8());
    }
    doc
}

pub fn print(db: &Database, text: &str) -> DocumentPrint {
    db.fingerprinter().print(&normalize(text))
}

pub fn add(db: &Database, title: &str, text: &str) -> DocId {
    let doc = NewDocument {
        meta: DocumentMeta {
            title: title.to_owned(),
            location: format!("/texts/{title}.txt"),
            email: "owner@example.org".to_owned(),
            size: text.len() as u64,
        },
        print: print(db, text),
    };
    db.add(vec![doc]).unwrap()[0]
}

pub fn search(db: &Database, text: &str) -> SearchReport {
    db.search(
        &print(db, text),
        &SearchOptions {
            limit: 1000,
            min_hits: 1,
        },
    )
    .unwrap()
}

/// The ratio of document `id` in a report, zero if absent.
pub fn ratio_of(report: &SearchReport, id: DocId) -> f64 {
    report
        .matches
        .iter()
        .find(|m| m.document.id == id)
        .map_or(0.0, |m| m.ratio)
}

/// Koala defaults with a small flush threshold, so that tests exercise
/// segments and merges, not only the staging table.
pub fn small_params() -> Params {
    Params {
        flush_docs: 8,
        merge_factor: 3,
        ..Params::default()
    }
}

/// Full fingerprinting (Koala §3.1): the share of `registered`'s distinct
/// k-grams (after the prologue, which only Koala mode skips) that `query`
/// also holds.
pub fn full_ratio(db: &Database, registered: &str, query: &str) -> f64 {
    let params = db.params();
    let prologue = if params.mode == Mode::Koala {
        params.prologue_bytes
    } else {
        0
    };
    let kgrams = |text: &str| -> std::collections::HashSet<Vec<u32>> {
        let doc = normalize(text);
        let skip = doc.spans.partition_point(|s| s.start < prologue);
        doc.symbols[skip.min(doc.symbols.len())..]
            .windows(params.k as usize)
            .map(<[u32]>::to_vec)
            .collect()
    };
    let a = kgrams(registered);
    let b = kgrams(query);
    a.intersection(&b).count() as f64 / a.len().max(1) as f64
}

/// [`small_params`] keeping prints, so that `rotate` needs no document.
pub fn kept_prints_params() -> Params {
    Params {
        keep_prints: true,
        ..small_params()
    }
}

/// Overwrites the catalogue's meta value `name` behind the library's back
/// (the database must be closed), to fake an old or damaged catalogue.
pub fn set_meta(dir: &std::path::Path, name: &str, value: &[u8]) {
    let catalog = redb::Database::open(dir.join("catalog.redb")).unwrap();
    let meta: redb::TableDefinition<&str, &[u8]> = redb::TableDefinition::new("meta");
    let txn = catalog.begin_write().unwrap();
    txn.open_table(meta).unwrap().insert(name, value).unwrap();
    txn.commit().unwrap();
}

/// Stores a copy of the catalogue's record block under key `from` again
/// under key `to`, behind the library's back (the database must be closed),
/// to fake a damaged catalogue.
pub fn copy_record_block(dir: &std::path::Path, from: u32, to: u32) {
    let catalog = redb::Database::open(dir.join("catalog.redb")).unwrap();
    let records: redb::TableDefinition<u32, &[u8]> = redb::TableDefinition::new("records");
    let txn = catalog.begin_write().unwrap();
    {
        let mut table = txn.open_table(records).unwrap();
        let block = redb::ReadableTable::get(&table, from)
            .unwrap()
            .unwrap()
            .value()
            .to_vec();
        table.insert(to, block.as_slice()).unwrap();
    }
    txn.commit().unwrap();
}
