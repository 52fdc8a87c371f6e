//! `copyhound compare`: find the pairs of submissions that share code or
//! text, with the exact fragments they share.
//!
//! Paths are walked into units ([`units`]), every file is loaded through
//! the normalisation front door as soon as the walk finds it, the units
//! are sorted by language family ([`families`]), and each family is
//! fingerprinted with its own defaults and goes to
//! `copyhound_index::compare` on its own; the families' reports are merged
//! into one, printed as a table and written as JSON, CSV and a
//! self-contained HTML page on request. A file that cannot be read is
//! reported and left out; it never stops the run.

mod families;
mod output;
mod progress;
mod units;

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;

use anyhow::{Context, Result, bail};
use clap::Args;
use copyhound_fingerprint::{KGramHasher, NormalizedDocument, Selector};
use copyhound_index::{
    BaseCode, CompareOptions, Comparison, DEFAULT_MAX_PAIRS, Document, LineIndex, MaxOccurrences,
    Role, Unit, compare_with_progress,
};
use copyhound_normalize::{LoadError, LoadOptions, LoadedDocument};
use copyhound_report::{
    DEFAULT_HTML_MAX_PAIRS, DEFAULT_JSON_DETAILED_PAIRS, HtmlOptions, PairDetails, Parameters,
    Problem, Report, ReportInput, Tool, write_csv_of, write_html, write_json_with_details,
    write_table,
};
use rayon::prelude::*;
use regex::Regex;

use crate::input::{FrontEndArgs, load};
use crate::selection::{SelectionArgs, SymbolKind};
use families::{
    FamilyCount, TEXT, comparable_families, describe, family_counts, family_of, unit_families,
};
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
    /// share of them (`0.2` or `20%`); in a batch of several languages,
    /// of the units of their language.
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
    /// Fragments that follow each other on both sides with gaps of at most
    /// N symbols count in the similarity as one stretch, gaps included (a
    /// copy cut up by inserted or edited statements); 0: only exactly
    /// matching symbols count.
    #[arg(long, default_value_t = 0, value_name = "N")]
    score_gap: u32,
    /// Report only passages matching at least N symbols; the fragments of
    /// shorter ones are still listed and still count in the similarity.
    /// Default for text: 100 characters (letters and digits), 20 words or
    /// 60 consonants — stray phrases two texts on one topic share are
    /// shorter, a copied sentence is longer; none for code.
    #[arg(long, value_name = "N")]
    min_passage: Option<usize>,
    /// How shared symbols count in the similarity: `rarity` weighs each
    /// symbol by how few units of the batch hold its fingerprints, so code
    /// many submissions share counts less; `flat` counts all alike.
    #[arg(long, value_enum, default_value_t = Weighting::Rarity)]
    weighting: Weighting,
    /// Score at most this many pairs (those sharing most fingerprints) of
    /// each language.
    #[arg(long, default_value_t = DEFAULT_MAX_PAIRS, value_name = "N")]
    max_pairs: usize,
    /// Rows of the table printed on stdout.
    #[arg(long, default_value_t = 20, value_name = "N")]
    top: usize,
    /// Write the report as JSON to FILE: every pair with its scores, and
    /// the fragments and passages of the `--json-details` most similar.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Pairs the JSON report lists with their fragments and passages (the
    /// most similar), `0` for none or `all`; the others have only their
    /// scores and `fragment_count`. Every pair's fragments can take
    /// gigabytes.
    #[arg(long, default_value_t = DEFAULT_JSON_DETAILED_PAIRS, value_name = "N|all", value_parser = parse_pair_count::<0>)]
    json_details: usize,
    /// Write one row per pair as CSV to FILE.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Write a self-contained HTML page to FILE: pair list, histogram,
    /// clusters and the fragments of each pair side by side.
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Pairs the HTML page embeds (the most similar), or `all`; the page
    /// says when it leaves pairs out. Large values make a large page.
    #[arg(long, default_value_t = DEFAULT_HTML_MAX_PAIRS, value_name = "N|all", value_parser = parse_pair_count::<1>)]
    report_pairs: usize,
    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
    #[command(flatten)]
    selection: SelectionArgs,
    #[command(flatten)]
    front_end: FrontEndArgs,
}

