//! The text layer of a PDF, through `pdf-extract` (on `lopdf`).
//!
//! These bounds keep a hostile PDF from taking the process down:
//!
//! - **Panics**: `pdf-extract` panics on many malformed files; it runs under
//!   `catch_unwind`, and a panic becomes an error carrying the panic message.
//!   A panic hook installed once keeps such panics of the reader thread off
//!   stderr; every other panic goes to the hook that was there before.
//! - **Memory**: a deflated stream can expand a thousandfold, and `lopdf`
//!   inflates object streams while it parses. Before the file is parsed,
//!   every deflated stream in its bytes is inflated into a sink with a
//!   running total ([`check_inflated_streams`]), and the file is refused
//!   when the total would pass the limit, so nothing is allocated for a
//!   bomb. Image streams count too: a stream's dictionary cannot be trusted
//!   to say what the reader will do with it.
//! - **Loops**: `pdf-extract` follows a page's `/Parent` chain to find
//!   inherited attributes and never returns when the chain is a cycle; such
//!   page trees are refused before extraction ([`check_page_parents`]).
//! - **Time**: it runs on its own thread and the caller stops waiting after a
//!   timeout. A timed-out thread cannot be killed; it is left running,
//!   detached, until it finishes or the process exits. Only a child process
//!   can be stopped for certain: see [`super::isolated`], which the
//!   `copyhound` command line uses.
//!
//! Scanned PDFs have no text layer and give an empty text, not an error.
//!
//! `pdf-extract` reads text shown by `Tj` and `TJ` only; text shown by the
//! `'` and `"` operators (a new line, then the text) is rewritten into
//! those first ([`spell_out_quote_operators`]).

use std::collections::HashSet;
use std::io::Read;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Once, mpsc};
use std::time::Duration;

use flate2::read::ZlibDecoder;
use pdf_extract::content::{Content, Operation};
use pdf_extract::{Document, Error as PdfError, Object, OutputError, PlainTextOutput};

use super::ExtractError;

/// The name of the thread that runs the PDF reader.
const READER_THREAD: &str = "copyhound-pdf";

/// The text of the PDF in `bytes`, waiting at most `timeout` for it and
/// refusing files whose streams inflate to more than `inflated_limit` bytes.
pub fn extract_pdf_text(
    bytes: &[u8],
    timeout: Duration,
    inflated_limit: u64,
) -> Result<String, ExtractError> {
    silence_reader_panics();
    let bytes = bytes.to_vec();
    let (sender, receiver) = mpsc::sync_channel(1);
    std::thread::Builder::new()
        .name(READER_THREAD.into())
        .spawn(move || {
            let outcome = catch_unwind(AssertUnwindSafe(|| extract(&bytes, inflated_limit)));
            // The receiver is gone after a timeout; nobody needs the result then.
            let _ = sender.send(outcome);
        })
        .map_err(|error| {
            ExtractError::CorruptPdf(format!("cannot start reader thread: {error}"))
        })?;
    match receiver.recv_timeout(timeout) {
        Ok(Ok(result)) => result,
        Ok(Err(panic)) => Err(ExtractError::PdfReaderCrashed(panic_message(
            panic.as_ref(),
        ))),
        Err(mpsc::RecvTimeoutError::Timeout) => Err(ExtractError::PdfTimeout(timeout)),
        Err(mpsc::RecvTimeoutError::Disconnected) => Err(ExtractError::PdfReaderCrashed(
            "reader thread ended without a result".into(),
        )),
    }
}

/// The text of the PDF in `bytes` on the calling thread: the checks, then
/// `pdf-extract`. Panics of the reader are not caught here.
pub(crate) fn extract(bytes: &[u8], inflated_limit: u64) -> Result<String, ExtractError> {
    check_inflated_streams(bytes, inflated_limit)?;
    let mut document = Document::load_mem(bytes).map_err(|error| classify(&error))?;
    if document.is_encrypted() {
        // Many PDFs are encrypted with an empty user password only to set
        // permissions; those can be read.
        document.decrypt("").map_err(|error| classify(&error))?;
    }
    check_page_parents(&document)?;
    spell_out_quote_operators(&mut document);
    let mut text = String::new();
    pdf_extract::output_doc(&document, &mut PlainTextOutput::new(&mut text)).map_err(|error| {
        match error {
            OutputError::PdfError(error) => classify(&error),
            other => ExtractError::CorruptPdf(other.to_string()),
        }
    })?;
    Ok(text)
}

