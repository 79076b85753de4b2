//! Properties of the input accumulator over any interleaving of input events, frames and
//! updates: frames with no update and frames with ten, pauses, single steps, time-scale
//! changes, strategy switches and dropped time.

use std::time::Duration;

use looplab_timing::{
    InputAccumulator, LoopSettings, Planner, Rate, Strategy as LoopStrategy, TimeScale,
};
use proptest::prelude::*;

const BUTTONS: u8 = 3;

/// Something that happens, in real time.
#[derive(Clone, Debug)]
enum Op {
    /// After this many nanoseconds, a button goes down (true) or up (false).
    Input {
        after: u64,
        button: u8,
        down: bool,
    },
    /// After this many nanoseconds, a frame starts and runs its updates; with `preview`, it
    /// also asks for the input of a prediction before them.
    Frame {
        after: u64,
        preview: bool,
    },
    Pause,
    Scale(f64),
    SingleStep,
    Strategy(usize),
}

fn op(steps_and_drops: bool) -> impl Strategy<Value = Op> {
    let input = (0u64..60_000_000, 0..BUTTONS, any::<bool>())
        .prop_map(|(after, button, down)| Op::Input {
            after,
            button,
            down,
        })
        .boxed();
    // Frames from 0 to about twelve steps at 60 Hz, or one and a half at 10 Hz.
    let frame = (
        prop_oneof![0u64..20_000_000, 0u64..200_000_000],
        any::<bool>(),
    )
        .prop_map(|(after, preview)| Op::Frame { after, preview })
        .boxed();
    let scale = prop_oneof![Just(0.0), Just(0.5), Just(1.0), Just(2.0), 0.1f64..4.0]
        .prop_map(Op::Scale)
        .boxed();
    if steps_and_drops {
        prop_oneof![
            6 => input,
            6 => frame,
            1 => Just(Op::Pause),
            1 => scale,
            1 => Just(Op::SingleStep),
            1 => (0usize..LoopStrategy::ALL.len()).prop_map(Op::Strategy),
        ]
        .boxed()
    } else {
        prop_oneof![6 => input, 6 => frame, 1 => Just(Op::Pause), 1 => scale].boxed()
    }
}

/// What the test knows without the accumulator: the real presses and how long each button
/// was held in game time (real time between frames times the scale the frame counted).
#[derive(Default)]
struct Truth {
    /// Every real press, in order.
    presses: Vec<u8>,
    down_since: [Option<Duration>; BUTTONS as usize],
    /// Real held time not yet counted by a frame, per button.
    uncounted: [Vec<(Duration, Duration)>; BUTTONS as usize],
    /// Game time held, per button, in nanoseconds.
    held: [f64; BUTTONS as usize],
}

impl Truth {
    fn input(&mut self, now: Duration, button: u8, down: bool) {
        let b = usize::from(button);
        match (self.down_since[b], down) {
            (None, true) => {
                self.presses.push(button);
                self.down_since[b] = Some(now);
            }
            (Some(since), false) => {
                self.uncounted[b].push((since, now));
                self.down_since[b] = None;
            }
            _ => {}
        }
    }

    /// A frame at `now` counts the real time since `last` at `factor` game seconds a second.
    fn frame(&mut self, last: Option<Duration>, now: Duration, factor: f64) {
        for b in 0..usize::from(BUTTONS) {
            let mut intervals = std::mem::take(&mut self.uncounted[b]);
            if let Some(since) = self.down_since[b] {
                intervals.push((since, now));
            }
            for (from, to) in intervals {
                let from = last.map_or(now, |last| from.max(last));
                let to = to.min(now);
                if to > from {
                    self.held[b] += (to - from).as_nanos() as f64 * factor;
                }
            }
            // What lies after `now` waits for the next frame.
            if let Some(since) = self.down_since[b] {
                self.down_since[b] = Some(since.max(now));
            }
        }
    }
}

/// What the updates reported.
#[derive(Default)]
struct Seen {
    /// For each update, the presses of each button.
    presses: Vec<[u32; BUTTONS as usize]>,
    held: [Duration; BUTTONS as usize],
    frames_and_events: u64,
}

