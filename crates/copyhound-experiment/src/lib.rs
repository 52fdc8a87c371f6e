//! The measurements of copyhound's three papers, reproduced on any corpus:
//! each experiment returns a [`Report`] (tables as data, printed beside the
//! paper's numbers) and, where the paper has a figure, a [`LogLogPlot`]
//! written as SVG.
//!
//! - [`density()`]: every selector's density on random text (winnowing §3.1,
//!   §5.1).
//! - [`gaps()`]: winnowing's Figure 3 and §5.1 on a corpus: density, the
//!   longest run with no fingerprint, windows 0 mod p misses, low-entropy
//!   input.
//! - [`zipf()`]: winnowing's Figure 4, frequency by rank of hashes and
//!   fingerprints, the fitted power law and the shares seen once, twice,
//!   three times.
//! - [`koala()`]: Heintze's Tables 1–7 on a collection with planted
//!   relationships, and the consonant front-end against conversion noise.
//! - [`sketch()`]: Ganguly–Veda's space bound against winnowing on
//!   uniform, low-entropy and crafted input, and the detection rate of
//!   planted runs against δ and the total size S.
//!
//! Experiments read documents through [`Corpus`] (paths, folders walked
//! recursively, through the `copyhound-normalize` front-ends) and select
//! with the `copyhound-fingerprint` selectors; nothing here re-implements
//! either. The command line (`copyhound experiment …`) only parses flags
//! and calls these functions.
#![deny(missing_docs)]

mod corpus;
mod density;
mod error;
mod gaps;
pub mod generate;
mod koala;
pub mod measure;
mod plot;
mod report;
mod sketch;
mod winnow;
mod zipf;

pub use corpus::{Corpus, CorpusOptions, Document};
pub use density::{DensitySettings, density};
pub use error::ExperimentError;
pub use gaps::{GapsSettings, gaps};
pub use koala::{KoalaSettings, Relation, koala};
pub use plot::{LogLogPlot, Mark, Series};
pub use report::{Cell, Report, Table};
pub use sketch::{SketchSettings, sketch};
pub use winnow::WinnowSettings;
pub use zipf::{PowerLaw, RankFrequency, ZipfOutcome, ZipfSettings, zipf};
