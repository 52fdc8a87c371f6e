//! Errors of a comparison: inconsistent input, never I/O.

/// Why a comparison could not run.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    /// The max-occurrence limit cannot be used.
    #[error("invalid maximum number of occurrences: {0}")]
    InvalidMaxOccurrences(String),
    /// More units than positions can address.
    #[error("too many units: {0} (at most {max})", max = u32::MAX)]
    TooManyUnits(usize),
}
