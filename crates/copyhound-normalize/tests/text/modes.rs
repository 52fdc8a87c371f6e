//! Properties of the three text modes.

use copyhound_normalize::text::{
    DEFAULT_WORD_KEY, TextMode, TextOptions, normalize_chars, normalize_consonants, normalize_text,
    normalize_words, word_symbol,
};
use proptest::prelude::*;
use unicode_normalization::UnicodeNormalization;

use super::support::{assert_spans_valid, symbol_string};

/// Text mixing scripts, accents (composed and not), case, digits,
/// punctuation, spacing and compatibility characters.
fn mixed_text() -> impl Strategy<Value = String> {
    proptest::string::string_regex(
        "([a-zA-Z0-9 ,.;:!?'\"\\-\r\n\t]|[äöüßÄÖÜéèçÉÈÇñÑøØæÆœŒ]|e\u{301}|[ﬁﬂＡＢｃ①Ⅻ]|[αβγΩσςΣ]|[абвЖЩ]|[一二三]|[ｱｶ]|\u{1112}\u{1161}\u{11AB})*",
    )
    .expect("valid regex")
}

/// Latin text whose upper- and lower-case forms fold alike.
fn latin_text() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[a-zA-ZäöüÄÖÜéÉçÇ0-9 ,.;!?\n]*").expect("valid regex")
}

proptest! {
    #[test]
    fn spans_are_valid_in_every_mode(text in mixed_text()) {
        for mode in TextMode::ALL {
            let doc = normalize_text(&text, &TextOptions::with_mode(mode));
            assert_spans_valid(&text, &doc);
        }
    }

    #[test]
    fn spans_are_valid_on_arbitrary_unicode(text in any::<String>()) {
        for mode in TextMode::ALL {
            let doc = normalize_text(&text, &TextOptions::with_mode(mode));
            assert_spans_valid(&text, &doc);
        }
    }

    #[test]
    fn chars_ignore_normalisation_form(text in mixed_text()) {
        let composed = normalize_chars(&text.nfc().collect::<String>()).symbols;
        prop_assert_eq!(&normalize_chars(&text.nfd().collect::<String>()).symbols, &composed);
        prop_assert_eq!(&normalize_chars(&text.nfkc().collect::<String>()).symbols, &composed);
    }

    #[test]
    fn chars_ignore_case(text in latin_text()) {
        prop_assert_eq!(
            normalize_chars(&text.to_uppercase()).symbols,
            normalize_chars(&text.to_lowercase()).symbols
        );
    }

    #[test]
    fn chars_ignore_spacing_and_punctuation(text in latin_text(), filler in "[ \t\r\n,.;:!?()\\-]{1,3}") {
        let spaced: String = text.chars().flat_map(|c| [c].into_iter().chain(filler.chars())).collect();
        prop_assert_eq!(normalize_chars(&spaced).symbols, normalize_chars(&text).symbols);
    }

    #[test]
    fn chars_keep_only_letters_digits_and_marks(text in mixed_text()) {
        let doc = normalize_chars(&text);
        for &symbol in &doc.symbols {
            let c = char::from_u32(symbol).unwrap();
            prop_assert!(!c.is_whitespace() && !c.is_ascii_punctuation() && !c.is_uppercase(), "{:?}", c);
        }
    }

    #[test]
    fn words_are_unicode_words_and_ignore_case(text in latin_text()) {
        use unicode_segmentation::UnicodeSegmentation;
        let doc = normalize_words(&text, DEFAULT_WORD_KEY);
        let words: Vec<&str> = text.unicode_words().collect();
        prop_assert_eq!(doc.len(), words.len());
        for (span, word) in doc.spans.iter().zip(&words) {
            prop_assert_eq!(&&text[span.range()], word);
        }
        prop_assert_eq!(normalize_words(&text.to_uppercase(), DEFAULT_WORD_KEY).symbols, doc.symbols);
    }

    #[test]
    fn consonants_are_lower_case_non_vowels(text in mixed_text()) {
        let doc = normalize_consonants(&text);
        for &symbol in &doc.symbols {
            let c = char::from_u32(symbol).unwrap();
            prop_assert!(c.is_alphabetic() && !c.is_uppercase(), "{:?}", c);
            prop_assert!(!"aeiouæœøαεηιουωаеиоуы".contains(c), "vowel {:?}", c);
        }
    }

    #[test]
    fn consonants_ignore_accents_and_vowels(text in "[a-zA-Z ]*") {
        // Replacing vowels by accented vowels, and consonants by accented
        // forms of themselves, changes nothing.
        let accented: String = text
            .chars()
            .map(|c| match c {
                'a' => 'á', 'e' => 'ë', 'o' => 'ô', 'c' => 'ç', 'n' => 'ñ', 'C' => 'Č',
                other => other,
            })
            .collect();
        prop_assert_eq!(normalize_consonants(&accented).symbols, normalize_consonants(&text).symbols);
        let without_vowels: String = text.chars().filter(|c| !"aeiouAEIOU".contains(*c)).collect();
        prop_assert_eq!(normalize_consonants(&without_vowels).symbols, normalize_consonants(&text).symbols);
    }
}

