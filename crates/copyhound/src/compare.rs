//! `copyhound compare`: find the pairs of submissions that share code or
//! text, with the exact fragments they share.
//!
//! Paths are walked into units ([`units`]), every file is loaded through
//! the normalisation front door and fingerprinted in parallel, and the
//! batch goes to `copyhound_index::compare`; the result is printed as a
//! table and written as JSON, CSV and a self-contained HTML page on
//! request. A file that cannot be read is reported and left out; it never
//! stops the run.

mod progress;
mod units;

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Args;
use copyhound_fingerprint::KGramHasher;
use copyhound_index::{
    BaseCode, CompareOptions, DEFAULT_MAX_PAIRS, Document, LineIndex, MaxOccurrences, Role, Unit,
    compare_with_progress,
};
use copyhound_normalize::{LoadError, LoadOptions, LoadedDocument};
use copyhound_report::{
    DEFAULT_HTML_MAX_PAIRS, HtmlOptions, Parameters, Problem, Report, ReportInput, Tool, write_csv,
    write_html, write_json, write_table,
};
use rayon::prelude::*;
use regex::Regex;

use crate::input::{FrontEndArgs, load};
use crate::selection::SelectionArgs;
use progress::Bar;
use units::{PlannedFile, PlannedUnit, UnitMode, WalkFilter, make_names_unique, plan_units, walk};

/// Arguments of `copyhound compare`.
#[derive(Debug, Args)]
#[command(about = "Find the pairs of submissions that share code or text")]
pub struct CompareArgs {
    /// Submissions: files, or directories of them. A unit is named by its
    /// path relative to the PATH it came from; units that would share a
    /// name (`a/x.py`, `b/x.py`) are prefixed by the end of their PATH.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Earlier submissions: compared with the new ones, never with each
    /// other. Repeatable.
    #[arg(long, value_name = "PATH")]
    old: Vec<PathBuf>,
    /// Starter code given to everyone: its k-grams never count as shared,
    /// even where a submission edited the template. Repeatable.
    #[arg(long, value_name = "PATH")]
    base: Vec<PathBuf>,
    /// What one unit of comparison is.
    #[arg(long, value_enum, default_value_t = UnitMode::default())]
    unit: UnitMode,
    /// Only files matching this glob (e.g. `*.py`). Repeatable.
    #[arg(long, value_name = "GLOB")]
    include: Vec<String>,
    /// Never files matching this glob. Repeatable.
    #[arg(long, value_name = "GLOB")]
    exclude: Vec<String>,
    /// Do not honour .gitignore and .ignore files.
    #[arg(long)]
    no_ignore: bool,
    /// A regular expression over unit paths; units with the same match
    /// (its first capture group, if it has one) are by the same author or
    /// team and are never paired.
    #[arg(long, value_name = "REGEX")]
    group: Option<String>,
    /// Ignore fingerprints found in more than N units, or in more than a
    /// share of them (`0.2` or `20%`).
    #[arg(short = 'm', long, value_name = "N|SHARE", value_parser = parse_max_occurrences)]
    max_occurrences: Option<MaxOccurrences>,
    /// Pairs sharing fewer distinct fingerprints are not scored.
    #[arg(long, default_value_t = 1, value_name = "N")]
    min_shared: usize,
    /// Shared runs shorter than N symbols (tokens of code, characters of
    /// text) are neither reported nor counted in the similarity. k is the
    /// floor, and the default.
    #[arg(long, default_value_t = 0, value_name = "N")]
    min_fragment: usize,
    /// Report fragments that follow each other on both sides, with gaps of
    /// at most N symbols, as one passage (JSON `passages`); the similarity
    /// still counts only the exactly matching symbols. Default: 2k (on the
    /// PAN text set it joins every noisy copied passage back into one).
    #[arg(long, value_name = "N")]
    merge_gap: Option<usize>,
    /// How shared symbols count in the similarity: `rarity` weighs each
    /// symbol by how few units of the batch hold its fingerprints, so code
    /// many submissions share counts less; `flat` counts all alike.
    #[arg(long, value_enum, default_value_t = Weighting::Rarity)]
    weighting: Weighting,
    /// Score at most this many pairs (those sharing most fingerprints).
    #[arg(long, default_value_t = DEFAULT_MAX_PAIRS, value_name = "N")]
    max_pairs: usize,
    /// Rows of the table printed on stdout.
    #[arg(long, default_value_t = 20, value_name = "N")]
    top: usize,
    /// Write the full report as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write one row per pair as CSV to FILE.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Write a self-contained HTML page to FILE: pair list, histogram,
    /// clusters and the fragments of each pair side by side.
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Pairs the HTML page embeds (the most similar), or `all`; the page
    /// says when it leaves pairs out. Large values make a large page.
    #[arg(long, default_value_t = DEFAULT_HTML_MAX_PAIRS, value_name = "N|all", value_parser = parse_report_pairs)]
    report_pairs: usize,
    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
    #[command(flatten)]
    selection: SelectionArgs,
    #[command(flatten)]
    front_end: FrontEndArgs,
}

