//! The terminal table: the top pairs, one line each, columns aligned.

use std::io::Write;

use super::terminal_safe;
use crate::{Report, ReportError, Summary};

const HEADER: [&str; 8] = [
    "#",
    "similarity",
    "a",
    "b",
    "covered a",
    "covered b",
    "longest",
    "fragments",
];

/// Which columns are left-aligned (the paths, the language); the rest are
/// numbers.
const LEFT_ALIGNED: [bool; 9] = [false, false, true, true, false, false, false, false, true];

/// Writes the first `limit` pairs of `report` as an aligned table with a
/// one-line summary below. A batch of several languages gets a last
/// column with each pair's language (pairs never cross languages).
pub fn write_table(report: &Report, limit: usize, mut out: impl Write) -> Result<(), ReportError> {
    let percent = |x: f64| format!("{:.1}%", x * 100.0);
    let multilingual = report.parameters.languages.len() > 1;
    let rows: Vec<Vec<String>> = report
        .pairs
        .iter()
        .take(limit)
        .enumerate()
        .map(|(rank, pair)| {
            let mut row = vec![
                (rank + 1).to_string(),
                percent(pair.similarity),
                terminal_safe(&pair.a.path).into_owned(),
                terminal_safe(&pair.b.path).into_owned(),
                percent(pair.a.coverage),
                percent(pair.b.coverage),
                pair.longest_fragment.to_string(),
                pair.fragment_count.to_string(),
            ];
            if multilingual {
                row.push(report.pair_language(pair).unwrap_or_default().to_owned());
            }
            row
        })
        .collect();
    let mut header: Vec<String> = HEADER.map(String::from).into();
    // What "longest" counts, when every pair counts in one kind of symbol.
    let symbols: Vec<Option<&str>> = if multilingual {
        report
            .parameters
            .languages
            .iter()
            .map(|l| l.symbol.as_deref())
            .collect()
    } else {
        vec![report.parameters.symbol.as_deref()]
    };
    if let [Some(symbol), rest @ ..] = &symbols[..]
        && rest.iter().all(|other| other == &Some(*symbol))
    {
        header[6] = format!("longest ({symbol}s)");
    }
    if multilingual {
        header.push("language".to_owned());
    }
    if report.summary.matching_pairs == 0 {
        writeln!(out, "No pair shares a fragment.")?;
    } else if !rows.is_empty() {
        let mut widths: Vec<usize> = header.iter().map(String::len).collect();
        for row in &rows {
            for (width, cell) in widths.iter_mut().zip(row) {
                *width = (*width).max(cell.chars().count());
            }
        }
        for row in std::iter::once(&header).chain(&rows) {
            let cells: Vec<String> = row
                .iter()
                .zip(&widths)
                .zip(LEFT_ALIGNED)
                .map(|((cell, &width), left)| {
                    if left {
                        format!("{cell:<width$}")
                    } else {
                        format!("{cell:>width$}")
                    }
                })
                .collect();
            writeln!(out, "{}", cells.join("  ").trim_end())?;
        }
    }
    write_totals(&report.summary, rows.len(), &mut out)?;
    out.flush()?;
    Ok(())
}

/// The last line: how many pairs are shown of how many, and what the
/// listing left out.
fn write_totals(summary: &Summary, shown: usize, out: &mut impl Write) -> Result<(), ReportError> {
    let percent = |x: f64| format!("{:.1}%", x * 100.0);
    write!(
        out,
        "{shown} of {matching} pairs with shared fragments shown; {units} units, {candidates} candidate pairs",
        matching = summary.matching_pairs,
        units = summary.units,
        candidates = summary.candidate_pairs,
    )?;
    if let Some(unlisted) = &summary.unlisted {
        if let Some(lowest) = unlisted.lowest_listed_similarity {
            write!(
                out,
                "; only the most similar are listed (down to {})",
                percent(lowest)
            )?;
        }
        if let Some(up_to) = unlisted
            .possibly_missing
            .iter()
            .map(|m| m.up_to_similarity)
            .max_by(f64::total_cmp)
        {
            write!(out, "; pairs up to {} may be missing", percent(up_to))?;
        }
    }
    if let Some(below) = &summary.below_minimum {
        write!(
            out,
            "; {} pairs below the minimum similarity of {} not listed",
            below.pairs,
            percent(below.min_similarity)
        )?;
    }
    writeln!(out, ".")?;
    Ok(())
}
