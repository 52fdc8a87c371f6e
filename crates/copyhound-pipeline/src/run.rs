//! A batch comparison end to end: load, sort into families, fingerprint,
//! compare each family, and the outcome every output is made from.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use copyhound_fingerprint::NormalizedDocument;
use copyhound_index::{BaseCode, Comparison, Document, Role, Unit, compare_with_progress};
use copyhound_normalize::LoadedDocument;
use copyhound_report::{
    BelowMinimum, PairDetails, Parameters, Problem, ProblemKind, Report, ReportInput, Tool,
    UnitOrigin,
};
use copyhound_source::LineIndex;
use rayon::prelude::*;

use crate::archive::ArchiveLimits;
use crate::code_archive::against::{Archives, KeptAt};
use crate::families::{FamilyCount, comparable_families, describe, family_counts};
use crate::load::{LoadedBatch, LoadedFile, LoadedUnit, Texts, load_batch};
use crate::plan::unit_folder;
use crate::progress::{CompareProgress, Progress, Stage, Warning};
use crate::settings::FamilySettings;
use crate::{CompareSettings, Family, FrontEnd, GroupPattern, Inputs, PipelineError, PlannedFile};

/// Compares the batch `inputs` name with `settings`, one family at a time,
/// reporting to `progress` as it goes.
///
/// What the walk could not list or did not follow, a file that cannot be
/// read, an empty file, a unit with no other of its family, a file of
/// another family than its unit's and a unit too short to check are listed
/// in [`Outcome::problems`] (and passed to `progress` as warnings); the
/// rest is compared. It is an error only when no family is left to
/// compare.
pub fn run(
    inputs: &Inputs,
    settings: &CompareSettings,
    progress: &dyn Progress,
) -> Result<Outcome, PipelineError> {
    if !inputs.against.is_empty() && !inputs.base.is_empty() {
        return Err(PipelineError::BaseWithArchive);
    }
    let archives = Archives::open(&inputs.against)?;
    let mut batch = load_batch(inputs, &settings.front_end, Texts::LinesOnly, progress)?;
    let mut counts = family_counts(batch.units.iter().map(|unit| (unit.role, unit.family)));
    for (family, archived) in archives.family_counts()? {
        if let Some(count) = counts.get_mut(&family) {
            count.units += archived;
        }
    }
    let compared = comparable_families(&counts);
    let mut problems = std::mem::take(&mut batch.problems);
    if compared.is_empty() {
        return Err(nothing_to_compare(inputs, &counts, batch, problems));
    }
    problems.extend(lone_units(&batch.units, &counts));
    let markdown_units: MarkdownUnits = batch
        .units
        .iter()
        .filter(|unit| unit.markdown)
        .map(|unit| (unit.root.clone(), unit.name.clone()))
        .collect();
    let kept = keep_files(batch, &compared, progress, &mut problems);
    let settings_of: BTreeMap<Family, FamilySettings> = compared
        .iter()
        .map(|&family| (family, settings.for_family(family)))
        .collect();
    let batches = into_families(
        fingerprint(kept, &settings_of, progress),
        settings_of,
        settings.group.as_ref(),
    );
    for batch in &batches {
        problems.extend(too_short(batch, &settings.front_end, &markdown_units));
    }
    for problem in &problems {
        progress.warn(Warning::LeftOut(problem));
    }
    let mut families = Vec::with_capacity(batches.len());
    let mut archived = HashMap::new();
    for mut batch in batches {
        let mut options = settings.compare_options(&batch.settings);
        let mut origins: Vec<UnitOrigin> = batch
            .units
            .iter()
            .map(|unit| UnitOrigin::of_role(unit.role.into()))
            .collect();
        if !inputs.against.is_empty() {
            let pulled = archives.pull(
                batch.settings.family,
                &batch.units,
                (&settings.front_end, &batch.settings.scheme),
                settings.max_occurrences,
            )?;
            for problem in &pulled.problems {
                progress.warn(Warning::LeftOut(problem));
            }
            problems.extend(pulled.problems);
            for ((unit, root), &kept_at) in
                pulled.units.iter().zip(&pulled.roots).zip(&pulled.kept_at)
            {
                archived.insert((root.clone(), unit.name.clone()), kept_at);
            }
            origins.extend(pulled.units.iter().map(|_| UnitOrigin::Archive));
            batch.units.extend(pulled.units);
            batch.roots.extend(pulled.roots);
            options.elsewhere = Arc::new(pulled.elsewhere);
        }
        let mut comparison = compare_with_progress(
            &mut batch.units,
            &batch.base,
            &options,
            &CompareProgress(progress),
        )?;
        // The pairs come most similar first.
        let above = comparison
            .pairs
            .partition_point(|pair| pair.similarity >= settings.min_similarity);
        let below_minimum = comparison.pairs.len() - above;
        comparison.pairs.truncate(above);
        families.push(FamilyComparison {
            family: batch.settings.family,
            parameters: settings.parameters(&batch.settings, &options, &inputs.base),
            units: batch.units,
            roots: batch.roots,
            origins,
            comparison,
            below_minimum,
        });
    }
    Ok(Outcome {
        families,
        problems,
        min_similarity: settings.min_similarity,
        front_end: settings.front_end.clone(),
        archives: inputs.filter.archives,
        against: archives,
        archived,
        markdown_units,
    })
}

