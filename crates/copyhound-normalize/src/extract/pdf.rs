//! The text layer of a PDF, through `pdf-extract`.
//!
//! `pdf-extract` panics on many malformed files and can take very long on
//! crafted ones, so it runs on its own thread: a panic becomes an error, and
//! the caller stops waiting after a timeout. A timed-out thread cannot be
//! killed; it is left running, detached, until it finishes or the process
//! exits. The panic message is printed by the process's panic hook as usual.
//!
//! Scanned PDFs have no text layer and give an empty text, not an error.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;
use std::time::Duration;

use pdf_extract::{Error as PdfError, OutputError};

use super::ExtractError;

/// The text of the PDF in `bytes`, waiting at most `timeout` for it.
pub fn extract_pdf_text(bytes: &[u8], timeout: Duration) -> Result<String, ExtractError> {
    let bytes = bytes.to_vec();
    let (sender, receiver) = mpsc::sync_channel(1);
    std::thread::Builder::new()
        .name("copyhound-pdf".into())
        .spawn(move || {
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                pdf_extract::extract_text_from_mem(&bytes)
            }));
            // The receiver is gone after a timeout; nobody needs the result then.
            let _ = sender.send(outcome);
        })
        .map_err(|error| {
            ExtractError::CorruptPdf(format!("cannot start reader thread: {error}"))
        })?;
    match receiver.recv_timeout(timeout) {
        Ok(Ok(Ok(text))) => Ok(text),
        Ok(Ok(Err(error))) => Err(classify(&error)),
        Ok(Err(panic)) => Err(ExtractError::PdfReaderCrashed(panic_message(
            panic.as_ref(),
        ))),
        Err(mpsc::RecvTimeoutError::Timeout) => Err(ExtractError::PdfTimeout(timeout)),
        Err(mpsc::RecvTimeoutError::Disconnected) => Err(ExtractError::PdfReaderCrashed(
            "reader thread ended without a result".into(),
        )),
    }
}

fn classify(error: &OutputError) -> ExtractError {
    match error {
        OutputError::PdfError(PdfError::Decryption(_) | PdfError::InvalidPassword) => {
            ExtractError::EncryptedPdf
        }
        other => ExtractError::CorruptPdf(other.to_string()),
    }
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(ToString::to_string)
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic without a message".into())
}
