//! One call a frame: the clock read, the frame planned, its input placed and each update run
//! with the input of the game time it simulates, in the only order that works.

use core::ops::ControlFlow;
use core::time::Duration;

use crate::budget::UpdateBudget;
use crate::clock::Clock;
use crate::input::{InputAccumulator, InputEvent, UpdateInput};
use crate::plan::{FramePlan, View, Wake};
use crate::planner::Planner;
use crate::settings::LoopSettings;
use crate::strategy::Strategy;

/// A loop's clock, [`Planner`] and [`InputAccumulator`], driven with one call a frame.
/// `B` names the buttons and axes its updates read (`()` for a loop with no input).
///
/// Driven by hand, a frame is three calls that must come in order:
/// [`Planner::plan_frame`], then [`InputAccumulator::frame`], then
/// [`InputAccumulator::update`] once for each update, the sub-step included. Out of order,
/// nothing fails loudly: input lands in the wrong update, or in none. [`frame`](Self::frame)
/// makes them in order, stamps input with the loop's own clock as it arrives
/// ([`press`](Self::press)), and gives the updates a real-time budget
/// ([`UpdateBudget::DEFAULT_LIMIT`] unless [`with_update_budget`](Self::with_update_budget)
/// says otherwise), so a machine too slow for its updates lets the game slow down rather
/// than stop answering.
///
/// ```
/// use core::time::Duration;
/// use looplab_timing::{GameLoop, LoopSettings, ManualClock, Rate, Strategy};
///
/// #[derive(Clone, Copy, PartialEq)]
/// enum Button { Jump }
///
/// let settings = LoopSettings::default().with_frame_cap(Some(Rate::SIXTY_HZ));
/// // A game would use SystemClock::start(); a test moves a ManualClock.
/// let mut game = GameLoop::new(ManualClock::new(), Strategy::Interpolated, settings);
/// let (mut jumps, mut frames) = (0, 0);
/// while game.now() < Duration::from_secs(1) {
///     if frames % 20 == 5 {
///         game.press(Button::Jump); // from the window's events, as they arrive
///         game.release(Button::Jump);
///     }
///     let plan = game.frame(|input| jumps += input.presses(Button::Jump));
///     let _drawn = plan.view; // draw between the last two states here
///     frames += 1;
///     game.wait(&plan); // sleeps until the frame cap's deadline; a ManualClock moves to it
/// }
/// assert_eq!((frames, jumps), (60, 3)); // every press reached exactly one update
/// ```
#[derive(Clone, Debug)]
pub struct GameLoop<C, B = ()> {
    clock: C,
    planner: Planner,
    input: InputAccumulator<B>,
    budget: Option<Duration>,
}

impl<C: Clock, B: Copy + PartialEq> GameLoop<C, B> {
    /// A loop on `clock` running `strategy` with `settings`, its updates given
    /// [`UpdateBudget::DEFAULT_LIMIT`] of real time a frame.
    pub fn new(clock: C, strategy: Strategy, settings: LoopSettings) -> Self {
        Self {
            clock,
            planner: Planner::new(strategy, settings),
            input: InputAccumulator::new(),
            budget: Some(UpdateBudget::DEFAULT_LIMIT),
        }
    }

    /// This loop with another real-time budget for a frame's updates (`None`: all the
    /// updates planned run, however long they take).
    #[must_use]
    pub fn with_update_budget(mut self, budget: Option<Duration>) -> Self {
        self.budget = budget;
        self
    }

    /// The loop's clock now.
    pub fn now(&self) -> Duration {
        self.clock.now()
    }

    /// `button` went down now.
    pub fn press(&mut self, button: B) {
        self.push(button, InputEvent::Press, self.clock.now());
    }

    /// `button` came up now.
    pub fn release(&mut self, button: B) {
        self.push(button, InputEvent::Release, self.clock.now());
    }

    /// `axis` moved to `value` now.
    pub fn set_axis(&mut self, axis: B, value: f32) {
        self.input.set_axis(axis, value, self.clock.now());
    }

    /// An event that happened at `at` on the loop's clock, where the platform stamped it
    /// earlier than it was handed over.
    pub fn push(&mut self, id: B, event: InputEvent, at: Duration) {
        self.input.push(id, event, at);
    }

