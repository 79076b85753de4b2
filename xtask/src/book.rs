//! The README's and the book's links and headings, checked; `cargo xtask book`
//! ([`crate::site`]) builds the book and checks it with these and its live views'
//! ([`crate::views`]).
//!
//! The checks read Markdown as mdBook does (with `pulldown-cmark`) and need no mdBook, so
//! they also run as a test on every `cargo test` (`xtask/tests/book.rs`):
//!
//! - every relative link and picture in README.md and the book's `.md` files names a file
//!   or directory that exists;
//! - every `#anchor`, in the same file or another Markdown file, is the id of one of that
//!   file's headings, slugged as GitHub and mdBook both slug them (lowercase, each space a
//!   `-`, every character but letters, digits, `-` and `_` dropped; a repeated heading gets
//!   `-1`, `-2`, ...), or the id a heading sets itself (`{#id}`);
//! - no chapter links out of `docs/`: the built book holds nothing else, so such a link
//!   works on GitHub and is broken in the book;
//! - every chapter is listed in `docs/SUMMARY.md` (mdBook builds only what it lists);
//! - every heading that links from outside may name (`docs/moved-headings.txt`, one a
//!   line, without its `#`s) is, word for word, a heading of README.md or of a chapter.
//!
//! Not checked: links with a scheme (`https:`, `mailto:`), since the checks run with no
//! network, and links written as raw HTML (`<a href>`, `<img src>`), which these files
//! do not use. Paths are compared as written (no percent-decoding).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::PathBuf;

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

/// The README, checked with the book.
pub const README: &str = "README.md";
/// The book's source directory (its `book.toml` says `src = "."`).
pub const BOOK: &str = "docs";
/// The book's table of contents.
pub const SUMMARY: &str = "docs/SUMMARY.md";
/// The headings links from outside may name, each a heading somewhere.
pub const MOVED_HEADINGS: &str = "docs/moved-headings.txt";

/// Where the checks read files: the workspace on disk, or a map in a test. Paths are
/// relative to the workspace's root, with `/` between their parts.
pub trait Files {
    fn is_file(&self, path: &str) -> bool;
    fn is_dir(&self, path: &str) -> bool;
    fn read(&self, path: &str) -> Option<String>;
    /// The `.md` files under `dir`, at any depth, sorted.
    fn markdown_under(&self, dir: &str) -> Vec<String>;
}

/// The workspace on disk.
pub struct Disk(pub PathBuf);

impl Files for Disk {
    fn is_file(&self, path: &str) -> bool {
        self.0.join(path).is_file()
    }
    fn is_dir(&self, path: &str) -> bool {
        self.0.join(path).is_dir()
    }
    fn read(&self, path: &str) -> Option<String> {
        std::fs::read_to_string(self.0.join(path)).ok()
    }
    fn markdown_under(&self, dir: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut dirs = vec![dir.to_string()];
        while let Some(d) = dirs.pop() {
            let Ok(entries) = std::fs::read_dir(self.0.join(&d)) else {
                continue;
            };
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                let path = format!("{d}/{name}");
                if entry.path().is_dir() {
                    dirs.push(path);
                } else if name.ends_with(".md") {
                    out.push(path);
                }
            }
        }
        out.sort();
        out
    }
}

/// Files in memory, for tests: a path and its text. A directory is any prefix of a path.
impl Files for BTreeMap<String, String> {
    fn is_file(&self, path: &str) -> bool {
        self.contains_key(path)
    }
    fn is_dir(&self, path: &str) -> bool {
        path.is_empty() || self.keys().any(|k| k.starts_with(&format!("{path}/")))
    }
    fn read(&self, path: &str) -> Option<String> {
        self.get(path).cloned()
    }
    fn markdown_under(&self, dir: &str) -> Vec<String> {
        self.keys()
            .filter(|k| k.starts_with(&format!("{dir}/")) && k.ends_with(".md"))
            .cloned()
            .collect()
    }
}

/// One thing wrong, at a line of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub file: String,
    pub line: usize,
    pub what: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.what)
    }
}

/// A heading as written (without its `#`s) and the id it links by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Heading {
    pub text: String,
    pub id: String,
    pub line: usize,
}

/// A link or picture: where it points, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    pub dest: String,
    pub image: bool,
    pub line: usize,
}

/// The id GitHub and mdBook give a heading: lowercase, each whitespace character a `-`,
/// and every character but letters, digits, `-` and `_` dropped.
pub fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.trim().chars() {
        if c.is_alphanumeric() || c == '-' || c == '_' {
            out.extend(c.to_lowercase());
        } else if c.is_whitespace() {
            out.push('-');
        }
    }
    out
}

fn options() -> Options {
    // The extensions mdBook turns on that change what is a link or a heading.
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES
}

