//! The text layer of a PDF, through `pdf-extract` (on `lopdf`).
//!
//! Three bounds keep a hostile PDF from taking the process down:
//!
//! - **Panics**: `pdf-extract` panics on many malformed files; it runs under
//!   `catch_unwind`, and a panic becomes an error carrying the panic message.
//!   A panic hook installed once keeps such panics of the reader thread off
//!   stderr; every other panic goes to the hook that was there before.
//! - **Time**: it runs on its own thread and the caller stops waiting after a
//!   timeout. A timed-out thread cannot be killed; it is left running,
//!   detached, until it finishes or the process exits.
//! - **Memory**: a deflated stream can expand a thousandfold. Before any
//!   text is extracted, every non-image stream is inflated into a sink with a
//!   running total, and the file is refused when the total would pass the
//!   limit. (Object streams are inflated by `lopdf` while parsing, before
//!   this check; they hold only object syntax and are bounded by the input.)
//!
//! Scanned PDFs have no text layer and give an empty text, not an error.

use std::io::Read;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Once, mpsc};
use std::time::Duration;

use flate2::read::ZlibDecoder;
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

fn extract(bytes: &[u8], inflated_limit: u64) -> Result<String, ExtractError> {
    let mut document = Document::load_mem(bytes).map_err(|error| classify(&error))?;
    if document.is_encrypted() {
        // Many PDFs are encrypted with an empty user password only to set
        // permissions; those can be read.
        document.decrypt("").map_err(|error| classify(&error))?;
    }
    check_inflated_size(&document, inflated_limit)?;
    let mut text = String::new();
    pdf_extract::output_doc(&document, &mut PlainTextOutput::new(&mut text)).map_err(|error| {
        match error {
            OutputError::PdfError(error) => classify(&error),
            other => ExtractError::CorruptPdf(other.to_string()),
        }
    })?;
    Ok(text)
}

/// Refuses a document whose deflated non-image streams expand beyond `limit`.
fn check_inflated_size(document: &Document, limit: u64) -> Result<(), ExtractError> {
    let mut total = 0u64;
    for object in document.objects.values() {
        let Object::Stream(stream) = object else {
            continue;
        };
        let is_image = stream
            .dict
            .get(b"Subtype")
            .and_then(Object::as_name)
            .is_ok_and(|subtype| subtype == b"Image");
        let deflated = stream.filters().is_ok_and(|filters| {
            filters
                .first()
                .is_some_and(|&filter| filter == b"FlateDecode")
        });
        if is_image || !deflated {
            total += stream.content.len() as u64;
        } else {
            let budget = limit.saturating_sub(total).saturating_add(1);
            // A corrupt stream counts as far as it inflates; pdf-extract
            // reports the corruption itself.
            let inflated = std::io::copy(
                &mut ZlibDecoder::new(stream.content.as_slice()).take(budget),
                &mut std::io::sink(),
            )
            .unwrap_or(0);
            total += inflated;
        }
        if total > limit {
            return Err(ExtractError::PdfTooLarge { limit });
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

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(ToString::to_string)
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic without a message".into())
}
