//! `experiment koala`: Heintze's Tables 1–7 and §5 on a text collection
//! with planted relationships.
//!
//! Every configuration builds a real `copyhound-db` Koala database in a
//! temporary directory, registers every text of the collection and
//! searches each text against all (itself included, as Heintze's Table 1
//! counts: 372 matches over 50 % for 366 documents, "(6)" of them not
//! the document itself). A search's match ratio is the database's: hits /
//! stored size of the registered document, with §6.2's frequency check.
//!
//! - Table 1: the match distribution of the baseline (N = 1000, n = 100,
//!   α = 20 consonants, prefix 5, prologue 1000 bytes, frequency check 4
//!   documents capped at 10 ignored, 28-bit hashes).
//! - The planted pairs: how each relationship of §2 scores.
//! - Table 2: selective against full fingerprinting on planted and
//!   unrelated pairs.
//! - Tables 3–7: the frequency check and the prologue off; selection
//!   without the infrequent-prefix rule; stored size 10–500; search size
//!   100–5000; α 10–50.
//! - §5: the consonant front-end against conversion noise ([`noise`]).

mod noise;
mod planted;

use std::collections::HashMap;

use copyhound_db::{
    Database, DocId, DocumentMeta, MatchBucket, NewDocument, Params, SearchOptions,
};
use copyhound_fingerprint::{All, KGramHasher, NormalizedDocument};
use copyhound_normalize::TextMode;
use copyhound_normalize::text::{TextOptions, normalize_text};
use rayon::prelude::*;

use crate::generate::Rng;
use crate::measure::fingerprints;
use crate::report::{Cell, Report, Table};
use crate::{Corpus, ExperimentError};
pub use planted::Relation;
use planted::{INCLUDED_WORDS, Origin, Text, Vocabulary};

/// Settings of the Koala experiment.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct KoalaSettings {
    /// The text front-end (Heintze: consonants).
    #[cfg_attr(feature = "clap", arg(skip = KoalaSettings::default().mode))]
    pub mode: TextMode,
    /// α, the k-gram length of the baseline (Heintze: 20 consonants).
    #[cfg_attr(feature = "clap", arg(long, default_value_t = KoalaSettings::default().alpha))]
    pub alpha: usize,
    /// Seed of the database and of every random choice.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = KoalaSettings::default().seed))]
    pub seed: u64,
    /// Corpus documents planted in each of the six relationships.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = KoalaSettings::default().per_relation))]
    pub per_relation: usize,
    /// Generated unrelated documents added to the collection (words drawn
    /// by their frequency in the corpus).
    #[cfg_attr(feature = "clap", arg(long = "generate", value_name = "N", default_value_t = KoalaSettings::default().generated))]
    pub generated: usize,
    /// Words per generated document.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = KoalaSettings::default().generated_words))]
    pub generated_words: usize,
    /// Corpus documents given conversion noise in the §5 table.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = KoalaSettings::default().noise_documents))]
    pub noise_documents: usize,
}

impl Default for KoalaSettings {
    fn default() -> Self {
        Self {
            mode: TextMode::Consonants,
            alpha: 20,
            seed: 1996,
            per_relation: 10,
            generated: 0,
            generated_words: 3000,
            noise_documents: 40,
        }
    }
}

/// Corpus documents need this many words to serve as a base: the included
/// portion is 300 words, and a condensed version should still be long.
const MIN_BASE_WORDS: usize = 400;

/// The seven match ranges of Heintze's tables.
const BUCKETS: usize = MatchBucket::ALL.len();

/// One text of the collection, normalised.
struct Entry {
    text: Text,
    doc: NormalizedDocument,
}

/// A planted pair: the planted text and its base, by index.
#[derive(Clone, Copy)]
struct Pair {
    planted: usize,
    base: usize,
    relation: Relation,
}

/// What one configuration found.
struct Outcome {
    /// Matches per bucket, every search's results together.
    distribution: [u64; BUCKETS],
    /// Matches over 50 % that are not the query itself.
    over_half_others: u64,
    /// Per planted pair, its two directed match ratios: the planted text
    /// searched (the base's ratio), and the base searched.
    pair_ratios: Vec<(f64, f64)>,
    /// Per probe pair, the ratio of the second found by searching the
    /// first (0 when not found).
    probe_ratios: Vec<f64>,
}

