//! The front door: a file to a [`LoadedDocument`], whatever its kind.
//!
//! [`load_file`] checks the size before reading (a file over
//! [`LoadOptions::max_bytes`] is refused from its metadata, without reading
//! it, and reading stops one byte past the limit should the file grow), then
//! hands the bytes to [`load_bytes`], which
//!
//! 1. recognises PDF and DOCX by magic bytes and extension and extracts their
//!    text, and reads the code cells of a Jupyter notebook (`.ipynb`) in its
//!    kernel's language ([`crate::extract::notebook`]), and its markdown
//!    cells as a text of their own ([`LoadedDocument::markdown`]) when
//!    [`LoadOptions::notebook_markdown`] asks for them;
//! 2. otherwise decodes the bytes ([`crate::decode`]), refusing binary data;
//! 3. picks the kind — HTML by extension, code by [`Language::detect`], HTML
//!    by content, else text — unless [`LoadOptions::kind`] fixes it;
//! 4. runs the front-end of that kind.
//!
//! # Limits
//!
//! A file over [`LoadOptions::max_bytes`] is refused unread; one whose
//! front-end would need more than [`LoadOptions::memory_budget`] is refused
//! before the front-end runs ([`crate::budget`]); PDFs are extracted in a
//! child process with CPU and memory limits when
//! [`LoadOptions::isolation`] is set ([`crate::extract::isolated`]), else
//! on a thread with a timeout that cannot stop a looping reader. The
//! `copyhound` command line and server set it; the default (and so the
//! Python package unless it sets it) does not.
//!
//! # What spans index into
//!
//! Spans always index into [`LoadedDocument::text`]. For a UTF-8 file
//! without a BOM that text *is* the file, so spans are byte offsets into the
//! file. A UTF-8 BOM is removed, so file offsets are spans plus three
//! ([`LoadedDocument::text_start_in_file`] says so). Text decoded from
//! another encoding (UTF-16, Windows-1252…), text of damaged UTF-8 whose bad
//! bytes were replaced, and text extracted from HTML, PDF or DOCX are new
//! strings: spans index into them and not into the file.
//!
//! # Empty files
//!
//! An empty file is an empty document with a warning, not an error: in a
//! corpus of submissions an empty one is a fact to report, and failing the
//! whole run for it would be worse. The same holds for a document whose
//! text gives no symbols (a scanned PDF without a text layer, a file of
//! punctuation).

use std::fs::File;
use std::io::Read;
use std::path::Path;
use std::time::Duration;

use copyhound_source::{CellStart, LineIndex};

use crate::NormalizedDocument;
use crate::budget::{DEFAULT_MEMORY_BUDGET, memory_per_byte};
use crate::code::{CodeOptions, Language, normalize_code};
use crate::decode::{Decoded, EncodingSource, decode};
use crate::error::LoadError;
use crate::extract::html;
use crate::extract::isolated::IsolatedExtractor;
use crate::text::{TextOptions, normalize_text};

/// Files larger than this are refused unless the limit is raised.
pub const DEFAULT_MAX_BYTES: u64 = 64 << 20;

/// How long PDF text extraction may take before it is abandoned.
pub const DEFAULT_PDF_TIMEOUT: Duration = Duration::from_secs(60);

/// How many times [`LoadOptions::max_bytes`] the compressed streams of a PDF
/// may expand to. Text and font streams deflate about 3–10 times; a
/// thousandfold expansion is a decompression bomb.
#[cfg(feature = "pdf")]
const PDF_INFLATION_ALLOWANCE: u64 = 16;

/// Magic bytes of a zip archive (DOCX is one).
const ZIP_MAGIC: &[u8] = b"PK\x03\x04";

/// Which front-end reads a file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum KindChoice {
    /// Decide from the file: see [`load_bytes`].
    #[default]
    Auto,
    /// Prose: never read as code. HTML, PDF and DOCX are still extracted.
    Text,
    /// Code in this language, whatever the file looks like.
    Code(Language),
}

/// What a loaded file turned out to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DocumentKind {
    /// Plain text.
    Text,
    /// HTML; the text is its visible text.
    Html,
    /// PDF; the text is its text layer.
    Pdf,
    /// Word document; the text is its body and notes.
    Docx,
    /// Source code.
    Code(Language),
}

impl DocumentKind {
    /// A short name: `text`, `html`, `pdf`, `docx`, or the language's name.
    pub fn name(self) -> &'static str {
        match self {
            DocumentKind::Text => "text",
            DocumentKind::Html => "html",
            DocumentKind::Pdf => "pdf",
            DocumentKind::Docx => "docx",
            DocumentKind::Code(language) => language.name(),
        }
    }

    /// The language, for code.
    pub fn language(self) -> Option<Language> {
        match self {
            DocumentKind::Code(language) => Some(language),
            _ => None,
        }
    }
}

