//! UTF-16 and UTF-32 (`utf_16`, `utf_16_le`, `utf_16_be`, `utf_32`, `utf_32_le`, `utf_32_be`),
//! and UTF-7 (`decode_utf7`, `encode_utf7`),
//! as CPython 3.11 decodes and encodes them (`PyUnicode_DecodeUTF16Stateful`,
//! `PyUnicode_DecodeUTF32Stateful`): a BOM read and dropped by the codecs without a byte order,
//! little-endian otherwise (the official harness runs on x86-64), the error messages and
//! positions of truncated data, lone surrogates and code points out of range, and the handlers
//! of [`crate::Handler`] applied at each error. No tables: these codecs cost the codecs module a
//! few hundred bytes.
//!
//! Encoding cannot fail: the scorer's `str` holds no lone surrogates.

use crate::{CodecError, DecodeErrors};

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
    ("utf_7", "utf_7"),
    ("u7", "utf_7"),
    ("utf7", "utf_7"),
    ("unicode_1_1_utf_7", "utf_7"),
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
    let mut d = DecodeErrors::new(data, errors, label).utf(u.width, big);
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
                            d.out.push(char::from_u32(cp).unwrap_or('\u{fffd}'));
                            pos += 4;
                            continue;
                        }
                        Fault { start: pos, end: pos + 2, reason: "illegal UTF-16 surrogate" }
                    }
                }
                0xDC00..=0xDFFF => Fault { start: pos, end: pos + 2, reason: "illegal encoding" },
                _ => {
                    d.out.push(char::from_u32(ch).unwrap_or('\u{fffd}'));
                    pos += 2;
                    continue;
                }
            }
        } else {
            let ch = unit(pos);
            match char::from_u32(ch) {
                Some(c) => {
                    d.out.push(c);
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
        pos = d.handle(fault.start, fault.end, fault.reason)?;
    }
    d.finish()
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

/// UTF-7's classes of the ASCII characters (`utf7_category` of CPython 3.11): 0 direct, 1
/// optional direct, 2 white space (both written directly by CPython's encoder), 3 special
/// (base64-encoded).
const UTF7_SPECIAL: u128 = {
    let mut bits = 0u128;
    let mut c = 0;
    while c < 128 {
        let special = match c {
            9 | 10 | 13 => false,
            0..=31 | 127 => true,
            43 | 92 | 126 => true, // `+`, `\`, `~`
            _ => false,
        };
        if special {
            bits |= 1 << c;
        }
        c += 1;
    }
    bits
};

fn is_base64(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'+' || c == b'/'
}

fn from_base64(c: u8) -> u32 {
    match c {
        b'A'..=b'Z' => u32::from(c - b'A'),
        b'a'..=b'z' => u32::from(c - b'a') + 26,
        b'0'..=b'9' => u32::from(c - b'0') + 52,
        b'+' => 62,
        _ => 63,
    }
}

fn to_base64(n: u64) -> u8 {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    ALPHABET[(n & 0x3f) as usize]
}

/// `data.decode('utf-7', errors)` as `PyUnicode_DecodeUTF7Stateful` does it: base64 shift
/// sequences after `+` (`+-` is `+`), an error's start at its shift sequence's `+`, output made
/// before an error kept. A lone surrogate CPython would make refuses the call as unsupported.
pub(crate) fn decode_utf7(data: &[u8], errors: &str) -> Result<String, CodecError> {
    let mut d = DecodeErrors::new(data, errors, "utf7");
    let mut in_shift = false;
    let (mut bits, mut buffer, mut surrogate) = (0u32, 0u64, 0u32);
    let mut start = 0usize;
    let mut s = 0usize;
    // One character of the output (the first lone surrogate only noted: position, code).
    let mut made: Option<(usize, u32)> = None;
    let mut push = |out: &mut String, ch: u32| match char::from_u32(ch) {
        Some(c) => out.push(c),
        None => {
            made.get_or_insert((out.chars().count(), ch));
        }
    };
    loop {
        let fault: Option<(usize, usize, &str)> = if s < data.len() {
            let ch = data[s];
            if in_shift {
                if is_base64(ch) {
                    buffer = (buffer << 6) | u64::from(from_base64(ch));
                    bits += 6;
                    s += 1;
                    if bits >= 16 {
                        let out_ch = ((buffer >> (bits - 16)) & 0xffff) as u32;
                        bits -= 16;
                        buffer &= (1u64 << bits) - 1;
                        if surrogate != 0 {
                            if (0xDC00..0xE000).contains(&out_ch) {
                                let joined =
                                    0x10000 + ((surrogate - 0xD800) << 10) + (out_ch - 0xDC00);
                                push(&mut d.out, joined);
                                surrogate = 0;
                                continue;
                            }
                            push(&mut d.out, surrogate);
                            surrogate = 0;
                        }
                        if (0xD800..0xDC00).contains(&out_ch) {
                            surrogate = out_ch;
                        } else {
                            push(&mut d.out, out_ch);
                        }
                    }
                    None
                } else {
                    in_shift = false;
                    if bits >= 6 {
                        s += 1;
                        Some((start, s, "partial character in shift sequence"))
                    } else if bits > 0 && buffer != 0 {
                        s += 1;
                        Some((start, s, "non-zero padding bits in shift sequence"))
                    } else {
                        if surrogate != 0 && ch <= 127 && ch != b'+' {
                            push(&mut d.out, surrogate);
                        }
                        surrogate = 0;
                        if ch == b'-' {
                            s += 1;
                        }
                        None
                    }
                }
            } else if ch == b'+' {
                start = s;
                s += 1;
                if data.get(s) == Some(&b'-') {
                    s += 1;
                    d.out.push('+');
                    None
                } else if data.get(s).is_some_and(|&c| !is_base64(c)) {
                    s += 1;
                    Some((start, s, "ill-formed sequence"))
                } else {
                    in_shift = true;
                    surrogate = 0;
                    bits = 0;
                    buffer = 0;
                    None
                }
            } else if ch <= 127 {
                s += 1;
                d.out.push(char::from(ch));
                None
            } else {
                start = s;
                s += 1;
                Some((start, s, "unexpected special character"))
            }
        } else if in_shift {
            in_shift = false;
            if surrogate != 0 || bits >= 6 || (bits > 0 && buffer != 0) {
                Some((start, data.len(), "unterminated shift sequence"))
            } else {
                break;
            }
        } else {
            break;
        };
        let Some((fstart, fend, reason)) = fault else { continue };
        s = d.handle(fstart, fend, reason)?;
    }
    let out = d.finish()?;
    if let Some((position, code)) = made {
        return Err(CodecError::LoneSurrogate { position, code });
    }
    Ok(out)
}

/// `text.encode('utf-7')` as `_PyUnicode_EncodeUTF7(str, 0, 0, errors)`: the special ASCII
/// characters and every non-ASCII one in base64 shift sequences (UTF-16), `+` as `+-`.
pub(crate) fn encode_utf7(text: &str) -> Vec<u8> {
    let direct = |c: u32| c > 0 && c < 128 && UTF7_SPECIAL & (1 << c) == 0;
    let mut out = Vec::with_capacity(text.len() + 8);
    let (mut in_shift, mut bits, mut buffer) = (false, 0u32, 0u64);
    let code = |out: &mut Vec<u8>, bits: &mut u32, buffer: &mut u64, unit: u32| {
        *bits += 16;
        *buffer = (*buffer << 16) | u64::from(unit);
        while *bits >= 6 {
            out.push(to_base64(*buffer >> (*bits - 6)));
            *bits -= 6;
        }
        *buffer &= (1u64 << *bits) - 1;
    };
    for c in text.chars() {
        let ch = u32::from(c);
        if in_shift && direct(ch) {
            if bits > 0 {
                out.push(to_base64(buffer << (6 - bits)));
                buffer = 0;
                bits = 0;
            }
            in_shift = false;
            if is_base64(ch as u8) || ch == u32::from(b'-') {
                out.push(b'-');
            }
            out.push(ch as u8);
            continue;
        }
        if !in_shift {
            if ch == u32::from(b'+') {
                out.extend_from_slice(b"+-");
                continue;
            }
            if direct(ch) {
                out.push(ch as u8);
                continue;
            }
            out.push(b'+');
            in_shift = true;
        }
        let mut units = [0u16; 2];
        for &u in c.encode_utf16(&mut units).iter() {
            code(&mut out, &mut bits, &mut buffer, u32::from(u));
        }
    }
    if bits > 0 {
        out.push(to_base64(buffer << (6 - bits)));
    }
    if in_shift {
        out.push(b'-');
    }
    out
}
