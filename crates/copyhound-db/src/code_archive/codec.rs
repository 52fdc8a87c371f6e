//! The bytes of the archive's values (FORMAT.md, "Code archive"): varints
//! and length-prefixed strings; hashes as ascending gaps; files (symbols,
//! spans, line starts) compressed, and their texts compressed apart: with
//! zstd from format 4 on, deflated in format 3.

use std::cell::RefCell;
use std::io::{Read, Write};
use std::path::PathBuf;

use copyhound_fingerprint::NormalizedDocument;

use flate2::Compression;
use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;

use super::{ArchivedFile, ArchivedUnit};
use crate::codec::{get_varint, put_varint};

fn put_str(out: &mut Vec<u8>, s: &str) {
    put_varint(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

fn get_bytes<'a>(bytes: &'a [u8], pos: &mut usize) -> Option<&'a [u8]> {
    let len = usize::try_from(get_varint(bytes, pos)?).ok()?;
    let slice = bytes.get(*pos..pos.checked_add(len)?)?;
    *pos += len;
    Some(slice)
}

fn get_str(bytes: &[u8], pos: &mut usize) -> Option<String> {
    String::from_utf8(get_bytes(bytes, pos)?.to_vec()).ok()
}

/// A unit's record: name, family, root, content hash (its hashes and
/// files are stored apart).
pub(super) fn encode_record(unit: &ArchivedUnit) -> Vec<u8> {
    let mut out = Vec::new();
    put_str(&mut out, &unit.name);
    put_str(&mut out, &unit.family);
    put_str(&mut out, &unit.root);
    out.extend_from_slice(&unit.content.to_le_bytes());
    out
}

/// The unit of a record, without hashes or files.
pub(super) fn decode_record(bytes: &[u8]) -> Option<ArchivedUnit> {
    let mut pos = 0;
    let name = get_str(bytes, &mut pos)?;
    let family = get_str(bytes, &mut pos)?;
    let root = get_str(bytes, &mut pos)?;
    let content = u64::from_le_bytes(bytes.get(pos..pos + 8)?.try_into().ok()?);
    (pos + 8 == bytes.len()).then_some(ArchivedUnit {
        name,
        family,
        root,
        content,
        hashes: Vec::new(),
        files: Vec::new(),
    })
}

/// Ascending distinct hashes: their count, the first, then each gap.
pub(super) fn encode_hashes(hashes: &[u64]) -> Vec<u8> {
    let mut out = Vec::with_capacity(hashes.len() * 8 + 2);
    put_varint(&mut out, hashes.len() as u64);
    let mut previous = 0;
    for &hash in hashes {
        put_varint(&mut out, hash - previous);
        previous = hash;
    }
    out
}

/// Decodes hashes into `into` (cleared first); `None` if the bytes are
/// not hashes.
pub(super) fn decode_hashes(bytes: &[u8], into: &mut Vec<u64>) -> Option<()> {
    into.clear();
    let mut pos = 0;
    let count = get_varint(bytes, &mut pos)?;
    let mut hash = 0u64;
    for _ in 0..count {
        hash = hash.checked_add(get_varint(bytes, &mut pos)?)?;
        into.push(hash);
    }
    (pos == bytes.len()).then_some(())
}

/// How an archive compresses its files and texts, by its format version.
///
/// Format 4 took zstd for deflate: a unit's files are inflated for every
/// `compare --against` that pulls it and deflated at every `db add`, and
/// zstd does both several times faster at about the same size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Codec {
    /// Raw deflate streams (format 3).
    Deflate,
    /// zstd frames, their plain size in the header (format 4).
    Zstd,
}

/// The zstd level files and texts are written at: zstd's default, which
/// writes a unit faster than deflate's default and is no larger.
const ZSTD_LEVEL: i32 = 3;

impl Codec {
    /// `plain`, compressed.
    pub(super) fn compress(self, plain: &[u8]) -> Vec<u8> {
        match self {
            Self::Deflate => deflate(plain),
            Self::Zstd => {
                thread_local! {
                    /// A compressor's tables are set up once per thread, not per unit.
                    static COMPRESSOR: RefCell<Option<zstd::bulk::Compressor<'static>>> =
                        const { RefCell::new(None) };
                }
                reused(
                    &COMPRESSOR,
                    || zstd::bulk::Compressor::new(ZSTD_LEVEL).ok(),
                    |c| c.compress(plain),
                )
                .and_then(Result::ok)
                .expect("compressing in memory needs only memory")
            }
        }
    }