fn line_at(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// A heading's words as written in the source: its `#`s, a closing run of `#`s, an
/// attribute block (`{#id}`) and a setext underline taken off.
fn written(source: &str) -> String {
    let first = source.lines().next().unwrap_or("").trim();
    let mut s = first.trim_start_matches('#').trim();
    if s.ends_with('}')
        && let Some(open) = s.rfind('{')
    {
        s = s[..open].trim_end();
    }
    let unclosed = s.trim_end_matches('#');
    if unclosed.len() < s.len() && (unclosed.is_empty() || unclosed.ends_with(' ')) {
        s = unclosed.trim_end();
    }
    s.to_string()
}

/// The headings of a Markdown text, each with its id (repeats numbered as GitHub and
/// mdBook number them).
pub fn headings(text: &str) -> Vec<Heading> {
    let mut out = Vec::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut current: Option<(String, Option<String>, usize, usize)> = None;
    for (event, range) in Parser::new_ext(text, options()).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { id, .. }) => {
                current = Some((
                    String::new(),
                    id.map(|i| i.to_string()),
                    range.start,
                    range.end,
                ));
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some((words, ..)) = current.as_mut() {
                    words.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((words, id, start, end)) = current.take() {
                    let id = id.unwrap_or_else(|| {
                        let base = slug(&words);
                        let n = seen.entry(base.clone()).or_insert(0);
                        let id = if *n == 0 {
                            base.clone()
                        } else {
                            format!("{base}-{n}")
                        };
                        *n += 1;
                        id
                    });
                    out.push(Heading {
                        text: written(&text[start..end]),
                        id,
                        line: line_at(text, start),
                    });
                }
            }
            _ => {}
        }
    }
    out
}

/// Every link and picture of a Markdown text (reference links resolved).
pub fn links(text: &str) -> Vec<Link> {
    let mut out = Vec::new();
    for (event, range) in Parser::new_ext(text, options()).into_offset_iter() {
        let (dest, image) = match event {
            Event::Start(Tag::Link { dest_url, .. }) => (dest_url, false),
            Event::Start(Tag::Image { dest_url, .. }) => (dest_url, true),
            _ => continue,
        };
        out.push(Link {
            dest: dest.to_string(),
            image,
            line: line_at(text, range.start),
        });
    }
    out
}

/// `https:`, `mailto:` and the like: a scheme before the first `/`, `#` or `?`.
fn has_scheme(dest: &str) -> bool {
    let head = dest.split(['/', '#', '?']).next().unwrap_or("");
    head.split_once(':').is_some_and(|(scheme, _)| {
        !scheme.is_empty()
            && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+.-".contains(c))
    })
}

/// `rel` joined to the directory of `from` and made plain (`.` and `..` resolved); `None`
/// where it climbs above the workspace's root.
fn resolve(from: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = if rel.starts_with('/') {
        Vec::new()
    } else {
        let mut p: Vec<&str> = from.split('/').collect();
        p.pop();
        p
    };
    for part in rel.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

fn in_book(path: &str) -> bool {
    path.starts_with(&format!("{BOOK}/"))
}

/// Every check of the module's documentation, on `files`; nothing when all is well.
pub fn check(files: &impl Files) -> Vec<Problem> {
    let mut docs = vec![README.to_string()];
    docs.extend(files.markdown_under(BOOK));
    let mut problems = Vec::new();
    let mut texts = BTreeMap::new();
    for doc in &docs {
        match files.read(doc) {
            Some(text) => {
                texts.insert(doc.clone(), text);
            }
            None => problems.push(Problem {
                file: doc.clone(),
                line: 0,
                what: "cannot be read".into(),
            }),
        }
    }
    problems.extend(link_problems(files, &texts));
    problems.extend(unlisted_chapters(&docs, &texts));
    problems.extend(lost_headings(files, &texts));
    problems
}

/// Every link and picture of `texts` that leads nowhere: to no file, out of the repository
/// or the book, or to a heading its page does not have.
fn link_problems(files: &impl Files, texts: &BTreeMap<String, String>) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut ids: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut ids_of = |path: &str| -> Option<BTreeSet<String>> {
        if !ids.contains_key(path) {
            let text = files.read(path)?;
            ids.insert(
                path.to_string(),
                headings(&text).into_iter().map(|h| h.id).collect(),
            );
        }
        ids.get(path).cloned()
    };
    for (doc, text) in texts {
        for link in links(text) {
            if has_scheme(&link.dest) {
                continue;
            }
            let mut problem = |what: String| {
                problems.push(Problem {
                    file: doc.clone(),
                    line: link.line,
                    what,
                })
            };
            let (path, anchor) = match link.dest.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (link.dest.as_str(), None),
            };
            let path = path.split('?').next().unwrap_or("");
            let target = if path.is_empty() {
                Some(doc.clone())
            } else {
                resolve(doc, path)
            };
            let Some(target) = target else {
                problem(format!("`{}` climbs out of the repository", link.dest));
                continue;
            };
            let kind = if link.image { "picture" } else { "link" };
            if !files.is_file(&target) && !files.is_dir(&target) {
                problem(format!("{kind} `{}`: no file {target}", link.dest));
                continue;
            }
            if in_book(doc) && !in_book(&target) {
                problem(format!(
                    "{kind} `{}` leaves the book ({target}): the built book has only docs/",
                    link.dest
                ));
            }
            let Some(anchor) = anchor else { continue };
            if !target.ends_with(".md") {
                continue; // a line of a source file (`#L10`) or the like: not a heading
            }
            match ids_of(&target) {
                Some(set) if set.contains(anchor) => {}
                Some(_) => problem(format!("`#{anchor}`: no such heading in {target}")),
                None => problem(format!("{target} cannot be read")),
            }
        }
    }
    problems
}

