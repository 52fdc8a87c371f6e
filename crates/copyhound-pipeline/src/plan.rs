//! From paths to planned units: which files (found by the [walker](crate::walk))
//! make up each unit, the name each unit goes by, and what `--unit auto`
//! chose for each path when the layout was not clear-cut.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Component, Path, PathBuf};

use copyhound_index::Role;
use copyhound_report::Problem;

use crate::PipelineError;
use crate::archive::format_of;
use crate::walk::{PlannedFile, WalkFilter, walk};

/// What one unit of comparison is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum UnitMode {
    /// A folder given as a path is split by its folders when they
    /// outnumber the files beside them (a folder of submission folders,
    /// perhaps with a stray `notes.txt`, which is then a unit of its own);
    /// otherwise every file is a unit. A layout that is not clear-cut is
    /// warned about ([`Plan::warnings`]).
    #[default]
    Auto,
    /// Every file is a unit.
    File,
    /// Every subdirectory of a given directory is one unit (a multi-file
    /// submission); files directly inside it are units of their own.
    Dir,
}

impl UnitMode {
    /// Every mode.
    pub const ALL: [UnitMode; 3] = [UnitMode::Auto, UnitMode::File, UnitMode::Dir];

    /// The mode's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Self::Auto => "auto",
            Self::File => "file",
            Self::Dir => "dir",
        }
    }

    /// What one unit is in this mode, for a command's help.
    pub fn description(self) -> &'static str {
        match self {
            Self::Auto => {
                "A directory whose folders outnumber the files beside it (\"a folder of folders\", \
                 perhaps with a stray `notes.txt`) is split by folder, each stray file a unit of \
                 its own; otherwise every file is a unit. A mixed or nested layout is warned \
                 about. Archives in a folder count as folders; an archive given as a PATH is one \
                 unit, or one per folder when it holds only two or more folders (an export, one \
                 folder per student)"
            }
            Self::File => "Every file is a unit",
            Self::Dir => {
                "Every subdirectory (or archive) of a given directory is one unit (a multi-file \
                 submission); files directly inside it are units of their own. An archive given \
                 as a PATH is split as with `auto`"
            }
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
    /// Archives (`copyhound db init --code`) whose units are earlier
    /// submissions: those that can pair with a new unit are compared with
    /// it, and all of them count in rarity and the occurrence limit.
    pub against: Vec<PathBuf>,
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
    /// What the walks could not list or did not follow.
    pub problems: Vec<Problem>,
    /// What `--unit auto` chose where a path's layout was mixed, and how
    /// to choose otherwise.
    pub warnings: Vec<String>,
}

impl Inputs {
    /// The units the new and old paths hold, with unique names, and the
    /// base files; `found` is called with each file's path as soon as the
    /// walk finds it (see [`walk`]).
    pub fn plan(&self, found: &(dyn Fn(&PlannedFile) + Sync)) -> Result<Plan, PipelineError> {
        let mut plan = Plan::default();
        for (paths, role) in [(&self.new, Role::New), (&self.old, Role::Old)] {
            for path in paths {
                let planned = plan_units(path, role, self.unit, &self.filter, found)?;
                plan.units.extend(planned.units);
                plan.problems.extend(planned.problems);
                plan.warnings.extend(planned.warning);
            }
        }
        make_names_unique(&mut plan.units);
        for path in &self.base {
            let walked = walk(path, &self.filter, found)?;
            plan.base.extend(walked.files);
            plan.problems.extend(walked.problems);
        }
        Ok(plan)
    }
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

/// The units of one input path.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlannedUnits {
    /// The units, in name order.
    pub units: Vec<PlannedUnit>,
    /// What the walk could not list or did not follow.
    pub problems: Vec<Problem>,
    /// What `--unit auto` chose, when the layout was mixed.
    pub warning: Option<String>,
}

