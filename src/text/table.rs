//! The one table writer of the lab's, the bench's and the peers' reports: columns as wide as
//! their widest cell, text to the left and figures to the right, as aligned text for a
//! terminal or as a Markdown table for a README or an issue.
//!
//! ```
//! use looplab::text::table::Table;
//!
//! let mut t = Table::new(&["strategy", "fps"]);
//! t.row(["fixed", "60.0"]);
//! t.row(["interpolated", "144.0"]);
//! assert_eq!(t.text(), "strategy        fps\nfixed          60.0\ninterpolated  144.0\n");
//! ```

use std::fmt::Write as _;

/// One line of a table.
#[derive(Clone, Debug, PartialEq)]
enum Line {
    Cells(Vec<String>),
    /// An empty line between groups of rows.
    Blank,
    /// A line of its own (a group's title), which sets no column's width.
    Note(String),
    /// The headers again (a new group's).
    Headers,
}

/// A table being built: headers, then rows.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    headers: Vec<String>,
    /// Which columns are text, aligned to the left (the others, figures, to the right).
    left: Vec<bool>,
    /// Written before every line.
    indent: String,
    /// Spaces between columns.
    gap: usize,
    /// Whether the headers open the table (else only where a group repeats them).
    leading_headers: bool,
    lines: Vec<Line>,
}

impl Table {
    /// A table with these headers: the first column to the left, the others to the right,
    /// two spaces between them.
    pub fn new<S: AsRef<str>>(headers: &[S]) -> Self {
        Self {
            headers: headers.iter().map(|h| h.as_ref().to_string()).collect(),
            left: (0..headers.len()).map(|i| i == 0).collect(),
            indent: String::new(),
            gap: 2,
            leading_headers: true,
            lines: Vec::new(),
        }
    }

    /// The first `columns` columns aligned to the left, the others to the right.
    pub fn left(mut self, columns: usize) -> Self {
        for (i, left) in self.left.iter_mut().enumerate() {
            *left = i < columns;
        }
        self
    }

    /// Column `column` (from 0) is text, aligned to the left.
    pub fn text_column(mut self, column: usize) -> Self {
        if let Some(left) = self.left.get_mut(column) {
            *left = true;
        }
        self
    }

    /// `indent` before every line.
    pub fn indent(mut self, indent: &str) -> Self {
        self.indent = indent.to_string();
        self
    }

    /// `spaces` between columns.
    pub fn gap(mut self, spaces: usize) -> Self {
        self.gap = spaces;
        self
    }

    /// Headers only where a group asks for them ([`Table::headers_again`]), not above the
    /// whole table: a table of groups, each with its title and headers.
    pub fn grouped(mut self) -> Self {
        self.leading_headers = false;
        self
    }

    /// A row of cells, one for each header (missing cells are empty, extra ones dropped).
    pub fn row<S: Into<String>>(&mut self, cells: impl IntoIterator<Item = S>) {
        let mut cells: Vec<String> = cells.into_iter().map(Into::into).collect();
        cells.resize(self.headers.len(), String::new());
        self.lines.push(Line::Cells(cells));
    }

    /// An empty line, between groups of rows.
    pub fn blank(&mut self) {
        self.lines.push(Line::Blank);
    }

    /// A line of its own, such as a group's title; it sets no column's width.
    pub fn note(&mut self, text: impl Into<String>) {
        self.lines.push(Line::Note(text.into()));
    }

    /// The headers again, for a new group.
    pub fn headers_again(&mut self) {
        self.lines.push(Line::Headers);
    }

    /// Whether no row was added.
    pub fn is_empty(&self) -> bool {
        !self.lines.iter().any(|l| matches!(l, Line::Cells(_)))
    }

