//! Tables as data: what every experiment returns, printed as aligned text
//! or written as JSON.
//!
//! A [`Table`] keeps its cells typed ([`Cell`]), so a test or a script can
//! read the numbers from the JSON instead of parsing the printed text.

use std::fmt;

use serde::Serialize;

/// One cell of a table. In JSON a cell is a plain string, number (a share
/// as 0 to 1) or `null`.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// Words: a row label, a setting.
    Text(String),
    /// A count.
    Count(u64),
    /// A measured or expected number, printed with `digits` decimals.
    Number {
        /// The value.
        value: f64,
        /// Decimals when printed.
        digits: usize,
    },
    /// A share, printed as a percentage with `digits` decimals.
    Share {
        /// The share, 0 to 1.
        share: f64,
        /// Decimals of the percentage when printed.
        digits: usize,
    },
    /// Nothing to show (the paper has no number here).
    Missing,
}

impl Cell {
    /// A text cell.
    pub fn text(text: impl Into<String>) -> Self {
        Self::Text(text.into())
    }

    /// A number with `digits` decimals.
    pub fn number(value: f64, digits: usize) -> Self {
        Self::Number { value, digits }
    }

    /// A share shown as a percentage with `digits` decimals.
    pub fn share(share: f64, digits: usize) -> Self {
        Self::Share { share, digits }
    }

    /// A count, or [`Cell::Missing`].
    pub fn count_or_missing(count: Option<u64>) -> Self {
        count.map_or(Self::Missing, Self::Count)
    }

    /// A number, or [`Cell::Missing`].
    pub fn number_or_missing(value: Option<f64>, digits: usize) -> Self {
        value.map_or(Self::Missing, |value| Self::number(value, digits))
    }

    /// The number in the cell: counts, numbers and shares (as 0 to 1).
    pub fn value(&self) -> Option<f64> {
        match *self {
            Self::Count(count) => Some(count as f64),
            Self::Number { value, .. } => Some(value),
            Self::Share { share, .. } => Some(share),
            Self::Text(_) | Self::Missing => None,
        }
    }

    fn is_text(&self) -> bool {
        matches!(self, Self::Text(_))
    }
}

impl Serialize for Cell {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Text(text) => serializer.serialize_str(text),
            Self::Count(count) => serializer.serialize_u64(*count),
            Self::Number { value: number, .. } | Self::Share { share: number, .. } => {
                serializer.serialize_f64(*number)
            }
            Self::Missing => serializer.serialize_none(),
        }
    }
}

impl From<u64> for Cell {
    fn from(count: u64) -> Self {
        Self::Count(count)
    }
}

impl From<usize> for Cell {
    fn from(count: usize) -> Self {
        Self::Count(count as u64)
    }
}

impl From<&str> for Cell {
    fn from(text: &str) -> Self {
        Self::text(text)
    }
}

impl From<String> for Cell {
    fn from(text: String) -> Self {
        Self::Text(text)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Text(text) => f.write_str(text),
            Self::Count(count) => f.write_str(&group_thousands(*count)),
            Self::Number { value, digits } => write!(f, "{value:.digits$}"),
            Self::Share { share, digits } => write!(f, "{:.digits$} %", share * 100.0),
            Self::Missing => f.write_str("-"),
        }
    }
}

/// `1234567` as `1,234,567`, as the papers print counts.
fn group_thousands(count: u64) -> String {
    let digits = count.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// A table: a title, column headings, rows of cells and notes under it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Table {
    /// What the table shows, with the paper's table or figure it reproduces.
    pub title: String,
    /// Column headings.
    pub columns: Vec<String>,
    /// Rows, each as long as `columns`.
    pub rows: Vec<Vec<Cell>>,
    /// Lines printed under the table: settings, the paper's numbers, caveats.
    pub notes: Vec<String>,
}

