//! `--surface-faults N`: every N-th surface texture the renderer asks for comes back
//! outdated, then lost, alternately, in place of the real answer. It is applied where the
//! texture is acquired, so the renderer's real handling of those answers (reconfigure,
//! recreate, skip the frame) is what runs, and the end-to-end tests prove the window
//! survives both.

/// A surface answer the hook stands in for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SurfaceFault {
    /// The surface no longer matches the window.
    Outdated,
    /// The surface is gone.
    Lost,
}

impl SurfaceFault {
    /// The answer wgpu would have given.
    pub fn as_acquired(self) -> wgpu::CurrentSurfaceTexture {
        match self {
            SurfaceFault::Outdated => wgpu::CurrentSurfaceTexture::Outdated,
            SurfaceFault::Lost => wgpu::CurrentSurfaceTexture::Lost,
        }
    }
}

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

    /// Counts an acquired surface texture; the fault that stands in for it, if it is one of
    /// the chosen ones.
    pub fn next_frame(&mut self) -> Option<SurfaceFault> {
        self.frames += 1;
        if !self.frames.is_multiple_of(self.every) {
            return None;
        }
        Some(if (self.frames / self.every) % 2 == 1 {
            SurfaceFault::Outdated
        } else {
            SurfaceFault::Lost
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
        let faults: Vec<(usize, SurfaceFault)> = seen
            .iter()
            .enumerate()
            .filter_map(|(i, t)| t.map(|t| (i + 1, t)))
            .collect();
        assert_eq!(
            faults,
            [
                (3, SurfaceFault::Outdated),
                (6, SurfaceFault::Lost),
                (9, SurfaceFault::Outdated),
                (12, SurfaceFault::Lost),
            ]
        );
    }
}
