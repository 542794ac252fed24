//! The rule of `src/lib.rs`'s layout, checked: no import circle between
//! the library's files. A file imports another when it names a path into
//! it: a `use` (groups over several lines included), a `crate::`,
//! `super::` or `self::` path in code or in an attribute (also as the
//! string of `deserialize_with = "crate::x::f"`), or a path through a
//! child module or a module alias of its own. A path names the deepest
//! module file it reaches: `crate::a::b::C` is `src/a/b.rs` (or
//! `src/a/b/mod.rs`) if that exists, else `src/a.rs` or `src/a/mod.rs`.
//! `mod x;` only declares a part and is not an import, but a `mod.rs`'s
//! `pub use x::Thing` is, so a part that imports `super::Thing`, which its
//! `mod.rs` only re-exports, is a circle.
//!
//! The reading is lexical (comments and string literals are skipped, macro
//! bodies are read as code), which is all this rule needs: no type
//! resolution, no dependency. The unit tests below hold the reader to the
//! cases that matter, and the crate-wide test checks it found a plausible
//! number of files and imports, so it cannot pass by finding nothing.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::path::Path;

/// Circles allowed for now: none. A circle is fixed, not listed here.
const ALLOWED_CIRCLES: &[&[&str]] = &[];

#[test]
fn no_two_files_of_the_library_import_each_other() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = read_tree(&src);
    let graph = Graph::build(&files);
    // Not vacuous: the library has some sixty files and about two hundred
    // imports between them; a reader that finds far fewer is broken.
    assert!(graph.files.len() >= 50, "{} files", graph.files.len());
    let edges = graph.edges.len();
    assert!(
        edges >= 150,
        "only {edges} imports between files were found"
    );
    for (from, to) in [
        ("reserve/reserver.rs", "slugger.rs"),
        ("http/router.rs", "http/health.rs"),
        ("reserve/mod.rs", "reserve/error.rs"),
        ("cli.rs", "table/mod.rs"),
    ] {
        assert!(
            graph.edges.contains_key(&(from.into(), to.into())),
            "the import {from} -> {to} was not found"
        );
    }
    let circles: Vec<Vec<String>> = graph
        .circles()
        .into_iter()
        .filter(|c| !ALLOWED_CIRCLES.iter().any(|a| a.iter().eq(c.iter())))
        .collect();
    assert!(circles.is_empty(), "{}", graph.report(&circles));
}