    /// Runs one frame: plans it at the clock's present, places the input that arrived
    /// since the last, and calls `update` once for each update, in order, with the input of
    /// the game time it simulates (its length is [`UpdateInput::step`]). Updates still
    /// planned when the budget is spent are given up, as [`Planner::run_updates`] does.
    /// Returns the plan: what to draw ([`FramePlan::view`]) and when to start the next
    /// frame ([`FramePlan::wake`]).
    pub fn frame(&mut self, mut update: impl FnMut(&UpdateInput<'_, B>)) -> FramePlan {
        let now = self.clock.now();
        let mut plan = self.planner.plan_frame(now);
        self.input.frame(&plan);
        let budget = self.budget.map(|limit| UpdateBudget::new(now, limit));
        let (clock, input) = (&self.clock, &mut self.input);
        let planned = plan.updates;
        self.planner.run_updates(&mut plan, |step| {
            update(&input.update(step));
            budget.map_or(ControlFlow::Continue(()), |b| b.check(clock.now()))
        });
        if plan.updates < planned {
            self.input.updates_given_up(&plan);
        }
        plan
    }

    /// Waits on the loop's clock until the plan's wake time ([`Clock::sleep_until`]); at
    /// once for [`Wake::Immediately`].
    pub fn wait(&mut self, plan: &FramePlan) {
        if let Wake::At(t) = plan.wake {
            self.clock.sleep_until(t);
        }
    }

    /// Waits until the plan's wake time to the tens of microseconds on a quiet machine:
    /// [`FrameWait::sleep_until_on`](crate::FrameWait::sleep_until_on) the loop's clock (the `spin` feature; `wait` keeps
    /// the margin it learns from one frame to the next).
    #[cfg(feature = "spin")]
    #[cfg_attr(docsrs, doc(cfg(feature = "spin")))]
    pub fn wait_precisely(&mut self, plan: &FramePlan, wait: &mut crate::wait::FrameWait)
    where
        C: crate::wait::InstantClock,
    {
        if let Wake::At(t) = plan.wake {
            wait.sleep_until_on(&self.clock, t);
        }
    }

    /// The view to draw now, some time after the frame was planned ([`Planner::view_at`]).
    pub fn view(&self) -> View {
        self.planner.view_at(self.clock.now())
    }

    /// The planner: its settings, game time and statistics.
    pub fn planner(&self) -> &Planner {
        &self.planner
    }

    /// The planner, to change strategy or settings between frames.
    pub fn planner_mut(&mut self) -> &mut Planner {
        &mut self.planner
    }

    /// The input gathered, for what is down now ([`InputAccumulator::is_down_now`]).
    pub fn input(&self) -> &InputAccumulator<B> {
        &self.input
    }

    /// The loop's clock.
    pub fn clock(&self) -> &C {
        &self.clock
    }

    /// The loop's clock, to move a [`ManualClock`](crate::ManualClock) in a test.
    pub fn clock_mut(&mut self) -> &mut C {
        &mut self.clock
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::ManualClock;
    use crate::delta::DeltaMode;
    use crate::testing::ms;
    use alloc::rc::Rc;
    use alloc::vec::Vec;
    use core::cell::Cell;

    #[derive(Clone, Copy, Debug, PartialEq)]
    enum B {
        Jump,
    }

    #[test]
    fn every_press_reaches_one_update_whatever_the_frames() {
        // Frames of 7, 16, 33, 5 and 100 ms, a press and release before every frame but
        // the fourth, two presses before the fourth: some updates see two, some frames run
        // none.
        for mode in [
            DeltaMode::Measured,
            DeltaMode::synced(),
            DeltaMode::smoothed(),
        ] {
            let settings = LoopSettings::default().with_delta_mode(mode);
            let mut game = GameLoop::new(ManualClock::new(), Strategy::CatchUp, settings);
            let (mut pressed, mut seen, mut updates) = (0, 0, 0u32);
            for frame in 0..50u64 {
                game.clock_mut()
                    .advance(ms([7, 16, 33, 5, 100][frame as usize % 5]));
                let taps = if frame % 5 == 3 { 2 } else { 1 };
                for _ in 0..taps {
                    game.press(B::Jump);
                    game.clock_mut().advance(ms(1));
                    game.release(B::Jump);
                    pressed += 1;
                }
                let plan = game.frame(|input| {
                    seen += input.presses(B::Jump);
                    updates += 1;
                });
                assert_eq!(
                    u128::from(updates),
                    game.planner().simulated().as_nanos() / plan.step.as_nanos()
                );
            }
            // The last presses wait for the next update.
            let mut tail = 0;
            game.clock_mut().advance(ms(100));
            game.frame(|input| tail += input.presses(B::Jump));
            assert_eq!(seen + tail, pressed, "{mode:?}");
        }
    }

    /// A clock the test moves from inside the updates, as their cost would.
    struct Shared(Rc<Cell<Duration>>);

    impl Clock for Shared {
        fn now(&self) -> Duration {
            self.0.get()
        }
    }

    #[test]
    fn a_spent_budget_gives_the_rest_up_and_their_input_waits() {
        let settings = LoopSettings::default()
            .with_delta_mode(DeltaMode::Measured)
            .with_max_updates(None)
            .unwrap();
        let time = Rc::new(Cell::new(Duration::ZERO));
        let mut game = GameLoop::new(Shared(time.clone()), Strategy::CatchUp, settings)
            .with_update_budget(Some(ms(50)));
        game.frame(|_| {});
        time.set(ms(201)); // twelve 16.7 ms steps owed
        let plan = game.frame(|_| time.set(time.get() + ms(20))); // each costs 20 ms
        assert_eq!(plan.updates, 3, "60 ms spent: the rest given up");
        assert_eq!(plan.skipped, plan.step * 9);
        // A press that arrives now belongs to the next update run, not to one given up.
        game.press(B::Jump);
        time.set(time.get() + ms(17));
        let mut jumps = Vec::new();
        game.frame(|input| jumps.push(input.presses(B::Jump)));
        assert_eq!(jumps.iter().sum::<u32>(), 1, "{jumps:?}");
        // With no budget, every update planned runs, however long.
        let mut game = game.with_update_budget(None);
        time.set(time.get() + ms(200));
        let plan = game.frame(|_| time.set(time.get() + ms(20)));
        assert_eq!((plan.updates, plan.skipped), (12, Duration::ZERO));
    }
}
