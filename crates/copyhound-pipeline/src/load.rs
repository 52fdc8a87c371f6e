//! Reading a batch: the inputs are planned and every file is loaded on
//! rayon's threads as soon as the walk finds it, so that reading and
//! tokenising fill the walk's idle moments instead of waiting for its end.
//!
//! The markdown cells of notebooks, when the front-end reads them, are
//! split off into units of their own: `alice.ipynb (markdown)` beside
//! `alice.ipynb`, of the same role, holding the markdown of each notebook
//! of its unit as a text document of the same name. Prose and code never
//! match, and as a unit of the text family the markdown is compared with
//! the text front-end's defaults and reported as a pair of its own; base
//! notebooks give their markdown to the text family's base the same way.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use copyhound_index::Role;
use copyhound_normalize::{LoadError, LoadedDocument};
use copyhound_report::Problem;
use copyhound_source::LineIndex;
use rayon::prelude::*;

use crate::plan::{PlannedUnit, unit_folder};
use crate::progress::{Progress, Stage, Warning};
use crate::{Family, FrontEnd, Inputs, PipelineError, PlannedFile};

/// One file of the batch and what loading it gave.
pub(crate) struct LoadedFile {
    pub file: PlannedFile,
    pub loaded: Result<LoadedDocument, LoadError>,
    /// The line starts of its text, when [`Texts::LinesOnly`] let the
    /// text go.
    pub lines: Option<LineIndex>,
    /// The same for the text of its notebook's markdown cells.
    markdown_lines: Option<LineIndex>,
}

/// What a batch keeps of its files' texts once they are loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Texts {
    /// The texts: an archive stores them.
    Kept,
    /// Only their line starts, each text let go as soon as its file is
    /// loaded: a comparison needs no more, and a large batch's texts, all
    /// held until the last file is loaded, were a quarter of its memory.
    LinesOnly,
}

impl Texts {
    /// Lets the texts of `loaded` (and of its markdown cells) go if
    /// so chosen: their line starts, or `None` where kept.
    fn shed(self, loaded: &mut LoadedDocument) -> (Option<LineIndex>, Option<LineIndex>) {
        fn lines_only(loaded: &mut LoadedDocument) -> LineIndex {
            let lines = loaded.line_index();
            loaded.text = String::new();
            lines
        }
        match self {
            Self::Kept => (None, None),
            Self::LinesOnly => (
                Some(lines_only(loaded)),
                loaded.markdown.as_deref_mut().map(lines_only),
            ),
        }
    }
}

/// A unit whose files were loaded.
pub(crate) struct LoadedUnit {
    pub name: String,
    /// The input path it came from, as given.
    pub root: String,
    pub role: Role,
    /// The family of most of its loaded files (ties: the first by name);
    /// `None` when none of them loaded.
    pub family: Option<Family>,
    pub files: Vec<LoadedFile>,
    /// Whether it holds the markdown cells of notebooks of another unit.
    pub markdown: bool,
}

/// What the name of a unit of markdown cells ends with.
const MARKDOWN_SUFFIX: &str = " (markdown)";

impl LoadedUnit {
    fn new(name: String, root: String, role: Role, files: Vec<LoadedFile>) -> Self {
        let mut counts: BTreeMap<Family, usize> = BTreeMap::new();
        for file in &files {
            if let Ok(document) = &file.loaded {
                *counts.entry(Family::of(document.kind)).or_default() += 1;
            }
        }
        let most = counts.values().copied().max();
        let family = counts
            .into_iter()
            .find(|&(_, n)| Some(n) == most)
            .map(|(family, _)| family);
        Self {
            name,
            root,
            role,
            family,
            files,
            markdown: false,
        }
    }

    /// Where it is, as messages say it: [`path`](Self::path), and
    /// `(markdown)` after it for the markdown cells of notebooks.
    pub fn place(&self) -> String {
        let path = self.path().display().to_string();
        if self.markdown {
            path + MARKDOWN_SUFFIX
        } else {
            path
        }
    }

    /// The unit of the markdown cells of this unit's notebooks, taken
    /// out of their documents; `None` when it has none.
    fn split_markdown(&mut self) -> Option<Self> {
        let files: Vec<LoadedFile> = take_markdown(&mut self.files).collect();
        if files.is_empty() {
            return None;
        }
        let name = format!("{}{MARKDOWN_SUFFIX}", self.name);
        Some(Self {
            markdown: true,
            ..Self::new(name, self.root.clone(), self.role, files)
        })
    }

    /// The file of a one-file unit, or the folder of a multi-file one.
    pub fn path(&self) -> PathBuf {
        match self.files.as_slice() {
            [only] => only.file.path.clone(),
            files => {
                let first = files.first().map_or("", |f| f.file.name.as_str());
                unit_folder(Path::new(&self.root), &self.name, first)
            }
        }
    }
}

/// The names of the planned units: those a markdown unit's name may
/// clash with.
fn unit_names(units: &[PlannedUnit]) -> HashSet<String> {
    units.iter().map(|unit| unit.name.clone()).collect()
}