/// The units found under `root`, each in `role`; `found` is called with
/// each file's path as soon as the walk finds it (see [`walk`]).
pub fn plan_units(
    root: &Path,
    role: Role,
    mode: UnitMode,
    filter: &WalkFilter,
    found: &(dyn Fn(&PlannedFile) + Sync),
) -> Result<PlannedUnits, PipelineError> {
    let root_name = root.display().to_string();
    let walked = walk(root, filter, found)?;
    let mut planned = PlannedUnits {
        problems: walked.problems,
        ..PlannedUnits::default()
    };
    let files = walked.files;
    if root.is_file() && format_of(root).is_some() {
        planned.units = archive_units(&root_name, role, mode, files);
        return Ok(planned);
    }
    if root.is_file() {
        let name = root
            .file_name()
            .map_or_else(|| root_name.clone(), |n| n.to_string_lossy().into_owned());
        planned.units.push(PlannedUnit {
            name: name.clone(),
            root: root_name,
            role,
            files: vec![PlannedFile {
                path: root.to_path_buf(),
                name,
                content: None,
            }],
        });
        return Ok(planned);
    }
    let by_directory = match mode {
        UnitMode::File => false,
        UnitMode::Dir => true,
        UnitMode::Auto => {
            let layout = Layout::of(&files);
            planned.warning = layout.warning(&root_name);
            layout.by_directory()
        }
    };
    for file in files {
        let unit_name = match file.name.split_once('/') {
            Some((directory, _)) if by_directory => directory.to_string(),
            _ => file.name.clone(),
        };
        match planned.units.last_mut() {
            Some(unit) if unit.name == unit_name => unit.files.push(file),
            _ => planned.units.push(PlannedUnit {
                name: unit_name,
                root: root_name.clone(),
                role,
                files: vec![file],
            }),
        }
    }
    Ok(planned)
}

/// The units of an archive given as a path, whose files are named
/// `alice.zip/…`: with `--unit file` each file; otherwise one unit per
/// top-level folder when the archive holds nothing but two or more
/// folders (an export of a learning platform, one folder per student,
/// named `export.zip/alice`), else the whole archive (named `alice.zip`).
fn archive_units(
    root: &str,
    role: Role,
    mode: UnitMode,
    files: Vec<PlannedFile>,
) -> Vec<PlannedUnit> {
    let inner = |file: &PlannedFile| -> Option<(String, String)> {
        let (archive, inside) = file.name.split_once('/')?;
        let (folder, _) = inside.split_once('/')?;
        Some((archive.to_string(), folder.to_string()))
    };
    let folders: Option<BTreeSet<(String, String)>> = files.iter().map(inner).collect();
    let by_folder = mode != UnitMode::File && folders.is_some_and(|f| f.len() >= 2);
    let mut units: Vec<PlannedUnit> = Vec::new();
    for file in files {
        let unit_name = match (mode, inner(&file)) {
            (UnitMode::File, _) => file.name.clone(),
            (_, Some((archive, folder))) if by_folder => format!("{archive}/{folder}"),
            _ => file.name.split('/').next().unwrap_or_default().to_string(),
        };
        match units.last_mut() {
            Some(unit) if unit.name == unit_name => unit.files.push(file),
            _ => units.push(PlannedUnit {
                name: unit_name,
                root: root.to_string(),
                role,
                files: vec![file],
            }),
        }
    }
    units
}

/// Where a unit of several files from the input path `root` lies, given
/// its name (perhaps prefixed, see [`make_names_unique`]) and the name of
/// its first file: the folder, or the archive or folder of an archive,
/// its files are in.
pub(crate) fn unit_folder(root: &Path, unit_name: &str, first_file: &str) -> PathBuf {
    let mut parts = first_file.split('/');
    let top = parts.next().unwrap_or_default();
    if !(root.is_file() && format_of(root).is_some()) {
        return root.join(top);
    }
    match parts.next() {
        Some(folder)
            if parts.next().is_some() && unit_name.ends_with(&format!("{top}/{folder}")) =>
        {
            root.join(folder)
        }
        _ => root.to_path_buf(),
    }
}