/// The units of notebooks' markdown cells, by input path and name.
type MarkdownUnits = HashSet<(String, String)>;

/// The problems of the units of `batch` too short to check: fewer symbols
/// than the shortest shared run sure to be found (w + k − 1), or no
/// fingerprint. Units with no symbol at all are not listed: their files
/// are, as empty.
fn too_short(
    batch: &FamilyBatch,
    front_end: &FrontEnd,
    markdown_units: &MarkdownUnits,
) -> Vec<Problem> {
    let k = batch.settings.scheme.k();
    let shortest = batch.settings.window + k - 1;
    let symbol = front_end.symbol(batch.settings.family);
    batch
        .units
        .iter()
        .zip(&batch.roots)
        .filter_map(|(unit, root)| {
            let symbols = unit.symbol_count();
            let fingerprints: usize = unit.documents.iter().map(|d| d.fingerprints().len()).sum();
            let why = if symbols == 0 {
                return None;
            } else if symbols < shortest {
                format!(
                    "{symbols} {symbol}s, and only a shared run of w + k - 1 = {shortest} is sure to be found"
                )
            } else if fingerprints == 0 {
                format!("{symbols} {symbol}s, but no fingerprint was selected")
            } else {
                return None;
            };
            let path = unit_path(root, unit);
            let markdown = markdown_units.contains(&(root.clone(), unit.name.clone()));
            let place = if markdown {
                format!("{path} (markdown)")
            } else {
                path.clone()
            };
            Some(Problem {
                message: format!("{place}: too short to check: {why}"),
                path,
                kind: ProblemKind::TooShort,
            })
        })
        .collect()
}

/// Where `unit`, from the input path `root`, is: the file of a one-file
/// unit, the folder (or archive) of a multi-file one.
fn unit_path(root: &str, unit: &Unit) -> String {
    let root_path = Path::new(root);
    let path = match unit.documents.as_slice() {
        [only] => document_path(root_path, &only.name),
        documents => {
            let first = documents.first().map_or("", |d| d.name.as_str());
            unit_folder(root_path, &unit.name, first)
        }
    };
    path.display().to_string()
}

/// What a batch comparison found: one comparison per family, most units
/// first, and what was left out.
#[derive(Debug)]
pub struct Outcome {
    /// The comparison of each family.
    pub families: Vec<FamilyComparison>,
    /// What was left out, and why.
    pub problems: Vec<Problem>,
    /// Pairs less similar than this are listed nowhere.
    min_similarity: f64,
    /// How the files were read, to read them again.
    front_end: FrontEnd,
    /// How archives were read, to read their files again.
    archives: ArchiveLimits,
    /// The archives compared against, to fetch the texts of the archived
    /// units an output shows.
    against: Archives,
    /// Where each archived unit is kept, by its archive (as given) and
    /// name.
    archived: HashMap<(String, String), KeptAt>,
    /// The units of notebooks' markdown cells: their texts are the
    /// markdown of their notebooks.
    markdown_units: MarkdownUnits,
}

/// The comparison of the units of one family.
#[derive(Debug)]
pub struct FamilyComparison {
    /// The family.
    pub family: Family,
    /// Its units, in the order of the inputs.
    pub units: Vec<Unit>,
    /// The input path each unit came from, as given (the archive, for
    /// an archived unit).
    pub roots: Vec<String>,
    /// Where each unit came from.
    pub origins: Vec<UnitOrigin>,
    /// The pairs and their scores: those at or above the minimum
    /// similarity.
    pub comparison: Comparison,
    /// Pairs the comparison listed below the minimum similarity, left
    /// out of [`comparison`](Self::comparison).
    pub below_minimum: usize,
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
                origins: Some(&family.origins),
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
        if self.min_similarity > 0.0 {
            report.summary.below_minimum = Some(BelowMinimum {
                min_similarity: self.min_similarity,
                pairs: self.families.iter().map(|f| f.below_minimum).sum(),
            });
        }
        report
    }

    /// What finds the fragments and passages of the pairs of
    /// [`report`](Self::report) again.
    pub fn pair_details<'a>(&'a self, tool: &'a Tool) -> PairDetails<'a> {
        PairDetails::merge(self.report_inputs(tool).iter().map(PairDetails::new))
    }

    /// Closes the archives compared against, so that they can be written
    /// to (an archive is open in one place at a time); the texts of
    /// archived units cannot be fetched after.
    pub fn close_archives(&mut self) {
        self.against = Archives::default();
    }

    /// The text document `document` of unit `unit` of `report` indexes
    /// into, read again: the batch does not keep its texts, and an output
    /// needs only those of the pairs it shows. `None` when the file cannot
    /// be read any more.
    pub fn document_text(&self, report: &Report, unit: usize, document: usize) -> Option<String> {
        let unit = &report.units[unit];
        if let Some(&kept_at) = self.archived.get(&(unit.root.clone(), unit.path.clone())) {
            return self.against.text(kept_at, document, &self.front_end);
        }
        let path = document_path(Path::new(&unit.root), &unit.documents[document].path);
        let loaded = self.front_end.reload(&path, &self.archives)?;
        if self
            .markdown_units
            .contains(&(unit.root.clone(), unit.path.clone()))
        {
            loaded.markdown.map(|markdown| markdown.text)
        } else {
            Some(loaded.text)
        }
    }
}

