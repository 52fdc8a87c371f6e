//! A text collection with planted relationships (Koala §2): the corpus's
//! documents, optionally many generated unrelated ones, and for some of
//! the corpus's documents a variant in each class Heintze requires to be
//! found — identical, small edits, reorganised, revised, condensed, and a
//! portion of several hundred words included in another document.
//!
//! Generated documents draw words independently by their frequency in the
//! corpus, in sentences and paragraphs: unrelated to everything, but with
//! the corpus's common words, so chance matches of short substrings happen
//! as they do between real texts.

use crate::generate::Rng;

/// The relationship a planted document has with its base.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    /// A verbatim copy.
    Identical,
    /// About 2 % of the words replaced, deleted or inserted.
    SmallEdits,
    /// The paragraphs (or 60-word blocks) in another order.
    Reorganised,
    /// About 10 % of the words edited, one block dropped and a new
    /// paragraph added.
    Revised,
    /// About half of the 20-word blocks kept, in order.
    Condensed,
    /// 300 consecutive words of the base inside an unrelated document.
    Included,
}

impl Relation {
    /// Every relationship, in the order of Koala §2.
    pub const ALL: [Relation; 6] = [
        Relation::Identical,
        Relation::SmallEdits,
        Relation::Reorganised,
        Relation::Revised,
        Relation::Condensed,
        Relation::Included,
    ];

    /// A short name.
    pub fn name(self) -> &'static str {
        match self {
            Relation::Identical => "identical",
            Relation::SmallEdits => "small edits",
            Relation::Reorganised => "reorganised",
            Relation::Revised => "revised",
            Relation::Condensed => "condensed",
            Relation::Included => "included 300 words",
        }
    }
}

/// Words in an included portion: "several hundred words" (Koala §2).
pub const INCLUDED_WORDS: usize = 300;

/// Where a document of the collection came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A document of the corpus.
    Corpus,
    /// A generated unrelated document.
    Generated,
    /// Planted: the relation and the index of its base document.
    Planted(Relation, usize),
}

/// One text of the collection.
#[derive(Clone, Debug)]
pub struct Text {
    /// A name for tables.
    pub name: String,
    /// The words.
    pub body: String,
    /// Where it came from.
    pub origin: Origin,
}

/// Word frequencies of a corpus, to draw words from.
pub struct Vocabulary {
    words: Vec<String>,
    /// Cumulative counts, for drawing by frequency.
    cumulative: Vec<u64>,
}

impl Vocabulary {
    /// The words of `texts` (runs of letters, lower-cased), with their
    /// counts.
    pub fn from_texts<'a>(texts: impl IntoIterator<Item = &'a str>) -> Self {
        let mut counts: std::collections::HashMap<String, u64> = std::collections::HashMap::new();
        for text in texts {
            for word in text
                .split(|c: char| !c.is_alphabetic())
                .filter(|w| !w.is_empty())
            {
                *counts.entry(word.to_lowercase()).or_default() += 1;
            }
        }
        let mut words: Vec<(String, u64)> = counts.into_iter().collect();
        words.sort_unstable();
        if words.is_empty() {
            words.push(("text".into(), 1));
        }
        let mut total = 0;
        let cumulative = words
            .iter()
            .map(|(_, count)| {
                total += count;
                total
            })
            .collect();
        Self {
            words: words.into_iter().map(|(w, _)| w).collect(),
            cumulative,
        }
    }

    /// A word drawn by its frequency.
    pub fn draw(&self, rng: &mut Rng) -> &str {
        let total = *self.cumulative.last().expect("never empty");
        let target = rng.next_u64() % total;
        let i = self.cumulative.partition_point(|&c| c <= target);
        &self.words[i]
    }

    /// A document of about `words` words in sentences of 8–25 words and
    /// paragraphs of 3–8 sentences.
    pub fn document(&self, words: usize, rng: &mut Rng) -> String {
        let mut out = String::new();
        let mut written = 0;
        while written < words {
            let sentences = 3 + rng.below(6);
            for _ in 0..sentences {
                let length = 8 + rng.below(18);
                for i in 0..length {
                    let word = self.draw(rng);
                    if i == 0 {
                        let mut chars = word.chars();
                        if let Some(first) = chars.next() {
                            out.extend(first.to_uppercase());
                            out.push_str(chars.as_str());
                        }
                    } else {
                        out.push(' ');
                        out.push_str(word);
                    }
                }
                out.push_str(". ");
                written += length;
            }
            out.push_str("\n\n");
        }
        out
    }
}

/// The words of `text`, split at whitespace (punctuation stays attached).
fn words(text: &str) -> Vec<&str> {
    text.split_whitespace().collect()
}

