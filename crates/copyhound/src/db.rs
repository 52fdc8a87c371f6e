//! `copyhound db …`: a persistent database of registered documents (Koala
//! fingerprints by default, or winnowed ones) that new documents are
//! searched against.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand, ValueEnum};
use copyhound_db::{
    DEFAULT_ROTATION_BATCH, Database, DocumentMeta, DocumentPrint, DocumentRecord, MatchBucket,
    Mode, NewDocument, Params, RotationOptions, SearchMatch, SearchOptions, SearchReport,
    SharedPassage, check,
};
use copyhound_normalize::{
    KindChoice, LoadOptions, LoadedDocument, TextMode, TextOptions, load_file as load,
};
use copyhound_pipeline::{WalkFilter, walk};
use copyhound_report::ProblemKind;
use serde::Serialize;

/// The `db` subcommands.
#[derive(Debug, Subcommand)]
pub enum DbCommand {
    /// Create a database.
    Init(InitArgs),
    /// Register documents (files, or directories walked recursively; hidden
    /// files and what `.gitignore` leaves out are skipped, as by `compare`).
    Add(AddArgs),
    /// Search a document: ranked matches with match ratio and hits.
    Search(SearchArgs),
    /// Unregister documents by id.
    Remove(RemoveArgs),
    /// Counts and sizes.
    Stats(StatsArgs),
    /// Re-select every stored fingerprint under a new secret (Koala §3.3).
    ///
    /// By default (`--keep-prints false` at `init`) every registered file is
    /// read again from its stored path and normalised as `db add` did; its
    /// new selection is taken only if it still holds every key it stores now.
    /// Files that are gone, changed size or changed text keep their current
    /// selection and are listed (id, title, location, e-mail, reason); the
    /// exit code is then 1. A database made with `--keep-prints true` rotates
    /// from its kept prints and reads no file.
    ///
    /// The rotation commits 4,096 documents at a time (progress on stderr);
    /// searches find every document meanwhile. An interrupted rotation is
    /// resumed, under the same secret, by the next `db rotate`.
    Rotate(RotateArgs),
    /// Read every file of the database and report damage.
    Check(DatabaseArg),
}

/// A database directory.
#[derive(Debug, Args)]
pub struct DatabaseArg {
    /// The database directory.
    db: PathBuf,
}

/// Arguments of `db rotate`.
#[derive(Debug, Args)]
pub struct RotateArgs {
    /// The database directory.
    db: PathBuf,
    /// Documents per transaction (for tests: small batches make a rotation
    /// long enough to interrupt).
    #[arg(long, hide = true, default_value_t = DEFAULT_ROTATION_BATCH)]
    batch: usize,
}

/// Fingerprint kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ModeName {
    /// Fixed-size fingerprints: N = 1000 searched, n = 100 stored.
    Koala,
    /// Winnowed fingerprints of variable size: finds small parts of large
    /// documents.
    Winnow,
}

/// Text normalisations (stored in the database, used by every command).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum FrontEnd {
    /// Letters and digits, case-folded.
    Chars,
    /// One symbol per word.
    Words,
    /// Consonants only (Koala §5), for text from lossy conversions.
    Consonants,
}

