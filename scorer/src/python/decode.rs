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

/// The coding cookie of one line (its line break excluded), as CPython 3.11's tokenizer reads it
/// (`get_coding_spec`): only blanks before `#`; then the first `coding` followed by `:` or `=`,
/// blanks, and at least one of `[A-Za-z0-9._-]` (the name ends at the first other byte: in
/// `latin-\xffm1` it is `latin-`). `coding` must start at least 7 bytes before the line's end.
fn cookie(line: &[u8]) -> Option<String> {
    let limit = line.len().checked_sub(6)?;
    let mut i = 0;
    while i < limit {
        match line[i] {
            b'#' => break,
            b' ' | b'\t' | b'\x0c' => i += 1,
            _ => return None,
        }
    }
    let at = |k: usize| line.get(k).copied().unwrap_or(0);
    while i < limit {
        if line[i..].starts_with(b"coding") && matches!(at(i + 6), b':' | b'=') {
            let mut t = i + 7;
            while matches!(at(t), b' ' | b'\t') {
                t += 1;
            }
            let begin = t;
            while at(t).is_ascii_alphanumeric() || matches!(at(t), b'-' | b'_' | b'.') {
                t += 1;
            }
            if t > begin {
                return Some(get_normal_name(&line[begin..t]));
            }
        }
        i += 1;
    }
    None
}

/// CPython's `get_normal_name`: the first 12 bytes, lower-cased with `_` as `-`, name `utf-8` and
/// `iso-8859-1` (and their `-suffixed` forms); any other name is kept as written.
fn get_normal_name(name: &[u8]) -> String {
    let buf: Vec<u8> = name
        .iter()
        .take(12)
        .map(|&c| if c == b'_' { b'-' } else { c.to_ascii_lowercase() })
        .collect();
    let b = buf.as_slice();
    if b == b"utf-8" || b.starts_with(b"utf-8-") {
        "utf-8".to_string()
    } else if b == b"latin-1"
        || b == b"iso-8859-1"
        || b == b"iso-latin-1"
        || b.starts_with(b"latin-1-")
        || b.starts_with(b"iso-8859-1-")
        || b.starts_with(b"iso-latin-1-")
    {
        "iso-8859-1".to_string()
    } else {
        String::from_utf8_lossy(name).into_owned()
    }
}

