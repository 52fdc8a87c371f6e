//! The walker of copyhound: whatever reads a tree of submissions or
//! documents (a batch comparison, `db add`) lists its files here, with
//! `.gitignore` and the include/exclude globs honoured.
//!
//! A walk survives hostile trees. A directory it cannot list, a symbolic
//! link it does not follow and a link loop are problems of the walk, and
//! the rest of the tree is still walked. Symbolic links are not followed
//! unless asked ([`WalkFilter::follow_links`]): a link in a submission may
//! point anywhere (`/etc`, the grader's home), and what it points to would
//! be read into the report. When they are followed, every directory and
//! file is read once, by the first path to it in name order (device and
//! inode are remembered), so a loop ends and a file linked twice counts
//! once.
//!
//! An archive (`.zip`, `.tar`, `.tar.gz`, `.tgz`) is walked as a folder of
//! the same name: its files are read into memory with it, within
//! [`ArchiveLimits`], and named `alice.zip/src/Main.java`
//! ([`crate::archive`]). Hidden files and `__MACOSX` folders inside are
//! left out, and the include/exclude globs choose among its files as among
//! those on disk; `.gitignore` files inside are not read.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::archive::{ARCHIVE_GLOBS, ArchiveLimits, expand, format_of};

use copyhound_report::{Problem, ProblemKind};
use ignore::overrides::{Override, OverrideBuilder};
use ignore::{DirEntry, WalkBuilder, WalkState};

use crate::PipelineError;

/// Which files are considered while walking a directory, and how.
#[derive(Clone, Debug)]
pub struct WalkFilter {
    /// Only files matching one of these globs (all files when empty).
    pub include: Vec<String>,
    /// Never files matching one of these globs.
    pub exclude: Vec<String>,
    /// Whether `.gitignore` and `.ignore` files are honoured.
    pub honour_ignore_files: bool,
    /// Whether symbolic links are followed (each real file and directory
    /// read once); when not, each link is a problem of the walk.
    pub follow_links: bool,
    /// How much of each archive is read.
    pub archives: ArchiveLimits,
}

impl Default for WalkFilter {
    /// Every file that `.gitignore` and `.ignore` files do not leave out;
    /// symbolic links not followed.
    fn default() -> Self {
        Self {
            include: Vec::new(),
            exclude: Vec::new(),
            honour_ignore_files: true,
            follow_links: false,
            archives: ArchiveLimits::default(),
        }
    }
}

/// One file found by a walk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannedFile {
    /// Where to read it: for a file of an archive, the archive's path
    /// followed by the file's path inside (`subs/alice.zip/src/Main.java`).
    pub path: PathBuf,
    /// Its path relative to the input path, with `/` separators.
    pub name: String,
    /// The bytes of a file of an archive, read with the archive; `None`
    /// for a file on disk.
    pub content: Option<Arc<[u8]>>,
}

/// What a walk found: the files, sorted by name, and what it could not
/// list or did not follow.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Walked {
    /// The files, sorted by name.
    pub files: Vec<PlannedFile>,
    /// Directories that could not be listed, links not followed, second
    /// paths to what was already read; sorted by path.
    pub problems: Vec<Problem>,
}

/// Every file under `root` that passes `filter`, sorted by relative name,
/// and the problems of the walk.
///
/// `found` is called with each of them, on the walker's threads, as soon
/// as it is found, so that a caller can start reading it while the walk
/// goes on; it is called for exactly the files returned.
/// Only a `root` that does not exist, or globs that do not parse, are
/// errors.
pub fn walk(
    root: &Path,
    filter: &WalkFilter,
    found: &(dyn Fn(&PlannedFile) + Sync),
) -> Result<Walked, PipelineError> {
    if !root.exists() {
        return Err(PipelineError::NoSuchPath(root.to_path_buf()));
    }
    let overrides = overrides(root, filter)?;
    let mut walker = WalkBuilder::new(root);
    walker
        .hidden(true)
        .parents(filter.honour_ignore_files)
        .ignore(filter.honour_ignore_files)
        .git_ignore(filter.honour_ignore_files)
        .git_global(false)
        .git_exclude(filter.honour_ignore_files)
        // Submission folders are rarely repositories; their .gitignore
        // still says what is not part of the submission.
        .require_git(false)
        .overrides(overrides.clone());
    let files = Files {
        root,
        overrides: &overrides,
        limits: &filter.archives,
        found,
    };
    let mut walked = if filter.follow_links {
        walk_following_links(walker, &files)
    } else {
        walk_in_parallel(&walker, &files)
    };
    walked.files.sort_by(|a, b| a.name.cmp(&b.name));
    walked.problems.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(walked)
}