impl std::fmt::Display for DocumentKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Settings of [`load_file`] and [`load_bytes`].
#[derive(Clone, Debug)]
pub struct LoadOptions {
    /// Which front-end to use.
    pub kind: KindChoice,
    /// Settings of the text front-end (text, HTML, PDF, DOCX).
    pub text: TextOptions,
    /// Settings of the code front-end.
    pub code: CodeOptions,
    /// Files larger than this many bytes are refused. The same limit bounds
    /// what a DOCX part may expand to, and sixteen times it what the
    /// compressed streams of a PDF may expand to.
    pub max_bytes: u64,
    /// How long PDF text extraction may take (wall time, and CPU time in
    /// an isolated extractor).
    pub pdf_timeout: Duration,
    /// Extract PDFs in this child process, which limits its own CPU time
    /// and memory and is killed at [`pdf_timeout`](Self::pdf_timeout)
    /// ([`crate::extract::isolated`]). `None` (the default) extracts on a
    /// thread of this process: a PDF that makes the reader loop then keeps
    /// that thread busy until the process ends. The `copyhound` command
    /// line and server set it; library callers that read untrusted PDFs
    /// should.
    pub isolation: Option<IsolatedExtractor>,
    /// A file whose front-end would need more memory than this many bytes
    /// is refused before it runs ([`crate::budget`]).
    pub memory_budget: u64,
    /// Read the markdown cells of a notebook whose code cells are read as
    /// code, as text ([`LoadedDocument::markdown`]).
    pub notebook_markdown: bool,
}

impl Default for LoadOptions {
    fn default() -> Self {
        Self {
            kind: KindChoice::Auto,
            text: TextOptions::default(),
            code: CodeOptions::default(),
            max_bytes: DEFAULT_MAX_BYTES,
            pdf_timeout: DEFAULT_PDF_TIMEOUT,
            isolation: None,
            memory_budget: DEFAULT_MEMORY_BUDGET,
            notebook_markdown: false,
        }
    }
}

/// A file read, decoded or extracted, and normalised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadedDocument {
    /// The text the spans of [`doc`](Self::doc) index into (see the module
    /// documentation).
    pub text: String,
    /// The symbols and their spans.
    pub doc: NormalizedDocument,
    /// What the file was read as.
    pub kind: DocumentKind,
    /// The encoding the text was decoded from (an `encoding_rs` name such as
    /// `UTF-8`, `UTF-16LE`, `windows-1252`); `PDF`, `DOCX` or `IPYNB` for
    /// text their extractors decoded.
    pub encoding: &'static str,
    /// Where [`text`](Self::text) starts in the file when it is a verbatim
    /// copy of the rest of the file (`Some(0)` for plain UTF-8, `Some(3)`
    /// after a UTF-8 BOM), so that file offsets are spans plus this. `None`
    /// when the text was decoded from another encoding, repaired, or
    /// extracted.
    pub text_start_in_file: Option<usize>,
    /// Things the user should know that did not stop loading: an empty
    /// file, a guessed encoding, replaced bytes, no symbols.
    pub warnings: Vec<String>,
    /// Where each cell read of a notebook starts in
    /// [`text`](Self::text); empty for other files.
    pub cells: Vec<CellStart>,
    /// The markdown cells of a notebook, through the text front-end: a
    /// document of their own, so that prose is never compared with code.
    /// Only when [`LoadOptions::notebook_markdown`] asks for them and the
    /// notebook's markdown gives symbols.
    pub markdown: Option<Box<LoadedDocument>>,
}

impl LoadedDocument {
    /// The line starts of [`text`](Self::text), and its cells for a
    /// notebook: what reports turn byte spans into lines (and cells) with.
    pub fn line_index(&self) -> LineIndex {
        LineIndex::new(self.text.as_bytes()).with_cells(&self.cells)
    }
}

/// Reads and normalises the file at `path`.
///
/// The size is checked from the file's metadata before reading, so a file
/// over [`LoadOptions::max_bytes`] costs nothing to refuse; memory use is
/// bounded by [`LoadOptions::memory_budget`] ([`crate::budget`]).
pub fn load_file(path: &Path, options: &LoadOptions) -> Result<LoadedDocument, LoadError> {
    let metadata = std::fs::metadata(path).map_err(|error| io_error(path, error))?;
    if !metadata.is_file() {
        return Err(LoadError::NotAFile { path: path.into() });
    }
    check_size(path, metadata.len(), options.max_bytes)?;
    let file = File::open(path).map_err(|error| io_error(path, error))?;
    let mut bytes = Vec::with_capacity(metadata.len() as usize);
    file.take(options.max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|error| io_error(path, error))?;
    check_size(path, bytes.len() as u64, options.max_bytes)?;
    load_bytes(path, &bytes, options)
}

