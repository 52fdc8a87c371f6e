//! The harness: a batch of files written to a temporary folder, compared
//! through `copyhound_pipeline::run`, and short texts to fill it with.

use std::fs;
use std::path::{Path, PathBuf};

use copyhound_pipeline::{CompareSettings, Inputs, Outcome, run};
use copyhound_report::{Report, Tool};
use tempfile::TempDir;

pub const RIVERS: &str = "Rivers carve valleys over thousands of years, carrying sediment from \
    the mountains down to the plains where it settles into fertile soil for farming.";
pub const ENGINES: &str = "A steam engine turns the heat of burning coal into motion: water boils, \
    the pressure pushes a piston, and a crank converts that push into rotation.";
pub const BIRDS: &str = "Migrating birds navigate by the stars, the sun and the magnetic field of \
    the earth, and many return to the very same nest after flying across oceans.";
pub const BREAD: &str = "Bread rises because yeast feeds on sugar and releases carbon dioxide, \
    whose bubbles are trapped by the stretchy gluten network formed while kneading.";
/// Bytes no front-end reads as text.
pub const BINARY: [u8; 10] = [0, 159, 146, 150, 0, 0, 1, 2, 0, 0];
pub const JAVA_SUM: &str = "public class Sum {
    public static void main(String[] args) {
        int total = 0;
        for (String arg : args) {
            total += Integer.parseInt(arg);
        }
        System.out.println(\"sum \" + total);
    }
}
";
pub const C_SQUARES: &str = "#include <stdio.h>\nint main(void) { for (int i = 0; i < 10; i++) printf(\"%d\\n\", i * i); return 0; }\n";

/// A batch of files in a temporary folder, removed at the end of the test.
pub struct Batch {
    dir: TempDir,
}

impl Batch {
    pub fn new() -> Self {
        Self {
            dir: TempDir::new().expect("a temporary folder"),
        }
    }

    /// The path of `name` in the batch's folder.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Writes `contents` to `name` in the batch's folder, making the
    /// folders it needs; returns its path.
    pub fn write(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.path(name);
        fs::create_dir_all(path.parent().expect("a file in a folder")).expect("make the folders");
        fs::write(&path, contents).expect("write the file");
        path
    }
}

/// The batch of the new submissions `paths`, walked with the defaults.
pub fn inputs(paths: &[&Path]) -> Inputs {
    Inputs {
        new: paths.iter().map(|p| p.to_path_buf()).collect(),
        ..Inputs::default()
    }
}

/// `inputs` compared with `settings`.
pub fn outcome(inputs: &Inputs, settings: &CompareSettings) -> Outcome {
    run(inputs, settings, &()).expect("the batch compares")
}

/// The report of `outcome`: every pair, with its fragments.
pub fn report(outcome: &Outcome) -> Report {
    let tool = Tool {
        name: "copyhound-pipeline tests".into(),
        version: "test".into(),
    };
    let mut report = outcome.report(&tool, None);
    report.fill_details(&outcome.pair_details(&tool), usize::MAX);
    report
}

/// The report of `inputs` compared with `settings`.
pub fn compare(inputs: &Inputs, settings: &CompareSettings) -> Report {
    report(&outcome(inputs, settings))
}

/// The unit names of each pair, sorted.
pub fn pair_names(report: &Report) -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> = report
        .pairs
        .iter()
        .map(|pair| (pair.a.path.clone(), pair.b.path.clone()))
        .collect();
    pairs.sort();
    pairs
}

/// The pair names `(a, b)` of `pairs`, as owned strings.
pub fn names(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(a, b)| ((*a).to_string(), (*b).to_string()))
        .collect()
}

/// A Python submission of the README's example batch.
pub fn example_python(student: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/compare/submissions")
        .join(student)
        .join("wordfreq.py");
    fs::read_to_string(path).expect("the example batch")
}
