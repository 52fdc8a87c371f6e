//! The batch comparison on a synthetic class: units of random token
//! streams where every tenth unit copies large parts of another, timed
//! end to end (index, candidate pairs, fragments, scores).

use copyhound_fingerprint::{KGramHasher, NormalizedDocument, Scheme, Winnowing};
use copyhound_index::{BaseCode, CompareOptions, Document, Unit, compare};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// A small deterministic generator, so every run sees the same batch.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) as u32
    }
}

/// `units` units of `len` symbols over a 60-token alphabet (like code at
/// the rename level); unit `i` with `i % 10 == 1` copies half of unit
/// `i - 1`.
fn batch(units: usize, len: usize, scheme: &Scheme) -> Vec<Unit> {
    let mut rng = Rng(7);
    let streams: Vec<Vec<u32>> = (0..units)
        .map(|_| (0..len).map(|_| rng.next() % 60).collect())
        .collect();
    streams
        .iter()
        .enumerate()
        .map(|(i, stream)| {
            let mut symbols = stream.clone();
            if i % 10 == 1 {
                symbols[len / 4..3 * len / 4]
                    .copy_from_slice(&streams[i - 1][len / 4..3 * len / 4]);
            }
            let mut doc = NormalizedDocument::new();
            for (at, &s) in symbols.iter().enumerate() {
                doc.push(s, at * 4..at * 4 + 3);
            }
            let document = Document::fingerprinted(format!("u{i}.py"), doc, scheme);
            Unit::new(format!("u{i}"), vec![document])
        })
        .collect()
}

fn bench_compare(c: &mut Criterion) {
    let scheme = Scheme::new(KGramHasher::new(15, 1), Winnowing::robust(10));
    let mut group = c.benchmark_group("compare");
    group.sample_size(10);
    for units in [200, 1000] {
        let batch = batch(units, 2000, &scheme);
        let options = CompareOptions::new(scheme.clone());
        group.throughput(Throughput::Elements(units as u64));
        group.bench_function(format!("{units} units of 2000 tokens"), |b| {
            b.iter(|| compare(&batch, &BaseCode::none(), &options).unwrap());
        });
    }
    group.finish();
}

criterion_group!(benches, bench_compare);
criterion_main!(benches);
