//! The front-end a batch is read with, chosen once, and what follows from
//! it: the family each file falls in and the measured defaults of each
//! family.
//!
//! Symbols of different front-ends (Python tokens, Java tokens, characters
//! of text) never match, so a batch is compared one [`Family`] at a time:
//! a file's family is its language, or [`Family::Text`] for plain text,
//! HTML, PDF and DOCX alike.

use std::cmp::Ordering;
use std::fmt;
use std::path::Path;

use copyhound_normalize::code::{CodeOptions, Language, Level, StatementOptions};
use copyhound_normalize::extract::isolated::IsolatedExtractor;
use copyhound_normalize::{
    DocumentKind, KindChoice, LoadError, LoadOptions, LoadedDocument, TextMode, TextOptions,
    load_bytes, load_file,
};

use crate::archive::{ArchiveLimits, read_entry};
use crate::{PipelineError, PlannedFile};

/// The front-end as a user chooses it, before it is checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrontEndChoice {
    /// Read every file as this language (`c`, `java`, `python`…) or as
    /// `text` (or `txt`); `None` detects each file's kind.
    pub lang: Option<String>,
    /// How much of each token of code is kept.
    pub level: Level,
    /// How text becomes symbols.
    pub text_mode: TextMode,
    /// Drop import, include and package lines of code.
    pub drop_imports: bool,
    /// How statements inside functions of code are normalised.
    pub statements: StatementOptions,
    /// Compare the markdown cells of notebooks too, as text: the markdown
    /// of each unit's notebooks is a unit of its own, `NAME (markdown)`,
    /// compared with the other units of text, never with code.
    pub notebook_markdown: bool,
    /// Files larger than this many MiB are refused.
    pub max_file_mib: u64,
    /// A file whose front-end would need more than this many MiB of memory
    /// is refused before it runs ([`LoadOptions::memory_budget`]).
    pub max_file_memory_mib: u64,
    /// Extract PDFs in this child process, under CPU and memory limits
    /// ([`LoadOptions::isolation`]); `None` extracts them on a thread of
    /// this process, which a looping PDF keeps busy until it ends.
    pub isolation: Option<IsolatedExtractor>,
}

impl Default for FrontEndChoice {
    /// Each file's kind detected, identifiers renamed, dead statements of
    /// code dropped and its counted loops read as `while` loops, text by
    /// character, notebooks' markdown cells not read, files up to 64 MiB
    /// whose front-end needs at most 2 GiB, PDFs extracted in-process.
    fn default() -> Self {
        Self {
            lang: None,
            level: Level::Rename,
            text_mode: TextMode::Chars,
            drop_imports: false,
            statements: StatementOptions::measured(),
            notebook_markdown: false,
            max_file_mib: 64,
            max_file_memory_mib: 2048,
            isolation: None,
        }
    }
}

/// A checked front-end: how every file of a batch is loaded.
#[derive(Clone, Debug)]
pub struct FrontEnd {
    options: LoadOptions,
}

impl FrontEnd {
    /// The front-end `choice` describes; an unknown language is an error
    /// that lists the known ones, and so is markdown asked for with every
    /// file read as text.
    pub fn new(choice: &FrontEndChoice) -> Result<Self, PipelineError> {
        let kind = match choice.lang.as_deref() {
            None => KindChoice::Auto,
            Some("text" | "txt") => KindChoice::Text,
            Some(name) => KindChoice::Code(Language::from_name(name).ok_or_else(|| {
                PipelineError::UnknownLanguage {
                    name: name.to_string(),
                    known: Language::all()
                        .iter()
                        .map(|l| l.name())
                        .collect::<Vec<_>>()
                        .join(", "),
                }
            })?),
        };
        if choice.notebook_markdown && kind == KindChoice::Text {
            return Err(PipelineError::MarkdownWithoutCode);
        }
        Ok(Self {
            options: LoadOptions {
                kind,
                text: TextOptions::with_mode(choice.text_mode),
                code: CodeOptions {
                    level: choice.level,
                    drop_imports: choice.drop_imports,
                    statements: choice.statements,
                },
                max_bytes: choice.max_file_mib.saturating_mul(1 << 20),
                memory_budget: choice.max_file_memory_mib.saturating_mul(1 << 20),
                isolation: choice.isolation.clone(),
                notebook_markdown: choice.notebook_markdown,
                ..LoadOptions::default()
            },
        })
    }

    /// The loader settings.
    pub fn load_options(&self) -> &LoadOptions {
        &self.options
    }

    /// Reads and normalises the file at `path`; the error names the file.
    pub fn load(&self, path: &Path) -> Result<LoadedDocument, LoadError> {
        load_file(path, &self.options)
    }

    /// Normalises a file a walk found: its bytes when it came from an
    /// archive, else the file on disk.
    pub fn load_planned(&self, file: &PlannedFile) -> Result<LoadedDocument, LoadError> {
        match &file.content {
            Some(bytes) => load_bytes(&file.path, bytes, &self.options),
            None => self.load(&file.path),
        }
    }

    /// Reads and normalises the file at `path` again, on disk or, when no
    /// file is there, in the archive among its ancestors
    /// (`subs/alice.zip/src/Main.java`) read within `limits`; `None` when
    /// it cannot be read any more.
    pub fn reload(&self, path: &Path, limits: &ArchiveLimits) -> Option<LoadedDocument> {
        if path.is_file() {
            return self.load(path).ok();
        }
        let bytes = read_entry(path, limits)?;
        load_bytes(path, &bytes, &self.options).ok()
    }