/// Every `.rs` file under `src`, by its path relative to it (`a/b.rs`),
/// except `main.rs`, the binary's own crate.
fn read_tree(src: &Path) -> BTreeMap<String, String> {
    fn walk(dir: &Path, rel: &str, out: &mut BTreeMap<String, String>) {
        let entries =
            std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
        for entry in entries {
            let entry = entry.unwrap();
            let name = entry.file_name().into_string().unwrap();
            let path = entry.path();
            let rel = format!("{rel}{name}");
            if path.is_dir() {
                walk(&path, &format!("{rel}/"), out);
            } else if name.ends_with(".rs") && rel != "main.rs" {
                let text = std::fs::read_to_string(&path)
                    .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
                out.insert(rel, text);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(src, "", &mut out);
    out
}

/// The module path of a file: `lib.rs` is the crate root, `a/mod.rs` and
/// `a.rs` are `a`, `a/b.rs` is `a::b`.
fn module_of(file: &str) -> Vec<String> {
    let stem = file.strip_suffix(".rs").expect("a .rs file");
    let mut parts: Vec<String> = stem.split('/').map(str::to_owned).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The import graph between files.
struct Graph {
    /// Every file read.
    files: BTreeSet<String>,
    /// Each import between two files, with where it is made: `(line, path)`.
    edges: BTreeMap<(String, String), Vec<(usize, String)>>,
}

impl Graph {
    fn build(sources: &BTreeMap<String, String>) -> Self {
        let modules: HashMap<Vec<String>, String> =
            sources.keys().map(|f| (module_of(f), f.clone())).collect();
        let scans: Vec<Scan> = sources.iter().map(|(f, t)| Scan::new(f, t)).collect();
        let reexports: HashMap<String, HashMap<String, usize>> = scans
            .iter()
            .map(|s| (s.file.clone(), s.reexports()))
            .collect();
        let mut edges: BTreeMap<(String, String), Vec<(usize, String)>> = BTreeMap::new();
        for scan in &scans {
            let file = &scan.file;
            for import in scan.imports(&modules, &reexports) {
                if &import.to == file {
                    continue;
                }
                if let Some((name, line)) = &import.through {
                    // The mod.rs names this part; the part takes back what
                    // the mod.rs only passes on: a circle.
                    let why = format!(
                        "re-exports {name}, which {file} (a part this mod.rs names) imports through it"
                    );
                    edges
                        .entry((import.to.clone(), file.clone()))
                        .or_default()
                        .push((*line, why));
                }
                edges
                    .entry((file.clone(), import.to))
                    .or_default()
                    .push((import.line, import.path));
            }
        }
        for found in edges.values_mut() {
            found.sort();
            found.dedup();
        }
        Graph {
            files: sources.keys().cloned().collect(),
            edges,
        }
    }

    fn next(&self, from: &str) -> impl Iterator<Item = &str> {
        self.edges
            .keys()
            .filter(move |(f, _)| f == from)
            .map(|(_, t)| t.as_str())
    }

    fn reach(&self, from: &str) -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_owned()];
        while let Some(f) = todo.pop() {
            for t in self.next(&f) {
                if seen.insert(t.to_owned()) {
                    todo.push(t.to_owned());
                }
            }
        }
        seen
    }

    /// The circles: each group of files that reach each other, sorted.
    fn circles(&self) -> Vec<Vec<String>> {
        let reach: BTreeMap<&String, BTreeSet<String>> =
            self.files.iter().map(|f| (f, self.reach(f))).collect();
        let mut done = BTreeSet::new();
        let mut groups = Vec::new();
        for (f, r) in &reach {
            if done.contains(*f) || !r.contains(*f) {
                continue;
            }
            let group: Vec<String> = r
                .iter()
                .filter(|g| reach[g].contains(*f))
                .cloned()
                .collect();
            done.extend(group.iter().cloned());
            groups.push(group);
        }
        groups
    }

    /// A shortest way round from the first file of `group` back to it.
    fn way_round(&self, group: &[String]) -> Vec<String> {
        let first = &group[0];
        let mut before: HashMap<&str, &str> = HashMap::new();
        let mut queue = VecDeque::from([first.as_str()]);
        while let Some(g) = queue.pop_front() {
            for t in self.next(g) {
                if t == first {
                    let mut way = vec![first.clone(), g.to_owned()];
                    let mut at = g;
                    while let Some(b) = before.get(at) {
                        way.push((*b).to_owned());
                        at = b;
                    }
                    way.reverse();
                    if way.len() > 2 && way[0] == way[1] {
                        way.remove(0);
                    }
                    return way;
                }
                if group.iter().any(|m| m == t) && !before.contains_key(t) {
                    before.insert(t, g);
                    queue.push_back(t);
                }
            }
        }
        unreachable!("the files of a group reach each other")
    }

    fn report(&self, groups: &[Vec<String>]) -> String {
        let mut out = format!(
            "{} import circle(s) between files of src/. The rule (src/lib.rs): no \
             file imports, directly or through others, a file that imports it; a \
             mod.rs names its parts and re-exports, and the parts import each other \
             by path, never the mod.rs that names them. Move what two files share \
             into a file that imports neither.\n",
            groups.len()
        );
        for group in groups {
            let way = self.way_round(group);
            out.push_str(&format!(
                "\ncircle: {}\n  (files in it: {})\n",
                way.join(" -> "),
                group.join(", ")
            ));
            for ((from, to), found) in &self.edges {
                if group.contains(from) && group.contains(to) {
                    for (line, path) in found {
                        out.push_str(&format!("  src/{from}:{line}: {path} -> {to}\n"));
                    }
                }
            }
        }
        out
    }
}

/// A token of Rust source, as far as paths need.
#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    /// `::`
    PathSep,
    Open(char),
    Close(char),
    Comma,
    Semi,
    Star,
    Dollar,
    /// A string literal's contents.
    Str(String),
    Other,
}

/// The tokens of `text`, each with its line, without comments.
fn lex(text: &str) -> Vec<(Tok, usize)> {
    let c: Vec<char> = text.chars().collect();
    let at = |i: usize| c.get(i).copied().unwrap_or('\0');
    let ident_char = |ch: char| ch.is_alphanumeric() || ch == '_';
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    // Skips a quoted literal whose opening quote is at `i`, with escapes;
    // gives its contents.
    let quoted = |i: &mut usize, line: &mut usize, raw_hashes: Option<usize>| -> String {
        let mut s = String::new();
        *i += 1;
        while *i < c.len() {
            let ch = c[*i];
            if ch == '\n' {
                *line += 1;
            }
            match raw_hashes {
                None if ch == '\\' => {
                    if at(*i + 1) == '\n' {
                        *line += 1;
                    }
                    *i += 2;
                    continue;
                }
                None if ch == '"' => {
                    *i += 1;
                    return s;
                }
                Some(n) if ch == '"' && (1..=n).all(|k| at(*i + k) == '#') => {
                    *i += 1 + n;
                    return s;
                }
                _ => {}
            }
            s.push(ch);
            *i += 1;
        }
        s
    };
    while i < c.len() {
        let ch = c[i];
        let start = line;
        match ch {
            '\n' => {
                line += 1;
                i += 1;
            }
            _ if ch.is_whitespace() => i += 1,
            '/' if at(i + 1) == '/' => {
                while i < c.len() && c[i] != '\n' {
                    i += 1;
                }
            }
            '/' if at(i + 1) == '*' => {
                let mut depth = 0;
                while i < c.len() {
                    if c[i] == '/' && at(i + 1) == '*' {
                        depth += 1;
                        i += 2;
                    } else if c[i] == '*' && at(i + 1) == '/' {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        if c[i] == '\n' {
                            line += 1;
                        }
                        i += 1;
                    }
                }
            }
            '"' => {
                let s = quoted(&mut i, &mut line, None);
                out.push((Tok::Str(s), start));
            }
            '\'' => {
                if at(i + 1) == '\\' {
                    // An escaped character: '\n', '\'', '\u{..}'.
                    i += 2;
                    while i < c.len() && c[i] != '\'' {
                        i += 1;
                    }
                    i += 1;
                } else if at(i + 2) == '\'' {
                    i += 3;
                } else {
                    // A lifetime or a label: the name follows as an ident.
                    i += 1;
                }
                out.push((Tok::Other, start));
            }
            _ if ch.is_alphabetic() || ch == '_' => {
                // Literal prefixes: b'x', b"..", c"..", r"..", r#".."#, br#".."#.
                let prefix_len = match (ch, at(i + 1)) {
                    ('b', 'r') | ('c', 'r') => 2,
                    ('b' | 'c' | 'r', _) => 1,
                    _ => 0,
                };
                if prefix_len > 0 {
                    let r = i + prefix_len;
                    let raw = ch == 'r' || prefix_len == 2;
                    let hashes = (r..).take_while(|&k| at(k) == '#').count();
                    if raw && at(r + hashes) == '"' {
                        i = r + hashes;
                        let s = quoted(&mut i, &mut line, Some(hashes));
                        out.push((Tok::Str(s), start));
                        continue;
                    }
                    if !raw && at(r) == '"' {
                        i = r;
                        let s = quoted(&mut i, &mut line, None);
                        out.push((Tok::Str(s), start));
                        continue;
                    }
                    if ch == 'b' && at(i + 1) == '\'' {
                        // A byte: let the quote be read as a character.
                        i += 1;
                        continue;
                    }
                    if ch == 'r' && at(i + 1) == '#' && ident_char(at(i + 2)) {
                        // A raw identifier, r#type.
                        i += 2;
                    }
                }
                let from = i;
                while i < c.len() && ident_char(c[i]) {
                    i += 1;
                }
                out.push((Tok::Ident(c[from..i].iter().collect()), start));
            }
            _ if ch.is_ascii_digit() => {
                while i < c.len() && ident_char(c[i]) {
                    i += 1;
                }
                out.push((Tok::Other, start));
            }
            ':' if at(i + 1) == ':' => {
                out.push((Tok::PathSep, start));
                i += 2;
            }
            _ => {
                out.push((
                    match ch {
                        '{' | '(' | '[' => Tok::Open(ch),
                        '}' | ')' | ']' => Tok::Close(ch),
                        ',' => Tok::Comma,
                        ';' => Tok::Semi,
                        '*' => Tok::Star,
                        '$' => Tok::Dollar,
                        _ => Tok::Other,
                    },
                    start,
                ));
                i += 1;
            }
        }
    }
    out
}

/// One path a `use` names: `use a::{b, c as d, e::*}` names `a::b` (as
/// `b`), `a::c` (as `d`) and everything in `a::e`.
#[derive(Debug, PartialEq)]
struct UseLeaf {
    path: Vec<String>,
    /// The name it is brought in as; `None` for a glob.
    name: Option<String>,
}

/// Reads the use tree starting at `toks[*i]`, under `prefix`, into `out`.
fn use_tree(toks: &[(Tok, usize)], i: &mut usize, prefix: &[String], out: &mut Vec<UseLeaf>) {
    let tok = |i: usize| toks.get(i).map(|t| &t.0);
    let mut path = prefix.to_vec();
    let mut own = 0;
    loop {
        match tok(*i) {
            Some(Tok::PathSep) => {
                // `::x` at the start names an external crate: never ours.
                if own == 0 && prefix.is_empty() {
                    path.push("::".into());
                }
                *i += 1;
            }
            Some(Tok::Ident(s)) if s == "self" && own == 0 && !prefix.is_empty() => {
                *i += 1;
                let name = rename(toks, i).or_else(|| path.last().cloned());
                out.push(UseLeaf { path, name });
                return;
            }
            Some(Tok::Ident(s)) => {
                path.push(s.clone());
                own += 1;
                *i += 1;
                if tok(*i) != Some(&Tok::PathSep) {
                    let name = rename(toks, i).or_else(|| path.last().cloned());
                    out.push(UseLeaf { path, name });
                    return;
                }
            }
            Some(Tok::Star) => {
                *i += 1;
                out.push(UseLeaf { path, name: None });
                return;
            }
            Some(Tok::Open('{')) => {
                *i += 1;
                loop {
                    match tok(*i) {
                        Some(Tok::Close('}')) => {
                            *i += 1;
                            return;
                        }
                        Some(Tok::Comma) => *i += 1,
                        None | Some(Tok::Semi) => return,
                        Some(_) => {
                            let before = *i;
                            use_tree(toks, i, &path, out);
                            if *i == before {
                                *i += 1;
                            }
                        }
                    }
                }
            }
            _ => return,
        }
    }
}

/// `as name` after a use leaf, if there.
fn rename(toks: &[(Tok, usize)], i: &mut usize) -> Option<String> {
    match (toks.get(*i).map(|t| &t.0), toks.get(*i + 1).map(|t| &t.0)) {
        (Some(Tok::Ident(a)), Some(Tok::Ident(name))) if a == "as" => {
            *i += 2;
            Some(name.clone())
        }
        _ => None,
    }
}

/// What a path starts from.
struct Context<'a> {
    /// The module of the file.
    file: &'a [String],
    /// Where the path is written: the file's module or a `mod x { }` in it.
    scope: &'a [String],
    /// Modules brought in by name: `use crate::table;` makes `table` one.
    aliases: &'a HashMap<String, Vec<String>>,
    modules: &'a HashMap<Vec<String>, String>,
}