fn run(ops: &[Op], strategy: LoopStrategy, hz: f64, drops: bool) -> (Truth, Seen) {
    // Deltas as measured: the real held time is compared with game time to the nanosecond.
    let mut settings = LoopSettings::default()
        .with_delta_mode(looplab_timing::DeltaMode::Measured)
        .with_update_rate(Rate::hz(hz).unwrap())
        .with_max_updates(None)
        .unwrap()
        .with_max_frame_time(None)
        .unwrap();
    if drops {
        settings = settings
            .with_max_updates(Some(3))
            .unwrap()
            .with_max_frame_time(Some(Duration::from_millis(150)))
            .unwrap();
    }
    let mut planner = Planner::new(strategy, settings);
    let mut input = InputAccumulator::new();
    let mut truth = Truth::default();
    let mut seen = Seen::default();
    let mut now = Duration::ZERO;
    let mut last_frame = None;

    let mut frame = |planner: &mut Planner,
                     input: &mut InputAccumulator<u8>,
                     truth: &mut Truth,
                     seen: &mut Seen,
                     now: Duration,
                     preview: bool| {
        let s = planner.settings();
        let factor = if s.is_frozen() {
            0.0
        } else {
            s.time_scale.factor()
        };
        truth.frame(last_frame, now, factor);
        last_frame = Some(now);
        let plan = planner.plan_frame(now);
        input.frame(&plan);
        if preview {
            let pending = input.pending();
            input.preview(planner.overstep());
            assert_eq!(input.pending(), pending, "a preview takes nothing");
        }
        for _ in 0..plan.updates {
            let tick = input.update(plan.step);
            let mut presses = [0; BUTTONS as usize];
            for b in 0..BUTTONS {
                presses[usize::from(b)] = tick.presses(b);
                seen.held[usize::from(b)] += tick.held(b);
                assert!(tick.held(b) <= plan.step, "held longer than the span");
                assert!(!tick.just_pressed(b) || tick.is_down(b));
            }
            seen.presses.push(presses);
        }
        seen.frames_and_events += 1;
    };

    for op in ops {
        match *op {
            Op::Input {
                after,
                button,
                down,
            } => {
                now += Duration::from_nanos(after);
                truth.input(now, button, down);
                if down {
                    input.press(button, now);
                } else {
                    input.release(button, now);
                }
                seen.frames_and_events += 1;
            }
            Op::Frame { after, preview } => {
                now += Duration::from_nanos(after);
                frame(
                    &mut planner,
                    &mut input,
                    &mut truth,
                    &mut seen,
                    now,
                    preview,
                );
            }
            Op::Pause => planner.set_paused(!planner.settings().paused),
            Op::Scale(s) => planner.set_time_scale(TimeScale::new(s).unwrap()),
            Op::SingleStep => planner.single_step(),
            Op::Strategy(i) => planner.set_strategy(LoopStrategy::ALL[i]),
        }
    }
    // Let go of everything, resume at real speed, and run until every event is reported.
    now += Duration::from_millis(1);
    for b in 0..BUTTONS {
        if truth.down_since[usize::from(b)].is_some() {
            truth.input(now, b, false);
            input.release(b, now);
        }
    }
    planner.set_paused(false);
    planner.set_time_scale(TimeScale::ONE);
    for _ in 0..1000 {
        now += Duration::from_millis(50);
        frame(&mut planner, &mut input, &mut truth, &mut seen, now, false);
        if input.pending() == 0 {
            break;
        }
    }
    assert_eq!(input.pending(), 0, "every event was reported");
    (truth, seen)
}

/// Every press is reported by exactly one update, and presses are reported in the order
/// they were made.
fn presses_once_in_order(truth: &Truth, seen: &Seen) {
    // The update that reported each button's k-th press.
    let mut by_button: [Vec<usize>; BUTTONS as usize] = Default::default();
    for (update, presses) in seen.presses.iter().enumerate() {
        for b in 0..usize::from(BUTTONS) {
            for _ in 0..presses[b] {
                by_button[b].push(update);
            }
        }
    }
    let mut next = [0usize; BUTTONS as usize];
    let mut last_update = 0;
    for &b in &truth.presses {
        let b = usize::from(b);
        let update = *by_button[b]
            .get(next[b])
            .unwrap_or_else(|| panic!("press {} of button {b} never reported", next[b] + 1));
        next[b] += 1;
        assert!(
            update >= last_update,
            "a later press was reported by an earlier update"
        );
        last_update = update;
    }
    for b in 0..usize::from(BUTTONS) {
        assert_eq!(
            by_button[b].len(),
            next[b],
            "button {b}: presses reported twice"
        );
    }
}

fn strategies() -> impl Strategy<Value = LoopStrategy> {
    proptest::sample::select(LoopStrategy::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any strategy, switches, single steps, pauses, dropped and clamped time: no press is
    /// lost or reported twice, and they come in order.
    #[test]
    fn every_press_is_reported_once_in_order(
        ops in proptest::collection::vec(op(true), 1..200),
        strategy in strategies(),
        hz in prop_oneof![Just(10.0), Just(60.0), 5.0f64..240.0],
        drops in any::<bool>(),
    ) {
        let (truth, seen) = run(&ops, strategy, hz, drops);
        presses_once_in_order(&truth, &seen);
    }

    /// The strategies whose game time follows real time, through pauses and time-scale
    /// changes: what the updates report as held adds up to the real held time, scaled.
    #[test]
    fn held_time_adds_up_to_the_real_held_time_scaled(
        ops in proptest::collection::vec(op(false), 1..200),
        strategy in proptest::sample::select(
            LoopStrategy::ALL.iter().copied().filter(|s| s.follows_real_time()).collect::<Vec<_>>()
        ),
        hz in prop_oneof![Just(10.0), Just(60.0), 5.0f64..240.0],
    ) {
        let (truth, seen) = run(&ops, strategy, hz, false);
        presses_once_in_order(&truth, &seen);
        // Each frame and event may round its placement down by a nanosecond.
        let slack = 2.0 * seen.frames_and_events as f64 + 2.0;
        for b in 0..usize::from(BUTTONS) {
            let got = seen.held[b].as_nanos() as f64;
            prop_assert!(
                (got - truth.held[b]).abs() <= slack,
                "button {}: reported {} ns held, truly {} ns (slack {})",
                b, got, truth.held[b], slack
            );
        }
    }
}