/// Runs the Koala experiment on `corpus`.
pub fn koala(corpus: &Corpus, settings: &KoalaSettings) -> Result<Report, ExperimentError> {
    if settings.alpha == 0 {
        return Err(ExperimentError::setting("alpha", "must be at least 1"));
    }
    let (entries, pairs) = collection(corpus, settings);
    let mut report = Report::new("koala");
    report.preamble.push(corpus.describe());
    let planted = pairs.len();
    let generated = entries
        .iter()
        .filter(|e| e.text.origin == Origin::Generated)
        .count();
    report.preamble.push(format!(
        "Collection: {} texts = {} from the corpus + {generated} generated + {planted} planted (up to {} per relationship, from corpus documents of at least 400 words); front-end {}, α = {}, seed = {}.",
        entries.len(),
        entries.len() - generated - planted,
        settings.per_relation,
        settings.mode.name(),
        settings.alpha,
        settings.seed
    ));
    let probes = probe_pairs(&entries, &pairs, settings.seed);
    let baseline = baseline_params(settings);
    let base = run(&entries, &pairs, &probes, &baseline)?;

    report.tables.push(distribution_table(
        "Table 1 (Koala): match distribution, each text searched against all",
        &[("measured", &base)],
        &[("paper: CMU-SCS reports", PAPER_BASELINE)],
    ));
    report.tables.push(relations_table(&entries, &pairs, &base));
    report.tables.push(selective_vs_full(
        &entries,
        &pairs,
        &probes,
        &base,
        settings.alpha,
    ));
    report
        .tables
        .extend(ablations(&entries, &pairs, &probes, &baseline, &base)?);
    report
        .tables
        .push(noise::consonants_table(corpus, settings));
    Ok(report)
}

/// The database settings of Heintze's baseline.
fn baseline_params(settings: &KoalaSettings) -> Params {
    Params {
        seed: settings.seed,
        k: settings.alpha as u32,
        front_end: settings.mode.name().to_owned(),
        // Koala's 28-bit hashes (§4); the database's own default is 27.
        hash_bits: 28,
        ..Params::default()
    }
}

/// The corpus texts, the generated ones and the planted variants, each
/// normalised with the experiment's front-end.
fn collection(corpus: &Corpus, settings: &KoalaSettings) -> (Vec<Entry>, Vec<Pair>) {
    let mut rng = Rng::new(settings.seed);
    let mut texts: Vec<Text> = corpus
        .documents
        .iter()
        .map(|d| Text {
            name: d.path.display().to_string(),
            body: d.text.clone(),
            origin: Origin::Corpus,
        })
        .collect();
    let vocabulary = Vocabulary::from_texts(texts.iter().map(|t| t.body.as_str()));
    for i in 0..settings.generated {
        texts.push(Text {
            name: format!("generated-{i}"),
            body: vocabulary.document(settings.generated_words, &mut rng),
            origin: Origin::Generated,
        });
    }
    // Bases: long enough corpus documents, one relationship each, in path
    // order; hosts of included portions: generated texts first, then the
    // corpus documents left over.
    let mut bases: Vec<usize> = (0..corpus.documents.len())
        .filter(|&i| planted::word_count(&texts[i].body) >= MIN_BASE_WORDS)
        .collect();
    let wanted = settings.per_relation * Relation::ALL.len();
    let spare: Vec<usize> = bases.split_off(wanted.min(bases.len()));
    let mut hosts: Vec<usize> = (corpus.documents.len()..texts.len()).chain(spare).collect();
    let mut pairs = Vec::new();
    for (slot, &base) in bases.iter().enumerate() {
        let relation = Relation::ALL[slot % Relation::ALL.len()];
        let source = texts[base].body.clone();
        let text = match relation {
            Relation::Identical => source,
            Relation::SmallEdits => planted::edit_words(&source, 0.02, &vocabulary, &mut rng),
            Relation::Reorganised => planted::reorganise(&source, &mut rng),
            Relation::Revised => planted::revise(&source, &vocabulary, &mut rng),
            Relation::Condensed => planted::condense(&source, &mut rng),
            Relation::Included => {
                let host = match hosts.pop() {
                    Some(host) => texts[host].body.clone(),
                    None => vocabulary.document(2 * INCLUDED_WORDS, &mut rng),
                };
                planted::include(&source, &host, INCLUDED_WORDS, &mut rng)
            }
        };
        pairs.push(Pair {
            planted: texts.len(),
            base,
            relation,
        });
        texts.push(Text {
            name: format!("{} of {}", relation.name(), texts[base].name),
            body: text,
            origin: Origin::Planted(relation, base),
        });
    }
    let options = TextOptions::with_mode(settings.mode);
    let entries = texts
        .into_par_iter()
        .map(|text| Entry {
            doc: normalize_text(&text.body, &options),
            text,
        })
        .collect();
    (entries, pairs)
}

