//! Writing the JSON report of a large batch: 20,000 pairs without details
//! (about 12 MB, like a class of 200 submissions in five variants), by
//! the report's writer and by `serde_json::to_writer_pretty` on one
//! thread, which writes the same bytes.

use copyhound_report::{PairReport, PairSide, Report, SCHEMA_VERSION, Summary, Tool, write_json};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// The `i`-th of `n` values spread over `0..n` in a scrambled order, so
/// that every run sees the same report and neighbouring pairs differ.
fn spread(i: usize, n: usize) -> usize {
    i.wrapping_mul(7919) % n
}

/// A share in `[0, 1)` with as many digits as a ratio of counts has.
fn share(i: usize) -> f64 {
    spread(i, 9973) as f64 / 9973.0
}

fn side(i: usize) -> PairSide {
    let unit = spread(i, 200);
    PairSide {
        unit,
        path: format!("gpt{}-subm{unit}", unit % 17),
        coverage: share(i + 1),
        line_coverage: Some(share(i + 2)),
        covered_symbols: spread(i, 2000),
        covered_lines: Some(spread(i, 200)),
    }
}

fn report(pairs: usize) -> Report {
    let pairs = (0..pairs)
        .map(|i| PairReport {
            similarity: share(i),
            a: side(i),
            b: side(i + 3),
            shared_fingerprints: spread(i, 500),
            longest_fragment: spread(i, 900),
            total_overlap: spread(i, 2000),
            fragment_count: spread(i, 30),
            fragments: None,
            passages: None,
        })
        .collect();
    Report {
        schema_version: SCHEMA_VERSION,
        tool: Tool {
            name: "copyhound".into(),
            version: "bench".into(),
        },
        parameters: copyhound_report::Parameters::default(),
        summary: Summary::default(),
        units: Vec::new(),
        pairs,
        problems: Vec::new(),
    }
}

fn bench_json(c: &mut Criterion) {
    let report = report(20_000);
    let mut out = Vec::new();
    write_json(&report, &mut out).unwrap();
    let mut group = c.benchmark_group("json");
    group.sample_size(20);
    group.throughput(Throughput::Bytes(out.len() as u64));
    group.bench_function("write_json, 20000 pairs", |b| {
        b.iter(|| {
            out.clear();
            write_json(&report, &mut out).unwrap();
        });
    });
    group.bench_function("serde_json::to_writer_pretty, 20000 pairs", |b| {
        b.iter(|| {
            out.clear();
            serde_json::to_writer_pretty(&mut out, &report).unwrap();
        });
    });
    group.finish();
}

criterion_group!(benches, bench_json);
criterion_main!(benches);
