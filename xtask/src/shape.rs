//! `cargo xtask shape`: how easy the source tree is to find one's way in, as figures a
//! refactor can be judged by before and after. Files and functions by length (tests left
//! out), the fields of the window's `App`, where `cfg(target_arch)` appears, and the
//! modules that import each other, found by parsing every file with `syn`.
//!
//! Imports are followed through `use` items and through every path written in the code
//! (`crate::a::b::f()`), resolved to the file that defines the module. A module and its own
//! ancestors are allowed to name each other (a parent re-exports its children, a child
//! names its parent's items); any other pair of files that import each other, directly or
//! around a longer loop, is a cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// The limits a file and a function should stay within.
pub const FILE_LINES: usize = 700;
pub const FUNCTION_LINES: usize = 80;

/// One source file of a crate: where it is, the module it is, and its text.
#[derive(Clone, Debug)]
pub struct Source {
    pub path: PathBuf,
    /// `["app", "overlay"]` for `src/app/overlay.rs`; empty for the crate's root.
    pub module: Vec<String>,
    pub text: String,
}

/// A crate's sources, read from its `src` directory.
pub fn read_crate(src: &Path) -> Result<Vec<Source>, String> {
    let mut out = Vec::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let entries =
            std::fs::read_dir(&dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                let relative = path.strip_prefix(src).unwrap_or(&path);
                out.push(Source {
                    module: module_of(relative),
                    path,
                    text,
                });
            }
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

/// The module a file under `src/` is: `a/b.rs` and `a/b/mod.rs` are `a::b`; `lib.rs` and
/// `main.rs` the root (`main.rs` is named `main`, a crate of its own beside the library).
pub fn module_of(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    match parts.last().map(String::as_str) {
        Some("mod") | Some("lib") => {
            parts.pop();
        }
        _ => {}
    }
    parts
}

/// A function longer than [`FUNCTION_LINES`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LongFunction {
    pub path: PathBuf,
    pub name: String,
    pub line: usize,
    pub lines: usize,
}

/// What one file holds outside its tests.
#[derive(Clone, Debug, Default)]
pub struct FileShape {
    /// Lines outside `#[cfg(test)]` modules.
    pub code_lines: usize,
    pub functions: Vec<(String, usize, usize)>,
    /// The modules this file names, as written (`crate::...`, `super::...`, `self::...`,
    /// or a first segment that may be a child module).
    pub paths: Vec<Vec<String>>,
    /// Names this file re-exports (`pub use`), with the path each stands for, as written.
    pub reexports: Vec<(String, Vec<String>)>,
    /// Named fields of each struct: (name, count).
    pub structs: Vec<(String, usize)>,
    /// Lines that switch on the target architecture.
    pub target_arch_lines: usize,
}

/// Parses one file. A file `syn` cannot parse is an error naming it.
pub fn shape_of(source: &Source) -> Result<FileShape, String> {
    let file = syn::parse_file(&source.text)
        .map_err(|e| format!("cannot parse {}: {e}", source.path.display()))?;
    let mut v = Visitor::default();
    v.visit_file(&file);
    let total = source.text.lines().count();
    Ok(FileShape {
        code_lines: total.saturating_sub(v.test_lines),
        functions: v.functions,
        paths: v.paths,
        reexports: v.reexports,
        structs: v.structs,
        target_arch_lines: source.text.lines().filter(|l| names_target_arch(l)).count(),
    })
}

/// A line of code that switches on the target architecture (an attribute or `cfg!`).
fn names_target_arch(line: &str) -> bool {
    let code = line.trim_start();
    (code.starts_with("#[cfg") || code.starts_with("#![cfg") || code.contains("cfg!("))
        && code.contains("target_arch")
}

#[derive(Default)]
struct Visitor {
    test_lines: usize,
    functions: Vec<(String, usize, usize)>,
    paths: Vec<Vec<String>>,
    reexports: Vec<(String, Vec<String>)>,
    structs: Vec<(String, usize)>,
    impl_of: Vec<String>,
}

fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        let path = a.path();
        if path.is_ident("test") {
            return true;
        }
        path.is_ident("cfg")
            && a.parse_args::<syn::Meta>()
                .is_ok_and(|m| m.path().is_ident("test"))
    })
}

fn lines_of(span: proc_macro2::Span) -> (usize, usize) {
    let (start, end) = (span.start().line, span.end().line);
    (start, end.saturating_sub(start) + 1)
}

/// The name each path of a `use` brings in, in [`flatten`]'s order (`None` for a glob).
fn names_of(tree: &syn::UseTree, out: &mut Vec<Option<String>>) {
    match tree {
        syn::UseTree::Path(p) => names_of(&p.tree, out),
        syn::UseTree::Name(n) => out.push(Some(n.ident.to_string())),
        syn::UseTree::Rename(r) => out.push(Some(r.rename.to_string())),
        syn::UseTree::Glob(_) => out.push(None),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                names_of(t, out);
            }
        }
    }
}

fn flatten(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            flatten(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let mut path = prefix.clone();
            path.push(n.ident.to_string());
            out.push(path);
        }
        syn::UseTree::Rename(r) => {
            let mut path = prefix.clone();
            path.push(r.ident.to_string());
            out.push(path);
        }
        syn::UseTree::Glob(_) => out.push(prefix.clone()),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                flatten(t, prefix, out);
            }
        }
    }
}

impl<'ast> Visit<'ast> for Visitor {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if is_test(&m.attrs) {
            use syn::spanned::Spanned;
            self.test_lines += lines_of(m.span()).1;
            return;
        }
        syn::visit::visit_item_mod(self, m);
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if is_test(&f.attrs) {
            return;
        }
        use syn::spanned::Spanned;
        let (line, lines) = lines_of(f.span());
        self.functions.push((f.sig.ident.to_string(), line, lines));
        syn::visit::visit_item_fn(self, f);
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        let name = match &*i.self_ty {
            syn::Type::Path(p) => p
                .path
                .segments
                .last()
                .map(|s| s.ident.to_string())
                .unwrap_or_default(),
            _ => String::new(),
        };
        self.impl_of.push(name);
        syn::visit::visit_item_impl(self, i);
        self.impl_of.pop();
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        use syn::spanned::Spanned;
        let (line, lines) = lines_of(f.span());
        let owner = self.impl_of.last().cloned().unwrap_or_default();
        self.functions
            .push((format!("{owner}::{}", f.sig.ident), line, lines));
        syn::visit::visit_impl_item_fn(self, f);
    }

    fn visit_item_struct(&mut self, s: &'ast syn::ItemStruct) {
        if let syn::Fields::Named(named) = &s.fields {
            self.structs.push((s.ident.to_string(), named.named.len()));
        }
        syn::visit::visit_item_struct(self, s);
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let mut paths = Vec::new();
        flatten(&u.tree, &mut Vec::new(), &mut paths);
        if !matches!(u.vis, syn::Visibility::Inherited) {
            let mut names = Vec::new();
            names_of(&u.tree, &mut names);
            for (name, path) in names.into_iter().zip(&paths) {
                if let Some(name) = name {
                    self.reexports.push((name, path.clone()));
                }
            }
        }
        self.paths.extend(paths);
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        if p.segments.len() > 1 {
            self.paths
                .push(p.segments.iter().map(|s| s.ident.to_string()).collect());
        }
        syn::visit::visit_path(self, p);
    }
}