/// The codec `codecs.lookup(name)` finds, among those refscore decodes: CPython's
/// `_Py_normalize_encoding` (lower case; each run of bytes other than `[a-z0-9.]` becomes one
/// `_`, none at either end), then `encodings`' alias table or module name.
fn lookup_codec(name: &str) -> Option<Codec> {
    let mut norm = String::new();
    let mut punct = false;
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || c == '.' {
            if punct && !norm.is_empty() {
                norm.push('_');
            }
            punct = false;
            norm.push(c.to_ascii_lowercase());
        } else {
            punct = true;
        }
    }
    const UTF8: &[&str] = &["u8", "utf", "utf8", "utf8_ucs2", "utf8_ucs4", "cp65001"];
    const LATIN1: &[&str] = &[
        "8859",
        "cp819",
        "csisolatin1",
        "ibm819",
        "iso8859",
        "iso8859_1",
        "iso_8859_1",
        "iso_8859_1_1987",
        "iso_ir_100",
        "l1",
        "latin",
        "latin1",
    ];
    const ASCII: &[&str] = &[
        "646",
        "ansi_x3.4_1968",
        "ansi_x3_4_1968",
        "ansi_x3.4_1986",
        "cp367",
        "csascii",
        "ibm367",
        "iso646_us",
        "iso_646.irv_1991",
        "iso_ir_6",
        "us",
        "us_ascii",
    ];
    // `encodings.search_function`: an alias as written or with `.` as `_`, else a module name
    // (none has a `.`).
    let dotless = norm.replace('.', "_");
    let is = |table: &[&str]| table.contains(&norm.as_str()) || table.contains(&dotless.as_str());
    if is(UTF8) || norm == "utf_8" {
        Some(Codec::Utf8)
    } else if norm == "utf_8_sig" {
        Some(Codec::Utf8Sig)
    } else if is(LATIN1) || norm == "latin_1" {
        Some(Codec::Latin1)
    } else if is(ASCII) || norm == "ascii" {
        Some(Codec::Ascii)
    } else {
        None
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Codec {
    Utf8,
    Utf8Sig,
    Latin1,
    Ascii,
}

/// One line and the rest; the line's break (`\n`, `\r\n` or `\r`) is not part of it.
fn split_line(b: &[u8]) -> (&[u8], &[u8]) {
    match b.iter().position(|&c| c == b'\n' || c == b'\r') {
        Some(p) => {
            let end = if b[p] == b'\r' && b.get(p + 1) == Some(&b'\n') { p + 2 } else { p + 1 };
            (&b[..p], &b[end..])
        }
        None => (b, &[]),
    }
}

/// The length of `before` once CPython's `translate_newlines` has run (`\r\n` becomes `\n`):
/// codec error positions count in that buffer.
fn translated_len(before: &[u8]) -> usize {
    before.len() - before.windows(2).filter(|w| w == b"\r\n").count()
}

/// CPython's strict decoding of the whole file with a codec found by name (every name but the
/// exact `utf-8`): failures are SyntaxErrors on line 0 with the codec's message.
fn decode_whole(body: &[u8], codec: Codec) -> Result<String, SyntaxError> {
    let codec_error = |pos: usize, byte: u8, name: &str, reason: &str| {
        error(
            format!("'{name}' codec can't decode byte 0x{byte:02x} in position {pos}: {reason}"),
            0,
        )
    };
    match codec {
        Codec::Latin1 => Ok(body.iter().map(|&b| b as char).collect()),
        Codec::Ascii => match body.iter().position(|b| !b.is_ascii()) {
            None => Ok(body.iter().map(|&b| b as char).collect()),
            Some(p) => Err(codec_error(
                translated_len(&body[..p]),
                body[p],
                "ascii",
                "ordinal not in range(128)",
            )),
        },
        Codec::Utf8 | Codec::Utf8Sig => {
            // `utf_8_sig` drops one more BOM and counts positions after it.
            let (skip, data) = match body.strip_prefix(b"\xef\xbb\xbf") {
                Some(rest) if codec == Codec::Utf8Sig => (3, rest),
                _ => (0, body),
            };
            match std::str::from_utf8(data) {
                Ok(s) => Ok(s.to_string()),
                Err(e) => {
                    let at = e.valid_up_to();
                    let byte = data[at];
                    let reason = match e.error_len() {
                        None => "unexpected end of data",
                        Some(_) if (0xc2..=0xf4).contains(&byte) => "invalid continuation byte",
                        Some(_) => "invalid start byte",
                    };
                    let pos = translated_len(&body[skip..skip + at]);
                    Err(codec_error(pos, byte, "utf-8", reason))
                }
            }
        }
    }
}

/// Decodes source bytes as CPython 3.11's tokenizer does before parsing (`decode_str`).
pub(crate) fn decode_source(bytes: &[u8]) -> Result<String, SyntaxError> {
    let (bom, body) = match bytes.strip_prefix(b"\xef\xbb\xbf") {
        Some(rest) => (true, rest),
        None => (false, bytes),
    };
    let (line1, rest) = split_line(body);
    let (line2, _) = split_line(rest);
    let mut found = cookie(line1);
    if found.is_none() {
        // The second line counts only if the first is blank or a comment.
        let first_blank_or_comment =
            line1.iter().find(|c| !matches!(c, b' ' | b'\t' | b'\x0c')).is_none_or(|c| *c == b'#');
        if first_blank_or_comment {
            found = cookie(line2);
        }
    }
    let Some(name) = found else { return decode_utf8(body) };
    if bom {
        // `check_coding_spec` compares the cookie with the BOM's "utf-8" as written.
        if name != "utf-8" {
            return Err(error(format!("encoding problem: {name} with BOM"), 0));
        }
        return decode_utf8(body);
    }
    if name == "utf-8" {
        return decode_utf8(body);
    }
    match lookup_codec(&name) {
        Some(codec) => decode_whole(body, codec),
        None => Err(error(format!("unknown encoding: {name}"), 0)),
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
                let quote = before.iter().rposition(|&c| c == b'"' || c == b'\'');
                // CPython decodes the literal's body: the data ends at its closing quote.
                let end = quote.map_or(body.len(), |q| literal_end(body, bad_at, before, q));
                let reason =
                    match std::str::from_utf8(&body[bad_at..end]).err().map(|e| e.error_len()) {
                        Some(None) => "unexpected end of data",
                        _ if (0xc2..=0xf4).contains(&byte) => "invalid continuation byte",
                        _ => "invalid start byte",
                    };
                // Position within the string literal being decoded (0 outside strings).
                let pos = quote.map_or(0, |q| before.len() - q - 1);
                let msg = format!(
                    "(unicode error) 'utf-8' codec can't decode byte 0x{byte:02x} in position {pos}: {reason}"
                );
                return Err(error(msg, lineno));
            }
        }
    }
}

/// Where the string literal holding `body[at]` ends: its closing quote (`before[q]` opened it,
/// tripled when the two bytes before it are the same quote), or the line's end.
fn literal_end(body: &[u8], at: usize, before: &[u8], q: usize) -> usize {
    let quote = before[q];
    let triple = q >= 2 && before[q - 1] == quote && before[q - 2] == quote;
    let mut i = at;
    while i < body.len() {
        match body[i] {
            b'\\' => i += 1,
            b'\n' | b'\r' if !triple => return i,
            c if c == quote && (!triple || body.get(i + 1..i + 3) == Some(&[quote, quote][..])) => {
                return i
            }
            _ => {}
        }
        i += 1;
    }
    body.len()
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
