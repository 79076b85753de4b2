//! The swapchain, modelled: the images between the loop and the display, and where a frame
//! waits for one.
//!
//! A swapchain of `latency + 1` images (wgpu asks the driver for that many) is shared by
//! three parties: the loop draws into one, the GPU finishes the frames submitted to it one
//! after another, and the display holds the image it shows and those queued to be shown.
//! A loop that runs ahead of the display fills the queue, and then acquiring the next image
//! blocks until the display lets one go: that is back-pressure, and every frame drawn
//! after it waits out the frames ahead of it. The model follows Mesa's non-blocking
//! presents (X11's DRI3 and Wayland's newer WSI): the present returns at once, and the wait
//! is in the next acquire.
//!
//! - an image comes back when the frame after it is shown (it left the screen), or, under
//!   mailbox, when a newer frame replaces it before it was shown;
//! - FIFO shows one frame a refresh, in order; FIFO relaxed shows a late frame at once;
//!   mailbox shows the newest frame done by each refresh; immediate shows a frame when the
//!   GPU finishes it.

use std::time::Duration;

use serde::Serialize;

use crate::session::present::PresentMode;

/// A profile's swapchain: its present mode and frame latency.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SwapchainSpec {
    #[serde(serialize_with = "serialize_mode")]
    pub mode: PresentMode,
    /// Frames that may wait between the loop and the display: 1 to 3.
    pub latency: u32,
}

fn serialize_mode<S: serde::Serializer>(m: &PresentMode, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(m.id())
}

impl SwapchainSpec {
    /// Images in the swapchain.
    pub fn images(&self) -> usize {
        self.latency as usize + 1
    }
}

/// When one frame's GPU work ended and when the display showed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flight {
    pub gpu_end: Duration,
    pub shown: Duration,
}

/// A swapchain in use: the GPU's queue and when each image is free again.
#[derive(Clone, Debug)]
pub struct Swapchain {
    spec: SwapchainSpec,
    period: Duration,
    /// A refresh of the display.
    origin: Duration,
    /// When the GPU is done with every frame submitted so far (it works one at a time).
    gpu_free: Duration,
    /// When each image comes back to the loop; `None` while that is not known yet (the
    /// image is being drawn, or holds the newest frame, whose release waits on the next).
    free_at: Vec<Option<Duration>>,
    /// The image the loop draws into now.
    drawing: usize,
    /// The newest presented frame and its image.
    newest: Option<(usize, Flight)>,
}

impl Swapchain {
    /// A swapchain of `spec` on a display refreshing every `period`, one refresh at
    /// `origin`.
    pub fn new(spec: SwapchainSpec, period: Duration, origin: Duration) -> Self {
        Self {
            spec,
            period,
            origin,
            gpu_free: origin,
            free_at: vec![Some(origin); spec.images()],
            drawing: 0,
            newest: None,
        }
    }

    pub fn spec(&self) -> SwapchainSpec {
        self.spec
    }

    /// When the loop, asking for an image at `asked`, gets one: the image that comes back
    /// first, once it has (an image comes back only after its frame's GPU work is done,
    /// which wgpu also waits for).
    pub fn acquire(&mut self, asked: Duration) -> Duration {
        let (image, free) = self
            .free_at
            .iter()
            .enumerate()
            .filter_map(|(i, t)| t.map(|t| (i, t)))
            .min_by_key(|&(_, t)| t)
            .unwrap_or((self.drawing, asked));
        self.drawing = image;
        self.free_at[image] = None;
        asked.max(free)
    }

    /// The frame drawn since the last acquire, submitted at `submitted` with GPU work of
    /// `gpu`: when the GPU finishes it and when the display shows it.
    pub fn present(&mut self, submitted: Duration, gpu: Duration) -> Flight {
        let gpu_end = submitted.max(self.gpu_free) + gpu;
        self.gpu_free = gpu_end;
        let next = self.newest.map(|(_, f)| f.shown + self.period);
        let on_grid = refresh_at_or_after(self.origin, self.period, gpu_end);
        let shown = match (self.spec.mode, next) {
            (PresentMode::Immediate, _) => gpu_end,
            (PresentMode::Mailbox, _) | (PresentMode::Fifo | PresentMode::FifoRelaxed, None) => {
                on_grid
            }
            (PresentMode::FifoRelaxed, Some(next)) if gpu_end > next => gpu_end,
            (PresentMode::Fifo | PresentMode::FifoRelaxed, Some(next)) => on_grid.max(next),
        };
        let flight = Flight { gpu_end, shown };
        if let Some((image, before)) = self.newest.replace((self.drawing, flight)) {
            self.free_at[image] = Some(if flight.shown == before.shown {
                // Replaced in the mailbox before a refresh showed it.
                flight.gpu_end
            } else {
                // Off the screen once this one is on it.
                flight.shown
            });
        }
        flight
    }
}

