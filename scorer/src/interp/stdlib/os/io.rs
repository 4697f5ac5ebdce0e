//! `open` and the file objects it returns (`read`, `readline`, iteration, `with`), reading the
//! tree through the `os` module's recording accessors.

use super::*;
use crate::interp::builtins::Sig;
use crate::interp::ExcKind;
use crate::python::BuiltinCodec;

impl<'a> Interp<'a> {
    pub fn builtin_open(
        &mut self,
        args: Vec<Value<'a>>,
        kwargs: Kwargs<'a>,
    ) -> PyResult<'a, Value<'a>> {
        const OPEN: Sig = Sig::clinic(
            "open",
            &["file", "mode", "buffering", "encoding", "errors", "newline", "closefd", "opener"],
            1,
        );
        let a = self.bind(&OPEN, args, kwargs)?;
        let get = |i: usize, _: &str| a.get(i);
        let file = get(0, "file").unwrap_or(Value::None);
        let p = match &file {
            Value::Str(s) => s.clone(),
            Value::Int(_) => return Err(self.unsupported("open() of a file descriptor")),
            other => {
                return Err(self.err(
                    ExcKind::TypeError,
                    format!("expected str, bytes or os.PathLike object, not {}", type_name(other)),
                ))
            }
        };
        let mode = match get(1, "mode") {
            Some(Value::Str(m)) => m.to_string(),
            None => "r".into(),
            Some(other) => {
                return Err(self.err(
                    ExcKind::TypeError,
                    format!("open() argument 'mode' must be str, not {}", type_name(&other)),
                ))
            }
        };
        if mode.chars().any(|c| !"rbt".contains(c)) || mode.is_empty() {
            if mode.chars().all(|c| "rwxabt+U".contains(c)) {
                return Err(
                    self.unsupported(format!("open() for writing (mode {})", str_repr(&mode)))
                );
            }
            return Err(self.err(ExcKind::ValueError, format!("invalid mode: {}", str_repr(&mode))));
        }
        let binary = mode.contains('b');
        let encoding = get(3, "encoding");
        let mut latin1 = false;
        // A codec of the provider, looked up once the file is found (as `TextIOWrapper` does).
        let mut provider_codec: Option<Str> = None;
        if let Some(Value::Str(enc)) = &encoding {
            if binary {
                return Err(
                    self.err(ExcKind::ValueError, "binary mode doesn't take an encoding argument")
                );
            }
            match crate::python::builtin_codec(enc) {
                Some(BuiltinCodec::Utf8) => {}
                Some(BuiltinCodec::Latin1) => latin1 = true,
                Some(BuiltinCodec::Utf8Sig | BuiltinCodec::Ascii) => {
                    return Err(self.unsupported(format!("open() with encoding {}", str_repr(enc))))
                }
                None => provider_codec = Some(enc.clone()),
            }
        }
        let errors: Str = match get(4, "errors") {
            Some(Value::Str(errs)) => errs,
            _ => Rc::from("strict"),
        };
        if &*errors != "strict" && provider_codec.is_none() {
            return Err(self.unsupported(format!("open() with errors={}", str_repr(&errors))));
        }
        let translate = !matches!(get(5, "newline"), Some(Value::Str(_)));
        if p.contains('\0') {
            return Err(self.err(ExcKind::ValueError, "embedded null byte"));
        }
        let real = match self.resolve(&p)? {
            Resolved::File(f) => f,
            Resolved::Dir(_) => {
                return Err(self.os_error(ExcKind::IsADirectoryError, 21, "Is a directory", &p))
            }
            other => return Err(self.lookup_error(&other, &p)),
        };
        let data = self.file_bytes(&real, &p)?;
        let codec = match provider_codec {
            Some(enc) => Some((self.find_codec(&enc)?, errors)),
            None => None,
        };
        // Latin-1 maps each byte to the code point of the same value.
        let text: Option<Str> = latin1.then(|| {
            let s: String = data.iter().map(|&b| char::from(b)).collect();
            let t: Str = if translate && s.contains('\r') {
                Rc::from(s.replace("\r\n", "\n").replace('\r', "\n"))
            } else {
                Rc::from(s)
            };
            crate::interp::memory::track_str(&t);
            t
        });
        Ok(Value::Native(Rc::new(Native::File(Mut::new(FileObj {
            name: p,
            binary,
            closed: false,
            data,
            pos: 0,
            text,
            translate_newlines: translate,
            codec,
        })))))
    }

