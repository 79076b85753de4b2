//! The signals a person (or their system) ends a program with: SIGINT (Ctrl+C in its
//! terminal), SIGTERM (`kill`, a service manager, the end of a session) and SIGHUP (the
//! terminal closed). Each ends a run the way Esc does: what the run was asked to write is
//! written whole, and the process then exits with the signal's conventional status (128 plus
//! its number). A second one while that happens ends the process at once, as cargo does:
//! the person asked twice.
//!
//! The watch is a thread of signal-hook's iterator, so nothing runs inside a signal handler:
//! the thread hands the first signal to the caller's closure (the window sends itself an
//! event; the lab and the bench clean up and exit).

use crate::failure::Failure;

/// A signal that ends a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    /// SIGINT: Ctrl+C.
    Interrupt,
    /// SIGTERM: `kill`, a service manager.
    Terminate,
    /// SIGHUP: the terminal closed.
    HangUp,
}

/// The run was ended by a signal (after writing what it was asked for): nothing to print,
/// and the signal's conventional exit status. Here, not in `failure`, so that the base
/// module knows nothing of the operating system.
impl From<Signal> for Failure {
    fn from(signal: Signal) -> Self {
        Failure {
            message: String::new(),
            status: signal.exit_status(),
        }
    }
}

impl Signal {
    /// Every one watched.
    pub const ALL: [Signal; 3] = [Signal::Interrupt, Signal::Terminate, Signal::HangUp];

    /// Its name, as `kill -l` writes it.
    pub fn name(self) -> &'static str {
        match self {
            Signal::Interrupt => "SIGINT",
            Signal::Terminate => "SIGTERM",
            Signal::HangUp => "SIGHUP",
        }
    }

    /// Its number on Linux and the BSDs.
    pub fn number(self) -> i32 {
        match self {
            Signal::HangUp => 1,
            Signal::Interrupt => 2,
            Signal::Terminate => 15,
        }
    }

    /// The one numbered `n`.
    pub fn from_number(n: i32) -> Option<Signal> {
        Signal::ALL.into_iter().find(|s| s.number() == n)
    }

    /// The status a process ended by it exits with: 128 plus its number, as a shell reports
    /// a program the signal killed (130 for Ctrl+C).
    pub fn exit_status(self) -> u8 {
        128 + self.number() as u8
    }
}

/// Watches for SIGINT, SIGTERM and SIGHUP from now on: the first calls `first` on the
/// watch's own thread; any after it ends the process at once with its status, after
/// `at_once` (which must be quick: removing unfinished temporary files, ending child
/// processes).
#[cfg(unix)]
pub fn watch(first: impl FnOnce(Signal) + Send + 'static, at_once: fn()) -> Result<(), Failure> {
    let numbers = Signal::ALL.map(Signal::number);
    let mut signals = signal_hook::iterator::Signals::new(numbers)
        .map_err(|e| Failure::runtime(format!("cannot watch for Ctrl+C and SIGTERM: {e}")))?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            let mut first = Some(first);
            for signal in signals.forever().filter_map(Signal::from_number) {
                match first.take() {
                    Some(first) => first(signal),
                    None => {
                        at_once();
                        std::process::exit(signal.exit_status().into());
                    }
                }
            }
        })
        .map_err(|e| Failure::runtime(format!("cannot watch for Ctrl+C and SIGTERM: {e}")))?;
    Ok(())
}

/// Elsewhere the operating system's own handling stands.
#[cfg(not(unix))]
pub fn watch(_first: impl FnOnce(Signal) + Send + 'static, _at_once: fn()) -> Result<(), Failure> {
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn each_signal_has_its_number_and_conventional_status() {
        for s in Signal::ALL {
            assert_eq!(Signal::from_number(s.number()), Some(s));
            assert_eq!(i32::from(s.exit_status()), 128 + s.number());
        }
        assert_eq!(Signal::Interrupt.number(), signal_hook::consts::SIGINT);
        assert_eq!(Signal::Terminate.number(), signal_hook::consts::SIGTERM);
        assert_eq!(Signal::HangUp.number(), signal_hook::consts::SIGHUP);
        assert_eq!(Signal::Interrupt.exit_status(), 130);
        assert_eq!(Signal::from_number(9), None);
    }
}
