//! Throughput of the engine's hot path: rolling hash + robust winnowing over
//! 64 MiB of random text (one symbol per byte, k = 50, w = 100 as in the
//! paper's §5.1 experiment).
//!
//! Run: `cargo bench -p copyhound-fingerprint --bench winnow`

use copyhound_fingerprint::{KGramHasher, Selector, Winnowing};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

const TEXT_BYTES: usize = 64 << 20;

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
    let hasher = KGramHasher::new(50, 42);
    let mut group = c.benchmark_group("64MiB-text");
    group.throughput(Throughput::Bytes(TEXT_BYTES as u64));
    group.sample_size(10);
    let mut hashes = vec![0u64; hasher.kgram_count(text.len())];
    group.bench_function("rolling-hash", |b| {
        b.iter(|| hasher.hash_into(black_box(&text), &mut hashes));
    });
    for (name, selector) in [
        ("hash+robust-winnow", Winnowing::robust(100)),
        ("hash+winnow", Winnowing::new(100)),
    ] {
        let mut out = Vec::with_capacity(TEXT_BYTES / 40);
        group.bench_function(name, |b| {
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
