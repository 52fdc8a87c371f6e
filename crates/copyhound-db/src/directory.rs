//! The database directory: every name the database gives a file is made
//! and recognised here, and every file is created, published (renamed into
//! place and the directory synced) and cleaned up here.
//!
//! ```text
//! catalog.redb                the catalogue
//! 000000000007.seg            a segment the manifest lists
//! 000000000006.prints         a cold print file the manifest lists
//! 000000000008.seg.tmp        a flush's segment being written
//! 000000000009.prints.tmp     a flush's print file being written
//! merge-<pid>-<n>.tmp         a merge being written (outside any transaction)
//! ```
//!
//! A file is written under a temporary name by a [`TempFile`], which holds
//! an exclusive lock on it while it lives and deletes it if it is dropped
//! before being published: a write that fails leaves nothing behind. A
//! temporary file nobody holds a lock on was left by a process that died
//! (the lock goes with it), so [`Directory::remove_orphans`] deletes it
//! whenever the database is opened or flushed. A numbered file that the
//! manifest does not list is garbage once no writer can be about to list
//! it. Other files in the directory are never touched.

use std::collections::HashSet;
use std::fs::{self, File, TryLockError};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::catalog::Manifest;
use crate::error::{DbError, Result};
use crate::segment::Segment;

/// The catalogue file inside a database directory.
pub const CATALOG_FILE: &str = "catalog.redb";

/// A temporary file older than this, on a file system without locks, is
/// left over from a crash.
const STALE_TEMPORARY: Duration = Duration::from_secs(600);

/// Numbers the merge files of this process.
static MERGE_FILES: AtomicU64 = AtomicU64::new(0);

/// A file the database writes beside its catalogue, by its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DataFile {
    /// `<number>.seg` (12 digits).
    Segment(u64),
    /// `<number>.prints`.
    Prints(u64),
    /// `<number>.seg.tmp`: a flush's segment being written.
    SegmentTemp(u64),
    /// `<number>.prints.tmp`: a flush's print file being written.
    PrintsTemp(u64),
    /// `merge-<pid>-<n>.tmp`: a merge being written.
    MergeTemp {
        /// The writing process.
        pid: u32,
        /// The merge's number in that process.
        n: u64,
    },
}

impl DataFile {
    /// The file's name.
    pub(crate) fn name(self) -> String {
        match self {
            Self::Segment(number) => format!("{number:012}.seg"),
            Self::Prints(number) => format!("{number:012}.prints"),
            Self::SegmentTemp(number) => format!("{number:012}.seg.tmp"),
            Self::PrintsTemp(number) => format!("{number:012}.prints.tmp"),
            Self::MergeTemp { pid, n } => format!("merge-{pid}-{n}.tmp"),
        }
    }

    /// The file a name is, if it is one of the database's.
    pub(crate) fn parse(name: &str) -> Option<Self> {
        let number = |stem: &str| {
            (stem.len() == 12 && stem.bytes().all(|b| b.is_ascii_digit()))
                .then(|| stem.parse().ok())
                .flatten()
        };
        if let Some(stem) = name.strip_suffix(".tmp") {
            if let Some(ids) = stem.strip_prefix("merge-") {
                let (pid, n) = ids.split_once('-')?;
                return Some(Self::MergeTemp {
                    pid: pid.parse().ok()?,
                    n: n.parse().ok()?,
                });
            }
            return match Self::parse(stem)? {
                Self::Segment(number) => Some(Self::SegmentTemp(number)),
                Self::Prints(number) => Some(Self::PrintsTemp(number)),
                _ => None,
            };
        }
        if let Some(stem) = name.strip_suffix(".seg") {
            number(stem).map(Self::Segment)
        } else {
            name.strip_suffix(".prints")
                .and_then(number)
                .map(Self::Prints)
        }
    }

    /// The number of a segment or print file (temporary or not).
    fn number(self) -> Option<u64> {
        match self {
            Self::Segment(n) | Self::Prints(n) | Self::SegmentTemp(n) | Self::PrintsTemp(n) => {
                Some(n)
            }
            Self::MergeTemp { .. } => None,
        }
    }

    /// Whether it is being written (or was, by a process that died).
    fn is_temporary(self) -> bool {
        !matches!(self, Self::Segment(_) | Self::Prints(_))
    }
}

/// The files of a manifest, by name.
fn listed(manifest: &Manifest) -> HashSet<String> {
    let segments = manifest
        .segments
        .iter()
        .map(|s| DataFile::Segment(s.number));
    let prints = manifest
        .print_files
        .iter()
        .map(|p| DataFile::Prints(p.number));
    segments.chain(prints).map(DataFile::name).collect()
}

