//! PEP 263 source decoding for `ast.parse(bytes)`.

use super::parse::{BadIdent, BadLiteral, Undecodable};
use super::{ErrorKind, SyntaxError};
use crate::codec::{CodecError, Codecs, Lookup};

fn error(msg: String, lineno: u32) -> SyntaxError {
    SyntaxError {
        msg,
        filename: "<unknown>".to_string(),
        lineno,
        offset: 0,
        text: None,
        kind: ErrorKind::SyntaxError,
        byte_offset: None,
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

/// CPython's `_Py_normalize_encoding`: lower case; each run of characters other than
/// `[a-z0-9.]` becomes one `_`, none at either end.
pub(crate) fn normalize_encoding(name: &str) -> String {
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
    norm
}

/// CPython's `_Py_normalize_encoding` (lower case; each run of bytes other than `[a-z0-9.]`
/// becomes one `_`, none at either end), then `encodings`' alias table or module name, for the
/// codecs the scorer decodes itself; any other name is the provider's ([`Codec::Table`]).
fn lookup_codec(name: &str) -> Codec {
    let norm = normalize_encoding(name);
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
        Codec::Utf8
    } else if norm == "utf_8_sig" {
        Codec::Utf8Sig
    } else if is(LATIN1) || norm == "latin_1" {
        Codec::Latin1
    } else if is(ASCII) || norm == "ascii" {
        Codec::Ascii
    } else {
        Codec::Table
    }
}

/// [`super::builtin_codec`].
pub(crate) fn builtin_codec(name: &str) -> Option<super::BuiltinCodec> {
    use super::BuiltinCodec as B;
    match lookup_codec(name) {
        Codec::Utf8 => Some(B::Utf8),
        Codec::Utf8Sig => Some(B::Utf8Sig),
        Codec::Latin1 => Some(B::Latin1),
        Codec::Ascii => Some(B::Ascii),
        Codec::Table => None,
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Codec {
    Utf8,
    Utf8Sig,
    Latin1,
    Ascii,
    /// Any other name: the codec provider's ([`crate::codec`]) to find and decode.
    Table,
}

/// Why [`decode_source_with`] gave no text.
#[derive(Debug, Clone)]
pub enum DecodeFailure {
    /// What CPython reports.
    Syntax(SyntaxError),
    /// The cookie names a codec only the codec provider knows, and the run has none yet.
    NeedsCodecs,
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
        Codec::Table => Err(error("unsupported".to_string(), 0)),
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

/// Decodes source bytes as CPython 3.11's tokenizer does before parsing (`decode_str`); codecs
/// beyond UTF-8, Latin-1 and ASCII through `codecs`.
pub(crate) fn decode_source(
    bytes: &[u8],
    codecs: Option<&dyn Codecs>,
) -> Result<String, DecodeFailure> {
    let syntax = DecodeFailure::Syntax;
    // `compile` refuses the bytes before the tokenizer reads a cookie (`_Py_SourceAsString`);
    // the decoders below would otherwise read on (UTF-16 text has no NUL to find later).
    if memchr::memchr(0, bytes).is_some() {
        return Err(syntax(error("source code string cannot contain null bytes".into(), 0)));
    }
    let (bom, body) = match bytes.strip_prefix(b"\xef\xbb\xbf") {
        Some(rest) => (true, rest),
        None => (false, bytes),
    };
    let Some(name) = coding_spec(body) else { return decode_utf8(body).map_err(syntax) };
    if bom {
        // `check_coding_spec` compares the cookie with the BOM's "utf-8" as written.
        if name != "utf-8" {
            return Err(syntax(error(format!("encoding problem: {name} with BOM"), 0)));
        }
        return decode_utf8(body).map_err(syntax);
    }
    if name == "utf-8" {
        return decode_utf8(body).map_err(syntax);
    }
    match lookup_codec(&name) {
        Codec::Table => {
            let Some(codecs) = codecs else { return Err(DecodeFailure::NeedsCodecs) };
            decode_table(body, &name, codecs).map_err(syntax)
        }
        codec => decode_whole(body, codec).map_err(syntax),
    }
}

/// A source in a table codec, as CPython decodes it: the whole buffer after
/// `translate_newlines` (`\r\n` and `\r` as `\n`, and a final `\n` added when missing, which
/// is why a lead byte last in a file is an illegal, not an incomplete, sequence).
fn decode_table(body: &[u8], name: &str, codecs: &dyn Codecs) -> Result<String, SyntaxError> {
    let failed = |e: CodecError| error(format!("encoding problem: {name} ({e})"), 0);
    let codec = match codecs.lookup(name).map_err(failed)? {
        Lookup::Found(codec) => codec,
        Lookup::Unsupported(_) => {
            return Err(error(format!("encoding problem: {name} is not supported by refscore"), 0))
        }
        Lookup::Unknown => return Err(error(format!("unknown encoding: {name}"), 0)),
    };
    let buf = translate_newlines(body);
    match codecs.decode(&codec, &buf, "strict") {
        // The newline added above can vanish into a character (UTF-16: `\n\n` is U+0A0A) or
        // a line continuation (HZ's `~` newline): then the tokenizer ends without a NEWLINE
        // token. A UTF-16 text holds no ASCII (its NUL bytes are refused first), so what parses
        // at all is one name: "invalid syntax" where the ENDMARKER stands; anything else fails
        // on its first invalid character, as the parser reports it. An HZ text's last line
        // holding a statement likewise ends without its NEWLINE (a blank or comment line
        // needs none): "invalid syntax" there when the rest parses (else the parser's own
        // error, an unclosed bracket or string, comes first as in CPython).
        Ok(text) if !text.ends_with('\n') && crate::unicode::is_identifier(&text) => {
            Err(SyntaxError { text: Some(text), ..error("invalid syntax".into(), 1) })
        }
        // A backslash last (on a line of no string or comment): no newline follows it.
        Ok(text)
            if codec == "hz"
                && text.ends_with('\\')
                && !text.rsplit('\n').next().unwrap_or_default().contains(['#', '\'', '"']) =>
        {
            let line = text.matches('\n').count() + 1;
            let line = u32::try_from(line).unwrap_or(u32::MAX);
            let msg = "unexpected character after line continuation character";
            Err(SyntaxError { text: Some(text), ..error(msg.into(), line) })
        }
        Ok(text)
            if !text.ends_with('\n') && codec == "hz" && {
                let last = text.rsplit('\n').next().unwrap_or_default();
                let last = last.trim_start_matches([' ', '\t', '\x0c']);
                !last.is_empty()
                    && !last.starts_with('#')
                    && super::parse_tree(&text, "<unknown>").is_ok()
            } =>
        {
            let line = text.matches('\n').count() + 1;
            let line = u32::try_from(line).unwrap_or(u32::MAX);
            Err(SyntaxError { text: Some(text), ..error("invalid syntax".into(), line) })
        }
        Ok(text) => Ok(text),
        Err(CodecError::Codec { encoding, start, end, reason }) => {
            let msg = if end == start + 1 {
                let byte = buf.get(start).copied().unwrap_or(0);
                format!("'{encoding}' codec can't decode byte 0x{byte:02x} in position {start}: {reason}")
            } else {
                format!(
                    "'{encoding}' codec can't decode bytes in position {start}-{}: {reason}",
                    end - 1
                )
            };
            Err(error(msg, 0))
        }
        // CPython encodes the decoded text to UTF-8 for the tokenizer (`translate_into_utf8`).
        Err(CodecError::LoneSurrogate { position, code }) => Err(error(
            format!(
                "'utf-8' codec can't encode character '\\u{code:04x}' in position {position}: \
                 surrogates not allowed"
            ),
            0,
        )),
        Err(e) => Err(failed(e)),
    }
}

/// CPython 3.11's `translate_newlines` on a source without NUL bytes: `\r\n` and `\r` become
/// `\n`, and a `\n` is added when the last character it kept is not one, which a final `\r\n`
/// is not (the loop leaves the string's terminator there): `b"x\r\n"` becomes `b"x\n\n"`.
fn translate_newlines(body: &[u8]) -> Vec<u8> {
    let mut buf = Vec::with_capacity(body.len() + 1);
    let mut last = 0u8;
    let mut i = 0;
    while i < body.len() {
        let mut c = body[i];
        if c == b'\r' {
            c = b'\n';
            if body.get(i + 1) == Some(&b'\n') {
                i += 1;
                if i + 1 == body.len() {
                    // `c = *++s` read the terminator: the final `\n` is written, `c` is NUL.
                    buf.push(b'\n');
                    last = 0;
                    break;
                }
            }
        }
        buf.push(c);
        last = c;
        i += 1;
    }
    if last != b'\n' {
        buf.push(b'\n');
    }
    buf
}

/// UTF-8 decoding as CPython's tokenizer does it: it decodes token by token, so invalid bytes in a
/// comment pass (they become `?`, keeping offsets); elsewhere the first token holding one is a
/// SyntaxError ([`invalid_utf8_error`]).
fn decode_utf8(body: &[u8]) -> Result<String, SyntaxError> {
    if let Ok(s) = std::str::from_utf8(body) {
        return Ok(s.to_string());
    }
    let found = utf8_events(body, false);
    // Each invalid sequence becomes one character of its length (offsets are kept); comments
    // keep them.
    let mut out = replace_invalid(body);
    if found.idents.is_empty() && found.literal.is_none() {
        // Only comments (or a token the parser refuses anyway, e.g. an unterminated string) hold
        // invalid bytes.
        return Ok(out);
    }
    // The parser gets a letter as long as each invalid sequence (names stay names, in f-string
    // expressions too; literals keep their length; CPython counts the sequence as one U+FFFD in
    // columns) and blanks for a name's first character after a number (the tokenizer starts a
    // new token there).
    let mut bytes = std::mem::take(&mut out).into_bytes();
    let mut rest = body;
    let mut at = 0;
    while let Err(e) = std::str::from_utf8(rest) {
        let good = e.valid_up_to();
        let n = e.error_len().unwrap_or(rest.len() - good).max(1);
        let letter: &[u8] = match n {
            2 => "\u{e9}".as_bytes(),
            3 => "\u{3042}".as_bytes(),
            _ => b"x",
        };
        let start = at + good;
        if letter.len() == n {
            bytes[start..start + n].copy_from_slice(letter);
        } else {
            bytes[start..start + n].fill(b'x');
        }
        rest = &rest[good + n..];
        at += good + n;
    }
    for id in found.idents.iter().filter(|id| id.after_number) {
        // Its first character (one invalid byte, or a whole valid one).
        let n = match bytes[id.at] {
            b'x' if body[id.at] >= 0x80 => 1,
            0xF0.. => 4,
            0xE0.. => 3,
            0xC0.. => 2,
            _ => 1,
        };
        for k in id.at..(id.at + n).min(bytes.len()) {
            bytes[k] = b' ';
        }
    }
    let sanitized = String::from_utf8(bytes).unwrap_or_default();
    Err(super::parse::undecodable_error(&sanitized, &found))
}

/// `body` with each invalid UTF-8 sequence replaced by one character of as many bytes (`?`,
/// `é`, `あ`; `?` for each byte of a longer one): byte offsets are kept, and a column counts the
/// sequence as the one U+FFFD CPython's `replace` decoding makes of it.
fn replace_invalid(body: &[u8]) -> String {
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    loop {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                out.push_str(s);
                return out;
            }
            Err(e) => {
                let good = e.valid_up_to();
                out.push_str(std::str::from_utf8(&rest[..good]).unwrap_or_default());
                let n = e.error_len().unwrap_or(rest.len() - good).max(1);
                match n {
                    2 => out.push('\u{e9}'),
                    3 => out.push('\u{3042}'),
                    _ => out.push_str(&"?".repeat(n)),
                }
                rest = &rest[good + n..];
            }
        }
    }
}

/// CPython's UTF-8 decoder message for the first invalid sequence of `data` (decoded alone, as
/// CPython decodes one token or one run of a literal), or `None` when `data` is valid.
fn utf8_message(data: &[u8]) -> Option<String> {
    let e = std::str::from_utf8(data).err()?;
    let start = e.valid_up_to();
    let (len, reason) = match e.error_len() {
        None => (data.len() - start, "unexpected end of data"),
        Some(n) if (0xc2..=0xf4).contains(&data[start]) => (n, "invalid continuation byte"),
        Some(n) => (n, "invalid start byte"),
    };
    Some(if len == 1 {
        format!(
            "(unicode error) 'utf-8' codec can't decode byte 0x{:02x} in position {start}: {reason}",
            data[start]
        )
    } else {
        format!(
            "(unicode error) 'utf-8' codec can't decode bytes in position {start}-{}: {reason}",
            start + len - 1
        )
    })
}

/// The message for a string literal part CPython decodes at once (raw, or without a backslash),
/// or run by run of non-ASCII bytes (`decode_unicode_with_escapes`: positions count in the run).
fn literal_message(part: &[u8], by_runs: bool) -> Option<String> {
    if !by_runs {
        return utf8_message(part);
    }
    let mut i = 0;
    while i < part.len() {
        if part[i] >= 0x80 {
            let end = part[i..].iter().position(|&c| c < 0x80).map_or(part.len(), |p| i + p);
            if let Some(m) = utf8_message(&part[i..end]) {
                return Some(m);
            }
            i = end;
        } else {
            i += 1;
        }
    }
    None
}

fn is_ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80
}

/// A string literal as CPython 3.11's tokenizer reads it: prefix flags, the body's range and the
/// index after the closing quote; `None` when it does not close (the parser reports that).
struct Literal {
    bytes: bool,
    raw: bool,
    fstring: bool,
    body: (usize, usize),
    end: usize,
}

fn read_literal(b: &[u8], prefix: &[u8], q: usize) -> Option<Literal> {
    let has = |c: u8| prefix.iter().any(|p| p.eq_ignore_ascii_case(&c));
    let quote = b[q];
    let triple = b.get(q + 1) == Some(&quote) && b.get(q + 2) == Some(&quote);
    let open = if triple { 3 } else { 1 };
    let mut i = q + open;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'\n' | b'\r' if !triple => return None,
            c if c == quote && (!triple || b.get(i + 1..i + 3) == Some(&[quote, quote][..])) => {
                return Some(Literal {
                    bytes: has(b'b'),
                    raw: has(b'r'),
                    fstring: has(b'f'),
                    body: (q + open, i),
                    end: i + open,
                });
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Line numbers of a buffer (CPython counts `\n`, `\r\n` and a lone `\r` as one line break).
struct Lines<'a>(&'a [u8]);

impl Lines<'_> {
    fn of(&self, at: usize) -> u32 {
        let b = self.0;
        1 + b[..at.min(b.len())]
            .iter()
            .enumerate()
            .filter(|&(i, &c)| c == b'\n' || (c == b'\r' && b.get(i + 1) != Some(&b'\n')))
            .count() as u32
    }
}

/// The SyntaxError of a decoding problem at line `lineno`, column `offset` (CPython counts bytes
/// on a line it cannot decode).
fn error_at(msg: String, lineno: u32, offset: usize) -> SyntaxError {
    SyntaxError { offset: offset as u32, ..error(msg, lineno) }
}

/// The byte column of `at` in its line.
fn column(b: &[u8], at: usize) -> usize {
    at - b[..at.min(b.len())].iter().rposition(|&c| c == b'\n' || c == b'\r').map_or(0, |p| p + 1)
}

/// The decoding problems of a source that is not valid UTF-8, as CPython 3.11's tokenizer and
/// parser meet them (see [`invalid_utf8_error`]): every identifier holding invalid bytes (a
/// tokenizer error), and the first literal run whose decoding fails (the parser's action).
/// With `first`, the walk stops at the first problem.
fn utf8_events(b: &[u8], first: bool) -> Undecodable {
    let lines = Lines(b);
    let mut out = Undecodable::default();
    let mut depth = 0usize;
    let mut after_number = false;
    let mut i = 0;
    let done = |out: &Undecodable| first && (!out.idents.is_empty() || out.literal.is_some());
    while i < b.len() && !done(&out) {
        let c = b[i];
        let number_before = std::mem::take(&mut after_number);
        match c {
            b'#' => {
                while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
                    i += 1;
                }
            }
            b'(' | b'[' | b'{' => {
                depth += 1;
                i += 1;
            }
            b')' | b']' | b'}' => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            b'\'' | b'"' => {
                let Some(next) = string_run(b, i, i, depth, &lines, &mut out) else { break };
                i = next;
            }
            c if c.is_ascii_digit()
                || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) =>
            {
                // A number: its ASCII tail; a byte >= 0x80 right after it starts an identifier.
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.')
                {
                    i += 1;
                }
                after_number = true;
            }
            c if is_ident_byte(c) => {
                let start = i;
                while i < b.len() && is_ident_byte(b[i]) {
                    i += 1;
                }
                let run = &b[start..i];
                if matches!(b.get(i), Some(b'\'' | b'"')) && is_string_prefix(run) {
                    let Some(next) = string_run(b, start, i, depth, &lines, &mut out) else {
                        break;
                    };
                    i = next;
                } else {
                    bad_ident(b, start, i, number_before, &lines, &mut out);
                }
            }
            _ => i += 1,
        }
    }
    out
}

