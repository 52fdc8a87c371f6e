//! A copyhound batch comparison end to end, as the command line runs it and
//! as anything else that compares a batch should: no command-line parsing
//! and no terminal output here.
//!
//! The data flows one way:
//!
//! 1. [`Inputs`] → [`Plan`] (modules `walk` and `plan`): the paths of the
//!    new and old submissions and of the base code are walked
//!    (`.gitignore` honoured or not, include/exclude globs, symbolic links
//!    followed or not) into planned units with unique names; what the
//!    walk could not list or follow becomes a problem. An archive (`.zip`,
//!    `.tar`, `.tar.gz`) is walked as a folder of the same name, its files
//!    read into memory within [`ArchiveLimits`].
//! 2. [`FrontEnd`]: the front-end chosen once ([`FrontEndChoice`]) loads
//!    every file as soon as the walk finds it. Each file falls in a
//!    [`Family`] (its language, or text), each unit in the family of most
//!    of its files, and each family has its measured [`Defaults`].
//! 3. [`CompareSettings`]: the settings, each checked when it is made; with
//!    a family's defaults they give its [`Scheme`](copyhound_fingerprint::Scheme)
//!    ([`Selection`]), its comparison options and its report parameters.
//! 4. [`run`]: the families with two units, one of them new, are
//!    fingerprinted and compared one at a time with `copyhound-index`,
//!    reporting to a [`Progress`]; what is left out becomes a problem.
//! 5. [`Outcome`]: each family's comparison, the problems, and the report
//!    model (`copyhound-report`) the outputs are written from; beside it,
//!    what the listing limit left out (module `notes`).
//!
//!
//! [`FileFingerprints`] are one file's fingerprints, as `copyhound
//! fingerprint` lists them.
//!
//! The [`database`] module is the one layer over the fingerprint database
//! (`copyhound-db`) that the command line and the server call.
//!
//! ```
//! use copyhound_pipeline::{CompareSettings, Inputs, run};
//! use copyhound_report::Tool;
//!
//! let dir = tempfile::tempdir().unwrap();
//! let text = "Rivers carve valleys over thousands of years, carrying sediment \
//!     from the mountains down to the plains where it settles.";
//! std::fs::write(dir.path().join("a.txt"), text).unwrap();
//! std::fs::write(dir.path().join("b.txt"), text).unwrap();
//! let inputs = Inputs {
//!     new: vec![dir.path().to_path_buf()],
//!     ..Inputs::default()
//! };
//! let outcome = run(&inputs, &CompareSettings::default(), &()).unwrap();
//! let tool = Tool { name: "example".into(), version: "1".into() };
//! let report = outcome.report(&tool, None);
//! assert_eq!(report.pairs.len(), 1);
//! assert_eq!(report.pairs[0].similarity, 1.0);
//! ```
#![deny(missing_docs)]

mod archive;
pub mod code_archive;
pub mod database;
mod error;
mod families;
mod fingerprints;
mod front_end;
mod line;
mod load;
mod notes;
mod outputs;
mod plan;
mod progress;
mod run;
mod selection;
mod settings;
mod walk;

pub use archive::ArchiveLimits;
/// Re-exported for callers that set [`CompareSettings::max_occurrences`].
pub use copyhound_index::MaxOccurrences;
pub use error::PipelineError;
pub use fingerprints::{
    FileFingerprints, FingerprintRecord, ListingFormat, NotebookLine, list_fingerprints,
};
pub use front_end::{Defaults, Family, FrontEnd, FrontEndChoice};
pub use line::{Line, error_text};
pub use outputs::{Outputs, Written};
pub use plan::{Inputs, Plan, PlannedUnit, PlannedUnits, UnitMode, make_names_unique, plan_units};
pub use progress::{Progress, Stage, Warning};
pub use run::{FamilyComparison, Outcome, run};
pub use selection::{Resolved, Selection, SelectorName};
pub use settings::{CompareSettings, GroupPattern, Weighting, parse_pair_count, parse_similarity};
pub use walk::{PlannedFile, WalkFilter, Walked, walk};