impl Context<'_> {
    /// The module `path` reaches and, unless every segment of it is a
    /// module, the index of the first that is not; `None` for a path
    /// outside the crate.
    fn resolve(&self, path: &[String]) -> Option<(Vec<String>, Option<usize>)> {
        let first = path.first()?.as_str();
        let (mut base, start) = match first {
            "crate" => (Vec::new(), 1),
            "self" | "super" => {
                let mut base = self.scope.to_vec();
                let mut k = 0;
                while let Some(seg) = path.get(k) {
                    match seg.as_str() {
                        "self" => {}
                        "super" => {
                            base.pop()?;
                        }
                        _ => break,
                    }
                    k += 1;
                }
                (base, k)
            }
            _ if self.aliases.contains_key(first) => (self.aliases[first].clone(), 1),
            _ if self.is_child(first) => (self.file.to_vec(), 0),
            _ => return None,
        };
        if !self.modules.contains_key(&base) {
            // Inside an inline module (`mod tests { }`): its file.
            while !self.modules.contains_key(&base) {
                base.pop()?;
            }
            return Some((base, Some(start)));
        }
        let mut k = start;
        while let Some(seg) = path.get(k) {
            base.push(seg.clone());
            if !self.modules.contains_key(&base) {
                base.pop();
                return Some((base, Some(k)));
            }
            k += 1;
        }
        Some((base, None))
    }

    fn is_child(&self, name: &str) -> bool {
        let mut child = self.file.to_vec();
        child.push(name.to_owned());
        self.modules.contains_key(&child)
    }
}

