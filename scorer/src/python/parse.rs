//! The parse pipeline: pre-scan → rustpython → 3.11 validation, and the mapping of errors to
//! CPython's messages and positions.

use std::borrow::Cow;

use rustpython_parser::lexer::LexicalErrorType;
use rustpython_parser::{Parse, ParseError, ParseErrorType, Tok};

use super::scan::{self, ScanError};
use super::validate;
use super::{syntax, ErrorKind, LineIndex, SyntaxError};

pub(crate) struct Parsed {
    pub module: syntax::ModModule,
    /// Duplicate parameter / keyword names renamed before parsing: (byte offset, original).
    pub renames: Vec<(u32, String)>,
}

/// How many duplicate names we rename before giving up (each costs a re-parse).
const MAX_RENAMES: usize = 64;

struct Ctx<'a> {
    src: &'a str,
    filename: &'a str,
    index: LineIndex,
}

impl Ctx<'_> {
    fn error(&self, msg: impl Into<String>, offset: usize, kind: ErrorKind) -> SyntaxError {
        let offset = offset.min(self.src.len());
        let (lineno, col) = self.index.position(offset as u32);
        let line_start = offset - col as usize;
        let line_text = line_at(self.src, line_start);
        // CPython's offset counts characters, 1-based.
        let col_chars =
            self.src.get(line_start..offset).map_or(col as usize, |s| s.chars().count());
        SyntaxError {
            msg: msg.into(),
            filename: self.filename.to_string(),
            lineno,
            offset: col_chars as u32 + 1,
            text: Some(line_text.to_string()),
            kind,
        }
    }

    fn from_scan(&self, e: &ScanError) -> SyntaxError {
        self.error(e.msg.clone(), e.offset, e.kind)
    }
}

fn line_at(src: &str, start: usize) -> &str {
    let rest = src.get(start..).unwrap_or("");
    let end = rest.find(['\n', '\r']).unwrap_or(rest.len());
    &rest[..end]
}

pub(crate) fn parse(source: &str, filename: &str, ast_mode: bool) -> Result<Parsed, SyntaxError> {
    let ctx = Ctx { src: source, filename, index: LineIndex::new(source) };
    let scanned = scan::scan(source);
    if let Some(e) = scanned.error.as_ref().filter(|e| e.fatal) {
        return Err(ctx.from_scan(e));
    }
    let mut renames: Vec<(u32, String)> = Vec::new();
    let mut text: Cow<str> = Cow::Borrowed(source);
    loop {
        match syntax::ModModule::parse(&text, filename) {
            Ok(module) => {
                if let Some(e) = &scanned.error {
                    // rustpython accepted something the tokenizer rejects (f-string backslash).
                    return Err(ctx.from_scan(e));
                }
                if let Err(inv) = validate::validate(&module, source) {
                    return Err(ctx.error(inv.msg, inv.offset, inv.kind));
                }
                return Ok(Parsed { module, renames });
            }
            Err(e) => {
                if ast_mode && renames.len() < MAX_RENAMES {
                    if let Some((offset, name)) = duplicate(&e) {
                        if let Some(new) = rename(&text, offset, &name) {
                            renames.push((offset as u32, name));
                            text = Cow::Owned(new);
                            continue;
                        }
                    }
                }
                return Err(map_error(&ctx, &e, &scanned));
            }
        }
    }
}

/// A duplicate parameter or keyword name rustpython rejected but `ast.parse` accepts.
fn duplicate(e: &ParseError) -> Option<(usize, String)> {
    match &e.error {
        ParseErrorType::Lexical(LexicalErrorType::DuplicateArgumentError(n))
        | ParseErrorType::Lexical(LexicalErrorType::DuplicateKeywordArgumentError(n)) => {
            Some((u32::from(e.offset) as usize, n.clone()))
        }
        _ => None,
    }
}