fn parse_report_pairs(value: &str) -> Result<usize, String> {
    match value {
        "all" => Ok(usize::MAX),
        n => match n.parse() {
            Ok(0) | Err(_) => Err("expected a positive number of pairs, or `all`".into()),
            Ok(n) => Ok(n),
        },
    }
}

fn parse_max_occurrences(value: &str) -> Result<MaxOccurrences, String> {
    value
        .parse()
        .map_err(|e: copyhound_index::CompareError| e.to_string())
}

/// How shared symbols count in the similarity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Weighting {
    /// By rarity in the batch (inverse document frequency).
    Rarity,
    /// Every symbol alike.
    Flat,
}

/// A planned unit and whether it is new or old.
type PlannedRole = (PlannedUnit, Role);

/// Who a loaded file belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Owner {
    Unit(usize),
    Base,
}

/// Runs `copyhound compare`.
pub fn run(args: CompareArgs) -> Result<ExitCode> {
    let bar = Bar::new(args.quiet);
    let batch = load_batch(&args, &bar)?;
    let options = CompareOptions {
        max_occurrences: args.max_occurrences.unwrap_or_default(),
        min_shared: args.min_shared,
        max_pairs: args.max_pairs,
        min_fragment: args.min_fragment,
        rarity_weighting: args.weighting == Weighting::Rarity,
        ..CompareOptions::new(batch.hasher.clone())
    };
    let comparison = compare_with_progress(&batch.units, &batch.base, &options, &bar)?;
    bar.finish();

    let parameters = Parameters {
        language: Some(batch.family.to_string()),
        k: batch.hasher.k(),
        window: batch.window,
        seed: args.selection.seed,
        selector: batch.selector.to_string(),
        max_occurrences: options.max_occurrences.to_string(),
        base: args.base.iter().map(|p| p.display().to_string()).collect(),
        min_shared: options.min_shared,
        max_pairs: options.max_pairs,
        min_fragment: options.min_fragment.max(batch.hasher.k()),
        weighting: match args.weighting {
            Weighting::Rarity => "rarity",
            Weighting::Flat => "flat",
        }
        .into(),
        merge_gap: args.merge_gap.unwrap_or(2 * batch.hasher.k()),
    };
    let tool = Tool {
        name: env!("CARGO_PKG_NAME").into(),
        version: env!("CARGO_PKG_VERSION").into(),
    };
    let report = Report::build(ReportInput {
        tool: &tool,
        parameters: &parameters,
        units: &batch.units,
        roots: &batch.roots,
        comparison: &comparison,
        problems: &batch.problems,
        pair_limit: None,
    });
    if let Some(path) = args.json {
        write_to(&path, |out| write_json(&report, out))?;
    }
    if let Some(path) = args.csv {
        write_to(&path, |out| write_csv(&report, out))?;
    }
    if let Some(path) = args.report {
        let options = args.front_end.load_options()?;
        let source = |unit, document| reload_text(&report, &options, unit, document);
        let html_options = HtmlOptions {
            max_pairs: args.report_pairs,
            ..HtmlOptions::default()
        };
        write_to(&path, |out| write_html(&report, source, &html_options, out))?;
    }
    write_table(&report, args.top, io::stdout().lock()).context("cannot write to stdout")?;
    Ok(ExitCode::SUCCESS)
}

/// The loaded, fingerprinted input of a comparison.
struct Batch {
    units: Vec<Unit>,
    /// The input path of each unit.
    roots: Vec<String>,
    base: BaseCode,
    /// `text` or the language of the code.
    family: &'static str,
    hasher: KGramHasher,
    window: usize,
    selector: &'static str,
    /// What was left out, and why.
    problems: Vec<Problem>,
}

