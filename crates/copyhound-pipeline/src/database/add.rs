//! Registering documents: files found by the pipeline's walker (with the
//! caller's filter; the files of an archive are registered one by one,
//! each located at `alice.zip/src/Main.java`), or one upload.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::sync_channel;

use copyhound_db::{DocId, DocumentMeta, DocumentRecord, NewDocument};
use copyhound_normalize::DocumentKind;
use copyhound_normalize::budget::{MemoryGate, memory_per_byte};
use copyhound_report::terminal_safe;
use rayon::prelude::*;

use super::{DatabaseError, DocumentDatabase, PreparedDocument, WalkProblem, walk_paths};
use crate::{Line, PlannedFile, WalkFilter};

/// What `db add` registers, and how.
#[derive(Clone, Debug)]
pub struct AddRequest {
    /// Files, or directories walked as `compare` walks them.
    pub paths: Vec<PathBuf>,
    /// Stored as every document's location instead of its path.
    pub url: Option<String>,
    /// A contact address for every document.
    pub email: String,
    /// A title for every document (default: its file name).
    pub title: Option<String>,
    /// Documents per transaction: each batch is durable when it is
    /// reported.
    pub batch: usize,
    /// Which files directories are walked for, and how.
    pub filter: WalkFilter,
}

/// What happened to one file, as it happens.
#[derive(Debug)]
pub enum AddEvent<'a> {
    /// Registered under `id`.
    Added {
        /// Its id.
        id: DocId,
        /// Its path, as walked.
        path: &'a Path,
    },
    /// Loaded, with a remark (a guessed encoding, replaced bytes…).
    Warning {
        /// Its path.
        path: &'a Path,
        /// The remark.
        message: &'a str,
    },
    /// What a walk could not list or did not follow (a link, a second path
    /// to a file already read), naming it; an unreadable directory also
    /// counts as failed.
    WalkProblem {
        /// The message.
        message: &'a str,
    },
    /// Not registered: why, naming the file.
    Failed {
        /// The message.
        message: &'a str,
    },
}

impl AddEvent<'_> {
    /// The event as `db add` prints it: `added ID\tPATH` on standard
    /// output, or a warning or an error naming the file.
    pub fn line(&self) -> Line {
        match self {
            AddEvent::Added { id, path } => Line::Out(format!(
                "added {id}\t{}",
                terminal_safe(&path.to_string_lossy())
            )),
            AddEvent::Warning { path, message } => {
                Line::Warning(format!("{}: {message}", path.display()))
            }
            AddEvent::WalkProblem { message } => Line::Warning((*message).to_owned()),
            AddEvent::Failed { message } => Line::Error((*message).to_owned()),
        }
    }
}

/// How an add went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AddSummary {
    /// Documents registered.
    pub added: usize,
    /// Files or paths that could not be.
    pub failed: usize,
}

/// A file ready to register (with its load warnings), or why it is not.
type PreparedFile = Result<(NewDocument, Vec<String>), String>;

