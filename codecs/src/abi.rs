//! The byte protocol of `codecs.wasm` (and of the scorer's native provider, so both go through
//! the same framing): one call = an operation, a codec or lookup name, the data and the error
//! handler name; one answer = a status byte and its payload. The scorer reads answers with
//! `scorer::codec::read_answer`.
//!
//! Operations: [`LOOKUP`] (name), [`DECODE`] (codec, bytes, errors), [`ENCODE`] (codec, UTF-8
//! text, errors). Answers:
//! - [`OK`] + the canonical name (lookup), the UTF-8 text (decode) or the bytes (encode);
//! - [`UNSUPPORTED`] + the normalised name; [`UNKNOWN`] (lookup);
//! - [`CODEC_ERROR`] + start, end (u32 LE) + encoding length (u8) + encoding + reason;
//! - [`UNKNOWN_HANDLER`], [`UNSUPPORTED_HANDLER`], [`WRONG_DIRECTION`] + the handler name;
//! - [`LONE_SURROGATE`] + position, code point (u32 LE): the decoded text would hold one;
//! - [`INTERNAL`] + the codec: CPython's RuntimeError "internal codec error";
//! - [`FAILED`] + a message (tables unreadable, unknown codec or operation).

use crate::{CodecError, Lookup};

pub const LOOKUP: u32 = 0;
pub const DECODE: u32 = 1;
pub const ENCODE: u32 = 2;

pub const OK: u8 = 0;
pub const UNSUPPORTED: u8 = 1;
pub const UNKNOWN: u8 = 2;
pub const CODEC_ERROR: u8 = 3;
pub const UNKNOWN_HANDLER: u8 = 4;
pub const UNSUPPORTED_HANDLER: u8 = 5;
pub const WRONG_DIRECTION: u8 = 6;
pub const FAILED: u8 = 7;
pub const LONE_SURROGATE: u8 = 8;
pub const INTERNAL: u8 = 9;

fn framed(status: u8, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(payload.len() + 1);
    out.push(status);
    out.extend_from_slice(payload);
    out
}

fn error_answer(e: CodecError) -> Vec<u8> {
    match e {
        CodecError::Codec { encoding, start, end, reason } => {
            let mut out = vec![CODEC_ERROR];
            out.extend_from_slice(&u32::try_from(start).unwrap_or(u32::MAX).to_le_bytes());
            out.extend_from_slice(&u32::try_from(end).unwrap_or(u32::MAX).to_le_bytes());
            let enc = encoding.as_bytes();
            out.push(u8::try_from(enc.len()).unwrap_or(0));
            out.extend_from_slice(&enc[..enc.len().min(255)]);
            out.extend_from_slice(reason.as_bytes());
            out
        }
        CodecError::LoneSurrogate { position, code } => {
            let mut out = vec![LONE_SURROGATE];
            out.extend_from_slice(&u32::try_from(position).unwrap_or(u32::MAX).to_le_bytes());
            out.extend_from_slice(&code.to_le_bytes());
            out
        }
        CodecError::UnknownHandler(h) => framed(UNKNOWN_HANDLER, h.as_bytes()),
        CodecError::UnsupportedHandler(h) => framed(UNSUPPORTED_HANDLER, h.as_bytes()),
        CodecError::WrongDirection(h) => framed(WRONG_DIRECTION, h.as_bytes()),
        CodecError::Internal(c) => framed(INTERNAL, c.as_bytes()),
        other => framed(FAILED, other.to_string().as_bytes()),
    }
}

/// Answers one call.
pub fn call(op: u32, name: &[u8], data: &[u8], errors: &[u8]) -> Vec<u8> {
    let name = String::from_utf8_lossy(name);
    let errors = String::from_utf8_lossy(errors);
    let answer = match op {
        LOOKUP => crate::lookup(&name).map(|l| match l {
            Lookup::Found(n) => framed(OK, n.as_bytes()),
            Lookup::Unsupported(n) => framed(UNSUPPORTED, n.as_bytes()),
            Lookup::Unknown => vec![UNKNOWN],
        }),
        DECODE => crate::decode(&name, data, &errors).map(|s| framed(OK, s.as_bytes())),
        ENCODE => match std::str::from_utf8(data) {
            Ok(text) => crate::encode(&name, text, &errors).map(|b| framed(OK, &b)),
            Err(_) => Ok(framed(FAILED, b"text is not UTF-8")),
        },
        _ => Ok(framed(FAILED, format!("unknown operation {op}").as_bytes())),
    };
    answer.unwrap_or_else(error_answer)
}
