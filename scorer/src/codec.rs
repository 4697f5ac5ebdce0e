//! Codecs beyond UTF-8, Latin-1 and ASCII (which the scorer decodes itself): the provider a run
//! asks, and the answers it reads.
//!
//! The tables live in the `codecs` crate, never in the scoring worker's first-visit wasm. Native
//! builds (CLI, tests, the Python package) link it (feature `codecs`: [`native`]); the worker
//! starts without a provider, and a run that needs a codec then stops with no verdict
//! ([`crate::unittest::Scorer::take_needs_codecs`]); the worker loads `codecs.wasm`, installs a
//! provider calling it ([`Scorer::set_codecs`](crate::unittest::Scorer::set_codecs)) and runs the
//! job again. Both providers speak `codecs::abi`'s byte protocol, read here by [`read_answer`].

use std::rc::Rc;

/// What `codecs.lookup(name)` finds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lookup {
    /// A codec the provider decodes, by its `encodings` module name.
    Found(String),
    /// A codec CPython has that refscore does not decode (`idna`, `rot_13`, `punycode`...).
    Unsupported(String),
    /// No such codec: `LookupError: unknown encoding: NAME`.
    Unknown,
}

/// Why a codec call gave no result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodecError {
    /// CPython's UnicodeDecodeError / UnicodeEncodeError: `start..end` in bytes (decode) or
    /// code points (encode), `encoding` as the exception names it (`charmap`, `gbk`...).
    #[error("'{encoding}' codec error in position {start}-{end}: {reason}")]
    Codec { encoding: String, start: usize, end: usize, reason: String },
    /// `LookupError: unknown error handler name 'X'`.
    #[error("unknown error handler name '{0}'")]
    UnknownHandler(String),
    /// A handler CPython has that refscore does not apply (`surrogateescape`...).
    #[error("error handler '{0}' is not supported by refscore")]
    UnsupportedHandler(String),
    /// `xmlcharrefreplace` while decoding: CPython's TypeError.
    #[error("don't know how to handle UnicodeDecodeError in error callback")]
    WrongDirection(String),
    /// The decoded text would hold a lone surrogate (UTF-7), which a Rust string cannot: its
    /// position in characters and code point.
    #[error("lone surrogate U+{code:04X} at position {position}")]
    LoneSurrogate { position: usize, code: u32 },
    /// CPython's RuntimeError "internal codec error" (an ISO-2022 single shift into a G2 set
    /// the codec cannot decode), by the codec's name.
    #[error("internal codec error")]
    Internal(String),
    /// The provider failed (tables unreadable, module broken).
    #[error("codec provider failed: {0}")]
    Failed(String),
}

/// A codec provider, set on a [`crate::unittest::Scorer`].
pub trait Codecs {
    fn lookup(&self, name: &str) -> Result<Lookup, CodecError>;
    /// `data.decode(codec, errors)` for a codec [`Codecs::lookup`] found.
    fn decode(&self, codec: &str, data: &[u8], errors: &str) -> Result<String, CodecError>;
    /// `text.encode(codec, errors)` for a codec [`Codecs::lookup`] found.
    fn encode(&self, codec: &str, text: &str, errors: &str) -> Result<Vec<u8>, CodecError>;
}

/// The operations of `codecs::abi`.
pub const LOOKUP: u32 = 0;
pub const DECODE: u32 = 1;
pub const ENCODE: u32 = 2;

/// One answer of `codecs::abi::call`: the status byte's payload, or the error it names.
pub fn read_answer(answer: &[u8]) -> Result<(u8, &[u8]), CodecError> {
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let Some((&status, rest)) = answer.split_first() else {
        return Err(CodecError::Failed("empty answer".into()));
    };
    match status {
        0..=2 => Ok((status, rest)),
        3 => {
            let n = |k: usize| {
                rest.get(k..k + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
            };
            let (Some(start), Some(end), Some(&len)) = (n(0), n(4), rest.get(8)) else {
                return Err(CodecError::Failed("short codec error".into()));
            };
            let enc = rest.get(9..9 + usize::from(len)).unwrap_or_default();
            let reason = rest.get(9 + usize::from(len)..).unwrap_or_default();
            Err(CodecError::Codec { encoding: text(enc), start, end, reason: text(reason) })
        }
        4 => Err(CodecError::UnknownHandler(text(rest))),
        8 => {
            let n =
                |k: usize| rest.get(k..k + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
            match (n(0), n(4)) {
                (Some(position), Some(code)) => {
                    Err(CodecError::LoneSurrogate { position: position as usize, code })
                }
                _ => Err(CodecError::Failed("short lone surrogate answer".into())),
            }
        }
        5 => Err(CodecError::UnsupportedHandler(text(rest))),
        6 => Err(CodecError::WrongDirection(text(rest))),
        9 => Err(CodecError::Internal(text(rest))),
        _ => Err(CodecError::Failed(text(rest))),
    }
}

/// A provider over any implementation of `codecs::abi::call` (the native crate, or the worker's
/// `codecs.wasm` instance).
pub struct AbiCodecs<F: Fn(u32, &[u8], &[u8], &[u8]) -> Vec<u8>>(pub F);

impl<F: Fn(u32, &[u8], &[u8], &[u8]) -> Vec<u8>> Codecs for AbiCodecs<F> {
    fn lookup(&self, name: &str) -> Result<Lookup, CodecError> {
        let answer = (self.0)(LOOKUP, name.as_bytes(), b"", b"");
        let (status, payload) = read_answer(&answer)?;
        let name = String::from_utf8_lossy(payload).into_owned();
        Ok(match status {
            0 => Lookup::Found(name),
            1 => Lookup::Unsupported(name),
            _ => Lookup::Unknown,
        })
    }

    fn decode(&self, codec: &str, data: &[u8], errors: &str) -> Result<String, CodecError> {
        let answer = (self.0)(DECODE, codec.as_bytes(), data, errors.as_bytes());
        let (_, payload) = read_answer(&answer)?;
        String::from_utf8(payload.to_vec()).map_err(|e| CodecError::Failed(e.to_string()))
    }

    fn encode(&self, codec: &str, text: &str, errors: &str) -> Result<Vec<u8>, CodecError> {
        let answer = (self.0)(ENCODE, codec.as_bytes(), text.as_bytes(), errors.as_bytes());
        read_answer(&answer).map(|(_, payload)| payload.to_vec())
    }
}

/// The codecs crate linked in (feature `codecs`), through the same byte protocol as the wasm
/// module.
#[cfg(feature = "codecs")]
pub fn native() -> Rc<dyn Codecs> {
    Rc::new(AbiCodecs(codecs::abi::call))
}

/// The provider a new scorer starts with: the linked crate natively, none in the worker.
pub fn default_provider() -> Option<Rc<dyn Codecs>> {
    #[cfg(feature = "codecs")]
    return Some(native());
    #[cfg(not(feature = "codecs"))]
    None
}
