//! `experiment zipf`: winnowing's Figure 4 — frequency against rank of
//! every k-gram hash and of every winnowed fingerprint over a corpus, on
//! log-log axes, the fitted slope (paper: about −0.7), and the shares of
//! hashes occurring once, twice and three times (paper: 82 %, 14 %, 2 %).
//!
//! As in the paper, only the two ends of each plateau (a run of ranks with
//! one frequency) are plotted and fitted, a plateau of one rank counting
//! twice, so the millions of hashes seen once do not swamp the fit. The
//! paper also fitted a "cleaned" curve with one aberrant plateau removed by
//! hand; nothing here is removed.

use copyhound_fingerprint::{KGramHasher, KGrams, Selector, Winnowing};
use rayon::prelude::*;

use crate::Corpus;
use crate::plot::{LogLogPlot, Mark, Series};
use crate::report::{Cell, Report, Table};
use crate::winnow::WinnowSettings;

/// Settings of the zipf experiment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct ZipfSettings {
    /// k, w and the seed of the hash.
    #[cfg_attr(feature = "clap", command(flatten))]
    pub winnow: WinnowSettings,
    /// How many of the most frequent k-grams to list.
    #[cfg_attr(feature = "clap", arg(long, default_value_t = ZipfSettings::default().top))]
    pub top: usize,
}

impl Default for ZipfSettings {
    fn default() -> Self {
        Self {
            winnow: WinnowSettings::PAPER,
            top: 8,
        }
    }
}

/// The experiment's tables and its Figure 4.
#[derive(Clone, Debug)]
pub struct ZipfOutcome {
    /// The tables.
    pub report: Report,
    /// Frequency by rank, both curves and their fitted lines.
    pub plot: LogLogPlot,
}

/// Frequencies of one population of hashes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RankFrequency {
    /// Occurrences counted.
    pub occurrences: u64,
    /// Each distinct hash's frequency, highest first, with the hash.
    pub frequencies: Vec<(u64, u64)>,
}

impl RankFrequency {
    /// Counts `hashes` (any order, repeats meaning occurrences).
    pub fn count(mut hashes: Vec<u64>) -> Self {
        hashes.par_sort_unstable();
        let occurrences = hashes.len() as u64;
        let mut frequencies: Vec<(u64, u64)> = hashes
            .chunk_by(|a, b| a == b)
            .map(|run| (run.len() as u64, run[0]))
            .collect();
        frequencies.par_sort_unstable_by(|a, b| b.cmp(a));
        Self {
            occurrences,
            frequencies,
        }
    }

    /// Number of distinct hashes.
    pub fn distinct(&self) -> usize {
        self.frequencies.len()
    }

    /// Share of distinct hashes that occur exactly `times` times.
    pub fn share_occurring(&self, times: u64) -> f64 {
        let count = self.frequencies.iter().filter(|f| f.0 == times).count();
        count as f64 / self.distinct().max(1) as f64
    }

    /// The ends of each plateau as `(rank, frequency)`, ranks from 1; a
    /// plateau of one rank gives its point twice.
    pub fn plateau_ends(&self) -> Vec<(f64, f64)> {
        let mut points = Vec::new();
        let mut first = 0;
        for run in self.frequencies.chunk_by(|a, b| a.0 == b.0) {
            let frequency = run[0].0 as f64;
            points.push(((first + 1) as f64, frequency));
            points.push(((first + run.len()) as f64, frequency));
            first += run.len();
        }
        points
    }
}

/// A least-squares line through points on log-log axes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PowerLaw {
    /// The slope: the exponent of f ∝ r^slope.
    pub slope: f64,
    /// log10 of the frequency at rank 1.
    pub intercept: f64,
    /// Coefficient of determination of the fit (1 is a perfect line).
    pub r_squared: f64,
}

impl PowerLaw {
    /// Fits log10 y = intercept + slope · log10 x; `None` with fewer than
    /// two distinct x.
    pub fn fit(points: &[(f64, f64)]) -> Option<Self> {
        let logs: Vec<(f64, f64)> = points
            .iter()
            .map(|&(x, y)| (x.log10(), y.log10()))
            .collect();
        let n = logs.len() as f64;
        let mean_x = logs.iter().map(|p| p.0).sum::<f64>() / n;
        let mean_y = logs.iter().map(|p| p.1).sum::<f64>() / n;
        let sxx: f64 = logs.iter().map(|p| (p.0 - mean_x).powi(2)).sum();
        let sxy: f64 = logs.iter().map(|p| (p.0 - mean_x) * (p.1 - mean_y)).sum();
        let syy: f64 = logs.iter().map(|p| (p.1 - mean_y).powi(2)).sum();
        if logs.len() < 2 || sxx <= f64::EPSILON {
            return None;
        }
        let slope = sxy / sxx;
        Some(Self {
            slope,
            intercept: mean_y - slope * mean_x,
            r_squared: if syy <= f64::EPSILON {
                1.0
            } else {
                sxy * sxy / (sxx * syy)
            },
        })
    }