/// A file read into tokens, with the module each token is in and its uses.
struct Scan {
    file: String,
    module: Vec<String>,
    toks: Vec<(Tok, usize)>,
    /// The module each token is in, for `super` and `self`: the file's, or
    /// an inline module's (`mod tests { }`).
    scope_of: Vec<Vec<String>>,
    /// Each `use`: its first token, whether it is `pub`, what it names.
    uses: Vec<(usize, bool, Vec<UseLeaf>)>,
    /// Which tokens belong to a `use`.
    in_use: Vec<bool>,
}

impl Scan {
    fn new(file: &str, text: &str) -> Self {
        let toks = lex(text);
        let module = module_of(file);
        let tok = |i: usize| toks.get(i).map(|t| &t.0);
        let is_ident = |i: usize, s: &str| matches!(tok(i), Some(Tok::Ident(x)) if x == s);

        let mut scope_of = Vec::with_capacity(toks.len());
        let mut scopes: Vec<(usize, Vec<String>)> = vec![(0, module.clone())];
        let mut depth = 0usize;
        for (i, (t, _)) in toks.iter().enumerate() {
            match t {
                Tok::Open('{') => {
                    depth += 1;
                    if i >= 2
                        && let Some(Tok::Ident(name)) = tok(i - 1)
                        && is_ident(i - 2, "mod")
                    {
                        let mut m = scopes.last().unwrap().1.clone();
                        m.push(name.clone());
                        scopes.push((depth, m));
                    }
                }
                Tok::Close('}') => {
                    if scopes.len() > 1 && scopes.last().unwrap().0 == depth {
                        scopes.pop();
                    }
                    depth = depth.saturating_sub(1);
                }
                _ => {}
            }
            scope_of.push(scopes.last().unwrap().1.clone());
        }

        let mut uses = Vec::new();
        let mut in_use = vec![false; toks.len()];
        let mut i = 0;
        while i < toks.len() {
            if is_ident(i, "use") && tok(i.wrapping_sub(1)) != Some(&Tok::Dollar) {
                // `pub use`, `pub(crate) use`, `pub(in crate::x) use`.
                let public = match tok(i.wrapping_sub(1)) {
                    Some(Tok::Ident(p)) => p == "pub",
                    Some(Tok::Close(')')) => {
                        let open = (0..i).rev().find(|&k| tok(k) == Some(&Tok::Open('(')));
                        open.is_some_and(|k| k > 0 && is_ident(k - 1, "pub"))
                    }
                    _ => false,
                };
                let mut j = i + 1;
                let mut leaves = Vec::new();
                use_tree(&toks, &mut j, &[], &mut leaves);
                while j < toks.len() && tok(j) != Some(&Tok::Semi) {
                    j += 1;
                }
                in_use[i..j.min(toks.len())].fill(true);
                uses.push((i, public, leaves));
                i = j;
            }
            i += 1;
        }
        Scan {
            file: file.to_owned(),
            module,
            toks,
            scope_of,
            uses,
            in_use,
        }
    }