    /// The plain bytes of `bytes`; `None` if they are not what
    /// [`Self::compress`] writes.
    pub(super) fn decompress(self, bytes: &[u8]) -> Option<Vec<u8>> {
        match self {
            Self::Deflate => inflate(bytes),
            Self::Zstd => {
                thread_local! {
                    static DECOMPRESSOR: RefCell<Option<zstd::bulk::Decompressor<'static>>> =
                        const { RefCell::new(None) };
                }
                let size = zstd::zstd_safe::get_frame_content_size(bytes).ok()??;
                let size = usize::try_from(size).ok()?;
                // A size the bytes could hardly hold (damaged, or a file of
                // one line repeated) is not allocated up front: the frame
                // is read as a stream, which grows with what it holds.
                if size > bytes.len().saturating_mul(64).saturating_add(1 << 20) {
                    return zstd::stream::decode_all(bytes)
                        .ok()
                        .filter(|plain| plain.len() == size);
                }
                reused(
                    &DECOMPRESSOR,
                    || zstd::bulk::Decompressor::new().ok(),
                    |d| d.decompress(bytes, size).ok(),
                )
                .flatten()
                .filter(|plain| plain.len() == size)
            }
        }
    }
}

/// `each` applied to this thread's value in `slot`, made by `make` the
/// first time; `None` if it cannot be made.
fn reused<T: 'static, R>(
    slot: &'static std::thread::LocalKey<RefCell<Option<T>>>,
    make: impl FnOnce() -> Option<T>,
    each: impl FnOnce(&mut T) -> R,
) -> Option<R> {
    slot.with_borrow_mut(|value| {
        let value = match value {
            Some(value) => value,
            None => value.insert(make()?),
        };
        Some(each(value))
    })
}

/// Files, compressed with `codec`: their count, then per file its name, its path, its
/// symbols and spans ([`put_form`]), its notebook cells (count, then each
/// cell's number and offset) and its line starts after the first (count,
/// then each as the gap from the one before). Texts are stored apart
/// ([`encode_texts`]).
pub(super) fn encode_files(files: &[ArchivedFile], codec: Codec) -> Vec<u8> {
    let mut plain = Vec::new();
    put_varint(&mut plain, files.len() as u64);
    for file in files {
        put_str(&mut plain, &file.name);
        put_str(&mut plain, &file.path.to_string_lossy());
        put_form(&mut plain, &file.form);
        put_varint(&mut plain, file.cells.len() as u64);
        for &(number, offset) in &file.cells {
            put_varint(&mut plain, u64::from(number));
            put_varint(&mut plain, offset);
        }
        put_varint(&mut plain, file.line_starts.len() as u64);
        let mut previous = 0;
        for &start in &file.line_starts {
            put_varint(&mut plain, u64::from(start - previous));
            previous = start;
        }
    }
    codec.compress(&plain)
}

/// The texts of `files`, compressed with `codec`: their count, then per file a byte 1
/// and its text, or 0 when it has none.
pub(super) fn encode_texts(files: &[ArchivedFile], codec: Codec) -> Vec<u8> {
    let mut plain = Vec::new();
    put_varint(&mut plain, files.len() as u64);
    for file in files {
        match &file.text {
            Some(text) => {
                plain.push(1);
                put_str(&mut plain, text);
            }
            None => plain.push(0),
        }
    }
    codec.compress(&plain)
}

fn deflate(plain: &[u8]) -> Vec<u8> {
    let mut encoder = DeflateEncoder::new(Vec::new(), Compression::default());
    encoder
        .write_all(plain)
        .expect("writing to memory cannot fail");
    encoder.finish().expect("writing to memory cannot fail")
}

fn inflate(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut plain = Vec::new();
    DeflateDecoder::new(bytes).read_to_end(&mut plain).ok()?;
    Some(plain)
}

/// A document's symbols and spans: the symbol count, the distinct symbols
/// ascending (their count, the first, then each gap), each symbol as its
/// place among them, then per span its start as the zigzag difference
/// from the previous start and its length. Symbols are often large
/// numbers (hashed names) drawn from a few hundred, so places take a byte.
fn put_form(out: &mut Vec<u8>, form: &NormalizedDocument) {
    let mut distinct = form.symbols.clone();
    distinct.sort_unstable();
    distinct.dedup();
    put_varint(out, form.symbols.len() as u64);
    put_varint(out, distinct.len() as u64);
    let mut previous = 0;
    for &symbol in &distinct {
        put_varint(out, u64::from(symbol - previous));
        previous = symbol;
    }
    for symbol in &form.symbols {
        let place = distinct
            .binary_search(symbol)
            .expect("every symbol is listed");
        put_varint(out, place as u64);
    }
    let mut previous = 0i64;
    for span in &form.spans {
        let start = i64::from(span.start);
        let gap = start - previous;
        put_varint(out, ((gap << 1) ^ (gap >> 63)) as u64);
        put_varint(out, u64::from(span.end - span.start));
        previous = start;
    }
}