/// Which unlisted segment and print files [`Directory::remove_orphans`]
/// may delete.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Unlisted {
    /// Every one: the caller holds the write transaction, and files are
    /// only renamed into place inside one.
    All,
    /// Those numbered below this, the manifest's next number in a snapshot:
    /// a writer can only be about to list files numbered from there on.
    Below(u64),
}

/// A database directory.
#[derive(Debug)]
pub(crate) struct Directory {
    path: PathBuf,
}

impl Directory {
    /// The directory at `path`.
    pub(crate) fn new(path: &Path) -> Self {
        Self {
            path: path.to_owned(),
        }
    }

    /// Its path.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// The catalogue file.
    pub(crate) fn catalog(&self) -> PathBuf {
        self.path.join(CATALOG_FILE)
    }

    /// The path of a file of the database.
    pub(crate) fn file(&self, file: DataFile) -> PathBuf {
        self.path.join(file.name())
    }

    /// Maps segment `number`.
    pub(crate) fn open_segment(&self, number: u64) -> Result<Segment> {
        Segment::open(&self.file(DataFile::Segment(number)))
    }

    /// Deletes segments a committed manifest no longer lists. Failures are
    /// harmless (an unlisted file is removed later), so they are ignored.
    pub(crate) fn remove_segments(&self, numbers: impl IntoIterator<Item = u64>) {
        for number in numbers {
            let _ = fs::remove_file(self.file(DataFile::Segment(number)));
        }
    }

    /// Makes a rename or creation in the directory durable.
    pub(crate) fn sync(&self) -> Result<()> {
        File::open(&self.path)
            .and_then(|d| d.sync_all())
            .map_err(|e| DbError::io(&self.path, e))
    }

    /// A new temporary file for a flush's segment or print file `number`.
    /// Call inside the write transaction that will list it: a file already
    /// there under that name was left by a crash (only the transaction's
    /// holder writes these numbers), and is replaced.
    pub(crate) fn numbered_temp(&self, file: DataFile) -> Result<TempFile> {
        debug_assert!(matches!(
            file,
            DataFile::SegmentTemp(_) | DataFile::PrintsTemp(_)
        ));
        let path = self.file(file);
        let _ = fs::remove_file(&path);
        TempFile::create(&path)
    }

    /// A new temporary file for a merge, named after this process.
    pub(crate) fn merge_temp(&self) -> Result<TempFile> {
        let file = DataFile::MergeTemp {
            pid: std::process::id(),
            n: MERGE_FILES.fetch_add(1, Ordering::Relaxed),
        };
        TempFile::create(&self.file(file))
    }

    /// Renames `temp` to `file` and syncs the directory, so that a crash
    /// after this leaves the file under its final name.
    pub(crate) fn publish(&self, temp: TempFile, file: DataFile) -> Result<()> {
        let target = self.file(file);
        fs::rename(&temp.path, &target).map_err(|e| DbError::io(&temp.path, e))?;
        temp.disarm();
        self.sync()
    }

    /// Deletes the files a failed or killed write left: temporary files no
    /// live writer holds, and the segment and print files the manifest does
    /// not list that `unlisted` allows. Failures are harmless (the next
    /// call retries), so they are ignored.
    pub(crate) fn remove_orphans(&self, manifest: &Manifest, unlisted: Unlisted) {
        let live = listed(manifest);
        let Ok(entries) = fs::read_dir(&self.path) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(file) = DataFile::parse(&name) else {
                continue;
            };
            let path = entry.path();
            if file.is_temporary() {
                remove_if_abandoned(&path);
            } else if !live.contains(&name) {
                let garbage = match unlisted {
                    Unlisted::All => true,
                    Unlisted::Below(next) => file.number().is_some_and(|n| n < next),
                };
                if garbage {
                    let _ = fs::remove_file(path);
                }
            }
        }
    }

    /// The database's files in the directory that `manifest` does not
    /// list, temporary ones included.
    pub(crate) fn unlisted(&self, manifest: &Manifest) -> Vec<PathBuf> {
        let live = listed(manifest);
        let Ok(entries) = fs::read_dir(&self.path) else {
            return Vec::new();
        };
        let mut out: Vec<PathBuf> = entries
            .flatten()
            .filter(|entry| {
                let name = entry.file_name().to_string_lossy().into_owned();
                DataFile::parse(&name).is_some() && !live.contains(&name)
            })
            .map(|entry| entry.path())
            .collect();
        out.sort();
        out
    }
}

