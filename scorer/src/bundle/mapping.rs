//! The official `scripts/{base,lazy,descriptive}_mapping.py` files: a dict literal
//! `file_mapping = {'../tests/<repo>/<test>.py': '../problems/<kind>_problems/<repo>/<task>-task.txt'}`.
//!
//! They are parsed as Python and read as literals; nothing is executed.

use crate::python::{self, syntax, syntax::Ranged};

/// Why a mapping file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MappingError {
    #[error("{file}: {error}")]
    Syntax { file: String, error: python::SyntaxError },
    #[error("{file}: no module-level `file_mapping = {{...}}` assignment")]
    NoMapping { file: String },
    #[error("{file}: `file_mapping` is not a dict literal")]
    NotADict { file: String },
    #[error(
        "{file}, line {line}: entry {index} of `file_mapping` is not a 'string': 'string' pair"
    )]
    NotAString { file: String, line: u32, index: usize },
    #[error("{file}: `{path}` is not a path below the checkout (mapping paths are relative to scripts/)")]
    BadPath { file: String, path: String },
}

/// Reads `file_mapping` from a mapping file's source: the (key, value) pairs in source order, a
/// repeated key keeping its last value at its first position, as a Python dict does.
pub fn parse_mapping(source: &str, file: &str) -> Result<Vec<(String, String)>, MappingError> {
    let module = python::parse_module(source, file)
        .map_err(|error| MappingError::Syntax { file: file.to_string(), error })?;
    let index = python::LineIndex::new(source);
    // The last assignment wins, as when the module runs.
    let mut found = None;
    for stmt in &module.body {
        if let syntax::Stmt::Assign(assign) = stmt {
            let named = assign
                .targets
                .iter()
                .any(|t| matches!(t, syntax::Expr::Name(n) if n.id.as_str() == "file_mapping"));
            if named {
                found = Some(&*assign.value);
            }
        }
    }
    let value = found.ok_or_else(|| MappingError::NoMapping { file: file.to_string() })?;
    let syntax::Expr::Dict(dict) = value else {
        return Err(MappingError::NotADict { file: file.to_string() });
    };
    let mut out: Vec<(String, String)> = Vec::with_capacity(dict.values.len());
    for (i, (key, val)) in dict.keys.iter().zip(&dict.values).enumerate() {
        let (Some(k), Some(v)) = (key.as_ref().and_then(str_const), str_const(val)) else {
            let start = key.as_ref().map_or(val.range().start(), |k| k.range().start());
            let (line, _) = index.position(u32::from(start));
            return Err(MappingError::NotAString { file: file.to_string(), line, index: i });
        };
        match out.iter_mut().find(|(existing, _)| *existing == k) {
            Some(slot) => slot.1 = v,
            None => out.push((k, v)),
        }
    }
    Ok(out)
}

fn str_const(e: &syntax::Expr) -> Option<String> {
    match e {
        syntax::Expr::Constant(c) => match &c.value {
            syntax::Constant::Str(s) => Some(s.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// Resolves a mapping path (relative to `scripts/`) to a checkout-relative path, `/`-separated and
/// normalised (`../tests/a/b.py` → `tests/a/b.py`). Refuses paths that leave the checkout.
pub fn checkout_path(raw: &str, file: &str) -> Result<String, MappingError> {
    let bad = || MappingError::BadPath { file: file.to_string(), path: raw.to_string() };
    if raw.starts_with('/') || raw.contains('\\') || raw.contains('\0') {
        return Err(bad());
    }
    let mut parts: Vec<&str> = vec!["scripts"];
    for comp in raw.split('/') {
        match comp {
            "" | "." => {}
            ".." => {
                parts.pop().ok_or_else(bad)?;
            }
            c => parts.push(c),
        }
    }
    if parts.is_empty() {
        return Err(bad());
    }
    Ok(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_official_shape() {
        let src = "file_mapping = {\n    '../tests/x_refactor/a.py': '../problems/base_problems/x_refactor/a-task.txt',\n    \"../tests/x_refactor/b.py-test.py\": ('../problems/base_problems/'\n        'x_refactor/b.py-task.txt'),\n}\n";
        let m = parse_mapping(src, "base_mapping.py").unwrap();
        assert_eq!(
            m,
            vec![
                (
                    "../tests/x_refactor/a.py".to_string(),
                    "../problems/base_problems/x_refactor/a-task.txt".to_string()
                ),
                (
                    "../tests/x_refactor/b.py-test.py".to_string(),
                    "../problems/base_problems/x_refactor/b.py-task.txt".to_string()
                ),
            ]
        );
    }

    #[test]
    fn repeated_keys_keep_the_last_value_and_the_last_assignment_wins() {
        let src = "file_mapping = {'k': 'old'}\n# comment\nfile_mapping = {'a': '1', 'k': '2', 'a': '3'}\n";
        let m = parse_mapping(src, "m.py").unwrap();
        assert_eq!(m, vec![("a".into(), "3".into()), ("k".into(), "2".into())]);
    }

    #[test]
    fn refuses_what_is_not_a_literal_string_dict() {
        let no = parse_mapping("other = {}\n", "m.py");
        assert!(matches!(no, Err(MappingError::NoMapping { .. })));
        let list = parse_mapping("file_mapping = ['a']\n", "m.py");
        assert!(matches!(list, Err(MappingError::NotADict { .. })));
        let call = parse_mapping("file_mapping = {\n 'a': 'b',\n 'c': f(),\n}\n", "m.py");
        assert_eq!(
            call.unwrap_err().to_string(),
            "m.py, line 3: entry 1 of `file_mapping` is not a 'string': 'string' pair"
        );
        let splat = parse_mapping("file_mapping = {**x}\n", "m.py");
        assert!(matches!(splat, Err(MappingError::NotAString { index: 0, .. })));
        let broken = parse_mapping("file_mapping = {'a': \n", "m.py");
        assert!(matches!(broken, Err(MappingError::Syntax { .. })));
    }

    #[test]
    fn mapping_paths_are_relative_to_scripts() {
        assert_eq!(checkout_path("../tests/a/b.py", "m").unwrap(), "tests/a/b.py");
        assert_eq!(checkout_path("./x/../y.txt", "m").unwrap(), "scripts/y.txt");
        assert!(checkout_path("../../etc/passwd", "m").is_err());
        assert!(checkout_path("/etc/passwd", "m").is_err());
    }
}