/// Records the identifier `b[start..end]` when it holds invalid UTF-8. CPython decodes it when
/// the tokenizer reads it: the parser reports a SyntaxError at the token's end (a byte column);
/// the tokenizing of the rest after a parser error raises the bare UnicodeDecodeError.
fn bad_ident(
    b: &[u8],
    start: usize,
    end: usize,
    after_number: bool,
    lines: &Lines<'_>,
    out: &mut Undecodable,
) {
    if let Some(msg) = utf8_message(&b[start..end]) {
        let raw = msg.strip_prefix("(unicode error) ").unwrap_or(&msg).to_string();
        let error = error_at(msg, lines.of(start), column(b, end));
        out.idents.push(BadIdent { at: start, after_number, error, raw });
    }
}

/// The first error CPython 3.11 reports for a source that is not valid UTF-8 (no coding cookie),
/// found by reading its tokens as CPython's tokenizer does, whole-file (triple-quoted strings and
/// bracketed lines span lines):
/// - a comment's bytes are never decoded;
/// - an identifier (any run of `[A-Za-z0-9_]` and bytes >= 0x80 that is not a number) is decoded
///   whole when read: the error is on its line, positions count in the identifier;
/// - a string literal is decoded by the parser's action after the run of adjacent literals, so the
///   error's line is the next token's; a bytes literal says "bytes can only contain ASCII literal
///   characters" on its own line; an f-string decodes its literal parts one by one (by runs unless
///   raw), and its `{...}` expressions as code, with an `f-string: ` prefix on the byte's line.
///
/// `None` when no token but comments (or one the parser refuses anyway) holds invalid bytes.
fn invalid_utf8_error(b: &[u8]) -> Option<SyntaxError> {
    let found = utf8_events(b, true);
    match (found.idents.into_iter().next(), found.literal) {
        (Some(id), Some(lit)) if id.at <= lit.next => Some(id.error),
        (_, Some(lit)) => Some(lit.error),
        (Some(id), None) => Some(id.error),
        (None, None) => None,
    }
}