    /// The names this file re-exports (`pub use x::Thing`), with the line.
    fn reexports(&self) -> HashMap<String, usize> {
        let mut out = HashMap::new();
        for (start, public, leaves) in &self.uses {
            for leaf in leaves.iter().filter(|_| *public) {
                if let Some(name) = &leaf.name {
                    out.insert(name.clone(), self.toks[*start].1);
                }
            }
        }
        out
    }

    /// Every path into the crate this file names.
    fn imports(
        &self,
        modules: &HashMap<Vec<String>, String>,
        reexports: &HashMap<String, HashMap<String, usize>>,
    ) -> Vec<Import> {
        let toks = &self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.0);
        let no_aliases = HashMap::new();
        let mut aliases = HashMap::new();
        for (start, _, leaves) in &self.uses {
            for leaf in leaves {
                let cx = Context {
                    file: &self.module,
                    scope: &self.scope_of[*start],
                    aliases: &no_aliases,
                    modules,
                };
                if let (Some((m, None)), Some(name)) = (cx.resolve(&leaf.path), &leaf.name) {
                    aliases.insert(name.clone(), m);
                }
            }
        }
        // The mod.rs that names this file, if any, and what it re-exports.
        let parent = self.module.split_last().map(|(_, p)| p.to_vec());
        let parent_file = parent.as_ref().and_then(|p| modules.get(p));
        let parent_reexports = parent_file.and_then(|f| reexports.get(f));