/// Normalises `bytes`, the content of the file at `path` (used for its
/// extension and in messages; it is not read).
pub fn load_bytes(
    path: &Path,
    bytes: &[u8],
    options: &LoadOptions,
) -> Result<LoadedDocument, LoadError> {
    check_size(path, bytes.len() as u64, options.max_bytes)?;
    let extension = lower_extension(path);
    let forced_code = matches!(options.kind, KindChoice::Code(_));
    let mut loaded = if !forced_code && !bytes.is_empty() && is_pdf(&extension, bytes) {
        let text = extract_pdf(path, bytes, options)?;
        check_memory(path, DocumentKind::Pdf, text.len(), options)?;
        extracted(text, DocumentKind::Pdf, "PDF", options)
    } else if extension == "ipynb" && !bytes.is_empty() {
        load_notebook(path, bytes, options)?
    } else if !forced_code && !bytes.is_empty() && is_docx(&extension, bytes) {
        let text = extract_docx(path, bytes, options)?;
        check_memory(path, DocumentKind::Docx, text.len(), options)?;
        extracted(text, DocumentKind::Docx, "DOCX", options)
    } else {
        load_text(path, &extension, bytes, options)?
    };
    if bytes.is_empty() {
        loaded.warnings.push("empty file".into());
    } else if loaded.doc.is_empty() {
        loaded.warnings.push(match loaded.kind {
            DocumentKind::Pdf => "no text: the PDF has no text layer (scanned?)".into(),
            kind => format!("no symbols: the {kind} front-end found nothing to compare"),
        });
    }
    Ok(loaded)
}

fn io_error(path: &Path, error: std::io::Error) -> LoadError {
    if error.kind() == std::io::ErrorKind::NotFound {
        LoadError::NotFound { path: path.into() }
    } else {
        LoadError::Unreadable {
            path: path.into(),
            error,
        }
    }
}

fn check_size(path: &Path, size: u64, limit: u64) -> Result<(), LoadError> {
    if size > limit {
        return Err(LoadError::TooLarge {
            path: path.into(),
            size,
            limit,
        });
    }
    Ok(())
}

/// Refuses a text whose front-end would need more than the memory budget.
fn check_memory(
    path: &Path,
    kind: DocumentKind,
    text_bytes: usize,
    options: &LoadOptions,
) -> Result<(), LoadError> {
    let needed = (text_bytes as u64).saturating_mul(memory_per_byte(kind));
    if needed > options.memory_budget {
        return Err(LoadError::TooLargeForMemory {
            path: path.into(),
            front_end: kind.name(),
            text_bytes: text_bytes as u64,
            needed,
            budget: options.memory_budget,
        });
    }
    Ok(())
}