impl DocumentDatabase {
    /// Registers every file under `request.paths`, reporting each to `on`.
    /// Loading, normalising and selecting the next batch (on every core)
    /// overlaps with committing this one. A path or file that cannot be
    /// read is reported and skipped; the database is then flushed, merged
    /// and its catalogue compacted.
    pub fn add_paths(
        &mut self,
        request: &AddRequest,
        on: &mut dyn FnMut(AddEvent<'_>),
    ) -> Result<AddSummary, DatabaseError> {
        let mut summary = AddSummary::default();
        let files = walk_paths(&request.paths, &request.filter, &mut |problem| {
            summary.failed += usize::from(problem.failed());
            on(match problem {
                WalkProblem::Listing(problem) => AddEvent::WalkProblem {
                    message: &problem.message,
                },
                WalkProblem::Path(message) => AddEvent::Failed { message },
            });
        });
        let this = &*self;
        // Files loaded at once together stay within one file's memory
        // budget: a large file waits for the others, then loads alone.
        let gate = MemoryGate::new(self.load_options.memory_budget);
        let gate = &gate;
        std::thread::scope(|scope| -> Result<(), DatabaseError> {
            let (sender, receiver) = sync_channel(1);
            let files = &files;
            scope.spawn(move || {
                for chunk in files.chunks(request.batch.max(1)) {
                    let prepared: Vec<PreparedFile> = chunk
                        .par_iter()
                        .map(|file: &PlannedFile| {
                            let size = match &file.content {
                                Some(bytes) => Some(bytes.len() as u64),
                                None => fs::metadata(&file.path).ok().map(|m| m.len()),
                            };
                            // Loading, then fingerprinting and batching the
                            // print: about 44 times the text at 8 MiB
                            // (`/usr/bin/time -v`), twice the loader's factor.
                            let _reserved = gate.reserve(
                                size.unwrap_or(0)
                                    .saturating_mul(2 * memory_per_byte(DocumentKind::Text)),
                            );
                            this.prepare_file(request, file, size)
                        })
                        .collect();
                    if sender.send((chunk, prepared)).is_err() {
                        break;
                    }
                }
            });
            for (chunk, prepared) in receiver {
                let mut batch = Vec::new();
                let mut paths = Vec::new();
                for (path, outcome) in chunk.iter().map(|f| f.path.as_path()).zip(prepared) {
                    match outcome {
                        Ok((document, warnings)) => {
                            for message in &warnings {
                                on(AddEvent::Warning { path, message });
                            }
                            batch.push(document);
                            paths.push(path);
                        }
                        Err(message) => {
                            summary.failed += 1;
                            on(AddEvent::Failed { message: &message });
                        }
                    }
                }
                if batch.is_empty() {
                    continue;
                }
                let ids = this.db.add(batch)?;
                summary.added += ids.len();
                for (id, path) in ids.into_iter().zip(paths) {
                    on(AddEvent::Added { id, path });
                }
            }
            Ok(())
        })?;
        self.finish_writing()?;
        Ok(summary)
    }

    /// The staging area is the crash-safe log of the documents just added;
    /// once they are all in, a segment holds their postings in less space
    /// and the catalogue file can give its staging pages back (when no one
    /// else holds the database).
    pub(super) fn finish_writing(&mut self) -> Result<(), DatabaseError> {
        if self.db.flush()? {
            self.db.merge()?;
        }
        if let Some(db) = Arc::get_mut(&mut self.db) {
            db.compact_catalog()?;
        }
        Ok(())
    }

    /// The file a walk found (of `size` bytes, when known) loaded and
    /// fingerprinted as `request` registers it.
    fn prepare_file(
        &self,
        request: &AddRequest,
        file: &PlannedFile,
        size: Option<u64>,
    ) -> PreparedFile {
        let path = file.path.as_path();
        let loaded = self.load_planned(file).map_err(|e| e.to_string())?;
        // A file of an archive has no path of its own to resolve.
        let location = match &request.url {
            Some(url) => url.clone(),
            None => fs::canonicalize(path)
                .or_else(|_| std::path::absolute(path))
                .unwrap_or_else(|_| path.to_owned())
                .display()
                .to_string(),
        };
        let title = request.title.clone().unwrap_or_else(|| {
            path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            )
        });
        let meta = DocumentMeta {
            title,
            location,
            email: request.email.clone(),
            size: size.unwrap_or(loaded.text.len() as u64),
        };
        let PreparedDocument { loaded, print } = self.prepare(loaded);
        Ok((NewDocument { meta, print }, loaded.warnings))
    }

    /// Registers one prepared document (an upload) under `meta`, keeps its
    /// text where texts are kept, and returns its record. A text that
    /// cannot be kept only costs the side by side view: it is returned as
    /// an error message beside the record.
    pub fn register(
        &self,
        meta: DocumentMeta,
        prepared: &PreparedDocument,
    ) -> Result<(DocumentRecord, Option<String>), DatabaseError> {
        let ids = self.db.add(vec![NewDocument {
            meta,
            print: prepared.print.clone(),
        }])?;
        let id = ids[0];
        let text_error = self.texts.as_ref().and_then(|texts| {
            texts.put(id, &prepared.loaded.text).err().map(|error| {
                format!(
                    "{}: cannot keep the text: {error}",
                    texts.path(id).display()
                )
            })
        });
        let record = self.db.document(id)?.ok_or(DatabaseError::Vanished(id))?;
        Ok((record, text_error))
    }

    /// Unregisters each of `ids` and forgets its kept text, as `db remove`
    /// says it: `removed ID\tTITLE`, or an error for an id that is not
    /// there, each line to `on`; whether every id was there.
    pub fn remove_all(
        &self,
        ids: &[DocId],
        on: &mut dyn FnMut(Line),
    ) -> Result<bool, DatabaseError> {
        let mut found_all = true;
        for &id in ids {
            let Some((record, text_error)) = self.remove(id)? else {
                on(Line::Error(format!("no document {id}")));
                found_all = false;
                continue;
            };
            on(Line::Out(format!(
                "removed {id}\t{}",
                terminal_safe(&record.meta.title)
            )));
            if let Some(error) = text_error {
                on(Line::Warning(error));
            }
        }
        Ok(found_all)
    }

    /// Unregisters `id` and forgets its kept text; `None` when there is no
    /// such document. A kept text that cannot be deleted is returned as a
    /// message beside the record.
    pub fn remove(
        &self,
        id: DocId,
    ) -> Result<Option<(DocumentRecord, Option<String>)>, DatabaseError> {
        let Some(record) = self.db.remove(id)? else {
            return Ok(None);
        };
        let text_error = self.texts.as_ref().and_then(|texts| {
            texts.remove(id).err().map(|error| {
                format!(
                    "{}: cannot delete the kept text: {error}",
                    texts.path(id).display()
                )
            })
        });
        Ok(Some((record, text_error)))
    }
}
