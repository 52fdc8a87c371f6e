//! The database at scale: ingest rate, bytes on disk per document and
//! search latency over synthetic documents.
//!
//! A synthetic document is a print of N random 64-bit hashes (what the
//! selector yields for a real document, minus the cost of hashing its text,
//! which `copyhound-fingerprint`'s benches measure). Queries are registered
//! prints with 30 % of their hashes replaced (half the queries) and fresh
//! random prints (the other half). Merges run on a background thread, as a
//! long-running server would run them.
//!
//! ```text
//! cargo bench -p copyhound-db --bench scale -- [DOCUMENTS] [DIR] [--no-prints] [--no-compact]
//! cargo bench -p copyhound-db --bench scale -- search DIR
//! cargo bench -p copyhound-db --bench scale -- texts DIR FILES
//! ```
//!
//! Without DIR the database goes to a temporary directory under the target
//! directory; DOCUMENTS defaults to 100000. `--no-prints` creates the
//! database without kept prints (as `db init` does); `--no-compact` skips the
//! final compaction. `search DIR` measures searches on an existing synthetic
//! database; `texts DIR FILES` searches every file under FILES (loaded and
//! fingerprinted as `copyhound db` does, text front-end) against the
//! database in DIR, timing the search alone and the load and fingerprinting
//! apart.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use copyhound_db::{Database, DocumentMeta, DocumentPrint, NewDocument, Params, SearchOptions};
use copyhound_normalize::{KindChoice, LoadOptions, TextMode, TextOptions, load_file};

const BATCH: usize = 1000;
const QUERIES: usize = 2000;

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn document_print(doc: u64, size: usize) -> Vec<u64> {
    let mut state = doc.wrapping_mul(0xA076_1D64_78BD_642F);
    (0..size).map(|_| splitmix(&mut state)).collect()
}

/// CPU seconds (user + system) this process has used so far, from
/// `/proc/self/stat` (in clock ticks, 100 per second on Linux); `None`
/// elsewhere. On a shared machine this, not the wall clock, shows what the
/// work costs.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are the
    // 14th and 15th fields of the line.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// CPU seconds used since `start` (a [`cpu_seconds`] reading); NaN where