/// `text` with about `share` of its words edited: replaced by a drawn word,
/// deleted, or preceded by a drawn word, equally often.
pub fn edit_words(text: &str, share: f64, vocabulary: &Vocabulary, rng: &mut Rng) -> String {
    let mut out: Vec<String> = Vec::new();
    for word in words(text) {
        if rng.chance(share) {
            match rng.below(3) {
                0 => out.push(vocabulary.draw(rng).to_owned()),
                1 => {}
                _ => {
                    out.push(vocabulary.draw(rng).to_owned());
                    out.push(word.to_owned());
                }
            }
        } else {
            out.push(word.to_owned());
        }
    }
    out.join(" ")
}

/// `text` in blocks: its paragraphs when it has at least four, else blocks
/// of `block_words` words.
fn blocks(text: &str, block_words: usize) -> Vec<String> {
    let paragraphs: Vec<&str> = text
        .split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if paragraphs.len() >= 4 {
        return paragraphs.into_iter().map(str::to_owned).collect();
    }
    words(text)
        .chunks(block_words.max(1))
        .map(|chunk| chunk.join(" "))
        .collect()
}

/// `text` with its blocks shuffled.
pub fn reorganise(text: &str, rng: &mut Rng) -> String {
    let mut parts = blocks(text, 60);
    for i in (1..parts.len()).rev() {
        parts.swap(i, rng.below(i + 1));
    }
    parts.join("\n\n")
}

/// `text` with about half of its 20-word blocks, in order.
pub fn condense(text: &str, rng: &mut Rng) -> String {
    let kept: Vec<String> = words(text)
        .chunks(20)
        .filter(|_| rng.chance(0.5))
        .map(|chunk| chunk.join(" "))
        .collect();
    kept.join(" ")
}

/// A revision: 10 % of the words edited, one block dropped, a new
/// paragraph added in the middle.
pub fn revise(text: &str, vocabulary: &Vocabulary, rng: &mut Rng) -> String {
    let edited = edit_words(text, 0.10, vocabulary, rng);
    let mut parts = blocks(&edited, 60);
    if parts.len() > 2 {
        let dropped = rng.below(parts.len());
        parts.remove(dropped);
    }
    let middle = parts.len() / 2;
    parts.insert(middle, vocabulary.document(80, rng));
    parts.join("\n\n")
}

/// `host` with `words` consecutive words of `base` (from a random place)
/// inserted at a word boundary in its middle.
pub fn include(base: &str, host: &str, words_taken: usize, rng: &mut Rng) -> String {
    let base_words = words(base);
    let start = rng.below(base_words.len().saturating_sub(words_taken) + 1);
    let portion = base_words[start..(start + words_taken).min(base_words.len())].join(" ");
    let host_words = words(host);
    let at = host_words.len() / 2;
    format!(
        "{}\n\n{portion}\n\n{}",
        host_words[..at].join(" "),
        host_words[at..].join(" ")
    )
}

/// The number of words of `text`.
pub fn word_count(text: &str) -> usize {
    text.split_whitespace().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "The quick brown fox jumps over the lazy dog. \
        The dog sleeps in the sun all day long. \
        A fox is quick and a dog is lazy, they say.";

    fn vocabulary() -> Vocabulary {
        Vocabulary::from_texts([TEXT])
    }

    #[test]
    fn words_are_drawn_by_frequency() {
        let vocabulary = vocabulary();
        let mut rng = Rng::new(1);
        let draws: Vec<&str> = (0..4000).map(|_| vocabulary.draw(&mut rng)).collect();
        let the = draws.iter().filter(|w| **w == "the").count();
        let sun = draws.iter().filter(|w| **w == "sun").count();
        // "the" occurs 4 times in 31 words, "sun" once.
        assert!(the > 3 * sun, "the {the}, sun {sun}");
        let document = vocabulary.document(200, &mut rng);
        assert!(word_count(&document) >= 200);
        assert!(document.contains(". "));
    }

    #[test]
    fn variants_keep_what_their_relation_says() {
        let vocabulary = vocabulary();
        let mut rng = Rng::new(2);
        let long = vocabulary.document(2000, &mut rng);
        let n = word_count(&long);
        let edited = edit_words(&long, 0.02, &vocabulary, &mut rng);
        let changed = words(&edited)
            .iter()
            .zip(words(&long))
            .take_while(|(a, b)| *a == b)
            .count();
        assert!(changed < n, "some word changed");
        let reorganised = reorganise(&long, &mut rng);
        let mut a = words(&reorganised);
        let mut b = words(&long);
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b, "a reorganisation keeps every word");
        let condensed = word_count(&condense(&long, &mut rng));
        assert!(
            n / 3 < condensed && condensed < 2 * n / 3,
            "{condensed} of {n}"
        );
        let host = vocabulary.document(1000, &mut rng);
        let included = include(&long, &host, INCLUDED_WORDS, &mut rng);
        assert_eq!(word_count(&included), word_count(&host) + INCLUDED_WORDS);
        let revised = revise(&long, &vocabulary, &mut rng);
        assert!(word_count(&revised) > n / 2);
    }
}
