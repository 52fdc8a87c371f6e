//! From a normalised document to the hashes the database keeps and looks up.
//!
//! A document's *print* is its search set: in Koala mode the N k-gram hashes
//! [`KoalaSelector`] picks (rare prefixes first, then a keyed rank), in
//! winnowing mode every robust-winnowed hash. What is *stored* is derived
//! from the print inside the database: the n smallest under the current
//! rotation key (Koala) or the whole print (winnowing). Keeping the print is
//! what lets `rotate` re-select stored subsets without the documents.
//! The same parameters locate the passages a query shares with a match.

use copyhound_fingerprint::{
    Fingerprint, KGramHasher, KoalaParams, KoalaSelector, NormalizedDocument, Scheme, Selector,
    Winnowing,
};

use copyhound_index::{LocatedPassage, locate_shared_passages};

use crate::params::{Mode, Params};

/// The search set of one document: distinct 64-bit k-gram hashes, sorted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DocumentPrint {
    /// The hashes, strictly increasing.
    pub hashes: Vec<u64>,
}

impl DocumentPrint {
    /// A print from hashes in any order, with repeats.
    pub fn from_hashes(mut hashes: Vec<u64>) -> Self {
        hashes.sort_unstable();
        hashes.dedup();
        Self { hashes }
    }

    /// Number of distinct hashes.
    pub fn len(&self) -> usize {
        self.hashes.len()
    }

    /// Whether the document yielded no k-gram at all.
    pub fn is_empty(&self) -> bool {
        self.hashes.is_empty()
    }
}

/// Computes prints and stored subsets with one database's parameters.
#[derive(Clone, Debug)]
pub struct Fingerprinter {
    params: Params,
    /// The database's hasher with robust winnowing over its window: the
    /// selection of winnow mode, and the one that locates matching
    /// passages in either mode.
    winnowing: Scheme,
}

impl Fingerprinter {
    /// A fingerprinter for `params`.
    pub fn new(params: &Params) -> Self {
        Self {
            params: params.clone(),
            winnowing: Scheme::new(
                KGramHasher::new(params.k as usize, params.seed),
                Winnowing::robust(params.window as usize),
            ),
        }
    }

    /// The keyed hasher of every selection.
    fn hasher(&self) -> &KGramHasher {
        self.winnowing.hasher()
    }

    /// The passages `query` (the first side, `a`) shares with `registered`
    /// (`b`), each given as its normalised document and the text its spans
    /// index into, in query order. A search says which documents share
    /// keys; this says where, from both texts, with this database's hasher
    /// and winnowing: exact fragments joined into passages across gaps of
    /// at most 2k symbols, `compare`'s default merge gap, so that a copy
    /// with small edits is one passage, not one fragment per edit.
    pub fn shared_passages(
        &self,
        query: (&NormalizedDocument, &str),
        registered: (&NormalizedDocument, &str),
    ) -> Vec<LocatedPassage> {
        let max_gap = self.params.k.saturating_mul(2);
        locate_shared_passages(query, registered, &self.winnowing, max_gap)
    }

    /// The selected fingerprints of `doc` (hash and symbol position), in
    /// position order: Koala's search set or every winnowed fingerprint.
    pub fn fingerprints(&self, doc: &NormalizedDocument) -> Vec<Fingerprint> {
        let mut out = Vec::new();
        match self.params.mode {
            Mode::Koala => {
                self.koala(doc)
                    .fingerprint(self.hasher(), &doc.symbols, &mut out);
            }
            Mode::Winnow => self.winnowing.fingerprint(&doc.symbols, &mut out),
        }
        out
    }

    /// The print of `doc`.
    pub fn print(&self, doc: &NormalizedDocument) -> DocumentPrint {
        match self.params.mode {
            // Only the set of hashes is kept: no positions to sort.
            Mode::Koala => {
                let mut hashes = Vec::with_capacity(self.params.search_size as usize);
                self.koala(doc)
                    .search_hashes(self.hasher(), &doc.symbols, &mut hashes);
                DocumentPrint::from_hashes(hashes)
            }
            Mode::Winnow => {
                DocumentPrint::from_hashes(self.fingerprints(doc).iter().map(|f| f.hash).collect())
            }
        }
    }

    /// The stored subset under rotation key `rotation` of a print given by
    /// its keys (the top `hash_bits` bits of its hashes, sorted, distinct):
    /// in Koala mode the n keys of smallest keyed rank, otherwise all of
    /// them. Sorted.
    ///
    /// Ranking keys rather than whole hashes selects the same kind of subset
    /// (matching is by key anyway) and means that a kept print need only
    /// hold the keys: about 2.3 KB per document at N = 1000 and 27 bits,
    /// against 7 KB for the 64-bit hashes.
    pub fn stored_keys(&self, print_keys: &[u64], rotation: u64) -> Vec<u64> {
        match self.params.mode {
            Mode::Koala => {
                let search: Vec<Fingerprint> = print_keys
                    .iter()
                    .enumerate()
                    .map(|(i, &key)| Fingerprint::new(key, i))
                    .collect();
                let mut stored = Vec::with_capacity(self.params.stored_size as usize);
                KoalaSelector::new(self.koala_params(0)).stored(&search, rotation, &mut stored);
                let mut keys: Vec<u64> = stored.iter().map(|f| f.hash).collect();
                keys.sort_unstable();
                keys
            }
            Mode::Winnow => print_keys.to_vec(),
        }
    }

    /// The Koala selector for one document: the prologue skip is counted in
    /// symbols, so it depends on where the document's symbols came from.
    fn koala(&self, doc: &NormalizedDocument) -> KoalaSelector {
        let prologue = self.params.prologue_bytes;
        let skip = doc.spans.partition_point(|span| span.start < prologue);
        KoalaSelector::new(self.koala_params(skip))
    }

    fn koala_params(&self, skip: usize) -> KoalaParams {
        KoalaParams {
            search_size: self.params.search_size as usize,
            stored_size: self.params.stored_size as usize,
            prefix: self.params.prefix as usize,
            skip,
            seed: self.params.seed,
        }
    }
}