/// Arguments of `db init`.
#[derive(Debug, Args)]
pub struct InitArgs {
    /// The database directory to create.
    db: PathBuf,
    /// Koala (fixed-size) or winnowing (variable-size) fingerprints.
    #[arg(long, value_enum, default_value_t = ModeName::Koala)]
    mode: ModeName,
    /// Secret key of the hashes and ranks; random if not given.
    #[arg(long)]
    seed: Option<u64>,
    /// How text is normalised.
    #[arg(long, value_enum, default_value_t = FrontEnd::Chars)]
    text_mode: FrontEnd,
    /// k-gram length in symbols [default: 20].
    #[arg(long)]
    k: Option<u32>,
    /// Koala search fingerprint size N [default: 1000].
    #[arg(long)]
    search_size: Option<u32>,
    /// Koala stored fingerprint size n [default: 100].
    #[arg(long)]
    stored_size: Option<u32>,
    /// Length of the prefix whose frequency ranks k-grams [default: 5].
    #[arg(long)]
    prefix: Option<u32>,
    /// Winnowing window in k-grams [default: 30].
    #[arg(long)]
    window: Option<u32>,
    /// Leading bytes not fingerprinted, Koala mode [default: 1000].
    #[arg(long)]
    prologue_bytes: Option<u32>,
    /// A hash in this many documents is common [default: 4].
    #[arg(long)]
    common_docs: Option<u32>,
    /// At most this many common hashes ignored per search [default: 10].
    #[arg(long)]
    max_ignored: Option<u32>,
    /// Hash bits kept in the postings [default: 27; 28 halves chance hits, +12.5 bytes/document].
    #[arg(long)]
    hash_bits: Option<u32>,
    /// Staged documents that trigger writing a segment [default: 4096].
    #[arg(long)]
    flush_docs: Option<u32>,
    /// Segments of one size that trigger a merge [default: 4].
    #[arg(long)]
    merge_factor: Option<u32>,
    #[arg(long)]
    max_segments: Option<u32>,
    /// Keep each document's search set (about 2.3 KB per document) so that
    /// `db rotate` needs no document; by default `db rotate` reads every
    /// registered file again instead, and the database costs about 290
    /// bytes per document.
    #[arg(long, action = clap::ArgAction::Set, default_value_t = false)]
    keep_prints: bool,
}

/// Arguments of `db add`.
#[derive(Debug, Args)]
pub struct AddArgs {
    /// The database directory.
    db: PathBuf,
    /// Files or directories to register.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Where the document can be fetched (stored instead of its path).
    #[arg(long)]
    url: Option<String>,
    /// A contact address for the document.
    #[arg(long, default_value = "")]
    email: String,
    /// A title (default: the file name).
    #[arg(long)]
    title: Option<String>,
    /// Documents per transaction: each batch is durable when it is reported.
    #[arg(long, default_value_t = 256)]
    batch: usize,
    /// Do not honour .gitignore and .ignore files.
    #[arg(long)]
    no_ignore: bool,
    /// Follow symbolic links (each real file is registered once). Without
    /// it, each link is said on stderr and not read.
    #[arg(long)]
    follow_links: bool,
}

/// Arguments of `db search`.
#[derive(Debug, Args)]
pub struct SearchArgs {
    /// The database directory.
    db: PathBuf,
    /// The document to search for.
    file: PathBuf,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// At most this many matches.
    #[arg(long, default_value_t = 20)]
    limit: usize,
    /// Only matches with at least this many hits.
    #[arg(long, default_value_t = 1)]
    min_hits: u32,
    /// Show matching fragments for this many of the best matches whose
    /// registered file is still readable.
    #[arg(long, default_value_t = 3)]
    fragments: usize,
}

/// Arguments of `db remove`.
#[derive(Debug, Args)]
pub struct RemoveArgs {
    /// The database directory.
    db: PathBuf,
    /// Ids of the documents to unregister.
    #[arg(required = true)]
    ids: Vec<u32>,
}

/// Arguments of `db stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    /// The database directory.
    db: PathBuf,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Runs one `db` subcommand.
pub fn run(cmd: DbCommand) -> Result<ExitCode> {
    match cmd {
        DbCommand::Init(args) => init(&args),
        DbCommand::Add(args) => add(&args),
        DbCommand::Search(args) => search(&args),
        DbCommand::Remove(args) => remove(&args),
        DbCommand::Stats(args) => stats(&args),
        DbCommand::Rotate(args) => rotate(&args),
        DbCommand::Check(args) => check_command(&args.db),
    }
}

