//! The parse facade: the only module that names the parser crates (`rustpython_parser`, and
//! `ruff_python_parser` in [`from_ruff`] behind the default feature `fast-parse`).
//!
//! It gives the rest of the scorer what CPython 3.11's `ast.parse` gives a test file:
//! - [`parse_module`]: the typed syntax tree the interpreter executes (re-exported as [`syntax`]);
//! - [`parse_tree`]: the CPython-shaped generic tree ([`node::Node`]) that the `ast` shim exposes to
//!   Python code, with CPython-exact positions (lineno, col_offset in UTF-8 bytes, end_*);
//! - [`SyntaxError`] exactly where CPython 3.11 raises one.
//!
//! CONTRACT (other modules code against these signatures; keep them stable):
//! - `parse_module(source, filename) -> Result<syntax::ModModule, SyntaxError>`
//! - `parse_tree(source, filename) -> Result<node::Node, SyntaxError>`  (a `Module` node)
//! - `decode_source(bytes) -> Result<String, SyntaxError>`  (PEP 263 cookie / BOM, for `ast.parse(bytes)`)
//! - `LineIndex::new(src)`, `LineIndex::position(byte_offset) -> (lineno, col_offset)`
//! - `node::CLASSES`, `node::class(name)`: every `ast` class of 3.11 with base, `_fields`, `_attributes`.
//!
//! Added (also stable): `SyntaxError::kind` ([`ErrorKind`]: SyntaxError / IndentationError /
//! TabError / RecursionError / MemoryError) and `SyntaxError::message()` (= `str(exc)`);
//! `node::NodeClass::optional` (fields whose class default is `None`), `NodeClass::is_subclass_of`,
//! `Node::get(field)`, `Node::attribute(name)`, `Node::children()` (`iter_child_nodes` order),
//! `Field::as_*`, `node::dump(node, annotate_fields, include_attributes, indent)` (3.11 `ast.dump`;
//! `indent` is the indent string, an int `n` means `n` spaces), `node::repr_constant` / `repr_str`
//! (Python `repr`), `node::normalize_identifier` (PEP 3131 NFKC), `LineIndex::source()`.
//!
//! Pipeline ([`parse`] module): a CPython-tokenizer-style pre-scan ([`scan`]) enforces CPython's
//! limits (200 nested brackets, 100 indentation levels, expression depth) before rustpython runs,
//! so deep input can never overflow the stack; rustpython parses; [`validate`] rejects what 3.11
//! rejects but rustpython accepts; errors are mapped to CPython's messages and positions.
//! `ast.parse` accepts duplicate parameter / keyword names (a compile-time error in CPython):
//! [`parse_tree`] renames them to same-length placeholders, parses, and restores the names in the
//! tree; [`parse_module`] (compile's view) rejects them with CPython's compile message.
//!
//! Known differences: lone surrogate escapes (`"\udc80"`) become U+FFFD (a Rust `String` cannot hold
//! them); trees too deep for any caller are refused here, the RecursionError that depends on the
//! caller's depth is the interpreter's (`Interp::ast_construction_check`); the typed tree of [`parse_module`] keeps rustpython's positions
//! (quirk fixes apply to [`parse_tree`] only); identifiers are CPython's in both trees (NFKC, and
//! the letters of Unicode 11-14 that rustpython's tables lack, parsed behind placeholders, put back:
//! `idents.rs`).

mod classes;
mod decode;
mod dump;
#[cfg(feature = "fast-parse")]
mod from_ruff;
mod from_rustpython;
mod idents;
pub mod node;
mod parse;
mod scan;
mod validate;

pub use rustpython_parser::ast as syntax;

/// Which Python exception `ast.parse` raises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ErrorKind {
    #[default]
    SyntaxError,
    /// Subclass of SyntaxError (`unexpected indent`, `expected an indented block ...`).
    IndentationError,
    /// Subclass of IndentationError (`inconsistent use of tabs and spaces in indentation`).
    TabError,
    /// `maximum recursion depth exceeded during ast construction` (too deep a tree).
    RecursionError,
    /// The 3.11 PEG parser's stack overflow (very deep unary chains); `str(exc)` is empty.
    MemoryError,
}

