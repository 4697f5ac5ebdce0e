//! CPython 3.11's table codecs: every single-byte (charmap) codec of `encodings` but Latin-1,
//! and the 16 stateless CJK multi-byte codecs (big5, big5hkscs, cp932, cp949, cp950,
//! euc_jis_2004, euc_jisx0213, euc_jp, euc_kr, gb18030, gb2312, gbk, johab, shift_jis,
//! shift_jis_2004, shift_jisx0213), the stateful ISO-2022 codecs and HZ (`iso2022.rs`, read
//! through the tables of the EUC codecs), UTF-16, UTF-32 and UTF-7 (`utf.rs`, no tables), with
//! the error handlers `strict`, `replace`, `ignore`, `backslashreplace` and `xmlcharrefreplace`
//! as CPython applies them (decoders through one [`DecodeErrors`] state).
//!
//! The tables (`src/tables.bin`, zlib) are probed from CPython 3.11's codecs by
//! `scripts/gen-codec-tables.py`. The scorer links this crate natively (its feature `codecs`);
//! the browser's scoring worker never does: it loads `codecs.wasm` (`codecs-wasm/`, this crate
//! behind [`abi::call`]) when a run first needs a codec.
//!
//! Decoding walks a trie of 256-entry nodes, one byte per level: a character, an illegal
//! sequence of n bytes (CPython's positive return of a decoder step), or "too few" (a lead
//! byte: MBERR_TOOFEW, an "incomplete multibyte sequence" when the input ends). Encoding maps
//! each code point (and the pairs JIS X 0213 / HKSCS join) to its bytes.

pub mod abi;
mod iso2022;
mod tables;
mod utf;

pub use tables::TablesError;
use tables::{Kind, Tables, EUCKR8, GB4, ILLEGAL, MULTI, TOOFEW};

/// What `codecs.lookup(name)` finds, as far as these tables know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lookup {
    /// A codec of these tables, by its `encodings` module name.
    Found(String),
    /// A codec CPython has that this crate does not (`idna`, `rot_13`, `punycode`...).
    Unsupported(String),
    /// No codec: CPython's `LookupError: unknown encoding: NAME`.
    Unknown,
}

/// Why a decode or encode did not give a result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodecError {
    /// CPython's UnicodeDecodeError / UnicodeEncodeError: `encoding` as the exception carries
    /// it, `start..end` in bytes (decode) or code points (encode).
    #[error("'{encoding}' codec error in position {start}-{end}: {reason}")]
    Codec { encoding: String, start: usize, end: usize, reason: String },
    /// `LookupError: unknown error handler name 'X'`.
    #[error("unknown error handler name '{0}'")]
    UnknownHandler(String),
    /// A handler CPython has that these codecs do not apply (`surrogateescape`...).
    #[error("error handler '{0}' is not supported")]
    UnsupportedHandler(String),
    /// A handler that cannot handle this direction (`xmlcharrefreplace` while decoding):
    /// CPython's TypeError "don't know how to handle UnicodeDecodeError in error callback".
    #[error("don't know how to handle UnicodeDecodeError in error callback")]
    WrongDirection(String),
    /// The decoded text holds a lone surrogate (UTF-7's own decoding can make one), which a
    /// Rust string cannot: its position in characters and its code point.
    #[error("lone surrogate U+{code:04X} at position {position}")]
    LoneSurrogate { position: usize, code: u32 },
    /// CPython's RuntimeError "internal codec error" (an ISO-2022 single shift into a G2 set
    /// it has no decoder for), named by the codec.
    #[error("internal codec error ({0})")]
    Internal(String),
    /// No codec of that name in these tables.
    #[error("unknown codec {0}")]
    NoCodec(String),
    #[error(transparent)]
    Tables(#[from] TablesError),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Handler {
    Strict,
    Ignore,
    Replace,
    BackslashReplace,
    XmlCharRefReplace,
    /// `surrogateescape`: bytes 0x80-0xFF as U+DC80-U+DCFF while decoding (which the scorer's
    /// `str` cannot hold), else the original error.
    SurrogateEscape,
    /// `surrogatepass`: a UTF-16/32 surrogate code unit decoded (which the scorer's `str`
    /// cannot hold), else the original error.
    SurrogatePass,
}