fn init(args: &InitArgs) -> Result<ExitCode> {
    let mut params = match args.mode {
        ModeName::Koala => Params::default(),
        ModeName::Winnow => Params::winnow(),
    };
    params.seed = match args.seed {
        Some(seed) => seed,
        None => random_seed()?,
    };
    args.text_mode
        .to_possible_value()
        .expect("named")
        .get_name()
        .clone_into(&mut params.front_end);
    let numeric = [
        ("k", args.k),
        ("search_size", args.search_size),
        ("stored_size", args.stored_size),
        ("prefix", args.prefix),
        ("window", args.window),
        ("prologue_bytes", args.prologue_bytes),
        ("common_docs", args.common_docs),
        ("max_ignored", args.max_ignored),
        ("hash_bits", args.hash_bits),
        ("flush_docs", args.flush_docs),
        ("merge_factor", args.merge_factor),
        ("max_segments", args.max_segments),
    ];
    params.keep_prints = args.keep_prints;
    for (name, value) in numeric {
        if let Some(value) = value {
            params.set(name, &value.to_string())?;
        }
    }
    Database::create(&args.db, params.clone())?;
    println!(
        "created {} ({} mode, {} text)",
        args.db.display(),
        params.mode,
        params.front_end
    );
    Ok(ExitCode::SUCCESS)
}

/// Eight bytes from the operating system's random source.
fn random_seed() -> Result<u64> {
    let mut bytes = [0u8; 8];
    let mut source = fs::File::open("/dev/urandom").context("reading /dev/urandom for a seed")?;
    io::Read::read_exact(&mut source, &mut bytes).context("reading /dev/urandom for a seed")?;
    Ok(u64::from_le_bytes(bytes))
}

/// How documents are loaded for a database: its stored front-end, and
/// never as code.
fn load_options(params: &Params) -> Result<LoadOptions> {
    let mode = match params.front_end.as_str() {
        "chars" => TextMode::Chars,
        "words" => TextMode::Words,
        "consonants" => TextMode::Consonants,
        other => bail!("the database uses an unknown front-end {other:?}"),
    };
    Ok(LoadOptions {
        kind: KindChoice::Text,
        text: TextOptions::with_mode(mode),
        ..LoadOptions::default()
    })
}

/// Files under `paths`, directories walked in name order by the walker of
/// `compare` (hidden files and what `.gitignore` leaves out skipped, links
/// not followed unless asked). What the walk could not list or did not
/// follow is said on stderr; the result tells whether something could not
/// be read.
fn collect_files(args: &AddArgs) -> (Vec<PathBuf>, bool) {
    let filter = WalkFilter {
        honour_ignore_files: !args.no_ignore,
        follow_links: args.follow_links,
        ..WalkFilter::default()
    };
    let mut files = Vec::new();
    let mut failed = false;
    for path in &args.paths {
        match walk(path, &filter, &|_| ()) {
            Ok(walked) => {
                for problem in walked.problems {
                    eprintln!("copyhound: warning: {}", problem.message);
                    failed |= problem.kind == ProblemKind::Unreadable;
                }
                files.extend(walked.files.into_iter().map(|file| file.path));
            }
            Err(error) => {
                eprintln!("copyhound: {error}");
                failed = true;
            }
        }
    }
    (files, failed)
}

fn add(args: &AddArgs) -> Result<ExitCode> {
    let mut db = Database::open(&args.db)?;
    let options = load_options(db.params())?;
    let (files, mut failed) = collect_files(args);
    let stdout = io::stdout();
    // Loading, normalising and selecting the next batch (on every core)
    // overlaps with committing this one: a producer thread prepares batches
    // one ahead of the writer.
    std::thread::scope(|scope| -> Result<()> {
        let (sender, receiver) = std::sync::mpsc::sync_channel(1);
        let (db, options, files) = (&db, &options, &files);
        scope.spawn(move || {
            for chunk in files.chunks(args.batch.max(1)) {
                let prepared = prepare_files(db, args, options, chunk);
                if sender.send((chunk, prepared)).is_err() {
                    break;
                }
            }
        });
        for (chunk, prepared) in receiver {
            let mut batch = Vec::new();
            let mut names = Vec::new();
            for (path, outcome) in chunk.iter().zip(prepared) {
                match outcome {
                    Ok((document, warnings)) => {
                        for warning in warnings {
                            eprintln!("copyhound: warning: {}: {warning}", path.display());
                        }
                        batch.push(document);
                        names.push(path.display().to_string());
                    }
                    Err(error) => {
                        eprintln!("copyhound: {error}");
                        failed = true;
                    }
                }
            }
            if batch.is_empty() {
                continue;
            }
            let ids = db.add(batch)?;
            let mut out = stdout.lock();
            for (id, name) in ids.iter().zip(names) {
                writeln!(out, "added {id}\t{name}")?;
            }
            out.flush()?;
        }
        Ok(())
    })?;
    // The staging area is the crash-safe log of the documents just added;
    // once they are all in, a segment holds their postings in less space
    // and the catalogue file can give its staging pages back.
    if db.flush()? {
        db.merge()?;
    }
    db.compact_catalog()?;
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// A file ready to register (with its load warnings), or why it is not.
type PreparedFile = std::result::Result<(NewDocument, Vec<String>), String>;

/// Loads, normalises and fingerprints `files` on every core, in order.
fn prepare_files(
    db: &Database,
    args: &AddArgs,
    options: &LoadOptions,
    files: &[PathBuf],
) -> Vec<PreparedFile> {
    parallel_map(files, |path| {
        let loaded = load(path, options).map_err(|e| e.to_string())?;
        let warnings = loaded.warnings.iter().map(ToString::to_string).collect();
        Ok((new_document(db, args, path, &loaded), warnings))
    })
}

/// `f` over `items` on every core, results in order. Documents differ in
/// size, so threads take the next item as they finish.
fn parallel_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(items.len());
    if threads <= 1 {
        return items.iter().map(f).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break };
                        mine.push((i, f(item)));
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a worker thread panicked"))
            .collect()
    });
    done.sort_unstable_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, result)| result).collect()
}

