//! Report files: an existing report is replaced by a new file, not
//! truncated.
//!
//! Why: rerunning a comparison onto the same `--csv`/`--json`/`--report`
//! path is the usual way to work, and on ext4 truncating a file costs
//! wall time the new run never needed. Closing a file that was truncated
//! starts writing it to disk at once (the `auto_da_alloc` safeguard for
//! programs that replace files by truncation), and truncating a file whose
//! pages are still being written waits for that I/O. A 7 MB CSV written
//! over the previous run's took 5–7 ms longer than one written after
//! removing it (irplag-open, `perf stat -r 20`). Removing the old file and
//! creating a new one skips both: the old pages are dropped, dirty or not,
//! and the new ones are written back whenever the system chooses.
//!
//! Only a plain file with one name is replaced that way, keeping its
//! permissions (its owner becomes whoever runs copyhound, as for any new
//! file); a symbolic link, a file with other hard links, a device
//! (`/dev/null`, `/dev/stdout`) or a file in a folder we may not change is
//! truncated and written through as before.

use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::Path;

/// Opens `path` for writing a new report, empty, as [`File::create`]
/// does, but replacing an existing plain file instead of truncating it.
pub fn create_report_file(path: &Path) -> io::Result<File> {
    if let Some(permissions) = replaceable(path)
        && fs::remove_file(path).is_ok()
        // Someone may have made the name again in between: then it is
        // theirs to keep or truncate, as `File::create` would.
        && let Ok(file) = OpenOptions::new().write(true).create_new(true).open(path)
    {
        file.set_permissions(permissions)?;
        return Ok(file);
    }
    File::create(path)
}

/// The permissions of `path` if it is a plain file with no other name.
#[cfg(unix)]
fn replaceable(path: &Path) -> Option<fs::Permissions> {
    use std::os::unix::fs::MetadataExt;
    let metadata = fs::symlink_metadata(path).ok()?;
    (metadata.is_file() && metadata.nlink() == 1).then(|| metadata.permissions())
}

/// Elsewhere files are truncated: the ext4 behaviour this avoids is Linux's.
#[cfg(not(unix))]
fn replaceable(_: &Path) -> Option<fs::Permissions> {
    None
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::io::Write;
    use std::os::unix::fs::PermissionsExt;

    fn write(path: &Path, text: &str) {
        create_report_file(path)
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    }

    #[test]
    fn a_plain_file_is_replaced_by_a_new_one_with_its_permissions() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pairs.csv");
        write(&path, "a long first report\n");
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        // Whoever still reads the old report reads it whole: it was not
        // truncated.
        let mut reader = File::open(&path).unwrap();
        write(&path, "short\n");
        assert_eq!(fs::read_to_string(&path).unwrap(), "short\n");
        assert_eq!(
            io::read_to_string(&mut reader).unwrap(),
            "a long first report\n"
        );
        let mode = fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
    }

    #[test]
    fn a_new_name_is_created() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new.csv");
        write(&path, "x\n");
        assert_eq!(fs::read_to_string(&path).unwrap(), "x\n");
    }

    #[test]
    fn links_are_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target.csv");
        write(&target, "old report, longer than the new\n");
        // A symbolic link stays a link to the file it names.
        let symlink = dir.path().join("symlink.csv");
        std::os::unix::fs::symlink(&target, &symlink).unwrap();
        write(&symlink, "through the link\n");
        assert!(
            fs::symlink_metadata(&symlink)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_to_string(&target).unwrap(), "through the link\n");
        // Both names of a hard-linked file see the new report.
        let hard = dir.path().join("hard.csv");
        fs::hard_link(&target, &hard).unwrap();
        write(&hard, "both names\n");
        assert_eq!(fs::read_to_string(&target).unwrap(), "both names\n");
        assert_eq!(fs::read_to_string(&hard).unwrap(), "both names\n");
    }

    #[test]
    fn devices_are_written_to() {
        use std::os::unix::fs::FileTypeExt;
        write(Path::new("/dev/null"), "discarded\n");
        assert!(
            fs::metadata("/dev/null")
                .unwrap()
                .file_type()
                .is_char_device()
        );
    }
}
