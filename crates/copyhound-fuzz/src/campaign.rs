//! Fuzzing campaigns that run on the stable toolchain.
//!
//! libFuzzer and AFL need instrumentation a stable compiler does not give
//! `cargo test`, so a campaign here is a plain loop: take an input from the
//! corpus (the [`seeds`](crate::hostile::seeds) at first), mutate it a few
//! times (bit flips, random bytes, cut, duplicated or spliced ranges, PDF,
//! XML and code tokens), run the target on it under `catch_unwind`, and keep
//! the input in the corpus when its outcome (error kind, symbol count
//! bucket) was not seen before. That outcome feedback is a weak stand-in
//! for coverage: it is not coverage-guided fuzzing, and says so.
//!
//! A panic is a finding; so is an input that takes longer than the hang
//! limit, which a watchdog thread reports (the input is written out first)
//! before it ends the process, since a looping thread cannot be stopped.

use std::collections::HashSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use copyhound_normalize::code::{CodeOptions, Language, normalize_code};
use copyhound_normalize::decode::decode;
use copyhound_normalize::text::normalize_text;
use copyhound_normalize::{KindChoice, LoadOptions, TextMode, TextOptions, load_bytes};

use crate::hostile::seeds;

/// Inputs longer than this are cut: bugs show on small inputs, and large
/// ones only slow the loop down.
const MAX_INPUT_BYTES: usize = 64 << 10;

/// The corpus stops growing here.
const MAX_CORPUS: usize = 4096;

/// Tokens a mutation may insert: the syntax the parsers branch on.
const TOKENS: &[&[u8]] = &[
    b"stream\n",
    b"endstream",
    b" 0 obj ",
    b"endobj",
    b" 0 R",
    b"<<",
    b">>",
    b"/Parent 4 0 R",
    b"/Filter /FlateDecode",
    b"/Type /ObjStm",
    b"/Length 99999",
    b"xref\n0 1\n",
    b"trailer",
    b"<w:t>",
    b"</w:p>",
    b"&amp;",
    b"&#x10FFFF;",
    b"<![CDATA[",
    b"<script>",
    b"<!--",
    b"\"",
    b"'",
    b"`",
    b"\\",
    b"/*",
    b"*/",
    b"//",
    b"#",
    b"\r\n",
    b"\xff\xfe",
    b"\xef\xbb\xbf",
    b"\xc3",
    b"\x00",
    b"${",
    b"\"\"\"",
    b"0x",
    b"1e",
];

/// One thing a campaign exercises.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    /// Its name on the command line.
    pub name: &'static str,
    /// The file name inputs are loaded under (its extension picks the
    /// front-end of [`load_bytes`]).
    file_name: &'static str,
    /// What runs on an input; the answer is its outcome class.
    run: fn(&Path, &[u8]) -> String,
}

/// Every target: the PDF, DOCX and HTML extractors, the decoder, the three
/// text modes, the Java and C lexers, tree-sitter grammars, the table
/// lexer, and the whole loader with detection.
pub fn targets() -> Vec<Target> {
    vec![
        target("pdf", "input.pdf", load_outcome),
        target("docx", "input.docx", load_outcome),
        target("html", "input.html", load_outcome),
        target("decode", "input.txt", |_, bytes| {
            decode(bytes, None).map_or_else(
                |error| format!("error {}", first_word(&error.to_string())),
                |decoded| format!("{:?} {}", decoded.source, bucket(decoded.text.len())),
            )
        }),
        target("text-chars", "input.txt", |_, bytes| {
            text(bytes, TextMode::Chars)
        }),
        target("text-words", "input.txt", |_, bytes| {
            text(bytes, TextMode::Words)
        }),
        target("text-consonants", "input.txt", |_, bytes| {
            text(bytes, TextMode::Consonants)
        }),
        target("java", "Main.java", |_, bytes| code(bytes, "java")),
        target("c", "main.c", |_, bytes| code(bytes, "c")),
        target("python", "main.py", |_, bytes| code(bytes, "python")),
        target("go", "main.go", |_, bytes| code(bytes, "go")),
        target("javascript", "main.js", |_, bytes| {
            code(bytes, "javascript")
        }),
        target("rust", "main.rs", |_, bytes| code(bytes, "rust")),
        target("cpp", "main.cpp", |_, bytes| code(bytes, "cpp")),
        target("table-lexer", "main.lua", |_, bytes| code(bytes, "lua")),
        target("load", "input", load_outcome),
    ]
}

fn target(name: &'static str, file_name: &'static str, run: fn(&Path, &[u8]) -> String) -> Target {
    Target {
        name,
        file_name,
        run,
    }
}

