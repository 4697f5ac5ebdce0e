//! `os.path` as `posixpath` computes it on strings (join, normpath, relpath, split...), and the
//! lexical step from a path the test names to a repository path. No tree access here.

use super::*;

/// `posixpath.join(a, b)`.
pub(super) fn join2(a: &str, b: &str) -> String {
    if b.starts_with('/') {
        b.to_string()
    } else if a.is_empty() || a.ends_with('/') {
        format!("{a}{b}")
    } else {
        format!("{a}/{b}")
    }
}

pub(super) fn posix_join(parts: &[Str]) -> String {
    let mut path = String::new();
    for (i, b) in parts.iter().enumerate() {
        if i == 0 {
            path.push_str(b);
        } else if b.starts_with('/') {
            path = b.to_string();
        } else if path.is_empty() || path.ends_with('/') {
            path.push_str(b);
        } else {
            path.push('/');
            path.push_str(b);
        }
    }
    path
}

/// The test's working directory (its `__file__` is inside it).
pub(super) fn cwd() -> String {
    format!("{ROOT}/{EVAL_DIR}")
}

/// `posixpath.abspath` relative to [`cwd`].
pub(super) fn abspath(p: &str) -> String {
    if p.starts_with('/') {
        posix_normpath(p)
    } else {
        posix_normpath(&format!("{}/{p}", cwd()))
    }
}

/// `posixpath.relpath(path, start)`.
pub(super) fn relpath(path: &str, start: &str) -> String {
    let a = abspath(start);
    let b = abspath(path);
    let sl: Vec<&str> = a.split('/').filter(|x| !x.is_empty()).collect();
    let pl: Vec<&str> = b.split('/').filter(|x| !x.is_empty()).collect();
    let common = sl.iter().zip(&pl).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<&str> = vec![".."; sl.len() - common];
    parts.extend(&pl[common..]);
    if parts.is_empty() {
        ".".into()
    } else {
        parts.join("/")
    }
}

pub(crate) fn posix_normpath(p: &str) -> String {
    if p.is_empty() {
        return ".".into();
    }
    let initial = if p.starts_with("//") && !p.starts_with("///") {
        2
    } else if p.starts_with('/') {
        1
    } else {
        0
    };
    let mut comps: Vec<&str> = Vec::new();
    for c in p.split('/') {
        if c.is_empty() || c == "." {
            continue;
        }
        if c != ".." || (initial == 0 && comps.is_empty()) || comps.last() == Some(&"..") {
            comps.push(c);
        } else if !comps.is_empty() {
            comps.pop();
        }
    }
    let mut out = "/".repeat(initial);
    out.push_str(&comps.join("/"));
    if out.is_empty() {
        ".".into()
    } else {
        out
    }
}

pub(super) fn basename(p: &str) -> &str {
    p.rfind('/').map_or(p, |i| &p[i + 1..])
}

pub(super) fn dirname(p: &str) -> String {
    let i = p.rfind('/').map_or(0, |i| i + 1);
    let head = &p[..i];
    if !head.is_empty() && head.chars().any(|c| c != '/') {
        head.trim_end_matches('/').to_string()
    } else {
        head.to_string()
    }
}

pub(super) fn splitext(p: &str) -> (String, String) {
    let sep = p.rfind('/').map_or(0, |i| i + 1);
    if let Some(dot) = p.rfind('.') {
        if dot > sep && p[sep..dot].chars().any(|c| c != '.') {
            return (p[..dot].to_string(), p[dot..].to_string());
        }
    }
    (p.to_string(), String::new())
}

/// The part of an absolute path (without its leading `/`) below [`ROOT`], component-wise:
/// `refactorbench/x` gives `x`, `refactorbench` gives `""`; `None` for paths elsewhere.
pub(super) fn below_root(abs: &str) -> Option<&str> {
    let abs = abs.trim_start_matches('/');
    let name = ROOT.trim_start_matches('/');
    let rest = abs.strip_prefix(name)?;
    if rest.is_empty() {
        Some("")
    } else {
        rest.strip_prefix('/')
    }
}

/// The repository-relative spelling of a path the test names (lexically normalised; `""` is the
/// root), or `None` when it leads out of the repository.
pub(super) fn repo_relative(p: &str) -> Option<String> {
    if p.is_empty() || p.contains('\0') {
        return None;
    }
    let full = if let Some(abs) = p.strip_prefix('/') {
        let n = posix_normpath(&format!("/{abs}"));
        below_root(n.trim_start_matches('/'))?.to_string()
    } else {
        posix_normpath(&format!("{EVAL_DIR}/{p}"))
    };
    if full == "." {
        return Some(String::new());
    }
    if full == ".." || full.starts_with("../") {
        return None;
    }
    Some(full)
}