/// Walks, loads and fingerprints every file named by `args`.
fn load_batch(args: &CompareArgs, bar: &Bar) -> Result<Batch> {
    let group = args
        .group
        .as_deref()
        .map(Regex::new)
        .transpose()
        .context("invalid --group pattern")?;
    let load_options = args.front_end.load_options()?;
    let (plans, base_files) = plan_batch(args)?;
    let jobs: Vec<(Owner, &PlannedFile)> = plans
        .iter()
        .enumerate()
        .flat_map(|(i, (plan, _))| plan.files.iter().map(move |f| (Owner::Unit(i), f)))
        .chain(base_files.iter().map(|f| (Owner::Base, f)))
        .collect();

    bar.begin("loading", jobs.len() as u64);
    let loaded: Vec<Result<LoadedDocument, LoadError>> = jobs
        .par_iter()
        .map(|(_, file)| {
            let result = load(&file.path, &load_options);
            bar.step();
            result
        })
        .collect();
    let Some(family) = batch_family(&jobs, &loaded) else {
        bar.finish();
        for error in loaded.iter().filter_map(|r| r.as_ref().err()) {
            eprintln!("copyhound: warning: {error}");
        }
        bail!(
            "nothing to compare: no readable file in {}",
            list_paths(&args.paths)
        );
    };
    let resolved = args.selection.resolve(family != "text");
    let hasher = args.selection.hasher(resolved);
    let selector = args.selection.selector(resolved);

    // Keep the files of the batch's family; everything else is a problem.
    let mut problems: Vec<Problem> = Vec::new();
    let mut kept: Vec<(Owner, &PlannedFile, LoadedDocument)> = Vec::new();
    for ((owner, file), result) in jobs.iter().zip(loaded) {
        match result {
            Err(error) => problems.push(problem(file, error.to_string())),
            Ok(doc) if family_of(&doc) != family => problems.push(problem(
                file,
                format!(
                    "skipped: read as {}, but the batch is {family}; use --lang to read every file as one language",
                    doc.kind
                ),
            )),
            Ok(doc) => {
                if !args.quiet {
                    for warning in &doc.warnings {
                        eprintln!("copyhound: warning: {}: {warning}", file.path.display());
                    }
                }
                kept.push((*owner, file, doc));
            }
        }
    }
    bar.begin("hashing", kept.len() as u64);
    let fingerprinted: Vec<(Owner, Document)> = kept
        .into_par_iter()
        .map(|(owner, file, loaded)| {
            let document = Document::fingerprinted(&file.name, loaded.doc, &hasher, &*selector)
                .with_lines(LineIndex::new(loaded.text.as_bytes()));
            bar.step();
            (owner, document)
        })
        .collect();
    let mut documents: Vec<Vec<Document>> = plans.iter().map(|_| Vec::new()).collect();
    let mut base_documents = Vec::new();
    for (owner, document) in fingerprinted {
        match owner {
            Owner::Unit(i) => documents[i].push(document),
            Owner::Base => base_documents.push(document.normalized),
        }
    }

    let (units, roots) = assemble_units(plans, documents, group.as_ref(), &mut problems);
    for p in &problems {
        eprintln!("copyhound: warning: {}", p.message);
    }
    let new_units = units.iter().filter(|u| u.role == Role::New).count();
    if units.len() < 2 || new_units == 0 {
        bar.finish();
        bail!(
            "nothing to compare: {} unit(s), {new_units} of them new, found in {}; need two units, at least one new (check the paths, --include/--exclude and .gitignore)",
            units.len(),
            list_paths(&args.paths)
        );
    }
    Ok(Batch {
        units,
        roots,
        base: BaseCode::new(&hasher, &base_documents),
        family,
        hasher,
        window: resolved.w,
        selector: selector.name(),
        problems,
    })
}

/// Units from their plans and loaded documents; a unit none of whose
/// files loaded is left out.
fn assemble_units(
    plans: Vec<PlannedRole>,
    documents: Vec<Vec<Document>>,
    group: Option<&Regex>,
    problems: &mut Vec<Problem>,
) -> (Vec<Unit>, Vec<String>) {
    let mut units = Vec::new();
    let mut roots = Vec::new();
    for ((plan, role), docs) in plans.into_iter().zip(documents) {
        if docs.is_empty() {
            if plan.files.len() > 1 {
                problems.push(Problem {
                    path: unit_folder(&plan).display().to_string(),
                    message: "skipped: none of its files could be compared".into(),
                });
            }
            continue;
        }
        let mut unit = Unit::new(plan.name, docs).with_role(role);
        if let Some(key) = group.and_then(|re| group_key(re, &unit.name)) {
            unit = unit.with_group(key);
        }
        units.push(unit);
        roots.push(plan.root);
    }
    (units, roots)
}