/// A path as written in module `from`, made absolute from the crate's root; `None` for a
/// path into another crate. `crate_name` is how the binary (`main.rs`) names its library.
fn absolute(
    from: &[String],
    path: &[String],
    modules: &BTreeSet<Vec<String>>,
    crate_name: &str,
) -> Option<Vec<String>> {
    let first = path.first()?;
    let (mut out, rest) = match first.as_str() {
        "crate" => (Vec::new(), &path[1..]),
        name if name == crate_name => (Vec::new(), &path[1..]),
        "self" => (from.to_vec(), &path[1..]),
        "super" => (from[..from.len().saturating_sub(1)].to_vec(), &path[1..]),
        _ => {
            let mut child = from.to_vec();
            child.push(first.clone());
            if !modules.contains(&child) {
                return None;
            }
            (from.to_vec(), path)
        }
    };
    let mut rest = rest.iter().peekable();
    while rest.peek().is_some_and(|s| *s == "super") {
        out.pop();
        rest.next();
    }
    out.extend(rest.cloned());
    Some(out)
}

/// Names a module re-exports (`pub use`), each with the absolute path it stands for.
type Reexports = BTreeMap<Vec<String>, BTreeMap<String, Vec<String>>>;

/// The file module an absolute path ends in: its longest prefix that is a module, followed
/// through the re-exports on the way (`crate::Strategy` is `crate::strategy::Strategy`).
fn module_of_path(
    path: &[String],
    modules: &BTreeSet<Vec<String>>,
    reexports: &Reexports,
    depth: usize,
) -> Option<Vec<String>> {
    let mut best = None;
    for len in 0..=path.len() {
        let prefix = &path[..len];
        if !modules.contains(prefix) {
            continue;
        }
        best = Some(prefix.to_vec());
        if depth < 8
            && let Some(next) = path.get(len)
            && let Some(target) = reexports.get(prefix).and_then(|r| r.get(next))
        {
            let mut followed = target.clone();
            followed.extend(path[len + 1..].iter().cloned());
            if followed != path {
                return module_of_path(&followed, modules, reexports, depth + 1).or(best);
            }
        }
    }
    best
}

/// The file modules `from` names through `paths`, its own ancestors and descendants left
/// out.
fn resolve(
    from: &[String],
    paths: &[Vec<String>],
    modules: &BTreeSet<Vec<String>>,
    reexports: &Reexports,
    crate_name: &str,
) -> BTreeSet<Vec<String>> {
    let mut out = BTreeSet::new();
    for path in paths {
        let Some(full) = absolute(from, path, modules, crate_name) else {
            continue;
        };
        if let Some(target) = module_of_path(&full, modules, reexports, 0) {
            let related = target.starts_with(from) || from.starts_with(&target);
            if !related {
                out.insert(target);
            }
        }
    }
    out
}

/// The groups of modules that import each other (strongly connected components of more
/// than one module), each sorted, in a stable order.
pub fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    // Tarjan's algorithm, iterative enough for a source tree's depth.
    struct State<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        on_stack: BTreeSet<&'a str>,
        stack: Vec<&'a str>,
        next: usize,
        out: Vec<Vec<String>>,
    }
    fn connect<'a>(s: &mut State<'a>, v: &'a str) {
        s.index.insert(v, s.next);
        s.low.insert(v, s.next);
        s.next += 1;
        s.stack.push(v);
        s.on_stack.insert(v);
        if let Some(targets) = s.edges.get(v) {
            for w in targets {
                let w = w.as_str();
                if !s.index.contains_key(w) {
                    connect(s, w);
                    let low = s.low[v].min(s.low[w]);
                    s.low.insert(v, low);
                } else if s.on_stack.contains(w) {
                    let low = s.low[v].min(s.index[w]);
                    s.low.insert(v, low);
                }
            }
        }
        if s.low[v] == s.index[v] {
            let mut group = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                group.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                s.out.push(group);
            }
        }
    }
    let mut s = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        on_stack: BTreeSet::new(),
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !s.index.contains_key(v.as_str()) {
            connect(&mut s, v);
        }
    }
    s.out.sort();
    s.out
}

