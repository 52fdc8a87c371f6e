//! Searching: look up a print's keys, count hits per document, rank.
//!
//! Koala §6.2: a key held by `common_docs` (4) documents or more is common —
//! addresses, acknowledgements, boilerplate — and ignored, but at most
//! `max_ignored` (10) of them per search (the most common first), so that
//! registering a document many times cannot make it unfindable. The match
//! ratio is hits / stored size of the registered document (Koala), where
//! the stored size leaves out the document's own ignored keys: an ignored
//! key can never be a hit, so counting it would keep a verbatim copy of a
//! document with boilerplate (or with keys common by chance, in a large
//! database) below 100 %. Winnowing mode also reports hits / query size,
//! the share of the query found.

use std::collections::HashMap;

use crate::catalog::{DocId, DocumentRecord};
use crate::database::Database;
use crate::error::Result;
use crate::fingerprinter::DocumentPrint;
use crate::keys::keys_of;
use crate::params::Mode;

/// What to return.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// At most this many matches, best first. Default 20.
    pub limit: usize,
    /// Only documents with at least this many hits. Default 1.
    pub min_hits: u32,
}

impl Default for SearchOptions {
    fn default() -> Self {
        Self {
            limit: 20,
            min_hits: 1,
        }
    }
}

/// One registered document that shares keys with the query.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchMatch {
    /// The registered document.
    pub document: DocumentRecord,
    /// Query keys found in its stored fingerprint.
    pub hits: u32,
    /// hits / its stored size: how much of it the query holds (Koala's
    /// match ratio).
    pub ratio: f64,
    /// hits / the query's size: how much of the query it holds.
    pub query_ratio: f64,
}

impl SearchMatch {
    /// The number matches are ranked and bucketed by: the ratio in Koala
    /// mode; in winnowing mode the larger of the two ratios, so that a small
    /// part of a large document (or the reverse) ranks high.
    pub fn score(&self, mode: Mode) -> f64 {
        match mode {
            Mode::Koala => self.ratio,
            Mode::Winnow => self.ratio.max(self.query_ratio),
        }
    }
}

/// A common key the search ignored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IgnoredKey {
    /// The key (top `hash_bits` of the hash).
    pub key: u64,
    /// Documents holding it.
    pub documents: u32,
}

/// The match ranges of Heintze's Table 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MatchBucket {
    /// Up to 1 % (rounded).
    Percent1,
    /// 2 %.
    Percent2,
    /// 3–5 %.
    Percent3To5,
    /// 6–10 %.
    Percent6To10,
    /// 11–20 %.
    Percent11To20,
    /// 21–50 %.
    Percent21To50,
    /// More than 50 %.
    Over50,
}

impl MatchBucket {
    /// Every bucket, in increasing order.
    pub const ALL: [Self; 7] = [
        Self::Percent1,
        Self::Percent2,
        Self::Percent3To5,
        Self::Percent6To10,
        Self::Percent11To20,
        Self::Percent21To50,
        Self::Over50,
    ];

    /// The bucket of a ratio in `0..=1`, by its percentage rounded to the
    /// nearest integer (a single hit out of 100 is "1 %").
    pub fn of(ratio: f64) -> Self {
        match (ratio * 100.0).round() as u32 {
            0..=1 => Self::Percent1,
            2 => Self::Percent2,
            3..=5 => Self::Percent3To5,
            6..=10 => Self::Percent6To10,
            11..=20 => Self::Percent11To20,
            21..=50 => Self::Percent21To50,
            _ => Self::Over50,
        }
    }

    /// The column heading of Table 1.
    pub fn label(self) -> &'static str {
        match self {
            Self::Percent1 => "1%",
            Self::Percent2 => "2%",
            Self::Percent3To5 => "3-5%",
            Self::Percent6To10 => "6-10%",
            Self::Percent11To20 => "11-20%",
            Self::Percent21To50 => "21-50%",
            Self::Over50 => ">50%",
        }
    }
}

/// The result of one search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchReport {
    /// Distinct keys of the query.
    pub query_keys: usize,
    /// Common keys left out of the count (at most `max_ignored`).
    pub ignored: Vec<IgnoredKey>,
    /// Every matched document (before `limit`) per bucket, in
    /// [`MatchBucket::ALL`] order.
    pub distribution: [u64; 7],
    /// The best matches, best first.
    pub matches: Vec<SearchMatch>,
}

