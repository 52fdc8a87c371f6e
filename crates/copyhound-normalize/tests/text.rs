//! Tests of the text front-ends, the decoder, the extractors and the loading
//! front door.

mod text {
    mod bad_input;
    #[cfg(all(feature = "pdf", feature = "docx"))]
    mod documents;
    mod isolated;
    mod kinds;
    mod modes;
    mod robustness;
    mod snapshots;
    mod support;
}
