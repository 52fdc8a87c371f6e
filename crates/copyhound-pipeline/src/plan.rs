//! From paths to planned units: which files, walked with `.gitignore` and
//! the include/exclude globs honoured, make up each unit, and the name each
//! unit goes by. This is the walker of copyhound: whatever reads a tree of
//! submissions or documents walks it here.

use std::collections::{HashMap, HashSet};
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

use copyhound_index::Role;
use ignore::overrides::{Override, OverrideBuilder};
use ignore::{WalkBuilder, WalkState};

use crate::PipelineError;

/// What one unit of comparison is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum UnitMode {
    /// Directories whose files all sit in subdirectories ("a folder of
    /// folders") are split by subdirectory; otherwise every file is a unit.
    #[default]
    Auto,
    /// Every file is a unit.
    File,
    /// Every subdirectory of a given directory is one unit (a multi-file
    /// submission); files directly inside it are units of their own.
    Dir,
}

/// Which files are considered while walking a directory.
#[derive(Clone, Debug)]
pub struct WalkFilter {
    /// Only files matching one of these globs (all files when empty).
    pub include: Vec<String>,
    /// Never files matching one of these globs.
    pub exclude: Vec<String>,
    /// Whether `.gitignore` and `.ignore` files are honoured.
    pub honour_ignore_files: bool,
}

impl Default for WalkFilter {
    /// Every file that `.gitignore` and `.ignore` files do not leave out.
    fn default() -> Self {
        Self {
            include: Vec::new(),
            exclude: Vec::new(),
            honour_ignore_files: true,
        }
    }
}

/// What a batch is made of, as given: the paths of the new submissions,
/// the earlier ones and the base code, and how they are walked.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    /// Submissions: files, or directories of them.
    pub new: Vec<PathBuf>,
    /// Earlier submissions: compared with the new ones, never with each
    /// other.
    pub old: Vec<PathBuf>,
    /// Starter code given to everyone, never counted as shared.
    pub base: Vec<PathBuf>,
    /// What one unit is.
    pub unit: UnitMode,
    /// Which files are read.
    pub filter: WalkFilter,
}

/// The units of a batch and its base files, before anything is read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    /// The units of the new paths, then those of the old ones, each path's
    /// in name order; their names are unique.
    pub units: Vec<PlannedUnit>,
    /// The files of the base paths.
    pub base: Vec<PlannedFile>,
}

impl Inputs {
    /// The units the new and old paths hold, with unique names, and the
    /// base files; `found` is called with each file's path as soon as the
    /// walk finds it (see [`walk`]).
    pub fn plan(&self, found: &(dyn Fn(&Path) + Sync)) -> Result<Plan, PipelineError> {
        let mut units = Vec::new();
        for (paths, role) in [(&self.new, Role::New), (&self.old, Role::Old)] {
            for path in paths {
                units.extend(plan_units(path, role, self.unit, &self.filter, found)?);
            }
        }
        make_names_unique(&mut units);
        let mut base = Vec::new();
        for path in &self.base {
            base.extend(walk(path, &self.filter, found)?);
        }
        Ok(Plan { units, base })
    }
}

/// One file of a planned unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannedFile {
    /// Where to read it.
    pub path: PathBuf,
    /// Its path relative to the input path, with `/` separators.
    pub name: String,
}

/// A unit before loading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannedUnit {
    /// Relative to the input path it came from.
    pub name: String,
    /// The input path as given.
    pub root: String,
    /// New or old submission.
    pub role: Role,
    /// Its files, sorted by name.
    pub files: Vec<PlannedFile>,
}

/// The units found under `root`, each in `role`; `found` is called with
/// each file's path as soon as the walk finds it (see [`walk`]).
pub fn plan_units(
    root: &Path,
    role: Role,
    mode: UnitMode,
    filter: &WalkFilter,
    found: &(dyn Fn(&Path) + Sync),
) -> Result<Vec<PlannedUnit>, PipelineError> {
    let root_name = root.display().to_string();
    let files = walk(root, filter, found)?;
    if root.is_file() {
        let name = root
            .file_name()
            .map_or_else(|| root_name.clone(), |n| n.to_string_lossy().into_owned());
        return Ok(vec![PlannedUnit {
            name: name.clone(),
            root: root_name,
            role,
            files: vec![PlannedFile {
                path: root.to_path_buf(),
                name,
            }],
        }]);
    }
    let by_directory = match mode {
        UnitMode::File => false,
        UnitMode::Dir => true,
        UnitMode::Auto => !files.is_empty() && files.iter().all(|f| f.name.contains('/')),
    };
    let mut units: Vec<PlannedUnit> = Vec::new();
    for file in files {
        let unit_name = match file.name.split_once('/') {
            Some((directory, _)) if by_directory => directory.to_string(),
            _ => file.name.clone(),
        };
        match units.last_mut() {
            Some(unit) if unit.name == unit_name => unit.files.push(file),
            _ => units.push(PlannedUnit {
                name: unit_name,
                root: root_name.clone(),
                role,
                files: vec![file],
            }),
        }
    }
    Ok(units)
}