/// Lists directories on all cores, links not followed: a batch of small
/// submissions in many folders spends more time listing them (and looking
/// for ignore files in each) than reading its files.
fn walk_in_parallel(walker: &WalkBuilder, files: &Files) -> Walked {
    let walked = Mutex::new(Walked::default());
    walker.build_parallel().run(|| {
        Box::new(|entry| {
            let mut problems = Vec::new();
            let file = match entry {
                Ok(entry) => match entry.file_type() {
                    Some(kind) if kind.is_file() => Some(entry),
                    Some(kind) if kind.is_symlink() => {
                        problems.push(link_not_followed(entry.path()));
                        None
                    }
                    _ => None,
                },
                Err(error) => {
                    walk_problems(error, &mut problems);
                    None
                }
            };
            let mut found = file.map(|entry| files.of(entry.into_path(), &mut problems));
            let mut walked = walked.lock().expect("no walker panics");
            walked.problems.append(&mut problems);
            if let Some(found) = &mut found {
                walked.files.append(found);
            }
            WalkState::Continue
        })
    });
    walked.into_inner().expect("no walker panics")
}

/// Device and inode: what a file or directory is, whatever path led to it.
type Identity = (u64, u64);

/// Follows links on one thread, in name order, so that the first path to
/// each file and directory is the same on every run; a second path to one
/// already read is not walked again.
fn walk_following_links(mut walker: WalkBuilder, files: &Files) -> Walked {
    let seen: Arc<Mutex<HashMap<Identity, PathBuf>>> = Arc::default();
    let repeats: Arc<Mutex<Vec<Problem>>> = Arc::default();
    let (filter_seen, filter_repeats) = (Arc::clone(&seen), Arc::clone(&repeats));
    walker
        .follow_links(true)
        .sort_by_file_name(std::cmp::Ord::cmp)
        .filter_entry(move |entry| {
            let Some(identity) = identity(entry) else {
                return true;
            };
            let mut seen = filter_seen.lock().expect("no walker panics");
            match seen.get(&identity) {
                None => {
                    seen.insert(identity, entry.path().to_path_buf());
                    true
                }
                Some(first) => {
                    let what = if entry.file_type().is_some_and(|t| t.is_dir()) {
                        "directory"
                    } else {
                        "file"
                    };
                    let path = entry.path().display().to_string();
                    filter_repeats
                        .lock()
                        .expect("no walker panics")
                        .push(Problem {
                            message: format!(
                                "{path}: skipped: a second path to the {what} {}, read there",
                                first.display()
                            ),
                            path,
                            kind: ProblemKind::Skipped,
                        });
                    false
                }
            }
        });
    let mut walked = Walked::default();
    for entry in walker.build() {
        match entry {
            Ok(entry) if entry.file_type().is_some_and(|t| t.is_file()) => {
                let mut found = files.of(entry.into_path(), &mut walked.problems);
                walked.files.append(&mut found);
            }
            Ok(_) => {}
            Err(error) => walk_problems(error, &mut walked.problems),
        }
    }
    walked
        .problems
        .append(&mut repeats.lock().expect("no walker panics"));
    walked
}

/// The device and inode of what `entry` leads to.
#[cfg(unix)]
fn identity(entry: &DirEntry) -> Option<Identity> {
    use std::os::unix::fs::MetadataExt;
    let metadata = std::fs::metadata(entry.path()).ok()?;
    Some((metadata.dev(), metadata.ino()))
}

/// Elsewhere only loops (a link to a directory above it) are caught.
#[cfg(not(unix))]
fn identity(_: &DirEntry) -> Option<Identity> {
    None
}

fn link_not_followed(path: &Path) -> Problem {
    let path = path.display().to_string();
    Problem {
        message: format!(
            "{path}: skipped: a symbolic link, not followed (--follow-links follows links)"
        ),
        path,
        kind: ProblemKind::Skipped,
    }
}