    fn file_text(&mut self, f: &Mut<FileObj>) -> PyResult<'a, Str> {
        if let Some(t) = &f.borrow().text {
            return Ok(t.clone());
        }
        let (data, translate) = {
            let b = f.borrow();
            (b.data.clone(), b.translate_newlines)
        };
        self.charge((data.len() / 256) as u64)?;
        let key = (std::sync::Arc::as_ptr(&data).cast::<u8>() as usize, translate);
        if let Some((_, t)) = self.read_texts.get(&key) {
            // Handed out again only when no Python object holds it any more (besides this map,
            // only the parse cache may): then it is a new `str` object as far as Python can
            // tell, as every `read()` makes one in CPython, and `ast.parse` finds its tree by
            // identity ([`crate::interp::ParseCache::holds`]) without hashing the text again.
            let owners = 1 + usize::from(self.cache.borrow().holds(t));
            if Rc::strong_count(t) == owners {
                let t = t.clone();
                f.borrow_mut().text = Some(t.clone());
                return Ok(t);
            }
        }
        let codec = f.borrow().codec.clone();
        if let Some((codec, errors)) = codec {
            // Decoded whole, as `read()` decodes a file read from its start (the lines of a
            // broken file are decoded in 8 KiB chunks by CPython, so the positions its error
            // names can differ there).
            let Some(codecs) = self.codecs.clone() else {
                return Err(self.needs_codecs_error(&codec));
            };
            let s = match codecs.decode(&codec, &data, &errors) {
                Ok(s) => s,
                Err(e) => {
                    return Err(self
                        .codec_error(e, crate::interp::builtins::bytes::CodecInput::Bytes(&data)))
                }
            };
            let text = newlines_translated(&s, translate);
            f.borrow_mut().text = Some(text.clone());
            return Ok(text);
        }
        let s = match std::str::from_utf8(&data) {
            Ok(s) => s,
            Err(e) => return Err(self.utf8_error(&data, &e)),
        };
        let text = newlines_translated(s, translate);
        f.borrow_mut().text = Some(text.clone());
        // The map holds `data`, so its address names these bytes for the rest of the run.
        self.read_texts.insert(key, (data, text.clone()));
        Ok(text)
    }

    pub fn file_readline(&mut self, n: &Rc<Native<'a>>) -> PyResult<'a, Option<Value<'a>>> {
        let Native::File(f) = &**n else { return Ok(None) };
        if f.borrow().closed {
            return Err(self.err(ExcKind::ValueError, "I/O operation on closed file."));
        }
        if f.borrow().binary {
            let (data, pos) = (f.borrow().data.clone(), f.borrow().pos);
            if pos >= data.len() {
                return Ok(None);
            }
            let end =
                data[pos..].iter().position(|b| *b == b'\n').map_or(data.len(), |i| pos + i + 1);
            f.borrow_mut().pos = end;
            return Ok(Some(Value::bytes_rc(Rc::from(&data[pos..end]))));
        }
        let text = self.file_text(f)?;
        let pos = f.borrow().pos;
        if pos >= text.len() {
            return Ok(None);
        }
        let rest = &text[pos..];
        let end = if f.borrow().translate_newlines {
            rest.find('\n').map_or(rest.len(), |i| i + 1)
        } else {
            let mut e = rest.len();
            if let Some(i) = rest.find(['\n', '\r']) {
                e = if rest[i..].starts_with("\r\n") { i + 2 } else { i + 1 };
            }
            e
        };
        f.borrow_mut().pos = pos + end;
        Ok(Some(Value::str_rc(Rc::from(&rest[..end]))))
    }

    pub fn file_method(
        &mut self,
        n: Rc<Native<'a>>,
        name: &str,
        args: Vec<Value<'a>>,
    ) -> PyResult<'a, Value<'a>> {
        let Native::File(f) = &*n else { return Ok(Value::None) };
        match name {
            "close" => {
                f.borrow_mut().closed = true;
                return Ok(Value::None);
            }
            "__enter__" => return Ok(Value::Native(n.clone())),
            "__exit__" => {
                f.borrow_mut().closed = true;
                return Ok(Value::Bool(false));
            }
            "readable" => return Ok(Value::Bool(true)),
            _ => {}
        }
        if f.borrow().closed {
            return Err(self.err(ExcKind::ValueError, "I/O operation on closed file."));
        }
        match name {
            "read" => {
                let size = match args.first() {
                    Some(Value::Int(s)) if *s >= 0 => Some(*s as usize),
                    _ => None,
                };
                if f.borrow().binary {
                    let (data, pos) = (f.borrow().data.clone(), f.borrow().pos);
                    let end = size.map_or(data.len(), |s| (pos + s).min(data.len()));
                    f.borrow_mut().pos = end.max(pos);
                    return Ok(Value::bytes_rc(Rc::from(
                        &data[pos.min(data.len())..end.max(pos).min(data.len())],
                    )));
                }
                let text = self.file_text(f)?;
                let pos = f.borrow().pos.min(text.len());
                let end = match size {
                    None => text.len(),
                    Some(s) => {
                        text[pos..].char_indices().nth(s).map_or(text.len(), |(i, _)| pos + i)
                    }
                };
                f.borrow_mut().pos = end;
                if pos == 0 && end == text.len() {
                    return Ok(Value::Str(text));
                }
                Ok(Value::str_rc(Rc::from(&text[pos..end])))
            }
            "readline" => Ok(self.file_readline(&n)?.unwrap_or_else(|| {
                if f.borrow().binary {
                    Value::bytes_rc(Rc::from(&b""[..]))
                } else {
                    Value::str("")
                }
            })),
            "readlines" => {
                let mut out = Vec::new();
                while let Some(l) = self.file_readline(&n)? {
                    out.push(l);
                }
                Ok(self.new_list(out))
            }
            "seek" => {
                let p = match args.first() {
                    Some(Value::Int(p)) => *p as usize,
                    _ => 0,
                };
                f.borrow_mut().pos = p;
                Ok(Value::Int(p as i64))
            }
            _ => Err(self.unsupported(format!("file.{name}()"))),
        }
    }
}

/// A text file's contents as `read()` hands them out: universal newlines when `translate`
/// (`\r\n` and `\r` become `\n`). Held by the file object: charged like any str made.
fn newlines_translated(s: &str, translate: bool) -> Str {
    let text: Str = if translate && s.contains('\r') {
        Rc::from(s.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        Rc::from(s)
    };
    crate::interp::memory::track_str(&text);
    text
}
