//! A batch comparison end to end: load, sort into families, fingerprint,
//! compare each family, and the outcome every output is made from.

use std::collections::BTreeMap;
use std::path::Path;

use copyhound_fingerprint::NormalizedDocument;
use copyhound_index::{BaseCode, Comparison, Document, Role, Unit, compare_with_progress};
use copyhound_normalize::LoadedDocument;
use copyhound_report::{PairDetails, Parameters, Problem, Report, ReportInput, Tool};
use copyhound_source::LineIndex;
use rayon::prelude::*;

use crate::families::{FamilyCount, comparable_families, describe, family_counts};
use crate::load::{LoadedBatch, LoadedFile, LoadedUnit, load_batch};
use crate::progress::{CompareProgress, Progress, Stage, Warning};
use crate::settings::FamilySettings;
use crate::{CompareSettings, Family, FrontEnd, GroupPattern, Inputs, PipelineError, PlannedFile};

/// Compares the batch `inputs` name with `settings`, one family at a time,
/// reporting to `progress` as it goes.
///
/// A file that cannot be read, a unit with no other of its family and a
/// file of another family than its unit's are left out and listed in
/// [`Outcome::problems`]; it is an error only when no family is left to
/// compare.
pub fn run(
    inputs: &Inputs,
    settings: &CompareSettings,
    progress: &dyn Progress,
) -> Result<Outcome, PipelineError> {
    let batch = load_batch(inputs, &settings.front_end, progress)?;
    let counts = family_counts(batch.units.iter().map(|unit| (unit.role, unit.family)));
    let compared = comparable_families(&counts);
    if compared.is_empty() {
        return Err(nothing_to_compare(inputs, &counts, batch));
    }
    let mut problems = lone_units(&batch.units, &counts);
    let kept = keep_files(batch, &compared, progress, &mut problems);
    for problem in &problems {
        progress.warn(Warning::LeftOut(problem));
    }
    let settings_of: BTreeMap<Family, FamilySettings> = compared
        .iter()
        .map(|&family| (family, settings.for_family(family)))
        .collect();
    let batches = into_families(
        fingerprint(kept, &settings_of, progress),
        settings_of,
        settings.group.as_ref(),
    );
    let mut families = Vec::with_capacity(batches.len());
    for batch in batches {
        let options = settings.compare_options(&batch.settings);
        let comparison = compare_with_progress(
            &batch.units,
            &batch.base,
            &options,
            &CompareProgress(progress),
        )?;
        families.push(FamilyComparison {
            family: batch.settings.family,
            parameters: settings.parameters(&batch.settings, &options, &inputs.base),
            units: batch.units,
            roots: batch.roots,
            comparison,
        });
    }
    Ok(Outcome {
        families,
        problems,
        front_end: settings.front_end.clone(),
    })
}

/// What a batch comparison found: one comparison per family, most units
/// first, and what was left out.
#[derive(Debug)]
pub struct Outcome {
    /// The comparison of each family.
    pub families: Vec<FamilyComparison>,
    /// What was left out, and why.
    pub problems: Vec<Problem>,
    /// How the files were read, to read them again.
    front_end: FrontEnd,
}

/// The comparison of the units of one family.
#[derive(Debug)]
pub struct FamilyComparison {
    /// The family.
    pub family: Family,
    /// Its units, in the order of the inputs.
    pub units: Vec<Unit>,
    /// The input path each unit came from, as given.
    pub roots: Vec<String>,
    /// The pairs and their scores.
    pub comparison: Comparison,
    /// The settings, as the report states them.
    pub parameters: Parameters,
}

impl Outcome {
    /// What the report of each family is built from, as written by `tool`;
    /// the CSV is written straight from these.
    pub fn report_inputs<'a>(&'a self, tool: &'a Tool) -> Vec<ReportInput<'a>> {
        self.families
            .iter()
            .map(|family| ReportInput {
                tool,
                parameters: &family.parameters,
                units: &family.units,
                roots: &family.roots,
                comparison: &family.comparison,
                problems: &[],
                pair_limit: None,
            })
            .collect()
    }

    /// The report of every family in one, with the problems, listing only
    /// the `pair_limit` most similar pairs of each family (all for
    /// `None`), without fragments: [`pair_details`](Self::pair_details)
    /// finds them for the pairs an output shows.
    pub fn report(&self, tool: &Tool, pair_limit: Option<usize>) -> Report {
        let parts = self.report_inputs(tool).into_iter().map(|input| {
            Report::build_without_details(ReportInput {
                pair_limit,
                ..input
            })
        });
        let mut report =
            Report::merge(parts.collect()).expect("a batch compares at least one family");
        report.problems.clone_from(&self.problems);
        report
    }