/// A number of pairs of at least `MIN`, or `all` (`usize::MAX`).
fn parse_pair_count<const MIN: usize>(value: &str) -> Result<usize, String> {
    match value {
        "all" => Ok(usize::MAX),
        n => match n.parse() {
            Ok(n) if n >= MIN => Ok(n),
            _ if MIN == 0 => Err("expected a number of pairs, or `all`".into()),
            _ => Err(format!(
                "expected a number of pairs of at least {MIN}, or `all`"
            )),
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
    let tool = Tool {
        name: env!("CARGO_PKG_NAME").into(),
        version: env!("CARGO_PKG_VERSION").into(),
    };
    let mut compared = Vec::with_capacity(batch.families.len());
    for family in &batch.families {
        compared.push(compare_family(&args, family, &bar)?);
    }
    bar.finish();
    let inputs: Vec<ReportInput> = batch
        .families
        .iter()
        .zip(&compared)
        .map(|(family, (comparison, parameters))| ReportInput {
            tool: &tool,
            parameters,
            units: &family.units,
            roots: &family.roots,
            comparison,
            problems: &[],
            pair_limit: None,
        })
        .collect();
    // Fragments are found again only for what an output shows: the JSON
    // as it writes each pair, the HTML page for the pairs it embeds.
    let details = PairDetails::merge(inputs.iter().map(PairDetails::new));
    // The CSV is written straight from the comparisons; without JSON or
    // HTML the report lists only the pairs the table shows.
    let listed = (args.json.is_none() && args.report.is_none()).then_some(args.top);
    let parts = inputs.iter().map(|input| {
        Report::build_without_details(ReportInput {
            pair_limit: listed,
            ..*input
        })
    });
    let mut report = Report::merge(parts.collect()).context("no language to compare")?;
    report.problems = batch.problems;

    if let Some(path) = args.json {
        write_to(&path, |out| {
            write_json_with_details(&report, &details, args.json_details, out)
        })?;
        let (detailed, pairs) = (args.json_details, report.pairs.len());
        if detailed < pairs && !args.quiet {
            let which = match detailed {
                0 => format!("none of the {pairs} pairs"),
                n => format!("only the {n} most similar of {pairs} pairs"),
            };
            eprintln!(
                "copyhound: {}: fragments and passages listed for {which}; --json-details all lists them for every pair",
                path.display()
            );
        }
    }
    if let Some(path) = args.csv {
        write_to(&path, |out| write_csv_of(&inputs, out))?;
    }
    if let Some(path) = args.report {
        let html_options = HtmlOptions {
            max_pairs: args.report_pairs,
            ..HtmlOptions::default()
        };
        report.fill_details(&details, html_options.max_pairs);
        let options = args.front_end.load_options()?;
        let source = |unit, document| reload_text(&report, &options, unit, document);
        write_to(&path, |out| write_html(&report, source, &html_options, out))?;
    }
    write_table(&report, args.top, io::stdout().lock()).context("cannot write to stdout")?;
    // The process ends next, and the OS takes its memory back at once:
    // freeing the units, the index and every pair's paths one allocation
    // at a time cost a small batch as much as writing its CSV.
    std::mem::forget(details);
    std::mem::forget(report);
    std::mem::forget(compared);
    std::mem::forget(batch.families);
    Ok(ExitCode::SUCCESS)
}

/// Compares the units of one language family, with the parameters its
/// report states.
fn compare_family(
    args: &CompareArgs,
    family: &FamilyBatch,
    bar: &Bar,
) -> Result<(Comparison, Parameters)> {
    let options = CompareOptions {
        max_occurrences: args.max_occurrences.unwrap_or_default(),
        min_shared: args.min_shared,
        max_pairs: args.max_pairs,
        min_fragment: args.min_fragment,
        rarity_weighting: args.weighting == Weighting::Rarity,
        score_gap: args.score_gap,
        ..CompareOptions::new(family.settings.hasher.clone())
    };
    let comparison = compare_with_progress(&family.units, &family.base, &options, bar)?;
    let k = family.settings.hasher.k();
    let parameters = Parameters {
        language: Some(family.family.to_string()),
        k,
        window: family.settings.window,
        seed: args.selection.seed,
        selector: family.settings.selector.name().to_string(),
        max_occurrences: options.max_occurrences.to_string(),
        base: args.base.iter().map(|p| p.display().to_string()).collect(),
        min_shared: options.min_shared,
        max_pairs: options.max_pairs,
        min_fragment: options.min_fragment.max(k),
        weighting: match args.weighting {
            Weighting::Rarity => "rarity",
            Weighting::Flat => "flat",
        }
        .into(),
        merge_gap: args.merge_gap.unwrap_or(2 * k),
        min_passage: args.min_passage.unwrap_or_else(|| {
            let is_code = family.family != TEXT;
            args.front_end.symbol_kind(is_code).default_min_passage()
        }),
        languages: Vec::new(),
    };
    Ok((comparison, parameters))
}

/// The loaded, fingerprinted input of a comparison: one batch per
/// language family, most units first.
struct Batch {
    families: Vec<FamilyBatch>,
    /// What was left out, and why.
    problems: Vec<Problem>,
}

/// The units of one language family and how they were fingerprinted.
struct FamilyBatch {
    /// `text` or the language of the code.
    family: &'static str,
    units: Vec<Unit>,
    /// The input path of each unit.
    roots: Vec<String>,
    base: BaseCode,
    settings: FamilySettings,
}

/// How the files of one family are fingerprinted: the defaults of code
/// or text, unless the user chose k, w or the selector.
struct FamilySettings {
    hasher: KGramHasher,
    selector: Box<dyn Selector>,
    window: usize,
}

impl FamilySettings {
    fn new(selection: &SelectionArgs, kind: SymbolKind) -> Self {
        let resolved = selection.resolve(kind);
        Self {
            hasher: selection.hasher(resolved),
            selector: selection.selector(resolved),
            window: resolved.w,
        }
    }
}

/// A loaded file kept for comparison, and its family.
type Kept<'a> = (Owner, &'a PlannedFile, LoadedDocument, &'static str);

/// Walks, loads and fingerprints every file named by `args`, and sorts
/// the units by language family.
fn load_batch(args: &CompareArgs, bar: &Bar) -> Result<Batch> {
    let group = args
        .group
        .as_deref()
        .map(Regex::new)
        .transpose()
        .context("invalid --group pattern")?;
    let load_options = args.front_end.load_options()?;
    let (plans, base_files, loads) = plan_and_load(args, &load_options, bar)?;
    let jobs: Vec<(Owner, &PlannedFile)> = plans
        .iter()
        .enumerate()
        .flat_map(|(i, (plan, _))| plan.files.iter().map(move |f| (Owner::Unit(i), f)))
        .chain(base_files.iter().map(|f| (Owner::Base, f)))
        .collect();
    let loaded = in_job_order(&jobs, loads);

    let unit_families = unit_families(plans.len(), &jobs, &loaded);
    let counts = family_counts(
        plans
            .iter()
            .zip(&unit_families)
            .map(|((_, role), family)| (*role, *family)),
    );
    let families = comparable_families(&counts);
    if families.is_empty() {
        bar.finish();
        for error in loaded.iter().filter_map(|r| r.as_ref().err()) {
            eprintln!("copyhound: warning: {error}");
        }
        let paths = list_paths(&args.paths);
        if counts.is_empty() {
            bail!("nothing to compare: no readable file in {paths}");
        }
        bail!(
            "nothing to compare in {paths} ({}): each language is compared on its own and needs two units, at least one new (check the paths, --include/--exclude and .gitignore, or use --lang to read every file as one language)",
            describe(&counts)
        );
    }
    let mut problems = lone_units(&plans, &unit_families, &counts);
    let kept = keep_files(
        &plans,
        &unit_families,
        &families,
        jobs.iter().zip(loaded),
        args.quiet,
        &mut problems,
    );
    for p in &problems {
        eprintln!("copyhound: warning: {}", p.message);
    }
    let settings: BTreeMap<&'static str, FamilySettings> = families
        .iter()
        .map(|&family| {
            let kind = args.front_end.symbol_kind(family != TEXT);
            (family, FamilySettings::new(&args.selection, kind))
        })
        .collect();
    let fingerprinted = fingerprint(kept, &settings, plans.len(), bar);
    let families = into_families(
        plans,
        &unit_families,
        fingerprinted,
        settings,
        group.as_ref(),
    );
    Ok(Batch { families, problems })
}

/// What a file's loading gave.
type LoadResult = Result<LoadedDocument, LoadError>;

/// The units and base files `args` name, and the loading of every file they
/// list, keyed by path (twice for a file listed twice).
type PlannedAndLoaded = (
    Vec<PlannedRole>,
    Vec<PlannedFile>,
    HashMap<PathBuf, Vec<LoadResult>>,
);

/// Plans the batch and loads its files: each file is loaded on rayon's
/// threads as soon as the walk finds it, so that reading and tokenising
/// fill the walk's idle moments instead of waiting for its end.
fn plan_and_load(args: &CompareArgs, options: &LoadOptions, bar: &Bar) -> Result<PlannedAndLoaded> {
    bar.begin("loading", 0);
    let loaded = Mutex::new(Vec::new());
    let planned = rayon::in_place_scope(|scope| {
        let loaded = &loaded;
        plan_batch(args, &|path: &Path| {
            bar.found();
            let path = path.to_path_buf();
            scope.spawn(move |_| {
                let result = load(&path, options);
                bar.step();
                loaded
                    .lock()
                    .expect("no loader panics")
                    .push((path, result));
            });
        })
    });
    let (plans, base_files) = planned?;
    let mut by_path: HashMap<PathBuf, Vec<LoadResult>> = HashMap::new();
    for (path, result) in loaded.into_inner().expect("no loader panics") {
        by_path.entry(path).or_default().push(result);
    }
    Ok((plans, base_files, by_path))
}

/// The loading of each file of `jobs`, in their order.
fn in_job_order(
    jobs: &[(Owner, &PlannedFile)],
    mut by_path: HashMap<PathBuf, Vec<LoadResult>>,
) -> Vec<LoadResult> {
    jobs.iter()
        .map(|(_, file)| {
            by_path
                .get_mut(&file.path)
                .and_then(Vec::pop)
                .expect("every listed file is loaded")
        })
        .collect()
}

/// The fingerprinted documents of each of `units` units, and the base
/// code of each family.
struct Fingerprinted {
    units: Vec<Vec<Document>>,
    base: BTreeMap<&'static str, Vec<NormalizedDocument>>,
}

/// The kept files fingerprinted in parallel, each with its family's
/// settings.
fn fingerprint(
    kept: Vec<Kept<'_>>,
    settings: &BTreeMap<&'static str, FamilySettings>,
    units: usize,
    bar: &Bar,
) -> Fingerprinted {
    bar.begin("hashing", kept.len() as u64);
    let documents: Vec<(Owner, &'static str, Document)> = kept
        .into_par_iter()
        .map(|(owner, file, loaded, family)| {
            let FamilySettings {
                hasher, selector, ..
            } = &settings[family];
            let document = Document::fingerprinted(&file.name, loaded.doc, hasher, &**selector)
                .with_lines(LineIndex::new(loaded.text.as_bytes()));
            bar.step();
            (owner, family, document)
        })
        .collect();
    let mut fingerprinted = Fingerprinted {
        units: (0..units).map(|_| Vec::new()).collect(),
        base: BTreeMap::new(),
    };
    for (owner, family, document) in documents {
        match owner {
            Owner::Unit(i) => fingerprinted.units[i].push(document),
            Owner::Base => fingerprinted
                .base
                .entry(family)
                .or_default()
                .push(document.normalized),
        }
    }
    fingerprinted
}

/// The units of each compared family (those `settings` has), with their
/// base code, most units first.
fn into_families(
    plans: Vec<PlannedRole>,
    unit_families: &[Option<&'static str>],
    mut fingerprinted: Fingerprinted,
    mut settings: BTreeMap<&'static str, FamilySettings>,
    group: Option<&Regex>,
) -> Vec<FamilyBatch> {
    let mut by_family: BTreeMap<&'static str, (Vec<PlannedRole>, Vec<Vec<Document>>)> =
        BTreeMap::new();
    for ((plan, docs), family) in plans
        .into_iter()
        .zip(fingerprinted.units)
        .zip(unit_families)
    {
        if let Some(family) = family.filter(|f| settings.contains_key(f)) {
            let (plans, documents) = by_family.entry(family).or_default();
            plans.push(plan);
            documents.push(docs);
        }
    }
    let mut families: Vec<FamilyBatch> = by_family
        .into_iter()
        .map(|(family, (plans, documents))| {
            let (units, roots) = assemble_units(plans, documents, group);
            let settings = settings.remove(family).expect("settings of every family");
            let base = fingerprinted.base.remove(family).unwrap_or_default();
            FamilyBatch {
                family,
                units,
                roots,
                base: BaseCode::new(&settings.hasher, &base),
                settings,
            }
        })
        .collect();
    // Most units first, as `comparable_families` orders them.
    families.sort_by_key(|f| std::cmp::Reverse(f.units.len()));
    families
}

/// Problems for the units that are not compared: none of whose files
/// could be read, or of a family with no other unit or none new.
fn lone_units(
    plans: &[PlannedRole],
    unit_families: &[Option<&'static str>],
    counts: &BTreeMap<&str, FamilyCount>,
) -> Vec<Problem> {
    plans
        .iter()
        .zip(unit_families)
        .filter_map(|((plan, _), family)| {
            let Some(family) = *family else {
                // A one-file unit's load error says it all.
                let path = unit_path(plan).display().to_string();
                return (plan.files.len() > 1).then(|| Problem {
                    message: format!("{path}: skipped: none of its files could be read"),
                    path,
                });
            };
            let count = counts[family];
            let why = if count.is_comparable() {
                return None;
            } else if count.units < 2 {
                format!("no other {family} unit to compare it with (each language is compared on its own; --lang reads every file as one)")
            } else {
                format!("no new {family} unit to compare it with")
            };
            let path = unit_path(plan).display().to_string();
            Some(Problem {
                message: format!("{path}: skipped: {why}"),
                path,
            })
        })
        .collect()
}

/// The loaded files to compare: those of a compared unit's family, and
/// base files of a compared family. The rest, and what failed to load,
/// become problems.
fn keep_files<'a>(
    plans: &[PlannedRole],
    unit_families: &[Option<&'static str>],
    families: &[&'static str],
    loaded: impl Iterator<
        Item = (
            &'a (Owner, &'a PlannedFile),
            Result<LoadedDocument, LoadError>,
        ),
    >,
    quiet: bool,
    problems: &mut Vec<Problem>,
) -> Vec<Kept<'a>> {
    let mut kept = Vec::new();
    for ((owner, file), result) in loaded {
        let doc = match result {
            Ok(doc) => doc,
            Err(error) => {
                problems.push(problem(file, error.to_string()));
                continue;
            }
        };
        let family = family_of(&doc);
        match *owner {
            Owner::Unit(i) => {
                let unit_family = unit_families[i].expect("a unit with a loaded file has a family");
                if family != unit_family {
                    problems.push(problem(
                        file,
                        format!(
                            "skipped: read as {}, but most files of {} are {unit_family}; use --lang to read every file as one language",
                            doc.kind, plans[i].0.name
                        ),
                    ));
                    continue;
                }
                if !families.contains(&family) {
                    continue;
                }
            }
            Owner::Base if !families.contains(&family) => {
                problems.push(problem(
                    file,
                    format!(
                        "skipped: base file read as {}, but no compared unit is {family}",
                        doc.kind
                    ),
                ));
                continue;
            }
            Owner::Base => {}
        }
        if !quiet {
            for warning in &doc.warnings {
                eprintln!("copyhound: warning: {}: {warning}", file.path.display());
            }
        }
        kept.push((*owner, *file, doc, family));
    }
    kept
}

/// Units from their plans and loaded documents.
fn assemble_units(
    plans: Vec<PlannedRole>,
    documents: Vec<Vec<Document>>,
    group: Option<&Regex>,
) -> (Vec<Unit>, Vec<String>) {
    let mut units = Vec::new();
    let mut roots = Vec::new();
    for ((plan, role), docs) in plans.into_iter().zip(documents) {
        let mut unit = Unit::new(plan.name, docs).with_role(role);
        if let Some(key) = group.and_then(|re| group_key(re, &unit.name)) {
            unit = unit.with_group(key);
        }
        units.push(unit);
        roots.push(plan.root);
    }
    (units, roots)
}

/// The file of a one-file unit, or the folder of a multi-file one.
fn unit_path(plan: &PlannedUnit) -> PathBuf {
    match plan.files.as_slice() {
        [file] => file.path.clone(),
        _ => unit_folder(plan),
    }
}

/// Where the files of a multi-file unit are: its name may carry a prefix
/// (see [`make_names_unique`]), its files' names never do.
fn unit_folder(plan: &PlannedUnit) -> PathBuf {
    let first = plan.files.first().map_or("", |f| f.name.as_str());
    Path::new(&plan.root).join(first.split('/').next().unwrap_or_default())
}

/// The units named by the new and old paths, and the base files;
/// `found` is called with each file's path as soon as it is found.
fn plan_batch(
    args: &CompareArgs,
    found: &(dyn Fn(&Path) + Sync),
) -> Result<(Vec<PlannedRole>, Vec<PlannedFile>)> {
    let filter = WalkFilter {
        include: args.include.clone(),
        exclude: args.exclude.clone(),
        honour_ignore_files: !args.no_ignore,
    };
    let mut plans = Vec::new();
    for (paths, role) in [(&args.paths, Role::New), (&args.old, Role::Old)] {
        for path in paths {
            plans.extend(
                plan_units(path, args.unit, &filter, found)?
                    .into_iter()
                    .map(|u| (u, role)),
            );
        }
    }
    make_names_unique(&mut plans.iter_mut().map(|(plan, _)| plan).collect::<Vec<_>>());
    let mut base_files = Vec::new();
    for path in &args.base {
        base_files.extend(walk(path, &filter, found)?);
    }
    Ok((plans, base_files))
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
    let file =
        output::create(path).with_context(|| format!("{}: cannot create", path.display()))?;
    let mut out = BufWriter::new(file);
    write(&mut out).with_context(|| format!("{}: cannot write the report", path.display()))?;
    out.flush()
        .with_context(|| format!("{}: cannot write the report", path.display()))
}
