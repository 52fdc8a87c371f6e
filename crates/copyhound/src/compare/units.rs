//! From command-line paths to planned units: which files, walked with
//! `.gitignore` and the include/exclude globs honoured, make up each unit.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::ValueEnum;
use ignore::WalkBuilder;
use ignore::overrides::{Override, OverrideBuilder};

/// What one unit of comparison is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
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
#[derive(Clone, Debug, Default)]
pub struct WalkFilter {
    /// Only files matching one of these globs (all files when empty).
    pub include: Vec<String>,
    /// Never files matching one of these globs.
    pub exclude: Vec<String>,
    /// Whether `.gitignore` and `.ignore` files are honoured.
    pub honour_ignore_files: bool,
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
    /// Its files, sorted by name.
    pub files: Vec<PlannedFile>,
}

/// The units found under `root`.
pub fn plan_units(root: &Path, mode: UnitMode, filter: &WalkFilter) -> Result<Vec<PlannedUnit>> {
    let root_name = root.display().to_string();
    let files = walk(root, filter)?;
    if root.is_file() {
        let name = root
            .file_name()
            .map_or_else(|| root_name.clone(), |n| n.to_string_lossy().into_owned());
        return Ok(vec![PlannedUnit {
            name: name.clone(),
            root: root_name,
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
                files: vec![file],
            }),
        }
    }
    Ok(units)
}

/// Every file under `root` that passes `filter`, sorted by relative name.
pub fn walk(root: &Path, filter: &WalkFilter) -> Result<Vec<PlannedFile>> {
    if !root.exists() {
        bail!("{}: no such file or directory", root.display());
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
    let mut files = Vec::new();
    for entry in walker.build() {
        let entry = entry.with_context(|| format!("{}: cannot list", root.display()))?;
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let path = entry.into_path();
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
        files.push(PlannedFile { path, name });
    }
    files.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(files)
}

fn overrides(root: &Path, filter: &WalkFilter) -> Result<Override> {
    let mut builder = OverrideBuilder::new(root);
    for glob in &filter.include {
        builder
            .add(glob)
            .with_context(|| format!("invalid --include glob {glob:?}"))?;
    }
    for glob in &filter.exclude {
        builder
            .add(&format!("!{glob}"))
            .with_context(|| format!("invalid --exclude glob {glob:?}"))?;
    }
    Ok(builder.build()?)
}
