//! Import circles between the source files of every crate of the workspace
//! (the binary's `src/` and each `crates/*/src/`, each crate on its own): two
//! files whose modules name each other, directly or through others, through
//! `crate::…` (resolved within the file's own crate), `super::…` or
//! `self::…` paths (in `use` or inline; comments and strings left out). A
//! parent and its own descendants do not count (the parent declares them).
//! Circles make a module impossible to read or test on its own; the workspace
//! keeps none, and this test lists them when there are. Within
//! crates/clients, a module never names one of a higher layer (shared,
//! features, commands).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module: its crate (`#bin` for the binary, else the directory under
/// `crates/`), then its path from that crate's root.
type Module = Vec<String>;

/// Every crate's source directory, by the name its modules start with.
fn crate_sources() -> Vec<(String, PathBuf)> {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut sources = vec![("#bin".to_string(), workspace.join("src"))];
    let mut members: Vec<PathBuf> = std::fs::read_dir(workspace.join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path().join("src"))
        .filter(|src| src.is_dir())
        .collect();
    members.sort();
    for src in members {
        let name = src.parent().unwrap().file_name().unwrap();
        sources.push((name.to_string_lossy().into_owned(), src));
    }
    sources
}

/// Every `.rs` file under `dir` of the crate `name` rooted at `root`, by module.
fn modules(name: &str, root: &Path, dir: &Path, found: &mut BTreeMap<Module, PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            modules(name, root, &path, found);
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let rel = path.strip_prefix(root).unwrap().with_extension("");
        let mut module: Module = vec![name.to_string()];
        module.extend(
            rel.components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned()),
        );
        if module
            .last()
            .is_some_and(|m| m == "mod" || m == "lib" || m == "main")
        {
            module.pop();
        }
        found.insert(module, path);
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Ident(String),
    Path,
    Open,
    Close,
    Comma,
    Other(char),
}

/// The tokens that matter for paths, without comments, strings and character
/// literals.
fn tokens(src: &str) -> Vec<Token> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && is_raw_string(&chars, i) {
            i = skip_raw_string(&chars, i);
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else if c == '\'' && char_literal_end(&chars, i).is_some() {
            i = char_literal_end(&chars, i).unwrap();
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Token::Ident(chars[start..i].iter().collect()));
        } else {
            out.push(match c {
                ':' if next == Some(':') => {
                    i += 1;
                    Token::Path
                }
                '{' => Token::Open,
                '}' => Token::Close,
                ',' => Token::Comma,
                c => Token::Other(c),
            });
            i += 1;
        }
    }
    out.retain(|t| !matches!(t, Token::Other(c) if c.is_whitespace()));
    out
}

fn is_raw_string(chars: &[char], i: usize) -> bool {
    let prev_ident = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
    let mut j = i + 1;
    while chars.get(j) == Some(&'#') {
        j += 1;
    }
    !prev_ident && chars.get(j) == Some(&'"')
}

fn skip_raw_string(chars: &[char], i: usize) -> usize {
    let mut j = i + 1;
    let mut hashes = 0;
    while chars[j] == '#' {
        hashes += 1;
        j += 1;
    }
    j += 1;
    while j < chars.len() {
        if chars[j] == '"' && (0..hashes).all(|k| chars.get(j + 1 + k) == Some(&'#')) {
            return j + 1 + hashes;
        }
        j += 1;
    }
    j
}

/// The end of a character literal starting at `i` (not a lifetime).
fn char_literal_end(chars: &[char], i: usize) -> Option<usize> {
    if chars.get(i + 1) == Some(&'\\') {
        (i + 2..chars.len().min(i + 12))
            .find(|&j| chars[j] == '\'')
            .map(|j| j + 1)
    } else {
        (chars.get(i + 2) == Some(&'\'')).then_some(i + 3)
    }
}

/// The paths of a use tree starting at `i` after `prefix`; the position after it.
fn tree(
    toks: &[Token],
    mut i: usize,
    mut prefix: Vec<String>,
    out: &mut Vec<Vec<String>>,
) -> usize {
    loop {
        match toks.get(i) {
            Some(Token::Ident(name)) => {
                prefix.push(name.clone());
                i += 1;
                if toks.get(i) == Some(&Token::Path) {
                    i += 1;
                    continue;
                }
                out.push(prefix);
                return i;
            }
            Some(Token::Open) => {
                i += 1;
                loop {
                    match toks.get(i) {
                        None => return i,
                        Some(Token::Close) => return i + 1,
                        Some(Token::Comma) => i += 1,
                        _ => {
                            let before = i;
                            i = tree(toks, i, prefix.clone(), out);
                            // skip an alias (`as name`) up to the next item
                            while !matches!(toks.get(i), None | Some(Token::Comma | Token::Close)) {
                                i += 1;
                            }
                            if i == before {
                                i += 1;
                            }
                        }
                    }
                }
            }
            _ => {
                out.push(prefix);
                return i + 1;
            }
        }
    }
}

