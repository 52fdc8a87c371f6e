//! Archives as submissions: the files of a `.zip`, `.tar`, `.tar.gz` or
//! `.tgz` are read into memory, never written to disk, and walked as if
//! the archive were a folder (`alice.zip/src/Main.java`).
//!
//! An archive comes from a student, so it is read as hostile input. Before
//! anything is allocated, the limits of [`ArchiveLimits`] are checked: the
//! archive's own size, its number of entries, the size each entry declares
//! and the sum of them, and how much each zip entry, or a compressed tar
//! stream as a whole, expands. What a header declares can lie, so reading
//! stops one byte past it. An archive over a limit of the whole is refused
//! with one problem; an entry that is too large, expands too much, is
//! encrypted, is a link, or whose name climbs out of the archive (`..`, an
//! absolute path) is refused with a problem naming the archive and the
//! entry, and the rest is read. An archive inside an archive is not
//! expanded: it is a problem.

use std::cell::Cell;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::Path;

use copyhound_report::{Problem, ProblemKind};
use flate2::read::GzDecoder;
use zip::ZipArchive;

/// How much of an archive is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArchiveLimits {
    /// The archive file, and the files it holds added up, may not be
    /// larger than this many bytes: the archive is refused.
    pub max_total_bytes: u64,
    /// A file inside larger than this is refused, unread.
    pub max_entry_bytes: u64,
    /// An archive with more entries (folders included) is refused.
    pub max_entries: usize,
    /// A zip entry of more than 1 MiB, or the stream of a compressed tar,
    /// that expands more than this many times is refused: source code and
    /// prose compress 3–10 times, a decompression bomb a thousand.
    pub max_ratio: u64,
}

impl Default for ArchiveLimits {
    /// 512 MiB in all, 64 MiB a file (the front-end's own default limit),
    /// 20,000 entries, a ratio of 200.
    fn default() -> Self {
        Self {
            max_total_bytes: 512 << 20,
            max_entry_bytes: 64 << 20,
            max_entries: 20_000,
            max_ratio: 200,
        }
    }
}

/// Entries smaller than this may compress extremely well (runs of spaces)
/// and are harmless.
const RATIO_CHECK_MIN_BYTES: u64 = 1 << 20;

/// What a tar stream may hold beyond its files' bytes, per entry: a header,
/// padding, a long name.
const TAR_OVERHEAD_PER_ENTRY: u64 = 4 << 10;

/// The kinds of archive read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    Zip,
    Tar,
    TarGz,
}

/// The format of the archive at `path`, by its name; `None` for any other
/// file.
pub(crate) fn format_of(path: &Path) -> Option<Format> {
    let lower = |p: &Path| {
        p.extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
    };
    match lower(path)?.as_str() {
        "zip" => Some(Format::Zip),
        "tar" => Some(Format::Tar),
        "tgz" => Some(Format::TarGz),
        "gz" if lower(Path::new(path.file_stem()?)).as_deref() == Some("tar") => {
            Some(Format::TarGz)
        }
        _ => None,
    }
}

/// Globs naming archives, so that `--include` globs, which choose files
/// inside archives too, never leave an archive itself out.
pub(crate) const ARCHIVE_GLOBS: [&str; 4] = ["*.zip", "*.tar", "*.tar.gz", "*.tgz"];

/// One file of an archive.
pub(crate) struct Entry {
    /// Its path inside the archive, `/`-separated, without `.` or empty
    /// components.
    pub name: String,
    pub bytes: Vec<u8>,
}

/// What an archive held, and what of it was refused.
#[derive(Default)]
pub(crate) struct Expanded {
    pub entries: Vec<Entry>,
    pub problems: Vec<Problem>,
}

/// The files of the archive at `path` that `wanted` (given each file's
/// name inside) asks for, within `limits`.
pub(crate) fn expand(
    path: &Path,
    format: Format,
    limits: &ArchiveLimits,
    wanted: &dyn Fn(&str) -> bool,
) -> Expanded {
    let mut expansion = Expansion {
        archive: path.display().to_string(),
        limits,
        wanted,
        count: 0,
        total: 0,
        expanded: Expanded::default(),
    };
    if let Err(Refused(why)) = expansion.read(path, format) {
        let archive = expansion.archive;
        return Expanded {
            entries: Vec::new(),
            problems: vec![Problem {
                message: format!("{archive}: archive refused: {why}"),
                path: archive,
                kind: ProblemKind::Unreadable,
            }],
        };
    }
    expansion.expanded
}

/// The bytes of the archive entry at `path` (`subs/alice.zip/src/Main.java`):
/// the archive is the nearest ancestor of `path` that is a file. `None`
/// when there is no such archive or entry, or it is refused.
pub(crate) fn read_entry(path: &Path, limits: &ArchiveLimits) -> Option<Vec<u8>> {
    let archive = path.ancestors().skip(1).find(|a| a.is_file())?;
    let format = format_of(archive)?;
    let name = path
        .strip_prefix(archive)
        .ok()?
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/");
    let mut expanded = expand(archive, format, limits, &|entry| entry == name);
    expanded.entries.pop().map(|entry| entry.bytes)
}