/// Every file under `root` that passes `filter`, sorted by relative name.
///
/// `found` is called with the path of each of them, on the walker's
/// threads, as soon as it is found, so that a caller can start reading it
/// while the walk goes on; it is called for exactly the files returned
/// when the walk succeeds.
pub fn walk(
    root: &Path,
    filter: &WalkFilter,
    found: &(dyn Fn(&Path) + Sync),
) -> Result<Vec<PlannedFile>, PipelineError> {
    if !root.exists() {
        return Err(PipelineError::NoSuchPath(root.to_path_buf()));
    }
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
        .overrides(overrides(root, filter)?);
    // Directories are listed on all cores: a batch of small submissions in
    // many folders spends more time listing them (and looking for ignore
    // files in each) than reading its files.
    let files = Mutex::new(Vec::new());
    let errors = Mutex::new(Vec::new());
    walker.build_parallel().run(|| {
        Box::new(|entry| match entry {
            Ok(entry) => {
                if entry.file_type().is_some_and(|t| t.is_file()) {
                    found(entry.path());
                    let file = planned_file(root, entry.into_path());
                    files.lock().expect("no walker panics").push(file);
                }
                WalkState::Continue
            }
            Err(error) => {
                errors.lock().expect("no walker panics").push(error);
                WalkState::Quit
            }
        })
    });
    let mut errors = errors.into_inner().expect("no walker panics");
    // Threads meet errors in any order: report the same one every time.
    errors.sort_by_cached_key(ToString::to_string);
    if let Some(error) = errors.into_iter().next() {
        return Err(PipelineError::CannotList {
            root: root.to_path_buf(),
            source: error,
        });
    }
    let mut files = files.into_inner().expect("no walker panics");
    files.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(files)
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
    PlannedFile { path, name }
}

fn overrides(root: &Path, filter: &WalkFilter) -> Result<Override, PipelineError> {
    let mut builder = OverrideBuilder::new(root);
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

/// Makes unit names unique across the batch, in place.
///
/// A unit's name is its path relative to the input path it came from. When
/// several units would share a name (`compare a/ b/` with `x.py` in both),
/// each of those gets the fewest trailing components of its input path's
/// folder that tell them apart, as a prefix: `a/x.py` and `b/x.py`; the
/// full input path if need be, and `#2`, `#3`… for a path given twice.
/// Names no other unit shares stay as they are.
pub fn make_names_unique(units: &mut [PlannedUnit]) {
    let mut by_name: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, unit) in units.iter().enumerate() {
        by_name.entry(unit.name.clone()).or_default().push(i);
    }
    let taken: HashSet<String> = by_name.keys().cloned().collect();
    let mut clashes: Vec<Vec<usize>> = by_name.into_values().filter(|v| v.len() > 1).collect();
    clashes.sort();
    for clash in clashes {
        let contexts: Vec<Vec<String>> = clash.iter().map(|&i| context_of(&units[i])).collect();
        let deepest = contexts.iter().map(Vec::len).max().unwrap_or(0);
        let name = units[clash[0]].name.clone();
        let mut chosen: Vec<String> = Vec::new();
        for depth in 1..=deepest.max(1) {
            chosen = contexts
                .iter()
                .map(|context| prefixed(&context[context.len().saturating_sub(depth)..], &name))
                .collect();
            let distinct: HashSet<&String> = chosen.iter().collect();
            if distinct.len() == chosen.len() && chosen.iter().all(|c| !taken.contains(c)) {
                break;
            }
        }
        let mut seen: HashMap<String, usize> = HashMap::new();
        for (&i, candidate) in clash.iter().zip(chosen) {
            let count = seen.entry(candidate.clone()).or_default();
            *count += 1;
            units[i].name = if *count == 1 {
                candidate
            } else {
                format!("{candidate}#{count}")
            };
        }
    }
}

/// The components of the folder a unit's names are relative to: the input
/// path itself, or its parent when the input path is a file.
fn context_of(unit: &PlannedUnit) -> Vec<String> {
    let root = Path::new(&unit.root);
    let folder = if root.is_file() {
        root.parent().unwrap_or(Path::new(""))
    } else {
        root
    };
    folder
        .components()
        .filter(|c| !matches!(c, Component::CurDir | Component::RootDir))
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect()
}

fn prefixed(context: &[String], name: &str) -> String {
    if context.is_empty() {
        name.to_string()
    } else {
        format!("{}/{name}", context.join("/"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn planned(root: &str, name: &str) -> PlannedUnit {
        PlannedUnit {
            name: name.into(),
            root: root.into(),
            role: Role::New,
            files: Vec::new(),
        }
    }

    fn unique(units: &[(&str, &str)]) -> Vec<String> {
        let mut plans: Vec<PlannedUnit> = units.iter().map(|(r, n)| planned(r, n)).collect();
        make_names_unique(&mut plans);
        plans.into_iter().map(|p| p.name).collect()
    }

    #[test]
    fn clashing_names_get_the_end_of_their_input_path() {
        assert_eq!(
            unique(&[
                ("data/insert", "plag-subm0"),
                ("data/refactor", "plag-subm0"),
                ("data/refactor", "other"),
            ]),
            ["insert/plag-subm0", "refactor/plag-subm0", "other"]
        );
    }

    #[test]
    fn as_many_components_as_it_takes_then_a_counter() {
        assert_eq!(
            unique(&[("2023/a/src", "x.py"), ("2024/a/src", "x.py")]),
            ["2023/a/src/x.py", "2024/a/src/x.py"]
        );
        assert_eq!(
            unique(&[("a", "x.py"), ("a", "x.py")]),
            ["a/x.py", "a/x.py#2"]
        );
        assert_eq!(
            unique(&[("./a/", "x.py"), ("b", "x.py")]),
            ["a/x.py", "b/x.py"]
        );
    }

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
        let walked = walk(root.path(), &filter, &|path| {
            found.lock().unwrap().push(path.to_path_buf());
        })
        .unwrap();
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
        assert_eq!(names(walk(&file, &filter, &|_| ()).unwrap()), ["main.py"]);
    }
}
