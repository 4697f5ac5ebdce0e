//! The methods of `bytes`, and decoding bytes to `str` with CPython's `UnicodeDecodeError`.

use super::arg;
use crate::codec::{CodecError, Lookup};
use crate::interp::fmt::str_repr;
use crate::interp::ExcKind;
use crate::interp::{Interp, PyErr, PyResult, Str, Value};
use crate::python::BuiltinCodec;
use std::rc::Rc;

/// What a codec failed on, for the exception's `object` and message.
pub enum CodecInput<'s> {
    Bytes(&'s [u8]),
    Text(&'s str),
}

impl<'a> Interp<'a> {
    pub(super) fn bytes_method(
        &mut self,
        b: Rc<[u8]>,
        name: &str,
        args: Vec<Value<'a>>,
    ) -> PyResult<'a, Value<'a>> {
        match name {
            "decode" => self.decode_bytes(&b, args.first(), args.get(1)),
            "hex" => Ok(Value::str_rc(Rc::from(
                b.iter().map(|x| format!("{x:02x}")).collect::<String>(),
            ))),
            "startswith" | "endswith" => match arg(&args, 0) {
                Value::Bytes(p) => Ok(Value::Bool(if name == "startswith" {
                    b.starts_with(&p)
                } else {
                    b.ends_with(&p)
                })),
                _ => Err(self.err(ExcKind::TypeError, "expected bytes")),
            },
            "find" | "count" => match arg(&args, 0) {
                Value::Bytes(p) => {
                    if name == "count" {
                        if p.is_empty() {
                            return Ok(Value::Int(b.len() as i64 + 1));
                        }
                        let mut n = 0;
                        let mut i = 0;
                        while i + p.len() <= b.len() {
                            if b[i..i + p.len()] == p[..] {
                                n += 1;
                                i += p.len();
                            } else {
                                i += 1;
                            }
                        }
                        return Ok(Value::Int(n));
                    }
                    Ok(Value::Int(
                        b.windows(p.len().max(1))
                            .position(|w| w == &p[..])
                            .map_or(-1, |i| i as i64),
                    ))
                }
                _ => Err(self.err(ExcKind::TypeError, "expected bytes")),
            },
            _ => Err(self.unsupported(format!("bytes.{name}"))),
        }
    }

    /// `bytes.decode(encoding, errors)`: UTF-8, Latin-1 and ASCII here, any other codec through
    /// the run's codec provider ([`crate::codec`]).
    pub fn decode_bytes(
        &mut self,
        b: &[u8],
        enc: Option<&Value<'a>>,
        errors: Option<&Value<'a>>,
    ) -> PyResult<'a, Value<'a>> {
        let enc: Str = match enc {
            Some(Value::Str(s)) => s.clone(),
            _ => Rc::from("utf-8"),
        };
        let errors: Str = match errors {
            Some(Value::Str(s)) => s.clone(),
            _ => Rc::from("strict"),
        };
        let strict = &*errors == "strict";
        let builtin = |it: &mut Self, r: PyResult<'a, Value<'a>>| match r {
            // A handler only matters once a byte fails; the scorer applies `strict` alone.
            Err(_) if !strict => Err(it.unsupported(format!(
                "bytes.decode({}, errors={})",
                str_repr(&enc),
                str_repr(&errors)
            ))),
            r => r,
        };
        match crate::python::builtin_codec(&enc) {
            Some(BuiltinCodec::Utf8 | BuiltinCodec::Utf8Sig) => {
                let sig = crate::python::builtin_codec(&enc) == Some(BuiltinCodec::Utf8Sig);
                let data = if sig { b.strip_prefix(b"\xef\xbb\xbf").unwrap_or(b) } else { b };
                let r = match std::str::from_utf8(data) {
                    Ok(s) => Ok(Value::str_rc(Rc::from(s))),
                    Err(e) => Err(self.utf8_error(data, &e)),
                };
                builtin(self, r)
            }
            Some(BuiltinCodec::Latin1) => {
                Ok(Value::str_rc(Rc::from(b.iter().map(|&x| x as char).collect::<String>())))
            }
            Some(BuiltinCodec::Ascii) => {
                let r = match b.iter().position(|x| *x >= 0x80) {
                    None => Ok(Value::str_rc(Rc::from(std::str::from_utf8(b).unwrap_or("")))),
                    Some(i) => Err(self.codec_error(
                        CodecError::Codec {
                            encoding: "ascii".into(),
                            start: i,
                            end: i + 1,
                            reason: "ordinal not in range(128)".into(),
                        },
                        CodecInput::Bytes(b),
                    )),
                };
                builtin(self, r)
            }
            // `PyUnicode_Decode` answers empty bytes before looking the codec up.
            None if b.is_empty() => Ok(Value::str("")),
            None => {
                let codec = self.find_codec(&enc)?;
                let Some(codecs) = self.codecs.clone() else {
                    return Err(self.needs_codecs_error(&enc));
                };
                match codecs.decode(&codec, b, &errors) {
                    Ok(s) => Ok(Value::str_rc(Rc::from(s))),
                    Err(e) => Err(self.registry_codec_error(e, CodecInput::Bytes(b), &enc)),
                }
            }
        }
    }

    /// The provider's codec for `enc` (`codecs.lookup`): its module name, or CPython's
    /// LookupError, or the stop for want of a provider.
    pub fn find_codec(&mut self, enc: &str) -> PyResult<'a, String> {
        let Some(codecs) = self.codecs.clone() else {
            return Err(self.needs_codecs_error(enc));
        };
        match codecs.lookup(enc) {
            Ok(Lookup::Found(c)) => Ok(c),
            Ok(Lookup::Unsupported(c)) => Err(self.unsupported(format!("the codec {c}"))),
            Ok(Lookup::Unknown) => {
                Err(self.err(ExcKind::LookupError, format!("unknown encoding: {enc}")))
            }
            Err(e) => Err(self.unsupported(e.to_string())),
        }
    }

    /// [`Interp::codec_error`] for a codec `enc` names through the codec registry: CPython
    /// wraps a handler's LookupError or TypeError as "decoding with 'ENC' codec failed (...)"
    /// (`wrap_codec_error`), except under the names `PyUnicode_Decode` / `AsEncodedString`
    /// answer themselves (`utf16`, `utf_32`...: normalised, `utf`, an optional `_`, 16 or 32).
    pub fn registry_codec_error(
        &mut self,
        e: CodecError,
        input: CodecInput<'_>,
        enc: &str,
    ) -> Box<PyErr<'a>> {
        let (kind, msg) = match &e {
            CodecError::UnknownHandler(h) => {
                (ExcKind::LookupError, format!("unknown error handler name '{h}'"))
            }
            CodecError::WrongDirection(_) => (
                ExcKind::TypeError,
                "don't know how to handle UnicodeDecodeError in error callback".to_string(),
            ),
            CodecError::Internal(_) => (ExcKind::RuntimeError, "internal codec error".to_string()),
            _ => return self.codec_error(e, input),
        };
        let norm = crate::python::normalize_encoding(enc);
        if matches!(norm.as_str(), "utf16" | "utf_16" | "utf32" | "utf_32") {
            return self.err(kind, msg);
        }
        let op = match input {
            CodecInput::Bytes(_) => "decoding",
            CodecInput::Text(_) => "encoding",
        };
        let name = kind.name();
        self.err(kind, format!("{op} with '{enc}' codec failed ({name}: {msg})"))
    }

    /// A codec's failure as CPython raises it: UnicodeDecodeError / UnicodeEncodeError with
    /// CPython's message and attributes, LookupError for an unknown handler, TypeError for
    /// `xmlcharrefreplace` while decoding.
    pub fn codec_error(&mut self, e: CodecError, input: CodecInput<'_>) -> Box<PyErr<'a>> {
        match e {
            CodecError::Codec { encoding, start, end, reason } => {
                let (kind, what, object) = match input {
                    CodecInput::Bytes(b) => {
                        let what = if end == start + 1 {
                            let byte = b.get(start).copied().unwrap_or(0);
                            format!("can't decode byte 0x{byte:02x} in position {start}")
                        } else {
                            format!("can't decode bytes in position {start}-{}", end - 1)
                        };
                        (ExcKind::UnicodeDecodeError, what, Value::bytes_rc(Rc::from(b)))
                    }
                    CodecInput::Text(s) => {
                        let what = if end == start + 1 {
                            let cp = s.chars().nth(start).map_or(0, u32::from);
                            let esc = if cp < 0x100 {
                                format!("\\x{cp:02x}")
                            } else if cp < 0x10000 {
                                format!("\\u{cp:04x}")
                            } else {
                                format!("\\U{cp:08x}")
                            };
                            format!("can't encode character '{esc}' in position {start}")
                        } else {
                            format!("can't encode characters in position {start}-{}", end - 1)
                        };
                        (ExcKind::UnicodeEncodeError, what, Value::str(s))
                    }
                };
                let msg = format!("'{encoding}' codec {what}: {reason}");
                let err = self.err_args(kind, vec![Value::str(&encoding)], Some(msg));
                if let Value::Instance(i) = &err.exc {
                    let mut d = i.dict.borrow_mut();
                    d.insert(Rc::from("encoding"), Value::str(&encoding));
                    d.insert(Rc::from("object"), object);
                    d.insert(Rc::from("start"), Value::Int(start as i64));
                    d.insert(Rc::from("end"), Value::Int(end as i64));
                    d.insert(Rc::from("reason"), Value::str(&reason));
                }
                err
            }
            CodecError::UnknownHandler(h) => {
                self.err(ExcKind::LookupError, format!("unknown error handler name '{h}'"))
            }
            CodecError::WrongDirection(_) => self.err(
                ExcKind::TypeError,
                "don't know how to handle UnicodeDecodeError in error callback",
            ),
            CodecError::UnsupportedHandler(h) => {
                self.unsupported(format!("the error handler {}", str_repr(&h)))
            }
            CodecError::LoneSurrogate { .. } => {
                self.unsupported("a str holding a lone surrogate (decoded by the codec)")
            }
            CodecError::Internal(_) => self.err(ExcKind::RuntimeError, "internal codec error"),
            CodecError::Failed(m) => self.unsupported(m),
        }
    }

    /// CPython's UnicodeDecodeError for invalid UTF-8.
    pub fn utf8_error(&self, b: &[u8], e: &std::str::Utf8Error) -> Box<crate::interp::PyErr<'a>> {
        let start = e.valid_up_to();
        let (end, reason) = match e.error_len() {
            None => (b.len(), "unexpected end of data"),
            Some(n) => {
                let lead = b[start];
                let valid_lead = matches!(lead, 0xc2..=0xf4);
                if n == 1 && !valid_lead {
                    (start + 1, "invalid start byte")
                } else {
                    (start + n, "invalid continuation byte")
                }
            }
        };
        let msg = if end - start == 1 {
            format!(
                "'utf-8' codec can't decode byte 0x{:02x} in position {start}: {reason}",
                b[start]
            )
        } else {
            format!("'utf-8' codec can't decode bytes in position {start}-{}: {reason}", end - 1)
        };
        let err = self.err_args(ExcKind::UnicodeDecodeError, vec![Value::str("utf-8")], Some(msg));
        if let Value::Instance(i) = &err.exc {
            let mut d = i.dict.borrow_mut();
            d.insert(Rc::from("encoding"), Value::str("utf-8"));
            d.insert(Rc::from("object"), Value::bytes_rc(Rc::from(b)));
            d.insert(Rc::from("start"), Value::Int(start as i64));
            d.insert(Rc::from("end"), Value::Int(end as i64));
            d.insert(Rc::from("reason"), Value::str(reason));
        }
        err
    }
}