/// The handlers CPython 3.11 registers. While decoding, `namereplace` fails as
/// `xmlcharrefreplace` does (CPython's TypeError); while encoding it needs the names table
/// and is not applied.
fn handler(errors: &str, decoding: bool) -> Result<Handler, CodecError> {
    Ok(match errors {
        "strict" => Handler::Strict,
        "namereplace" if decoding => Handler::XmlCharRefReplace,
        "ignore" => Handler::Ignore,
        "replace" => Handler::Replace,
        "backslashreplace" => Handler::BackslashReplace,
        "xmlcharrefreplace" => Handler::XmlCharRefReplace,
        "surrogateescape" => Handler::SurrogateEscape,
        "surrogatepass" => Handler::SurrogatePass,
        "namereplace" => return Err(CodecError::UnsupportedHandler(errors.to_string())),
        _ => return Err(CodecError::UnknownHandler(errors.to_string())),
    })
}

/// Where a surrogate handler resumes after the error at `start..end` of `data`, having made
/// lone surrogates (which the scorer's `str` cannot hold: the decoders refuse the call as
/// unsupported if it ends without an error), or `None`: it raises the original error.
/// `surrogateescape` takes the error's first bytes 0x80-0xFF (at most 4); `surrogatepass` a
/// UTF-16/32 surrogate code unit at `start` (`utf`: the unit's width and byte order; other
/// codecs never pass).
fn surrogate_resume(
    h: Handler,
    data: &[u8],
    start: usize,
    end: usize,
    utf: Option<(usize, bool)>,
) -> Option<usize> {
    match h {
        Handler::SurrogateEscape => {
            let n = data[start..end].iter().take(4).take_while(|&&b| b >= 0x80).count();
            (n > 0).then_some(start + n)
        }
        Handler::SurrogatePass => {
            let (w, big) = utf?;
            let b = data.get(start..start + w)?;
            let mut v = 0u32;
            for k in 0..w {
                v = (v << 8) | u32::from(if big { b[k] } else { b[w - 1 - k] });
            }
            (0xD800..0xE000).contains(&v).then_some(start + w)
        }
        _ => None,
    }
}

/// The error state of one decode call, shared by every decoder: the handler (looked up at the
/// first error, as CPython does: an unknown name with clean data passes), the text decoded so
/// far, and whether a surrogate handler made a lone surrogate (see [`surrogate_resume`]).
pub(crate) struct DecodeErrors<'a> {
    data: &'a [u8],
    errors: &'a str,
    /// The name CPython's UnicodeDecodeError carries.
    encoding: &'a str,
    /// A UTF-16/32 decoder's unit width and byte order (for `surrogatepass`).
    utf: Option<(usize, bool)>,
    handler: Option<Handler>,
    lone: bool,
    /// The decoded text.
    pub(crate) out: String,
}

impl<'a> DecodeErrors<'a> {
    pub(crate) fn new(data: &'a [u8], errors: &'a str, encoding: &'a str) -> Self {
        DecodeErrors {
            data,
            errors,
            encoding,
            utf: None,
            handler: None,
            lone: false,
            out: String::with_capacity(data.len()),
        }
    }

    /// For a UTF-16/32 decoder: `surrogatepass` reads units of `width` bytes in this order.
    pub(crate) fn utf(mut self, width: usize, big: bool) -> Self {
        self.utf = Some((width, big));
        self
    }

    /// The error at `start..end` of the data (CPython's `reason`), answered by the handler:
    /// the position to go on from, having pushed the replacement onto the output, or the error
    /// to raise.
    pub(crate) fn handle(
        &mut self,
        start: usize,
        end: usize,
        reason: &str,
    ) -> Result<usize, CodecError> {
        let h = match self.handler {
            Some(h) => h,
            None => *self.handler.insert(handler(self.errors, true)?),
        };
        match h {
            Handler::Strict | Handler::SurrogateEscape | Handler::SurrogatePass => {
                match surrogate_resume(h, self.data, start, end, self.utf) {
                    Some(at) => {
                        self.lone = true;
                        return Ok(at);
                    }
                    None => {
                        return Err(CodecError::Codec {
                            encoding: self.encoding.to_string(),
                            start,
                            end,
                            reason: reason.to_string(),
                        })
                    }
                }
            }
            Handler::Ignore => {}
            Handler::Replace => self.out.push('\u{fffd}'),
            Handler::BackslashReplace => {
                for b in &self.data[start..end] {
                    self.out.push_str(&format!("\\x{b:02x}"));
                }
            }
            Handler::XmlCharRefReplace => {
                return Err(CodecError::WrongDirection(self.errors.to_string()))
            }
        }
        Ok(end)
    }

