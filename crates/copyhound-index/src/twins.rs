//! Twins: units whose content is identical, so that the pairs they form
//! with a third unit score alike and are scored once.
//!
//! A pair's fragments and scores follow from what each side holds (its
//! documents' symbols, spans, lines and fingerprints, its base code, and
//! the weights all of these give) and from which side is `a`; never from
//! a unit's name, index, role or group. Batches often hold the same file
//! more than once (a resubmission, a file handed to several groups, an
//! untouched template), and each copy pairs with every other unit: those
//! pairs are scored once per pair of contents.

use std::hash::{Hash, Hasher};

use rayon::prelude::*;

use crate::Unit;
use crate::prepare::PreparedUnit;

/// For each unit, the first unit (by index) with the same content, itself
/// when there is none; `None` when no two units are twins.
pub(crate) fn twin_classes(units: &[Unit], prepared: &[PreparedUnit]) -> Option<Vec<u32>> {
    let mut by_key: Vec<(u64, u32)> = units
        .par_iter()
        .enumerate()
        .map(|(u, unit)| (content_key(unit), u as u32))
        .collect();
    by_key.sort_unstable();
    let mut class: Vec<u32> = (0..units.len() as u32).collect();
    let mut twinned = false;
    let same = |x: u32, y: u32| {
        let (x, y) = (x as usize, y as usize);
        same_content((&units[x], &prepared[x]), (&units[y], &prepared[y]))
    };
    for run in by_key
        .chunk_by(|x, y| x.0 == y.0)
        .filter(|run| run.len() > 1)
    {
        // Each unit joins the class of the first earlier one it equals;
        // one key nearly always means one content, so that is the first.
        let mut firsts: Vec<u32> = Vec::new();
        for &(_, u) in run {
            match firsts.iter().find(|&&first| same(first, u)) {
                Some(&first) => {
                    class[u as usize] = first;
                    twinned = true;
                }
                None => firsts.push(u),
            }
        }
    }
    twinned.then_some(class)
}

/// A hash of what decides a unit's content, cheap to make: the shapes of
/// its documents and their fingerprints' hashes, which sample its symbols.
/// Equal content gives equal keys; equal keys are checked in full.
fn content_key(unit: &Unit) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    unit.documents.len().hash(&mut hasher);
    for document in &unit.documents {
        document.len().hash(&mut hasher);
        document.fingerprints.len().hash(&mut hasher);
        let mixed = document
            .fingerprints
            .iter()
            .fold(0u64, |sum, f| sum.rotate_left(5) ^ f.hash);
        mixed.hash(&mut hasher);
    }
    hasher.finish()
}

/// Whether two units hold the same content, as far as any pair's
/// fragments and scores can tell.
fn same_content((x, x_prep): (&Unit, &PreparedUnit), (y, y_prep): (&Unit, &PreparedUnit)) -> bool {
    x.documents.len() == y.documents.len()
        && x.documents.iter().zip(&y.documents).all(|(dx, dy)| {
            dx.symbols == dy.symbols
                && dx.spans == dy.spans
                && dx.fingerprints == dy.fingerprints
                && dx.lines == dy.lines
        })
        && x_prep
            .documents
            .iter()
            .zip(&y_prep.documents)
            .all(|(px, py)| px.base == py.base)
}
