//! Rotation (Koala §3.3) from kept prints, or by reading every registered
//! file again as `db add` read it.

use std::fs;
use std::io::{self, Write};
use std::path::Path;

use copyhound_db::{DocumentPrint, DocumentRecord, Mode, RotationOptions, RotationReport};
use rayon::prelude::*;

use super::{DatabaseError, DocumentDatabase};

impl DocumentDatabase {
    /// Re-selects every stored fingerprint under a new secret, `batch`
    /// documents per transaction, calling `progress` with (done, end)
    /// after each; then compacts the catalogue, whose every record was
    /// rewritten.
    pub fn rotate(
        &mut self,
        batch: usize,
        progress: &dyn Fn(u64, u64),
    ) -> Result<RotationReport, DatabaseError> {
        let options = RotationOptions {
            batch_docs: batch.max(1),
            max_batches: None,
            progress: Some(progress),
        };
        let params = self.params();
        let report = if params.keep_prints || params.mode != Mode::Koala {
            self.db.rotate_with_options(&options)?
        } else {
            self.db.rotate_from_documents_with_options(
                &|records| records.par_iter().map(|r| self.refetch(r)).collect(),
                &options,
            )?
        };
        self.finish_writing()?;
        Ok(report)
    }

    /// A registered document's print, computed again from its file as
    /// `db add` computed it, provided the file still has the size it had
    /// then.
    fn refetch(&self, record: &DocumentRecord) -> Result<DocumentPrint, String> {
        let location = &record.meta.location;
        if location.contains("://") {
            return Err("a URL: only files on this machine are read again".into());
        }
        let path = Path::new(location);
        let size = fs::metadata(path)
            .map_err(|e| format!("cannot read it: {e}"))?
            .len();
        if size != record.meta.size {
            return Err(format!(
                "its size is {size} bytes, {} when it was added",
                record.meta.size
            ));
        }
        let loaded = self.load_file(path).map_err(|e| e.to_string())?;
        Ok(self.prepare(loaded).print)
    }
}

/// The rotation as `db rotate` prints it: the epoch and how many documents
/// were selected again, then those that keep their previous selection, one
/// tab-separated line each (id, title, location, e-mail, reason).
pub fn write_rotation(report: &RotationReport, out: &mut impl Write) -> io::Result<()> {
    if report.resumed {
        writeln!(out, "resumed the unfinished rotation {}", report.epoch)?;
    }
    writeln!(
        out,
        "rotation {}: re-selected the stored fingerprints of {} documents",
        report.epoch, report.rotated
    )?;
    if report.unrotated.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "{} documents keep their previous selection:\nid\ttitle\tlocation\te-mail\treason",
        report.unrotated.len()
    )?;
    for kept in &report.unrotated {
        let meta = &kept.record.meta;
        writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}",
            kept.record.id, meta.title, meta.location, meta.email, kept.reason
        )?;
    }
    Ok(())
}