/// A few pairs of unrelated corpus documents, for Table 2's low rows.
fn probe_pairs(entries: &[Entry], pairs: &[Pair], seed: u64) -> Vec<(usize, usize)> {
    let related = |a: usize, b: usize| {
        pairs
            .iter()
            .any(|p| (p.base == a || p.planted == a) && (p.base == b || p.planted == b))
    };
    let corpus: Vec<usize> = (0..entries.len())
        .filter(|&i| entries[i].text.origin == Origin::Corpus)
        .collect();
    let mut rng = Rng::new(seed ^ 0x7072_6F62);
    let mut probes = Vec::new();
    for _ in 0..50 {
        if probes.len() == 5 || corpus.len() < 2 {
            break;
        }
        let a = corpus[rng.below(corpus.len())];
        let b = corpus[rng.below(corpus.len())];
        if a != b && !related(a, b) && !probes.contains(&(a, b)) {
            probes.push((a, b));
        }
    }
    probes
}

/// Builds a database with `params`, registers every entry and searches each.
fn run(
    entries: &[Entry],
    pairs: &[Pair],
    probes: &[(usize, usize)],
    params: &Params,
) -> Result<Outcome, ExperimentError> {
    let dir = tempfile::tempdir().map_err(|error| ExperimentError::Io {
        path: std::env::temp_dir(),
        error,
    })?;
    let db = Database::create(dir.path(), params.clone())?;
    let fingerprinter = db.fingerprinter();
    let prints: Vec<_> = entries
        .par_iter()
        .map(|e| fingerprinter.print(&e.doc))
        .collect();
    let ids = db.add(
        entries
            .iter()
            .zip(&prints)
            .map(|(e, print)| NewDocument {
                meta: DocumentMeta {
                    title: e.text.name.clone(),
                    size: e.text.body.len() as u64,
                    ..DocumentMeta::default()
                },
                print: print.clone(),
            })
            .collect(),
    )?;
    let index_of: HashMap<DocId, usize> = ids.iter().enumerate().map(|(i, &id)| (id, i)).collect();
    let options = SearchOptions {
        limit: usize::MAX,
        min_hits: 1,
    };
    // Per query, the ratio and hits of every document found.
    let found: Vec<HashMap<usize, (f64, u32)>> = prints
        .par_iter()
        .map(|print| {
            db.search(print, &options).map(|report| {
                report
                    .matches
                    .iter()
                    .map(|m| (index_of[&m.document.id], (m.ratio, m.hits)))
                    .collect()
            })
        })
        .collect::<Result<_, _>>()?;
    let mut distribution = [0u64; BUCKETS];
    let mut over_half_others = 0;
    for (query, matches) in found.iter().enumerate() {
        for (&matched, &(ratio, hits)) in matches {
            // Heintze's Table 5 puts a single hit in the first column
            // whatever it is as a share (10 % of a stored size of 10), and
            // leaves the ranges no ratio can fall in blank; so does this.
            let bucket = if hits == 1 {
                MatchBucket::Percent1
            } else {
                MatchBucket::of(ratio)
            };
            distribution[bucket as usize] += 1;
            if bucket == MatchBucket::Over50 && matched != query {
                over_half_others += 1;
            }
        }
    }
    let ratio =
        |query: usize, matched: usize| found[query].get(&matched).map_or(0.0, |&(ratio, _)| ratio);
    Ok(Outcome {
        distribution,
        over_half_others,
        pair_ratios: pairs
            .iter()
            .map(|p| (ratio(p.planted, p.base), ratio(p.base, p.planted)))
            .collect(),
        probe_ratios: probes.iter().map(|&(a, b)| ratio(a, b)).collect(),
    })
}