    /// What finds the fragments and passages of the pairs of
    /// [`report`](Self::report) again.
    pub fn pair_details<'a>(&'a self, tool: &'a Tool) -> PairDetails<'a> {
        PairDetails::merge(self.report_inputs(tool).iter().map(PairDetails::new))
    }

    /// The text document `document` of unit `unit` of `report` indexes
    /// into, read again: the batch does not keep its texts, and an output
    /// needs only those of the pairs it shows. `None` when the file cannot
    /// be read any more.
    pub fn document_text(&self, report: &Report, unit: usize, document: usize) -> Option<String> {
        let unit = &report.units[unit];
        // Document paths are relative to the unit's input path, unless that
        // path is the file itself.
        let root = Path::new(&unit.root);
        let path = if root.is_file() {
            root.to_path_buf()
        } else {
            root.join(&unit.documents[document].path)
        };
        self.front_end.load(&path).ok().map(|loaded| loaded.text)
    }
}

/// The error of a batch with no family to compare.
fn nothing_to_compare(
    inputs: &Inputs,
    counts: &BTreeMap<Family, FamilyCount>,
    batch: LoadedBatch,
) -> PipelineError {
    let paths = inputs
        .new
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let load_errors = batch.into_load_errors();
    if counts.is_empty() {
        PipelineError::NoReadableFile { paths, load_errors }
    } else {
        PipelineError::NothingComparable {
            paths,
            families: describe(counts),
            load_errors,
        }
    }
}

/// Problems for the units that are not compared: none of whose files
/// could be read, or of a family with no other unit or none new.
fn lone_units(units: &[LoadedUnit], counts: &BTreeMap<Family, FamilyCount>) -> Vec<Problem> {
    units
        .iter()
        .filter_map(|unit| {
            let Some(family) = unit.family else {
                // A one-file unit's load error says it all.
                let path = unit.path().display().to_string();
                return (unit.files.len() > 1).then(|| Problem {
                    message: format!("{path}: skipped: none of its files could be read"),
                    path,
                });
            };
            let count = counts[&family];
            let why = if count.is_comparable() {
                return None;
            } else if count.units < 2 {
                format!("no other {family} unit to compare it with (each language is compared on its own; --lang reads every file as one)")
            } else {
                format!("no new {family} unit to compare it with")
            };
            let path = unit.path().display().to_string();
            Some(Problem {
                message: format!("{path}: skipped: {why}"),
                path,
            })
        })
        .collect()
}

/// Who a kept file belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Owner {
    /// The unit at this index of the batch.
    Unit(usize),
    Base,
}

/// A loaded file kept for comparison.
struct KeptFile {
    owner: Owner,
    /// Its name in its unit.
    name: String,
    family: Family,
    loaded: LoadedDocument,
}

/// A unit of the batch: its documents come once they are fingerprinted.
struct BatchUnit {
    name: String,
    root: String,
    role: Role,
    family: Option<Family>,
    documents: Vec<Document>,
}

/// The units of a batch and the files of theirs, and of the base code,
/// kept for comparison.
struct KeptBatch {
    units: Vec<BatchUnit>,
    files: Vec<KeptFile>,
}

/// A file of the batch that loaded, and its family.
struct ReadFile {
    file: PlannedFile,
    loaded: LoadedDocument,
    family: Family,
}

impl ReadFile {
    /// `file` if it loaded; otherwise why not is a problem.
    fn of(file: LoadedFile, problems: &mut Vec<Problem>) -> Option<Self> {
        match file.loaded {
            Ok(loaded) => Some(Self {
                family: Family::of(loaded.kind),
                file: file.file,
                loaded,
            }),
            Err(error) => {
                problems.push(problem(&file.file, error.to_string()));
                None
            }
        }
    }
}

/// Keeps the loaded files to compare: those of a compared unit's family,
/// and base files of a compared family. The rest, and what failed to load,
/// become problems.
fn keep_files(
    batch: LoadedBatch,
    compared: &[Family],
    progress: &dyn Progress,
    problems: &mut Vec<Problem>,
) -> KeptBatch {
    let mut files = Vec::new();
    let mut units = Vec::with_capacity(batch.units.len());
    for (i, unit) in batch.units.into_iter().enumerate() {
        for file in unit.files {
            let Some(read) = ReadFile::of(file, problems) else {
                continue;
            };
            let unit_family = unit.family.expect("a unit with a loaded file has a family");
            if read.family != unit_family {
                problems.push(problem(
                    &read.file,
                    format!(
                        "skipped: read as {}, but most files of {} are {unit_family}; use --lang to read every file as one language",
                        read.loaded.kind, unit.name
                    ),
                ));
            } else if compared.contains(&read.family) {
                files.push(KeptFile::new(Owner::Unit(i), read, progress));
            }
        }
        units.push(BatchUnit {
            name: unit.name,
            root: unit.root,
            role: unit.role,
            family: unit.family,
            documents: Vec::new(),
        });
    }
    for file in batch.base {
        let Some(read) = ReadFile::of(file, problems) else {
            continue;
        };
        if compared.contains(&read.family) {
            files.push(KeptFile::new(Owner::Base, read, progress));
        } else {
            problems.push(problem(
                &read.file,
                format!(
                    "skipped: base file read as {}, but no compared unit is {}",
                    read.loaded.kind, read.family
                ),
            ));
        }
    }
    KeptBatch { units, files }
}

