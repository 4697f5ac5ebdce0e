//! The methods of `bytes`, and decoding bytes to `str` with CPython's `UnicodeDecodeError`.

use super::arg;
use crate::interp::ExcKind;
use crate::interp::{Interp, PyResult, Value};
use std::rc::Rc;

impl<'a> Interp<'a> {
    pub(super) fn bytes_method(
        &mut self,
        b: Rc<[u8]>,
        name: &str,
        args: Vec<Value<'a>>,
    ) -> PyResult<'a, Value<'a>> {
        match name {
            "decode" => self.decode_bytes(&b, args.first()),
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

    pub fn decode_bytes(&mut self, b: &[u8], enc: Option<&Value<'a>>) -> PyResult<'a, Value<'a>> {
        let enc = match enc {
            Some(Value::Str(s)) => s.to_ascii_lowercase().replace('_', "-"),
            _ => "utf-8".into(),
        };
        match enc.as_str() {
            "utf-8" | "utf8" => match std::str::from_utf8(b) {
                Ok(s) => Ok(Value::str_rc(Rc::from(s))),
                Err(e) => Err(self.utf8_error(b, &e)),
            },
            "latin-1" | "latin1" | "iso-8859-1" => Ok(Value::str_rc(Rc::from(b.iter().map(|&x| x as char).collect::<String>()))),
            "ascii" => match b.iter().position(|x| *x >= 0x80) {
                None => Ok(Value::str_rc(Rc::from(std::str::from_utf8(b).unwrap_or("")))),
                Some(i) => Err(self.err(
                    ExcKind::UnicodeDecodeError,
                    format!("'ascii' codec can't decode byte 0x{:02x} in position {i}: ordinal not in range(128)", b[i]),
                )),
            },
            other => Err(self.unsupported(format!("encoding '{other}'"))),
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