/// Everything measured over the crates.
#[derive(Debug, Default)]
pub struct Report {
    pub files: usize,
    pub long_files: Vec<(PathBuf, usize)>,
    pub long_functions: Vec<LongFunction>,
    pub app_fields: Option<usize>,
    pub target_arch: Vec<(PathBuf, usize)>,
    pub file_cycles: Vec<Vec<String>>,
    pub top_level_cycles: Vec<Vec<String>>,
    /// Which file module imports which (`cargo xtask shape --edges` prints them).
    pub file_edges: BTreeMap<String, BTreeSet<String>>,
}

/// Measures the crates given as (name, sources): file-level cycles within each crate, and
/// cycles between the top-level modules of each.
pub fn measure(crates: &[(&str, Vec<Source>)], root: &Path) -> Result<Report, String> {
    let mut r = Report::default();
    for (name, sources) in crates {
        let modules: BTreeSet<Vec<String>> = sources.iter().map(|s| s.module.clone()).collect();
        let mut file_edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut top_edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let library = name.replace('-', "_");
        let shapes = sources
            .iter()
            .map(shape_of)
            .collect::<Result<Vec<_>, _>>()?;
        let mut reexports = Reexports::new();
        for (source, shape) in sources.iter().zip(&shapes) {
            for (reexported, path) in &shape.reexports {
                if let Some(full) = absolute(&source.module, path, &modules, &library) {
                    reexports
                        .entry(source.module.clone())
                        .or_default()
                        .insert(reexported.clone(), full);
                }
            }
        }
        for (source, shape) in sources.iter().zip(shapes) {
            let shown = source.path.strip_prefix(root).unwrap_or(&source.path);
            r.files += 1;
            if shape.code_lines > FILE_LINES {
                r.long_files.push((shown.to_path_buf(), shape.code_lines));
            }
            for (f, line, lines) in &shape.functions {
                if *lines > FUNCTION_LINES {
                    r.long_functions.push(LongFunction {
                        path: shown.to_path_buf(),
                        name: f.clone(),
                        line: *line,
                        lines: *lines,
                    });
                }
            }
            if *name == "looplab"
                && let Some((_, n)) = shape.structs.iter().find(|(s, _)| s == "App")
            {
                r.app_fields = Some(*n);
            }
            if shape.target_arch_lines > 0 {
                r.target_arch
                    .push((shown.to_path_buf(), shape.target_arch_lines));
            }
            let from = &source.module;
            let label = |m: &[String]| format!("{name}::{}", m.join("::"));
            for target in resolve(from, &shape.paths, &modules, &reexports, &library) {
                file_edges
                    .entry(label(from))
                    .or_default()
                    .insert(label(&target));
                if let (Some(a), Some(b)) = (from.first(), target.first())
                    && a != b
                {
                    top_edges
                        .entry(format!("{name}::{a}"))
                        .or_default()
                        .insert(format!("{name}::{b}"));
                }
            }
        }
        r.file_cycles.extend(cycles(&file_edges));
        r.file_edges.extend(file_edges);
        r.top_level_cycles.extend(cycles(&top_edges));
    }
    r.long_files.sort_by_key(|f| std::cmp::Reverse(f.1));
    r.long_functions.sort_by_key(|f| std::cmp::Reverse(f.lines));
    Ok(r)
}

/// The app's files where `cfg(target_arch)` may appear: the driver (native or page), the
/// platform seam, the program's entry and the page's. Everywhere else one build serves both.
pub const TARGET_ARCH_HOMES: [&str; 4] = [
    "src/app/driver/",
    "src/platform/",
    "src/main.rs",
    "src/web/",
];

