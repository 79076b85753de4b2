//! One world update at 10k, 100k and 1M bullets, single thread. Criterion reports the time
//! per update and the throughput in bullet-steps per second.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use looplab::world::{World, WorldConfig};

const STEP: Duration = Duration::from_nanos(16_666_667);

fn world_update(c: &mut Criterion) {
    let mut group = c.benchmark_group("world_update");
    for bullets in [10_000usize, 100_000, 1_000_000] {
        let mut world = World::new(&WorldConfig { seed: 1, bullets });
        group.throughput(Throughput::Elements(bullets as u64));
        group.bench_with_input(BenchmarkId::from_parameter(bullets), &bullets, |b, _| {
            b.iter(|| world.step(black_box(STEP)))
        });
    }
    group.finish();
}

criterion_group!(benches, world_update);
criterion_main!(benches);