    /// The decoded text, or the refusal of a result holding lone surrogates.
    pub(crate) fn finish(self) -> Result<String, CodecError> {
        if self.lone {
            return Err(CodecError::UnsupportedHandler(self.errors.to_string()));
        }
        Ok(self.out)
    }
}

/// What encoding handler `h` puts for the characters `chars` it is given, or `None`: the
/// original error is raised (the surrogate handlers have no lone surrogate to pass or escape).
fn replacement(h: Handler, chars: &[u32]) -> Option<String> {
    Some(match h {
        Handler::Strict | Handler::SurrogateEscape | Handler::SurrogatePass => return None,
        Handler::Ignore => String::new(),
        Handler::Replace => "?".repeat(chars.len()),
        Handler::XmlCharRefReplace => chars.iter().map(|ch| format!("&#{ch};")).collect(),
        Handler::BackslashReplace => chars
            .iter()
            .map(|&ch| match ch {
                0..=0xFF => format!("\\x{ch:02x}"),
                0x100..=0xFFFF => format!("\\u{ch:04x}"),
                _ => format!("\\U{ch:08x}"),
            })
            .collect(),
    })
}

/// CPython's `encodings.normalize_encoding` after `codecs.lookup`'s lower-casing: each run of
/// characters other than ASCII letters, digits and `.` becomes one `_`, none at either end.
fn normalize(name: &str) -> String {
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

/// `codecs.lookup(name)` among these tables' codecs: `encodings.search_function` (an alias as
/// written or with `.` as `_`, else a module name without `.`).
pub fn lookup(name: &str) -> Result<Lookup, CodecError> {
    let norm = normalize(name);
    let dotless = norm.replace('.', "_");
    // The UTF codecs need no tables (nor their inflating).
    if let Some(m) = utf::module(&norm).or_else(|| utf::module(&dotless)) {
        return Ok(Lookup::Found(m.to_string()));
    }
    if let Some(m) = iso2022::module(&norm, &dotless) {
        return Ok(Lookup::Found(m.to_string()));
    }
    // A module name is not found with `.` for `_` (the tables' `others` would say so).
    if iso2022::codec(&dotless).is_some() {
        return Ok(Lookup::Unknown);
    }
    let t = tables::tables()?;
    let alias = t.aliases.get(&norm).or_else(|| t.aliases.get(&dotless));
    if let Some(&i) = alias {
        if let Some(c) = t.codecs.get(i) {
            return Ok(Lookup::Found(c.name.clone()));
        }
    }
    if !norm.contains('.') && !norm.is_empty() {
        if let Some(c) = t.codecs.iter().find(|c| c.name == norm) {
            return Ok(Lookup::Found(c.name.clone()));
        }
    }
    let other = [&norm, &dotless].into_iter().find(|n| !n.is_empty() && t.others.contains(n));
    Ok(match other {
        Some(n) => Lookup::Unsupported(n.clone()),
        None => Lookup::Unknown,
    })
}

fn codec<'t>(t: &'t Tables, name: &str) -> Result<&'t tables::Codec, CodecError> {
    t.codecs.iter().find(|c| c.name == name).ok_or_else(|| CodecError::NoCodec(name.to_string()))
}

/// One decoder step at the start of `b`: characters and bytes consumed, or an error
/// (`Err((size, incomplete))`).
pub(crate) fn step(
    t: &Tables,
    root: u32,
    b: &[u8],
    out: &mut String,
) -> Result<usize, (usize, bool)> {
    let mut node = root as usize;
    let mut depth = 0;
    loop {
        let Some(&byte) = b.get(depth) else { return Err((b.len(), true)) };
        let e = t.nodes.get(node * 256 + usize::from(byte)).copied().unwrap_or(ILLEGAL | 1);
        let (tag, v) = (e & 0xFF00_0000, e & 0x00FF_FFFF);
        match tag {
            0 => {
                out.push(char::from_u32(v).unwrap_or('\u{fffd}'));
                return Ok(depth + 1);
            }
            MULTI => {
                for &c in t.strings.get(v as usize).into_iter().flatten() {
                    out.push(char::from_u32(c).unwrap_or('\u{fffd}'));
                }
                return Ok(depth + 1);
            }
            ILLEGAL => return Err((v as usize, false)),
            TOOFEW => {
                if b.len() <= depth + 1 {
                    return Err((b.len(), true));
                }
                node = v as usize;
                depth += 1;
            }
            GB4 => return gb4(t, b, out),
            EUCKR8 => return makeup(t, b, out),
            _ => return Err((1, false)),
        }
    }
}

