//! A test hook, kept out of the renderer: `--surface-faults N` makes every N-th frame meet a
//! surface that is outdated, then lost, alternately, and go through the renderer's real
//! recovery, so the end-to-end tests can prove the window survives both.

use crate::render::SurfaceTrouble;

/// Which frames meet a simulated surface fault.
#[derive(Clone, Copy, Debug)]
pub struct SurfaceFaults {
    every: u64,
    frames: u64,
}

impl SurfaceFaults {
    /// A fault every `every` frames (at least every frame).
    pub fn every(every: u32) -> Self {
        Self {
            every: u64::from(every.max(1)),
            frames: 0,
        }
    }

    /// Counts a frame; the trouble it meets, if it is one of the chosen frames.
    pub fn next_frame(&mut self) -> Option<SurfaceTrouble> {
        self.frames += 1;
        if !self.frames.is_multiple_of(self.every) {
            return None;
        }
        Some(if (self.frames / self.every) % 2 == 1 {
            SurfaceTrouble::Outdated
        } else {
            SurfaceTrouble::Lost
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_nth_frame_alternates_outdated_and_lost() {
        let mut f = SurfaceFaults::every(3);
        let seen: Vec<_> = (0..12).map(|_| f.next_frame()).collect();
        let faults: Vec<(usize, SurfaceTrouble)> = seen
            .iter()
            .enumerate()
            .filter_map(|(i, t)| t.map(|t| (i + 1, t)))
            .collect();
        assert_eq!(
            faults,
            [
                (3, SurfaceTrouble::Outdated),
                (6, SurfaceTrouble::Lost),
                (9, SurfaceTrouble::Outdated),
                (12, SurfaceTrouble::Lost),
            ]
        );
    }
}
