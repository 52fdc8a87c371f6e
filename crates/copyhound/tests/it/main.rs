//! The `copyhound` command line from the outside, as one test binary: one
//! module per command, and a harness ([`support`]) that runs the built
//! binary on files written to a temporary folder.

mod archives;
mod code_archive;
mod code_archive_upkeep;
mod compare;
mod db;
mod db_search;
mod dedup;
mod experiment;
mod fingerprint;
mod hostile;
mod html_report;
mod inputs;
mod listing;
mod notebooks;
mod obfuscation;
mod serve;
mod support;