        let mut out = Vec::new();
        let mut found = |i: usize, path: &[String], glob: bool| {
            let cx = Context {
                file: &self.module,
                scope: &self.scope_of[i],
                aliases: &aliases,
                modules,
            };
            let Some((m, rest)) = cx.resolve(path) else {
                return;
            };
            let to = modules[&m].clone();
            // A part importing through the mod.rs that names it, a name
            // that mod.rs only re-exports (or all of them, with a glob).
            let through = match (Some(&to) == parent_file, parent_reexports) {
                (true, Some(names)) => match rest.and_then(|k| path.get(k)) {
                    Some(name) => names.get_key_value(name),
                    None if glob => names.iter().min_by_key(|(_, line)| **line),
                    None => None,
                },
                _ => None,
            };
            out.push(Import {
                line: toks[i].1,
                path: path.join("::") + if glob { "::*" } else { "" },
                to,
                through: through.map(|(n, l)| (n.clone(), *l)),
            });
        };
        for (start, _, leaves) in &self.uses {
            for leaf in leaves {
                found(*start, &leaf.path, leaf.name.is_none());
            }
        }
        let mut i = 0;
        while i < toks.len() {
            match &toks[i].0 {
                _ if self.in_use[i] => {}
                Tok::Ident(first)
                    if tok(i + 1) == Some(&Tok::PathSep)
                        && !matches!(tok(i.wrapping_sub(1)), Some(Tok::PathSep | Tok::Dollar)) =>
                {
                    let mut path = vec![first.clone()];
                    let mut j = i + 1;
                    while tok(j) == Some(&Tok::PathSep) {
                        match tok(j + 1) {
                            Some(Tok::Ident(s)) => path.push(s.clone()),
                            _ => break,
                        }
                        j += 2;
                    }
                    found(i, &path, false);
                    i = j;
                    continue;
                }
                // `deserialize_with = "crate::options::words"` and the
                // like: a string that is nothing but a path into the crate.
                Tok::Str(s) if s.contains("::") => {
                    let path: Vec<String> = s.split("::").map(str::to_owned).collect();
                    let ident = |p: &String| {
                        !p.is_empty()
                            && p.chars().all(|ch| ch.is_alphanumeric() || ch == '_')
                            && !p.starts_with(|ch: char| ch.is_ascii_digit())
                    };
                    if matches!(path[0].as_str(), "crate" | "super" | "self")
                        && path.iter().all(ident)
                    {
                        found(i, &path, false);
                    }
                }
                _ => {}
            }
            i += 1;
        }
        out
    }
}

