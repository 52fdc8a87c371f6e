//! Text front-ends: prose to symbols, with the source bytes of every symbol.
//!
//! Three granularities, chosen by [`TextMode`]:
//!
//! - [`TextMode::Chars`] ([`normalize_chars`]): one symbol per folded
//!   character. Text is put in Unicode NFKC form and fully case-folded, and
//!   everything but letters, digits and combining marks is dropped, so
//!   "Straße", "STRASSE" and "ｓｔｒａｓｓｅ" give the same symbols. k counts
//!   characters.
//! - [`TextMode::Words`] ([`normalize_words`]): one symbol per word (Unicode
//!   word boundaries), the keyed 32-bit hash of the folded word. k counts words.
//! - [`TextMode::Consonants`] ([`normalize_consonants`]): Koala's
//!   conversion-proof alphabet (Heintze 1996, §5): only consonants, lower-cased,
//!   accented letters reduced to their base letter first. Vowels, digits,
//!   punctuation and spacing — what PostScript/PDF/Word converters get wrong
//!   most — are gone; 20 consonants span about 30–45 characters of text.
//!
//! Every symbol's span is the source character (with any combining marks that
//! follow it) it came from; a character that folds to several ("ß" → "ss")
//! gives several symbols with the same span. Spans never decrease.

mod chars;
mod consonants;
mod fold;
mod words;

pub use chars::normalize_chars;
pub use consonants::normalize_consonants;
pub use words::{DEFAULT_WORD_KEY, normalize_words, word_symbol};

use crate::NormalizedDocument;

/// How prose becomes symbols.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TextMode {
    /// One symbol per folded letter, digit or mark.
    #[default]
    Chars,
    /// One symbol per word: a keyed hash of the folded word.
    Words,
    /// Koala's consonants: one symbol per consonant, lower-cased, unaccented.
    Consonants,
}

impl TextMode {
    /// Every mode, in the order of their names.
    pub const ALL: [TextMode; 3] = [TextMode::Chars, TextMode::Words, TextMode::Consonants];

    /// The mode's name as used on command lines: `chars`, `words`, `consonants`.
    pub fn name(self) -> &'static str {
        match self {
            TextMode::Chars => "chars",
            TextMode::Words => "words",
            TextMode::Consonants => "consonants",
        }
    }

    /// What the mode does, in a line of a command's help.
    pub fn description(self) -> &'static str {
        match self {
            TextMode::Chars => "Letters and digits, case-folded; one symbol per character",
            TextMode::Words => "One symbol per word",
            TextMode::Consonants => "Consonants only (Koala §5), for text from lossy conversions",
        }
    }

    /// The mode called `name` (see [`TextMode::name`]), ignoring ASCII case.
    pub fn from_name(name: &str) -> Option<TextMode> {
        Self::ALL
            .into_iter()
            .find(|mode| mode.name().eq_ignore_ascii_case(name))
    }
}

/// Settings of the text front-end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TextOptions {
    /// The granularity of symbols.
    pub mode: TextMode,
    /// Key of the word hash in [`TextMode::Words`]. Documents are comparable
    /// only when normalised with the same key.
    pub word_key: u64,
}

impl Default for TextOptions {
    fn default() -> Self {
        Self {
            mode: TextMode::default(),
            word_key: DEFAULT_WORD_KEY,
        }
    }
}

impl TextOptions {
    /// The default options with `mode`.
    pub fn with_mode(mode: TextMode) -> Self {
        Self {
            mode,
            ..Self::default()
        }
    }
}

/// Normalises prose as `options` say.
pub fn normalize_text(text: &str, options: &TextOptions) -> NormalizedDocument {
    match options.mode {
        TextMode::Chars => normalize_chars(text),
        TextMode::Words => normalize_words(text, options.word_key),
        TextMode::Consonants => normalize_consonants(text),
    }
}