fn new_document(
    db: &Database,
    args: &AddArgs,
    path: &Path,
    loaded: &LoadedDocument,
) -> NewDocument {
    let location = match &args.url {
        Some(url) => url.clone(),
        None => fs::canonicalize(path)
            .unwrap_or_else(|_| path.to_owned())
            .display()
            .to_string(),
    };
    let title = args.title.clone().unwrap_or_else(|| {
        path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
    });
    NewDocument {
        meta: DocumentMeta {
            title,
            location,
            email: args.email.clone(),
            size: fs::metadata(path).map_or(loaded.text.len() as u64, |m| m.len()),
        },
        print: db.fingerprinter().print(&loaded.doc),
    }
}

#[derive(Serialize)]
struct SearchOutput {
    query: String,
    query_hashes: usize,
    ignored_common_hashes: usize,
    distribution: Vec<BucketCount>,
    matches: Vec<MatchOutput>,
}

#[derive(Serialize)]
struct BucketCount {
    range: &'static str,
    documents: u64,
}

#[derive(Serialize)]
struct MatchOutput {
    id: u32,
    title: String,
    location: String,
    email: String,
    ratio: f64,
    query_ratio: f64,
    hits: u32,
    stored: u32,
    fragments: Option<Vec<SharedPassage>>,
}