/// A path into the crate that a file names.
struct Import {
    line: usize,
    /// As written.
    path: String,
    /// The file it reaches.
    to: String,
    /// When `to` is the mod.rs that names this file and the path takes a
    /// name that mod.rs re-exports: the name and the line of its `pub use`.
    through: Option<(String, usize)>,
}

mod reader {
    use super::*;

    fn graph(files: &[(&str, &str)]) -> Graph {
        let files = files
            .iter()
            .map(|(f, t)| ((*f).to_owned(), (*t).to_owned()))
            .collect();
        Graph::build(&files)
    }

    fn edges(g: &Graph) -> Vec<String> {
        g.edges.keys().map(|(f, t)| format!("{f} -> {t}")).collect()
    }

    #[test]
    fn a_use_and_a_path_in_code_are_imports_of_the_deepest_module_file() {
        let g = graph(&[
            ("lib.rs", "pub mod a;\npub mod b;\npub mod c;\n"),
            ("a/mod.rs", "mod x;\npub fn f() {}\n"),
            ("a/x.rs", "pub struct X;\n"),
            ("b.rs", "use crate::a::x::X;\nfn g() { crate::c::h(); }\n"),
            ("c.rs", "pub fn h() { let _ = crate::a::f(); }\n"),
        ]);
        assert_eq!(
            edges(&g),
            ["b.rs -> a/x.rs", "b.rs -> c.rs", "c.rs -> a/mod.rs"]
        );
        assert!(g.circles().is_empty());
    }

    #[test]
    fn a_group_over_several_lines_names_each_of_its_paths() {
        let g = graph(&[
            ("lib.rs", "mod a; mod c; mod d;"),
            ("a/mod.rs", "pub mod b;"),
            ("a/b.rs", ""),
            ("c/mod.rs", "pub mod d; pub mod e;"),
            ("c/d.rs", ""),
            ("c/e.rs", ""),
            (
                "d.rs",
                "pub(crate) use crate::{\n    a::b,\n    c::{d, e::{self, E as F}},\n};\n",
            ),
        ]);
        assert_eq!(
            edges(&g),
            ["d.rs -> a/b.rs", "d.rs -> c/d.rs", "d.rs -> c/e.rs"]
        );
        let g = graph(&[
            ("lib.rs", "mod a; mod b;"),
            ("a.rs", "use crate::b::{\n  X,\n  Y,\n};"),
            ("b.rs", "use super::a::Z;"),
        ]);
        assert_eq!(g.circles(), [vec!["a.rs", "b.rs"]]);
        assert_eq!(g.way_round(&g.circles()[0]), ["a.rs", "b.rs", "a.rs"]);
    }

    #[test]
    fn comments_strings_and_the_files_own_test_module_are_not_imports() {
        let g = graph(&[
            ("lib.rs", "mod a; mod b;"),
            (
                "a.rs",
                "//! See [`crate::b`].\n/* crate::b::x /* nested */ crate::b */\n\
                 fn f() { let s = \"crate::b::X is named\"; let r = r#\"see crate::b\"#; \
                 let c = '\"'; let l: &'static str = s; }\n\
                 #[cfg(test)]\nmod tests {\n    use super::*;\n    fn t() { super::f(); self::g(); }\n    fn g() {}\n}\n",
            ),
            ("b.rs", "pub struct X;"),
        ]);
        assert_eq!(edges(&g), Vec::<String>::new());
    }

    #[test]
    fn paths_in_attributes_and_serde_strings_are_imports() {
        let g = graph(&[
            ("lib.rs", "mod e; mod s; mod o;"),
            (
                "e.rs",
                "#[error(\"at most {max}\", max = super::s::MAX)]\nstruct E;",
            ),
            ("s.rs", "pub const MAX: usize = 1;"),
            (
                "o.rs",
                "#[serde(deserialize_with = \"crate::s::words\")]\nstruct O;",
            ),
        ]);
        assert_eq!(edges(&g), ["e.rs -> s.rs", "o.rs -> s.rs"]);
    }

