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
