//! Koala §5: converting documents to text (PostScript, Word) garbles
//! punctuation and word spacing most, and vowels and case now and then;
//! keeping only lower-cased consonants makes matching immune to most of it.
//!
//! Corpus documents are given simulated conversion noise, and each noisy
//! version is matched against its original with Koala's selection (search
//! set of N = 1000 against the original's stored set of n = 100) through
//! three front-ends: words, characters, consonants.

use copyhound_fingerprint::{Fingerprint, KGramHasher, KoalaParams, KoalaSelector, Selector};
use copyhound_normalize::TextMode;
use copyhound_normalize::text::{TextOptions, normalize_text};
use rayon::prelude::*;

use super::KoalaSettings;
use crate::Corpus;
use crate::generate::Rng;
use crate::report::{Cell, Table};

/// How much of the text a conversion garbles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Noise {
    /// The text as it is.
    None,
    /// Word spacing and punctuation: spaces dropped and inserted, words
    /// hyphenated across lines, punctuation dropped or replaced.
    Spacing,
    /// Spacing, and vowels replaced by other vowels.
    SpacingAndVowels,
}

impl Noise {
    const ALL: [Noise; 3] = [Noise::None, Noise::Spacing, Noise::SpacingAndVowels];

    fn name(self) -> &'static str {
        match self {
            Noise::None => "none",
            Noise::Spacing => "spacing and punctuation",
            Noise::SpacingAndVowels => "spacing, punctuation and vowels",
        }
    }
}

const VOWELS: &[char] = &['a', 'e', 'i', 'o', 'u'];
/// What garbled punctuation turns into.
const PUNCTUATION: &[char] = &['.', ',', ';', ':', '\'', '"', '-', '!'];

/// `text` after a simulated lossy conversion.
fn convert(text: &str, noise: Noise, rng: &mut Rng) -> String {
    if noise == Noise::None {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    for c in text.chars() {
        if c.is_whitespace() {
            // A lost space joins two words; sometimes a line break
            // hyphenates instead.
            if rng.chance(0.15) {
                continue;
            }
            out.push(if rng.chance(0.05) { '\n' } else { ' ' });
        } else if c.is_ascii_punctuation() {
            if rng.chance(0.3) {
                continue;
            }
            out.push(if rng.chance(0.2) {
                PUNCTUATION[rng.below(PUNCTUATION.len())]
            } else {
                c
            });
        } else if noise == Noise::SpacingAndVowels
            && VOWELS.contains(&c.to_ascii_lowercase())
            && rng.chance(0.05)
        {
            out.push(VOWELS[rng.below(VOWELS.len())]);
        } else {
            out.push(c);
            // A space or a hyphenated line break inside a word.
            if c.is_alphabetic() && rng.chance(0.01) {
                out.push_str(if rng.chance(0.5) { " " } else { "-\n" });
            }
        }
    }
    out
}

/// A front-end and the k that makes its k-grams about as long as 20
/// consonants (30–45 characters, §5).
const FRONT_ENDS: [(TextMode, usize); 3] = [
    (TextMode::Consonants, 20),
    (TextMode::Chars, 30),
    (TextMode::Words, 6),
];

/// Koala's match ratio of `noisy` against `original`: the share of the
/// original's stored set found in the noisy text's search set.
fn match_ratio(original: &str, noisy: &str, mode: TextMode, k: usize, seed: u64) -> f64 {
    let options = TextOptions::with_mode(mode);
    let hasher = KGramHasher::new(k, seed);
    let selector = KoalaSelector::new(KoalaParams {
        seed,
        ..KoalaParams::default()
    });
    let search = |text: &str| -> Vec<Fingerprint> {
        let mut out = Vec::new();
        selector.fingerprint(&hasher, &normalize_text(text, &options).symbols, &mut out);
        out
    };
    let mut stored = Vec::new();
    selector.stored(&search(original), 0, &mut stored);
    let found: std::collections::HashSet<u64> = search(noisy).iter().map(|f| f.hash).collect();
    let hits = stored.iter().filter(|f| found.contains(&f.hash)).count();
    hits as f64 / stored.len().max(1) as f64
}

/// The §5 table: median match ratio of noisy conversions against their
/// originals, per front-end and noise level.
pub(super) fn consonants_table(corpus: &Corpus, settings: &KoalaSettings) -> Table {
    let originals: Vec<&str> = corpus
        .documents
        .iter()
        .map(|d| d.text.as_str())
        .filter(|t| t.split_whitespace().count() >= 200)
        .take(settings.noise_documents)
        .collect();
    let mut columns = vec!["noise".to_owned()];
    for (mode, k) in FRONT_ENDS {
        columns.push(format!("{} (k = {k})", mode.name()));
    }
    let headings: Vec<&str> = columns.iter().map(String::as_str).collect();
    let mut table = Table::new(
        format!(
            "Koala §5: median match ratio of a noisy conversion against its original, {} documents",
            originals.len()
        ),
        &headings,
    );
    for noise in Noise::ALL {
        let mut row: Vec<Cell> = vec![noise.name().into()];
        for (mode, k) in FRONT_ENDS {
            let mut ratios: Vec<f64> = originals
                .par_iter()
                .enumerate()
                .map(|(i, original)| {
                    let mut rng = Rng::new(settings.seed ^ (i as u64) << 8);
                    let noisy = convert(original, noise, &mut rng);
                    match_ratio(original, &noisy, mode, k, settings.seed)
                })
                .collect();
            ratios.sort_by(f64::total_cmp);
            row.push(if ratios.is_empty() {
                Cell::Missing
            } else {
                Cell::share(ratios[ratios.len() / 2], 0)
            });
        }
        table.push(row);
    }
    table.note("Noise: 15 % of spaces lost, 1 % of letters followed by a space or a hyphenated line break, 30 % of punctuation lost and 20 % of the rest replaced; vowel noise replaces 5 % of vowels.");
    table.note("Heintze keeps lower-cased consonants so that converted PostScript matches (\"very reliable results\", §5); he gives no number.");
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consonants_survive_noise_that_breaks_words() {
        let mut rng = Rng::new(5);
        let vocabulary = super::super::planted::Vocabulary::from_texts([
            "Fingerprints of documents select substrings whose hashes are small, \
             and a database keeps them for later searches against new documents.",
        ]);
        let original = vocabulary.document(3000, &mut rng);
        let noisy = convert(&original, Noise::SpacingAndVowels, &mut rng);
        assert_ne!(noisy, original);
        let consonants = match_ratio(&original, &noisy, TextMode::Consonants, 20, 1);
        let words = match_ratio(&original, &noisy, TextMode::Words, 6, 1);
        assert!(consonants > words, "consonants {consonants}, words {words}");
        let clean = match_ratio(&original, &original, TextMode::Consonants, 20, 1);
        assert!((clean - 1.0).abs() < f64::EPSILON);
    }
}
