//! One submission — a code file, or an archive (`.zip`, `.tar`,
//! `.tar.gz`) read as one unit, as `db add` reads an archive in a folder —
//! checked against a code archive, the way `copyhound compare NEW
//! --against ARCHIVE` checks a batch: the same [`run`], settings taken
//! from the archive, scores counted over the submission and the whole
//! archive. What `POST /api/archive/search` answers.
//!
//! The bytes are written to a private temporary folder and given to
//! [`run`] as that folder with `--unit dir`, so that the walker's archive
//! reader (and its [`ArchiveLimits`]) reads a zip exactly as `compare`
//! does; the folder's path is taken out of every message. The archive is
//! opened for the call only, so `db add` can update it between calls.

use std::collections::BTreeMap;
use std::path::Path;

use copyhound_index::MaxOccurrences;
use copyhound_report::{Location, PairReport, Problem, ProblemKind, Report, Tool};
use serde::Serialize;

use super::against::Archives;
use super::settings_against;
use crate::{
    ArchiveLimits, CompareSettings, Family, FrontEnd, FrontEndChoice, Inputs, Outcome,
    PipelineError, Selection, UnitMode, WalkFilter, run,
};

/// A submission as received: a file name (its extension says its language
/// or that it is an archive) and its bytes.
#[derive(Clone, Copy, Debug)]
pub struct Submission<'a> {
    /// The file name; only its last component is used.
    pub name: &'a str,
    /// Its content.
    pub bytes: &'a [u8],
}

/// What a check asks for besides the submission.
#[derive(Clone, Debug, PartialEq)]
pub struct SubmissionRequest {
    /// At most this many matches, most similar first.
    pub limit: usize,
    /// Passages (and fragments) for this many of the best matches.
    pub detailed: usize,
    /// The texts their offsets index into: the submission's files, and
    /// those of a detailed match's files that its passages lie in.
    pub include_text: bool,
    /// Size limits and isolation of the front-end (the archive gives the
    /// rest of its settings).
    pub limits: FrontEndChoice,
    /// How much an archive submitted may expand to.
    pub archive_limits: ArchiveLimits,
    /// Fingerprints more units hold than this (the archive's and the
    /// submission) are ignored, as by `compare --against -m`: the code
    /// every submission shares says nothing about copying, and only units
    /// sharing other fingerprints are read back from the archive.
    pub max_occurrences: MaxOccurrences,
}

impl Default for SubmissionRequest {
    /// 20 matches, passages for the best 3, no texts, default limits,
    /// every fingerprint kept.
    fn default() -> Self {
        Self {
            limit: 20,
            detailed: 3,
            include_text: false,
            limits: FrontEndChoice::default(),
            archive_limits: ArchiveLimits::default(),
            max_occurrences: MaxOccurrences::Unlimited,
        }
    }
}