impl Table {
    /// An empty table with these headings.
    pub fn new(title: impl Into<String>, columns: &[&str]) -> Self {
        Self {
            title: title.into(),
            columns: columns.iter().map(|&c| c.to_owned()).collect(),
            rows: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Appends a row.
    ///
    /// # Panics
    /// If the row does not have one cell per column.
    pub fn push(&mut self, row: Vec<Cell>) {
        assert_eq!(row.len(), self.columns.len(), "one cell per column");
        self.rows.push(row);
    }

    /// Appends a note.
    pub fn note(&mut self, note: impl Into<String>) {
        self.notes.push(note.into());
    }

    /// The row whose first cell is the text `label`.
    pub fn row(&self, label: &str) -> Option<&[Cell]> {
        self.rows
            .iter()
            .find(|row| matches!(row.first(), Some(Cell::Text(text)) if text == label))
            .map(Vec::as_slice)
    }

    /// The index of the column headed `heading`.
    pub fn column(&self, heading: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == heading)
    }
}

impl fmt::Display for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.title)?;
        let rendered: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|row| row.iter().map(ToString::to_string).collect())
            .collect();
        let widths: Vec<usize> = (0..self.columns.len())
            .map(|c| {
                rendered
                    .iter()
                    .map(|row| row[c].chars().count())
                    .chain([self.columns[c].chars().count()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        // Text columns (judged by the first row) align left, numbers right.
        let left: Vec<bool> = (0..self.columns.len())
            .map(|c| self.rows.first().is_none_or(|row| row[c].is_text()))
            .collect();
        let line = |f: &mut fmt::Formatter<'_>, cells: &[String]| -> fmt::Result {
            let mut text = String::new();
            for (c, cell) in cells.iter().enumerate() {
                if c > 0 {
                    text.push_str("  ");
                }
                let pad = widths[c] - cell.chars().count();
                if left[c] {
                    text.push_str(cell);
                    text.extend(std::iter::repeat_n(' ', pad));
                } else {
                    text.extend(std::iter::repeat_n(' ', pad));
                    text.push_str(cell);
                }
            }
            writeln!(f, "{}", text.trim_end())
        };
        line(f, &self.columns)?;
        let rule: Vec<String> = widths.iter().map(|&w| "-".repeat(w)).collect();
        line(f, &rule)?;
        for row in &rendered {
            line(f, row)?;
        }
        for note in &self.notes {
            writeln!(f, "  {note}")?;
        }
        Ok(())
    }
}

/// What one experiment found: its tables, in order.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Report {
    /// The experiment's name (`gaps`, `zipf`, …).
    pub experiment: String,
    /// Lines printed before the tables: the corpus and the settings.
    pub preamble: Vec<String>,
    /// The tables.
    pub tables: Vec<Table>,
}

impl Report {
    /// An empty report of `experiment`.
    pub fn new(experiment: &str) -> Self {
        Self {
            experiment: experiment.to_owned(),
            ..Self::default()
        }
    }

    /// The table whose title starts with `prefix`.
    pub fn table(&self, prefix: &str) -> Option<&Table> {
        self.tables.iter().find(|t| t.title.starts_with(prefix))
    }

    /// The report as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report always serialises")
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for line in &self.preamble {
            writeln!(f, "{line}")?;
        }
        for table in &self.tables {
            writeln!(f)?;
            write!(f, "{table}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_aligns_text_left_and_numbers_right() {
        let mut table = Table::new("Title", &["selector", "count", "density"]);
        table.push(vec![
            "winnow".into(),
            1_234_567u64.into(),
            Cell::number(0.02, 4),
        ]);
        table.push(vec!["all".into(), 5u64.into(), Cell::Missing]);
        table.note("k = 50");
        let text = table.to_string();
        assert_eq!(
            text,
            "Title\n\
             selector      count  density\n\
             --------  ---------  -------\n\
             winnow    1,234,567   0.0200\n\
             all               5        -\n  \
             k = 50\n"
        );
    }

    #[test]
    fn cells_serialise_as_plain_json_values() {
        let cells = vec![
            Cell::text("a"),
            Cell::Count(3),
            Cell::number(0.5, 2),
            Cell::share(0.25, 1),
            Cell::Missing,
        ];
        let json = serde_json::to_string(&cells).unwrap();
        assert_eq!(json, r#"["a",3,0.5,0.25,null]"#);
        assert_eq!(Cell::share(0.25, 1).to_string(), "25.0 %");
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(group_thousands(0), "0");
        assert_eq!(group_thousands(999), "999");
        assert_eq!(group_thousands(1000), "1,000");
        assert_eq!(group_thousands(29_983), "29,983");
        assert_eq!(group_thousands(1_940_576_399), "1,940,576,399");
    }
}