/// How the files of a folder given as a path lie: beside each other, or
/// in its folders, and what those folders hold.
struct Layout<'a> {
    /// The files directly in it.
    files: Vec<&'a str>,
    /// Its folders, each with the files directly in it and its own
    /// folders.
    folders: BTreeMap<&'a str, Folder<'a>>,
}

#[derive(Default)]
struct Folder<'a> {
    files: usize,
    folders: BTreeSet<&'a str>,
}

impl<'a> Layout<'a> {
    fn of(files: &'a [PlannedFile]) -> Self {
        let mut layout = Layout {
            files: Vec::new(),
            folders: BTreeMap::new(),
        };
        for file in files {
            let mut parts = file.name.splitn(3, '/');
            let first = parts.next().unwrap_or_default();
            match (parts.next(), parts.next()) {
                (None, _) => layout.files.push(first),
                (Some(_), None) => layout.folders.entry(first).or_default().files += 1,
                (Some(second), Some(_)) => {
                    layout
                        .folders
                        .entry(first)
                        .or_default()
                        .folders
                        .insert(second);
                }
            }
        }
        layout
    }

    /// Split by folder when the folders outnumber the files beside them.
    fn by_directory(&self) -> bool {
        !self.folders.is_empty() && self.files.len() < self.folders.len()
    }

    /// What `--unit auto` chose for the folder `root`, and how to choose
    /// otherwise, when its layout is mixed or nested.
    fn warning(&self, root: &str) -> Option<String> {
        let (files, folders) = (self.files.len(), self.folders.len());
        if files == 0 || folders == 0 {
            return self.nested_warning(root);
        }
        let file_list = examples(self.files.iter().copied());
        let folder_list = examples(self.folders.keys().map(|f| format!("{f}/")));
        Some(if self.by_directory() {
            format!(
                "{root}: --unit auto took each of its {folders} folders as one unit, and each of the {files} files beside them as a unit of its own ({file_list}); --unit file makes every file a unit"
            )
        } else {
            format!(
                "{root}: --unit auto took each of its {files} files as a unit, and each file in its {folders} folders too ({folder_list}); --unit dir makes each folder one unit"
            )
        })
    }

    /// A folder of folders whose folders hold only folders of their own,
    /// with names no other holds (`section1/alice/`, `section2/bob/`): the
    /// submissions are likely one level down.
    fn nested_warning(&self, root: &str) -> Option<String> {
        if !self.files.is_empty() || self.folders.is_empty() {
            return None;
        }
        let mut owners: HashMap<&str, usize> = HashMap::new();
        for folder in self.folders.values() {
            if folder.files > 0 || folder.folders.len() < 2 {
                return None;
            }
            for name in &folder.folders {
                *owners.entry(name).or_default() += 1;
            }
        }
        if owners.values().any(|&n| n > 1) {
            return None;
        }
        let units = examples(self.folders.keys().copied());
        let inner = examples(
            self.folders
                .values()
                .flat_map(|f| f.folders.iter().map(|n| format!("{n}/"))),
        );
        Some(format!(
            "{root}: --unit auto took each of its {} folders as one unit ({units}), but each holds only folders ({inner}); if those are the submissions, give the folders as the paths ({root}/*/)",
            self.folders.len()
        ))
    }
}

/// The first three of `names`, and how many more.
fn examples<T: std::fmt::Display>(names: impl Iterator<Item = T>) -> String {
    let names: Vec<String> = names.map(|n| n.to_string()).collect();
    let shown = names.iter().take(3).cloned().collect::<Vec<_>>().join(", ");
    match names.len() {
        0..=3 => shown,
        n => format!("{shown} and {} more", n - 3),
    }
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
}
