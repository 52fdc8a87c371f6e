//! The texts of documents registered from uploads, kept so that later
//! searches can show matching passages side by side.
//!
//! The database keeps fingerprints only. A document registered from a file
//! (`copyhound db add`) can be read again from its location; one uploaded
//! over HTTP has no file, so the server writes its decoded text to
//! `<dir>/<id>.txt` (written to a temporary name and renamed, so a reader
//! never sees half a file). Its spans then index into exactly that text.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use copyhound_db::DocId;

/// A folder of kept texts.
#[derive(Clone, Debug)]
pub struct TextStore {
    dir: PathBuf,
}

impl TextStore {
    /// Texts in `dir`, created if missing.
    pub fn open(dir: &Path) -> io::Result<Self> {
        fs::create_dir_all(dir)?;
        Ok(Self {
            dir: dir.to_owned(),
        })
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where the text of `id` is kept.
    pub fn path(&self, id: DocId) -> PathBuf {
        self.dir.join(format!("{id}.txt"))
    }

    /// Keeps `text` as the text of `id`.
    pub fn put(&self, id: DocId, text: &str) -> io::Result<()> {
        let temporary = self.dir.join(format!("{id}.txt.tmp"));
        fs::write(&temporary, text)?;
        fs::rename(&temporary, self.path(id))
    }

    /// Forgets the text of `id`; a text that was never kept is no error.
    pub fn remove(&self, id: DocId) -> io::Result<()> {
        match fs::remove_file(self.path(id)) {
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(()),
            other => other,
        }
    }
}