#[test]
fn chars_fold_compatibility_forms_and_full_case() {
    let doc = normalize_chars("ＦＵＬＬ ﬁne STRASSE Straße ΌΣΟΣ όσος");
    assert_eq!(symbol_string(&doc), "fullfinestrassestrasseόσοσόσοσ");
}

#[test]
fn chars_map_each_symbol_to_its_source_character() {
    let text = "Ａ ﬁ ß";
    let doc = normalize_chars(text);
    let sources: Vec<&str> = doc.spans.iter().map(|span| &text[span.range()]).collect();
    assert_eq!(sources, ["Ａ", "ﬁ", "ﬁ", "ß", "ß"]);
}

#[test]
fn chars_span_a_decomposed_accent_with_its_base() {
    let text = "cafe\u{301}!";
    let doc = normalize_chars(text);
    assert_eq!(symbol_string(&doc), "café");
    assert_eq!(doc.spans[3].range(), 3..6);
}

#[test]
fn crlf_and_lf_give_the_same_symbols_and_exact_spans() {
    let unix = "one\ntwo\n";
    let windows = "one\r\ntwo\r\n";
    for mode in TextMode::ALL {
        let options = TextOptions::with_mode(mode);
        let a = normalize_text(unix, &options);
        let b = normalize_text(windows, &options);
        assert_eq!(a.symbols, b.symbols, "{mode:?}");
        for span in &b.spans {
            let source = &windows[span.range()];
            assert!(
                !source.contains(['\r', '\n']),
                "{mode:?} symbol from {source:?}"
            );
        }
    }
}

#[test]
fn words_count_words_not_characters() {
    let doc = normalize_words("Don't panic: 42 towels, don’t PANIC!", DEFAULT_WORD_KEY);
    assert_eq!(doc.len(), 6);
    assert_eq!(doc.symbols[0], word_symbol("dont", DEFAULT_WORD_KEY));
    assert_eq!(doc.symbols[0], doc.symbols[4]);
    assert_eq!(doc.symbols[1], doc.symbols[5]);
    assert_eq!(doc.symbols[2], word_symbol("42", DEFAULT_WORD_KEY));
}

#[test]
fn words_depend_on_the_key() {
    let a = normalize_words("same words here", 1);
    let b = normalize_words("same words here", 2);
    assert_ne!(a.symbols, b.symbols);
    assert_eq!(a.spans, b.spans);
}

#[test]
fn consonant_mode_matches_koala() {
    let doc = normalize_consonants("Scalable Document Fingerprinting");
    assert_eq!(symbol_string(&doc), "sclbldcmntfngrprntng");
    // Twenty consonants span about 30–45 characters of English (Koala §5).
    let text = "keeping only the consonants makes the fingerprint survive conversion";
    let doc = normalize_consonants(text);
    let twenty = doc.byte_range(0, 20);
    assert!((30..=45).contains(&twenty.len()), "{}", &text[twenty]);
}

#[test]
fn mode_names_round_trip() {
    for mode in TextMode::ALL {
        assert_eq!(TextMode::from_name(mode.name()), Some(mode));
    }
    assert_eq!(TextMode::from_name("Words"), Some(TextMode::Words));
    assert_eq!(TextMode::from_name("bytes"), None);
}
