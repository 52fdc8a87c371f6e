//! Extractors: the readable text of formats that are not plain text.
//!
//! Each extractor returns a fresh `String`; the text front-end then runs on
//! it, so the spans of an extracted document index into the extracted text,
//! not into the file.
//!
//! - [`html`]: visible text of HTML (always built).
//! - [`pdf`]: the text layer of a PDF (feature `pdf`).
//! - [`docx`]: the body, footnotes and endnotes of a Word document
//!   (feature `docx`).
//! - [`notebook`]: the code cells of a Jupyter notebook.
//! - [`isolated`]: PDF extraction in a child process with CPU-time and
//!   memory limits, killed at its deadline.

#[cfg(feature = "docx")]
pub mod docx;
pub mod html;
pub mod isolated;
pub mod notebook;
#[cfg(feature = "pdf")]
pub mod pdf;

use std::time::Duration;

/// Why the text of a document could not be extracted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExtractError {
    /// The PDF could not be parsed.
    #[error("corrupt PDF: {0}")]
    CorruptPdf(String),
    /// The PDF needs a password.
    #[error("the PDF is encrypted and needs a password to read its text")]
    EncryptedPdf,
    /// The PDF library panicked on this file.
    #[error("the PDF reader crashed on this file ({0}); the file is probably malformed")]
    PdfReaderCrashed(String),
    /// The PDF library did not finish in time.
    #[error("PDF text extraction did not finish within {} s", .0.as_secs())]
    PdfTimeout(Duration),
    /// The PDF's compressed streams expand beyond the limit.
    #[error(
        "the PDF's compressed streams expand to more than {limit} bytes; refusing it as a possible decompression bomb"
    )]
    PdfTooLarge {
        /// The limit in bytes.
        limit: u64,
    },
    /// The isolated PDF reader used up its CPU time and was stopped.
    #[error("the PDF reader used more than {seconds} s of CPU time and was stopped")]
    ExtractorCpuLimit {
        /// The CPU-time limit in seconds.
        seconds: u64,
    },
    /// The isolated PDF reader needed more memory than it was allowed.
    #[error(
        "the PDF reader needed more than {} MiB of memory and was stopped (a decompression bomb?)",
        bytes >> 20
    )]
    ExtractorMemoryLimit {
        /// The address-space limit in bytes.
        bytes: u64,
    },
    /// The isolated PDF reader could not be started, died, or answered
    /// garbage.
    #[error("{0}")]
    ExtractorFailed(String),
    /// The notebook is not JSON, or not of the notebook format.
    #[error("malformed notebook: {0}")]
    CorruptNotebook(String),
    /// The DOCX container or its XML is broken.
    #[error("corrupt DOCX: {0}")]
    CorruptDocx(String),
    /// A part of the DOCX would expand beyond the size limit.
    #[error(
        "DOCX part {part} expands to more than {limit} bytes; refusing it as a possible zip bomb"
    )]
    DocxPartTooLarge {
        /// The zip entry.
        part: String,
        /// The limit in bytes.
        limit: u64,
    },
    /// A part of the DOCX is compressed far more than real documents are.
    #[error(
        "DOCX part {part} is compressed {ratio}:1 ({compressed} to {uncompressed} bytes); refusing it as a likely zip bomb"
    )]
    DocxCompressionRatio {
        /// The zip entry.
        part: String,
        /// Uncompressed size over compressed size.
        ratio: u64,
        /// Compressed size in bytes.
        compressed: u64,
        /// Declared uncompressed size in bytes.
        uncompressed: u64,
    },
    /// The file is an OLE compound file: a password-protected DOCX or a
    /// legacy `.doc`.
    #[error(
        "this is an OLE compound file, not a zip: a password-protected DOCX or a legacy .doc, which cannot be read"
    )]
    OleCompoundFile,
    /// The format's support was not compiled in.
    #[error("support for {0} was not compiled in (Cargo feature `{1}`)")]
    FeatureDisabled(&'static str, &'static str),
}
