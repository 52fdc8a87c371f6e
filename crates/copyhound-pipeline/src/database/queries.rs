//! `db search` of many query files: paths walked as `db add` walks them,
//! each file searched on its own as [`DocumentDatabase::search`] searches
//! one, its result given to the caller as soon as it is ready; a file that
//! cannot be read is named and the others are still searched.
//!
//! How results are printed ([`SearchFormat`]): as text, one block per
//! query; with JSON, one object, exactly as `POST /api/search` answers,
//! when the command names one file, otherwise JSON lines — one such
//! object per query and line. Lines rather than one array: each result is
//! written as soon as its query is searched (a folder of thousands of
//! queries is never held in memory, and what was printed before a failure
//! stays usable), and every line is the object a one-file search prints,
//! so one parser reads both (`jq` reads either as a stream of objects).

use std::io::{self, Write};
use std::path::PathBuf;

use rayon::prelude::*;

use super::{
    DatabaseError, DocumentDatabase, SearchRequest, SearchResult, WalkProblem, walk_paths,
};
use crate::{Line, PlannedFile, WalkFilter};

/// What searching many paths reports, as it goes.
#[derive(Debug)]
pub enum SearchEvent<'a> {
    /// One query searched (matched or not).
    Searched(SearchResult),
    /// What a walk did not follow or could not list, naming it; an
    /// unreadable directory also counts as failed.
    WalkProblem {
        /// The message.
        message: &'a str,
    },
    /// A query that could not be searched: why, naming it.
    Failed {
        /// The message.
        message: &'a str,
    },
}

/// How a search of many paths went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchSummary {
    /// Queries searched.
    pub searched: usize,
    /// Of them, those with at least one match.
    pub matched: usize,
    /// Query files or paths that could not be read.
    pub failed: usize,
}

impl SearchSummary {
    /// The exit status, as grep's: 2 when a query could not be read (the
    /// others were searched), else 0 when some query matched, 1 when none
    /// did.
    pub fn exit_status(&self) -> u8 {
        if self.failed > 0 {
            2
        } else {
            u8::from(self.matched == 0)
        }
    }
}

impl DocumentDatabase {
    /// Searches every file under `paths` (walked with `filter`) as
    /// `request` asks, reporting each result, in walk order, and each
    /// problem to `on`. Files are read and searched on every core, a few
    /// at a time, so results come in order and memory stays that of a few
    /// queries; only a failure of the database itself stops the search.
    pub fn search_paths(
        &self,
        paths: &[PathBuf],
        filter: &WalkFilter,
        request: &SearchRequest,
        on: &mut dyn FnMut(SearchEvent<'_>),
    ) -> Result<SearchSummary, DatabaseError> {
        let mut summary = SearchSummary::default();
        let files = walk_paths(paths, filter, &mut |problem| {
            summary.failed += usize::from(problem.failed());
            on(match problem {
                WalkProblem::Listing(problem) => SearchEvent::WalkProblem {
                    message: &problem.message,
                },
                WalkProblem::Path(message) => SearchEvent::Failed { message },
            });
        });
        for chunk in files.chunks(rayon::current_num_threads().max(1)) {
            let results: Vec<Result<Result<SearchResult, String>, DatabaseError>> = chunk
                .par_iter()
                .map(|file| self.search_file(file, request))
                .collect();
            for result in results {
                match result? {
                    Ok(result) => {
                        summary.searched += 1;
                        summary.matched += usize::from(!result.matches.is_empty());
                        on(SearchEvent::Searched(result));
                    }
                    Err(message) => {
                        summary.failed += 1;
                        on(SearchEvent::Failed { message: &message });
                    }
                }
            }
        }
        Ok(summary)
    }

    /// The search of one file a walk found, named by its path; the inner
    /// error names a file that cannot be read.
    fn search_file(
        &self,
        file: &PlannedFile,
        request: &SearchRequest,
    ) -> Result<Result<SearchResult, String>, DatabaseError> {
        let loaded = match self.load_planned(file) {
            Ok(loaded) => loaded,
            Err(error) => return Ok(Err(error.to_string())),
        };
        let name = file.path.display().to_string();
        self.search(&name, self.prepare(loaded), request).map(Ok)
    }
}

/// How `db search` prints its results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchFormat {
    /// Counts, matches and passages as lines of text, a blank line between
    /// queries.
    Text,
    /// One JSON object, indented: the search of one file.
    Json,
    /// One JSON object per query and line.
    JsonLines,
}

impl SearchFormat {
    /// The format of a search of `paths`: text without `json`; with it,
    /// one object when `paths` is one file, else JSON lines (so that the
    /// shape depends on the command, not on how many files a folder holds).
    pub fn of(json: bool, paths: &[PathBuf]) -> Self {
        match (json, paths) {
            (false, _) => Self::Text,
            (true, [path]) if path.is_file() => Self::Json,
            (true, _) => Self::JsonLines,
        }
    }

    /// Writes `result`, the `index`th one printed (from 0).
    pub fn write(
        self,
        result: &SearchResult,
        index: usize,
        out: &mut impl Write,
    ) -> io::Result<()> {
        match self {
            Self::Text => {
                if index > 0 {
                    writeln!(out)?;
                }
                result.write_text(out)?;
            }
            Self::Json => {
                serde_json::to_writer_pretty(&mut *out, result)?;
                writeln!(out)?;
            }
            Self::JsonLines => {
                serde_json::to_writer(&mut *out, result)?;
                writeln!(out)?;
            }
        }
        out.flush()
    }
}

/// Turns the events of a search of many paths into the lines `db search`
/// prints, as they come: each result in its [`SearchFormat`], what a walk
/// skipped as a warning, a query that could not be read as an error.
pub struct SearchLines {
    format: SearchFormat,
    printed: usize,
}

impl SearchLines {
    /// The lines of a search of `paths`, as JSON when `json`.
    pub fn new(json: bool, paths: &[PathBuf]) -> Self {
        Self {
            format: SearchFormat::of(json, paths),
            printed: 0,
        }
    }

    /// The line of `event`.
    pub fn line(&mut self, event: SearchEvent<'_>) -> Line {
        match event {
            SearchEvent::Searched(result) => {
                let mut text = Vec::new();
                self.format
                    .write(&result, self.printed, &mut text)
                    .expect("writing to memory cannot fail");
                self.printed += 1;
                let text = String::from_utf8_lossy(&text);
                Line::Out(text.strip_suffix('\n').unwrap_or(&text).to_owned())
            }
            SearchEvent::WalkProblem { message } => Line::Warning(message.to_owned()),
            SearchEvent::Failed { message } => Line::Error(message.to_owned()),
        }
    }
}
