//! A cheap pre-scan of the source, CPython-tokenizer style, run before rustpython sees it.
//!
//! It enforces the limits CPython's tokenizer enforces (200 nested brackets, 100 indentation
//! levels) and bounds the expression depth, so deep input never reaches the recursive parts of
//! rustpython (a stack overflow aborts a wasm module). It also finds tokenizer errors whose CPython
//! message rustpython does not give (unterminated strings, unmatched brackets, a backslash in an
//! f-string expression).

use super::ErrorKind;

/// A problem found by the scan, at a byte offset of the source.
#[derive(Debug, Clone)]
pub(crate) struct ScanError {
    pub msg: String,
    pub offset: usize,
    /// For errors CPython reports at a line without a useful column (e.g. indentation).
    pub kind: ErrorKind,
    /// Fatal errors must be reported without parsing (too deep to parse safely); the others are
    /// reported only if the parser does not fail earlier.
    pub fatal: bool,
}

/// What the scan learned.
#[derive(Debug, Default)]
pub(crate) struct Scan {
    /// The first tokenizer-level error, if any.
    pub error: Option<ScanError>,
    /// `'(' was never closed`: reported when the parser fails at the end of the input.
    pub unclosed: Option<ScanError>,
}

/// CPython's MAXLEVEL.
const MAX_LEVEL: usize = 200;
/// CPython's MAXINDENT.
const MAX_INDENT: usize = 100;
/// Above this many depth-increasing tokens in one expression we refuse to parse: the tree would
/// be deeper than CPython accepts (RecursionError) and deep enough to threaten our stack.
pub(crate) const MAX_EXPR_TOKENS: usize = 8000;

struct Scanner<'a> {
    s: &'a [u8],
    i: usize,
    /// Open brackets: (byte, offset, depth counter of the enclosing level at the time).
    brackets: Vec<(u8, usize)>,
    /// Depth-increasing tokens per bracket level (index 0 = outside brackets).
    counts: Vec<usize>,
    indents: Vec<usize>,
    out: Scan,
}

fn err(msg: impl Into<String>, offset: usize, kind: ErrorKind, fatal: bool) -> ScanError {
    ScanError { msg: msg.into(), offset, kind, fatal }
}

pub(crate) fn scan(src: &str) -> Scan {
    let mut sc = Scanner {
        s: src.as_bytes(),
        i: 0,
        brackets: Vec::new(),
        counts: vec![0],
        indents: vec![0],
        out: Scan::default(),
    };
    if src.starts_with('\u{feff}') {
        sc.out.error =
            Some(err("invalid non-printable character U+FEFF", 0, ErrorKind::SyntaxError, false));
        return sc.out;
    }
    sc.run();
    sc.out
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c >= 0x80
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80
}