/// Replaces the name at `offset` by a same-length identifier that appears nowhere in the source,
/// so positions are unchanged; the converter restores the original.
fn rename(text: &str, offset: usize, name: &str) -> Option<String> {
    if text.get(offset..offset + name.len()) != Some(name) {
        return None;
    }
    let len = name.len();
    let bytes = text.as_bytes();
    let used = |cand: &str| {
        let mut from = 0;
        while let Some(p) = text[from..].find(cand) {
            let at = from + p;
            let before_ok = at == 0 || !is_ident_byte(bytes[at - 1]);
            let after_ok = bytes.get(at + cand.len()).is_none_or(|&c| !is_ident_byte(c));
            if before_ok && after_ok {
                return true;
            }
            from = at + 1;
        }
        false
    };
    const ALPHA: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_";
    const ALNUM: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789";
    // Candidates: first char from ALPHA, the rest from ALNUM, enumerated in order.
    let mut counter: u64 = 0;
    for _ in 0..100_000 {
        let mut n = counter;
        let mut cand = String::with_capacity(len);
        cand.push(ALPHA[(n % ALPHA.len() as u64) as usize] as char);
        n /= ALPHA.len() as u64;
        for _ in 1..len {
            cand.push(ALNUM[(n % ALNUM.len() as u64) as usize] as char);
            n /= ALNUM.len() as u64;
        }
        counter += 1;
        if n > 0 && len > 0 && counter > 53u64.saturating_pow(len as u32) {
            break;
        }
        if is_keyword(&cand) || used(&cand) {
            continue;
        }
        let mut out = String::with_capacity(text.len());
        out.push_str(&text[..offset]);
        out.push_str(&cand);
        out.push_str(&text[offset + len..]);
        return Some(out);
    }
    None
}

fn is_ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80
}

fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "False"
            | "None"
            | "True"
            | "and"
            | "as"
            | "assert"
            | "async"
            | "await"
            | "break"
            | "class"
            | "continue"
            | "def"
            | "del"
            | "elif"
            | "else"
            | "except"
            | "finally"
            | "for"
            | "from"
            | "global"
            | "if"
            | "import"
            | "in"
            | "is"
            | "lambda"
            | "nonlocal"
            | "not"
            | "or"
            | "pass"
            | "raise"
            | "return"
            | "try"
            | "while"
            | "with"
            | "yield"
            | "_"
    )
}

/// The header keyword of the block statement whose `:` ends just before `offset`.
fn block_header(src: &str, offset: usize) -> Option<(String, u32, usize)> {
    // Walk back over blank / comment lines to the header line.
    let before = src.get(..offset)?;
    let mut lines: Vec<(usize, &str)> = Vec::new();
    let mut start = 0;
    for (i, c) in before.char_indices() {
        if c == '\n' || (c == '\r' && !before[i + 1..].starts_with('\n')) {
            lines.push((start, &before[start..i]));
            start = i + 1;
        }
    }
    let _ = start;
    let (_, header_line) = lines
        .iter()
        .rev()
        .find(|(_, l)| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with('#')
        })?
        .to_owned();
    // The statement may span lines (a multi-line `def`); find its first line by indentation is
    // hard without tokens: take the last line that starts with a block keyword.
    let keywords = [
        "if", "elif", "else", "for", "while", "def", "class", "with", "try", "except", "finally",
        "async", "match", "case",
    ];
    let _ = header_line;
    for (ls, l) in lines.iter().rev() {
        let t = l.trim_start();
        let word: String = t.chars().take_while(|c| c.is_ascii_alphabetic() || *c == '_').collect();
        let mut word = word;
        if word == "async" {
            let rest = t[5..].trim_start();
            word = rest.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
        }
        if keywords.contains(&word.as_str()) || t.starts_with('@') {
            let line = 1 + src[..*ls].matches('\n').count() as u32;
            return Some((word, line, *ls));
        }
    }
    None
}

