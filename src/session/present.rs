//! The swapchain's queue, named once for the window and the lab: how presents reach the
//! display (the present mode) and how many frames may wait between the loop and the
//! display (the frame latency).
//!
//! These are the names the overlay, `--stats`, the lab's profiles and its tables print, so
//! a figure read in one place can be looked up in another.

use std::fmt;

use crate::text::value_error::ValueError;

/// How a presented frame reaches the display (Vulkan's and wgpu's present modes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PresentMode {
    /// First in, first out: one frame shown per refresh, in order. The queue fills when the
    /// loop is faster than the display, and acquiring an image then waits.
    Fifo,
    /// As FIFO, but a frame that comes after the refresh it was due for is shown at once
    /// (it tears) instead of waiting for the next.
    FifoRelaxed,
    /// The newest finished frame is shown at each refresh; older waiting ones are dropped.
    Mailbox,
    /// Shown the moment it is finished, tearing, with no wait for a refresh.
    Immediate,
}

impl PresentMode {
    /// Every mode, in the order the window's V key steps through them.
    pub const ALL: [PresentMode; 4] = [
        PresentMode::Fifo,
        PresentMode::FifoRelaxed,
        PresentMode::Mailbox,
        PresentMode::Immediate,
    ];

    /// The mode's name in options, profiles and reports.
    pub fn id(self) -> &'static str {
        match self {
            PresentMode::Fifo => "fifo",
            PresentMode::FifoRelaxed => "relaxed",
            PresentMode::Mailbox => "mailbox",
            PresentMode::Immediate => "immediate",
        }
    }

    /// The mode named `id`, or a refusal that lists them.
    pub fn parse(id: &str) -> Result<PresentMode, ValueError> {
        Self::ALL.into_iter().find(|m| m.id() == id).ok_or_else(|| {
            ValueError::not(
                id,
                "a present mode (use fifo, relaxed, mailbox or immediate)",
            )
        })
    }

    /// The order the window's V key steps through them: vsync first, then the modes
    /// without it, so that one press from vsync turns it off.
    pub const STEPS: [PresentMode; 4] = [
        PresentMode::Fifo,
        PresentMode::Immediate,
        PresentMode::Mailbox,
        PresentMode::FifoRelaxed,
    ];

    /// The mode `--vsync on` or `off` asks for.
    pub fn for_vsync(on: bool) -> PresentMode {
        if on {
            PresentMode::Fifo
        } else {
            PresentMode::Immediate
        }
    }

    /// Whether presents wait for the display, so that it paces a loop that runs faster:
    /// vsync.
    pub fn paces(self) -> bool {
        matches!(self, PresentMode::Fifo | PresentMode::FifoRelaxed)
    }

    /// The mode after this one in [`PresentMode::STEPS`] among those `offered` (every
    /// mode where nothing is said of what is offered).
    pub fn next_offered(self, offered: &[PresentMode]) -> PresentMode {
        let at = Self::STEPS.iter().position(|&m| m == self).unwrap_or(0);
        (1..=Self::STEPS.len())
            .map(|k| Self::STEPS[(at + k) % Self::STEPS.len()])
            .find(|m| offered.is_empty() || offered.contains(m))
            .unwrap_or(self)
    }

    /// This mode where it is offered, else the nearest that is: immediate and mailbox
    /// stand in for each other (neither paces the loop), and FIFO, which every surface
    /// offers, for the rest.
    pub fn or_offered(self, offered: &[PresentMode]) -> PresentMode {
        let nearest: &[PresentMode] = match self {
            PresentMode::Immediate => &[PresentMode::Immediate, PresentMode::Mailbox],
            PresentMode::Mailbox => &[PresentMode::Mailbox, PresentMode::Immediate],
            other => &[other, PresentMode::Fifo],
        };
        nearest
            .iter()
            .copied()
            .find(|m| offered.is_empty() || offered.contains(m))
            .unwrap_or(PresentMode::Fifo)
    }
}

impl fmt::Display for PresentMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// Frames that may be queued between the loop and the display (wgpu's
/// `desired_maximum_frame_latency`): the least and the most the window and the lab offer.
pub const LATENCIES: std::ops::RangeInclusive<u32> = 1..=3;

/// The frame latency wgpu uses where nobody chose one.
pub const DEFAULT_LATENCY: u32 = 2;

/// Parses a frame latency from 1 to 3.
pub fn parse_latency(text: &str) -> Result<u32, ValueError> {
    text.parse::<u32>()
        .ok()
        .filter(|n| LATENCIES.contains(n))
        .ok_or_else(|| ValueError::not(text, "a frame latency (use 1, 2 or 3)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_and_latencies_read_back_what_they_print() {
        for mode in PresentMode::ALL {
            assert_eq!(PresentMode::parse(&mode.to_string()), Ok(mode));
        }
        assert!(
            PresentMode::parse("vsync")
                .unwrap_err()
                .to_string()
                .contains("fifo, relaxed")
        );
        assert_eq!(parse_latency("3"), Ok(3));
        assert!(parse_latency("0").is_err() && parse_latency("4").is_err());
    }

    #[test]
    fn v_steps_through_the_offered_modes_and_a_missing_one_falls_back() {
        use PresentMode::*;
        // lavapipe under Xvfb offers all four; Mesa's Wayland WSI mailbox and FIFO only.
        let all = [Immediate, Mailbox, Fifo, FifoRelaxed];
        let mut seen = vec![Fifo];
        while seen.len() < 5 {
            seen.push(seen.last().unwrap().next_offered(&all));
        }
        assert_eq!(seen, [Fifo, Immediate, Mailbox, FifoRelaxed, Fifo]);
        assert_eq!(Fifo.next_offered(&[Mailbox, Fifo]), Mailbox);
        assert_eq!(Mailbox.next_offered(&[Mailbox, Fifo]), Fifo);
        assert_eq!(Immediate.or_offered(&[Mailbox, Fifo]), Mailbox);
        assert_eq!(FifoRelaxed.or_offered(&[Mailbox, Fifo]), Fifo);
        assert_eq!(Mailbox.or_offered(&[Fifo]), Fifo);
        assert!(PresentMode::for_vsync(true).paces() && !PresentMode::for_vsync(false).paces());
    }
}
