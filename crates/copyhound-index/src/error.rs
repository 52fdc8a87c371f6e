//! Errors of a comparison: inconsistent input, never I/O.

/// Why a comparison could not run.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    /// A fingerprint's k-gram does not lie inside its document, so the
    /// fingerprints were not computed with this comparison's hasher.
    #[error(
        "document `{document}` of unit `{unit}`: fingerprint at symbol {pos} needs {k} symbols but the document has {len}; were the fingerprints computed with k = {k}?"
    )]
    FingerprintOutOfBounds {
        /// The unit's name.
        unit: String,
        /// The document's name.
        document: String,
        /// The fingerprint's position.
        pos: u32,
        /// The k-gram length.
        k: usize,
        /// The document's length in symbols.
        len: usize,
    },
    /// The max-occurrence limit cannot be used.
    #[error("invalid maximum number of occurrences: {0}")]
    InvalidMaxOccurrences(String),
    /// More units than positions can address.
    #[error("too many units: {0} (at most {max})", max = u32::MAX)]
    TooManyUnits(usize),
}