impl Database {
    /// Looks `print` up and ranks the registered documents that share keys
    /// with it.
    pub fn search(&self, print: &DocumentPrint, options: &SearchOptions) -> Result<SearchReport> {
        let keys = keys_of(&print.hashes, self.params.hash_bits);
        let view = self.view()?;
        let mut hits: HashMap<DocId, u32> = HashMap::new();
        let mut common: Vec<(u64, Vec<DocId>)> = Vec::new();
        // (index of the key in `keys`, document) from every source, then
        // grouped by key: a document in several sources (a segment and its
        // merge's output, while a view is being replaced) counts once.
        let mut found: Vec<(u32, DocId)> = Vec::new();
        for (number, segment) in &view.segments {
            let from = found.len();
            segment.lookup_batch(&keys, &mut found)?;
            // A rotated document's postings from before the rotation.
            if let Some(rotation) = view.rotation.filter(|r| *number < r.base) {
                let mut kept = from;
                for at in from..found.len() {
                    if !rotation.is_stale(*number, found[at].1) {
                        found[kept] = found[at];
                        kept += 1;
                    }
                }
                found.truncate(kept);
            }
        }
        for (i, key) in keys.iter().enumerate() {
            if let Some(staged) = view.staged.get(key) {
                found.extend(staged.iter().map(|&doc| (i as u32, doc)));
            }
        }
        if !view.removed.is_empty() {
            found.retain(|(_, doc)| !view.removed.contains(doc));
        }
        found.sort_unstable();
        found.dedup();
        for group in found.chunk_by(|a, b| a.0 == b.0) {
            if group.len() >= self.params.common_docs as usize {
                let docs = group.iter().map(|&(_, doc)| doc).collect();
                common.push((keys[group[0].0 as usize], docs));
            } else {
                for &(_, doc) in group {
                    *hits.entry(doc).or_default() += 1;
                }
            }
        }
        common.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
        let ignored_count = common.len().min(self.params.max_ignored as usize);
        for (_, docs) in &common[ignored_count..] {
            for &doc in docs {
                *hits.entry(doc).or_default() += 1;
            }
        }
        let mut ignored_held: HashMap<DocId, u32> = HashMap::new();
        for (_, docs) in &common[..ignored_count] {
            for &doc in docs {
                *ignored_held.entry(doc).or_default() += 1;
            }
        }
        let ignored = common[..ignored_count]
            .iter()
            .map(|(key, docs)| IgnoredKey {
                key: *key,
                documents: docs.len() as u32,
            })
            .collect();
        let mode = self.params.mode;
        let query_keys = keys.len().max(1) as f64;
        // Candidates are scored from the view's stored sizes; only the ones
        // returned are read from the catalogue (at a million documents a
        // search meets a few hundred one-hit strangers).
        let mut scored: Vec<Scored> = hits
            .into_iter()
            .filter_map(|(doc, hits)| {
                let stored = view.stored_sizes.get(doc as usize).copied().unwrap_or(0);
                let ignored = ignored_held.get(&doc).copied().unwrap_or(0);
                (stored > 0).then(|| Scored {
                    doc,
                    hits,
                    ignored,
                    ratio: f64::from(hits) / f64::from(comparable(stored, ignored)),
                    query_ratio: f64::from(hits) / query_keys,
                })
            })
            .collect();
        let mut distribution = [0u64; 7];
        for s in &scored {
            distribution[MatchBucket::of(s.score(mode)) as usize] += 1;
        }
        scored.retain(|s| s.hits >= options.min_hits);
        scored.sort_by(|a, b| {
            b.score(mode)
                .total_cmp(&a.score(mode))
                .then(b.hits.cmp(&a.hits))
                .then(a.doc.cmp(&b.doc))
        });
        let matches = self.matches(&scored, options.limit)?;
        Ok(SearchReport {
            query_keys: keys.len(),
            ignored,
            distribution,
            matches,
        })
    }

    /// Joins the best `limit` candidates with their records; documents
    /// removed meanwhile drop out.
    fn matches(&self, ranked: &[Scored], limit: usize) -> Result<Vec<SearchMatch>> {
        let txn = self.catalog.read()?;
        let records = txn.records()?;
        let mut out = Vec::with_capacity(limit.min(ranked.len()));
        for candidate in ranked {
            if out.len() == limit {
                break;
            }
            let Some(document) = records.get(candidate.doc)? else {
                continue;
            };
            out.push(SearchMatch {
                ratio: f64::from(candidate.hits)
                    / f64::from(comparable(document.stored, candidate.ignored)),
                query_ratio: candidate.query_ratio,
                hits: candidate.hits,
                document,
            });
        }
        Ok(out)
    }
}

/// The stored keys a search could count as hits: all but the document's
/// ignored ones (never zero, so that a ratio is always defined).
fn comparable(stored: u32, ignored: u32) -> u32 {
    stored.saturating_sub(ignored).max(1)
}

/// A candidate before its record is read.
struct Scored {
    doc: DocId,
    hits: u32,
    /// Of the document's stored keys, how many the search ignored.
    ignored: u32,
    ratio: f64,
    query_ratio: f64,
}

impl Scored {
    /// As [`SearchMatch::score`].
    fn score(&self, mode: Mode) -> f64 {
        match mode {
            Mode::Koala => self.ratio,
            Mode::Winnow => self.ratio.max(self.query_ratio),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::MatchBucket;

    #[test]
    fn ratios_fall_in_the_buckets_of_table_1() {
        let bucket = |percent: f64| MatchBucket::of(percent / 100.0).label();
        assert_eq!(bucket(0.4), "1%");
        assert_eq!(bucket(1.0), "1%");
        assert_eq!(bucket(2.0), "2%");
        assert_eq!(bucket(5.0), "3-5%");
        assert_eq!(bucket(7.0), "6-10%");
        assert_eq!(bucket(20.0), "11-20%");
        assert_eq!(bucket(45.0), "21-50%");
        assert_eq!(bucket(51.0), ">50%");
        assert_eq!(bucket(100.0), ">50%");
    }
}
