//! PEP 263 source decoding for `ast.parse(bytes)`.

use super::{ErrorKind, SyntaxError};

fn error(msg: String, lineno: u32) -> SyntaxError {
    SyntaxError {
        msg,
        filename: "<unknown>".to_string(),
        lineno,
        offset: 0,
        text: None,
        kind: ErrorKind::SyntaxError,
    }
}

/// The coding cookie of one line, as CPython's tokenizer finds it: the line must be a comment
/// (only whitespace before `#`) matching `coding[:=]\s*([-\w.]+)`.
fn cookie(line: &[u8]) -> Option<String> {
    let mut i = 0;
    while i < line.len() && matches!(line[i], b' ' | b'\t' | b'\x0c') {
        i += 1;
    }
    if line.get(i) != Some(&b'#') {
        return None;
    }
    let rest = &line[i..];
    let pos = rest.windows(6).position(|w| w == b"coding")?;
    let after = &rest[pos + 6..];
    if !matches!(after.first(), Some(b':' | b'=')) {
        // Look for a later occurrence ("# xcoding foo, coding: latin-1").
        return cookie_tail(&rest[pos + 6..]);
    }
    name_after(&after[1..])
}

fn cookie_tail(rest: &[u8]) -> Option<String> {
    let pos = rest.windows(6).position(|w| w == b"coding")?;
    let after = &rest[pos + 6..];
    if matches!(after.first(), Some(b':' | b'=')) {
        name_after(&after[1..])
    } else {
        cookie_tail(after)
    }
}

fn name_after(s: &[u8]) -> Option<String> {
    let mut j = 0;
    while j < s.len() && matches!(s[j], b' ' | b'\t') {
        j += 1;
    }
    let start = j;
    while j < s.len() && (s[j].is_ascii_alphanumeric() || matches!(s[j], b'-' | b'_' | b'.')) {
        j += 1;
    }
    (j > start).then(|| String::from_utf8_lossy(&s[start..j]).into_owned())
}