/// The problems an error of the walk stands for: a directory that cannot
/// be listed, a link loop, an ignore file that does not parse.
fn walk_problems(error: ignore::Error, problems: &mut Vec<Problem>) {
    match error {
        ignore::Error::Partial(errors) => {
            for error in errors {
                walk_problems(error, problems);
            }
        }
        ignore::Error::WithDepth { err, .. } => walk_problems(*err, problems),
        ignore::Error::Loop { ancestor, child } => {
            let path = child.display().to_string();
            problems.push(Problem {
                message: format!(
                    "{path}: skipped: a symbolic link loop back to {}",
                    ancestor.display()
                ),
                path,
                kind: ProblemKind::Skipped,
            });
        }
        ignore::Error::WithPath { path, err } => {
            let path = path.display().to_string();
            let (kind, what) = match *err {
                ignore::Error::Io(error) => {
                    (ProblemKind::Unreadable, format!("cannot read: {error}"))
                }
                other => (
                    ProblemKind::Skipped,
                    format!("ignore rules not read: {other}"),
                ),
            };
            problems.push(Problem {
                message: format!("{path}: {what}"),
                path,
                kind,
            });
        }
        other => problems.push(Problem {
            path: String::new(),
            message: other.to_string(),
            kind: ProblemKind::Unreadable,
        }),
    }
}

/// What makes the files a walk finds: its root, its globs, the limits of
/// archives, and whom to tell of each file.
struct Files<'a> {
    root: &'a Path,
    overrides: &'a Override,
    limits: &'a ArchiveLimits,
    found: &'a (dyn Fn(&PlannedFile) + Sync),
}

impl Files<'_> {
    /// The file at `path`, or the files of the archive it is (what of it
    /// is refused added to `problems`), each announced to `found`.
    fn of(&self, path: PathBuf, problems: &mut Vec<Problem>) -> Vec<PlannedFile> {
        let archive = planned_file(self.root, path);
        let Some(format) = format_of(&archive.path) else {
            (self.found)(&archive);
            return vec![archive];
        };
        let wanted = |name: &str| {
            let hidden = name
                .split('/')
                .any(|part| part.starts_with('.') || part == "__MACOSX");
            !hidden
                && !self
                    .overrides
                    .matched(archive.path.join(name), false)
                    .is_ignore()
        };
        let expanded = expand(&archive.path, format, self.limits, &wanted);
        problems.extend(expanded.problems);
        expanded
            .entries
            .into_iter()
            .map(|entry| {
                let file = PlannedFile {
                    path: archive.path.join(&entry.name),
                    name: format!("{}/{}", archive.name, entry.name),
                    content: Some(entry.bytes.into()),
                };
                (self.found)(&file);
                file
            })
            .collect()
    }
}

/// The file at `path`, found under `root`, named by its path relative to
/// `root` (its file name when it is `root`).
fn planned_file(root: &Path, path: PathBuf) -> PlannedFile {
    let relative = path.strip_prefix(root).unwrap_or(&path);
    let name = if relative.as_os_str().is_empty() {
        path.file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned()
    } else {
        relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/")
    };
    PlannedFile {
        path,
        name,
        content: None,
    }
}