    /// Each column's width: its widest cell, header included (in characters).
    fn widths(&self) -> Vec<usize> {
        let mut widths: Vec<usize> = self.headers.iter().map(|h| h.chars().count()).collect();
        for line in &self.lines {
            if let Line::Cells(cells) = line {
                for (w, c) in widths.iter_mut().zip(cells) {
                    *w = (*w).max(c.chars().count());
                }
            }
        }
        widths
    }

    fn aligned(&self, cells: &[String], widths: &[usize]) -> String {
        let mut line = self.indent.clone();
        for (i, (c, &w)) in cells.iter().zip(widths).enumerate() {
            if i > 0 {
                line.extend(std::iter::repeat_n(' ', self.gap));
            }
            if self.left[i] {
                let _ = write!(line, "{c:<w$}");
            } else {
                let _ = write!(line, "{c:>w$}");
            }
        }
        line.trim_end().to_string()
    }

    /// The headers and rows as aligned text, each line ended by a newline and without
    /// trailing spaces.
    pub fn text(&self) -> String {
        let widths = self.widths();
        let mut out = String::new();
        if self.leading_headers {
            out = self.aligned(&self.headers, &widths) + "\n";
        }
        for line in &self.lines {
            match line {
                Line::Cells(cells) => out += &self.aligned(cells, &widths),
                Line::Blank => {}
                Line::Note(text) => out += text,
                Line::Headers => out += &self.aligned(&self.headers, &widths),
            }
            out.push('\n');
        }
        out
    }

    /// The headers and rows as a Markdown table (groups' blank lines, notes and repeated
    /// headers left out).
    pub fn markdown(&self) -> String {
        let row = |cells: &[String]| format!("| {} |\n", cells.join(" | "));
        let mut out = row(&self.headers);
        out += &format!("|{}\n", "---|".repeat(self.headers.len()));
        for line in &self.lines {
            if let Line::Cells(cells) = line {
                out += &row(cells);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_as_wide_as_their_widest_cell() {
        let mut t = Table::new(&["loop", "lag", "judder"]).left(1);
        t.row(["looplab-timing", "16.7 ms", "0.01"]);
        t.row(["ggez", "8.5 ms", "1.13"]);
        assert_eq!(
            t.text(),
            "loop                lag  judder\n\
             looplab-timing  16.7 ms    0.01\n\
             ggez             8.5 ms    1.13\n"
        );
    }

    #[test]
    fn groups_notes_and_repeated_headers_keep_one_set_of_widths() {
        let mut t = Table::new(&["a", "b"]).indent("  ").gap(1).grouped();
        t.note("on fast:");
        t.headers_again();
        t.row(["x", "1"]);
        t.blank();
        t.note("on a machine with a long name:");
        t.headers_again();
        t.row(["yyyy", "22"]);
        assert_eq!(
            t.text(),
            "on fast:\n  a     b\n  x     1\n\non a machine with a long name:\n  a     b\n  yyyy 22\n"
        );
    }

    #[test]
    fn a_short_row_is_padded_and_a_left_column_keeps_no_trailing_space() {
        let mut t = Table::new(&["name", "note"]).left(2);
        t.row(["a"]);
        assert_eq!(t.text(), "name  note\na\n");
        assert!(!t.is_empty());
    }

    #[test]
    fn a_text_column_goes_to_the_left_among_figures() {
        let mut t = Table::new(&["hz", "wait", "ms"]).left(0).text_column(1);
        t.row(["60", "naive", "16.7"]);
        t.row(["144", "precise", "6.9"]);
        assert_eq!(
            t.text(),
            " hz  wait       ms\n 60  naive    16.7\n144  precise   6.9\n"
        );
    }

    #[test]
    fn markdown_has_every_row_under_a_rule() {
        let mut t = Table::new(&["strategy", "UPS"]);
        t.row(["fixed", "60"]);
        t.blank();
        t.row(["catch-up", "10"]);
        assert_eq!(
            t.markdown(),
            "| strategy | UPS |\n|---|---|\n| fixed | 60 |\n| catch-up | 10 |\n"
        );
    }
}