/// Why a whole archive is refused.
struct Refused(String);

/// One archive being read.
struct Expansion<'a> {
    /// Its path, as messages name it.
    archive: String,
    limits: &'a ArchiveLimits,
    wanted: &'a dyn Fn(&str) -> bool,
    /// Entries met so far, of every kind.
    count: usize,
    /// Bytes of the files read so far.
    total: u64,
    expanded: Expanded,
}

impl Expansion<'_> {
    fn read(&mut self, path: &Path, format: Format) -> Result<(), Refused> {
        let file = File::open(path).map_err(|e| Refused(format!("cannot read: {e}")))?;
        let size = file
            .metadata()
            .map_err(|e| Refused(format!("cannot read: {e}")))?
            .len();
        if size > self.limits.max_total_bytes {
            return Err(Refused(format!(
                "{size} bytes, over the limit of {} for an archive",
                self.limits.max_total_bytes
            )));
        }
        let file = BufReader::new(file);
        match format {
            Format::Zip => self.read_zip(file),
            Format::Tar => self.read_tar(file, u64::MAX),
            Format::TarGz => {
                let expands_to = size
                    .saturating_mul(self.limits.max_ratio)
                    .max(RATIO_CHECK_MIN_BYTES);
                self.read_tar(GzDecoder::new(file), expands_to)
            }
        }
    }

    /// Counts one more entry, refusing the archive past the limit.
    fn count_entry(&mut self) -> Result<(), Refused> {
        self.count += 1;
        if self.count > self.limits.max_entries {
            return Err(self.too_many_entries());
        }
        Ok(())
    }

    fn too_many_entries(&self) -> Refused {
        Refused(format!(
            "more than {} entries (a limit of copyhound)",
            self.limits.max_entries
        ))
    }

    fn read_zip(&mut self, file: BufReader<File>) -> Result<(), Refused> {
        let mut archive = ZipArchive::new(file)
            .map_err(|e| Refused(format!("not a readable zip archive: {e}")))?;
        if archive.len() > self.limits.max_entries {
            return Err(self.too_many_entries());
        }
        for index in 0..archive.len() {
            self.count_entry()?;
            let raw = match archive.name_for_index(index) {
                Some(Ok(name)) => name.into_owned(),
                _ => format!("entry #{index}"),
            };
            let mut entry = match archive.by_index(index) {
                Ok(entry) => entry,
                Err(error) => {
                    self.refuse_entry(&raw, &format!("cannot read: {error}"));
                    continue;
                }
            };
            if entry.is_dir() {
                continue;
            }
            if entry.is_symlink() {
                self.skip_entry(&raw, "a symbolic link, not followed");
                continue;
            }
            let declared = entry.size();
            let Some(name) = self.admit(&raw, declared)? else {
                continue;
            };
            if entry.encrypted() {
                self.refuse_entry(&raw, "encrypted");
                continue;
            }
            let compressed = entry.compressed_size().max(1);
            if declared >= RATIO_CHECK_MIN_BYTES && declared > self.limits.max_ratio * compressed {
                self.refuse_entry(
                    &raw,
                    &format!(
                        "expands {} times ({compressed} bytes to {declared}), over the limit of {} (a decompression bomb?)",
                        declared / compressed,
                        self.limits.max_ratio
                    ),
                );
                continue;
            }
            self.take(name, &raw, &mut entry, declared);
        }
        Ok(())
    }

    /// Reads a tar stream that may not expand past `expands_to` bytes.
    fn read_tar(&mut self, stream: impl Read, expands_to: u64) -> Result<(), Refused> {
        let limit = (self.limits.max_entries as u64)
            .saturating_mul(TAR_OVERHEAD_PER_ENTRY)
            .saturating_add(self.limits.max_total_bytes)
            .min(expands_to);
        let max_ratio = self.limits.max_ratio;
        let exceeded = Cell::new(false);
        let bounded = Bounded {
            inner: stream,
            left: limit,
            exceeded: &exceeded,
        };
        let refused = |error: io::Error| {
            if exceeded.get() {
                Refused(format!(
                    "expands past {limit} bytes, over {max_ratio} times its size or the limit of copyhound (a decompression bomb?)"
                ))
            } else {
                Refused(format!("not a readable tar archive: {error}"))
            }
        };
        let mut archive = tar::Archive::new(bounded);
        let entries = archive.entries().map_err(&refused)?;
        for entry in entries {
            let mut entry = entry.map_err(&refused)?;
            self.count_entry()?;
            let raw = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
            let kind = entry.header().entry_type();
            if kind.is_dir() {
                continue;
            }
            if !kind.is_file() {
                self.skip_entry(&raw, "a link or special file, not followed");
                continue;
            }
            let declared = entry.size();
            if let Some(name) = self.admit(&raw, declared)? {
                self.take(name, &raw, &mut entry, declared);
            }
        }
        if exceeded.get() {
            return Err(refused(io::Error::other("limit")));
        }
        Ok(())
    }

    /// Checks a file entry before reading it: its clean name when it is
    /// to be read, `None` when it is left out (a problem says why when it
    /// is refused). An entry that would take the archive past its total
    /// refuses the archive.
    fn admit(&mut self, raw: &str, declared: u64) -> Result<Option<String>, Refused> {
        let Some(name) = clean_name(raw) else {
            self.refuse_entry(
                raw,
                "its name climbs out of the archive (`..`) or is absolute",
            );
            return Ok(None);
        };
        if name.is_empty() || !(self.wanted)(&name) {
            return Ok(None);
        }
        if format_of(Path::new(&name)).is_some() {
            self.skip_entry(raw, "an archive inside the archive, not expanded");
            return Ok(None);
        }
        if declared > self.limits.max_entry_bytes {
            self.refuse_entry(
                raw,
                &format!(
                    "{declared} bytes, over the limit of {} for a file",
                    self.limits.max_entry_bytes
                ),
            );
            return Ok(None);
        }
        if self.total.saturating_add(declared) > self.limits.max_total_bytes {
            return Err(Refused(format!(
                "its files add up to more than the limit of {} bytes",
                self.limits.max_total_bytes
            )));
        }
        Ok(Some(name))
    }

    /// Reads an admitted entry that declares `declared` bytes, refusing it
    /// when it holds more.
    fn take(&mut self, name: String, raw: &str, reader: &mut dyn Read, declared: u64) {
        let mut bytes = Vec::with_capacity(declared as usize);
        match reader.take(declared + 1).read_to_end(&mut bytes) {
            Err(error) => self.refuse_entry(raw, &format!("cannot read: {error}")),
            Ok(_) if bytes.len() as u64 > declared => {
                self.refuse_entry(raw, "holds more bytes than its header says");
            }
            Ok(_) => {
                self.total += bytes.len() as u64;
                self.expanded.entries.push(Entry { name, bytes });
            }
        }
    }

    fn refuse_entry(&mut self, raw: &str, why: &str) {
        self.entry_problem(raw, &format!("refused: {why}"), ProblemKind::Unreadable);
    }

    fn skip_entry(&mut self, raw: &str, why: &str) {
        self.entry_problem(raw, &format!("skipped: {why}"), ProblemKind::Skipped);
    }

    fn entry_problem(&mut self, raw: &str, what: &str, kind: ProblemKind) {
        self.expanded.problems.push(Problem {
            message: format!("{}: entry {raw:?} {what}", self.archive),
            path: self.archive.clone(),
            kind,
        });
    }
}