impl KeptFile {
    /// `read`, kept for `owner`; the front-end's remarks on it are passed
    /// on as warnings.
    fn new(owner: Owner, read: ReadFile, progress: &dyn Progress) -> Self {
        for message in &read.loaded.warnings {
            progress.warn(Warning::Read {
                path: &read.file.path,
                message,
            });
        }
        Self {
            owner,
            name: read.file.name,
            family: read.family,
            loaded: read.loaded,
        }
    }
}

/// The problem of a file that is left out.
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

/// A kept file, fingerprinted.
struct FingerprintedFile {
    owner: Owner,
    family: Family,
    document: Document,
}

/// The units of a batch with their documents, and the base code of each
/// family.
struct Fingerprinted {
    units: Vec<BatchUnit>,
    base: BTreeMap<Family, Vec<NormalizedDocument>>,
}

/// The kept files fingerprinted in parallel, each with its family's
/// scheme, and given to their units.
fn fingerprint(
    kept: KeptBatch,
    settings_of: &BTreeMap<Family, FamilySettings>,
    progress: &dyn Progress,
) -> Fingerprinted {
    progress.start(Stage::Hash, kept.files.len() as u64);
    let documents: Vec<FingerprintedFile> = kept
        .files
        .into_par_iter()
        .map(|file| {
            let scheme = &settings_of[&file.family].scheme;
            let document = Document::fingerprinted(file.name, file.loaded.doc, scheme)
                .with_lines(LineIndex::new(file.loaded.text.as_bytes()));
            progress.advance(1);
            FingerprintedFile {
                owner: file.owner,
                family: file.family,
                document,
            }
        })
        .collect();
    let mut fingerprinted = Fingerprinted {
        units: kept.units,
        base: BTreeMap::new(),
    };
    for FingerprintedFile {
        owner,
        family,
        document,
    } in documents
    {
        match owner {
            Owner::Unit(i) => fingerprinted.units[i].documents.push(document),
            Owner::Base => fingerprinted
                .base
                .entry(family)
                .or_default()
                .push(document.normalized),
        }
    }
    fingerprinted
}

/// The units of one family and the input path of each.
#[derive(Default)]
struct FamilyUnits {
    units: Vec<Unit>,
    roots: Vec<String>,
}

/// The units of one family, ready to compare.
struct FamilyBatch {
    settings: FamilySettings,
    units: Vec<Unit>,
    /// The input path of each unit.
    roots: Vec<String>,
    base: BaseCode,
}

/// The units of each compared family (those `settings_of` has), with their
/// base code, most units first.
fn into_families(
    mut fingerprinted: Fingerprinted,
    mut settings_of: BTreeMap<Family, FamilySettings>,
    group: Option<&GroupPattern>,
) -> Vec<FamilyBatch> {
    let mut by_family: BTreeMap<Family, FamilyUnits> = BTreeMap::new();
    for unit in fingerprinted.units {
        let Some(family) = unit.family.filter(|f| settings_of.contains_key(f)) else {
            continue;
        };
        let mut compared = Unit::new(unit.name, unit.documents).with_role(unit.role);
        if let Some(key) = group.and_then(|group| group.group_of(&compared.name)) {
            compared = compared.with_group(key);
        }
        let members = by_family.entry(family).or_default();
        members.units.push(compared);
        members.roots.push(unit.root);
    }
    let mut families: Vec<FamilyBatch> = by_family
        .into_iter()
        .map(|(family, FamilyUnits { units, roots })| {
            let settings = settings_of
                .remove(&family)
                .expect("settings of every family");
            let base = fingerprinted.base.remove(&family).unwrap_or_default();
            FamilyBatch {
                base: BaseCode::new(&settings.scheme, &base),
                settings,
                units,
                roots,
            }
        })
        .collect();
    // Most units first, as `comparable_families` orders them.
    families.sort_by_key(|f| std::cmp::Reverse(f.units.len()));
    families
}
