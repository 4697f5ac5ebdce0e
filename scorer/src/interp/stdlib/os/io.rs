//! `open` and the file objects it returns (`read`, `readline`, iteration, `with`), reading the
//! tree through the `os` module's recording accessors.

use super::*;
use crate::codec::CodecError;
use crate::interp::builtins::bytes::CodecInput;
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
        let mut ascii = false;
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
                Some(BuiltinCodec::Ascii) => ascii = true,
                Some(BuiltinCodec::Utf8Sig) => {
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
            // (decoded here, not by the provider)
            None if ascii => Some(("ascii".to_string(), errors)),
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
            chunked: None,
        })))))
    }

    /// The file's whole text, or `None` when it does not decode whole: then it is read as
    /// CPython's `TextIOWrapper` reads it, in chunks (`FileObj::chunked`, set up here).
    fn file_text(&mut self, f: &Mut<FileObj>) -> PyResult<'a, Option<Str>> {
        if f.borrow().chunked.is_some() {
            return Ok(None);
        }
        if let Some(t) = &f.borrow().text {
            return Ok(Some(t.clone()));
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
                return Ok(Some(t));
            }
        }
        let codec = f.borrow().codec.clone();
        if let Some((codec, errors)) = codec {
            // Decoded whole (as `read()` decodes a file read from its start, and as the chunks
            // decode when they all do).
            let s = if codec == "ascii" {
                if !data.is_ascii() {
                    return Ok(self.start_chunked(f));
                }
                String::from_utf8_lossy(&data).into_owned()
            } else {
                let Some(codecs) = self.codecs.clone() else {
                    return Err(self.needs_codecs_error(&codec));
                };
                match codecs.decode(&codec, &data, &errors) {
                    Ok(s) => s,
                    Err(CodecError::Codec { .. }) => return Ok(self.start_chunked(f)),
                    Err(e) => {
                        return Err(self.codec_error(e, CodecInput::Bytes(&data)));
                    }
                }
            };
            let text = newlines_translated(&s, translate);
            f.borrow_mut().text = Some(text.clone());
            return Ok(Some(text));
        }
        let Ok(s) = std::str::from_utf8(&data) else {
            return Ok(self.start_chunked(f));
        };
        let text = newlines_translated(s, translate);
        f.borrow_mut().text = Some(text.clone());
        // The map holds `data`, so its address names these bytes for the rest of the run.
        self.read_texts.insert(key, (data, text.clone()));
        Ok(Some(text))
    }

    /// A file that does not decode whole is read in chunks from here on (`None`, for
    /// [`Self::file_text`]).
    fn start_chunked(&mut self, f: &Mut<FileObj>) -> Option<Str> {
        let mut b = f.borrow_mut();
        let codec = b.codec.clone();
        b.chunked = Some(Box::new(ChunkedText { raw: b.pos, codec, ..ChunkedText::default() }));
        None
    }

    /// `input` through the file's incremental decoder: the text and how many bytes it used
    /// (an incomplete sequence at the end is held back unless `last`). Errors name positions
    /// in `input`, as CPython's do.
    fn decode_piece(
        &mut self,
        codec: Option<&(String, Str)>,
        input: &[u8],
        last: bool,
    ) -> PyResult<'a, (String, usize)> {
        let Some((name, errors)) = codec else {
            return match std::str::from_utf8(input) {
                Ok(s) => Ok((s.to_string(), input.len())),
                Err(e) if e.error_len().is_none() && !last => {
                    let used = e.valid_up_to();
                    Ok((String::from_utf8_lossy(&input[..used]).into_owned(), used))
                }
                Err(e) => Err(self.utf8_error(input, &e)),
            };
        };
        if name == "ascii" {
            return match input.iter().position(|b| !b.is_ascii()) {
                None => Ok((String::from_utf8_lossy(input).into_owned(), input.len())),
                Some(k) => {
                    let e = CodecError::Codec {
                        encoding: "ascii".into(),
                        start: k,
                        end: k + 1,
                        reason: "ordinal not in range(128)".into(),
                    };
                    Err(self.codec_error(e, CodecInput::Bytes(input)))
                }
            };
        }
        let Some(codecs) = self.codecs.clone() else {
            return Err(self.needs_codecs_error(name));
        };
        match codecs.decode(name, input, errors) {
            Ok(s) => Ok((s, input.len())),
            Err(CodecError::Codec { start, end, reason, .. })
                if !last
                    && end == input.len()
                    && matches!(
                        reason.as_str(),
                        "unexpected end of data"
                            | "truncated data"
                            | "incomplete multibyte sequence"
                    ) =>
            {
                let head = &input[..start];
                match codecs.decode(name, head, errors) {
                    Ok(s) => Ok((s, start)),
                    Err(e) => Err(self.codec_error(e, CodecInput::Bytes(head))),
                }
            }
            Err(e) => Err(self.codec_error(e, CodecInput::Bytes(input))),
        }
    }

    /// `TextIOWrapper._read_chunk`: the next chunk of the file (8 KiB, or `read(n)`'s size by
    /// the last chunk's bytes per character) through the decoder and the newline decoder, its
    /// text added to what is not handed out yet. `false` at the end of the file. A chunk that
    /// does not decode is consumed all the same (the decoder keeps what it held back).
    fn read_chunk(&mut self, f: &Mut<FileObj>, size_hint: usize) -> PyResult<'a, bool> {
        let (data, translate) = {
            let b = f.borrow();
            (b.data.clone(), b.translate_newlines)
        };
        let Some((raw, ratio, mut input, codec)) = f
            .borrow()
            .chunked
            .as_ref()
            .map(|c| (c.raw, c.b2cratio, c.pending.clone(), c.codec.clone()))
        else {
            return Ok(false);
        };
        let size = if size_hint > 0 {
            CHUNK_SIZE.max((ratio.max(1.0) * size_hint as f64) as usize)
        } else {
            CHUNK_SIZE
        };
        let end = raw.saturating_add(size).min(data.len()).max(raw);
        let chunk = data.get(raw..end).unwrap_or_default();
        let last = chunk.is_empty();
        input.extend_from_slice(chunk);
        if let Some(c) = f.borrow_mut().chunked.as_mut() {
            c.raw = end;
        }
        let (s, used) = self.decode_piece(codec.as_ref(), &input, last)?;
        let mut b = f.borrow_mut();
        let Some(c) = b.chunked.as_mut() else { return Ok(false) };
        if raw == 0 && used > 0 {
            // After its byte order mark, a UTF-16 / UTF-32 stream decodes in that order.
            if let Some((name, errors)) = &codec {
                let le = |bom: &[u8]| input.starts_with(bom);
                let order = match name.as_str() {
                    "utf_16" if le(b"\xfe\xff") => Some("utf_16_be"),
                    "utf_16" => Some("utf_16_le"),
                    "utf_32" if le(b"\x00\x00\xfe\xff") => Some("utf_32_be"),
                    "utf_32" => Some("utf_32_le"),
                    _ => None,
                };
                if let Some(order) = order {
                    c.codec = Some((order.to_string(), errors.clone()));
                }
            }
        }
        c.pending = input.split_off(used);
        let out = newline_decode(c, s, last, translate);
        let chars = out.chars().count();
        c.b2cratio = if chars > 0 { chunk.len() as f64 / chars as f64 } else { 0.0 };
        c.decoded.push_str(&out);
        Ok(!last)
    }

    /// `readline` of a file read in chunks: chunks are decoded until a line ends (the text
    /// put aside meanwhile is lost when a chunk does not decode, as in CPython).
    fn chunked_readline(&mut self, f: &Mut<FileObj>) -> PyResult<'a, Option<Value<'a>>> {
        let translate = f.borrow().translate_newlines;
        loop {
            let partial = {
                let mut b = f.borrow_mut();
                let Some(c) = b.chunked.as_mut() else { return Ok(None) };
                if let Some(end) = line_end(&c.decoded, translate) {
                    let line: String = c.decoded.drain(..end).collect();
                    return Ok(Some(Value::str_rc(Rc::from(line))));
                }
                std::mem::take(&mut c.decoded)
            };
            let more = self.read_chunk(f, 0)?;
            let mut b = f.borrow_mut();
            let Some(c) = b.chunked.as_mut() else { return Ok(None) };
            c.decoded.insert_str(0, &partial);
            if !more {
                let rest = std::mem::take(&mut c.decoded);
                return Ok((!rest.is_empty()).then(|| Value::str_rc(Rc::from(rest))));
            }
        }
    }

    /// `read(size)` of a file read in chunks: the rest decoded at once (as its last input), or
    /// chunks until `size` characters are there.
    fn chunked_read(&mut self, f: &Mut<FileObj>, size: Option<usize>) -> PyResult<'a, Value<'a>> {
        let Some(n) = size else {
            let (data, translate) = {
                let b = f.borrow();
                (b.data.clone(), b.translate_newlines)
            };
            let Some((raw, mut input, codec)) =
                f.borrow().chunked.as_ref().map(|c| (c.raw, c.pending.clone(), c.codec.clone()))
            else {
                return Ok(Value::str(""));
            };
            input.extend_from_slice(data.get(raw..).unwrap_or_default());
            if let Some(c) = f.borrow_mut().chunked.as_mut() {
                c.raw = data.len().max(raw);
            }
            let (s, _) = self.decode_piece(codec.as_ref(), &input, true)?;
            let mut b = f.borrow_mut();
            let Some(c) = b.chunked.as_mut() else { return Ok(Value::str("")) };
            c.pending.clear();
            let out = newline_decode(c, s, true, translate);
            let mut text = std::mem::take(&mut c.decoded);
            text.push_str(&out);
            return Ok(Value::str_rc(Rc::from(text)));
        };
        let take = |f: &Mut<FileObj>, k: usize| -> String {
            let mut b = f.borrow_mut();
            let Some(c) = b.chunked.as_mut() else { return String::new() };
            let end = c.decoded.char_indices().nth(k).map_or(c.decoded.len(), |(i, _)| i);
            c.decoded.drain(..end).collect()
        };
        let mut text = take(f, n);
        let mut remaining = n - text.chars().count();
        while remaining > 0 {
            if !self.read_chunk(f, remaining)? {
                break;
            }
            let got = take(f, remaining);
            remaining -= got.chars().count();
            text.push_str(&got);
        }
        Ok(Value::str_rc(Rc::from(text)))
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
        let Some(text) = self.file_text(f)? else { return self.chunked_readline(f) };
        let pos = f.borrow().pos;
        if pos >= text.len() {
            return Ok(None);
        }
        let rest = &text[pos..];
        let end = line_end(rest, f.borrow().translate_newlines).unwrap_or(rest.len());
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
                let Some(text) = self.file_text(f)? else { return self.chunked_read(f, size) };
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
                let codec = f.borrow().codec.clone();
                if let Some(c) = f.borrow_mut().chunked.as_mut() {
                    **c = ChunkedText { raw: p, codec, ..ChunkedText::default() };
                }
                Ok(Value::Int(p as i64))
            }
            _ => Err(self.unsupported(format!("file.{name}()"))),
        }
    }
}

/// CPython's `TextIOWrapper._CHUNK_SIZE`.
const CHUNK_SIZE: usize = 8192;

/// Where the first line of `s` ends (after its line break), if one does: `\n` when newlines
/// are translated, else `\n`, `\r\n` or `\r`.
fn line_end(s: &str, translated: bool) -> Option<usize> {
    if translated {
        return s.find('\n').map(|i| i + 1);
    }
    let i = s.find(['\n', '\r'])?;
    Some(if s[i..].starts_with("\r\n") { i + 2 } else { i + 1 })
}

/// `IncrementalNewlineDecoder.decode`: a `\r` ending a chunk's text is held back (its `\n` may
/// start the next chunk) unless `last`; then universal newlines become `\n` when `translate`.
fn newline_decode(c: &mut ChunkedText, s: String, last: bool, translate: bool) -> String {
    let mut out = String::with_capacity(s.len() + 1);
    if c.pending_cr && (!s.is_empty() || last) {
        out.push('\r');
        c.pending_cr = false;
    }
    out.push_str(&s);
    if !last && out.ends_with('\r') {
        out.pop();
        c.pending_cr = true;
    }
    if translate && out.contains('\r') {
        out = out.replace("\r\n", "\n").replace('\r', "\n");
    }
    out
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