fn search(args: &SearchArgs) -> Result<ExitCode> {
    let db = Database::open(&args.db)?;
    let options = load_options(db.params())?;
    let query = load(&args.file, &options)?;
    let print = db.fingerprinter().print(&query.doc);
    let report = db.search(
        &print,
        &SearchOptions {
            limit: args.limit,
            min_hits: args.min_hits,
        },
    )?;
    let output = search_output(&db, &options, args, &query, &report);
    let mut out = io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &output)?;
        writeln!(out)?;
    } else {
        print_search(&mut out, &output)?;
    }
    Ok(if report.matches.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn search_output(
    db: &Database,
    options: &LoadOptions,
    args: &SearchArgs,
    query: &LoadedDocument,
    report: &SearchReport,
) -> SearchOutput {
    let matches = report
        .matches
        .iter()
        .enumerate()
        .map(|(rank, m)| MatchOutput {
            id: m.document.id,
            title: m.document.meta.title.clone(),
            location: m.document.meta.location.clone(),
            email: m.document.meta.email.clone(),
            ratio: m.ratio,
            query_ratio: m.query_ratio,
            hits: m.hits,
            stored: m.document.stored,
            fragments: (rank < args.fragments)
                .then(|| fragments(db, options, query, m))
                .flatten(),
        })
        .collect();
    SearchOutput {
        query: args.file.display().to_string(),
        query_hashes: report.query_keys,
        ignored_common_hashes: report.ignored.len(),
        distribution: MatchBucket::ALL
            .iter()
            .zip(report.distribution)
            .map(|(bucket, documents)| BucketCount {
                range: bucket.label(),
                documents,
            })
            .collect(),
        matches,
    }
}

/// The exact shared fragments of the query and a registered document, if
/// its location is a file that can still be read.
fn fragments(
    db: &Database,
    options: &LoadOptions,
    query: &LoadedDocument,
    found: &SearchMatch,
) -> Option<Vec<SharedPassage>> {
    let path = Path::new(&found.document.meta.location);
    if !path.is_file() {
        return None;
    }
    let registered = load(path, options).ok()?;
    Some(db.fingerprinter().shared_passages(
        (&query.doc, &query.text),
        (&registered.doc, &registered.text),
    ))
}

fn print_search(out: &mut impl Write, output: &SearchOutput) -> io::Result<()> {
    writeln!(
        out,
        "{}: {} hashes searched, {} common ones ignored",
        output.query, output.query_hashes, output.ignored_common_hashes
    )?;
    let distribution: Vec<String> = output
        .distribution
        .iter()
        .filter(|b| b.documents > 0)
        .map(|b| format!("{} {}", b.range, b.documents))
        .collect();
    if output.matches.is_empty() {
        return writeln!(out, "no match");
    }
    writeln!(out, "matches by ratio: {}", distribution.join(", "))?;
    writeln!(out, "{:>6} {:>7} {:>9}  document", "id", "ratio", "hits")?;
    for m in &output.matches {
        writeln!(
            out,
            "{:>6} {:>6.1}% {:>4}/{:<4}  {} ({})",
            m.id,
            m.ratio * 100.0,
            m.hits,
            m.stored,
            m.title,
            m.location
        )?;
        for f in m.fragments.iter().flatten() {
            writeln!(
                out,
                "{:>24}query lines {}-{} ~ registered lines {}-{} ({} symbols)",
                "",
                f.query_lines[0],
                f.query_lines[1],
                f.registered_lines[0],
                f.registered_lines[1],
                f.symbols
            )?;
        }
    }
    Ok(())
}

fn rotate(args: &RotateArgs) -> Result<ExitCode> {
    let mut db = Database::open(&args.db)?;
    let progress = |done: u64, end: u64| {
        eprintln!("rotated through document {done} of {end}");
    };
    let rotation = RotationOptions {
        batch_docs: args.batch.max(1),
        max_batches: None,
        progress: Some(&progress),
    };
    let report = if db.params().keep_prints || db.params().mode != Mode::Koala {
        db.rotate_with_options(&rotation)?
    } else {
        let options = load_options(db.params())?;
        db.rotate_from_documents_with_options(
            &|records| parallel_map(records, |record| refetch(&db, &options, record)),
            &rotation,
        )?
    };
    // Every record was rewritten: give the old pages back, as `db add` does.
    db.compact_catalog()?;
    let mut out = io::stdout().lock();
    if report.resumed {
        writeln!(out, "resumed the unfinished rotation {}", report.epoch)?;
    }
    writeln!(
        out,
        "rotation {}: re-selected the stored fingerprints of {} documents",
        report.epoch, report.rotated
    )?;
    if report.unrotated.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "{} documents keep their previous selection:\nid\ttitle\tlocation\te-mail\treason",
        report.unrotated.len()
    )?;
    for kept in &report.unrotated {
        let meta = &kept.record.meta;
        writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}",
            kept.record.id, meta.title, meta.location, meta.email, kept.reason
        )?;
    }
    Ok(ExitCode::from(1))
}

/// A registered document's print, computed again from its file as `db add`
/// computed it, provided the file still has the size it had then.
fn refetch(
    db: &Database,
    options: &LoadOptions,
    record: &DocumentRecord,
) -> std::result::Result<DocumentPrint, String> {
    let location = &record.meta.location;
    if location.contains("://") {
        return Err("a URL: only files on this machine are read again".into());
    }
    let path = Path::new(location);
    let size = fs::metadata(path)
        .map_err(|e| format!("cannot read it: {e}"))?
        .len();
    if size != record.meta.size {
        return Err(format!(
            "its size is {size} bytes, {} when it was added",
            record.meta.size
        ));
    }
    let loaded = load(path, options).map_err(|e| e.to_string())?;
    Ok(db.fingerprinter().print(&loaded.doc))
}