/// The target called `name`.
pub fn find_target(name: &str) -> Option<Target> {
    targets().into_iter().find(|target| target.name == name)
}

fn load_options() -> LoadOptions {
    LoadOptions {
        // A PDF that takes this long is reported by the watchdog first.
        pdf_timeout: Duration::from_secs(600),
        ..LoadOptions::default()
    }
}

fn load_outcome(path: &Path, bytes: &[u8]) -> String {
    match load_bytes(path, bytes, &load_options()) {
        Ok(loaded) => format!("{} {}", loaded.kind, bucket(loaded.doc.len())),
        Err(error) => {
            let message = error.to_string();
            // The message after the file name, up to its first detail.
            let problem = message.split(": ").nth(1).unwrap_or(&message);
            format!("error {}", first_word(problem))
        }
    }
}

fn text(bytes: &[u8], mode: TextMode) -> String {
    let doc = normalize_text(
        &String::from_utf8_lossy(bytes),
        &TextOptions::with_mode(mode),
    );
    bucket(doc.len())
}

fn code(bytes: &[u8], language: &str) -> String {
    let language = Language::from_name(language).expect("a known language");
    let text = String::from_utf8_lossy(bytes);
    let doc = normalize_code(language, &text, &CodeOptions::default());
    let options = LoadOptions {
        kind: KindChoice::Code(language),
        ..load_options()
    };
    // The loader too, for its decoding and detection around the lexer.
    let loaded = load_bytes(Path::new("input"), bytes, &options).is_ok();
    format!("{} {loaded}", bucket(doc.len()))
}

fn first_word(text: &str) -> &str {
    text.split_whitespace().next().unwrap_or("")
}

/// A coarse size class: outcomes differ by order of magnitude only.
fn bucket(length: usize) -> String {
    format!("~2^{}", usize::BITS - length.leading_zeros())
}

/// Settings of a campaign.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Stop after this long.
    pub duration: Duration,
    /// Or after this many inputs, whichever comes first.
    pub max_inputs: u64,
    /// One input taking longer than this is a hang.
    pub hang_limit: Duration,
    /// Seed of the mutations (a campaign is repeatable).
    pub seed: u64,
    /// Where findings are written (`TARGET-panic-N.bin`, `TARGET-hang.bin`).
    pub findings: PathBuf,
}

/// What a campaign did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The target.
    pub target: &'static str,
    /// Inputs run.
    pub inputs: u64,
    /// How long it ran.
    pub elapsed: Duration,
    /// Inputs that panicked (each written to the findings folder).
    pub panics: u64,
    /// Distinct outcomes seen.
    pub outcomes: usize,
    /// Inputs kept in the corpus.
    pub corpus: usize,
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {} inputs in {:.1} s, {} panics, 0 hangs, {} outcomes, corpus {}",
            self.target,
            self.inputs,
            self.elapsed.as_secs_f64(),
            self.panics,
            self.outcomes,
            self.corpus
        )
    }
}

/// Runs `target` under `settings`. A hang ends the process (exit code 3)
/// after writing the input to the findings folder.
pub fn run(target: &Target, settings: &Settings) -> std::io::Result<Summary> {
    std::fs::create_dir_all(&settings.findings)?;
    let mut corpus: Vec<Vec<u8>> = seeds().into_iter().map(|(_, bytes)| bytes).collect();
    let mut outcomes = HashSet::new();
    let mut random = Random(settings.seed | 1);
    let watchdog = Watchdog::start(target.name, settings);
    let path = Path::new(target.file_name);
    let started = Instant::now();
    let mut summary = Summary {
        target: target.name,
        inputs: 0,
        elapsed: Duration::ZERO,
        panics: 0,
        outcomes: 0,
        corpus: 0,
    };
    // The seeds as they are first, then mutants.
    let seed_count = corpus.len() as u64;
    while summary.inputs < settings.max_inputs && started.elapsed() < settings.duration {
        let input = if summary.inputs < seed_count {
            corpus[summary.inputs as usize].clone()
        } else {
            let parent = &corpus[random.below(corpus.len())];
            mutate(parent, &corpus, &mut random)
        };
        watchdog.begin(&input);
        let outcome = catch_unwind(AssertUnwindSafe(|| (target.run)(path, &input)));
        watchdog.end();
        summary.inputs += 1;
        if let Ok(outcome) = outcome {
            if outcomes.insert(outcome) && corpus.len() < MAX_CORPUS {
                corpus.push(input);
            }
        } else {
            summary.panics += 1;
            let file = settings
                .findings
                .join(format!("{}-panic-{}.bin", target.name, summary.panics));
            std::fs::write(&file, &input)?;
            eprintln!(
                "{}: panic, input written to {}",
                target.name,
                file.display()
            );
        }
    }
    summary.elapsed = started.elapsed();
    summary.outcomes = outcomes.len();
    summary.corpus = corpus.len();
    Ok(summary)
}

