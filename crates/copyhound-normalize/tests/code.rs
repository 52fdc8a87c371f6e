//! Tests of the source-code front-end (`copyhound_normalize::code`).

mod code {
    pub mod c;
    pub mod cpp;
    pub mod csharp;
    pub mod datasets;
    pub mod detect;
    pub mod fixtures;
    pub mod go;
    pub mod java;
    pub mod javascript;
    pub mod levels;
    pub mod python;
    pub mod python_generated;
    pub mod real_files;
    pub mod rename;
    pub mod robust;
    pub mod statements;
    pub mod support;
    pub mod typescript;
}
