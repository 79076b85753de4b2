//! A capture's frames as the window's load (`looplab --capture FILE`): each frame spins for
//! the next captured frame's cost, in turn, on top of the window's own drawing, so the
//! stream stutters where the captured game did and a person sees their game's hitches.

use std::sync::Arc;
use std::time::Duration;

/// The frames of a capture, replayed one a frame, from the first again at the end.
#[derive(Clone, Debug, PartialEq)]
pub struct CaptureLoad {
    /// The captured application, for the overlay.
    pub name: String,
    costs: Arc<[Duration]>,
    /// The frame the next call replays.
    next: usize,
}

impl CaptureLoad {
    /// The load of `costs` (at least one), frame by frame.
    pub fn new(name: &str, costs: Vec<Duration>) -> Option<Self> {
        (!costs.is_empty()).then(|| Self {
            name: name.to_string(),
            costs: costs.into(),
            next: 0,
        })
    }

    /// The next frame's cost.
    pub fn take(&mut self) -> Duration {
        let cost = self.costs[self.next % self.costs.len()];
        self.next += 1;
        cost
    }

    /// The frame last replayed (from 1) and how many there are.
    pub fn position(&self) -> (usize, usize) {
        let n = self.costs.len();
        ((self.next + n - 1) % n + 1, n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capture_load_replays_its_frames_in_turn_and_again() {
        let ms = Duration::from_millis;
        assert_eq!(CaptureLoad::new("game", Vec::new()), None);
        let mut load = CaptureLoad::new("game", vec![ms(5), ms(40), ms(7)]).unwrap();
        let taken: Vec<Duration> = (0..5).map(|_| load.take()).collect();
        assert_eq!(taken, [ms(5), ms(40), ms(7), ms(5), ms(40)]);
        assert_eq!(load.position(), (2, 3));
    }
}