impl Report {
    /// Each way the tree breaks its limits, one line each: a file over [`FILE_LINES`] or a
    /// function over [`FUNCTION_LINES`] outside tests, files or top-level modules that import
    /// each other, a `cfg(target_arch)` in the app outside [`TARGET_ARCH_HOMES`].
    pub fn failures(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (path, lines) in &self.long_files {
            out.push(format!(
                "{} has {lines} lines, over {FILE_LINES}",
                path.display()
            ));
        }
        for f in &self.long_functions {
            out.push(format!(
                "{}:{} {} has {} lines, over {FUNCTION_LINES}",
                f.path.display(),
                f.line,
                f.name,
                f.lines
            ));
        }
        for c in self.file_cycles.iter().chain(&self.top_level_cycles) {
            out.push(format!("these import each other: {}", c.join(" <-> ")));
        }
        for (path, lines) in &self.target_arch {
            let shown = path.to_string_lossy().replace('\\', "/");
            let app = shown.starts_with("src/");
            if app && !TARGET_ARCH_HOMES.iter().any(|home| shown.starts_with(home)) {
                out.push(format!(
                    "{shown} has {lines} cfg(target_arch) lines: they belong in {}",
                    TARGET_ARCH_HOMES.join(", ")
                ));
            }
        }
        out
    }

    /// Every import between file modules, one line per module.
    pub fn edges(&self) -> String {
        let mut out = String::new();
        for (from, to) in &self.file_edges {
            let to: Vec<&str> = to.iter().map(String::as_str).collect();
            let _ = writeln!(out, "{from} -> {}", to.join(", "));
        }
        out
    }

    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "{} source files (tests left out)", self.files);
        let _ = writeln!(
            out,
            "\nfiles over {FILE_LINES} lines: {}",
            self.long_files.len()
        );
        for (p, n) in &self.long_files {
            let _ = writeln!(out, "  {n:>5}  {}", p.display());
        }
        let _ = writeln!(
            out,
            "\nfunctions over {FUNCTION_LINES} lines: {}",
            self.long_functions.len()
        );
        for f in &self.long_functions {
            let _ = writeln!(
                out,
                "  {:>5}  {}:{} {}",
                f.lines,
                f.path.display(),
                f.line,
                f.name
            );
        }
        let _ = writeln!(
            out,
            "\nthe window's App: {} fields",
            self.app_fields
                .map_or("no struct App".to_string(), |n| n.to_string())
        );
        let total: usize = self.target_arch.iter().map(|t| t.1).sum();
        let _ = writeln!(
            out,
            "\ncfg lines on target_arch: {total} in {} files",
            self.target_arch.len()
        );
        for (p, n) in &self.target_arch {
            let _ = writeln!(out, "  {n:>5}  {}", p.display());
        }
        let _ = writeln!(
            out,
            "\nfiles that import each other: {} groups",
            self.file_cycles.len()
        );
        for c in &self.file_cycles {
            let _ = writeln!(out, "  {}", c.join(" <-> "));
        }
        let _ = writeln!(
            out,
            "\ntop-level modules that import each other: {} groups",
            self.top_level_cycles.len()
        );
        for c in &self.top_level_cycles {
            let _ = writeln!(out, "  {}", c.join(" <-> "));
        }
        out
    }
}

