//! The kept prints (only with `keep_prints`): the search sets of documents,
//! kept so that `rotate` can re-select stored subsets without the
//! documents. A document's print is staged in the catalogue with it, and
//! moves at the next flush into a cold print file.
//!
//! A print is the sorted keys of a document's search set, coded as the
//! staged keys are ([`crate::keys::encode_keys`]; version 1 held 64-bit
//! hashes). A print file is written once, at a flush, from the prints
//! staged in the catalogue, and never rewritten: rotation only reads it. Prints of
//! removed documents stay in their file until it is dropped (they cost disk
//! but are skipped by every reader). Layout:
//!
//! ```text
//! magic "CHDBPRT\0" │ version u32 │ 0u32 │ records: id u32, length u32, encoded print │ count u64 │ CRC-32 u32 │ 0u32
//! ```

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use crate::catalog::{DocId, Manifest, ReadTxn, damaged_print_problem};
use crate::directory::{DataFile, Directory};
use crate::error::{DbError, Result};
use crate::keys::decode_keys;

const MAGIC: &[u8; 8] = b"CHDBPRT\0";
const VERSION: u32 = 2;
const HEADER_LEN: usize = 16;
const TRAILER_LEN: usize = 16;

/// Writes `prints` (document id, encoded print) to `file`, new and empty,
/// at `path`, and syncs it. Returns the file size.
pub(crate) fn write_print_file(
    path: &Path,
    file: File,
    prints: &[(DocId, Vec<u8>)],
) -> Result<u64> {
    let io = |e| DbError::io(path, e);
    let mut out = BufWriter::with_capacity(1 << 20, file);
    let mut crc = crc32fast::Hasher::new();
    let mut put = |out: &mut BufWriter<File>, bytes: &[u8]| {
        crc.update(bytes);
        out.write_all(bytes)
    };
    let mut header = [0u8; HEADER_LEN];
    header[..8].copy_from_slice(MAGIC);
    header[8..12].copy_from_slice(&VERSION.to_le_bytes());
    put(&mut out, &header).map_err(io)?;
    let mut size = HEADER_LEN as u64;
    for (id, print) in prints {
        let len =
            u32::try_from(print.len()).map_err(|_| DbError::corrupt(path, "a print over 4 GiB"))?;
        put(&mut out, &id.to_le_bytes()).map_err(io)?;
        put(&mut out, &len.to_le_bytes()).map_err(io)?;
        put(&mut out, print).map_err(io)?;
        size += 8 + print.len() as u64;
    }
    let mut trailer = [0u8; TRAILER_LEN];
    trailer[..8].copy_from_slice(&(prints.len() as u64).to_le_bytes());
    trailer[8..12].copy_from_slice(&crc.finalize().to_le_bytes());
    out.write_all(&trailer).map_err(io)?;
    let file = out
        .into_inner()
        .map_err(|e| DbError::io(path, e.into_error()))?;
    file.sync_all().map_err(io)?;
    Ok(size + TRAILER_LEN as u64)
}

/// Reads the print file at `path`, checking its checksum first, and calls
/// `visit(id, encoded print)` for every record in file order.
pub(crate) fn read_print_file(
    path: &Path,
    mut visit: impl FnMut(DocId, &[u8]) -> Result<()>,
) -> Result<()> {
    let bytes = std::fs::read(path).map_err(|e| DbError::io(path, e))?;
    if bytes.len() < HEADER_LEN + TRAILER_LEN || &bytes[..8] != MAGIC {
        return Err(DbError::corrupt(path, "not a copyhound print file"));
    }
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    let version = u32_at(8);
    if version != VERSION {
        return Err(DbError::UnsupportedVersion {
            path: path.to_owned(),
            found: version,
            supported: VERSION,
        });
    }
    let body_end = bytes.len() - TRAILER_LEN;
    if crc32fast::hash(&bytes[..body_end]) != u32_at(body_end + 8) {
        return Err(DbError::corrupt(path, "checksum mismatch"));
    }
    let count = u64::from_le_bytes(bytes[body_end..body_end + 8].try_into().expect("8 bytes"));
    let mut at = HEADER_LEN;
    let mut seen = 0u64;
    while at < body_end {
        if at + 8 > body_end {
            return Err(DbError::corrupt(
                path,
                format!("a record is cut at byte {at}"),
            ));
        }
        let id = u32_at(at);
        let len = u32_at(at + 4) as usize;
        let end = at + 8 + len;
        if end > body_end {
            return Err(DbError::corrupt(
                path,
                format!("the record of document {id} runs past the end"),
            ));
        }
        visit(id, &bytes[at + 8..end])?;
        at = end;
        seen += 1;
    }
    if seen != count {
        return Err(DbError::corrupt(
            path,
            format!("{seen} records, the trailer says {count}"),
        ));
    }
    Ok(())
}

/// Calls `visit(id, print keys)` for every kept print: those of the print
/// files `manifest` lists, then the staged ones of `txn`. Flushes write
/// prints in id order, so the stream is in id order. Prints of removed
/// documents are included.
pub(crate) fn for_each_print(
    directory: &Directory,
    manifest: &Manifest,
    txn: &ReadTxn<'_>,
    mut visit: impl FnMut(DocId, Vec<u64>) -> Result<()>,
) -> Result<()> {
    for entry in &manifest.print_files {
        let file = directory.file(DataFile::Prints(entry.number));
        read_print_file(&file, |id, bytes| {
            let print = decode_keys(bytes)
                .ok_or_else(|| DbError::corrupt(&file, damaged_print_problem(id)))?;
            visit(id, print)
        })?;
    }
    txn.prints()?.for_each(0, visit)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new_file(path: &Path) -> File {
        File::create_new(path).unwrap()
    }

    #[test]
    fn print_files_round_trip_and_detect_damage() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("1.prints");
        let prints = vec![(3, vec![1, 2, 3]), (9, vec![]), (10, vec![7; 5000])];
        let size = write_print_file(&path, new_file(&path), &prints).unwrap();
        assert_eq!(size, std::fs::metadata(&path).unwrap().len());
        let mut read = Vec::new();
        read_print_file(&path, |id, print| {
            read.push((id, print.to_vec()));
            Ok(())
        })
        .unwrap();
        assert_eq!(read, prints);

        let mut bytes = std::fs::read(&path).unwrap();
        bytes[40] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let error = read_print_file(&path, |_, _| Ok(()))
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("1.prints") && error.contains("checksum"),
            "{error}"
        );
    }

    #[test]
    fn a_print_file_of_format_1_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("2.prints");
        write_print_file(&path, new_file(&path), &[(1, vec![5; 40])]).unwrap();
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[8..12].copy_from_slice(&1u32.to_le_bytes());
        std::fs::write(&path, &bytes).unwrap();
        let error = read_print_file(&path, |_, _| Ok(())).unwrap_err();
        assert!(
            matches!(
                error,
                DbError::UnsupportedVersion {
                    found: 1,
                    supported: 2,
                    ..
                }
            ),
            "{error}"
        );
        assert!(error.to_string().contains("2.prints"), "{error}");
    }
}