/// GB18030's four-byte sequences (`_codecs_cn.c`).
fn gb4(t: &Tables, b: &[u8], out: &mut String) -> Result<usize, (usize, bool)> {
    let [c, c2, c3, c4] = match b.get(..4) {
        Some(&[c, c2, c3, c4]) => [c, c2, c3, c4],
        _ => return Err((b.len(), true)),
    };
    if !(0x81..=0xFE).contains(&c) || !(0x81..=0xFE).contains(&c3) || !(0x30..=0x39).contains(&c4) {
        return Err((1, false));
    }
    let (c, c2, c3, c4) =
        (u32::from(c - 0x81), u32::from(c2 - 0x30), u32::from(c3 - 0x81), u32::from(c4 - 0x30));
    let cp = if c < 4 {
        let lseq = (c * 10 + c2) * 1260 + c3 * 10 + c4;
        if lseq >= 39420 {
            return Err((1, false));
        }
        // The run holding `lseq`: the last start at or below it (the end marker is 39420).
        let k = t.gb_ranges.partition_point(|r| r.0 <= lseq);
        match k.checked_sub(1).and_then(|k| t.gb_ranges.get(k)) {
            Some(r) => r.1 + (lseq - r.0),
            None => return Err((1, false)),
        }
    } else if c >= 15 {
        let cp = 0x10000 + ((c - 15) * 10 + c2) * 1260 + c3 * 10 + c4;
        if cp > 0x10FFFF {
            return Err((1, false));
        }
        cp
    } else {
        return Err((1, false));
    };
    out.push(char::from_u32(cp).unwrap_or('\u{fffd}'));
    Ok(4)
}

/// EUC-KR's make-up sequences `A4 D4 A4 c1 A4 c2 A4 c3` (`_codecs_kr.c`).
fn makeup(t: &Tables, b: &[u8], out: &mut String) -> Result<usize, (usize, bool)> {
    let Some(s) = b.get(..8) else { return Err((b.len(), true)) };
    if s[2] != 0xA4 || s[4] != 0xA4 || s[6] != 0xA4 {
        return Err((1, false));
    }
    let idx = |c: u8, table: &[u8]| match c {
        0xA1..=0xBE => table.get(usize::from(c - 0xA1)).copied().filter(|&v| v != 0xFF),
        _ => None,
    };
    let cho = idx(s[3], &t.makeup[..30]);
    let jung = (0xBF..=0xD3).contains(&s[5]).then(|| s[5] - 0xBF);
    let jong = if s[7] == 0xD4 { t.makeup.get(60).copied() } else { idx(s[7], &t.makeup[30..60]) };
    match (cho, jung, jong) {
        (Some(a), Some(b), Some(c)) => {
            let cp = 0xAC00 + u32::from(a) * 588 + u32::from(b) * 28 + u32::from(c);
            out.push(char::from_u32(cp).unwrap_or('\u{fffd}'));
            Ok(8)
        }
        _ => Err((1, false)),
    }
}

/// `data.decode(codec, errors)` for a codec [`lookup`] found (its module name).
pub fn decode(codec_name: &str, data: &[u8], errors: &str) -> Result<String, CodecError> {
    if let Some(u) = utf::codec(codec_name) {
        return utf::decode(u, data, errors);
    }
    if codec_name == "utf_7" {
        return utf::decode_utf7(data, errors);
    }
    if let Some(c) = iso2022::codec(codec_name) {
        return iso2022::decode(c, data, errors);
    }
    let t = tables::tables()?;
    let c = codec(t, codec_name)?;
    let mut d = DecodeErrors::new(data, errors, &c.label);
    let mut pos = 0;
    while pos < data.len() {
        match step(t, c.root, &data[pos..], &mut d.out) {
            Ok(n) => pos += n,
            Err((size, incomplete)) => {
                let reason = if c.kind == Kind::Charmap {
                    "character maps to <undefined>"
                } else if incomplete {
                    "incomplete multibyte sequence"
                } else {
                    "illegal multibyte sequence"
                };
                pos = d.handle(pos, pos + size.max(1), reason)?;
            }
        }
    }
    d.finish()
}

