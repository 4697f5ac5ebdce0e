//! The parse facade: the only module that names `rustpython_parser`.
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

pub mod node;

pub use rustpython_parser::ast as syntax;

/// A SyntaxError as CPython 3.11 reports it (`msg (filename, line N)`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{msg} ({filename}, line {lineno})")]
pub struct SyntaxError {
    pub msg: String,
    pub filename: String,
    pub lineno: u32,
    /// 1-based column (CPython's `offset`).
    pub offset: u32,
    /// The offending source line, if known.
    pub text: Option<String>,
}

/// Maps UTF-8 byte offsets to CPython's 1-based line and 0-based byte column.
/// `\n`, `\r\n` and a lone `\r` all end a line, as in CPython's tokenizer.
#[derive(Debug, Clone)]
pub struct LineIndex {
    starts: Vec<u32>,
}

impl LineIndex {
    pub fn new(src: &str) -> Self {
        let bytes = src.as_bytes();
        let mut starts = vec![0u32];
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => starts.push((i + 1) as u32),
                b'\r' => {
                    if bytes.get(i + 1) == Some(&b'\n') {
                        i += 1;
                    }
                    starts.push((i + 1) as u32);
                }
                _ => {}
            }
            i += 1;
        }
        LineIndex { starts }
    }

    /// `(lineno, col_offset)` of a byte offset.
    pub fn position(&self, offset: u32) -> (u32, u32) {
        let line = self.starts.partition_point(|&s| s <= offset).saturating_sub(1);
        let start = self.starts.get(line).copied().unwrap_or(0);
        (line as u32 + 1, offset - start)
    }
}

/// Parses a module as CPython 3.11 would, returning the typed tree the interpreter runs.
pub fn parse_module(source: &str, filename: &str) -> Result<syntax::ModModule, SyntaxError> {
    use rustpython_parser::Parse;
    syntax::ModModule::parse(source, filename).map_err(|e| {
        let offset = u32::from(e.offset);
        let (lineno, col) = LineIndex::new(source).position(offset);
        SyntaxError {
            msg: "invalid syntax".to_string(),
            filename: filename.to_string(),
            lineno,
            offset: col + 1,
            text: source.lines().nth(lineno.saturating_sub(1) as usize).map(str::to_string),
        }
    })
}

/// Parses a module into the CPython-shaped generic tree the `ast` shim exposes.
pub fn parse_tree(source: &str, filename: &str) -> Result<node::Node, SyntaxError> {
    let module = parse_module(source, filename)?;
    Ok(node::from_module(&module, &LineIndex::new(source)))
}
