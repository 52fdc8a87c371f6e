//! Throughput of the engine's hot path: rolling hash + robust winnowing over
//! 64 MiB of random text (one symbol per byte, k = 50, w = 100 as in the
//! paper's §5.1 experiment).
//!
//! Run: `cargo bench -p copyhound-fingerprint --bench winnow`
//!
//! Group `64MiB-text` measures wall time, as usual. Group
//! `64MiB-text-cpu` measures the same work in CPU time of the benchmark
//! thread (Linux; elsewhere it falls back to wall time): on a machine shared
//! with other jobs, wall time mostly measures the other jobs. Run only that
//! group with `cargo bench -p copyhound-fingerprint --bench winnow -- cpu`.

use copyhound_fingerprint::{KGramHasher, Selector, Winnowing};
use criterion::{Bencher, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::{Duration, Instant};

const TEXT_BYTES: usize = 64 << 20;

/// Hashes per block when hashing into a reused buffer, as the winnowing
/// path does (the hashes stay in cache).
const HASH_BLOCK: usize = 16 * 1024;

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

/// CPU time consumed by this thread, where the OS reports it.
fn thread_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// Runs `work` `iters` times and returns the thread's CPU time for it (or
/// the wall time if the OS does not report CPU time).
fn cpu_timed(iters: u64, mut work: impl FnMut()) -> Duration {
    let (wall, cpu) = (Instant::now(), thread_cpu_time());
    for _ in 0..iters {
        work();
    }
    match (cpu, thread_cpu_time()) {
        (Some(start), Some(end)) => end.saturating_sub(start),
        _ => wall.elapsed(),
    }
}

/// Hashes the whole text block by block into one cache-sized buffer.
fn hash_in_blocks(hasher: &KGramHasher, text: &[u32], buf: &mut [u64]) -> u64 {
    let count = hasher.kgram_count(text.len());
    let mut done = 0;
    let mut sum = 0u64;
    while done < count {
        let n = buf.len().min(count - done);
        hasher.hash_into(&text[done..done + n + hasher.k() - 1], &mut buf[..n]);
        sum = sum.wrapping_add(buf[n / 2]);
        done += n;
    }
    sum
}

fn bench(c: &mut Criterion) {
    let text = random_text(TEXT_BYTES);
    let hasher = KGramHasher::new(50, 42);
    let mut hashes = vec![0u64; hasher.kgram_count(text.len())];
    let mut block = vec![0u64; HASH_BLOCK];
    let mut out = Vec::with_capacity(TEXT_BYTES / 40);
    let selectors = [
        ("hash+robust-winnow", Winnowing::robust(100)),
        ("hash+winnow", Winnowing::new(100)),
    ];

    let mut group = c.benchmark_group("64MiB-text");
    group.throughput(Throughput::Bytes(TEXT_BYTES as u64));
    group.sample_size(10);
    group.bench_function("rolling-hash", |b| {
        b.iter(|| hasher.hash_into(black_box(&text), &mut hashes));
    });
    group.bench_function("rolling-hash-in-cache", |b| {
        b.iter(|| hash_in_blocks(&hasher, black_box(&text), &mut block));
    });
    for (name, selector) in selectors {
        group.bench_function(name, |b| {
            b.iter(|| {
                out.clear();
                selector.fingerprint(&hasher, black_box(&text), &mut out);
                out.len()
            });
        });
    }
    group.finish();

    let mut group = c.benchmark_group("64MiB-text-cpu");
    group.throughput(Throughput::Bytes(TEXT_BYTES as u64));
    group.sample_size(10);
    group.bench_function("rolling-hash-in-cache", |b: &mut Bencher| {
        b.iter_custom(|iters| {
            cpu_timed(iters, || {
                black_box(hash_in_blocks(&hasher, black_box(&text), &mut block));
            })
        });
    });
    for (name, selector) in selectors {
        group.bench_function(name, |b: &mut Bencher| {
            b.iter_custom(|iters| {
                cpu_timed(iters, || {
                    out.clear();
                    selector.fingerprint(&hasher, black_box(&text), &mut out);
                    black_box(out.len());
                })
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
