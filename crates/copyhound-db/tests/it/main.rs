//! Integration tests of the database: storage, Koala search quality,
//! winnowing mode, concurrency.

// Ratios are quotients of small integers (hits / stored size), so exact
// comparisons such as `ratio == 1.0` are meaningful.
#![allow(clippy::float_cmp)]

mod concurrency;
mod damage;
mod koala;
mod passages;
mod rotation;
mod storage;
mod support;
mod winnow;