fn lower_extension(path: &Path) -> String {
    path.extension()
        .and_then(|extension| extension.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default()
}

fn is_pdf(extension: &str, bytes: &[u8]) -> bool {
    extension == "pdf" || bytes.starts_with(b"%PDF-")
}

fn is_docx(extension: &str, bytes: &[u8]) -> bool {
    matches!(extension, "docx" | "docm" | "dotx" | "dotm")
        || (bytes.starts_with(ZIP_MAGIC) && contains(bytes, b"word/document.xml"))
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack
        .windows(needle.len())
        .any(|window| window == needle)
}

fn is_html_extension(extension: &str) -> bool {
    matches!(extension, "html" | "htm" | "xhtml" | "shtml")
}

fn extracted(
    text: String,
    kind: DocumentKind,
    encoding: &'static str,
    options: &LoadOptions,
) -> LoadedDocument {
    LoadedDocument {
        doc: normalize_text(&text, &options.text),
        text,
        kind,
        encoding,
        text_start_in_file: None,
        warnings: Vec::new(),
        cells: Vec::new(),
        markdown: None,
    }
}

#[cfg(feature = "pdf")]
fn extract_pdf(path: &Path, bytes: &[u8], options: &LoadOptions) -> Result<String, LoadError> {
    let inflated_limit = options.max_bytes.saturating_mul(PDF_INFLATION_ALLOWANCE);
    match &options.isolation {
        Some(extractor) => extractor.extract_pdf(bytes, options.pdf_timeout, inflated_limit),
        None => crate::extract::pdf::extract_pdf_text(bytes, options.pdf_timeout, inflated_limit),
    }
    .map_err(|problem| LoadError::Extract {
        path: path.into(),
        problem,
    })
}

#[cfg(not(feature = "pdf"))]
fn extract_pdf(path: &Path, _bytes: &[u8], _options: &LoadOptions) -> Result<String, LoadError> {
    Err(LoadError::Extract {
        path: path.into(),
        problem: crate::extract::ExtractError::FeatureDisabled("PDF", "pdf"),
    })
}

#[cfg(feature = "docx")]
fn extract_docx(path: &Path, bytes: &[u8], options: &LoadOptions) -> Result<String, LoadError> {
    crate::extract::docx::extract_docx_text(bytes, options.max_bytes).map_err(|problem| {
        LoadError::Extract {
            path: path.into(),
            problem,
        }
    })
}

#[cfg(not(feature = "docx"))]
fn extract_docx(path: &Path, _bytes: &[u8], _options: &LoadOptions) -> Result<String, LoadError> {
    Err(LoadError::Extract {
        path: path.into(),
        problem: crate::extract::ExtractError::FeatureDisabled("DOCX", "docx"),
    })
}

/// The code cells of a notebook through the front-end of its kernel's
/// language (or the one `options` forces), and its markdown cells through
/// the text front-end when `options` asks for them and the code is read
/// as code; a notebook in a language copyhound does not read, or one that
/// does not parse, is an error naming the file.
fn load_notebook(
    path: &Path,
    bytes: &[u8],
    options: &LoadOptions,
) -> Result<LoadedDocument, LoadError> {
    let extract_error = |problem| LoadError::Extract {
        path: path.into(),
        problem,
    };
    let notebook = crate::extract::notebook::read_notebook(bytes, options.notebook_markdown)
        .map_err(extract_error)?;
    let kind = match options.kind {
        KindChoice::Code(language) => DocumentKind::Code(language),
        KindChoice::Text => DocumentKind::Text,
        KindChoice::Auto => DocumentKind::Code(
            Language::from_name(&notebook.language).ok_or_else(|| {
                extract_error(crate::extract::ExtractError::CorruptNotebook(format!(
                    "its kernel's language {:?} is not one copyhound reads (--lang reads it as another)",
                    notebook.language
                )))
            })?,
        ),
    };
    let code = notebook.code;
    check_memory(path, kind, code.text.len(), options)?;
    let doc = match kind {
        DocumentKind::Code(language) => normalize_code(language, &code.text, &options.code),
        _ => normalize_text(&code.text, &options.text),
    };
    let markdown = if kind.language().is_some() && !notebook.markdown.cells.is_empty() {
        let markdown = notebook.markdown;
        check_memory(path, DocumentKind::Text, markdown.text.len(), options)?;
        let doc = normalize_text(&markdown.text, &options.text);
        (!doc.is_empty()).then(|| {
            Box::new(notebook_part(
                markdown.text,
                doc,
                DocumentKind::Text,
                markdown.cells,
            ))
        })
    } else {
        None
    };
    Ok(LoadedDocument {
        markdown,
        ..notebook_part(code.text, doc, kind, code.cells)
    })
}

/// One kind of the cells of a notebook, read as `kind`.
fn notebook_part(
    text: String,
    doc: NormalizedDocument,
    kind: DocumentKind,
    cells: Vec<CellStart>,
) -> LoadedDocument {
    LoadedDocument {
        text,
        doc,
        kind,
        encoding: "IPYNB",
        text_start_in_file: None,
        warnings: Vec::new(),
        cells,
        markdown: None,
    }
}

/// Text, HTML or code: decode, pick the kind, normalise.
fn load_text(
    path: &Path,
    extension: &str,
    bytes: &[u8],
    options: &LoadOptions,
) -> Result<LoadedDocument, LoadError> {
    let forced_code = matches!(options.kind, KindChoice::Code(_));
    let html_by_extension = !forced_code && is_html_extension(extension);
    let declared = if html_by_extension || (!forced_code && starts_like_html(bytes)) {
        html::declared_encoding(bytes)
    } else {
        None
    };
    let decoded =
        decode(bytes, declared).map_err(|error| LoadError::from_decode(path.into(), error))?;
    let mut warnings = Vec::new();
    match decoded.source {
        EncodingSource::Guessed => warnings.push(format!(
            "not UTF-8; decoded as {} (guessed)",
            decoded.encoding.name()
        )),
        EncodingSource::MostlyUtf8 => warnings.push(format!(
            "invalid UTF-8: {} malformed byte sequence(s) replaced with U+FFFD",
            decoded.replaced
        )),
        EncodingSource::ByteOrderMark | EncodingSource::ValidUtf8 | EncodingSource::Declared => {
            if decoded.replaced > 0 {
                warnings.push(format!(
                    "{} malformed byte sequence(s) replaced with U+FFFD",
                    decoded.replaced
                ));
            }
        }
    }
    let text_start_in_file = verbatim_start(&decoded, bytes);
    let encoding = decoded.encoding.name();
    let text = decoded.text.into_owned();
    let kind = choose_kind(options.kind, html_by_extension, path, &text);
    check_memory(path, kind, text.len(), options)?;
    let (text, doc, text_start_in_file) = match kind {
        DocumentKind::Code(language) => {
            let doc = normalize_code(language, &text, &options.code);
            (text, doc, text_start_in_file)
        }
        DocumentKind::Html => {
            let visible = html::visible_text(&text);
            let doc = normalize_text(&visible, &options.text);
            (visible, doc, None)
        }
        _ => {
            let doc = normalize_text(&text, &options.text);
            (text, doc, text_start_in_file)
        }
    };
    Ok(LoadedDocument {
        text,
        doc,
        kind,
        encoding,
        text_start_in_file,
        warnings,
        cells: Vec::new(),
        markdown: None,
    })
}

/// The kind of a decoded text: HTML by extension, code by
/// [`Language::detect`], HTML by content, else text.
fn choose_kind(
    choice: KindChoice,
    html_by_extension: bool,
    path: &Path,
    text: &str,
) -> DocumentKind {
    match choice {
        KindChoice::Code(language) => DocumentKind::Code(language),
        _ if html_by_extension => DocumentKind::Html,
        KindChoice::Auto => match Language::detect(path, text) {
            Some(language) => DocumentKind::Code(language),
            None if html::looks_like_html(text) => DocumentKind::Html,
            None => DocumentKind::Text,
        },
        KindChoice::Text if html::looks_like_html(text) => DocumentKind::Html,
        KindChoice::Text => DocumentKind::Text,
    }
}

/// Where the decoded text starts in the file when it is a verbatim copy.
fn verbatim_start(decoded: &Decoded<'_>, bytes: &[u8]) -> Option<usize> {
    match decoded.source {
        EncodingSource::ValidUtf8 => Some(0),
        EncodingSource::ByteOrderMark
            if decoded.encoding == encoding_rs::UTF_8 && decoded.replaced == 0 =>
        {
            Some(bytes.len() - decoded.text.len())
        }
        _ => None,
    }
}

/// Whether the bytes open like an HTML document (for the `charset` prescan,
/// which must run before decoding).
fn starts_like_html(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(256)];
    html::looks_like_html(&String::from_utf8_lossy(head))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notebooks_markdown_is_a_text_of_its_own_when_asked_for() {
        let notebook = br#"{"cells": [
            {"cell_type": "code", "source": ["x = 1\n"]},
            {"cell_type": "markdown", "source": ["Prose about x.\n"]},
            {"cell_type": "markdown", "source": ["---\n"]}
        ]}"#;
        let load = |kind, notebook_markdown| {
            let options = LoadOptions {
                kind,
                notebook_markdown,
                ..LoadOptions::default()
            };
            load_bytes(Path::new("a.ipynb"), notebook, &options).unwrap()
        };
        let plain = load(KindChoice::Auto, false);
        assert_eq!(plain.markdown, None);
        let with_markdown = load(KindChoice::Auto, true);
        assert_eq!(
            LoadedDocument {
                markdown: None,
                ..with_markdown.clone()
            },
            plain
        );
        let markdown = with_markdown.markdown.unwrap();
        assert_eq!(markdown.kind, DocumentKind::Text);
        assert_eq!(markdown.text, "---\nProse about x.\n---\n---\n");
        assert_eq!(markdown.doc.len(), "Proseaboutx".len());
        let cells: Vec<u32> = markdown.cells.iter().map(|c| c.number).collect();
        assert_eq!(cells, [2, 3]);
        // Code read as text has no markdown beside it.
        assert_eq!(load(KindChoice::Text, true).markdown, None);
        // Nor has a notebook whose markdown gives no symbols.
        let rules_only = br#"{"cells": [{"cell_type": "markdown", "source": "---"}]}"#;
        let options = LoadOptions {
            notebook_markdown: true,
            ..LoadOptions::default()
        };
        let loaded = load_bytes(Path::new("a.ipynb"), rules_only, &options).unwrap();
        assert_eq!(loaded.markdown, None);
    }
}
