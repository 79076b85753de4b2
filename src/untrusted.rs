//! Every reader of what a person hands Looplab, in one list: recordings, traces, captures, key
//! scripts, profile specs, lane specs, the command line (with its durations and rates) and
//! a page's address. The fuzz targets (`fuzz/`) and the property tests
//! (`tests/untrusted_input.rs`) run each on inputs no one wrote by hand, and hold each to
//! the same rule: a value, or one line that says what is wrong; never a panic.

use clap::Parser;

use crate::capture::Capture;
use crate::cli::{Cli, one_line};
use crate::hooks::key_script::KeyScript;
use crate::lab::compare::parse_lane;
use crate::lab::profile::parse_profiles;
use crate::session::recording::Recording;
use crate::session::trace::Trace;
use crate::web::address::page_options;

/// A reader of user input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader {
    /// `--replay FILE`.
    Recording,
    /// `looplab lab --trace FILE`.
    Trace,
    /// `looplab lab --capture FILE`: the field's frame captures.
    Capture,
    /// `--key-script SCRIPT`.
    KeyScript,
    /// `--profile LIST`.
    Profiles,
    /// `--lane PROFILE/STRATEGY[+DELTA]`.
    Lane,
    /// The command line, words separated by whitespace.
    CommandLine,
    /// A page's address's query.
    PageQuery,
}

impl Reader {
    pub const ALL: [Reader; 8] = [
        Reader::Recording,
        Reader::Trace,
        Reader::Capture,
        Reader::KeyScript,
        Reader::Profiles,
        Reader::Lane,
        Reader::CommandLine,
        Reader::PageQuery,
    ];

    /// Its name: the fuzz target's, and its seed directory's under `fuzz/seeds`.
    pub fn name(self) -> &'static str {
        match self {
            Reader::Recording => "recording",
            Reader::Trace => "trace",
            Reader::Capture => "capture",
            Reader::KeyScript => "key_script",
            Reader::Profiles => "profile",
            Reader::Lane => "lane",
            Reader::CommandLine => "command_line",
            Reader::PageQuery => "page_query",
        }
    }

    /// Reads `input` as Looplab does: `Ok` for a value, or the line it would print.
    pub fn read(self, input: &str) -> Result<(), String> {
        match self {
            Reader::Recording => said(Recording::parse(input)),
            Reader::Trace => said(Trace::parse(input)),
            Reader::Capture => {
                let capture = Capture::read(input.as_bytes(), None).map_err(|e| e.to_string())?;
                // What `lab --capture` does next with it, which must not panic either.
                crate::capture::summary::Summary::of(&capture, None);
                Ok(())
            }
            Reader::KeyScript => said(KeyScript::parse(input)),
            Reader::Profiles => said(parse_profiles(input)),
            Reader::Lane => said(parse_lane(input)),
            Reader::CommandLine => {
                let words = std::iter::once("looplab").chain(input.split_whitespace());
                Cli::try_parse_from(words)
                    .map(drop)
                    .map_err(|e| one_line(&e.render().to_string()))
            }
            Reader::PageQuery => page_options(input).map(drop).map_err(|f| f.message),
        }
    }

    /// Reads `bytes` (as text, where they are UTF-8) and panics if the reader answers with
    /// anything but a value or one non-empty line: what a fuzz target checks.
    pub fn check(self, bytes: &[u8]) {
        let Ok(input) = std::str::from_utf8(bytes) else {
            return;
        };
        if let Err(message) = self.read(input) {
            assert!(
                !message.trim().is_empty() && !message.contains('\n'),
                "{}: not one line: {message:?}",
                self.name()
            );
        }
    }
}

/// A reader's answer as the line Looplab prints: nothing for a value, its refusal's words.
fn said<T, E: std::fmt::Display>(read: Result<T, E>) -> Result<(), String> {
    read.map(drop).map_err(|e| e.to_string())
}