/// Where the document named `name` of a unit from the input path `root`
/// is. Document names are relative to the input path, unless that path is
/// a file (or an archive): then they are relative to its folder, and begin
/// with its name.
fn document_path(root: &Path, name: &str) -> std::path::PathBuf {
    if root.is_file() {
        root.parent().unwrap_or(Path::new("")).join(name)
    } else {
        root.join(name)
    }
}

/// The error of a batch with no family to compare; `problems` are those
/// of the walk.
fn nothing_to_compare(
    inputs: &Inputs,
    counts: &BTreeMap<Family, FamilyCount>,
    batch: LoadedBatch,
    mut problems: Vec<Problem>,
) -> PipelineError {
    let paths = inputs
        .new
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let files = batch.units.into_iter().flat_map(|unit| unit.files);
    for file in files.chain(batch.base) {
        if let Err(error) = file.loaded {
            problems.push(problem(
                &file.file,
                error.to_string(),
                ProblemKind::Unreadable,
            ));
        }
    }
    if counts.is_empty() {
        PipelineError::NoReadableFile { paths, problems }
    } else {
        PipelineError::NothingComparable {
            paths,
            families: describe(counts),
            found: counts.keys().copied().collect(),
            problems,
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
                    kind: ProblemKind::Unreadable,
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
            Some(Problem {
                message: format!("{}: skipped: {why}", unit.place()),
                path: unit.path().display().to_string(),
                kind: ProblemKind::Skipped,
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
    /// The line starts of its text, when loading let the text go.
    lines: Option<LineIndex>,
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
    lines: Option<LineIndex>,
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
                lines: file.lines,
            }),
            Err(error) => {
                problems.push(problem(
                    &file.file,
                    error.to_string(),
                    ProblemKind::Unreadable,
                ));
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
                    ProblemKind::Skipped,
                ));
            } else if compared.contains(&read.family) {
                files.push(KeptFile::new(Owner::Unit(i), read, progress, problems));
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
            files.push(KeptFile::new(Owner::Base, read, progress, problems));
        } else {
            problems.push(problem(
                &read.file,
                format!(
                    "skipped: base file read as {}, but no compared unit is {}",
                    read.loaded.kind, read.family
                ),
                ProblemKind::Skipped,
            ));
        }
    }
    KeptBatch { units, files }
}

impl KeptFile {
    /// `read`, kept for `owner`; the front-end's remarks on it are passed
    /// on as warnings, but a file with no symbols is a problem, whose
    /// message is the remark the front-end ends with then (empty file, no
    /// text layer, no symbols).
    fn new(
        owner: Owner,
        read: ReadFile,
        progress: &dyn Progress,
        problems: &mut Vec<Problem>,
    ) -> Self {
        let mut remarks = read.loaded.warnings.as_slice();
        if read.loaded.doc.is_empty() {
            let why = remarks.last().map_or("no symbols", String::as_str);
            problems.push(problem(&read.file, why.to_string(), ProblemKind::Empty));
            remarks = &remarks[..remarks.len().saturating_sub(1)];
        }
        for message in remarks {
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
            lines: read.lines,
        }
    }
}

/// The problem of a file that is left out.
fn problem(file: &PlannedFile, message: String, kind: ProblemKind) -> Problem {
    let path = file.path.display().to_string();
    // Loader errors already start with the path; say it once.
    let message = if message.starts_with(&path) {
        message
    } else {
        format!("{path}: {message}")
    };
    Problem {
        path,
        message,
        kind,
    }
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
            let lines = file.lines.unwrap_or_else(|| file.loaded.line_index());
            let document =
                Document::fingerprinted(file.name, file.loaded.doc, scheme).with_lines(lines);
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
                .push(document.into_normalized()),
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