/// Heintze's baseline row (Tables 1, 3–7): counts per bucket and the
/// matches over 50 % that are not the document itself.
const PAPER_BASELINE: ([u64; BUCKETS], u64) = ([763, 98, 53, 25, 15, 23, 372], 6);

/// A match-distribution table: measured rows, then the paper's.
fn distribution_table(
    title: &str,
    measured: &[(&str, &Outcome)],
    paper: &[(&str, ([u64; BUCKETS], u64))],
) -> Table {
    let mut columns = vec!["configuration"];
    columns.extend(MatchBucket::ALL.iter().map(|b| b.label()));
    columns.push("of >50% not self");
    let mut table = Table::new(title, &columns);
    table.note("Each text is searched against all, itself included; a match with a single hit counts in the first column, as in Heintze's Table 5.");
    for (label, outcome) in measured {
        let mut row: Vec<Cell> = vec![(*label).into()];
        row.extend(outcome.distribution.iter().map(|&c| Cell::Count(c)));
        row.push(outcome.over_half_others.into());
        table.push(row);
    }
    for (label, (counts, others)) in paper {
        let mut row: Vec<Cell> = vec![(*label).into()];
        // The paper leaves a cell blank where a count was not reported.
        row.extend(counts.iter().map(|&c| {
            if c == u64::MAX {
                Cell::Missing
            } else {
                Cell::Count(c)
            }
        }));
        row.push((*others).into());
        table.push(row);
    }
    table
}

/// How each planted relationship scores under the baseline.
fn relations_table(entries: &[Entry], pairs: &[Pair], base: &Outcome) -> Table {
    let mut table = Table::new(
        "Planted relationships (Koala §2): the better of the two directed match ratios per pair",
        &[
            "relationship",
            "pairs",
            "found",
            "over 50%",
            "median ratio",
            "lowest ratio",
            "base words (median)",
        ],
    );
    for relation in Relation::ALL {
        let mut ratios: Vec<f64> = pairs
            .iter()
            .zip(&base.pair_ratios)
            .filter(|(p, _)| p.relation == relation)
            .map(|(_, &(forward, backward))| forward.max(backward))
            .collect();
        if ratios.is_empty() {
            continue;
        }
        ratios.sort_by(f64::total_cmp);
        let mut words: Vec<usize> = pairs
            .iter()
            .filter(|p| p.relation == relation)
            .map(|p| planted::word_count(&entries[p.base].text.body))
            .collect();
        words.sort_unstable();
        table.push(vec![
            relation.name().into(),
            ratios.len().into(),
            ratios.iter().filter(|&&r| r > 0.0).count().into(),
            ratios
                .iter()
                .filter(|&&r| MatchBucket::of(r) == MatchBucket::Over50)
                .count()
                .into(),
            Cell::share(ratios[ratios.len() / 2], 0),
            Cell::share(ratios[0], 0),
            words[words.len() / 2].into(),
        ]);
    }
    table.note("Heintze requires the first five relationships to be found with very high probability and tolerates some misses of included portions (§2); fixed-size fingerprints see an included portion at about its share of the larger document (§3.5).");
    table
}

