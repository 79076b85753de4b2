//! A complete game loop with no window: 60 updates a second, drawn interpolated at a 60 FPS
//! cap, for two seconds of real time. Half-way it pauses and runs three single steps, then
//! resumes; then, at 1.25 s, a frame hitches for half a second and the loop resyncs instead of racing
//! to catch up.
//!
//! ```text
//! cargo run -p looplab-timing --example headless_loop
//! ```
//!
//! Needs nothing but the crate and `std`. The Looplab repository's `looplab-winit` crate runs
//! the same loop in a winit window (its `square` example draws with wgpu).

use std::time::Duration;

use looplab_timing::{
    FrameStats, Interpolated, LoopSettings, Planner, Rate, Strategy, SystemClock, Wake,
};

/// The world: one ball bouncing between 0 and 100 at 60 units a second.
#[derive(Clone, Copy)]
struct Ball {
    x: f32,
    velocity: f32,
}

impl Ball {
    fn update(self, step: Duration) -> Ball {
        let mut next = self;
        next.x += next.velocity * step.as_secs_f32();
        if !(0.0..=100.0).contains(&next.x) {
            next.velocity = -next.velocity;
            next.x = next.x.clamp(0.0, 100.0);
        }
        next
    }
}

/// What happens to the loop from outside.
enum Scripted {
    PauseAndStepThrice,
    Resume,
    Hitch,
}

fn main() {
    let settings = LoopSettings::default()
        .with_update_rate(Rate::SIXTY_HZ)
        .with_frame_cap(Some(Rate::SIXTY_HZ))
        // A frame over a quarter of a second is a hitch: resync, do not burst.
        .with_resync_after(Some(Duration::from_millis(250)))
        .unwrap();
    let mut planner = Planner::new(Strategy::Interpolated, settings);
    let clock = SystemClock::start();
    let mut ball = Interpolated::new(Ball {
        x: 0.0,
        velocity: 60.0,
    });
    let mut stats = FrameStats::default();
    let mut next_report = Duration::ZERO;
    let ms = Duration::from_millis;
    let mut script = vec![
        (ms(750), Scripted::PauseAndStepThrice),
        (ms(1000), Scripted::Resume),
        (ms(1250), Scripted::Hitch),
    ];

    loop {
        let now = clock.now();
        if now >= Duration::from_secs(2) {
            break;
        }
        let plan = planner.plan_frame(now);
        for _ in 0..plan.updates {
            ball.update(|b| b.update(plan.step));
        }
        stats.record_plan(&plan);

        // "Draw": where the frame's view puts the ball, between its last two states.
        let drawn = plan.view.lerp(ball.previous().x, ball.current().x);
        if plan.hitch {
            println!(
                "{:>6.3} s  hitch of {:?}: resynced, no burst",
                now.as_secs_f32(),
                plan.clamped
            );
        }
        if now >= next_report {
            let s = stats.summary();
            println!(
                "{:>6.3} s  ball drawn at {drawn:>5.1}  game time {:>6.3} s  {:>3.0} FPS  {:>3.0} UPS{}",
                now.as_secs_f32(),
                plan.game_now.as_secs_f32(),
                s.fps,
                s.ups,
                if planner.settings().paused {
                    "  (paused)"
                } else {
                    ""
                },
            );
            while next_report <= now {
                next_report += Duration::from_millis(250);
            }
        }

        // Input, scripted: what a player (or a level load) does, and when.
        if script.first().is_some_and(|(at, _)| now >= *at) {
            match script.remove(0).1 {
                Scripted::PauseAndStepThrice => {
                    planner.set_paused(true);
                    for _ in 0..3 {
                        planner.single_step();
                    }
                }
                Scripted::Resume => planner.set_paused(false),
                Scripted::Hitch => std::thread::sleep(Duration::from_millis(500)),
            }
        }

        if let Wake::At(t) = plan.wake {
            clock.sleep_until(t);
        }
    }
    println!(
        "game time {:.3} s in {:.3} s of real time: 0.25 s paused (three single steps ran) and 0.5 s hitched",
        planner.game_now().as_secs_f32(),
        clock.now().as_secs_f32()
    );
}