fn map_error(ctx: &Ctx, e: &ParseError, scanned: &scan::Scan) -> SyntaxError {
    let off = u32::from(e.offset) as usize;
    // A tokenizer error at or before the parser's error is what CPython reports.
    if let Some(se) = &scanned.error {
        if se.offset <= off || matches!(e.error, ParseErrorType::Lexical(_) | ParseErrorType::Eof) {
            return ctx.from_scan(se);
        }
    }
    match &e.error {
        ParseErrorType::Eof => {
            if let Some(u) = &scanned.unclosed {
                return ctx.from_scan(u);
            }
            ctx.error("unexpected EOF while parsing", off, ErrorKind::SyntaxError)
        }
        ParseErrorType::Lexical(lex) => map_lexical(ctx, lex, off),
        ParseErrorType::UnrecognizedToken(tok, expected) => {
            if matches!(tok, Tok::EndOfFile) {
                if let Some(u) = &scanned.unclosed {
                    return ctx.from_scan(u);
                }
            }
            if matches!(tok, Tok::Indent) {
                return ctx.error("unexpected indent", off, ErrorKind::IndentationError);
            }
            if expected.as_deref() == Some("Indent") {
                if let Some((kw, line, _)) = block_header(ctx.src, off) {
                    let what = match kw.as_str() {
                        "def" => format!("function definition on line {line}"),
                        "class" => format!("class definition on line {line}"),
                        k => format!("'{k}' statement on line {line}"),
                    };
                    // CPython reports the line after the header's last line.
                    let at = next_token(ctx.src, off);
                    return ctx.error(
                        format!("expected an indented block after {what}"),
                        at,
                        ErrorKind::IndentationError,
                    );
                }
                return ctx.error("expected an indented block", off, ErrorKind::IndentationError);
            }
            if matches!(tok, Tok::Dedent) {
                return ctx.error("unexpected unindent", off, ErrorKind::IndentationError);
            }
            if expected.as_deref() == Some("':'") {
                return ctx.error("expected ':'", off, ErrorKind::SyntaxError);
            }
            if matches!(tok, Tok::Newline | Tok::EndOfFile) {
                if let Some(u) = &scanned.unclosed {
                    return ctx.from_scan(u);
                }
            }
            ctx.error("invalid syntax", off, ErrorKind::SyntaxError)
        }
        ParseErrorType::ExtraToken(_) | ParseErrorType::InvalidToken => {
            ctx.error("invalid syntax", off, ErrorKind::SyntaxError)
        }
    }
}

/// The offset of the next non-blank character (skipping blank and comment lines).
fn next_token(src: &str, off: usize) -> usize {
    let b = src.as_bytes();
    let mut i = off;
    while i < b.len() {
        match b[i] {
            b' ' | b'\t' | b'\x0c' | b'\n' | b'\r' => i += 1,
            b'#' => {
                while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
                    i += 1;
                }
            }
            _ => break,
        }
    }
    i
}

fn map_lexical(ctx: &Ctx, lex: &LexicalErrorType, off: usize) -> SyntaxError {
    use LexicalErrorType as L;
    match lex {
        L::IndentationError => ctx.error(
            "unindent does not match any outer indentation level",
            off,
            ErrorKind::IndentationError,
        ),
        L::TabError | L::TabsAfterSpaces => ctx.error(
            "inconsistent use of tabs and spaces in indentation",
            off,
            ErrorKind::TabError,
        ),
        L::DefaultArgumentError => {
            ctx.error("non-default argument follows default argument", off, ErrorKind::SyntaxError)
        }
        L::DuplicateArgumentError(n) => ctx.error(
            format!("duplicate argument '{n}' in function definition"),
            off,
            ErrorKind::SyntaxError,
        ),
        L::DuplicateKeywordArgumentError(n) => {
            ctx.error(format!("keyword argument repeated: {n}"), off, ErrorKind::SyntaxError)
        }
        L::PositionalArgumentError => {
            ctx.error("positional argument follows keyword argument", off, ErrorKind::SyntaxError)
        }
        L::UnpackedArgumentError => ctx.error(
            "iterable argument unpacking follows keyword argument unpacking",
            off,
            ErrorKind::SyntaxError,
        ),
        L::LineContinuationError => ctx.error(
            "unexpected character after line continuation character",
            off,
            ErrorKind::SyntaxError,
        ),
        L::UnrecognizedToken { tok } => {
            let c = *tok;
            if c.is_ascii() {
                ctx.error("invalid syntax", off, ErrorKind::SyntaxError)
            } else if super::node::is_printable_char(c) {
                ctx.error(
                    format!("invalid character '{c}' (U+{:04X})", c as u32),
                    off,
                    ErrorKind::SyntaxError,
                )
            } else {
                ctx.error(
                    format!("invalid non-printable character U+{:04X}", c as u32),
                    off,
                    ErrorKind::SyntaxError,
                )
            }
        }
        _ => ctx.error("invalid syntax", off, ErrorKind::SyntaxError),
    }
}
