//! A batch comparison through the library, as the command line and every
//! other caller run it: planning the units, sorting them into families,
//! what is left out, and the measured defaults of each family.

mod archives;
mod code_archive;
mod defaults;
mod families;
mod plan;
mod problems;
mod submission;
mod support;
