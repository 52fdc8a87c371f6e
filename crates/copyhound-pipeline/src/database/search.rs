//! Searching one document: the database's ranked matches, and the passages
//! it shares with the best of them whose text is at hand (exact fragments
//! merged into passages as `compare` reports them). One result type,
//! whose JSON the command line (`db search --json`) and the server
//! (`POST /api/search`) both print.

use std::io::{self, Write};

use copyhound_db::{DocId, MatchBucket, SearchOptions};
use copyhound_index::LocatedPassage;
use copyhound_report::terminal_safe;
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use super::{DatabaseError, DocumentDatabase, PreparedDocument};

/// What a search asks for besides the document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchRequest {
    /// Which matches.
    pub options: SearchOptions,
    /// Passages for this many of the best matches.
    pub fragments: usize,
    /// Return the query's text (which passage offsets index into).
    pub include_text: bool,
}

impl Default for SearchRequest {
    /// 20 matches with at least one hit, passages for the best 3, no text.
    fn default() -> Self {
        Self {
            options: SearchOptions::default(),
            fragments: 3,
            include_text: false,
        }
    }
}

/// The answer to a search.
#[derive(Clone, Debug, Serialize)]
pub struct SearchResult {
    /// The name the query was loaded under.
    pub query_name: String,
    /// Distinct keys of the query's fingerprint.
    pub query_keys: usize,
    /// Common keys left out of the count.
    pub ignored_common_keys: usize,
    /// Matched documents per ratio range (before the limit).
    pub distribution: Vec<BucketCount>,
    /// The best matches, best first.
    pub matches: Vec<SearchHit>,
    /// The query's decoded text, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query_text: Option<String>,
    /// What loading the query noticed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// Documents in one ratio range.
#[derive(Clone, Debug, Serialize)]
pub struct BucketCount {
    /// The range, as in Heintze's Table 1.
    pub range: &'static str,
    /// Documents in it.
    pub documents: u64,
}

/// One registered document that matches the query.
#[derive(Clone, Debug, Serialize)]
pub struct SearchHit {
    /// Its id.
    pub id: DocId,
    /// Title.
    pub title: String,
    /// URL or path.
    pub location: String,
    /// Contact address.
    pub email: String,
    /// hits / its stored size (Koala's match ratio).
    pub ratio: f64,
    /// hits / the query's size.
    pub query_ratio: f64,
    /// Query keys found in its stored fingerprint.
    pub hits: u32,
    /// Its stored fingerprint size.
    pub stored: u32,
    /// The ratio range.
    pub bucket: &'static str,
    /// Passages shared with the query (the query is the first side);
    /// `null` when its text is not available or passages were not asked
    /// for at this rank.
    #[serde(serialize_with = "passages_json")]
    pub fragments: Option<Vec<LocatedPassage>>,
}

impl DocumentDatabase {
    /// Searches `query`, loaded as `query_name`, and locates the passages
    /// it shares with the best `request.fragments` matches.
    pub fn search(
        &self,
        query_name: &str,
        query: PreparedDocument,
        request: &SearchRequest,
    ) -> Result<SearchResult, DatabaseError> {
        let report = self.db.search(&query.print, &request.options)?;
        let mode = self.params().mode;
        let loaded = query.loaded;
        let matches = report
            .matches
            .iter()
            .enumerate()
            .map(|(rank, m)| SearchHit {
                id: m.document.id,
                title: m.document.meta.title.clone(),
                location: m.document.meta.location.clone(),
                email: m.document.meta.email.clone(),
                ratio: m.ratio,
                query_ratio: m.query_ratio,
                hits: m.hits,
                stored: m.document.stored,
                bucket: MatchBucket::of(m.score(mode)).label(),
                fragments: (rank < request.fragments)
                    .then(|| self.registered_text(&m.document))
                    .flatten()
                    .map(|registered| {
                        self.db.fingerprinter().shared_passages(
                            (&loaded.doc, &loaded.text),
                            (&registered.doc, &registered.text),
                        )
                    }),
            })
            .collect();
        Ok(SearchResult {
            query_name: query_name.to_owned(),
            query_keys: report.query_keys,
            ignored_common_keys: report.ignored.len(),
            distribution: MatchBucket::ALL
                .iter()
                .zip(report.distribution)
                .map(|(bucket, documents)| BucketCount {
                    range: bucket.label(),
                    documents,
                })
                .collect(),
            matches,
            query_text: request.include_text.then_some(loaded.text),
            warnings: loaded.warnings,
        })
    }
}

impl SearchResult {
    /// The result as `copyhound db search` prints it: counts, the ratio
    /// distribution, one line per match and one per passage.
    pub fn write_text(&self, out: &mut impl Write) -> io::Result<()> {
        let result = self;
        writeln!(
            out,
            "{}: {} hashes searched, {} common ones ignored",
            terminal_safe(&result.query_name),
            result.query_keys,
            result.ignored_common_keys
        )?;
        let distribution: Vec<String> = result
            .distribution
            .iter()
            .filter(|b| b.documents > 0)
            .map(|b| format!("{} {}", b.range, b.documents))
            .collect();
        if result.matches.is_empty() {
            return writeln!(out, "no match");
        }
        writeln!(out, "matches by ratio: {}", distribution.join(", "))?;
        writeln!(out, "{:>6} {:>7} {:>9}  document", "id", "ratio", "hits")?;
        for m in &result.matches {
            writeln!(
                out,
                "{:>6} {:>6.1}% {:>4}/{:<4}  {} ({})",
                m.id,
                m.ratio * 100.0,
                m.hits,
                m.stored,
                terminal_safe(&m.title),
                terminal_safe(&m.location)
            )?;
            for f in m.fragments.iter().flatten() {
                writeln!(
                    out,
                    "{:>24}query lines {}-{} ~ registered lines {}-{} ({} symbols)",
                    "", f.a_lines[0], f.a_lines[1], f.b_lines[0], f.b_lines[1], f.symbols
                )?;
            }
        }
        Ok(())
    }
}

/// Passages as the search JSON names their sides: the query and the
/// registered document.
#[expect(
    clippy::ref_option,
    reason = "serde's serialize_with passes the field by reference"
)]
fn passages_json<S: Serializer>(
    passages: &Option<Vec<LocatedPassage>>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    struct Passage<'a>(&'a LocatedPassage);
    impl Serialize for Passage<'_> {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let mut passage = serializer.serialize_struct("Passage", 5)?;
            passage.serialize_field("query_bytes", &self.0.a_bytes)?;
            passage.serialize_field("query_lines", &self.0.a_lines)?;
            passage.serialize_field("registered_bytes", &self.0.b_bytes)?;
            passage.serialize_field("registered_lines", &self.0.b_lines)?;
            passage.serialize_field("symbols", &self.0.symbols)?;
            passage.end()
        }
    }
    passages
        .as_ref()
        .map(|passages| passages.iter().map(Passage).collect::<Vec<_>>())
        .serialize(serializer)
}
