//! The ids of a run's documents, in input order, all of one kind (strings
//! or integers), and their order: documents are ranked by id so that pairs
//! come out as `a < b` and sorted without sorting them again.

use std::path::PathBuf;

use crate::{DedupError, DocId, Place};

/// Every document's id, in input order.
#[derive(Debug)]
pub(crate) enum Ids {
    /// Integer ids.
    Int(Vec<i64>),
    /// String ids, end to end, with where each ends.
    Text { bytes: String, ends: Vec<usize> },
}

/// Where each document came from, for errors about it.
#[derive(Debug, Default)]
pub(crate) struct Origins {
    pub(crate) files: Vec<PathBuf>,
    /// Per document: its file (an index into `files`) and place in it.
    pub(crate) places: Vec<(u32, Place)>,
}

impl Ids {
    /// An empty store of the kind of `first`.
    pub(crate) fn like(first: &DocId) -> Self {
        match first {
            DocId::Int(_) => Self::Int(Vec::new()),
            DocId::Text(_) => Self::Text {
                bytes: String::new(),
                ends: Vec::new(),
            },
        }
    }

    /// Appends `id`, or says why it does not fit the ids before it.
    pub(crate) fn push(&mut self, id: DocId) -> Result<(), String> {
        match (self, id) {
            (Self::Int(ids), DocId::Int(n)) => ids.push(n),
            (Self::Text { bytes, ends }, DocId::Text(s)) => {
                bytes.push_str(&s);
                ends.push(bytes.len());
            }
            (Self::Int(_), DocId::Text(s)) => {
                return Err(format!(
                    "the id {s:?} is a string, but the first document's id is an integer"
                ));
            }
            (Self::Text { .. }, DocId::Int(n)) => {
                return Err(format!(
                    "the id {n} is an integer, but the first document's id is a string"
                ));
            }
        }
        Ok(())
    }

    pub(crate) fn len(&self) -> usize {
        match self {
            Self::Int(ids) => ids.len(),
            Self::Text { ends, .. } => ends.len(),
        }
    }

    /// The string id of document `doc` (string ids only).
    pub(crate) fn text(&self, doc: u32) -> &str {
        match self {
            Self::Text { bytes, ends } => {
                let doc = doc as usize;
                let start = if doc == 0 { 0 } else { ends[doc - 1] };
                &bytes[start..ends[doc]]
            }
            Self::Int(_) => unreachable!("string ids only"),
        }
    }

    /// Document `doc`'s id.
    pub(crate) fn get(&self, doc: u32) -> DocId {
        match self {
            Self::Int(ids) => DocId::Int(ids[doc as usize]),
            Self::Text { .. } => DocId::Text(self.text(doc).to_owned()),
        }
    }

    /// The documents in id order; two documents with one id are an error
    /// naming both.
    pub(crate) fn by_rank(&self, origins: &Origins) -> Result<Vec<u32>, DedupError> {
        let mut order: Vec<u32> = (0..self.len() as u32).collect();
        match self {
            Self::Int(ids) => order.sort_unstable_by_key(|&d| (ids[d as usize], d)),
            Self::Text { .. } => {
                order.sort_unstable_by(|&x, &y| self.text(x).cmp(self.text(y)).then(x.cmp(&y)));
            }
        }
        let same = |x: u32, y: u32| match self {
            Self::Int(ids) => ids[x as usize] == ids[y as usize],
            Self::Text { .. } => self.text(x) == self.text(y),
        };
        if let Some(pair) = order.windows(2).find(|w| same(w[0], w[1])) {
            let (first, second) = (pair[0], pair[1]);
            let (file, place) = origins.places[second as usize];
            let (first_file, first_place) = origins.places[first as usize];
            return Err(DedupError::input(
                &origins.files[file as usize],
                place,
                format!(
                    "the id {} is already the id of the document at {}{first_place}",
                    self.get(second),
                    origins.files[first_file as usize].display()
                ),
            ));
        }
        Ok(order)
    }
}