/// Table 2: the selective ratio of a pair next to full fingerprinting's
/// (every α-gram: common distinct k-grams / distinct k-grams of the
/// registered document).
fn selective_vs_full(
    entries: &[Entry],
    pairs: &[Pair],
    probes: &[(usize, usize)],
    base: &Outcome,
    alpha: usize,
) -> Table {
    let mut table = Table::new(
        "Table 2 (Koala): selective against full fingerprinting",
        &["pair", "selective ratio", "full ratio", "common", "total"],
    );
    let hasher = KGramHasher::new(alpha, 0);
    let distinct = |i: usize| -> std::collections::HashSet<u64> {
        fingerprints(&All, &hasher, &entries[i].doc.symbols)
            .iter()
            .map(|f| f.hash)
            .collect()
    };
    let mut rows: Vec<(String, usize, usize, f64)> = Vec::new();
    for relation in Relation::ALL {
        if let Some((pair, &ratio)) = pairs
            .iter()
            .zip(&base.pair_ratios)
            .find(|(p, _)| p.relation == relation)
        {
            rows.push((relation.name().to_owned(), pair.planted, pair.base, ratio.0));
        }
    }
    for (&(a, b), &ratio) in probes.iter().zip(&base.probe_ratios) {
        rows.push(("unrelated".to_owned(), a, b, ratio));
    }
    for (label, query, registered, ratio) in rows {
        let registered_set = distinct(registered);
        let common = distinct(query).intersection(&registered_set).count();
        let total = registered_set.len();
        table.push(vec![
            label.into(),
            Cell::share(ratio, 0),
            Cell::share(common as f64 / total.max(1) as f64, 2),
            common.into(),
            total.into(),
        ]);
    }
    table.note("Each row: the planted (or first) text searched; the ratios are of the base (or second) text, hits / its stored size against common k-grams / its distinct k-grams.");
    table.note("Paper: selective ratios within a factor of two of full fingerprinting, e.g. 45 % against 57 % (13206/22994), 29 % against 55 %, 1 % against 0.01 %; unrelated pairs 0 against 0-0.3 %.");
    table
}