impl ErrorKind {
    /// The Python class name.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::SyntaxError => "SyntaxError",
            ErrorKind::IndentationError => "IndentationError",
            ErrorKind::TabError => "TabError",
            ErrorKind::RecursionError => "RecursionError",
            ErrorKind::MemoryError => "MemoryError",
        }
    }
}

/// A SyntaxError as CPython 3.11 reports it (`msg (filename, line N)`).
///
/// `kind` says which exception class CPython raises; for RecursionError / MemoryError `str(exc)` is
/// just `msg` (see [`SyntaxError::message`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.message())]
pub struct SyntaxError {
    pub msg: String,
    pub filename: String,
    pub lineno: u32,
    /// 1-based column (CPython's `offset`).
    pub offset: u32,
    /// The offending source line, if known.
    pub text: Option<String>,
    pub kind: ErrorKind,
}

impl SyntaxError {
    /// `str(exc)` as CPython prints it.
    pub fn message(&self) -> String {
        match self.kind {
            ErrorKind::RecursionError | ErrorKind::MemoryError => self.msg.clone(),
            // Raised before tokenizing, without a location.
            _ if self.msg == "source code string cannot contain null bytes" => self.msg.clone(),
            _ => format!("{} ({}, line {})", self.msg, self.filename, self.lineno),
        }
    }
}

/// Maps UTF-8 byte offsets to CPython's 1-based line and 0-based byte column.
/// `\n`, `\r\n` and a lone `\r` all end a line, as in CPython's tokenizer.
#[derive(Debug, Clone)]
pub struct LineIndex {
    starts: Vec<u32>,
    /// The indexed text: a few CPython position quirks need to look at it.
    src: std::sync::Arc<str>,
}

impl LineIndex {
    pub fn new(src: &str) -> Self {
        let bytes = src.as_bytes();
        let mut starts = vec![0u32];
        // The `\n` of a `\r\n` was already counted with its `\r`.
        let mut skip = usize::MAX;
        for i in memchr::memchr2_iter(b'\n', b'\r', bytes) {
            if i == skip {
                continue;
            }
            if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                skip = i + 1;
                starts.push((i + 2) as u32);
            } else {
                starts.push((i + 1) as u32);
            }
        }
        LineIndex { starts, src: src.into() }
    }

    /// The indexed source text.
    pub fn source(&self) -> &str {
        &self.src
    }

    /// `(lineno, col_offset)` of a byte offset.
    pub fn position(&self, offset: u32) -> (u32, u32) {
        self.at_line(self.line_of(offset), offset)
    }

    /// [`position`](Self::position), trying line `hint` and the one after it before searching
    /// (a tree's nodes are converted in nearly source order); `hint` is set to the answer's line.
    pub fn position_near(&self, offset: u32, hint: &std::cell::Cell<usize>) -> (u32, u32) {
        let holds = |l: usize| {
            self.starts.get(l).is_some_and(|&s| s <= offset)
                && self.starts.get(l + 1).is_none_or(|&next| next > offset)
        };
        let h = hint.get();
        let line = if holds(h) {
            h
        } else if holds(h + 1) {
            h + 1
        } else {
            self.line_of(offset)
        };
        hint.set(line);
        self.at_line(line, offset)
    }

    /// The 0-based line holding `offset`, by binary search.
    fn line_of(&self, offset: u32) -> usize {
        self.starts.partition_point(|&s| s <= offset).saturating_sub(1)
    }

    fn at_line(&self, line: usize, offset: u32) -> (u32, u32) {
        let start = self.starts.get(line).copied().unwrap_or(0);
        (line as u32 + 1, offset - start)
    }
}

