//! The column CPython 3.11 reports a SyntaxError in when `ast.parse` is given bytes.
//!
//! The parser's errors (`_PyPegen_raise_error_known_location`) hold a UTF-8 byte column and
//! convert it to characters only when the tokenizer has an encoding (`tok->encoding`): a str
//! source always does, bytes only with a BOM or a coding cookie. Errors raised by the tokenizer
//! itself (`tokenizer.c`'s `syntaxerror`) count characters whatever the input. So
//! `ast.parse(b"\xc3\xa9 = = 1")` reports offset 6 where `ast.parse("é = = 1")` reports 5.

use super::{ErrorKind, SyntaxError};

/// The messages of `tokenizer.c`'s `syntaxerror` / `syntaxerror_known_range` (3.11).
pub(super) fn from_tokenizer(msg: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "invalid character '",
        "invalid non-printable character",
        "unterminated string literal",
        "unterminated triple-quoted string literal",
        "unmatched '",
        "closing parenthesis '",
        "too many nested parentheses",
        "invalid decimal literal",
        "invalid hexadecimal literal",
        "invalid octal literal",
        "invalid binary literal",
        "invalid imaginary literal",
        "invalid digit '",
        "leading zeros in decimal integer literals",
    ];
    PREFIXES.iter().any(|p| msg.starts_with(p))
}

/// Gives `e` (from parsing the decoded `source`) the column CPython reports for bytes input;
/// whether its columns are UTF-8 bytes there (its end's too: [`super::end_in_bytes`]).
pub fn bytes_error_columns(e: &mut SyntaxError, source: &[u8]) -> bool {
    if !matches!(e.kind, ErrorKind::SyntaxError | ErrorKind::IndentationError | ErrorKind::TabError)
        || e.offset == 0
        || from_tokenizer(&e.msg)
        || super::decode::declares_encoding(source)
    {
        return false;
    }
    if let Some(bytes) = e.byte_offset {
        // (counted over an earlier line: the byte column itself)
        e.offset = bytes;
        return true;
    }
    let Some(text) = &e.text else { return true };
    let chars = e.offset as usize - 1;
    let mut bytes = 0usize;
    let mut counted = 0usize;
    for c in text.chars().take(chars) {
        bytes += c.len_utf8();
        counted += 1;
    }
    // A column past the line's end (an error at its end) keeps its excess as is.
    let column = bytes + (chars - counted) + 1;
    e.offset = u32::try_from(column).unwrap_or(u32::MAX);
    true
}

/// Gives a decoding error of `ast.parse(bytes)` on a line (`e.text` unset, `lineno` > 0) that
/// line's text as CPython does: decoded with replacement, its line break (`\n`, `\r\n` or
/// `\r`) one `\n` (added when it has none).
pub fn decoding_error_text(e: &mut SyntaxError, source: &[u8]) {
    if e.text.is_some() || e.lineno == 0 {
        return;
    }
    e.text = bytes_line(source, e.lineno);
}

fn bytes_line(b: &[u8], lineno: u32) -> Option<String> {
    let mut start = 0usize;
    for _ in 1..lineno {
        let rel = b.get(start..)?.iter().position(|&c| c == b'\n' || c == b'\r')?;
        let at = start + rel;
        start = if b.get(at..at + 2) == Some(b"\r\n") { at + 2 } else { at + 1 };
    }
    let rest = b.get(start..)?;
    let end = rest.iter().position(|&c| c == b'\n' || c == b'\r').unwrap_or(rest.len());
    let mut line = String::from_utf8_lossy(&rest[..end]).into_owned();
    line.push('\n');
    Some(line)
}