fn is_string_prefix(run: &[u8]) -> bool {
    let lower = run.to_ascii_lowercase();
    matches!(lower.as_slice(), b"r" | b"u" | b"b" | b"f" | b"br" | b"rb" | b"fr" | b"rf")
}

/// The run of adjacent string literals starting with the one at `start` (prefix) / `q` (quote):
/// its first decoding error is recorded (the first literal error of the file only), with the
/// next token, whose line and column CPython reports (the action runs once the parser has read
/// it); an identifier with invalid bytes as that token fails first, in the tokenizer. The index
/// after the run (and after that identifier); `None` when a literal does not close.
fn string_run(
    b: &[u8],
    start: usize,
    q: usize,
    depth: usize,
    lines: &Lines<'_>,
    out: &mut Undecodable,
) -> Option<usize> {
    let mut first: Option<SyntaxError> = None;
    let mut needs_next_line = false;
    let run_start = start;
    let (mut start, mut q) = (start, q);
    loop {
        let lit = read_literal(b, &b[start..q], q)?;
        if first.is_none() {
            let body = &b[lit.body.0..lit.body.1];
            if std::str::from_utf8(body).is_err() {
                if lit.bytes {
                    first = Some(error_at(
                        "bytes can only contain ASCII literal characters".to_string(),
                        lines.of(start),
                        column(b, start) + 1,
                    ));
                } else if lit.fstring {
                    match fstring_error(b, lit.body.0, lit.body.1, lit.raw, lines) {
                        Some((e, true)) => first = Some(e),
                        Some((e, false)) => {
                            first = Some(e);
                            needs_next_line = true;
                        }
                        None => {}
                    }
                } else {
                    let by_runs = !lit.raw && body.contains(&b'\\');
                    if let Some(msg) = literal_message(body, by_runs) {
                        first = Some(error(msg, 0));
                        needs_next_line = true;
                    }
                }
            }
        }
        // The next token: blanks, continuations, and (inside brackets) comments and line breaks.
        let mut i = lit.end;
        loop {
            match b.get(i) {
                Some(b' ' | b'\t' | b'\x0c') => i += 1,
                Some(b'\\') if matches!(b.get(i + 1), Some(b'\n' | b'\r')) => {
                    i += if b.get(i + 1..i + 3) == Some(b"\r\n") { 3 } else { 2 };
                }
                Some(b'\n' | b'\r') if depth > 0 => i += 1,
                Some(b'#') if depth > 0 => {
                    while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
                        i += 1;
                    }
                }
                _ => break,
            }
        }
        let mut j = i;
        while j < b.len() && b[j].is_ascii_alphabetic() && j - i < 2 {
            j += 1;
        }
        if matches!(b.get(j), Some(b'\'' | b'"')) && (j == i || is_string_prefix(&b[i..j])) {
            start = i;
            q = j;
            continue;
        }
        let Some(mut e) = first else { return Some(i) };
        if needs_next_line {
            e.lineno = lines.of(i);
            e.offset = (column(b, i) + 1) as u32;
        }
        if out.literal.is_none() {
            out.literal = Some(BadLiteral { start: run_start, next: i, error: e });
        }
        // An identifier read as the next token fails in the tokenizer, before the action.
        if b.get(i).is_some_and(|&c| is_ident_byte(c) && !c.is_ascii_digit()) {
            let mut k = i;
            while k < b.len() && is_ident_byte(b[k]) {
                k += 1;
            }
            if !(matches!(b.get(k), Some(b'\'' | b'"')) && is_string_prefix(&b[i..k])) {
                bad_ident(b, i, k, false, lines, out);
                return Some(k);
            }
        }
        return Some(i);
    }
}