fn remove(args: &RemoveArgs) -> Result<ExitCode> {
    let db = Database::open(&args.db)?;
    let mut missing = false;
    for &id in &args.ids {
        if let Some(record) = db.remove(id)? {
            println!("removed {id}\t{}", record.meta.title);
        } else {
            eprintln!("copyhound: no document {id}");
            missing = true;
        }
    }
    Ok(if missing {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

#[derive(Serialize)]
struct StatsOutput {
    mode: String,
    rotation: u64,
    documents: u64,
    staged_documents: u64,
    removed_pending_merge: u64,
    segments: usize,
    postings: u64,
    segment_bytes: u64,
    catalog_bytes: u64,
    print_bytes: u64,
    /// Segment bytes per document: what searches read.
    hot_bytes_per_document: f64,
    /// Catalogue bytes per document: records, staging and kept prints.
    catalog_bytes_per_document: f64,
    /// A rotation stopped before its end (the next `db rotate` resumes
    /// it), or null.
    unfinished_rotation: Option<RotationProgressOutput>,
}

#[derive(Serialize)]
struct RotationProgressOutput {
    epoch: u64,
    done_below: u64,
    end: u64,
}

fn stats(args: &StatsArgs) -> Result<ExitCode> {
    let db = Database::open(&args.db)?;
    let s = db.stats()?;
    let per_doc = |bytes: u64| bytes as f64 / s.documents.max(1) as f64;
    let output = StatsOutput {
        mode: s.mode.name().to_owned(),
        rotation: s.epoch,
        documents: s.documents,
        staged_documents: s.staged_documents,
        removed_pending_merge: s.removed_pending,
        segments: s.segments,
        postings: s.postings,
        segment_bytes: s.segment_bytes,
        catalog_bytes: s.catalog_bytes,
        print_bytes: s.print_bytes,
        hot_bytes_per_document: per_doc(s.segment_bytes),
        catalog_bytes_per_document: per_doc(s.catalog_bytes),
        unfinished_rotation: s.unfinished_rotation.map(|r| RotationProgressOutput {
            epoch: r.epoch,
            done_below: r.done_below,
            end: r.end,
        }),
    };
    let mut out = io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &output)?;
        writeln!(out)?;
    } else {
        let params = db.params();
        writeln!(
            out,
            "mode              {} (rotation {})",
            output.mode, output.rotation
        )?;
        if s.mode == Mode::Koala {
            writeln!(
                out,
                "fingerprints      N = {} searched, n = {} stored, k = {}",
                params.search_size, params.stored_size, params.k
            )?;
        } else {
            writeln!(
                out,
                "fingerprints      winnowing w = {}, k = {}",
                params.window, params.k
            )?;
        }
        writeln!(
            out,
            "documents         {} ({} staged)",
            output.documents, output.staged_documents
        )?;
        writeln!(
            out,
            "segments          {} with {} postings",
            output.segments, output.postings
        )?;
        writeln!(
            out,
            "hot storage       {} bytes ({:.0} per document)",
            output.segment_bytes, output.hot_bytes_per_document
        )?;
        writeln!(
            out,
            "catalogue         {} bytes ({:.0} per document; kept prints {} bytes)",
            output.catalog_bytes, output.catalog_bytes_per_document, output.print_bytes
        )?;
        if let Some(r) = &output.unfinished_rotation {
            writeln!(
                out,
                "rotation          unfinished: to epoch {}, done below document {} of {}; \
                 `db rotate` resumes it",
                r.epoch, r.done_below, r.end
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn check_command(dir: &Path) -> Result<ExitCode> {
    let report = check(dir)?;
    for warning in &report.warnings {
        eprintln!("copyhound: warning: {warning}");
    }
    for problem in &report.problems {
        eprintln!("copyhound: {problem}");
    }
    if report.is_ok() {
        println!(
            "ok: {} documents, {} segments, {} postings",
            report.documents, report.segments, report.postings
        );
        Ok(ExitCode::SUCCESS)
    } else {
        println!("damaged: {} problems", report.problems.len());
        Ok(ExitCode::from(1))
    }
}