/// The modules of `files` that the file of `module` names.
fn named_by(module: &Module, src: &str, files: &BTreeMap<Module, PathBuf>) -> BTreeSet<Module> {
    let toks = tokens(src);
    let crate_root: Module = module[..1].to_vec();
    let mut named = BTreeSet::new();
    let mut braces: Vec<bool> = Vec::new(); // true: the brace opens an inline module
    let mut i = 0;
    while i < toks.len() {
        match &toks[i] {
            Token::Open => braces.push(false),
            Token::Close => {
                braces.pop();
            }
            Token::Ident(m)
                if m == "mod"
                    && matches!(toks.get(i + 1), Some(Token::Ident(_)))
                    && toks.get(i + 2) == Some(&Token::Open) =>
            {
                braces.push(true);
                i += 3;
                continue;
            }
            Token::Ident(head)
                if ["crate", "super", "self"].contains(&head.as_str())
                    && (i == 0 || toks[i - 1] != Token::Path)
                    && toks.get(i + 1) == Some(&Token::Path) =>
            {
                let mut paths = Vec::new();
                let end = tree(&toks, i, Vec::new(), &mut paths);
                let inline = braces.iter().filter(|&&m| m).count();
                for path in paths {
                    if let Some(target) = resolve(module, &crate_root, inline, &path, files) {
                        named.insert(target);
                    }
                }
                i = end.max(i + 1);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    named.remove(module);
    named
}

/// The file module a path names, from a file `module` at `inline` inline
/// modules deep; `None` for a name inside the file itself.
fn resolve(
    module: &Module,
    crate_root: &Module,
    mut inline: usize,
    path: &[String],
    files: &BTreeMap<Module, PathBuf>,
) -> Option<Module> {
    let mut base = module.clone();
    let mut rest = path;
    if path[0] == "crate" {
        base = crate_root.clone();
        rest = &path[1..];
        inline = 0;
    } else {
        while let Some(head) = rest.first().filter(|h| *h == "super" || *h == "self") {
            if head == "super" {
                if inline > 0 {
                    inline -= 1;
                } else {
                    base.pop();
                }
            }
            rest = &rest[1..];
        }
    }
    if inline > 0 {
        return None;
    }
    let mut full = base;
    full.extend(rest.iter().cloned());
    (0..=full.len())
        .rev()
        .map(|k| full[..k].to_vec())
        .find(|m| files.contains_key(m))
}

fn is_ancestor(a: &Module, b: &Module) -> bool {
    a.len() < b.len() && b[..a.len()] == a[..]
}

/// The circles: sets of two or more files each reachable from every other.
fn circles() -> Vec<BTreeSet<Module>> {
    let mut files = BTreeMap::new();
    for (name, root) in crate_sources() {
        modules(&name, &root, &root, &mut files);
    }
    let edges: BTreeMap<Module, BTreeSet<Module>> = files
        .iter()
        .map(|(m, path)| {
            let src = std::fs::read_to_string(path).unwrap();
            let named = named_by(m, &src, &files)
                .into_iter()
                .filter(|t| !is_ancestor(t, m) && !is_ancestor(m, t))
                .collect();
            (m.clone(), named)
        })
        .collect();
    let reach = |from: &Module| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(m) = todo.pop() {
            for t in &edges[&m] {
                if seen.insert(t.clone()) {
                    todo.push(t.clone());
                }
            }
        }
        seen
    };
    let reachable: BTreeMap<&Module, BTreeSet<Module>> =
        edges.keys().map(|m| (m, reach(m))).collect();
    let mut found: Vec<BTreeSet<Module>> = Vec::new();
    for (m, from_m) in &reachable {
        if !from_m.contains(*m) || found.iter().any(|c| c.contains(*m)) {
            continue;
        }
        let circle: BTreeSet<Module> = from_m
            .iter()
            .filter(|t| reachable[t].contains(*m))
            .cloned()
            .collect();
        found.push(circle);
    }
    found
}

#[test]
fn the_workspace_keeps_no_import_circle() {
    let circles = circles();
    let shown: Vec<String> = circles
        .iter()
        .map(|c| {
            c.iter()
                .map(|m| m.join("::"))
                .collect::<Vec<_>>()
                .join(" <-> ")
        })
        .collect();
    assert!(
        circles.is_empty(),
        "{} import circles:\n{}",
        circles.len(),
        shown.join("\n")
    );
}

#[test]
fn a_circle_is_found_when_two_files_name_each_other() {
    let module = |path: &[&str]| -> Module { path.iter().map(|p| p.to_string()).collect() };
    let files: BTreeMap<Module, PathBuf> = [
        module(&["k"]),
        module(&["k", "a"]),
        module(&["k", "b"]),
        module(&["other"]),
        module(&["other", "b"]),
    ]
    .into_iter()
    .map(|m| (m, PathBuf::new()))
    .collect();
    let a = module(&["k", "a"]);
    let b = module(&["k", "b"]);
    let src = "use super::b::{X, y::Z};\n// crate::c\nfn f() { let s = \"crate::c\"; }\n";
    assert_eq!(named_by(&a, src, &files), BTreeSet::from([b.clone()]));
    // `super` inside an inline module of the file names the file itself.
    let src = "mod tests { use super::*; fn g() { crate::b::f(); } }";
    assert_eq!(named_by(&a, src, &files), BTreeSet::from([b.clone()]));
    let src = "fn g() -> char { '{' } fn h() { super::b::f() }";
    assert_eq!(named_by(&a, src, &files), BTreeSet::from([b.clone()]));
    // `crate::` is the file's own crate, never another one's.
    let src = "use crate::b::f;";
    assert_eq!(named_by(&a, src, &files), BTreeSet::from([b]));
    let theirs = module(&["other", "b"]);
    assert!(!named_by(&a, src, &files).contains(&theirs));
}

#[test]
fn every_crate_of_the_workspace_is_scanned() {
    let names: Vec<String> = crate_sources().into_iter().map(|(n, _)| n).collect();
    for name in ["#bin", "core", "proofcheck", "search", "clients"] {
        assert!(names.iter().any(|n| n == name), "{name} in {names:?}");
    }
    let mut files = BTreeMap::new();
    for (name, root) in crate_sources() {
        modules(&name, &root, &root, &mut files);
    }
    let replay: Module = ["core", "schedule", "replay"].map(String::from).to_vec();
    assert!(files.contains_key(&replay));
    assert!(files.contains_key(&vec!["#bin".to_string(), "cli".to_string()]));
}

/// The feature modules of `crates/clients` (constructions, importers,
/// exporters, simulations) and its commands layer (one pipeline per
/// command), README.md's "Contributing": commands compose features, so a
/// feature never names a command module.
const FEATURES: [&str; 13] = [
    "construct",
    "fifo",
    "product",
    "hypercube",
    "lcc",
    "msccl",
    "export",
    "infer",
    "catalogue",
    "simulate",
    "timed",
    "render",
    "compare",
];
const COMMANDS: [&str; 2] = ["report", "batch"];

/// The layer (`crates/clients`'s top module) of a module of that crate.
fn clients_layer(module: &Module) -> Option<&str> {
    match module.as_slice() {
        [krate, layer, ..] if krate == "clients" => Some(layer),
        _ => None,
    }
}

/// Every `feature -> command` pair of `named` (a file's module and the
/// modules it names).
fn feature_to_command(named: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<String> {
    let mut found = Vec::new();
    for (from, targets) in named {
        if !clients_layer(from).is_some_and(|l| FEATURES.contains(&l)) {
            continue;
        }
        for to in targets {
            if clients_layer(to).is_some_and(|l| COMMANDS.contains(&l)) {
                found.push(format!("{} -> {}", from.join("::"), to.join("::")));
            }
        }
    }
    found
}

/// Every module of `crates/clients` and the modules it names, once each of
/// `tops` is found as a top module (a layer renamed or moved shows here, not
/// as a test that checks nothing).
fn clients_imports<'a>(
    tops: impl IntoIterator<Item = &'a &'a str>,
) -> BTreeMap<Module, BTreeSet<Module>> {
    let mut files = BTreeMap::new();
    for (name, root) in crate_sources() {
        if name == "clients" {
            modules(&name, &root, &root, &mut files);
        }
    }
    for top in tops {
        let module: Module = vec!["clients".to_string(), top.to_string()];
        assert!(files.contains_key(&module), "no module clients::{top}");
    }
    files
        .iter()
        .map(|(m, path)| {
            let src = std::fs::read_to_string(path).unwrap();
            (m.clone(), named_by(m, &src, &files))
        })
        .collect()
}

#[test]
fn no_feature_module_names_the_commands_layer() {
    let named = clients_imports(FEATURES.iter().chain(&COMMANDS));
    let breaches = feature_to_command(&named);
    assert!(
        breaches.is_empty(),
        "features that import the commands layer:\n{}",
        breaches.join("\n")
    );
}

#[test]
fn a_feature_naming_a_command_is_found() {
    let module = |path: &[&str]| -> Module { path.iter().map(|p| p.to_string()).collect() };
    let named = BTreeMap::from([
        (
            module(&["clients", "msccl", "report"]),
            BTreeSet::from([module(&["clients", "report", "failure"])]),
        ),
        (
            module(&["clients", "report", "check"]),
            BTreeSet::from([module(&["clients", "msccl"])]),
        ),
        (
            module(&["core", "msccl"]),
            BTreeSet::from([module(&["core", "report"])]),
        ),
    ]);
    assert_eq!(
        feature_to_command(&named),
        ["clients::msccl::report -> clients::report::failure"]
    );
}

/// The layers of `crates/clients`, lowest first, by top module: the words and
/// statuses every part shares, then the features, then the commands. A module
/// names modules of its own layer or below, never one above; a new top
/// module must be placed here (README.md's "Contributing").
const CLIENTS_LAYERS: [(&str, &[&str]); 3] = [
    ("shared", &["shared"]),
    ("features", &FEATURES_AND_CHECKS),
    ("commands", &COMMANDS),
];

/// [`FEATURES`] and the feature modules that check and bound what the others
/// build (the check of a loaded file, the bounds report).
const FEATURES_AND_CHECKS: [&str; 15] = [
    "construct",
    "fifo",
    "product",
    "hypercube",
    "lcc",
    "msccl",
    "export",
    "infer",
    "catalogue",
    "simulate",
    "timed",
    "render",
    "compare",
    "check",
    "bounds",
];

/// The rank in [`CLIENTS_LAYERS`] of a module of `crates/clients`; `None` for
/// another crate's module or the crate root; `Some(None)` for a top module no
/// layer names.
fn clients_rank(module: &Module) -> Option<Option<usize>> {
    let layer = clients_layer(module)?;
    Some(
        CLIENTS_LAYERS
            .iter()
            .position(|(_, tops)| tops.contains(&layer)),
    )
}

/// Every import of `named` from a module of `crates/clients` up to a module
/// of a higher layer, and every top module no layer names.
fn upward_imports(named: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<String> {
    let mut found = Vec::new();
    for (from, targets) in named {
        let Some(rank) = clients_rank(from) else {
            continue;
        };
        let Some(rank) = rank else {
            found.push(format!("{} is in no layer", from.join("::")));
            continue;
        };
        for to in targets {
            if let Some(Some(higher)) = clients_rank(to)
                && higher > rank
            {
                found.push(format!(
                    "{} ({}) -> {} ({})",
                    from.join("::"),
                    CLIENTS_LAYERS[rank].0,
                    to.join("::"),
                    CLIENTS_LAYERS[higher].0
                ));
            }
        }
    }
    found
}

#[test]
fn no_module_of_the_clients_crate_imports_a_higher_layer() {
    let named = clients_imports(CLIENTS_LAYERS.iter().flat_map(|(_, tops)| tops.iter()));
    let breaches = upward_imports(&named);
    assert!(
        breaches.is_empty(),
        "imports from a lower layer of crates/clients up to a higher one:\n{}",
        breaches.join("\n")
    );
}

#[test]
fn an_import_up_a_layer_and_an_unplaced_module_are_found() {
    let module = |path: &[&str]| -> Module { path.iter().map(|p| p.to_string()).collect() };
    let named = BTreeMap::from([
        (
            module(&["clients", "shared", "failure"]),
            BTreeSet::from([module(&["clients", "check"])]),
        ),
        (
            module(&["clients", "report", "check"]),
            BTreeSet::from([module(&["clients", "shared", "failure"])]),
        ),
        (module(&["clients", "newcomer"]), BTreeSet::new()),
        (
            module(&["core", "msccl"]),
            BTreeSet::from([module(&["core", "report"])]),
        ),
    ]);
    assert_eq!(
        upward_imports(&named),
        [
            "clients::newcomer is in no layer",
            "clients::shared::failure (shared) -> clients::check (features)",
        ]
    );
}
