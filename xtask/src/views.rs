//! The book's live views: `<div class="looplab-view" data-stop="ID"></div>` in a chapter,
//! which `docs/looplab-views.js` turns into a running view of that stop of the guided tour.
//! Checked with the book's links (`cargo xtask book` and `xtask/tests/book.rs`):
//!
//! - every view names a stop of the tour's table (`src/tour/stops.rs`, read with `syn`:
//!   the `id` of each `Stop` in its `STOPS`), so no view opens on nothing;
//! - every stop has a view somewhere in the book, so reading the book is the tour;
//! - a picture a view names to stand in where a page cannot run its stop (`data-still`) is a
//!   file of the book's.

use std::collections::BTreeMap;

use pulldown_cmark::{Event, Parser};

use crate::book::{BOOK, Files, Problem};

/// The tour's table of stops.
pub const STOPS: &str = "src/tour/stops.rs";

/// One view, as a chapter writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    pub line: usize,
    pub stop: String,
    pub still: Option<String>,
}

/// The views of a Markdown text, in order: its HTML's `looplab-view` elements.
pub fn views(text: &str) -> Vec<View> {
    let mut out = Vec::new();
    for (event, range) in Parser::new(text).into_offset_iter() {
        let (Event::Html(html) | Event::InlineHtml(html)) = event else {
            continue;
        };
        for tag in html.split('<').filter(|t| t.contains("looplab-view")) {
            let Some(stop) = attribute(tag, "data-stop") else {
                continue;
            };
            out.push(View {
                line: text[..range.start].matches('\n').count() + 1,
                stop,
                still: attribute(tag, "data-still"),
            });
        }
    }
    out
}

/// The value of `name="..."` in an HTML tag's text.
fn attribute(tag: &str, name: &str) -> Option<String> {
    let from = tag.find(&format!("{name}=\""))? + name.len() + 2;
    let len = tag[from..].find('"')?;
    Some(tag[from..from + len].to_string())
}

/// The ids of the stops in the tour's table, in order.
pub fn stop_ids(source: &str) -> Result<Vec<String>, String> {
    let file = syn::parse_file(source).map_err(|e| format!("{STOPS} does not parse: {e}"))?;
    let mut ids = Vec::new();
    for item in &file.items {
        let syn::Item::Static(table) = item else {
            continue;
        };
        if table.ident != "STOPS" {
            continue;
        }
        let syn::Expr::Array(stops) = &*table.expr else {
            return Err(format!("{STOPS}: STOPS is not an array of stops"));
        };
        for stop in &stops.elems {
            let syn::Expr::Struct(stop) = stop else {
                continue;
            };
            for field in &stop.fields {
                if let (syn::Member::Named(name), syn::Expr::Lit(lit)) =
                    (&field.member, &field.expr)
                    && name == "id"
                    && let syn::Lit::Str(id) = &lit.lit
                {
                    ids.push(id.value());
                }
            }
        }
    }
    match ids.is_empty() {
        true => Err(format!("{STOPS} has no STOPS with ids")),
        false => Ok(ids),
    }
}

/// What is wrong with the views of the book's chapters in `files`: nothing when all is
/// well.
pub fn check(files: &impl Files) -> Vec<Problem> {
    let texts: BTreeMap<String, String> = files
        .markdown_under(BOOK)
        .into_iter()
        .filter_map(|path| Some((path.clone(), files.read(&path)?)))
        .collect();
    problems(files, &texts)
}

/// What is wrong with the views of the book's chapters `texts` (by path): nothing when all
/// is well. Where the tour's table cannot be read (a test's files) and no chapter has a
/// view, there is nothing to check.
pub fn problems(files: &impl Files, texts: &BTreeMap<String, String>) -> Vec<Problem> {
    let found: Vec<(&String, View)> = texts
        .iter()
        .filter(|(path, _)| path.starts_with(&format!("{BOOK}/")))
        .flat_map(|(path, text)| views(text).into_iter().map(move |v| (path, v)))
        .collect();
    let problem = |file: &str, line: usize, what: String| Problem {
        file: file.to_string(),
        line,
        what,
    };
    let ids = match files.read(STOPS).map(|s| stop_ids(&s)) {
        Some(Ok(ids)) => ids,
        Some(Err(e)) => return vec![problem(STOPS, 0, e)],
        None if found.is_empty() => return Vec::new(),
        None => return vec![problem(STOPS, 0, "cannot be read".into())],
    };
    let mut out = Vec::new();
    for (file, view) in &found {
        if !ids.contains(&view.stop) {
            out.push(problem(
                file,
                view.line,
                format!("a view of `{}`: no stop of the tour has that id", view.stop),
            ));
        }
        if let Some(still) = &view.still
            && !files.is_file(&format!("{BOOK}/{still}"))
        {
            out.push(problem(
                file,
                view.line,
                format!("a view's stand-in picture `{still}`: no file {BOOK}/{still}"),
            ));
        }
    }
    for id in &ids {
        if !found.iter().any(|(_, v)| &v.stop == id) {
            out.push(problem(
                STOPS,
                0,
                format!("the tour's stop `{id}` has no live view in the book"),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_are_read_from_a_chapters_html() {
        let text = "# A\n\nWords.\n\n<div class=\"looplab-view\" data-stop=\"a-little-nap\"></div>\n\n\
                    More <div class=\"looplab-view\" data-stop=\"power\" data-still=\"p.gif\"></div>\n\n\
                    ```html\n<div class=\"looplab-view\" data-stop=\"in-code\"></div>\n```\n";
        let found = views(text);
        assert_eq!(
            found,
            [
                View {
                    line: 5,
                    stop: "a-little-nap".into(),
                    still: None
                },
                View {
                    line: 7,
                    stop: "power".into(),
                    still: Some("p.gif".into())
                },
            ]
        );
    }

    #[test]
    fn a_view_of_no_stop_a_stop_without_a_view_and_a_missing_still_are_problems() {
        let stops = "static STOPS: [Stop; 2] = [Stop { id: \"one\", n: 1 }, Stop { id: \"two\" }];";
        let chapter = "<div class=\"looplab-view\" data-stop=\"one\" data-still=\"gone.gif\"></div>\n\n\
                       <div class=\"looplab-view\" data-stop=\"three\"></div>\n";
        let files: BTreeMap<String, String> = [
            (STOPS.to_string(), stops.to_string()),
            ("docs/a.md".to_string(), chapter.to_string()),
        ]
        .into();
        let texts: BTreeMap<String, String> =
            [("docs/a.md".to_string(), chapter.to_string())].into();
        let said: Vec<String> = problems(&files, &texts)
            .iter()
            .map(|p| p.to_string())
            .collect();
        assert_eq!(
            said,
            [
                "docs/a.md:1: a view's stand-in picture `gone.gif`: no file docs/gone.gif",
                "docs/a.md:3: a view of `three`: no stop of the tour has that id",
                "src/tour/stops.rs:0: the tour's stop `two` has no live view in the book",
            ]
        );
        assert_eq!(stop_ids(stops).unwrap(), ["one", "two"]);
    }
}