/// The document of [`put_form`]; `None` if the bytes are not one.
fn get_form(bytes: &[u8], pos: &mut usize) -> Option<NormalizedDocument> {
    // Every count is checked against the bytes left (each item takes at
    // least one), so damaged bytes cannot ask for a huge allocation.
    let count_at_most = |count: u64, pos: usize| {
        usize::try_from(count)
            .ok()
            .filter(|&c| c <= bytes.len().saturating_sub(pos))
    };
    let count = count_at_most(get_varint(bytes, pos)?, *pos)?;
    let distinct_count = count_at_most(get_varint(bytes, pos)?, *pos)?;
    let mut distinct = Vec::with_capacity(distinct_count);
    let mut symbol = 0u32;
    for _ in 0..distinct_count {
        symbol = symbol.checked_add(u32::try_from(get_varint(bytes, pos)?).ok()?)?;
        distinct.push(symbol);
    }
    let symbols = (0..count)
        .map(|_| {
            distinct
                .get(usize::try_from(get_varint(bytes, pos)?).ok()?)
                .copied()
        })
        .collect::<Option<Vec<u32>>>()?;
    // Exactly as large as the symbols: a comparison keeps them all.
    let mut form = NormalizedDocument {
        symbols: Vec::with_capacity(count),
        spans: Vec::with_capacity(count),
    };
    let mut previous = 0i64;
    for symbol in symbols {
        let zigzag = get_varint(bytes, pos)?;
        let half = i64::try_from(zigzag >> 1).ok()?;
        let start = previous.checked_add(if zigzag & 1 == 0 { half } else { !half })?;
        let len = usize::try_from(get_varint(bytes, pos)?).ok()?;
        let first = usize::try_from(start).ok()?;
        let end = first
            .checked_add(len)
            .filter(|&e| u32::try_from(e).is_ok())?;
        form.push(symbol, first..end);
        previous = start;
    }
    Some(form)
}

/// How many files the bytes of [`encode_files`] hold, from their first
/// bytes only; `None` if they do not start as files do.
pub(super) fn file_count(bytes: &[u8], codec: Codec) -> Option<u64> {
    let mut head = [0u8; 10];
    let mut len = 0;
    let mut decoder: Box<dyn Read> = match codec {
        Codec::Deflate => Box::new(DeflateDecoder::new(bytes)),
        Codec::Zstd => Box::new(zstd::stream::read::Decoder::with_buffer(bytes).ok()?),
    };
    while len < head.len() {
        match decoder.read(&mut head[len..]).ok()? {
            0 => break,
            read => len += read,
        }
    }
    get_varint(&head[..len], &mut 0)
}

/// The files of [`encode_files`], without texts; `None` if the bytes are
/// not files.
pub(super) fn decode_files(bytes: &[u8], codec: Codec) -> Option<Vec<ArchivedFile>> {
    let plain = codec.decompress(bytes)?;
    let mut pos = 0;
    let count = get_varint(&plain, &mut pos)?;
    let mut files = Vec::new();
    for _ in 0..count {
        let name = get_str(&plain, &mut pos)?;
        let path = PathBuf::from(get_str(&plain, &mut pos)?);
        let form = get_form(&plain, &mut pos)?;
        let cell_count = get_varint(&plain, &mut pos)?;
        let mut cells = Vec::new();
        for _ in 0..cell_count {
            let number = u32::try_from(get_varint(&plain, &mut pos)?).ok()?;
            cells.push((number, get_varint(&plain, &mut pos)?));
        }
        let line_count = usize::try_from(get_varint(&plain, &mut pos)?)
            .ok()
            .filter(|&c| c <= plain.len() - pos)?;
        let mut line_starts = Vec::with_capacity(line_count);
        let mut start = 0u32;
        for _ in 0..line_count {
            start = start.checked_add(u32::try_from(get_varint(&plain, &mut pos)?).ok()?)?;
            line_starts.push(start);
        }
        files.push(ArchivedFile {
            name,
            path,
            form,
            cells,
            line_starts,
            text: None,
        });
    }
    (pos == plain.len()).then_some(files)
}

/// The texts of [`encode_texts`], file by file; `None` if the bytes are
/// not texts.
pub(super) fn decode_texts(bytes: &[u8], codec: Codec) -> Option<Vec<Option<String>>> {
    let plain = codec.decompress(bytes)?;
    let mut pos = 0;
    let count = get_varint(&plain, &mut pos)?;
    let mut texts = Vec::new();
    for _ in 0..count {
        let kept = *plain.get(pos)?;
        pos += 1;
        texts.push(match kept {
            0 => None,
            1 => Some(get_str(&plain, &mut pos)?),
            _ => return None,
        });
    }
    (pos == plain.len()).then_some(texts)
}