    /// The fitted frequency at rank `x`.
    pub fn at(&self, x: f64) -> f64 {
        10f64.powf(self.intercept + self.slope * x.log10())
    }
}

/// Runs the zipf experiment on `corpus`.
pub fn zipf(corpus: &Corpus, settings: &ZipfSettings) -> ZipfOutcome {
    let (hasher, w) = settings.winnow.hasher_and_window();
    let k = hasher.k();
    let winnowing = Winnowing::new(w);
    let (all, selected): (Vec<Vec<u64>>, Vec<Vec<u64>>) = corpus
        .documents
        .par_iter()
        .map(|document| {
            let hashes = hasher.hashes(&document.doc.symbols);
            let mut fps = Vec::new();
            winnowing.select(&KGrams::new(&document.doc.symbols, &hashes, k), &mut fps);
            (hashes, fps.iter().map(|f| f.hash).collect())
        })
        .unzip();
    let all = RankFrequency::count(all.concat());
    let selected = RankFrequency::count(selected.concat());

    let mut report = Report::new("zipf");
    report.preamble.push(corpus.describe());
    report.preamble.push(format!(
        "k = {k}, winnowing (Definition 1) with w = {w}, seed = {}.",
        settings.winnow.seed
    ));
    let populations = [("all hashes", &all), ("fingerprints", &selected)];
    let fits: Vec<Option<PowerLaw>> = populations
        .iter()
        .map(|(_, p)| PowerLaw::fit(&p.plateau_ends()))
        .collect();
    report.tables.push(frequency_table(&populations, &fits));
    report
        .tables
        .push(top_table(corpus, &hasher, &all, settings.top));
    let plot = figure_4(&populations, &fits, corpus.documents.len());
    ZipfOutcome { report, plot }
}

fn frequency_table(populations: &[(&str, &RankFrequency)], fits: &[Option<PowerLaw>]) -> Table {
    let mut table = Table::new(
        "Figure 4 (winnowing): frequency by rank",
        &[
            "population",
            "occurrences",
            "distinct",
            "fitted slope",
            "R^2",
            "once",
            "twice",
            "3 times",
            "most frequent",
        ],
    );
    for ((name, population), fit) in populations.iter().zip(fits) {
        table.push(vec![
            (*name).into(),
            population.occurrences.into(),
            population.distinct().into(),
            Cell::number_or_missing(fit.map(|f| f.slope), 3),
            Cell::number_or_missing(fit.map(|f| f.r_squared), 3),
            Cell::share(population.share_occurring(1), 1),
            Cell::share(population.share_occurring(2), 1),
            Cell::share(population.share_occurring(3), 1),
            Cell::count_or_missing(population.frequencies.first().map(|f| f.0)),
        ]);
    }
    for name in ["paper: all hashes", "paper: fingerprints"] {
        table.push(vec![
            name.into(),
            Cell::Missing,
            Cell::Missing,
            Cell::number(-0.7, 3),
            Cell::Missing,
            Cell::share(0.82, 1),
            Cell::share(0.14, 1),
            Cell::share(0.02, 1),
            if name.ends_with("all hashes") {
                Cell::Count(3_270)
            } else {
                Cell::Missing
            },
        ]);
    }
    table.note("Shares are of distinct hashes; the slope is a least-squares fit of log frequency on log rank through the ends of each plateau.");
    table.note("Paper: 20,000 web pages, k = 50, w = 100; 'one k-gram appears 3,270 times'.");
    table
}