/// CPython's `get_normal_name` plus the codec aliases we support.
fn normalise(name: &str) -> Option<Codec> {
    let lower: String =
        name.chars().map(|c| if c == '_' { '-' } else { c.to_ascii_lowercase() }).collect();
    let base = lower.as_str();
    if base == "utf-8" || base.starts_with("utf-8-") || base == "utf8" || base == "u8" {
        return Some(Codec::Utf8);
    }
    if base == "utf-8-sig" || base == "utf8-sig" {
        return Some(Codec::Utf8);
    }
    let latin = [
        "latin-1",
        "iso-8859-1",
        "iso-latin-1",
        "latin1",
        "iso8859-1",
        "8859",
        "cp819",
        "latin",
        "l1",
        "iso-ir-100",
        "csisolatin1",
        "iso8859",
    ];
    if latin.contains(&base) || base.starts_with("latin-1-") || base.starts_with("iso-8859-1-") {
        return Some(Codec::Latin1);
    }
    let ascii = [
        "ascii",
        "us-ascii",
        "646",
        "ansi-x3.4-1968",
        "ansi-x3-4-1968",
        "ansi-x3.4-1986",
        "cp367",
        "csascii",
        "ibm367",
        "iso646-us",
        "iso-646.irv-1991",
        "iso-ir-6",
        "us",
    ];
    if ascii.contains(&base) {
        return Some(Codec::Ascii);
    }
    None
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Codec {
    Utf8,
    Latin1,
    Ascii,
}

fn split_line(b: &[u8]) -> (&[u8], &[u8]) {
    match b.iter().position(|&c| c == b'\n' || c == b'\r') {
        Some(p) => {
            let end = if b[p] == b'\r' && b.get(p + 1) == Some(&b'\n') { p + 2 } else { p + 1 };
            (&b[..end], &b[end..])
        }
        None => (b, &[]),
    }
}

/// Decodes source bytes as CPython's tokenizer does before parsing.
pub(crate) fn decode_source(bytes: &[u8]) -> Result<String, SyntaxError> {
    let (bom, body) = match bytes.strip_prefix(b"\xef\xbb\xbf") {
        Some(rest) => (true, rest),
        None => (false, bytes),
    };
    let (line1, rest) = split_line(body);
    let (line2, _) = split_line(rest);
    let mut found = cookie(line1).map(|c| (c, 1u32));
    if found.is_none() {
        // The second line counts only if the first is blank or a comment.
        let first_blank_or_comment = line1
            .iter()
            .find(|c| !matches!(c, b' ' | b'\t' | b'\x0c' | b'\r' | b'\n'))
            .is_none_or(|c| *c == b'#');
        if first_blank_or_comment {
            found = cookie(line2).map(|c| (c, 2));
        }
    }
    let codec = match &found {
        None => Codec::Utf8,
        Some((name, _)) => match normalise(name) {
            Some(c) => {
                if bom && c != Codec::Utf8 {
                    let normal = if c == Codec::Latin1 { "iso-8859-1" } else { name.as_str() };
                    return Err(error(format!("encoding problem: {normal} with BOM"), 0));
                }
                c
            }
            None => return Err(error(format!("unknown encoding: {name}"), 0)),
        },
    };
    match codec {
        Codec::Utf8 => decode_utf8(body),
        Codec::Latin1 => Ok(body.iter().map(|&b| b as char).collect()),
        Codec::Ascii => match body.iter().position(|b| !b.is_ascii()) {
            None => Ok(body.iter().map(|&b| b as char).collect()),
            Some(p) => {
                let line = 1 + body[..p].iter().filter(|&&c| c == b'\n').count() as u32;
                let _ = line;
                Err(error(
                    format!(
                        "'ascii' codec can't decode byte 0x{:02x} in position {p}: ordinal not in range(128)",
                        body[p]
                    ),
                    0,
                ))
            }
        },
    }
}

/// UTF-8 decoding as CPython's tokenizer does it: it decodes token by token, so invalid bytes in a
/// comment pass (they become `?`, keeping offsets), elsewhere they are a SyntaxError on their line.
fn decode_utf8(body: &[u8]) -> Result<String, SyntaxError> {
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    let mut consumed = 0usize;
    loop {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                out.push_str(s);
                return Ok(out);
            }
            Err(e) => {
                let good = e.valid_up_to();
                out.push_str(std::str::from_utf8(&rest[..good]).unwrap_or_default());
                let bad_at = consumed + good;
                let line_start = body[..bad_at]
                    .iter()
                    .rposition(|&c| c == b'\n' || c == b'\r')
                    .map_or(0, |p| p + 1);
                let before = &body[line_start..bad_at];
                if in_comment(before) {
                    let n = e.error_len().unwrap_or(rest.len() - good).max(1);
                    out.push_str(&"?".repeat(n));
                    rest = &rest[good + n..];
                    consumed = bad_at + n;
                    continue;
                }
                let lineno = 1 + body[..bad_at]
                    .iter()
                    .enumerate()
                    .filter(|&(i, &c)| {
                        c == b'\n' || (c == b'\r' && body.get(i + 1) != Some(&b'\n'))
                    })
                    .count() as u32;
                let byte = body[bad_at];
                let reason = match e.error_len() {
                    None => "unexpected end of data",
                    Some(_) if (0xc2..=0xf4).contains(&byte) => "invalid continuation byte",
                    Some(_) => "invalid start byte",
                };
                // Position within the string literal being decoded (0 outside strings).
                let pos = before
                    .iter()
                    .rposition(|&c| c == b'"' || c == b'\'')
                    .map_or(0, |q| before.len() - q - 1);
                let msg = format!(
                    "(unicode error) 'utf-8' codec can't decode byte 0x{byte:02x} in position {pos}: {reason}"
                );
                return Err(error(msg, lineno));
            }
        }
    }
}

/// Whether a line prefix ends inside a comment (a `#` outside quotes).
fn in_comment(before: &[u8]) -> bool {
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < before.len() {
        let c = before[i];
        match quote {
            Some(q) => {
                if c == b'\\' {
                    i += 1;
                } else if c == q {
                    quote = None;
                }
            }
            None => match c {
                b'#' => return true,
                b'\'' | b'"' => quote = Some(c),
                _ => {}
            },
        }
        i += 1;
    }
    false
}