/// The first refresh at or after `t` of a display refreshing every `period` from `origin`.
pub fn refresh_at_or_after(origin: Duration, period: Duration, t: Duration) -> Duration {
    let period = period.as_nanos().max(1);
    let since = t.saturating_sub(origin).as_nanos();
    let vblank = since.div_ceil(period) * period;
    origin + Duration::from_nanos(u64::try_from(vblank).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PERIOD: Duration = Duration::from_nanos(16_666_667);

    fn ms(x: f64) -> Duration {
        Duration::from_secs_f64(x / 1e3)
    }

    /// A loop that starts each frame as soon as the last present returned, spending `cpu`
    /// on the CPU and `gpu` on the GPU: each frame's start, wait in acquire and showing,
    /// from frame 60 on (the steady state).
    fn steady(
        mode: PresentMode,
        latency: u32,
        cpu: f64,
        gpu: f64,
    ) -> Vec<(Duration, Duration, Duration)> {
        let mut chain = Swapchain::new(SwapchainSpec { mode, latency }, PERIOD, Duration::ZERO);
        let mut start = Duration::ZERO;
        let mut out = Vec::new();
        for _ in 0..120 {
            let acquired = chain.acquire(start);
            let submitted = acquired + ms(cpu);
            let flight = chain.present(submitted, ms(gpu));
            out.push((start, acquired - start, flight.shown));
            start = submitted;
        }
        out.split_off(60)
    }

    #[test]
    fn a_fast_loop_under_fifo_fills_the_queue_and_waits_a_refresh_per_frame_in_flight() {
        for latency in 1..=3 {
            let frames = steady(PresentMode::Fifo, latency, 2.0, 2.0);
            for w in frames.windows(2) {
                assert_eq!(w[1].2 - w[0].2, PERIOD, "one frame a refresh");
            }
            for &(start, waited, shown) in &frames {
                // Blocked in acquire for most of a refresh; the input read at the start is
                // shown (latency + 1) refreshes later, less the frame's CPU time.
                assert!(waited > ms(12.0), "latency {latency}: {waited:?}");
                let delay = (shown - start).as_secs_f64() * 1e3;
                let expected = f64::from(latency + 1) * 16.667 - 2.0;
                assert!(
                    (delay - expected).abs() < 0.01,
                    "latency {latency}: {delay}"
                );
            }
        }
    }

    #[test]
    fn mailbox_drops_the_frames_a_refresh_cannot_show_and_never_blocks_a_slow_display() {
        let frames = steady(PresentMode::Mailbox, 3, 2.0, 1.0);
        assert!(
            frames.iter().all(|f| f.1.is_zero()),
            "never waits with 4 images"
        );
        let distinct = frames.windows(2).filter(|w| w[1].2 != w[0].2).count();
        // Eight frames a refresh, one of them shown.
        assert!(
            distinct * 7 < frames.len(),
            "{distinct} of {}",
            frames.len()
        );
        for &(start, _, shown) in &frames {
            assert!(shown - start < ms(20.0), "{:?}", shown - start);
        }
        // With two images (latency 1) one is on the screen and one waits to be: the loop
        // can draw a frame only once a refresh takes the waiting one.
        let two = steady(PresentMode::Mailbox, 1, 2.0, 1.0);
        for w in two.windows(2) {
            assert_eq!(w[1].2 - w[0].2, PERIOD);
        }
    }

    #[test]
    fn immediate_shows_when_the_gpu_finishes_and_a_slow_gpu_holds_the_cpu_back() {
        let frames = steady(PresentMode::Immediate, 2, 5.0, 20.0);
        for w in frames.windows(2) {
            assert_eq!(w[1].2 - w[0].2, ms(20.0), "GPU-bound: one frame per 20 ms");
        }
        // The CPU runs two frames ahead and then waits on the GPU.
        assert!(frames.iter().all(|f| f.1 >= ms(14.9)), "{:?}", frames[0]);
    }

    #[test]
    fn relaxed_tears_a_late_frame_in_where_fifo_waits_for_the_next_refresh() {
        let late = |mode| {
            let mut chain =
                Swapchain::new(SwapchainSpec { mode, latency: 2 }, PERIOD, Duration::ZERO);
            let first = chain.present(ms(1.0), ms(1.0));
            // 20 ms after the first is shown: past the refresh after it.
            chain.present(first.shown + ms(20.0), ms(1.0)).shown - first.shown
        };
        assert_eq!(late(PresentMode::FifoRelaxed), ms(21.0));
        assert_eq!(late(PresentMode::Fifo), PERIOD * 2);
    }
}
