//! Throughput of Koala's selection and Ganguly and Veda's sketch, hashing
//! included, on one 1 MiB document of random text (one symbol per byte,
//! k = 20 as Koala's α; the sketch's W = 100).
//!
//! Run: `cargo bench -p copyhound-fingerprint --bench selectors`

use copyhound_fingerprint::{
    KGramHasher, KoalaParams, KoalaSelector, Selector, Sketch, SketchBudget, SketchParams,
};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

const TEXT_BYTES: usize = 1 << 20;

fn random_text(len: usize) -> Vec<u32> {
    let mut state = 0x5EED_u64;
    (0..len)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            u32::from(b"abcdefghijklmnopqrstuvwxyz "[((state >> 33) % 27) as usize])
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let text = random_text(TEXT_BYTES);
    let hasher = KGramHasher::new(20, 42);
    let selectors: [(&str, Box<dyn Selector>); 4] = [
        (
            "koala",
            Box::new(KoalaSelector::new(KoalaParams::default())),
        ),
        (
            // s large enough that the paper's plan keeps a real sample
            // (k >= 2) on 1 MiB.
            "sketch-paper-s=131072",
            Box::new(Sketch::new(SketchParams {
                budget: SketchBudget::SampleSize(131_072),
                ..SketchParams::default()
            })),
        ),
        (
            // The default s is too small for 1 MiB: k = 1, full fingerprinting.
            "sketch-paper-default",
            Box::new(Sketch::new(SketchParams::default())),
        ),
        (
            "sketch-total-S=1000",
            Box::new(Sketch::with_total_size(1000, SketchParams::default())),
        ),
    ];
    let mut group = c.benchmark_group("1MiB-text");
    group.throughput(Throughput::Bytes(TEXT_BYTES as u64));
    group.sample_size(10);
    for (name, selector) in &selectors {
        let mut out = Vec::new();
        group.bench_function(format!("hash+{name}"), |b| {
            b.iter(|| {
                out.clear();
                selector.fingerprint(&hasher, black_box(&text), &mut out);
                out.len()
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