/// The workspace's crates as `cargo xtask shape` measures them.
pub fn workspace(root: &Path) -> Result<Report, String> {
    let crates = [
        ("looplab", root.join("src")),
        ("looplab-timing", root.join("crates/looplab-timing/src")),
        ("looplab-peers", root.join("peers/src")),
        ("looplab-winit", root.join("crates/looplab-winit/src")),
        ("looplab-bevy", root.join("crates/looplab-bevy/src")),
        ("looplab-headless", root.join("crates/looplab-headless/src")),
        ("xtask", root.join("xtask/src")),
    ];
    let mut read = Vec::new();
    for (name, dir) in crates {
        read.push((name, read_crate(&dir)?));
    }
    measure(&read, root)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(path: &str, text: &str) -> Source {
        Source {
            path: PathBuf::from(path),
            module: module_of(Path::new(path)),
            text: text.to_string(),
        }
    }

    #[test]
    fn files_map_to_modules() {
        assert_eq!(module_of(Path::new("lib.rs")), Vec::<String>::new());
        assert_eq!(module_of(Path::new("app/mod.rs")), ["app"]);
        assert_eq!(module_of(Path::new("app/overlay.rs")), ["app", "overlay"]);
    }

    #[test]
    fn two_siblings_naming_each_other_are_a_cycle_and_a_parent_is_not() {
        let crate_ = vec![
            source("lib.rs", "mod render; mod world;"),
            source(
                "render/mod.rs",
                "mod scene; mod sprites; pub use sprites::Sprite;",
            ),
            source(
                "render/scene.rs",
                "use super::sprites::Sprite; use crate::world::World;",
            ),
            source(
                "render/sprites.rs",
                "pub struct Sprite; fn f() { super::scene::draw(); } use super::Thing;",
            ),
            source("world/mod.rs", "pub struct World { a: u8, b: u8 }"),
        ];
        let r = measure(&[("looplab", crate_)], Path::new("")).unwrap();
        assert_eq!(
            r.file_cycles,
            [vec![
                "looplab::render::scene".to_string(),
                "looplab::render::sprites".to_string()
            ]]
        );
        assert!(r.top_level_cycles.is_empty(), "{:?}", r.top_level_cycles);
    }

    #[test]
    fn a_name_the_root_re_exports_is_followed_to_its_module() {
        let crate_ = vec![
            source(
                "lib.rs",
                "mod error; mod strategy; pub use strategy::Strategy;",
            ),
            source("error.rs", "fn f() { for s in crate::Strategy::ALL {} }"),
            source("strategy.rs", "use crate::error::TimingError;"),
        ];
        let r = measure(&[("looplab-timing", crate_)], Path::new("")).unwrap();
        assert_eq!(
            r.file_cycles,
            [vec![
                "looplab-timing::error".to_string(),
                "looplab-timing::strategy".to_string()
            ]]
        );
    }

    #[test]
    fn a_loop_between_top_level_modules_is_found() {
        let crate_ = vec![
            source("failure.rs", "fn f(s: crate::platform::signals::Signal) {}"),
            source("platform/mod.rs", "pub mod signals;"),
            source("platform/signals.rs", "use crate::failure::Failure;"),
        ];
        let r = measure(&[("looplab", crate_)], Path::new("")).unwrap();
        assert_eq!(
            r.top_level_cycles,
            [vec![
                "looplab::failure".to_string(),
                "looplab::platform".to_string()
            ]]
        );
    }

    #[test]
    fn long_functions_and_files_are_counted_without_their_tests() {
        let body = "    let x = 1;\n".repeat(90);
        let tests = "    #[test]\n    fn t() {}\n".repeat(400);
        let text = format!(
            "struct App {{ a: u8, b: u8, c: u8 }}\nfn long() {{\n{body}}}\nfn short() {{}}\n#[cfg(test)]\nmod tests {{\n{tests}}}\n"
        );
        let r = measure(&[("looplab", vec![source("app.rs", &text)])], Path::new("")).unwrap();
        assert_eq!(r.long_functions.len(), 1);
        assert_eq!(r.long_functions[0].name, "long");
        assert_eq!(r.long_functions[0].lines, 92);
        assert!(r.long_files.is_empty(), "{:?}", r.long_files);
        assert_eq!(r.app_fields, Some(3));
    }

    #[test]
    fn a_target_arch_outside_its_homes_and_a_long_function_fail_the_tree() {
        let cfg = "#[cfg(target_arch = \"wasm32\")]\nfn f() {}\n";
        let long = format!("fn long() {{\n{}}}\n", "    let x = 1;\n".repeat(90));
        let crates = [(
            "looplab",
            vec![
                source("src/platform/clock.rs", cfg),
                source("src/lab/run.rs", cfg),
                source("src/world/mod.rs", &long),
            ],
        )];
        let failures = measure(&crates, Path::new("")).unwrap().failures();
        assert_eq!(failures.len(), 2, "{failures:?}");
        assert!(
            failures[0].starts_with("src/world/mod.rs:1 long has 92 lines"),
            "{failures:?}"
        );
        assert!(
            failures[1].starts_with("src/lab/run.rs has 1 cfg(target_arch) lines"),
            "{failures:?}"
        );
    }
}