impl Scanner<'_> {
    fn set_error(&mut self, e: ScanError) {
        if self.out.error.is_none() {
            self.out.error = Some(e);
        }
    }

    fn bump_depth(&mut self) -> bool {
        if let Some(c) = self.counts.last_mut() {
            *c += 1;
        }
        let total: usize = self.counts.iter().sum::<usize>() + self.counts.len();
        if total > MAX_EXPR_TOKENS {
            self.set_error(err(
                "maximum recursion depth exceeded during ast construction",
                self.i,
                ErrorKind::RecursionError,
                true,
            ));
            return false;
        }
        true
    }

    fn reset_level(&mut self) {
        if let Some(c) = self.counts.last_mut() {
            *c = 0;
        }
    }

    fn at_line_start(&mut self) -> bool {
        // Measure indentation as CPython does (tabs to multiples of 8).
        let start = self.i;
        let mut col = 0usize;
        while self.i < self.s.len() {
            match self.s[self.i] {
                b' ' => col += 1,
                b'\t' => col = (col / 8 + 1) * 8,
                b'\x0c' => col = 0,
                _ => break,
            }
            self.i += 1;
        }
        match self.s.get(self.i) {
            None | Some(b'#' | b'\n' | b'\r') => return true, // blank line: no indentation token
            Some(b'\\') => return true,
            _ => {}
        }
        let top = self.indents.last().copied().unwrap_or(0);
        if col > top {
            if self.indents.len() >= MAX_INDENT {
                self.set_error(err(
                    "too many levels of indentation",
                    start,
                    ErrorKind::IndentationError,
                    true,
                ));
                return false;
            }
            self.indents.push(col);
        } else {
            while self.indents.len() > 1 && self.indents.last().is_some_and(|&t| t > col) {
                self.indents.pop();
            }
        }
        true
    }

    fn run(&mut self) {
        let mut line_start = true;
        while self.i < self.s.len() {
            if self.out.error.as_ref().is_some_and(|e| e.fatal) {
                return;
            }
            if line_start && self.brackets.is_empty() {
                line_start = false;
                if !self.at_line_start() {
                    return;
                }
                continue;
            }
            let c = self.s[self.i];
            match c {
                b'#' => {
                    while self.i < self.s.len() && !matches!(self.s[self.i], b'\n' | b'\r') {
                        self.i += 1;
                    }
                }
                b'\n' | b'\r' => {
                    self.i += 1;
                    if c == b'\r' && self.s.get(self.i) == Some(&b'\n') {
                        self.i += 1;
                    }
                    if self.brackets.is_empty() {
                        line_start = true;
                        self.reset_level();
                    }
                }
                b'\\' => {
                    self.i += 1;
                    match self.s.get(self.i) {
                        Some(b'\n') => self.i += 1,
                        Some(b'\r') => {
                            self.i += 1;
                            if self.s.get(self.i) == Some(&b'\n') {
                                self.i += 1;
                            }
                        }
                        _ => {}
                    }
                }
                b'\'' | b'"' => {
                    if !self.string(self.i, self.i, false) {
                        return;
                    }
                }
                b'(' | b'[' | b'{' => {
                    if self.brackets.len() >= MAX_LEVEL {
                        self.set_error(err(
                            "too many nested parentheses",
                            self.i,
                            ErrorKind::SyntaxError,
                            true,
                        ));
                        return;
                    }
                    if !self.bump_depth() {
                        return;
                    }
                    self.brackets.push((c, self.i));
                    self.counts.push(0);
                    self.i += 1;
                }
                b')' | b']' | b'}' => {
                    let want = match c {
                        b')' => b'(',
                        b']' => b'[',
                        _ => b'{',
                    };
                    match self.brackets.pop() {
                        None => {
                            self.set_error(err(
                                format!("unmatched '{}'", c as char),
                                self.i,
                                ErrorKind::SyntaxError,
                                false,
                            ));
                        }
                        Some((open, at)) if open != want => {
                            let msg = if self.line_of(at) == self.line_of(self.i) {
                                format!(
                                    "closing parenthesis '{}' does not match opening parenthesis '{}'",
                                    c as char, open as char
                                )
                            } else {
                                format!(
                                    "closing parenthesis '{}' does not match opening parenthesis '{}' on line {}",
                                    c as char,
                                    open as char,
                                    self.line_of(at)
                                )
                            };
                            self.set_error(err(msg, self.i, ErrorKind::SyntaxError, false));
                        }
                        Some(_) => {}
                    }
                    if self.counts.len() > 1 {
                        self.counts.pop();
                    }
                    self.i += 1;
                }
                b',' | b';' | b'=' => {
                    // `==` is an operator, not a separator, but counting it as one only lowers
                    // the estimate of a chain that CPython keeps flat anyway (Compare).
                    self.reset_level();
                    self.i += 1;
                }
                b'.' => {
                    if self.s.get(self.i + 1).is_some_and(u8::is_ascii_digit) {
                        self.number();
                    } else {
                        if !self.bump_depth() {
                            return;
                        }
                        self.i += 1;
                    }
                }
                b'+' | b'-' | b'*' | b'/' | b'%' | b'@' | b'&' | b'|' | b'^' | b'~' | b'<'
                | b'>' => {
                    if !self.bump_depth() {
                        return;
                    }
                    self.i += 1;
                }
                b'0'..=b'9' => self.number(),
                c if is_ident_start(c) => {
                    let start = self.i;
                    while self.i < self.s.len() && is_ident_char(self.s[self.i]) {
                        self.i += 1;
                    }
                    let word = &self.s[start..self.i];
                    if matches!(self.s.get(self.i), Some(b'\'' | b'"')) && is_prefix(word) {
                        let f = word.iter().any(|c| matches!(c, b'f' | b'F'));
                        let raw = word.iter().any(|c| matches!(c, b'r' | b'R'));
                        let _ = raw;
                        if !self.string(start, self.i, f) {
                            return;
                        }
                    } else if matches!(word, b"not" | b"lambda" | b"await" | b"if" | b"else")
                        && !self.bump_depth()
                    {
                        return;
                    }
                }
                _ => self.i += 1,
            }
        }
        if let Some(&(open, at)) = self.brackets.last() {
            self.out.unclosed = Some(err(
                format!("'{}' was never closed", open as char),
                at,
                ErrorKind::SyntaxError,
                false,
            ));
        }
    }

    fn number(&mut self) {
        while self.i < self.s.len() {
            let c = self.s[self.i];
            if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' {
                // An exponent sign belongs to the number.
                if matches!(c, b'e' | b'E')
                    && matches!(self.s.get(self.i + 1), Some(b'+' | b'-'))
                    && !self.s[..self.i].starts_with(b"0x")
                {
                    self.i += 2;
                    continue;
                }
                self.i += 1;
            } else {
                break;
            }
        }
    }

    fn line_of(&self, offset: usize) -> usize {
        let mut line = 1;
        let mut j = 0;
        while j < offset && j < self.s.len() {
            match self.s[j] {
                b'\n' => line += 1,
                b'\r' => {
                    if self.s.get(j + 1) != Some(&b'\n') {
                        line += 1;
                    }
                }
                _ => {}
            }
            j += 1;
        }
        line
    }

    /// Scans a string literal whose prefix starts at `start` and quote at `q`; returns false on a
    /// fatal condition (the scan stops).
    fn string(&mut self, start: usize, q: usize, fstring: bool) -> bool {
        let quote = self.s[q];
        let triple = self.s.get(q + 1) == Some(&quote) && self.s.get(q + 2) == Some(&quote);
        self.i = q + if triple { 3 } else { 1 };
        // f-string expression tracking: nesting of `{` replacement fields; inside one, bracket
        // depth and whether we are in the format spec.
        let mut fields: Vec<(usize, bool)> = Vec::new(); // (bracket depth, in_spec)
        while self.i < self.s.len() {
            let c = self.s[self.i];
            if c == quote {
                if !triple {
                    self.i += 1;
                    return true;
                }
                if self.s.get(self.i + 1) == Some(&quote) && self.s.get(self.i + 2) == Some(&quote)
                {
                    self.i += 3;
                    return true;
                }
                self.i += 1;
                continue;
            }
            if (c == b'\n' || c == b'\r') && !triple {
                let line = self.line_of(self.i);
                self.set_error(err(
                    format!("unterminated string literal (detected at line {line})"),
                    start,
                    ErrorKind::SyntaxError,
                    false,
                ));
                // Stop the scan: what follows would be tokenized differently.
                return false;
            }
            let in_expr = fields.last().is_some_and(|&(_, spec)| !spec);
            if c == b'\\' {
                if fstring && in_expr {
                    self.set_error(err(
                        "f-string expression part cannot include a backslash",
                        start,
                        ErrorKind::SyntaxError,
                        false,
                    ));
                }
                self.i += if self.s.get(self.i + 1) == Some(&b'\r')
                    && self.s.get(self.i + 2) == Some(&b'\n')
                {
                    3
                } else {
                    2
                };
                continue;
            }
            if fstring {
                match c {
                    b'{' => {
                        if fields.is_empty() && self.s.get(self.i + 1) == Some(&b'{') {
                            self.i += 2;
                            continue;
                        }
                        if in_expr {
                            if let Some(f) = fields.last_mut() {
                                f.0 += 1;
                            }
                        } else {
                            fields.push((0, false));
                        }
                    }
                    b'}' => {
                        if fields.is_empty() {
                            if self.s.get(self.i + 1) == Some(&b'}') {
                                self.i += 2;
                                continue;
                            }
                        } else if let Some(f) = fields.last_mut() {
                            if !f.1 && f.0 > 0 {
                                f.0 -= 1;
                            } else {
                                fields.pop();
                            }
                        }
                    }
                    b'(' | b'[' if in_expr => {
                        if let Some(f) = fields.last_mut() {
                            f.0 += 1;
                        }
                    }
                    b')' | b']' if in_expr => {
                        if let Some(f) = fields.last_mut() {
                            f.0 = f.0.saturating_sub(1);
                        }
                    }
                    b':' if in_expr => {
                        if let Some(f) = fields.last_mut() {
                            if f.0 == 0 {
                                f.1 = true;
                            }
                        }
                    }
                    b'#' if in_expr => {
                        self.set_error(err(
                            "f-string expression part cannot include '#'",
                            start,
                            ErrorKind::SyntaxError,
                            false,
                        ));
                    }
                    b'\'' | b'"' if in_expr => {
                        // A nested string of the other quote kind: skip it.
                        let other = c;
                        self.i += 1;
                        while self.i < self.s.len()
                            && self.s[self.i] != other
                            && self.s[self.i] != quote
                        {
                            if matches!(self.s[self.i], b'\n' | b'\r') && !triple {
                                break;
                            }
                            self.i += 1;
                        }
                        if self.s.get(self.i) == Some(&other) {
                            self.i += 1;
                        }
                        continue;
                    }
                    _ => {}
                }
            }
            self.i += 1;
        }
        let line = self.line_of(self.s.len());
        let msg = if triple {
            format!("unterminated triple-quoted string literal (detected at line {line})")
        } else {
            format!("unterminated string literal (detected at line {line})")
        };
        self.set_error(err(msg, start, ErrorKind::SyntaxError, false));
        false
    }
}

fn is_prefix(w: &[u8]) -> bool {
    if w.len() > 2 {
        return false;
    }
    let lower: Vec<u8> = w.iter().map(u8::to_ascii_lowercase).collect();
    matches!(lower.as_slice(), b"r" | b"u" | b"b" | b"f" | b"br" | b"rb" | b"fr" | b"rf")
}