/// Heintze's ablation rows as published: counts per bucket (`u64::MAX`
/// where the paper leaves the cell blank) and the "(n)" of the last one.
type PaperRow = (&'static str, ([u64; BUCKETS], u64));

const BLANK: u64 = u64::MAX;

/// One ablation table: configurations changed from the baseline, where
/// the baseline's own row goes, and the paper's rows.
struct Ablation {
    title: &'static str,
    rows: Vec<(String, Params)>,
    baseline_label: String,
    baseline_at: usize,
    paper: Vec<PaperRow>,
}

/// `baseline` with one change.
fn changed(baseline: &Params, change: impl FnOnce(&mut Params)) -> Params {
    let mut params = baseline.clone();
    change(&mut params);
    params
}

/// Table 3: the frequency check (off: nothing is ignored) and the prologue
/// skip (off: no bytes skipped).
fn table_3(baseline: &Params) -> Ablation {
    Ablation {
        title: "Table 3 (Koala): frequency check at search (§6.2) and document prologue (§6.3)",
        rows: vec![
            (
                "freq. check off".into(),
                changed(baseline, |p| p.max_ignored = 0),
            ),
            (
                "include start".into(),
                changed(baseline, |p| p.prologue_bytes = 0),
            ),
            (
                "both disabled".into(),
                changed(baseline, |p| {
                    p.max_ignored = 0;
                    p.prologue_bytes = 0;
                }),
            ),
        ],
        baseline_label: "baseline".into(),
        baseline_at: 0,
        paper: vec![
            ("paper: baseline", PAPER_BASELINE),
            (
                "paper: freq. check off",
                ([896, 107, 53, 25, 15, 23, 372], 6),
            ),
            (
                "paper: include start",
                ([2618, 194, 100, 32, 15, 19, 374], 8),
            ),
            (
                "paper: both disabled",
                ([17598, 2415, 334, 35, 17, 19, 374], 8),
            ),
        ],
    }
}

/// Table 4: selection without the infrequent-prefix rule (prefix 0 ranks
/// every k-gram by its keyed hash alone).
fn table_4(baseline: &Params) -> Ablation {
    Ablation {
        title: "Table 4 (Koala): infrequent-prefix selection (§6.1) against selection without regard for frequency",
        rows: vec![("random".into(), changed(baseline, |p| p.prefix = 0))],
        baseline_label: "baseline".into(),
        baseline_at: 0,
        paper: vec![
            ("paper: baseline", PAPER_BASELINE),
            ("paper: random", ([1634, 177, 104, 43, 17, 29, 376], 10)),
        ],
    }
}

/// Table 5: the stored size, 10 to 500.
fn table_5(baseline: &Params) -> Ablation {
    Ablation {
        title: "Table 5 (Koala): stored fingerprint size (search size 1000)",
        rows: [10u32, 20, 50, 200, 500]
            .iter()
            .map(|&n| {
                (
                    format!("stored {n}"),
                    changed(baseline, |p| p.stored_size = n),
                )
            })
            .collect(),
        baseline_label: format!("stored {}", baseline.stored_size),
        baseline_at: 3,
        paper: vec![
            (
                "paper: stored 10",
                ([134, BLANK, BLANK, BLANK, 12, 17, 370], 4),
            ),
            (
                "paper: stored 20",
                ([217, BLANK, BLANK, 19, 16, 21, 370], 4),
            ),
            ("paper: stored 50", ([442, BLANK, 43, 39, 18, 21, 369], 3)),
            ("paper: stored 100", PAPER_BASELINE),
            ("paper: stored 200", ([1507, 43, 49, 21, 17, 19, 372], 6)),
            ("paper: stored 500", ([2162, 32, 38, 25, 14, 18, 372], 6)),
        ],
    }
}

/// Table 6: the search size, 100 to 5000.
fn table_6(baseline: &Params) -> Ablation {
    Ablation {
        title: "Table 6 (Koala): search fingerprint size (stored size 100)",
        rows: [100u32, 200, 500, 2000, 5000]
            .iter()
            .map(|&n| {
                (
                    format!("search {n}"),
                    changed(baseline, |p| p.search_size = n),
                )
            })
            .collect(),
        baseline_label: format!("search {}", baseline.search_size),
        baseline_at: 3,
        paper: vec![
            ("paper: search 100", ([364, 54, 36, 22, 20, 18, 374], 8)),
            ("paper: search 200", ([520, 66, 50, 19, 17, 24, 371], 5)),
            ("paper: search 500", ([777, 89, 52, 30, 17, 20, 372], 8)),
            ("paper: search 1000", PAPER_BASELINE),
            ("paper: search 2000", ([976, 91, 63, 21, 15, 20, 373], 7)),
            ("paper: search 5000", ([1064, 101, 62, 32, 16, 21, 372], 6)),
        ],
    }
}

/// Table 7: α, 10 to 50 symbols.
fn table_7(baseline: &Params) -> Ablation {
    let alphas: Vec<u32> = [10u32, 20, 30, 40, 50]
        .into_iter()
        .filter(|&a| a != baseline.k)
        .collect();
    Ablation {
        title: "Table 7 (Koala): substring length alpha",
        baseline_at: alphas.iter().filter(|&&a| a < baseline.k).count(),
        rows: alphas
            .iter()
            .map(|&k| (format!("alpha {k}"), changed(baseline, |p| p.k = k)))
            .collect(),
        baseline_label: format!("alpha {}", baseline.k),
        paper: vec![
            ("paper: alpha 10", ([6239, 363, 105, 33, 24, 22, 375], 9)),
            ("paper: alpha 20", PAPER_BASELINE),
            ("paper: alpha 30", ([411, 70, 49, 22, 10, 20, 371], 5)),
            ("paper: alpha 40", ([366, 55, 42, 22, 15, 17, 371], 5)),
            ("paper: alpha 50", ([231, 37, 42, 19, 13, 15, 370], 4)),
        ],
    }
}

/// Tables 3–7: one setting changed at a time from the baseline, each
/// configuration a database of its own.
fn ablations(
    entries: &[Entry],
    pairs: &[Pair],
    probes: &[(usize, usize)],
    baseline: &Params,
    base: &Outcome,
) -> Result<Vec<Table>, ExperimentError> {
    let mut tables = Vec::new();
    for ablation in [table_3, table_4, table_5, table_6, table_7].map(|t| t(baseline)) {
        let outcomes = ablation
            .rows
            .iter()
            .map(|(_, params)| run(entries, pairs, probes, params))
            .collect::<Result<Vec<_>, _>>()?;
        let measured: Vec<(&str, &Outcome)> = ablation
            .rows
            .iter()
            .zip(&outcomes)
            .map(|((label, _), outcome)| (label.as_str(), outcome))
            .collect();
        let mut table = distribution_table(ablation.title, &measured, &ablation.paper);
        insert_baseline_at(
            &mut table,
            base,
            &ablation.baseline_label,
            ablation.baseline_at,
        );
        tables.push(table);
    }
    Ok(tables)
}

/// Puts the baseline's measured row at `at`, labelled `label`.
fn insert_baseline_at(table: &mut Table, base: &Outcome, label: &str, at: usize) {
    let row = distribution_table("", &[(label, base)], &[]).rows.remove(0);
    table.rows.insert(at, row);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Document;
    use copyhound_normalize::DocumentKind;

    /// Twenty documents of 800 words drawn from one small vocabulary.
    fn corpus() -> Corpus {
        let vocabulary = Vocabulary::from_texts([
            "Fingerprinting selects a few substrings of every document and keeps their \
             hashes in a database, so that later documents can be searched for copied \
             passages. The selection must pick the same substrings from copies, resist \
             an adversary who edits the text, and stay small for millions of documents. \
             Converters from printed formats garble spacing and punctuation, which is \
             why consonants alone are kept in some systems of this kind.",
        ]);
        let mut rng = Rng::new(11);
        Corpus {
            documents: (0..20)
                .map(|i| {
                    let text = vocabulary.document(800, &mut rng);
                    Document {
                        path: format!("doc-{i:02}.txt").into(),
                        file_bytes: text.len() as u64,
                        kind: DocumentKind::Text,
                        doc: normalize_text(&text, &TextOptions::with_mode(TextMode::Consonants)),
                        text,
                    }
                })
                .collect(),
            ..Corpus::default()
        }
    }

    fn total(row: &[Cell]) -> f64 {
        row[1..=BUCKETS].iter().filter_map(Cell::value).sum()
    }

    #[test]
    fn koala_tables_on_a_generated_collection() {
        let settings = KoalaSettings {
            per_relation: 2,
            generated: 10,
            generated_words: 600,
            noise_documents: 5,
            ..KoalaSettings::default()
        };
        let report = koala(&corpus(), &settings).unwrap();
        let texts = 20 + 10 + 2 * Relation::ALL.len();

        // Every text finds itself over 50 %, and the planted identical
        // copies and small edits are found there too.
        let table_1 = report.table("Table 1").unwrap();
        let measured = table_1.row("measured").unwrap();
        assert!(
            measured[BUCKETS].value().unwrap() >= texts as f64,
            "{measured:?}"
        );
        let relations = report.table("Planted relationships").unwrap();
        for relation in ["identical", "small edits"] {
            let row = relations.row(relation).unwrap();
            assert_eq!(row[3], Cell::Count(2), "{relation}: {row:?}");
        }

        // Monotone as in Heintze's Tables 5 and 7: more stored keys find
        // more matches, longer substrings fewer.
        let table_5 = report.table("Table 5").unwrap();
        let stored: Vec<f64> = [10, 20, 50, 100, 200, 500]
            .iter()
            .map(|n| total(table_5.row(&format!("stored {n}")).unwrap()))
            .collect();
        assert!(stored.windows(2).all(|p| p[0] <= p[1]), "{stored:?}");
        let table_7 = report.table("Table 7").unwrap();
        let alpha: Vec<f64> = [10, 20, 30, 40, 50]
            .iter()
            .map(|a| total(table_7.row(&format!("alpha {a}")).unwrap()))
            .collect();
        assert!(alpha.windows(2).all(|p| p[0] >= p[1]), "{alpha:?}");

        // The frequency check only ever removes low matches.
        let table_3 = report.table("Table 3").unwrap();
        let with = total(table_3.row("baseline").unwrap());
        let without = total(table_3.row("freq. check off").unwrap());
        assert!(without >= with, "{with} {without}");
    }

    #[test]
    fn alpha_zero_is_refused() {
        let settings = KoalaSettings {
            alpha: 0,
            ..KoalaSettings::default()
        };
        let error = koala(&Corpus::default(), &settings).unwrap_err();
        assert!(error.to_string().contains("alpha"), "{error}");
    }
}
