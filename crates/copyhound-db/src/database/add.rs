//! Registering documents: their stored keys are selected (in parallel for
//! large batches), then one write transaction gives them ids and stages
//! their records, stored keys and kept prints.

use std::time::{SystemTime, UNIX_EPOCH};

use super::Database;
use crate::catalog::{Counter, DocId, DocumentMeta, DocumentRecord};
use crate::error::{DbError, Result};
use crate::fingerprinter::DocumentPrint;
use crate::keys::{encode_keys, keys_of};

/// A document to register: what the user tells, and its print.
#[derive(Clone, Debug)]
pub struct NewDocument {
    /// Title, location, contact, size.
    pub meta: DocumentMeta,
    /// The search set, from [`crate::Fingerprinter::print`].
    pub print: DocumentPrint,
}

/// A document ready for the write transaction.
struct Prepared {
    meta: DocumentMeta,
    /// The keys of its print, sorted.
    print_keys: Vec<u64>,
    /// Its stored keys under the epoch it was prepared for.
    keys: Vec<u64>,
    /// The encoded print, kept in Koala mode.
    print: Option<Vec<u8>>,
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl Database {
    /// Registers `docs` in one transaction: when this returns they are
    /// durable and searchable. Returns their ids, in order.
    ///
    /// A full staging table is first moved into a segment (and segments
    /// merged): the commit of `docs` is the last thing `add` does, so an
    /// error (or a crash) before it means none of them is registered, and
    /// after it nothing can fail. A caller that reports the ids it gets, and
    /// adds again what failed, so never registers a document twice.
    pub fn add(&self, docs: Vec<NewDocument>) -> Result<Vec<DocId>> {
        let added = unix_now();
        let staged_docs = self.catalog.read()?.meta()?.get(Counter::StagedDocs)?;
        self.flush_if_full(staged_docs)?;
        // Selecting and encoding run before the write transaction, on every
        // core, under the epoch seen now; a rotation committed meanwhile
        // (rare) means selecting again under the new one.
        let seen_epoch = self.catalog.read()?.meta()?.get(Counter::Epoch)?;
        let mut prepared = self.prepare(docs, seen_epoch);
        let mut ids = Vec::with_capacity(prepared.len());
        let txn = self.catalog.write()?;
        {
            let mut meta = txn.meta()?;
            let mut staged = txn.staged()?;
            let mut prints = txn.prints()?;
            let mut records = Vec::with_capacity(prepared.len());
            let mut print_bytes = meta.get(Counter::StagedPrintBytes)?;
            let epoch = meta.get(Counter::Epoch)?;
            if epoch != seen_epoch {
                for doc in &mut prepared {
                    doc.keys = self.stored_keys(&doc.print_keys, epoch);
                }
            }
            let mut next = meta.get(Counter::NextDoc)?;
            for doc in prepared {
                let id = DocId::try_from(next).map_err(|_| DbError::InvalidParameter {
                    name: "documents",
                    problem: "the database holds 2^32 document ids".into(),
                })?;
                next += 1;
                records.push(DocumentRecord {
                    id,
                    meta: doc.meta,
                    added,
                    selection: epoch,
                    stored: doc.keys.len() as u32,
                    print: doc.print_keys.len() as u32,
                });
                staged.insert(id, &doc.keys)?;
                if let Some(print) = doc.print {
                    print_bytes += print.len() as u64;
                    prints.insert_encoded(id, &print)?;
                }
                ids.push(id);
            }
            txn.records()?.insert(records)?;
            let staged_docs = meta.get(Counter::StagedDocs)? + ids.len() as u64;
            let documents = meta.get(Counter::Documents)? + ids.len() as u64;
            meta.set(Counter::Documents, documents)?;
            meta.set(Counter::StagedPrintBytes, print_bytes)?;
            meta.set(Counter::NextDoc, next)?;
            meta.set(Counter::StagedDocs, staged_docs)?;
            meta.bump_change()?;
        }
        txn.commit()?;
        Ok(ids)
    }

    /// Selects the stored keys and encodes the kept print of each document,
    /// in parallel for large batches.
    fn prepare(&self, docs: Vec<NewDocument>, epoch: u64) -> Vec<Prepared> {
        let one = |doc: NewDocument| {
            let print_keys = keys_of(&doc.print.hashes, self.params.hash_bits);
            Prepared {
                keys: self.stored_keys(&print_keys, epoch),
                print: self.keeps_prints().then(|| encode_keys(&print_keys)),
                print_keys,
                meta: doc.meta,
            }
        };
        let threads = std::thread::available_parallelism().map_or(1, usize::from);
        if threads == 1 || docs.len() < 64 {
            return docs.into_iter().map(one).collect();
        }
        let mut chunks: Vec<Vec<NewDocument>> = Vec::new();
        let chunk_len = docs.len().div_ceil(threads);
        let mut docs = docs.into_iter();
        loop {
            let chunk: Vec<NewDocument> = docs.by_ref().take(chunk_len).collect();
            if chunk.is_empty() {
                break;
            }
            chunks.push(chunk);
        }
        std::thread::scope(|scope| {
            let workers: Vec<_> = chunks
                .into_iter()
                .map(|chunk| scope.spawn(move || chunk.into_iter().map(one).collect::<Vec<_>>()))
                .collect();
            workers
                .into_iter()
                .flat_map(|w| w.join().expect("a preparing thread panicked"))
                .collect()
        })
    }
}