/// Deletes the temporary file at `path` unless a writer holds its lock. On
/// a file system without locks, only a file older than [`STALE_TEMPORARY`].
fn remove_if_abandoned(path: &Path) {
    let Ok(file) = File::open(path) else {
        return;
    };
    let abandoned = match file.try_lock() {
        Ok(()) => true,
        Err(TryLockError::WouldBlock) => false,
        Err(TryLockError::Error(_)) => file
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > STALE_TEMPORARY),
    };
    if abandoned {
        // Still holding the lock, so no writer can have taken the name.
        let _ = fs::remove_file(path);
    }
}

/// A file being written under a temporary name: locked while it lives, so
/// that no cleanup takes it for an orphan, and deleted when dropped unless
/// [`Directory::publish`] renamed it into place.
#[derive(Debug)]
pub(crate) struct TempFile {
    path: PathBuf,
    /// The handle that holds the lock, open until the file is published or
    /// deleted.
    lock: File,
    published: bool,
}

impl TempFile {
    /// Creates the file (it must not exist) and locks it.
    fn create(path: &Path) -> Result<Self> {
        loop {
            let lock = File::options()
                .read(true)
                .write(true)
                .create_new(true)
                .open(path)
                .map_err(|e| DbError::io(path, e))?;
            let temp = Self {
                path: path.to_owned(),
                lock,
                published: false,
            };
            // Waits while a cleanup that found the file unlocked deletes it.
            match temp.lock.lock() {
                Ok(()) => {}
                // Without locks, only its age protects the file.
                Err(e) if e.kind() == std::io::ErrorKind::Unsupported => {}
                Err(e) => return Err(DbError::io(path, e)),
            }
            if temp.path.exists() {
                return Ok(temp);
            }
            // A cleanup deleted it between its creation and the lock.
            temp.disarm();
        }
    }

    /// Its path.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// A handle to write the file through.
    pub(crate) fn writer(&self) -> Result<File> {
        self.lock
            .try_clone()
            .map_err(|e| DbError::io(&self.path, e))
    }

    /// Keeps the file: it has been renamed into place.
    fn disarm(mut self) {
        self.published = true;
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if !self.published {
            // Deleted before the lock goes, so no cleanup races for it.
            let _ = fs::remove_file(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_made_and_recognised_in_one_place() {
        for file in [
            DataFile::Segment(7),
            DataFile::Prints(6),
            DataFile::SegmentTemp(8),
            DataFile::PrintsTemp(9),
            DataFile::MergeTemp { pid: 4242, n: 3 },
        ] {
            assert_eq!(DataFile::parse(&file.name()), Some(file), "{}", file.name());
        }
        assert_eq!(DataFile::Segment(7).name(), "000000000007.seg");
        for other in [
            "catalog.redb",
            "notes.seg",
            "notes.tmp",
            "7.seg",
            "00000000000x.seg",
            "000000000007.seg.bak",
            "merge-x-1.tmp",
            "000000000007.tmp",
        ] {
            assert_eq!(DataFile::parse(other), None, "{other}");
        }
    }

    #[test]
    fn a_dropped_temporary_file_is_deleted_and_a_published_one_kept() {
        let dir = tempfile::tempdir().unwrap();
        let directory = Directory::new(dir.path());
        let temp = directory.merge_temp().unwrap();
        let path = temp.path().to_owned();
        std::io::Write::write_all(&mut temp.writer().unwrap(), b"half").unwrap();
        drop(temp);
        assert!(!path.exists());
        let temp = directory.numbered_temp(DataFile::SegmentTemp(3)).unwrap();
        directory.publish(temp, DataFile::Segment(3)).unwrap();
        assert!(directory.file(DataFile::Segment(3)).exists());
        assert!(!directory.file(DataFile::SegmentTemp(3)).exists());
    }

    #[test]
    fn cleanup_spares_the_files_of_live_writers() {
        let dir = tempfile::tempdir().unwrap();
        let directory = Directory::new(dir.path());
        let live = directory.merge_temp().unwrap();
        fs::write(directory.file(DataFile::PrintsTemp(5)), b"left").unwrap();
        fs::write(dir.path().join("notes.tmp"), b"").unwrap();
        // Numbers 0 and 1 are in the past of a manifest at 2; 2 may be
        // about to be listed.
        for number in 0..3 {
            fs::write(directory.file(DataFile::Segment(number)), b"").unwrap();
        }
        let manifest = Manifest {
            next_number: 2,
            ..Manifest::default()
        };
        let left = || {
            let mut names: Vec<String> = fs::read_dir(dir.path())
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            names
        };
        directory.remove_orphans(&manifest, Unlisted::Below(2));
        let live_name = live.path().file_name().unwrap().to_string_lossy();
        assert_eq!(
            left(),
            ["000000000002.seg", live_name.as_ref(), "notes.tmp"]
        );
        directory.remove_orphans(&manifest, Unlisted::All);
        drop(live);
        assert_eq!(left(), ["notes.tmp"]);
    }
}