/// The answer: the archived units the submission shares code with.
#[derive(Clone, Debug, Serialize)]
pub struct SubmissionResult {
    /// The submission's name: the unit's name.
    pub name: String,
    /// Its language (or `text`).
    pub language: String,
    /// Archived units of its language.
    pub archived_units: usize,
    /// Its files, which the `query` side of passages indexes.
    pub files: Vec<MatchedFile>,
    /// The archived units it shares fingerprints with, most similar
    /// first.
    pub matches: Vec<ArchiveMatch>,
    /// What was read but not compared, or may score otherwise (a file
    /// skipped, an archived unit that could not be read again).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// A file of a submission or of an archived unit.
#[derive(Clone, Debug, Serialize)]
pub struct MatchedFile {
    /// Its name in its unit.
    pub name: String,
    /// The text passages' byte offsets index into, when asked for and
    /// at hand.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// One archived unit the submission shares code with, scored as
/// `compare --against` scores it.
#[derive(Clone, Debug, Serialize)]
pub struct ArchiveMatch {
    /// The archived unit's name (its name at `db add`).
    pub unit: String,
    /// Similarity in `[0, 1]`, as `compare` computes it.
    pub similarity: f64,
    /// Share of the submission's symbols in shared fragments.
    pub query_coverage: f64,
    /// Share of the archived unit's symbols in shared fragments.
    pub archived_coverage: f64,
    /// Symbols of the longest shared fragment.
    pub longest_fragment: usize,
    /// Distinct fingerprints shared.
    pub shared_fingerprints: usize,
    /// The archived unit's files, which the `archived` side of passages
    /// indexes.
    pub files: Vec<MatchedFile>,
    /// The shared passages (fragments merged as `compare` merges them);
    /// `null` below the detailed matches.
    pub passages: Option<Vec<SharedPassage>>,
    /// The exact fragments the passages are made of; `null` below the
    /// detailed matches.
    pub fragments: Option<Vec<SharedFragment>>,
}

/// A passage both units share.
#[derive(Clone, Debug, Serialize)]
pub struct SharedPassage {
    /// Its fragments: `[first, last + 1)` in [`ArchiveMatch::fragments`].
    pub fragments: [usize; 2],
    /// Symbols matched (its fragments' sum).
    pub matched_symbols: u32,
    /// Where it is in the submission.
    pub query: Location,
    /// Where it is in the archived unit.
    pub archived: Location,
}

/// An exact match between the two units.
#[derive(Clone, Debug, Serialize)]
pub struct SharedFragment {
    /// Its symbols.
    pub symbols: u32,
    /// Where it is in the submission.
    pub query: Location,
    /// Where it is in the archived unit.
    pub archived: Location,
}

/// Why a submission could not be checked.
#[derive(Debug, thiserror::Error)]
pub enum SubmissionError {
    /// Nothing but white space.
    #[error("{0}: the file is empty")]
    Empty(String),
    /// No file of it could be read: binary, undecodable, a damaged or
    /// oversized archive.
    #[error("{name}: cannot be read: {why}")]
    Unreadable {
        /// The submission's name.
        name: String,
        /// What went wrong, file by file.
        why: String,
    },
    /// Read, but the archive holds no unit of its language (or it has no
    /// language the front-end knows, and is read as text).
    #[error(
        "{name}: read as {read_as}, and the archive holds no {read_as} unit ({archived}); upload a file whose extension names its language"
    )]
    NoUnitOfItsLanguage {
        /// The submission's name.
        name: String,
        /// The family it was read as.
        read_as: String,
        /// The archive's units by language.
        archived: String,
    },
    /// The archive, or the temporary copy of the submission, failed.
    #[error(transparent)]
    Pipeline(#[from] PipelineError),
    /// The temporary copy of the submission could not be written.
    #[error("writing the submission to a temporary folder: {0}")]
    Io(#[from] std::io::Error),
}

/// Checks `submission` against the code archive at `archive` with the
/// archive's settings, as `compare --against` would check it alone.
pub fn check_submission(
    archive: &Path,
    submission: Submission<'_>,
    request: &SubmissionRequest,
) -> Result<SubmissionResult, SubmissionError> {
    let name = file_name(submission.name);
    if submission.bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(SubmissionError::Empty(name));
    }
    let folder = tempfile::Builder::new()
        .prefix("copyhound-submission-")
        .tempdir()?;
    std::fs::write(folder.path().join(&name), submission.bytes)?;
    let hide = Hide(format!("{}/", folder.path().display()));
    let chosen = settings_against(
        &[archive.to_path_buf()],
        &request.limits,
        &Selection::default(),
    )?;
    let settings = CompareSettings {
        front_end: FrontEnd::new(&chosen.front_end)?,
        selection: chosen.selection,
        max_occurrences: request.max_occurrences,
        ..CompareSettings::default()
    };
    let inputs = Inputs {
        new: vec![folder.path().to_path_buf()],
        against: vec![archive.to_path_buf()],
        unit: UnitMode::Dir,
        filter: WalkFilter {
            honour_ignore_files: false,
            archives: request.archive_limits,
            ..WalkFilter::default()
        },
        ..Inputs::default()
    };
    // Counted before the comparison opens the archive (in one place at a
    // time).
    let archived = Archives::open(&inputs.against)?.family_counts()?;
    let outcome = match run(&inputs, &settings, &()) {
        Ok(outcome) => outcome,
        Err(error) => return Err(refusal(error, &name, &archived, &hide)),
    };
    Ok(answer(&outcome, &name, &archived, request, &hide))
}

/// The last component of `name`, without leading dots (the walk skips
/// hidden files); `upload` when nothing is left.
fn file_name(name: &str) -> String {
    let last = name.rsplit(['/', '\\']).next().unwrap_or_default();
    let visible = last.trim_start_matches('.');
    if visible.is_empty() {
        "upload".into()
    } else {
        visible.to_owned()
    }
}

/// Takes the temporary folder out of messages.
struct Hide(String);

impl Hide {
    fn message(&self, message: &str) -> String {
        message.replace(&self.0, "")
    }
}

/// The error of a submission [`run`] refused.
fn refusal(
    error: PipelineError,
    name: &str,
    archived: &BTreeMap<Family, usize>,
    hide: &Hide,
) -> SubmissionError {
    // The error names the submission once; its files' problems name
    // theirs.
    let own_name = format!("{name}: ");
    let why = |problems: &[copyhound_report::Problem]| {
        problems
            .iter()
            .map(|p| {
                let message = hide.message(&p.message);
                message
                    .strip_prefix(&own_name)
                    .map_or_else(|| message.clone(), str::to_owned)
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    match error {
        PipelineError::NoReadableFile { problems, .. } => SubmissionError::Unreadable {
            name: name.to_owned(),
            why: if problems.is_empty() {
                "no file in it".into()
            } else {
                why(&problems)
            },
        },
        PipelineError::NothingComparable {
            found, problems, ..
        } => {
            // The batch is one unit: its family, or none when no file
            // loaded.
            let Some(read_as) = found.first() else {
                return SubmissionError::Unreadable {
                    name: name.to_owned(),
                    why: why(&problems),
                };
            };
            let archived = archived
                .iter()
                .map(|(family, units)| format!("{family}: {units}"))
                .collect::<Vec<_>>()
                .join(", ");
            SubmissionError::NoUnitOfItsLanguage {
                name: name.to_owned(),
                read_as: read_as.to_string(),
                archived: if archived.is_empty() {
                    "it is empty".into()
                } else {
                    archived
                },
            }
        }
        other => SubmissionError::Pipeline(other),
    }
}

/// The answer from `outcome`, the comparison of the submission `name`
/// against the archive.
fn answer(
    outcome: &Outcome,
    name: &str,
    archived: &BTreeMap<Family, usize>,
    request: &SubmissionRequest,
    hide: &Hide,
) -> SubmissionResult {
    let tool = Tool::copyhound();
    let mut report = outcome.report(&tool, Some(request.limit));
    report.fill_details(&outcome.pair_details(&tool), request.detailed);
    let query = report
        .units
        .iter()
        .position(|unit| unit.path == name && unit.origin == copyhound_report::UnitOrigin::New)
        .unwrap_or_default();
    let text = |unit: usize, document: usize| {
        request
            .include_text
            .then(|| outcome.document_text(&report, unit, document))
            .flatten()
    };
    let files = report.units[query]
        .documents
        .iter()
        .enumerate()
        .map(|(document, file)| MatchedFile {
            name: file.path.clone(),
            text: text(query, document),
        })
        .collect();
    let matches = report
        .pairs
        .iter()
        .map(|pair| archive_match(&report, pair, query, &text))
        .collect();
    let language = report.units[query].language.clone().unwrap_or_default();
    SubmissionResult {
        archived_units: Family::from_name(&language)
            .and_then(|family| archived.get(&family).copied())
            .unwrap_or_default(),
        name: name.to_owned(),
        language,
        files,
        matches,
        warnings: report
            .problems
            .iter()
            .map(|problem| warning(problem, name, hide))
            .collect(),
    }
}

/// What the submitter is told of `problem`: a problem of the submission's
/// own files as it is (the temporary folder hidden); an archived unit that
/// could not be read again named by its unit name only, since its message
/// holds the place on the server its files were added from.
fn warning(problem: &Problem, name: &str, hide: &Hide) -> String {
    let own = problem
        .path
        .strip_prefix(name)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'));
    if own || problem.kind != ProblemKind::Unreadable {
        hide.message(&problem.message)
    } else {
        format!(
            "{} (archived): cannot be read again, so it was not compared",
            problem.path
        )
    }
}

/// `pair` as a match of the submission (unit `query` of `report`).
fn archive_match(
    report: &Report,
    pair: &PairReport,
    query: usize,
    text: &dyn Fn(usize, usize) -> Option<String>,
) -> ArchiveMatch {
    let query_is_a = pair.a.unit == query;
    let (ours, theirs) = if query_is_a {
        (&pair.a, &pair.b)
    } else {
        (&pair.b, &pair.a)
    };
    let sides = |a: &Location, b: &Location| {
        if query_is_a {
            (a.clone(), b.clone())
        } else {
            (b.clone(), a.clone())
        }
    };
    let passages = pair.passages.as_ref().map(|passages| {
        passages
            .iter()
            .map(|passage| {
                let (query, archived) = sides(&passage.a, &passage.b);
                SharedPassage {
                    fragments: passage.fragments,
                    matched_symbols: passage.matched_symbols,
                    query,
                    archived,
                }
            })
            .collect::<Vec<_>>()
    });
    let fragments = pair.fragments.as_ref().map(|fragments| {
        fragments
            .iter()
            .map(|fragment| {
                let (query, archived) = sides(&fragment.a, &fragment.b);
                SharedFragment {
                    symbols: fragment.symbols,
                    query,
                    archived,
                }
            })
            .collect::<Vec<_>>()
    });
    let touched: Vec<usize> = fragments
        .iter()
        .flatten()
        .map(|f| f.archived.document)
        .chain(passages.iter().flatten().map(|p| p.archived.document))
        .collect();
    let files = report.units[theirs.unit]
        .documents
        .iter()
        .enumerate()
        .map(|(document, file)| MatchedFile {
            name: file.path.clone(),
            text: touched
                .contains(&document)
                .then(|| text(theirs.unit, document))
                .flatten(),
        })
        .collect();
    ArchiveMatch {
        unit: theirs.path.clone(),
        similarity: pair.similarity,
        query_coverage: ours.coverage,
        archived_coverage: theirs.coverage,
        longest_fragment: pair.longest_fragment,
        shared_fingerprints: pair.shared_fingerprints,
        files,
        passages,
        fragments,
    }
}
