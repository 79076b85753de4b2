//! A failure to report to the person who ran Looplab: one line, and the exit status.
//!
//! It sits below the window, the lab and the command line, so each can fail the same way
//! without depending on the others.

use std::fmt;

/// Exit status for a usage error (a bad option or value), as clap and most Unix tools use.
pub const EXIT_USAGE: u8 = 2;
/// Exit status for a failure at run time (no display, no GPU, an unwritable file).
pub const EXIT_FAILURE: u8 = 1;

/// One line to print and the status to exit with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub message: String,
    pub status: u8,
}

impl Failure {
    /// The person asked for something that cannot be: exit status 2.
    pub fn usage(message: impl Into<String>) -> Self {
        Self {
            message: one_line(&message.into()),
            status: EXIT_USAGE,
        }
    }

    /// Something went wrong while running: exit status 1.
    pub fn runtime(message: impl Into<String>) -> Self {
        Self {
            message: one_line(&message.into()),
            status: EXIT_FAILURE,
        }
    }
}

/// `text` with its control characters (a newline or tab a person's input carried into a
/// message, quoted by a parser) written as escapes, so a message stays one line.
pub fn one_line(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            let escaped: Vec<char> = if c.is_control() {
                c.escape_default().collect()
            } else {
                vec![c]
            };
            escaped
        })
        .collect()
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_is_one_line_whatever_it_quotes() {
        let f = Failure::usage("unknown profile 'fast\nweak\tgpu'");
        assert_eq!(f.message, "unknown profile 'fast\\nweak\\tgpu'");
        assert_eq!(one_line("plain: 5 ms"), "plain: 5 ms");
    }
}
