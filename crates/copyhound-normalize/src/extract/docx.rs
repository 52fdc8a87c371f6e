//! Text of Word (OOXML, `.docx`) documents: a zip archive whose
//! `word/document.xml` holds the body as `<w:p>` paragraphs of `<w:t>` runs.
//!
//! The text is the body, then the footnotes and endnotes. Paragraphs end in
//! a line break; `<w:tab/>` is a tab; `<w:br/>` and `<w:cr/>` are line
//! breaks. Deleted revisions (`<w:delText>`) and field codes
//! (`<w:instrText>`) are not text a reader sees and are skipped, since only
//! `<w:t>` (and the `<a:t>` of drawings) content is read.
//!
//! A zip can expand by a factor of a thousand or more, so every part read is
//! checked before and while decompressing: its declared size against the
//! limit, its compression ratio against what XML ever reaches, and the bytes
//! actually produced against the limit again (the declared size can lie).

use std::io::{BufReader, Cursor, Read};

use quick_xml::Reader;
use quick_xml::escape::resolve_predefined_entity;
use quick_xml::events::{BytesRef, Event};
use zip::ZipArchive;
use zip::result::ZipError;

use super::ExtractError;

/// The part with the document body.
const BODY_PART: &str = "word/document.xml";

/// Parts read after the body, when present.
const NOTE_PARTS: [&str; 2] = ["word/footnotes.xml", "word/endnotes.xml"];

/// XML compresses 5–30 times in practice; a far higher ratio for a part of
/// more than [`RATIO_CHECK_MIN_BYTES`] is a zip bomb.
const MAX_COMPRESSION_RATIO: u64 = 200;

/// Small parts may compress extremely well (runs of spaces) and are harmless.
const RATIO_CHECK_MIN_BYTES: u64 = 1 << 20;

/// Magic bytes of an OLE compound file.
const OLE_MAGIC: [u8; 8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];

/// The text of the DOCX in `bytes`, refusing any part that expands to more
/// than `limit` bytes, and stopping once the text exceeds `limit`.
pub fn extract_docx_text(bytes: &[u8], limit: u64) -> Result<String, ExtractError> {
    if bytes.starts_with(&OLE_MAGIC) {
        return Err(ExtractError::OleCompoundFile);
    }
    let mut archive = ZipArchive::new(Cursor::new(bytes)).map_err(|error| corrupt(&error))?;
    let mut text = String::new();
    let body = read_part(&mut archive, BODY_PART, limit)?
        .ok_or_else(|| ExtractError::CorruptDocx(format!("no {BODY_PART}: not a Word document")))?;
    append_paragraph_text(&body, BODY_PART, &mut text)?;
    for part in NOTE_PARTS {
        if let Some(xml) = read_part(&mut archive, part, limit)? {
            append_paragraph_text(&xml, part, &mut text)?;
        }
        if text.len() as u64 > limit {
            return Err(ExtractError::DocxPartTooLarge {
                part: part.into(),
                limit,
            });
        }
    }
    Ok(text)
}

fn corrupt(error: &ZipError) -> ExtractError {
    ExtractError::CorruptDocx(error.to_string())
}

/// The bytes of one part, or `None` when the archive has no such part.
fn read_part(
    archive: &mut ZipArchive<Cursor<&[u8]>>,
    name: &str,
    limit: u64,
) -> Result<Option<Vec<u8>>, ExtractError> {
    let part = match archive.by_name(name) {
        Ok(part) => part,
        Err(ZipError::FileNotFound) => return Ok(None),
        Err(error) => return Err(corrupt(&error)),
    };
    let declared = part.size();
    let compressed = part.compressed_size();
    if declared > limit {
        return Err(ExtractError::DocxPartTooLarge {
            part: name.into(),
            limit,
        });
    }
    if declared >= RATIO_CHECK_MIN_BYTES && declared > MAX_COMPRESSION_RATIO * compressed.max(1) {
        return Err(ExtractError::DocxCompressionRatio {
            part: name.into(),
            ratio: declared / compressed.max(1),
            compressed,
            uncompressed: declared,
        });
    }
    let mut xml = Vec::with_capacity(declared as usize);
    // Reading one byte past the limit tells a lying size header from an honest one.
    part.take(limit + 1)
        .read_to_end(&mut xml)
        .map_err(|error| ExtractError::CorruptDocx(format!("{name}: {error}")))?;
    if xml.len() as u64 > limit {
        return Err(ExtractError::DocxPartTooLarge {
            part: name.into(),
            limit,
        });
    }
    Ok(Some(xml))
}

/// Appends the text of the paragraphs of one `WordprocessingML` part.
fn append_paragraph_text(xml: &[u8], part: &str, text: &mut String) -> Result<(), ExtractError> {
    let mut reader = Reader::from_reader(BufReader::new(xml));
    let mut buffer = Vec::new();
    let mut in_text_run = false;
    loop {
        let event = reader.read_event_into(&mut buffer).map_err(|error| {
            ExtractError::CorruptDocx(format!(
                "{part}: malformed XML at byte {}: {error}",
                reader.error_position()
            ))
        })?;
        match event {
            Event::Start(element) => {
                in_text_run = element.local_name().as_ref() == "t";
            }
            Event::Empty(element) => match element.local_name().as_ref() {
                "tab" => text.push('\t'),
                "br" | "cr" => text.push('\n'),
                _ => {}
            },
            Event::End(element) => match element.local_name().as_ref() {
                "t" => in_text_run = false,
                "p" => text.push('\n'),
                _ => {}
            },
            Event::Text(chars) if in_text_run => text.push_str(&chars.xml10_content()),
            Event::CData(chars) if in_text_run => text.push_str(&chars.xml10_content()),
            Event::GeneralRef(reference) if in_text_run => push_reference(&reference, text),
            Event::Eof => return Ok(()),
            _ => {}
        }
        buffer.clear();
    }
}

/// Appends the character an entity or character reference stands for; an
/// unknown entity (a DOCX has no DTD to define one) is kept as written.
fn push_reference(reference: &BytesRef<'_>, text: &mut String) {
    if let Ok(Some(c)) = reference.resolve_char_ref() {
        text.push(c);
    } else if let Some(replacement) = resolve_predefined_entity(reference) {
        text.push_str(replacement);
    } else {
        text.push('&');
        text.push_str(reference);
        text.push(';');
    }
}