/// The most frequent k-grams and the text of their first occurrence: the
/// paper found menus, legal boilerplate and repetitive strings.
fn top_table(corpus: &Corpus, hasher: &KGramHasher, all: &RankFrequency, top: usize) -> Table {
    let mut table = Table::new(
        "The most frequent k-grams (winnowing §5.1)",
        &["rank", "frequency", "first occurrence"],
    );
    let wanted: Vec<(u64, u64)> = all.frequencies.iter().take(top).copied().collect();
    let mut excerpts: Vec<Option<String>> = vec![None; wanted.len()];
    for document in &corpus.documents {
        if excerpts.iter().all(Option::is_some) {
            break;
        }
        let hashes = hasher.hashes(&document.doc.symbols);
        for (pos, hash) in hashes.iter().enumerate() {
            if let Some(i) = wanted.iter().position(|w| w.1 == *hash)
                && excerpts[i].is_none()
            {
                let bytes = document.doc.byte_range(pos, hasher.k());
                let text = document.text.get(bytes).unwrap_or_default();
                excerpts[i] = Some(format!(
                    "{}: {}",
                    document.path.display(),
                    one_line(text, 70)
                ));
            }
        }
    }
    for (rank, ((frequency, _), excerpt)) in wanted.iter().zip(excerpts).enumerate() {
        table.push(vec![
            (rank + 1).into(),
            (*frequency).into(),
            excerpt.unwrap_or_default().into(),
        ]);
    }
    table
}

/// `text` on one line, whitespace collapsed, at most `max` characters.
fn one_line(text: &str, max: usize) -> String {
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.chars().count() <= max {
        collapsed
    } else {
        let mut cut: String = collapsed.chars().take(max - 1).collect();
        cut.push('…');
        cut
    }
}

fn figure_4(
    populations: &[(&str, &RankFrequency)],
    fits: &[Option<PowerLaw>],
    documents: usize,
) -> LogLogPlot {
    let mut series = Vec::new();
    for (colour, ((name, population), fit)) in populations.iter().zip(fits).enumerate() {
        let ends = population.plateau_ends();
        let last_rank = ends.last().map_or(1.0, |p| p.0);
        series.push(Series {
            name: format!("{name} (plateau ends)"),
            points: ends,
            mark: Mark::Dots,
            colour,
        });
        if let Some(fit) = fit {
            series.push(Series {
                name: format!("{name}: fit, slope {:.2}", fit.slope),
                points: vec![(1.0, fit.at(1.0)), (last_rank, fit.at(last_rank))],
                mark: Mark::Line,
                colour,
            });
        }
    }
    LogLogPlot {
        title: format!(
            "Frequency by rank of k-gram hashes, {documents} documents (winnowing Figure 4)"
        ),
        x_label: "rank".into(),
        y_label: "frequency".into(),
        series,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn plateaus_end_where_the_frequency_changes() {
        // Frequencies 3, 2, 2, 1, 1, 1.
        let counted = RankFrequency::count(vec![7, 7, 7, 5, 5, 6, 6, 1, 2, 3]);
        assert_eq!(counted.occurrences, 10);
        assert_eq!(counted.distinct(), 6);
        assert_eq!(
            counted.plateau_ends(),
            [
                (1.0, 3.0),
                (1.0, 3.0),
                (2.0, 2.0),
                (3.0, 2.0),
                (4.0, 1.0),
                (6.0, 1.0)
            ]
        );
        assert!((counted.share_occurring(1) - 0.5).abs() < 1e-12);
        assert!((counted.share_occurring(2) - 2.0 / 6.0).abs() < 1e-12);
    }

    proptest! {
        /// A fit through points of an exact power law finds its exponent.
        #[test]
        fn an_exact_power_law_is_fitted_exactly(slope in -3.0f64..-0.1, scale in 1.0f64..1e6) {
            let points: Vec<(f64, f64)> = (1..50).map(|r| {
                let r = f64::from(r);
                (r, scale * r.powf(slope))
            }).collect();
            let fit = PowerLaw::fit(&points).unwrap();
            prop_assert!((fit.slope - slope).abs() < 1e-9);
            prop_assert!((fit.at(1.0) / scale - 1.0).abs() < 1e-9);
            prop_assert!((fit.r_squared - 1.0).abs() < 1e-9);
        }
    }

    #[test]
    fn a_fit_needs_two_distinct_ranks() {
        assert_eq!(PowerLaw::fit(&[(1.0, 5.0), (1.0, 5.0)]), None);
        assert_eq!(PowerLaw::fit(&[]), None);
    }

    #[test]
    fn excerpts_are_one_line_and_short() {
        assert_eq!(one_line("a\n  b\tc", 10), "a b c");
        assert_eq!(one_line("abcdefghij", 5), "abcd…");
    }
}
