//! No input makes the decoder, the HTML extractor or the loader panic, and
//! what they accept they decode faithfully.

use std::path::Path;

use copyhound_normalize::decode::{EncodingSource, decode};
use copyhound_normalize::extract::html::visible_text;
use copyhound_normalize::{LoadOptions, load_bytes};
use proptest::prelude::*;

use super::support::assert_spans_valid;

proptest! {
    #[test]
    fn decoding_valid_utf8_is_the_identity(text in any::<String>()) {
        prop_assume!(!text.contains('\0') && !text.starts_with('\u{feff}'));
        if let Ok(decoded) = decode(text.as_bytes(), None) {
            prop_assert_eq!(decoded.source, EncodingSource::ValidUtf8);
            prop_assert_eq!(decoded.text.as_ref(), text.as_str());
        }
    }

    #[test]
    fn loading_arbitrary_bytes_never_panics(
        bytes in proptest::collection::vec(any::<u8>(), 0..512),
        name in "(a\\.txt|b\\.html|c\\.pdf|d\\.docx|e\\.c|f)",
    ) {
        if let Ok(loaded) = load_bytes(Path::new(&name), &bytes, &LoadOptions::default()) {
            assert_spans_valid(&loaded.text, &loaded.doc);
        }
    }

    #[test]
    fn html_extraction_never_panics_and_drops_markup(
        parts in proptest::collection::vec(
            "(<p>|</p>|<b>|<script>|</script>|<style>x\\{\\}</style>|<!--|-->|&amp;|&#x41;|&|<|>|[x-z ]{0,6})",
            0..40,
        ),
    ) {
        let html: String = parts.concat();
        let text = visible_text(&html);
        prop_assert!(!text.contains("<p>"), "markup in {:?}", text);
    }
}
