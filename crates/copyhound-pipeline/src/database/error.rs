//! Why a database operation failed, in words for the person who asked.

use copyhound_db::DbError;

/// Why a database operation failed.
#[derive(Debug, thiserror::Error)]
pub enum DatabaseError {
    /// The database itself refused or found damage.
    #[error(transparent)]
    Db(#[from] DbError),
    /// The database names a front-end this build does not have.
    #[error("the database uses an unknown front-end {0:?}")]
    UnknownFrontEnd(String),
    /// A document too short to have a fingerprint.
    #[error(
        "{name}: the document gives no fingerprint: {symbols} symbols after normalisation \
         (at least k = {k} are needed{})",
        skipped_prologue(*.prologue_bytes)
    )]
    NoFingerprint {
        /// The document's name.
        name: String,
        /// Its symbols.
        symbols: usize,
        /// The database's k.
        k: u32,
        /// Leading bytes the database skips.
        prologue_bytes: u32,
    },
    /// A code archive given to a command for text databases.
    #[error(
        "{}: a code archive: `db add` registers units in it and `compare NEW --against {}` \
         checks a batch against it; this command works on text databases",
        .0.display(),
        .0.display()
    )]
    CodeArchive(std::path::PathBuf),
    /// No random secret could be read for a new database.
    #[error("reading /dev/urandom for a seed")]
    Seed(#[source] std::io::Error),
    /// A document just added could not be read back.
    #[error("document {0} vanished after adding")]
    Vanished(copyhound_db::DocId),
    /// Writing to the standard output or a kept text failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

fn skipped_prologue(bytes: u32) -> String {
    if bytes == 0 {
        String::new()
    } else {
        format!(", after the first {bytes} bytes, which are skipped")
    }
}