    #[test]
    fn a_mod_rs_re_export_is_an_import_and_a_part_importing_it_back_a_circle() {
        let reexport = (
            "r/mod.rs",
            "mod error;\nmod store;\npub use self::error::E;\n",
        );
        let g = graph(&[
            ("lib.rs", "mod r;"),
            reexport,
            ("r/error.rs", "pub enum E {}"),
            ("r/store.rs", "use super::E;"),
        ]);
        assert_eq!(g.circles(), [vec!["r/mod.rs", "r/store.rs"]]);
        let report = g.report(&g.circles());
        assert!(
            report.contains("src/r/mod.rs:3: re-exports E, which r/store.rs"),
            "{report}"
        );
        // A glob of the mod.rs takes its re-exports too.
        let g = graph(&[
            ("lib.rs", "mod r;"),
            reexport,
            ("r/error.rs", "pub enum E {}"),
            ("r/store.rs", "use super::*;"),
        ]);
        assert_eq!(g.circles(), [vec!["r/mod.rs", "r/store.rs"]]);
        // `mod x;` alone is not an import: a part may use what its mod.rs
        // defines itself.
        let g = graph(&[
            ("lib.rs", "mod r;"),
            ("r/mod.rs", "mod store;\npub struct Thing;\n"),
            ("r/store.rs", "use super::Thing;"),
        ]);
        assert_eq!(edges(&g), ["r/store.rs -> r/mod.rs"]);
        assert!(g.circles().is_empty());
        // A bare child name in a mod.rs, without `self::`, is its part.
        let g = graph(&[
            ("lib.rs", "mod r;"),
            (
                "r/mod.rs",
                "mod store;\npub use store::S;\nfn f() { store::g(); }",
            ),
            ("r/store.rs", ""),
        ]);
        assert_eq!(edges(&g), ["r/mod.rs -> r/store.rs"]);
    }

    #[test]
    fn a_module_brought_in_by_name_leads_on_to_its_parts() {
        let g = graph(&[
            ("lib.rs", "mod t; mod u;"),
            ("t/mod.rs", "pub mod layout;"),
            ("t/layout.rs", ""),
            (
                "u.rs",
                "use crate::t::{self as table};\nfn f() { table::layout::KEY; }",
            ),
        ]);
        assert_eq!(edges(&g), ["u.rs -> t/layout.rs", "u.rs -> t/mod.rs"]);
    }

    #[test]
    fn every_circle_is_reported_with_the_lines_that_make_it() {
        let g = graph(&[
            ("lib.rs", "mod r;"),
            (
                "r/mod.rs",
                "mod error; mod store; mod settings; mod reserved;",
            ),
            ("r/error.rs", "const M: usize = super::store::MAX;"),
            (
                "r/store.rs",
                "use super::error::E;\nuse super::settings::W;",
            ),
            ("r/settings.rs", "use super::reserved::R;"),
            ("r/reserved.rs", "use super::store::is_slug;"),
        ]);
        let circles = g.circles();
        let four = ["r/error.rs", "r/reserved.rs", "r/settings.rs", "r/store.rs"];
        assert_eq!(circles, [four], "one group of four files, reported once");
        let report = g.report(&circles);
        assert!(
            report.contains("circle: r/error.rs -> r/store.rs -> r/error.rs"),
            "{report}"
        );
        for line in [
            "src/r/error.rs:1: super::store::MAX -> r/store.rs",
            "src/r/store.rs:1: super::error::E -> r/error.rs",
            "src/r/store.rs:2: super::settings::W -> r/settings.rs",
            "src/r/settings.rs:1: super::reserved::R -> r/reserved.rs",
            "src/r/reserved.rs:1: super::store::is_slug -> r/store.rs",
        ] {
            assert!(report.contains(line), "{line} not in {report}");
        }
    }
}
