//! One planner decision (`plan_frame`) per strategy, with time advancing 7 ms a frame so the
//! accumulator strategies alternate between zero and one update as in a real loop.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use looplab_timing::{LoopSettings, Planner, Rate, Strategy};

fn plan_frame(c: &mut Criterion) {
    let mut group = c.benchmark_group("plan_frame");
    for strategy in Strategy::ALL {
        let settings = LoopSettings::default().with_frame_cap(Rate::hz(144.0).ok());
        let mut planner = Planner::new(strategy, settings);
        let mut now = Duration::ZERO;
        group.bench_function(BenchmarkId::from_parameter(strategy.id()), |b| {
            b.iter(|| {
                now += Duration::from_millis(7);
                black_box(planner.plan_frame(black_box(now)))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, plan_frame);
criterion_main!(benches);