/// The first decoding error of an f-string's body `b[from..to]` as CPython 3.11's
/// `fstring_find_literal_and_expr` meets it: literal parts (split after `{{` / `}}`'s first
/// brace) decoded by runs unless raw; expressions compiled as code (`f-string: ` prefix, the
/// byte's line: `true`); format specs read as nested f-strings. The flag says the line is final.
fn fstring_error(
    b: &[u8],
    from: usize,
    to: usize,
    raw: bool,
    lines: &Lines<'_>,
) -> Option<(SyntaxError, bool)> {
    let mut i = from;
    let mut part = from;
    let literal = |part: usize, end: usize| {
        literal_message(&b[part..end], !raw).map(|m| (error(m, 0), false))
    };
    while i < to {
        match b[i] {
            b'\\' if !raw => i += 2,
            b'{' | b'}' if b.get(i + 1) == Some(&b[i]) && i + 1 < to => {
                if let Some(e) = literal(part, i + 1) {
                    return Some(e);
                }
                i += 2;
                part = i;
            }
            b'{' => {
                if let Some(e) = literal(part, i) {
                    return Some(e);
                }
                // The expression: up to `!`, `:` or `}` at bracket depth 0 outside quotes.
                let mut k = i + 1;
                let mut depth = 0usize;
                let mut quote: Option<u8> = None;
                while k < to {
                    let c = b[k];
                    if let Some(qc) = quote {
                        if c == qc {
                            quote = None;
                        }
                    } else {
                        match c {
                            b'\'' | b'"' => quote = Some(c),
                            b'(' | b'[' | b'{' => depth += 1,
                            b')' | b']' if depth > 0 => depth -= 1,
                            b'}' if depth > 0 => depth -= 1,
                            b'!' if depth == 0 && b.get(k + 1) != Some(&b'=') => break,
                            b':' | b'}' if depth == 0 => break,
                            _ => {}
                        }
                    }
                    k += 1;
                }
                if let Some(e) = invalid_utf8_error_in(b, i + 1, k, lines) {
                    return Some((e, true));
                }
                // conversion, then a format spec up to the matching `}`
                if b.get(k) == Some(&b'!') {
                    while k < to && b[k] != b':' && b[k] != b'}' {
                        k += 1;
                    }
                }
                if b.get(k) == Some(&b':') {
                    let spec = k + 1;
                    let mut nest = 0usize;
                    let mut e = spec;
                    while e < to {
                        match b[e] {
                            b'{' => nest += 1,
                            b'}' if nest == 0 => break,
                            b'}' => nest -= 1,
                            _ => {}
                        }
                        e += 1;
                    }
                    if let Some(r) = fstring_error(b, spec, e, raw, lines) {
                        return Some(r);
                    }
                    k = e;
                }
                i = k + 1;
                part = i;
            }
            _ => i += 1,
        }
    }
    literal(part, to.max(part))
}