/// Parses a module as CPython 3.11 would, returning the typed tree the interpreter runs.
///
/// This is `compile()`'s view: besides what `ast.parse` rejects, duplicate parameter names and
/// repeated keyword arguments are SyntaxErrors here, as CPython's compiler reports them.
pub fn parse_module(source: &str, filename: &str) -> Result<syntax::ModModule, SyntaxError> {
    parse::parse(source, filename, false).map(|p| p.module)
}

/// Parses a module into the CPython-shaped generic tree the `ast` shim exposes (`ast.parse`).
///
/// Valid sources go through ruff's parser when the `fast-parse` feature is on ([`from_ruff`]); it
/// declines whatever it cannot convert with certainty, and every error comes from the reference.
pub fn parse_tree(source: &str, filename: &str) -> Result<node::Node, SyntaxError> {
    #[cfg(feature = "fast-parse")]
    if let Some(tree) = from_ruff::parse_tree(source) {
        return Ok(tree);
    }
    parse_tree_reference(source, filename)
}

/// The fast path of [`parse_tree`] alone: `None` when it declines the source (always, without
/// the `fast-parse` feature). For tests that hold it to the reference.
pub fn parse_tree_fast(source: &str) -> Option<node::Node> {
    #[cfg(feature = "fast-parse")]
    return from_ruff::parse_tree(source);
    #[cfg(not(feature = "fast-parse"))]
    {
        let _ = source;
        None
    }
}

/// [`parse_tree`] through the rustpython pipeline only: the reference the fast path is held to
/// (and the only path of builds without the `fast-parse` feature).
pub fn parse_tree_reference(source: &str, filename: &str) -> Result<node::Node, SyntaxError> {
    let p = parse::parse(source, filename, true)?;
    Ok(node::from_module_renamed(&p.module, &LineIndex::new(source), &p.renames))
}

/// Decodes the bytes given to `ast.parse(bytes)`: UTF-8 BOM, PEP 263 coding cookie on line 1 or 2
/// (utf-8, latin-1 / iso-8859-1 and aliases, ascii), UTF-8 by default.
pub fn decode_source(bytes: &[u8]) -> Result<String, SyntaxError> {
    decode::decode_source(bytes)
}

#[cfg(test)]
mod tests {
    use super::LineIndex;
    use std::cell::Cell;

    /// Line starts found byte by byte, the plain way: `\n`, `\r\n` and a lone `\r` end a line.
    fn naive_starts(src: &str) -> Vec<u32> {
        let b = src.as_bytes();
        let mut starts = vec![0u32];
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'\r' && b.get(i + 1) == Some(&b'\n') {
                i += 1;
            }
            if b[i] == b'\n' || b[i] == b'\r' {
                starts.push((i + 1) as u32);
            }
            i += 1;
        }
        starts
    }

    #[test]
    fn line_starts_match_the_byte_by_byte_scan() {
        for src in ["", "\r", "\n", "\r\n", "\r\r\n\n", "a\rb\r\nc\nd", "\n\r", "x\r\n\r\n"] {
            assert_eq!(LineIndex::new(src).starts, naive_starts(src), "{src:?}");
        }
    }

    /// The hinted lookup gives `position`'s answer for every offset, whatever the hint and the
    /// order of the questions (forwards, backwards, jumping), with every kind of line end.
    #[test]
    fn position_near_agrees_with_position() {
        let sources = ["", "x", "a\nbb\r\nccc\rd\n\n\r\n", "\n\n\n", "é = 1\r\n  f(x)\n# end"];
        for src in sources {
            let index = LineIndex::new(src);
            let len = src.len() as u32;
            let mut order: Vec<u32> = (0..=len).collect();
            order.extend((0..=len).rev());
            order.extend((0..=len).map(|i| (i * 7) % (len + 1)));
            for start_hint in [0usize, 1, 2, 5, 1000] {
                let hint = Cell::new(start_hint);
                for &off in &order {
                    assert_eq!(
                        index.position_near(off, &hint),
                        index.position(off),
                        "{src:?} offset {off}"
                    );
                }
            }
        }
    }
}