/// they cannot be read.
fn cpu_since(start: Option<f64>) -> f64 {
    cpu_seconds()
        .zip(start)
        .map_or(f64::NAN, |(now, then)| now - then)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// Search latencies in milliseconds (sorted here) and the CPU seconds they
/// took, as p50, p99, max and CPU per query.
fn latency_summary(latencies: &mut [f64], cpu: f64) -> String {
    latencies.sort_by(f64::total_cmp);
    format!(
        "p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms, CPU {:.3} ms per query",
        percentile(latencies, 0.5),
        percentile(latencies, 0.99),
        latencies[latencies.len() - 1],
        cpu * 1000.0 / latencies.len() as f64
    )
}

fn measure(db: &Database, documents: usize, label: &str) {
    let search_size = db.params().search_size as usize;
    let mut state = 0x005E_A2C4_u64;
    let mut latencies = Vec::with_capacity(QUERIES);
    let mut found = 0usize;
    let mut cpu = 0.0;
    for q in 0..QUERIES {
        let target = splitmix(&mut state) % documents as u64;
        let mut print = document_print(target, search_size);
        if q % 2 == 0 {
            for hash in &mut print {
                if splitmix(&mut state) % 10 < 3 {
                    *hash = splitmix(&mut state);
                }
            }
        } else {
            print = document_print(documents as u64 + 1_000_000 + q as u64, search_size);
        }
        let print = DocumentPrint::from_hashes(print);
        let cpu_before = cpu_seconds();
        let t = Instant::now();
        let report = db
            .search(&print, &SearchOptions::default())
            .expect("search");
        latencies.push(t.elapsed().as_secs_f64() * 1000.0);
        cpu += cpu_since(cpu_before);
        if q % 2 == 0
            && report
                .matches
                .first()
                .is_some_and(|m| u64::from(m.document.id) == target)
        {
            found += 1;
        }
    }
    println!(
        "search ({label}): {}; edited queries ranked their source first: {found}/{}",
        latency_summary(&mut latencies, cpu),
        QUERIES / 2
    );
}

/// Bytes the database in `dir` takes on disk once closed, counted as
/// `du -sb` counts them: every file's length and every directory's own
/// entry. Measured open, the catalogue file can read smaller than what the
/// database leaves behind, which would flatter the figure. Returns the
/// database opened again.
fn closed_directory_bytes(db: Database, dir: &Path) -> (u64, Database) {
    drop(db);
    let bytes = apparent_bytes(dir, None);
    (bytes, Database::open(dir).expect("open the database again"))
}

/// Bytes under `path`, counted as `du -sb` counts them (every file's
/// length and every directory's own entry), or, given an `extension`, the
/// lengths of the files with that extension only.
fn apparent_bytes(path: &Path, extension: Option<&str>) -> u64 {
    let own = std::fs::metadata(path).map_or(0, |m| m.len());
    if !path.is_dir() {
        let counted = extension.is_none_or(|e| path.extension().is_some_and(|x| x == e));
        return if counted { own } else { 0 };
    }
    let entries: u64 = std::fs::read_dir(path)
        .expect("read the database directory")
        .map(|entry| apparent_bytes(&entry.expect("a directory entry").path(), extension))
        .sum();
    if extension.is_none() {
        own + entries
    } else {
        entries
    }
}

/// Files under `dir`, recursively, in name order.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read the files directory")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            out.extend(files_under(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// Searches every file under `files` against the database in `dir`; each
/// file's own registration (if it was added) should rank first.
fn search_texts(dir: &Path, files: &Path) {
    let mut db = Database::open(dir).expect("open the database");
    let mode = match db.params().front_end.as_str() {
        "words" => TextMode::Words,
        "consonants" => TextMode::Consonants,
        _ => TextMode::Chars,
    };
    let options = LoadOptions {
        kind: KindChoice::Text,
        text: TextOptions::with_mode(mode),
        ..LoadOptions::default()
    };
    let mut prints = Vec::new();
    let (start, cpu_start) = (Instant::now(), cpu_seconds());
    for path in files_under(files) {
        let Ok(loaded) = load_file(&path, &options) else {
            continue;
        };
        prints.push(db.fingerprinter().print(&loaded.doc));
    }
    let (load_wall, load_cpu) = (start.elapsed().as_secs_f64(), cpu_since(cpu_start));
    println!(
        "load, normalise and select {} files: {:.3} s wall, {load_cpu:.2} s CPU",
        prints.len(),
        load_wall
    );
    time_searches(&db, &prints, "after ingest");
    db.flush().expect("flush");
    db.compact().expect("compact");
    // As `db add` ends: the merge's copy-on-write pages go back too.
    db.compact_catalog().expect("compact the catalogue");
    let stats = db.stats().expect("stats");
    let (whole, db) = closed_directory_bytes(db, dir);
    let per_doc = |bytes: u64| bytes as f64 / stats.documents.max(1) as f64;
    println!(
        "flushed and compacted: {} documents; searched postings {:.1} bytes/document, \
         catalogue file {:.1}, kept prints {:.1}, whole directory (closed, as du -sb) {:.1}",
        stats.documents,
        per_doc(stats.segment_bytes),
        per_doc(stats.catalog_bytes),
        per_doc(apparent_bytes(dir, Some("prints"))),
        per_doc(whole)
    );
    time_searches(&db, &prints, "1 segment");
}

/// Searches every print twice over (so that a small set still gives a p99)
/// and reports the latencies.
fn time_searches(db: &Database, prints: &[DocumentPrint], label: &str) {
    let mut latencies = Vec::new();
    let cpu_start = cpu_seconds();
    for print in prints.iter().chain(prints) {
        let t = Instant::now();
        db.search(print, &SearchOptions::default()).expect("search");
        latencies.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    let cpu = cpu_since(cpu_start);
    println!(
        "search ({label}, {} queries): {}",
        latencies.len(),
        latency_summary(&mut latencies, cpu)
    );
}

#[allow(clippy::too_many_lines)] // one linear scenario reads best in one piece
fn main() {
    let all: Vec<String> = std::env::args().skip(1).collect();
    let no_compact = all.iter().any(|a| a == "--no-compact");
    let no_prints = all.iter().any(|a| a == "--no-prints");
    let args: Vec<&String> = all.iter().filter(|a| !a.starts_with("--")).collect();
    if args.first().is_some_and(|a| *a == "texts") {
        let dir = PathBuf::from(args.get(1).expect("texts DIR FILES").as_str());
        let files = PathBuf::from(args.get(2).expect("texts DIR FILES").as_str());
        search_texts(&dir, &files);
        return;
    }
    if args.first().is_some_and(|a| *a == "search") {
        let dir = PathBuf::from(args.get(1).expect("search DIR").as_str());
        let db = Database::open(&dir).expect("open the database");
        let stats = db.stats().expect("stats");
        measure(
            &db,
            stats.documents as usize,
            &format!("{} segments", stats.segments),
        );
        return;
    }
    let documents: usize = args
        .first()
        .map_or(100_000, |n| n.parse().expect("DOCUMENTS is a number"));
    let dir = args.get(1).map_or_else(
        || {
            let base = std::env::var("CARGO_TARGET_DIR")
                .map_or_else(|_| PathBuf::from("target"), PathBuf::from);
            base.join(format!("db-scale-{documents}"))
        },
        |dir| PathBuf::from(dir.as_str()),
    );
    let _ = std::fs::remove_dir_all(&dir);
    let params = Params {
        keep_prints: !no_prints,
        ..Params::default()
    };
    let search_size = params.search_size as usize;
    let db = Arc::new(Database::create(&dir, params).expect("create the database"));
    let merger = db.merge_in_background();

    let batch_from = |next: u64| -> Vec<NewDocument> {
        (0..BATCH.min(documents - next as usize))
            .map(|i| {
                let doc = next + i as u64;
                NewDocument {
                    meta: DocumentMeta {
                        title: format!("synthetic document {doc}"),
                        location: format!("https://example.org/documents/{doc}.pdf"),
                        email: "owner@example.org".to_owned(),
                        size: 30_000,
                    },
                    print: DocumentPrint::from_hashes(document_print(doc, search_size)),
                }
            })
            .collect()
    };
    // Wall time counts only the database's calls; CPU time is the whole
    // process's (merges run on their own thread) less what making the
    // synthetic prints costs, measured by making them once more afterwards.
    let mut ingest = 0.0;
    let cpu_start = cpu_seconds();
    let mut next = 0u64;
    while (next as usize) < documents {
        let batch = batch_from(next);
        next += batch.len() as u64;
        let start = Instant::now();
        db.add(batch).expect("add a batch");
        ingest += start.elapsed().as_secs_f64();
    }
    let start = Instant::now();
    db.flush().expect("flush");
    merger.finish().expect("background merges");
    db.merge().expect("merge");
    ingest += start.elapsed().as_secs_f64();
    let cpu_end = cpu_seconds();
    let mut next = 0u64;
    while (next as usize) < documents {
        next += batch_from(next).len() as u64;
    }
    let ingest_cpu = match (cpu_start, cpu_end, cpu_seconds()) {
        (Some(a), Some(b), Some(c)) => (b - a) - (c - b),
        _ => f64::NAN,
    };
    let stats = db.stats().expect("stats");
    let segments_after_ingest = stats.segments;

    let per_doc = |bytes: u64| bytes as f64 / documents as f64;
    println!(
        "documents: {documents} (prints of {search_size} hashes, n = 100 stored, {}-bit keys)",
        db.params().hash_bits
    );
    println!(
        "ingest: {ingest:.1} s including flushes and merges = {:.0} documents/s; \
         CPU {ingest_cpu:.1} s = {:.0} documents per CPU-second",
        documents as f64 / ingest,
        documents as f64 / ingest_cpu
    );
    println!(
        "hot postings: {} segments, {} bytes = {:.1} bytes/document",
        stats.segments,
        stats.segment_bytes,
        per_doc(stats.segment_bytes)
    );
    let prints_in_files = apparent_bytes(&dir, Some("prints"));
    println!(
        "catalogue file (records, staging): {} bytes = {:.1} bytes/document",
        stats.catalog_bytes,
        per_doc(stats.catalog_bytes),
    );
    println!(
        "kept prints (cold print files, for rotate): {prints_in_files} bytes = {:.1} bytes/document",
        per_doc(prints_in_files)
    );
    let db = Arc::try_unwrap(db)
        .ok()
        .expect("no other owner once the merger has finished");
    let (whole, db) = closed_directory_bytes(db, &dir);
    println!(
        "whole directory (closed, as du -sb): {whole} bytes = {:.1} bytes/document",
        per_doc(whole)
    );
    measure(
        &db,
        documents,
        &format!("{segments_after_ingest} segments after ingest"),
    );
    if stats.segments > 1 && !no_compact {
        let t = Instant::now();
        db.compact().expect("compact");
        println!(
            "compaction into one segment: {:.1} s",
            t.elapsed().as_secs_f64()
        );
        let stats = db.stats().expect("stats");
        let (whole, db) = closed_directory_bytes(db, &dir);
        println!(
            "hot postings after compaction: {} bytes = {:.1} bytes/document; \
             whole directory (closed, as du -sb) {:.1} bytes/document",
            stats.segment_bytes,
            per_doc(stats.segment_bytes),
            per_doc(whole)
        );
        measure(&db, documents, "1 segment");
    }
}
