//! The signature check (a test, no GPU): every `extern "C" __global__` kernel of every
//! compiled kernel file ([`crate::gpu::kernels::SOURCES`]), read from its source with
//! the preprocessor's work done here (`#include "..."` from `kernels/`, `#define`,
//! `#if`/`#ifdef`/`#ifndef`/`#else`/`#endif`, `typedef` and `using`), against the
//! declarations of [`super`]: the same kernels in each file, and for each the same
//! parameters in number and order, each a pointer, a 32-bit or a 64-bit scalar (`pos_t`
//! at the width of the file's `POS_BITS`).

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use super::super::launch::{Declared, Shape};
use crate::gpu::runtime::kernels::SOURCES;

/// A parameter as the check compares it: `pos_t` of the launchers resolved per file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Pointer,
    Scalar32,
    Scalar64,
}

/// Every declaration of the launchers.
fn declared() -> Vec<Declared> {
    [
        super::doubling::declared(),
        super::fm::declared(),
        super::map::declared(),
        super::merge::declared(),
        super::partition::declared(),
        super::radix_sort::declared(),
        super::scatter::declared(),
        super::seed::declared(),
        super::skew::declared(),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The kernels that the declarations give file `file`: name and parameter kinds.
fn declared_in(file: &str) -> BTreeMap<String, Vec<Kind>> {
    let mut kernels = BTreeMap::new();
    for d in declared() {
        let Some(at) = d.files.iter().position(|&f| f == file) else {
            continue;
        };
        let pos = if at == 0 && d.files.len() == 1 {
            None
        } else {
            Some([Kind::Scalar32, Kind::Scalar64][at])
        };
        let kinds = d
            .shapes
            .iter()
            .map(|&s| kind_of_shape(s, file, pos))
            .collect();
        assert!(
            kernels.insert(d.name.to_string(), kinds).is_none(),
            "{file}: {} twice",
            d.name
        );
    }
    kernels
}

/// The kind of a declared parameter of shape `shape` in `file`, whose `pos_t` is `pos`.
fn kind_of_shape(shape: Shape, file: &str, pos: Option<Kind>) -> Kind {
    match shape {
        Shape::U32 => Kind::Scalar32,
        Shape::U64 => Kind::Scalar64,
        Shape::Ptr => Kind::Pointer,
        Shape::Pos => pos.unwrap_or_else(|| panic!("{file}: a `Pos` in a file of one width")),
    }
}

/// The kernels of compiled file `source`: name and parameter kinds.
fn parsed(file: &str, source: &str) -> BTreeMap<String, Vec<Kind>> {
    let text = Preprocessor::default().run(file, source);
    let types = Types::of(&text);
    let mut kernels = BTreeMap::new();
    for (name, params) in kernel_signatures(&text) {
        let kinds = params
            .split(',')
            .map(|p| types.kind(p.trim(), file, name))
            .collect();
        assert!(
            kernels.insert(name.to_string(), kinds).is_none(),
            "{file}: {name} twice"
        );
    }
    kernels
}

/// The name and parameter list of each `extern "C" __global__ void` kernel in `text`.
fn kernel_signatures(text: &str) -> Vec<(&str, &str)> {
    let mut found = Vec::new();
    for (at, _) in text.match_indices("extern \"C\"") {
        let rest = text[at + "extern \"C\"".len()..].trim_start();
        let Some(rest) = rest.strip_prefix("__global__") else {
            continue;
        };
        let mut rest = rest
            .trim_start()
            .strip_prefix("void")
            .expect("kernels return void");
        rest = rest.trim_start();
        if let Some(bounds) = rest.strip_prefix("__launch_bounds__") {
            rest = bounds[bounds.find(')').expect("closed bounds") + 1..].trim_start();
        }
        let open = rest.find('(').expect("a parameter list");
        let close = rest.find(')').expect("a closed parameter list");
        found.push((rest[..open].trim(), &rest[open + 1..close]));
    }
    found
}

/// The source after the preprocessor's includes and conditionals, comments removed.
#[derive(Default)]
struct Preprocessor {
    defines: HashMap<String, String>,
}

impl Preprocessor {
    fn run(mut self, file: &str, source: &str) -> String {
        let mut out = String::new();
        self.expand(file, source, &mut out);
        out
    }

    /// Appends the lines of `source` (of kernel file `file`) that its conditionals keep,
    /// with its includes in place, to `out`.
    fn expand(&mut self, file: &str, source: &str, out: &mut String) {
        let source = strip_comments(source);
        // Per open conditional: whether its current branch is kept, and whether the
        // conditional's branch taken so far.
        let mut open: Vec<(bool, bool)> = Vec::new();
        for line in source.lines() {
            let kept = open.iter().all(|&(k, _)| k);
            let directive = line.trim_start().strip_prefix('#').map(str::trim_start);
            let Some(directive) = directive else {
                if kept {
                    out.push_str(line);
                    out.push('\n');
                }
                continue;
            };
            let (word, rest) = directive
                .split_once(char::is_whitespace)
                .unwrap_or((directive, ""));
            let rest = rest.trim();
            match word {
                "if" | "ifdef" | "ifndef" => {
                    let holds = kept && self.holds(word, rest, file);
                    open.push((holds, holds));
                }
                "else" => {
                    let (_, taken) = open.pop().unwrap_or_else(|| panic!("{file}: #else alone"));
                    let outer = open.iter().all(|&(k, _)| k);
                    open.push((outer && !taken, true));
                }
                "endif" => {
                    open.pop().unwrap_or_else(|| panic!("{file}: #endif alone"));
                }
                "define" if kept => {
                    let (name, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                    self.defines
                        .insert(name.to_string(), value.trim().to_string());
                }
                "include" if kept => self.include(file, rest, out),
                _ => {}
            }
        }
        assert!(open.is_empty(), "{file}: an #if without #endif");
    }

    /// Appends the expanded header `rest` (`"name"`) that `file` includes.
    fn include(&mut self, file: &str, rest: &str, out: &mut String) {
        let name = rest.trim_matches(|c| c == '"' || c == '<' || c == '>');
        let kernels = Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels");
        let beside = kernels.join(file).parent().unwrap().join(name);
        let path = if beside.exists() {
            beside
        } else {
            kernels.join(name)
        };
        let header = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{file}: #include {name}: {e}"));
        self.expand(name, &header, out);
    }

    /// Whether the condition `rest` of `#if`, `#ifdef` or `#ifndef` (`word`) holds.
    fn holds(&self, word: &str, rest: &str, file: &str) -> bool {
        match word {
            "ifdef" => self.defines.contains_key(rest),
            "ifndef" => !self.defines.contains_key(rest),
            _ => self.condition(rest, file),
        }
    }

    /// Evaluates `#if` condition `rest`: `NAME == N`, `NAME != N`, `defined(NAME)`,
    /// `!defined(NAME)` or a number.
    fn condition(&self, rest: &str, file: &str) -> bool {
        let value = |name: &str| {
            self.defines
                .get(name.trim())
                .map(String::as_str)
                .unwrap_or("0")
        };
        if let Some((a, b)) = rest.split_once("==") {
            return value(a) == b.trim();
        }
        if let Some((a, b)) = rest.split_once("!=") {
            return value(a) != b.trim();
        }
        let defined = |s: &str| {
            let name = s.trim().strip_prefix("defined")?.trim();
            Some(
                self.defines
                    .contains_key(name.trim_matches(|c| c == '(' || c == ')').trim()),
            )
        };
        if let Some(d) = rest.strip_prefix('!').and_then(defined) {
            return !d;
        }
        if let Some(d) = defined(rest) {
            return d;
        }
        rest.parse::<u64>()
            .map(|n| n != 0)
            .unwrap_or_else(|_| panic!("{file}: #if {rest}: not a condition the check reads"))
    }
}

/// `source` without `//` and `/* */` comments (string literals in kernels hold neither).
fn strip_comments(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut rest = source;
    while let Some(at) = rest.find('/') {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        rest = if after.starts_with("//") {
            &after[after.find('\n').unwrap_or(after.len())..]
        } else if let Some(body) = after.strip_prefix("/*") {
            out.push(' ');
            &body[body.find("*/").expect("closed comment") + 2..]
        } else {
            out.push('/');
            &after[1..]
        };
    }
    out.push_str(rest);
    out
}

/// The type names a kernel file defines (`typedef` and `using`), to their definitions.
struct Types(HashMap<String, String>);

impl Types {
    fn of(text: &str) -> Types {
        let mut names = HashMap::new();
        for statement in text.split([';', '{', '}']) {
            let words: Vec<&str> = statement.split_whitespace().collect();
            match words.as_slice() {
                ["typedef", ty @ .., name] => names.insert(name.to_string(), ty.join(" ")),
                ["using", name, "=", ty @ ..] => names.insert(name.to_string(), ty.join(" ")),
                _ => None,
            };
        }
        Types(names)
    }

    /// The kind of parameter `param` (type and name) of kernel `kernel` in `file`.
    fn kind(&self, param: &str, file: &str, kernel: &str) -> Kind {
        if param.contains('*') {
            return Kind::Pointer;
        }
        let words: Vec<&str> = param
            .split_whitespace()
            .filter(|w| !matches!(*w, "const" | "__restrict__" | "volatile"))
            .collect();
        let (_, ty) = words
            .split_last()
            .unwrap_or_else(|| panic!("{file}: {kernel}: empty"));
        self.scalar(&ty.join(" "))
            .unwrap_or_else(|| panic!("{file}: {kernel}: parameter `{param}` of unknown type"))
    }

    /// The kind of scalar type `ty`, its type names resolved.
    fn scalar(&self, ty: &str) -> Option<Kind> {
        match ty {
            "unsigned int" | "unsigned" | "int" | "uint32_t" | "int32_t" => Some(Kind::Scalar32),
            "unsigned long long" | "long long" | "uint64_t" | "int64_t" | "size_t" => {
                Some(Kind::Scalar64)
            }
            _ => self.scalar(self.0.get(ty)?.trim()),
        }
    }
}

/// What disagrees between the kernels of compiled file `file` (`source`) and their
/// declarations, one line each.
fn disagreements(file: &str, source: &str) -> Vec<String> {
    let (cuda, rust) = (parsed(file, source), declared_in(file));
    let mut found = Vec::new();
    if cuda.is_empty() {
        found.push(format!("{file}: no kernel found"));
    }
    for (name, kinds) in &cuda {
        match rust.get(name) {
            None => found.push(format!("{file}: kernel {name} has no declaration")),
            Some(declared) if declared != kinds => found.push(format!(
                "{file}: {name}: declared {declared:?}, CUDA {kinds:?}"
            )),
            Some(_) => {}
        }
    }
    for name in rust.keys().filter(|name| !cuda.contains_key(*name)) {
        found.push(format!("{file}: {name} declared, not in the source"));
    }
    found
}

#[test]
fn every_kernel_is_declared_with_its_cuda_signature() {
    let mut found: Vec<String> = Vec::new();
    for &(file, source) in SOURCES {
        found.extend(disagreements(file, source));
    }
    for d in declared() {
        for file in d.files {
            if !SOURCES.iter().any(|(f, _)| f == file) {
                found.push(format!("{}: declared in {file}, not a kernel file", d.name));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}