/// Numbers the markdown units named like another unit (`a.ipynb
/// (markdown)` is a file name one may give; `taken` holds the names of
/// all units that are not markdown): the other keeps its name, the
/// markdown becomes `a.ipynb (markdown)#2`, so no two units share a name.
fn number_markdown_clashes(units: &mut [LoadedUnit], taken: &HashSet<String>) {
    for unit in units
        .iter_mut()
        .filter(|unit| unit.markdown && taken.contains(&unit.name))
    {
        // One of taken + 1 numbers is free.
        unit.name = (2..=taken.len() + 2)
            .map(|n| format!("{}#{n}", unit.name))
            .find(|name| !taken.contains(name))
            .expect("some number is free");
    }
}

/// The units and base files of a batch, loaded, and what the walk could
/// not list or did not follow.
pub(crate) struct LoadedBatch {
    pub units: Vec<LoadedUnit>,
    pub base: Vec<LoadedFile>,
    pub problems: Vec<Problem>,
}

/// Plans `inputs` and loads each file with `front_end`, keeping what
/// `texts` says of their texts.
pub(crate) fn load_batch(
    inputs: &Inputs,
    front_end: &FrontEnd,
    texts: Texts,
    progress: &dyn Progress,
) -> Result<LoadedBatch, PipelineError> {
    progress.start(Stage::Load, 0);
    let loaded = Mutex::new(Vec::new());
    let plan = rayon::in_place_scope(|scope| {
        let loaded = &loaded;
        inputs.plan(&|file: &PlannedFile| {
            progress.found();
            let file = file.clone();
            scope.spawn(move |_| {
                let result = load_file(&file, front_end, texts, progress);
                loaded
                    .lock()
                    .expect("no loader panics")
                    .push((file.path, result));
            });
        })
    })?;
    // Loads come back in the order they ended; a file listed twice was
    // loaded twice.
    let mut by_path: HashMap<PathBuf, Vec<Result<Shed, LoadError>>> = HashMap::new();
    for (path, result) in loaded.into_inner().expect("no loader panics") {
        by_path.entry(path).or_default().push(result);
    }
    let mut take = |file: PlannedFile| {
        let loaded = by_path
            .get_mut(&file.path)
            .and_then(Vec::pop)
            .expect("every listed file is loaded");
        loaded_file(file, loaded)
    };
    let taken = unit_names(&plan.units);
    let mut units = Vec::with_capacity(plan.units.len());
    for mut unit in plan.units {
        let files = std::mem::take(&mut unit.files)
            .into_iter()
            .map(&mut take)
            .collect();
        units.extend(LoadedUnit::with_markdown(unit, files));
    }
    number_markdown_clashes(&mut units, &taken);
    let mut base: Vec<LoadedFile> = plan.base.into_iter().map(take).collect();
    let base_markdown: Vec<LoadedFile> = take_markdown(&mut base).collect();
    base.extend(base_markdown);
    for warning in &plan.warnings {
        progress.warn(Warning::Layout(warning));
    }
    Ok(LoadedBatch {
        units,
        base,
        problems: plan.problems,
    })
}

/// `file` loaded with `front_end`, its texts kept as `texts` says; one
/// step of `progress`.
fn load_file(
    file: &PlannedFile,
    front_end: &FrontEnd,
    texts: Texts,
    progress: &dyn Progress,
) -> Result<Shed, LoadError> {
    let result = front_end.load_planned(file).map(|mut loaded| {
        let lines = texts.shed(&mut loaded);
        (loaded, lines)
    });
    progress.advance(1);
    result
}

/// The planned file `file` with what loading it gave.
fn loaded_file(file: PlannedFile, loaded: Result<Shed, LoadError>) -> LoadedFile {
    // The bytes of a file of an archive are not needed once loaded.
    let file = PlannedFile {
        content: None,
        ..file
    };
    let (loaded, (lines, markdown_lines)) = match loaded {
        Ok((loaded, lines)) => (Ok(loaded), lines),
        Err(error) => (Err(error), (None, None)),
    };
    LoadedFile {
        file,
        loaded,
        lines,
        markdown_lines,
    }
}

impl LoadedUnit {
    /// The planned unit `unit` with its loaded `files`, then the unit of
    /// its notebooks' markdown cells, if any.
    fn with_markdown(unit: PlannedUnit, files: Vec<LoadedFile>) -> impl Iterator<Item = Self> {
        let mut unit = LoadedUnit::new(unit.name, unit.root, unit.role, files);
        let markdown = unit.split_markdown();
        std::iter::once(unit).chain(markdown)
    }
}