fn overrides(root: &Path, filter: &WalkFilter) -> Result<Override, PipelineError> {
    let mut builder = OverrideBuilder::new(root);
    // Include globs choose files inside archives too: archives themselves
    // are always opened.
    if !filter.include.is_empty() {
        for glob in ARCHIVE_GLOBS {
            builder.add(glob).map_err(PipelineError::Filter)?;
        }
    }
    for glob in &filter.include {
        builder
            .add(glob)
            .map_err(|source| PipelineError::InvalidGlob {
                option: "--include",
                glob: glob.clone(),
                source,
            })?;
    }
    for glob in &filter.exclude {
        builder
            .add(&format!("!{glob}"))
            .map_err(|source| PipelineError::InvalidGlob {
                option: "--exclude",
                glob: glob.clone(),
                source,
            })?;
    }
    builder.build().map_err(PipelineError::Filter)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Many folders are listed on several threads; the files come back
    /// sorted, with every folder's `.gitignore` and hidden files honoured.
    #[test]
    fn a_walk_over_many_folders_finds_every_file_in_name_order() {
        let root = tempfile::tempdir().unwrap();
        let mut expected = Vec::new();
        for i in (0..40).rev() {
            let folder = root.path().join(format!("s{i:02}/src"));
            std::fs::create_dir_all(&folder).unwrap();
            std::fs::write(folder.join("main.py"), "x = 1\n").unwrap();
            std::fs::write(folder.join(".hidden.py"), "x = 2\n").unwrap();
            std::fs::write(folder.join("out.log"), "log\n").unwrap();
            if i % 2 == 0 {
                std::fs::write(folder.join(".gitignore"), "*.log\n").unwrap();
            } else {
                expected.push(format!("s{i:02}/src/out.log"));
            }
            expected.push(format!("s{i:02}/src/main.py"));
        }
        expected.sort();
        let filter = WalkFilter::default();
        let names = |files: Vec<PlannedFile>| files.into_iter().map(|f| f.name).collect::<Vec<_>>();
        let found = Mutex::new(Vec::new());
        let walked = walk(root.path(), &filter, &|file| {
            found.lock().unwrap().push(file.path.clone());
        })
        .unwrap()
        .files;
        // Each file returned was announced once as it was found, and
        // nothing else was: not the hidden files, nor those .gitignore
        // leaves out.
        let mut found = found.into_inner().unwrap();
        found.sort();
        let mut paths: Vec<PathBuf> = walked.iter().map(|f| f.path.clone()).collect();
        paths.sort();
        assert_eq!(found, paths);
        assert_eq!(names(walked), expected);
        let file = root.path().join("s03/src/main.py");
        assert_eq!(
            names(walk(&file, &filter, &|_| ()).unwrap().files),
            ["main.py"]
        );
    }
    /// The paths of `problems`, relative to `root`, sorted.
    fn problem_paths(root: &Path, problems: &[Problem]) -> Vec<String> {
        let mut paths: Vec<String> = problems
            .iter()
            .map(|p| {
                let path = Path::new(&p.path);
                path.strip_prefix(root)
                    .unwrap_or(path)
                    .display()
                    .to_string()
            })
            .collect();
        paths.sort();
        paths
    }

    /// Two links to the folder itself, a link to a sibling folder and a
    /// link to a file: not followed, each is a problem; followed, the walk
    /// ends and reads every real file once, by its first path.
    #[cfg(unix)]
    #[test]
    fn link_loops_end_and_every_real_file_is_read_once() {
        use std::os::unix::fs::symlink;
        let root = tempfile::tempdir().unwrap();
        let root = root.path();
        std::fs::create_dir_all(root.join("a")).unwrap();
        std::fs::create_dir_all(root.join("b")).unwrap();
        std::fs::write(root.join("a/x.txt"), "x\n").unwrap();
        std::fs::write(root.join("b/y.txt"), "y\n").unwrap();
        symlink(".", root.join("l1")).unwrap();
        symlink(".", root.join("l2")).unwrap();
        symlink("../a", root.join("b/to_a")).unwrap();
        symlink("a/x.txt", root.join("x_link")).unwrap();
        let links = ["b/to_a", "l1", "l2", "x_link"];
        for follow_links in [false, true] {
            let filter = WalkFilter {
                follow_links,
                ..WalkFilter::default()
            };
            let walked = walk(root, &filter, &|_| ()).unwrap();
            let names: Vec<&str> = walked.files.iter().map(|f| f.name.as_str()).collect();
            assert_eq!(
                names,
                ["a/x.txt", "b/y.txt"],
                "follow_links: {follow_links}"
            );
            assert_eq!(problem_paths(root, &walked.problems), links);
            assert!(
                walked
                    .problems
                    .iter()
                    .all(|p| p.kind == ProblemKind::Skipped && p.message.starts_with(&p.path)),
                "{:?}",
                walked.problems
            );
        }
    }

    /// A folder that cannot be listed is a problem of the walk, and the
    /// rest of the tree is still walked. `chmod 000` does not stop root
    /// (tests may run as root), so the folder is one whose path is longer
    /// than the system lets anyone name; it is made one level at a time
    /// from inside.
    #[cfg(unix)]
    #[test]
    fn a_folder_that_cannot_be_listed_is_a_problem_and_the_rest_is_walked() {
        let root = tempfile::tempdir().unwrap();
        let root = root.path();
        std::fs::create_dir_all(root.join("a")).unwrap();
        std::fs::create_dir_all(root.join("deep")).unwrap();
        std::fs::write(root.join("a/x.txt"), "x\n").unwrap();
        std::fs::write(root.join("z.txt"), "z\n").unwrap();
        let level = "d".repeat(200);
        let made = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "for i in $(seq 24); do mkdir {level} && cd -P {level} || exit 1; done; echo text > deep.txt"
            ))
            .current_dir(root.join("deep"))
            .status()
            .unwrap();
        assert!(made.success());
        let walked = walk(root, &WalkFilter::default(), &|_| ()).unwrap();
        let names: Vec<&str> = walked.files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["a/x.txt", "z.txt"]);
        let [problem] = walked.problems.as_slice() else {
            panic!("one problem: {:?}", walked.problems);
        };
        assert_eq!(problem.kind, ProblemKind::Unreadable);
        assert!(
            problem
                .path
                .starts_with(&root.join("deep").display().to_string())
        );
        assert!(
            problem.message.contains("cannot read"),
            "{}",
            problem.message
        );
    }
}
