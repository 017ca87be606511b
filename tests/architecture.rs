//! The layering ARCHITECTURE.md describes, where the compiler cannot see it: each game's
//! crate depends on the ground crate alone (so games import neither each other nor the
//! book, the jobs or the registry: the compiler refuses it), and inside the root crate
//! no module imports a higher floor, there are no import cycles between modules, the
//! jobs name no game and the binary stays thin. A second test keeps the "adding a
//! game" checklist honest, and a third keeps each crate's public surface to what the
//! crates above it use.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every .rs file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The library module a file under src/ defines: src/games/mod.rs -> ["games"],
/// src/cli/jobs.rs -> ["cli", "jobs"].
fn module_of(file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(root().join("src")).unwrap();
    let mut parts: Vec<String> = rel
        .iter()
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_string());
    }
    parts
}

/// The code of a file without comments and string literals (so a path in a doc comment
/// or a message does not count as an import).
fn code_only(text: &str) -> String {
    strip(text, false)
}

/// Without comments; string literals kept when `keep_strings`.
fn strip(text: &str, keep_strings: bool) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            i += 2;
            while i + 1 < b.len() && !b[i..].starts_with(b"*/") {
                i += 1;
            }
            i += 2;
        } else if b[i] == b'"' && !keep_strings {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' && i + 2 < b.len() && (b[i + 2] == b'\'' || b[i + 1] == b'\\') {
            // A char literal ('"', '\n', '\''); lifetimes ('a) are left alone.
            let end = text[i + 1..].find('\'').map_or(b.len(), |k| i + 2 + k);
            i = end.max(i + 3);
            out.push_str("' '");
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

/// Expand a use tree ("a::{b, c::{d, e}}") into its paths.
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        return vec![tree.to_string()];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let (mut depth, mut start, mut items) = (0, 0, Vec::new());
    for (k, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&inner[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    items.push(&inner[start..]);
    items
        .into_iter()
        .filter(|s| !s.trim().is_empty())
        .flat_map(|s| expand(s).into_iter().map(move |p| format!("{prefix}{p}")))
        .collect()
}

/// Every path a file names from the crate root, `crate::` or `super::` (in `use`
/// declarations and inline in code), made absolute.
fn paths_named(module: &[String], code: &str) -> Vec<Vec<String>> {
    let mut raw = Vec::new();
    // `use` declarations, possibly over several lines, with nested braces.
    let mut rest = code;
    while let Some(k) = rest.find("use ") {
        let before_ok = k == 0 || !rest.as_bytes()[k - 1].is_ascii_alphanumeric();
        let after = &rest[k + 4..];
        if before_ok {
            if let Some(end) = after.find(';') {
                raw.extend(expand(&after[..end].replace(char::is_whitespace, "")));
            }
        }
        rest = after;
    }
    // Inline paths: crate::a::b and super::a::b.
    for start in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(k) = code[from..].find(start) {
            let s = from + k;
            let end = code[s..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .map_or(code.len(), |e| s + e);
            raw.push(code[s..end].to_string());
            from = end.max(s + 1);
        }
    }
    // The module `super` refers to (a mod.rs file's module is its folder, so in both
    // kinds of file it is the module's parent).
    let parent: Vec<String> = module[..module.len().saturating_sub(1)].to_vec();
    let mut out = Vec::new();
    for p in raw {
        let segs: Vec<&str> = p.split("::").filter(|s| !s.is_empty()).collect();
        let abs: Vec<String> = match segs.first() {
            Some(&"crate") => segs[1..].iter().map(|s| s.to_string()).collect(),
            Some(&"super") => {
                let mut base = parent.clone();
                let mut it = segs[1..].iter().peekable();
                while it.peek() == Some(&&"super") {
                    base.pop();
                    it.next();
                }
                base.extend(it.map(|s| s.to_string()));
                base
            }
            _ => continue,
        };
        out.push(abs);
    }
    out
}

struct Crate {
    /// module -> modules it names (longest existing module prefix of each path)
    edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
}

fn load() -> Crate {
    let files = rust_files(&root().join("src"));
    let lib_files: Vec<_> = files
        .into_iter()
        .filter(|f| !f.starts_with(root().join("src/bin")) && !f.ends_with("src/main.rs"))
        .filter(|f| !f.starts_with(root().join("src/cli")))
        .collect();
    let modules: BTreeMap<Vec<String>, PathBuf> = lib_files
        .iter()
        .map(|f| (module_of(f), f.clone()))
        .collect();
    let mut edges = BTreeMap::new();
    for (m, f) in &modules {
        // Test code may use what it likes: test modules (`tests.rs`) and the
        // `#[cfg(test)]` module at the end of a file are left out.
        if m.last().is_some_and(|l| l == "tests") {
            edges.insert(m.clone(), BTreeSet::new());
            continue;
        }
        let mut text = fs::read_to_string(f).unwrap();
        if let Some(k) = text.find("#[cfg(test)]\nmod ") {
            text.truncate(k);
        }
        let mut to = BTreeSet::new();
        for p in paths_named(m, &code_only(&text)) {
            let target = (0..=p.len())
                .rev()
                .map(|n| p[..n].to_vec())
                .find(|q| modules.contains_key(q))
                .unwrap_or_default();
            if !target.is_empty() && &target != m {
                to.insert(target);
            }
        }
        edges.insert(m.clone(), to);
    }
    Crate { edges }
}

fn is_prefix(a: &[String], b: &[String]) -> bool {
    a.len() <= b.len() && a == &b[..a.len()]
}

fn name(m: &[String]) -> String {
    if m.is_empty() {
        "crate".into()
    } else {
        m.join("::")
    }
}

/// The workspace crates a crate's Cargo.toml depends on (by package name, `puzzlebook-...`,
/// also when the code names one otherwise), build and dev dependencies alike.
fn workspace_deps(manifest: &Path) -> Vec<String> {
    let text = fs::read_to_string(manifest).unwrap();
    let toml: toml::Table = text.parse().unwrap();
    let mut deps = Vec::new();
    for table in ["dependencies", "dev-dependencies", "build-dependencies"] {
        let Some(t) = toml.get(table).and_then(|t| t.as_table()) else {
            continue;
        };
        for (key, spec) in t {
            let package = spec.get("package").and_then(|p| p.as_str()).unwrap_or(key);
            let local = spec.get("path").is_some();
            if package.starts_with("puzzlebook") || local {
                deps.push(package.to_string());
            }
        }
    }
    deps
}

#[test]
fn crates_depend_only_on_the_floors_below_them() {
    // A game is a crate (crates/<game>) that may use the ground floor and nothing else
    // of the workspace: not the book, the jobs, the registry or another game. The
    // compiler refuses any path outside a crate's dependencies, so keeping the
    // dependency lists this short keeps the games apart.
    let mut bad = Vec::new();
    for game in puzzlebook::games::NAMES {
        let manifest = root().join(format!("crates/{game}/Cargo.toml"));
        let deps = workspace_deps(&manifest);
        if deps != ["puzzlebook-ground"] {
            bad.push(format!("{}: {deps:?}", manifest.display()));
        }
    }
    // The ground and preflight crates stand on no game either, and the book and the
    // jobs reach games only through the `Registry` the binary crate hands them: none
    // of their dependencies is a game, so they cannot name one.
    for (krate, allowed) in [
        ("ground", &[][..]),
        ("preflight", &["puzzlebook-ground"][..]),
        ("book", &["puzzlebook-ground", "puzzlebook-preflight"][..]),
        ("jobs", &["puzzlebook-ground", "puzzlebook-book"][..]),
    ] {
        let manifest = root().join(format!("crates/{krate}/Cargo.toml"));
        let deps = workspace_deps(&manifest);
        if deps != allowed {
            bad.push(format!("{}: {deps:?}", manifest.display()));
        }
    }
    assert!(
        bad.is_empty(),
        "crates depending on more than the floors below them:\n{}",
        bad.join("\n")
    );
}

#[test]
fn no_import_cycles_between_modules() {
    let c = load();
    // Edges to one's own ancestors (a child using its parent's items) or descendants
    // are how Rust modules nest, not cycles between modules.
    let graph: BTreeMap<&Vec<String>, Vec<&Vec<String>>> = c
        .edges
        .iter()
        .map(|(m, to)| {
            (
                m,
                to.iter()
                    .filter(|t| !is_prefix(t, m) && !is_prefix(m, t))
                    .collect(),
            )
        })
        .collect();
    // Depth-first search for a back edge; report the cycle it closes.
    fn visit<'a>(
        m: &'a Vec<String>,
        g: &BTreeMap<&'a Vec<String>, Vec<&'a Vec<String>>>,
        state: &mut BTreeMap<&'a Vec<String>, u8>,
        path: &mut Vec<&'a Vec<String>>,
        cycles: &mut Vec<String>,
    ) {
        state.insert(m, 1);
        path.push(m);
        for &t in g.get(m).map(Vec::as_slice).unwrap_or(&[]) {
            match state.get(t).copied().unwrap_or(0) {
                0 => visit(t, g, state, path, cycles),
                1 => {
                    let from = path.iter().position(|p| *p == t).unwrap();
                    let names: Vec<String> = path[from..].iter().map(|p| name(p)).collect();
                    cycles.push(format!("{} -> {}", names.join(" -> "), name(t)));
                }
                _ => {}
            }
        }
        path.pop();
        state.insert(m, 2);
    }
    let (mut state, mut cycles) = (BTreeMap::new(), Vec::new());
    for m in graph.keys() {
        if !state.contains_key(m) {
            visit(m, &graph, &mut state, &mut Vec::new(), &mut cycles);
        }
    }
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn the_binary_is_thin_and_names_no_game() {
    let main = fs::read_to_string(root().join("src/main.rs")).unwrap();
    let lines = main.lines().count();
    assert!(lines <= 300, "src/main.rs has {lines} lines (at most 300)");
    let code = strip(&main, true).to_lowercase();
    for (game, spelling) in game_spellings() {
        assert!(
            !code.contains(&spelling),
            "src/main.rs names the game {game} ({spelling})"
        );
    }
}

/// The spellings of every game's name (and of Catan's sampler library) that code
/// outside the games may not use: `number_match`, `number-match`, `numbermatch`, ...
fn game_spellings() -> Vec<(String, String)> {
    let mut v = Vec::new();
    for game in puzzlebook::games::NAMES.iter().chain(&["sampling"]) {
        for spelling in [
            game.to_string(),
            game.replace('_', "-"),
            game.replace('_', ""),
        ] {
            v.push((game.to_string(), spelling));
        }
    }
    v
}

#[test]
fn the_book_and_the_jobs_name_no_game() {
    // Their crates cannot import a game (see above); this also catches a game's name in
    // their code and strings (a kind name, a special case by name), which would mean a
    // game's logic has leaked into them.
    let mut bad = Vec::new();
    for krate in ["crates/book/src", "crates/jobs/src"] {
        for file in rust_files(&root().join(krate)) {
            let text = fs::read_to_string(&file).unwrap();
            // A file's unit tests (at its end) may use real names as test data.
            let text = text.split("#[cfg(test)]").next().unwrap_or("");
            let code = strip(text, true).to_lowercase();
            for (game, spelling) in game_spellings() {
                if code.contains(&spelling) {
                    bad.push(format!("{} names {game} ({spelling})", file.display()));
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "the book or the jobs name games:\n{}",
        bad.join("\n")
    );
}

/// The keys of the "Adding a game" checklist in ARCHITECTURE.md (`- **key**: ...`).
fn checklist() -> Vec<String> {
    let doc = fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let section = doc
        .split("\n## ")
        .find(|s| s.starts_with("Adding a game"))
        .expect("ARCHITECTURE.md has a section \"## Adding a game\"");
    section
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let rest = l.strip_prefix("- **").or_else(|| {
                l.split_once(". **")
                    .filter(|(n, _)| n.chars().all(|c| c.is_ascii_digit()))
                    .map(|(_, r)| r)
            })?;
            Some(rest.split("**").next()?.to_string())
        })
        .collect()
}

#[test]
fn every_game_meets_the_adding_a_game_checklist() {
    let read = |p: &str| fs::read_to_string(root().join(p)).unwrap_or_default();
    let readme = read("README.md");
    let conformance = read("tests/conformance.rs");
    let benches = read("benches/hot_paths.rs");
    let templates: String = fs::read_dir(root().join("templates"))
        .unwrap()
        .map(|e| fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    // Each key of the checklist, with the check that keeps it true for one game.
    type Check = fn(&str, &Ctx) -> Result<(), String>;
    struct Ctx<'a> {
        readme: &'a str,
        conformance: &'a str,
        benches: &'a str,
        templates: &'a str,
    }
    let ctx = Ctx {
        readme: &readme,
        conformance: &conformance,
        benches: &benches,
        templates: &templates,
    };
    let checks: Vec<(&str, Check)> = vec![
        ("folder", |g, _| {
            let f = root().join(format!("crates/{g}/src/lib.rs"));
            f.exists()
                .then_some(())
                .ok_or(format!("no {}", f.display()))
        }),
        ("registry", |g, _| {
            struct Name;
            impl puzzlebook::games::GameVisitor for Name {
                type Output = &'static str;
                fn visit<G: puzzlebook::games::Present>(self) -> &'static str {
                    G::NAME
                }
            }
            match puzzlebook::games::visit(g, Name) {
                Ok(n) if n == g => Ok(()),
                _ => Err("games::visit does not find it".into()),
            }
        }),
        ("command", |g, _| {
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_puzzlebook"))
                .args([g.replace('_', "-").as_str(), "generate", "--help"])
                .output()
                .map_err(|e| e.to_string())?;
            out.status.success().then_some(()).ok_or(format!(
                "`puzzlebook {} generate --help` fails",
                g.replace('_', "-")
            ))
        }),
        ("conformance", |g, c| {
            c.conformance
                .contains(&format!("\"{g}\""))
                .then_some(())
                .ok_or("not in the table of tests/conformance.rs".into())
        }),
        ("docs", |g, c| {
            let page = format!("docs/games/{}.md", g.replace('_', "-"));
            if !root().join(&page).exists() {
                return Err(format!("no {page}"));
            }
            c.readme
                .contains(&page)
                .then_some(())
                .ok_or(format!("README.md does not link {page}"))
        }),
        ("commands-table", |g, c| {
            c.readme
                .contains(&format!("| `puzzlebook {} generate", g.replace('_', "-")))
                .then_some(())
                .ok_or("README.md's command table has no generate line".into())
        }),
        ("template", |g, c| {
            c.templates
                .contains(&format!("game = \"{g}\""))
                .then_some(())
                .ok_or("no template in templates/ has a section of it".into())
        }),
        ("bench", |g, c| {
            c.benches
                .contains(&format!("benchmark_group(\"{g}"))
                .then_some(())
                .ok_or("benches/hot_paths.rs has no benchmark group named after it".into())
        }),
    ];
    let keys = checklist();
    let checked: Vec<&str> = checks.iter().map(|(k, _)| *k).collect();
    assert_eq!(
        keys, checked,
        "the checklist in ARCHITECTURE.md and the checks of this test must name the same steps, in order"
    );
    let mut bad = Vec::new();
    for g in puzzlebook::games::NAMES {
        for (key, check) in &checks {
            if let Err(e) = check(g, &ctx) {
                bad.push(format!("{g}, step {key}: {e}"));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The identifiers of `code`.
fn words(code: &str) -> impl Iterator<Item = &str> {
    code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

/// The function, constant, static or module a line of code declares `pub` (plain
/// `pub`, not `pub(crate)`), if any.
fn pub_value(line: &str) -> Option<&str> {
    let mut tokens = line.trim_start().strip_prefix("pub ")?.split_whitespace();
    let mut kind = tokens.next()?;
    while kind == "unsafe" || kind == "async" || (kind == "const" && line.contains(" fn ")) {
        kind = tokens.next()?;
    }
    let name = tokens.next()?;
    let end = name
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(name.len());
    ["fn", "const", "static", "mod"]
        .contains(&kind)
        .then_some(&name[..end])
}

/// A crate's `pub` is for the crates above it: every public function, constant, static
/// and module is named somewhere outside its crate's src/ (another crate, the binary,
/// the tests, benches or examples); the rest is `pub(crate)`. Types are left to the
/// compiler: a public signature that names a type makes it public (`private_interfaces`),
/// whether or not another crate spells its name.
#[test]
fn public_functions_and_constants_serve_another_crate() {
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in ["src", "tests", "benches", "examples", "crates"] {
        files.extend(rust_files(&root().join(dir)));
    }
    let code: Vec<(PathBuf, String)> = files
        .into_iter()
        .map(|f| {
            let text = code_only(&fs::read_to_string(&f).unwrap());
            (f, text)
        })
        .collect();
    let mut unused = Vec::new();
    for entry in fs::read_dir(root().join("crates")).unwrap() {
        let src = entry.unwrap().path().join("src");
        let outside: BTreeSet<&str> = code
            .iter()
            .filter(|(f, _)| !f.starts_with(&src))
            .flat_map(|(_, text)| words(text))
            .collect();
        for (f, text) in code.iter().filter(|(f, _)| f.starts_with(&src)) {
            for (n, line) in text.lines().enumerate() {
                if let Some(name) = pub_value(line).filter(|name| !outside.contains(name)) {
                    let at = f.strip_prefix(root()).unwrap().display();
                    unused.push(format!("{at}:{}: {name}", n + 1));
                }
            }
        }
    }
    assert!(
        unused.is_empty(),
        "public but named by no other crate (make them pub(crate)):\n{}",
        unused.join("\n")
    );
}

#[test]
fn pub_value_reads_declarations() {
    assert_eq!(pub_value("    pub fn load(x: u8) -> u8 {"), Some("load"));
    assert_eq!(pub_value("pub const fn mm(self) -> f32 {"), Some("mm"));
    assert_eq!(pub_value("pub const MAX: usize = 3;"), Some("MAX"));
    assert_eq!(pub_value("pub mod scan;"), Some("scan"));
    assert_eq!(pub_value("pub(crate) fn hidden() {}"), None);
    assert_eq!(pub_value("pub struct Shown;"), None);
    assert_eq!(pub_value("    let pub_fn = 1;"), None);
}