/// `raw` as a relative `/`-separated path without `.` or empty components;
/// `None` when it climbs out (`..`) or is absolute (`/x`, `C:\x`).
fn clean_name(raw: &str) -> Option<String> {
    let raw = raw.replace('\\', "/");
    let drive = raw.as_bytes().get(1) == Some(&b':');
    if raw.starts_with('/') || drive {
        return None;
    }
    let parts: Vec<&str> = raw
        .split('/')
        .filter(|part| !part.is_empty() && *part != ".")
        .collect();
    if parts.contains(&"..") {
        return None;
    }
    Some(parts.join("/"))
}

/// A reader that fails once more than `left` bytes were asked of it, and
/// says so in `exceeded`.
struct Bounded<'a, R> {
    inner: R,
    left: u64,
    exceeded: &'a Cell<bool>,
}

impl<R: Read> Read for Bounded<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n as u64 > self.left {
            self.exceeded.set(true);
            return Err(io::Error::other("the archive expands past its limit"));
        }
        self.left -= n as u64;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_climb_out_or_are_absolute_are_refused() {
        assert_eq!(
            clean_name("src/./Main.java").as_deref(),
            Some("src/Main.java")
        );
        assert_eq!(clean_name("a\\b.py").as_deref(), Some("a/b.py"));
        assert_eq!(clean_name("dir/").as_deref(), Some("dir"));
        for bad in ["../x", "a/../../x", "a/../b", "/etc/passwd", "C:\\x", "c:x"] {
            assert_eq!(clean_name(bad), None, "{bad}");
        }
    }

    #[test]
    fn archives_are_known_by_their_names() {
        for (name, format) in [
            ("a.zip", Some(Format::Zip)),
            ("A.ZIP", Some(Format::Zip)),
            ("b.tar", Some(Format::Tar)),
            ("c.tar.gz", Some(Format::TarGz)),
            ("d.tgz", Some(Format::TarGz)),
            ("e.gz", None),
            ("f.py", None),
        ] {
            assert_eq!(format_of(Path::new(name)), format, "{name}");
        }
    }
}