/// The chapters that SUMMARY.md does not list: mdBook builds only the ones it lists.
fn unlisted_chapters(docs: &[String], texts: &BTreeMap<String, String>) -> Vec<Problem> {
    let Some(summary) = texts.get(SUMMARY) else {
        return vec![Problem {
            file: SUMMARY.into(),
            line: 0,
            what: "missing: the book has no table of contents".into(),
        }];
    };
    let listed: BTreeSet<String> = links(summary)
        .iter()
        .filter_map(|l| resolve(SUMMARY, l.dest.split('#').next().unwrap_or("")))
        .collect();
    docs.iter()
        .filter(|d| in_book(d) && *d != SUMMARY && !listed.contains(*d))
        .map(|doc| Problem {
            file: doc.clone(),
            line: 1,
            what: format!("not listed in {SUMMARY}, so not in the book"),
        })
        .collect()
}

/// The headings listed in MOVED_HEADINGS that head no section anywhere: a link from
/// outside to one of them would land nowhere.
fn lost_headings(files: &impl Files, texts: &BTreeMap<String, String>) -> Vec<Problem> {
    let all: BTreeSet<String> = texts
        .values()
        .flat_map(|t| headings(t).into_iter().map(|h| h.text))
        .collect();
    let Some(list) = files.read(MOVED_HEADINGS) else {
        return vec![Problem {
            file: MOVED_HEADINGS.into(),
            line: 0,
            what: "missing: the list of headings links from outside may name".into(),
        }];
    };
    let mut problems = Vec::new();
    for (i, line) in list.lines().enumerate() {
        let heading = line.trim();
        if heading.is_empty() || heading.starts_with('#') || all.contains(heading) {
            continue;
        }
        problems.push(Problem {
            file: MOVED_HEADINGS.into(),
            line: i + 1,
            what: format!("\"{heading}\" is no heading of {README} or of any chapter in {BOOK}/"),
        });
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[(&str, &str)]) -> BTreeMap<String, String> {
        files
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect()
    }

    /// A README and a two-chapter book with every kind of link, all of them whole.
    fn whole() -> BTreeMap<String, String> {
        tree(&[
            (
                "README.md",
                "# Demo\n\n![shot](docs/shot.png)\n\nSee [keys](docs/keys.md#the-keys-table), \
                 [the crate](crates/timing) and [a site](https://example.com/x#y).\n\n\
                 ## Run it\n\n[again](#run-it) and [the test](#run-it-1)\n\n## Run it\n",
            ),
            (
                "docs/SUMMARY.md",
                "# Summary\n\n- [Keys](keys.md)\n- [Lab](lab.md)\n",
            ),
            (
                "docs/keys.md",
                "# Keys\n\n## The keys: table\n\n| a | b |\n|---|---|\n| [lab](lab.md#feel-no-tap-lost) | x |\n\n![s](shot.png)\n",
            ),
            (
                "docs/lab.md",
                "# The lab\n\n## Feel: no tap lost\n\n## Custom {#own-id}\n\n[up](#own-id) <mailto:a@b.c>\n",
            ),
            ("docs/shot.png", ""),
            ("crates/timing/Cargo.toml", ""),
            (
                "docs/moved-headings.txt",
                "# headings links from outside may name\nDemo\nRun it\nThe keys: table\nFeel: no tap lost\n",
            ),
        ])
    }

    #[test]
    fn slugs_follow_github_and_mdbook() {
        assert_eq!(
            slug("Feel: no tap lost, and no step of delay"),
            "feel-no-tap-lost-and-no-step-of-delay"
        );
        assert_eq!(slug("Your game's frames"), "your-games-frames");
        assert_eq!(
            slug("Compare mode: several machines side by side"),
            "compare-mode-several-machines-side-by-side"
        );
        assert_eq!(slug("a_b - C"), "a_b---c");
        assert_eq!(slug("`--cap` Hz"), "--cap-hz");
    }

    #[test]
    fn headings_are_read_as_written_with_their_ids() {
        let h = headings(
            "# One\n\n```\n# not a heading\n```\n\n## Two: `code` ##\n\n## One\n\nThree\n-----\n",
        );
        let got: Vec<(&str, &str, usize)> = h
            .iter()
            .map(|h| (h.text.as_str(), h.id.as_str(), h.line))
            .collect();
        assert_eq!(
            got,
            [
                ("One", "one", 1),
                ("Two: `code`", "two-code", 7),
                ("One", "one-1", 9),
                ("Three", "three", 11)
            ]
        );
    }

    #[test]
    fn a_whole_readme_and_book_have_no_problem() {
        assert_eq!(check(&whole()), Vec::<Problem>::new());
    }

    fn problems_after(path: &str, from: &str, to: &str) -> Vec<String> {
        let mut files = whole();
        let text = files.get_mut(path).unwrap();
        assert!(text.contains(from), "{from}");
        *text = text.replace(from, to);
        check(&files).iter().map(Problem::to_string).collect()
    }

    #[test]
    fn a_link_to_a_missing_file_is_reported() {
        assert_eq!(
            problems_after("README.md", "(crates/timing)", "(crates/timer)"),
            ["README.md:5: link `crates/timer`: no file crates/timer"]
        );
        assert_eq!(
            problems_after("docs/keys.md", "(shot.png)", "(shots.png)"),
            ["docs/keys.md:9: picture `shots.png`: no file docs/shots.png"]
        );
    }

    #[test]
    fn an_anchor_with_no_heading_is_reported() {
        assert_eq!(
            problems_after("README.md", "(#run-it)", "(#run)"),
            ["README.md:9: `#run`: no such heading in README.md"]
        );
        assert_eq!(
            problems_after("README.md", "(#run-it-1)", "(#run-it-2)"),
            ["README.md:9: `#run-it-2`: no such heading in README.md"]
        );
        assert_eq!(
            problems_after("docs/keys.md", "lab.md#feel-no-tap-lost", "lab.md#feel"),
            ["docs/keys.md:7: `#feel`: no such heading in docs/lab.md"]
        );
        assert_eq!(
            problems_after("docs/lab.md", "(#own-id)", "(#custom)"),
            ["docs/lab.md:7: `#custom`: no such heading in docs/lab.md"]
        );
    }

    #[test]
    fn a_chapter_that_links_out_of_the_book_is_reported() {
        assert_eq!(
            problems_after("docs/keys.md", "(shot.png)", "(../crates/timing)"),
            [
                "docs/keys.md:9: picture `../crates/timing` leaves the book (crates/timing): the built book has only docs/"
            ]
        );
        assert_eq!(
            problems_after("docs/keys.md", "(shot.png)", "(../../x.png)"),
            ["docs/keys.md:9: `../../x.png` climbs out of the repository"]
        );
    }

    #[test]
    fn a_chapter_missing_from_the_summary_is_reported() {
        assert_eq!(
            problems_after("docs/SUMMARY.md", "- [Lab](lab.md)\n", ""),
            ["docs/lab.md:1: not listed in docs/SUMMARY.md, so not in the book"]
        );
    }

    #[test]
    fn a_lost_heading_is_reported() {
        assert_eq!(
            problems_after("docs/keys.md", "## The keys: table", "## The keys"),
            [
                "README.md:5: `#the-keys-table`: no such heading in docs/keys.md",
                "docs/moved-headings.txt:4: \"The keys: table\" is no heading of README.md or of any chapter in docs/"
            ]
        );
        let mut files = whole();
        files.remove("docs/moved-headings.txt");
        assert_eq!(
            check(&files)
                .iter()
                .map(Problem::to_string)
                .collect::<Vec<_>>(),
            [
                "docs/moved-headings.txt:0: missing: the list of headings links from outside may name"
            ]
        );
    }

    #[test]
    fn a_heading_in_a_code_block_does_not_count() {
        assert_eq!(
            problems_after(
                "docs/lab.md",
                "## Feel: no tap lost\n",
                "```\n## Feel: no tap lost\n```\n"
            ),
            [
                "docs/keys.md:7: `#feel-no-tap-lost`: no such heading in docs/lab.md",
                "docs/moved-headings.txt:5: \"Feel: no tap lost\" is no heading of README.md or of any chapter in docs/"
            ]
        );
    }
}