/// Plans `inputs`, then loads their units with `front_end` about `slice`
/// at a time (texts kept as `texts` says), giving each slice to `each`
/// before the next is loaded: memory holds one slice, not the batch, for
/// callers that are done with a unit once they pass it on (`db add`).
/// Units come in plan order, named as [`load_batch`] names them; base
/// files are not loaded. Returns what the walk could not list or did not
/// follow.
pub(crate) fn load_in_slices(
    inputs: &Inputs,
    front_end: &FrontEnd,
    texts: Texts,
    slice: usize,
    progress: &dyn Progress,
    mut each: impl FnMut(Vec<LoadedUnit>) -> Result<(), PipelineError>,
) -> Result<Vec<Problem>, PipelineError> {
    progress.start(Stage::Load, 0);
    let plan = inputs.plan(&|_: &PlannedFile| progress.found())?;
    for warning in &plan.warnings {
        progress.warn(Warning::Layout(warning));
    }
    let taken = unit_names(&plan.units);
    let mut planned = plan.units.into_iter().peekable();
    while planned.peek().is_some() {
        let units: Vec<PlannedUnit> = planned.by_ref().take(slice.max(1)).collect();
        let loaded: Vec<Vec<LoadedUnit>> = units
            .into_par_iter()
            .map(|mut unit| {
                let files = std::mem::take(&mut unit.files)
                    .into_iter()
                    .map(|file| {
                        let result = load_file(&file, front_end, texts, progress);
                        loaded_file(file, result)
                    })
                    .collect();
                LoadedUnit::with_markdown(unit, files).collect()
            })
            .collect();
        let mut units: Vec<LoadedUnit> = loaded.into_iter().flatten().collect();
        number_markdown_clashes(&mut units, &taken);
        each(units)?;
    }
    Ok(plan.problems)
}

/// A loaded document, and the line starts of its text and of its markdown
/// cells' when [`Texts::shed`] let them go.
type Shed = (LoadedDocument, (Option<LineIndex>, Option<LineIndex>));

/// The markdown documents of `files`, taken out of them, each as a file of
/// the same name.
fn take_markdown(files: &mut [LoadedFile]) -> impl Iterator<Item = LoadedFile> + '_ {
    files.iter_mut().filter_map(|file| {
        let markdown = file.loaded.as_mut().ok()?.markdown.take()?;
        Some(LoadedFile {
            file: file.file.clone(),
            loaded: Ok(*markdown),
            lines: file.markdown_lines.take(),
            markdown_lines: None,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FrontEndChoice;

    /// What a test compares of a loaded unit: its name, whether it is
    /// markdown, its family and its files' names and whether they loaded.
    fn shape(unit: &LoadedUnit) -> (String, bool, Option<Family>, Vec<(String, bool)>) {
        let files = unit
            .files
            .iter()
            .map(|f| (f.file.name.clone(), f.loaded.is_ok()))
            .collect();
        (unit.name.clone(), unit.markdown, unit.family, files)
    }

    #[test]
    fn units_loaded_a_slice_at_a_time_are_those_of_the_whole_batch() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, contents: &[u8]| {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, contents).unwrap();
        };
        let notebook = r##"{"cells": [
            {"cell_type": "markdown", "metadata": {}, "source": ["# Copied prose about rivers and valleys\n"]},
            {"cell_type": "code", "metadata": {}, "outputs": [], "source": ["x = 1\n"]}],
            "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
            "nbformat": 4, "nbformat_minor": 5}"##;
        for i in 0..5 {
            write(
                &format!("p{i}.py"),
                format!("def f{i}(a):\n    return a + {i}\n").as_bytes(),
            );
        }
        write("a.ipynb", notebook.as_bytes());
        write(
            "a.ipynb (markdown)",
            b"# Copied prose about rivers and valleys\n",
        );
        write("multi/one.c", b"int main(void) { return 0; }\n");
        write("multi/two.c", b"int two(void) { return 2; }\n");
        write("z.bin", &[0, 159, 146, 150, 0, 0, 1, 2, 0, 0]);
        let inputs = Inputs {
            new: vec![dir.path().to_path_buf()],
            ..Inputs::default()
        };
        let front_end = FrontEnd::new(&FrontEndChoice {
            notebook_markdown: true,
            ..FrontEndChoice::default()
        })
        .unwrap();
        let whole = load_batch(&inputs, &front_end, Texts::Kept, &()).unwrap();
        let expected: Vec<_> = whole.units.iter().map(shape).collect();
        assert!(
            expected
                .iter()
                .any(|(name, markdown, ..)| *markdown && name == "a.ipynb (markdown)#2"),
            "{expected:?}"
        );
        for slice in [1, 2, 3, 100] {
            let mut units = Vec::new();
            let mut sizes = Vec::new();
            let problems = load_in_slices(&inputs, &front_end, Texts::Kept, slice, &(), |loaded| {
                sizes.push(loaded.len());
                units.extend(loaded.iter().map(shape));
                Ok(())
            })
            .unwrap();
            assert_eq!(units, expected, "slices of {slice}");
            assert_eq!(problems, whole.problems, "slices of {slice}");
            // A slice holds `slice` planned units, and the markdown unit
            // of a notebook among them.
            assert!(sizes.iter().all(|&n| n <= slice + 1), "{sizes:?}");
        }
    }
}