    /// What one symbol of `family` is under this front-end: `token`,
    /// `character`, `word` or `consonant`.
    pub fn symbol(&self, family: Family) -> &'static str {
        match family {
            Family::Code(_) => "token",
            Family::Text => match self.options.text.mode {
                TextMode::Chars => "character",
                TextMode::Words => "word",
                TextMode::Consonants => "consonant",
            },
        }
    }

    /// The measured defaults of `family` under this front-end. Each is
    /// measured on the labelled data sets (docs/EVALUATION.md, "Defaults"):
    /// - code, k = 10, w = 3: any shared run of 12 tokens is found; every
    ///   code set ranks as well or better than with w = 5, and rarity
    ///   weighting keeps the short coincidences of independent solutions
    ///   light; every passage of code is reported;
    /// - characters, k = 15, w = 6: the short runs (20 letters) heavily
    ///   rewritten text keeps rank it, and a window this small keeps the
    ///   ranking nearly the same under every hash key (w = 20 moved
    ///   clough-open's AP by 0.02 between keys);
    /// - words, k = 3, w = 5: 7 words, about the same span of text;
    /// - consonants, k = 10, w = 6: 15 consonants, about 25–30 characters
    ///   (Koala §5), chosen over w = 10 for the same key robustness.
    ///
    /// Passages of text are reported from about 100 letters (a sentence)
    /// in every text mode, which on the PAN text set drops the stray
    /// phrases a small k also finds and keeps every copied passage.
    pub fn defaults(&self, family: Family) -> Defaults {
        let (k, w, min_passage) = match family {
            Family::Code(_) => (10, 3, 0),
            Family::Text => match self.options.text.mode {
                TextMode::Chars => (15, 6, 100),
                TextMode::Words => (3, 5, 20),
                TextMode::Consonants => (10, 6, 60),
            },
        };
        Defaults { k, w, min_passage }
    }
}

/// What a family is compared with unless the user says otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Defaults {
    /// k-gram length, in symbols.
    pub k: usize,
    /// Winnowing window, in k-grams: any shared run of w + k − 1 symbols
    /// is found.
    pub w: usize,
    /// The shortest passage reported, in symbols.
    pub min_passage: usize,
}

/// The symbols of a file: those of one language, or of text. Only files of
/// one family are compared with each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Plain text, HTML, PDF and DOCX.
    Text,
    /// Source code of one language.
    Code(Language),
}

impl Family {
    /// The family of a file read as `kind`.
    pub fn of(kind: DocumentKind) -> Self {
        kind.language().map_or(Self::Text, Self::Code)
    }

    /// The family [`name`](Self::name) names.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "text" => Some(Self::Text),
            name => Language::from_name(name).map(Self::Code),
        }
    }

    /// `text`, or the language's name: how reports name the family.
    pub fn name(self) -> &'static str {
        match self {
            Self::Text => "text",
            Self::Code(language) => language.name(),
        }
    }
}

/// Families sort by name, as reports list them.
impl Ord for Family {
    fn cmp(&self, other: &Self) -> Ordering {
        self.name().cmp(other.name())
    }
}

impl PartialOrd for Family {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_language_is_refused_with_the_known_ones() {
        let choice = FrontEndChoice {
            lang: Some("klingon".into()),
            ..FrontEndChoice::default()
        };
        let error = FrontEnd::new(&choice).unwrap_err().to_string();
        assert!(
            error.starts_with("unknown language \"klingon\"; known: text, "),
            "{error}"
        );
        assert!(error.contains("java"), "{error}");
        for lang in ["text", "txt", "python"] {
            let choice = FrontEndChoice {
                lang: Some(lang.into()),
                ..FrontEndChoice::default()
            };
            assert!(FrontEnd::new(&choice).is_ok(), "{lang}");
        }
    }

    #[test]
    fn code_and_each_text_mode_have_their_own_defaults() {
        let defaults = |text_mode, family| {
            let choice = FrontEndChoice {
                text_mode,
                ..FrontEndChoice::default()
            };
            let Defaults { k, w, min_passage } = FrontEnd::new(&choice).unwrap().defaults(family);
            (k, w, min_passage)
        };
        let java = Family::Code(Language::Java);
        assert_eq!(defaults(TextMode::Words, java), (10, 3, 0));
        assert_eq!(defaults(TextMode::Chars, Family::Text), (15, 6, 100));
        assert_eq!(defaults(TextMode::Words, Family::Text), (3, 5, 20));
        assert_eq!(defaults(TextMode::Consonants, Family::Text), (10, 6, 60));
    }

    #[test]
    fn reports_name_each_familys_symbol() {
        let symbol = |text_mode, family| {
            let choice = FrontEndChoice {
                text_mode,
                ..FrontEndChoice::default()
            };
            FrontEnd::new(&choice).unwrap().symbol(family)
        };
        let java = Family::Code(Language::Java);
        assert_eq!(symbol(TextMode::Words, java), "token");
        assert_eq!(symbol(TextMode::Chars, Family::Text), "character");
        assert_eq!(symbol(TextMode::Words, Family::Text), "word");
        assert_eq!(symbol(TextMode::Consonants, Family::Text), "consonant");
    }

    #[test]
    fn families_sort_by_name() {
        let mut families = [
            Family::Text,
            Family::Code(Language::Python),
            Family::Code(Language::C),
            Family::Code(Language::Java),
        ];
        families.sort();
        let names: Vec<&str> = families.iter().map(|f| f.name()).collect();
        assert_eq!(names, ["c", "java", "python", "text"]);
        assert_eq!(Family::of(DocumentKind::Html), Family::Text);
    }
}