/// Rewrites each page's `'` and `"` text operators as the operators they
/// stand for (PDF 32000-1, 9.4.3): `string '` is `T* string Tj`, and
/// `aw ac string "` is `aw Tw ac Tc string '`. A page whose content cannot
/// be read or written again is left as it is, for the reader to judge.
fn spell_out_quote_operators(document: &mut Document) {
    for page in document.get_pages().into_values() {
        let Ok(bytes) = document.get_page_content(page) else {
            continue;
        };
        let Ok(content) = Content::decode(&bytes) else {
            continue;
        };
        let is_quote = |operation: &Operation| matches!(operation.operator.as_str(), "'" | "\"");
        if !content.operations.iter().any(is_quote) {
            continue;
        }
        let operations: Vec<Operation> = content
            .operations
            .into_iter()
            .flat_map(spelled_out)
            .collect();
        if let Ok(bytes) = (Content { operations }).encode() {
            // A page left unchanged is read as before.
            let _ = document.change_page_content(page, bytes);
        }
    }
}

/// `operation` as `T*`, `Tw`, `Tc` and `Tj` when it is `'` or `"` (with
/// the operands they take), else itself.
fn spelled_out(operation: Operation) -> Vec<Operation> {
    let next_line = || Operation::new("T*", Vec::new());
    let show = |text: &Object| Operation::new("Tj", vec![text.clone()]);
    match (operation.operator.as_str(), operation.operands.as_slice()) {
        ("'", [text]) => vec![next_line(), show(text)],
        ("\"", [word_spacing, character_spacing, text]) => vec![
            Operation::new("Tw", vec![word_spacing.clone()]),
            Operation::new("Tc", vec![character_spacing.clone()]),
            next_line(),
            show(text),
        ],
        _ => vec![operation],
    }
}

/// Refuses a file whose deflated streams together expand beyond `limit`.
///
/// Works on the raw bytes, before `lopdf` parses (and inflates) anything:
/// a zlib stream ends by itself, so each one is inflated from just after
/// its `stream` keyword into a sink, whatever its `/Length` says. Data that
/// is not zlib counts as far as it inflates.
pub fn check_inflated_streams(bytes: &[u8], limit: u64) -> Result<(), ExtractError> {
    let mut total = 0u64;
    let mut from = 0;
    while let Some(found) = find(&bytes[from..], b"stream") {
        let keyword = from + found;
        from = keyword + b"stream".len();
        let data_start = match bytes.get(from..from + 2) {
            Some([b'\r', b'\n']) => from + 2,
            Some([b'\n' | b'\r', _]) => from + 1,
            _ => continue,
        };
        // `endstream` contains `stream` too; so does no stream dictionary.
        if keyword >= 3 && &bytes[keyword - 3..keyword] == b"end" {
            continue;
        }
        let budget = limit.saturating_sub(total).saturating_add(1);
        let inflated = std::io::copy(
            &mut ZlibDecoder::new(&bytes[data_start..]).take(budget),
            &mut std::io::sink(),
        )
        .unwrap_or(0);
        total += inflated;
        if total > limit {
            return Err(ExtractError::PdfTooLarge { limit });
        }
    }
    Ok(())
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

/// Page trees deeper than this are refused; real ones are a few levels deep.
const MAX_PAGE_TREE_DEPTH: usize = 256;

/// Refuses a document in which some page's `/Parent` chain is a cycle or
/// deeper than [`MAX_PAGE_TREE_DEPTH`].
fn check_page_parents(document: &Document) -> Result<(), ExtractError> {
    let mut ancestors = HashSet::new();
    for page in document.page_iter() {
        ancestors.clear();
        let mut current = page;
        loop {
            if !ancestors.insert(current) {
                return Err(ExtractError::CorruptPdf(format!(
                    "the page tree loops: object {} {} is its own ancestor",
                    current.0, current.1
                )));
            }
            if ancestors.len() > MAX_PAGE_TREE_DEPTH {
                return Err(ExtractError::CorruptPdf(format!(
                    "the page tree is more than {MAX_PAGE_TREE_DEPTH} levels deep"
                )));
            }
            let parent = document
                .get_dictionary(current)
                .ok()
                .and_then(|dictionary| dictionary.get(b"Parent").ok())
                .and_then(|parent| parent.as_reference().ok());
            match parent {
                Some(parent) => current = parent,
                None => break,
            }
        }
    }
    Ok(())
}

fn classify(error: &PdfError) -> ExtractError {
    match error {
        PdfError::Decryption(_) | PdfError::InvalidPassword => ExtractError::EncryptedPdf,
        other => ExtractError::CorruptPdf(other.to_string()),
    }
}

/// Installs, once, a panic hook that stays silent for the reader thread,
/// whose panics become errors, and defers to the previous hook otherwise.
fn silence_reader_panics() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if std::thread::current().name() != Some(READER_THREAD) {
                previous(info);
            }
        }));
    });
}

pub(crate) fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(ToString::to_string)
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic without a message".into())
}