/// Where the files of a multi-file unit are: its name may carry a prefix
/// (see [`make_names_unique`]), its files' names never do.
fn unit_folder(plan: &PlannedUnit) -> PathBuf {
    let first = plan.files.first().map_or("", |f| f.name.as_str());
    Path::new(&plan.root).join(first.split('/').next().unwrap_or_default())
}

/// The units named by the new and old paths, and the base files.
fn plan_batch(args: &CompareArgs) -> Result<(Vec<PlannedRole>, Vec<PlannedFile>)> {
    let filter = WalkFilter {
        include: args.include.clone(),
        exclude: args.exclude.clone(),
        honour_ignore_files: !args.no_ignore,
    };
    let mut plans = Vec::new();
    for (paths, role) in [(&args.paths, Role::New), (&args.old, Role::Old)] {
        for path in paths {
            plans.extend(
                plan_units(path, args.unit, &filter)?
                    .into_iter()
                    .map(|u| (u, role)),
            );
        }
    }
    make_names_unique(&mut plans.iter_mut().map(|(plan, _)| plan).collect::<Vec<_>>());
    let mut base_files = Vec::new();
    for path in &args.base {
        base_files.extend(walk(path, &filter)?);
    }
    Ok((plans, base_files))
}

/// The symbol family of a loaded file: code of one language, or text
/// (plain, HTML, PDF and DOCX all become the same character symbols).
fn family_of(doc: &LoadedDocument) -> &'static str {
    doc.kind
        .language()
        .map_or("text", |language| language.name())
}

/// The family most submission files have (ties: the first by name), or
/// `None` when no file could be loaded.
fn batch_family(
    jobs: &[(Owner, &PlannedFile)],
    loaded: &[Result<LoadedDocument, LoadError>],
) -> Option<&'static str> {
    let mut counts: BTreeMap<&'static str, usize> = BTreeMap::new();
    for ((owner, _), result) in jobs.iter().zip(loaded) {
        if let (Owner::Unit(_), Ok(doc)) = (owner, result) {
            *counts.entry(family_of(doc)).or_default() += 1;
        }
    }
    let most = counts.values().copied().max()?;
    counts
        .into_iter()
        .find(|&(_, n)| n == most)
        .map(|(family, _)| family)
}

fn problem(file: &PlannedFile, message: String) -> Problem {
    let path = file.path.display().to_string();
    // Loader errors already start with the path; say it once.
    let message = if message.starts_with(&path) {
        message
    } else {
        format!("{path}: {message}")
    };
    Problem { path, message }
}

/// The group of a unit: the first capture group of the pattern's match,
/// or the whole match.
fn group_key(pattern: &Regex, name: &str) -> Option<String> {
    let captures = pattern.captures(name)?;
    let key = captures.get(1).or_else(|| captures.get(0))?;
    Some(key.as_str().to_string())
}

fn list_paths(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The text a document's fragments index into, loaded again for the HTML
/// report: the batch does not keep every text in memory, and the page
/// needs only those of its pairs.
fn reload_text(
    report: &Report,
    options: &LoadOptions,
    unit: usize,
    document: usize,
) -> Option<String> {
    let unit = &report.units[unit];
    // Document paths are relative to the unit's input path, unless that
    // path is the file itself.
    let root = Path::new(&unit.root);
    let path = if root.is_file() {
        root.to_path_buf()
    } else {
        root.join(&unit.documents[document].path)
    };
    load(&path, options).ok().map(|loaded| loaded.text)
}

fn write_to(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> Result<(), copyhound_report::ReportError>,
) -> Result<()> {
    let file = File::create(path).with_context(|| format!("{}: cannot create", path.display()))?;
    let mut out = BufWriter::new(file);
    write(&mut out).with_context(|| format!("{}: cannot write the report", path.display()))?;
    out.flush()
        .with_context(|| format!("{}: cannot write the report", path.display()))
}