/// [`invalid_utf8_error`] for an f-string expression `b[from..to]`, with CPython's `f-string: `
/// prefix, the byte's own line and no column.
fn invalid_utf8_error_in(
    b: &[u8],
    from: usize,
    to: usize,
    lines: &Lines<'_>,
) -> Option<SyntaxError> {
    let sub = &b[from..to];
    if std::str::from_utf8(sub).is_ok() {
        return None;
    }
    let mut e = invalid_utf8_error(sub)?;
    let base = lines.of(from) - 1;
    e.lineno += base;
    e.msg = format!("f-string: {}", e.msg);
    // Raised by the parser of the expression's own string: no column.
    e.offset = 0;
    Some(e)
}

/// The coding cookie of a source's first two lines (its BOM stripped), as `decode_str` finds it:
/// the second line counts only if the first is blank or a comment.
fn coding_spec(body: &[u8]) -> Option<String> {
    let (line1, rest) = split_line(body);
    let (line2, _) = split_line(rest);
    cookie(line1).or_else(|| {
        let first_blank_or_comment =
            line1.iter().find(|c| !matches!(c, b' ' | b'\t' | b'\x0c')).is_none_or(|c| *c == b'#');
        if first_blank_or_comment {
            cookie(line2)
        } else {
            None
        }
    })
}

/// Whether CPython's tokenizer gets an encoding for these bytes (`tok->encoding`): a UTF-8 BOM
/// or a coding cookie. Without one, `ast.parse(bytes)` reports the parser's error columns in
/// UTF-8 bytes, not characters (see [`super::columns`]).
pub(crate) fn declares_encoding(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\xef\xbb\xbf") || coding_spec(bytes).is_some()
}