/// The seeds and `count` mutants of them, named by seed and number (the
/// seed's extension kept), from `seed`: the bad inputs of the long
/// command-line campaign (`bench/hostile.py`).
pub fn mutants(count: usize, seed: u64) -> Vec<(String, Vec<u8>)> {
    let named = seeds();
    let corpus: Vec<Vec<u8>> = named.iter().map(|(_, bytes)| bytes.clone()).collect();
    let mut random = Random(seed | 1);
    let mut inputs: Vec<(String, Vec<u8>)> = named
        .iter()
        .map(|(name, bytes)| ((*name).to_owned(), bytes.clone()))
        .collect();
    for number in 0..count {
        let parent = random.below(named.len());
        let (stem, extension) = named[parent]
            .0
            .rsplit_once('.')
            .unwrap_or((named[parent].0, ""));
        let bytes = mutate(&corpus[parent], &corpus, &mut random);
        inputs.push((format!("{stem}-{number}.{extension}"), bytes));
    }
    inputs
}

/// Mutates a copy of `parent`: one to four changes.
fn mutate(parent: &[u8], corpus: &[Vec<u8>], random: &mut Random) -> Vec<u8> {
    let mut input = parent.to_vec();
    for _ in 0..=random.below(4) {
        let at = random.below(input.len() + 1);
        match random.below(7) {
            0 if !input.is_empty() => {
                let i = at.min(input.len() - 1);
                input[i] ^= 1 << random.below(8);
            }
            1 if !input.is_empty() => {
                let i = at.min(input.len() - 1);
                input[i] = random.next() as u8;
            }
            2 => {
                let bytes: Vec<u8> = (0..=random.below(8)).map(|_| random.next() as u8).collect();
                input.splice(at..at, bytes);
            }
            3 => {
                let end = (at + random.below(64)).min(input.len());
                input.drain(at..end);
            }
            4 => {
                let end = (at + random.below(256)).min(input.len());
                let copy = input[at..end].to_vec();
                let to = random.below(input.len() + 1);
                input.splice(to..to, copy);
            }
            5 => {
                let other = &corpus[random.below(corpus.len())];
                let from = random.below(other.len() + 1);
                let end = (from + random.below(512)).min(other.len());
                input.splice(at..at, other[from..end].iter().copied());
            }
            _ => {
                let token = TOKENS[random.below(TOKENS.len())];
                input.splice(at..at, token.iter().copied());
            }
        }
    }
    input.truncate(MAX_INPUT_BYTES);
    input
}

/// xorshift64: repeatable, no dependency.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, bound: usize) -> usize {
        if bound == 0 {
            0
        } else {
            (self.next() % bound as u64) as usize
        }
    }
}

/// Watches the input in flight; one running past the hang limit is written
/// out and the process ends.
struct Watchdog {
    current: Arc<Mutex<Vec<u8>>>,
    /// Milliseconds since `epoch` when the current input began; 0 when idle.
    began_ms: Arc<AtomicU64>,
    epoch: Instant,
}

impl Watchdog {
    fn start(target: &'static str, settings: &Settings) -> Self {
        let watchdog = Self {
            current: Arc::new(Mutex::new(Vec::new())),
            began_ms: Arc::new(AtomicU64::new(0)),
            epoch: Instant::now(),
        };
        let (current, began_ms, epoch) = (
            Arc::clone(&watchdog.current),
            Arc::clone(&watchdog.began_ms),
            watchdog.epoch,
        );
        let (limit, findings) = (settings.hang_limit, settings.findings.clone());
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(Duration::from_millis(100));
                let began = began_ms.load(Ordering::Acquire);
                let now = epoch.elapsed().as_millis() as u64;
                if began > 0 && now.saturating_sub(began) > limit.as_millis() as u64 {
                    let file = findings.join(format!("{target}-hang.bin"));
                    let input = current
                        .lock()
                        .map(|input| input.clone())
                        .unwrap_or_default();
                    let _ = std::fs::write(&file, input);
                    eprintln!(
                        "{target}: an input ran over {} s; written to {}",
                        limit.as_secs(),
                        file.display()
                    );
                    std::process::exit(3);
                }
            }
        });
        watchdog
    }

    fn begin(&self, input: &[u8]) {
        if let Ok(mut current) = self.current.lock() {
            current.clear();
            current.extend_from_slice(input);
        }
        let now = (self.epoch.elapsed().as_millis() as u64).max(1);
        self.began_ms.store(now, Ordering::Release);
    }

    fn end(&self) {
        self.began_ms.store(0, Ordering::Release);
    }
}
