//! Hostile input for copyhound: the files that once hung or exhausted the
//! loader ([`hostile`]), and fuzzing campaigns over every extractor, the
//! decoder and every front-end on the stable toolchain ([`campaign`]).
//!
//! `cargo run --release -p copyhound-fuzz -- --seconds 60 pdf docx` runs
//! campaigns; `bench/fuzz.sh MINUTES` runs every target for that long.
#![deny(missing_docs)]

pub mod campaign;
pub mod hostile;