fn push_code(out: &mut Vec<u8>, code: u32, len: u8) {
    for k in (0..u32::from(len)).rev() {
        out.push((code >> (8 * k)) as u8);
    }
}

/// One character's bytes, if the codec encodes it alone.
fn encode_char(t: &Tables, c: &tables::Codec, ch: u32, out: &mut Vec<u8>) -> bool {
    if let Some(&(code, len)) = c.encode.get(&ch) {
        push_code(out, code, len);
        return true;
    }
    if c.kind == Kind::Gb18030 && !(0xD800..0xE000).contains(&ch) && ch >= 0x80 {
        let lseq = if ch >= 0x10000 {
            ch - 0x10000 + 15 * 12600
        } else {
            // Runs in code point order (`gb_by_cp`): the last starting at or below `ch`.
            let k = t.gb_by_cp.partition_point(|r| r.1 <= ch);
            match k.checked_sub(1).and_then(|k| t.gb_by_cp.get(k)) {
                Some(r) => r.0 + (ch - r.1),
                None => return false,
            }
        };
        let (c1, r) = (lseq / 12600, lseq % 12600);
        let (c2, r) = (r / 1260, r % 1260);
        out.extend([
            0x81 + c1 as u8,
            0x30 + c2 as u8,
            0x81 + (r / 10) as u8,
            0x30 + (r % 10) as u8,
        ]);
        return true;
    }
    if c.name == "euc_kr" && (0xAC00..=0xD7A3).contains(&ch) && t.u_makeup.len() == 68 {
        let s = (ch - 0xAC00) as usize;
        let u = &t.u_makeup;
        out.extend([
            0xA4,
            0xD4,
            0xA4,
            u[s / 588],
            0xA4,
            u[19 + (s / 28) % 21],
            0xA4,
            u[40 + s % 28],
        ]);
        return true;
    }
    false
}

/// `text.encode(codec, errors)` for a codec [`lookup`] found (its module name).
pub fn encode(codec_name: &str, text: &str, errors: &str) -> Result<Vec<u8>, CodecError> {
    if let Some(u) = utf::codec(codec_name) {
        return Ok(utf::encode(u, text));
    }
    if codec_name == "utf_7" {
        return Ok(utf::encode_utf7(text));
    }
    if let Some(c) = iso2022::codec(codec_name) {
        return iso2022::encode(c, text, errors);
    }
    let t = tables::tables()?;
    let c = codec(t, codec_name)?;
    let mut handler_now = None;
    let chars: Vec<u32> = text.chars().map(u32::from).collect();
    let mut out = Vec::with_capacity(chars.len());
    let mut i = 0;
    while i < chars.len() {
        let ch = chars[i];
        if let Some(&next) = chars.get(i + 1) {
            // CPython matches the second character by its low 16 bits (JIS X 0213's
            // `find_pairencmap` takes a `ucs2_t`; HKSCS masks with 0xFFF7).
            if let Some(&(code, len)) = c.pairs.get(&(ch, next & 0xFFFF)) {
                push_code(&mut out, code, len);
                i += 2;
                continue;
            }
        }
        if encode_char(t, c, ch, &mut out) {
            i += 1;
            continue;
        }
        // The charmap encoder reports the whole run of characters it cannot encode; the
        // multi-byte encoders one character at a time.
        let mut end = i + 1;
        if c.kind == Kind::Charmap {
            let mut scratch = Vec::new();
            while end < chars.len() && !encode_char(t, c, chars[end], &mut scratch) {
                end += 1;
            }
        }
        let reason = if c.kind == Kind::Charmap {
            "character maps to <undefined>"
        } else {
            "illegal multibyte sequence"
        };
        let error = || CodecError::Codec {
            encoding: c.label.clone(),
            start: i,
            end,
            reason: reason.to_string(),
        };
        let h = match handler_now {
            Some(h) => h,
            None => *handler_now.insert(handler(errors, false)?),
        };
        let Some(replacement) = replacement(h, &chars[i..end]) else { return Err(error()) };
        for r in replacement.chars() {
            if !encode_char(t, c, u32::from(r), &mut out) {
                return Err(error());
            }
        }
        i = end;
    }
    Ok(out)
}

/// Every codec these tables hold, by module name (for tests and tools).
pub fn codec_names() -> Result<Vec<String>, CodecError> {
    Ok(tables::tables()?.codecs.iter().map(|c| c.name.clone()).collect())
}
