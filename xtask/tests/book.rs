//! The README and the book in `docs/` as committed: every relative link and picture points
//! at a file that exists, every `#anchor` at a heading, no chapter links out of the book,
//! every chapter is in SUMMARY.md, and every heading that links from outside may name is a
//! heading somewhere (`docs/moved-headings.txt`); every live view names a stop of the
//! tour, and every stop has a view. The checks of `cargo xtask book`,
//! without building the book, so the README's test command catches a broken link.

#[test]
fn the_readme_and_the_book_have_whole_links_and_keep_every_heading() {
    let disk = xtask::book::Disk(xtask::root());
    let mut problems = xtask::book::check(&disk);
    problems.extend(xtask::views::check(&disk));
    let list: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert!(
        list.is_empty(),
        "{} problem(s) in the README and the book:\n{}",
        list.len(),
        list.join("\n")
    );
}

#[test]
fn the_headings_links_may_name_are_all_listed() {
    // The list the check holds the docs to is not empty, and starts with the README's title.
    let list = std::fs::read_to_string(xtask::root().join(xtask::book::MOVED_HEADINGS)).unwrap();
    let headings: Vec<&str> = list
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    assert_eq!(headings.first(), Some(&"Looplab"));
    assert!(headings.len() >= 27, "{} headings", headings.len());
}
