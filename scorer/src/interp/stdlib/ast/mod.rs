//! The `ast` module as CPython 3.11 has it: node classes and their hierarchy, the deprecated aliases,
//! `parse`, `walk` (breadth-first), `iter_child_nodes`, `iter_fields`, `dump`, `get_docstring`,
//! `literal_eval`.
//!
//! This file holds the module object, `NodeVisitor` and the module's functions; the node objects
//! are in `nodes.rs`, `literal_eval` in `literal.rs`, `dump` in `dump.rs`, `unparse` in
//! `unparse.rs`.

use std::collections::VecDeque;
use std::rc::Rc;

use crate::interp::builtins::Sig;
use crate::interp::ExcKind;
use crate::python::node::{self, Constant, Field, Node, NodeClass};
use crate::python::syntax as pyast;

use crate::interp::eval::Kwargs;
use crate::interp::fmt::type_name;
use crate::interp::value::*;
use crate::interp::{Interp, PyErr, PyResult, Value};

mod dump;
mod literal;
mod nodes;
#[cfg(feature = "fast-parse")]
pub(crate) use nodes::{with_walk_skip, Pending, WalkSkip};
mod unparse;

use unparse::prec;

/// `ast` attributes that exist in 3.11 but are not implemented here: using one is an `error` naming it.
pub(crate) const KNOWN_UNSUPPORTED: &[&str] = &[
    "NodeTransformer",
    "copy_location",
    "fix_missing_locations",
    "increment_lineno",
    "main",
    "PyCF_ONLY_AST",
    "PyCF_TYPE_COMMENTS",
    "PyCF_ALLOW_TOP_LEVEL_AWAIT",
];

const FUNCS: &[&str] = &[
    "parse",
    "walk",
    "iter_child_nodes",
    "iter_fields",
    "dump",
    "get_docstring",
    "literal_eval",
    "get_source_segment",
    "unparse",
];

/// Fields whose ASDL type is optional (`?`): the class attribute is None in 3.11.
fn is_optional(class: &NodeClass, field: &str) -> bool {
    class.is_optional(field)
}

/// Name → class, built once (node::class is a linear scan).
fn ast_class(name: &str) -> Option<&'static NodeClass> {
    static TABLE: std::sync::OnceLock<std::collections::HashMap<&'static str, &'static NodeClass>> =
        std::sync::OnceLock::new();
    TABLE.get_or_init(|| node::CLASSES.iter().map(|c| (c.name, c)).collect()).get(name).copied()
}

/// `issubclass(a, b)` among AST classes.
pub(crate) fn class_is_subclass(a: AstCls, b: AstCls) -> bool {
    match (a, b) {
        (AstCls::Alias(x), AstCls::Alias(y)) => x == y,
        (AstCls::Alias(_), AstCls::Real(r)) => matches!(r.name, "Constant" | "expr" | "AST"),
        (AstCls::Real(_), AstCls::Alias(_)) => false,
        (AstCls::Real(x), AstCls::Real(y)) => real_subclass(x, y),
    }
}

fn real_subclass(x: &'static NodeClass, y: &'static NodeClass) -> bool {
    x.is_subclass_of(y)
}

/// `isinstance(v, cls)` for an AST class (aliases check the constant's type, as 3.11 does).
pub(crate) fn node_isinstance(v: &Value<'_>, cls: AstCls) -> bool {
    let Value::Node(n) = v else { return false };
    match cls {
        AstCls::Real(c) => real_subclass(n.class, c),
        AstCls::Alias(a) => {
            if n.class.name != "Constant" {
                return false;
            }
            let val = n.get(0);
            matches!(
                (a, val),
                (AstAlias::Str, Some(Value::Str(_)))
                    | (
                        AstAlias::Num,
                        Some(Value::Int(_) | Value::Big(_) | Value::Float(_) | Value::Complex(..))
                    )
                    | (AstAlias::Bytes, Some(Value::Bytes(_)))
                    | (AstAlias::NameConstant, Some(Value::None | Value::Bool(_)))
                    | (AstAlias::Ellipsis, Some(Value::Ellipsis))
            )
        }
    }
}

/// The docstring of a function body (for `__doc__`).
pub(crate) fn docstring_of_body(body: &[pyast::Stmt]) -> Option<String> {
    if let Some(pyast::Stmt::Expr(e)) = body.first() {
        if let pyast::Expr::Constant(c) = &*e.value {
            if let pyast::Constant::Str(s) = &c.value {
                return Some(s.clone());
            }
        }
    }
    None
}

/// `inspect.cleandoc`.
pub(crate) fn cleandoc(doc: &str) -> String {
    let expanded = doc.replace('\t', "        ");
    let lines: Vec<&str> = expanded.split('\n').collect();
    let mut margin = usize::MAX;
    for l in lines.iter().skip(1) {
        let content = l.trim_start_matches(' ').len();
        if content > 0 {
            margin = margin.min(l.len() - content);
        }
    }
    let mut out: Vec<String> = Vec::new();
    out.push(lines.first().map_or(String::new(), |l| l.trim_start_matches(' ').to_string()));
    for l in lines.iter().skip(1) {
        if margin < usize::MAX {
            out.push(l.get(margin.min(l.len())..).unwrap_or("").to_string());
        } else {
            out.push((*l).to_string());
        }
    }
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    while out.first().is_some_and(|l| l.is_empty()) {
        out.remove(0);
    }
    out.join("\n")
}

/// The `ast.parse` call from which CPython 3.11 runs it specialised: the 8th entry into its code
/// object quickens it, and its `compile` call is then made without the recursion check an
/// unspecialised call of a C function makes (measured with python3 3.11.7: the first seven
/// calls of a process convert trees three levels shallower, `COMPILER_STACK_FRAME_SCALE`).
pub(crate) const WARM_AFTER: u32 = 8;

impl<'a> Interp<'a> {
    pub fn make_ast_module(&mut self) -> Value<'a> {
        let mut entries: Vec<(&str, Value<'a>)> = Vec::new();
        for c in node::CLASSES {
            entries.push((c.name, Value::AstClass(AstCls::Real(c))));
        }
        for a in [
            AstAlias::Str,
            AstAlias::Num,
            AstAlias::Bytes,
            AstAlias::NameConstant,
            AstAlias::Ellipsis,
        ] {
            entries.push((a.name(), Value::AstClass(AstCls::Alias(a))));
        }
        entries.push(("NodeVisitor", Value::Class(self.node_visitor_class())));
        for f in FUNCS {
            let name: &'static str = match *f {
                "parse" => "ast.parse",
                "walk" => "ast.walk",
                "iter_child_nodes" => "ast.iter_child_nodes",
                "iter_fields" => "ast.iter_fields",
                "dump" => "ast.dump",
                "get_docstring" => "ast.get_docstring",
                "get_source_segment" => "ast.get_source_segment",
                "unparse" => "ast.unparse",
                _ => "ast.literal_eval",
            };
            entries.push((f, Self::builtin_fn(name)));
        }
        self.new_module("ast", entries)
    }

    fn node_visitor_class(&mut self) -> Rc<Class<'a>> {
        let mut dict = NameMap::default();
        for (m, full) in [
            ("visit", "NodeVisitor.visit"),
            ("generic_visit", "NodeVisitor.generic_visit"),
            ("visit_Constant", "NodeVisitor.visit_Constant"),
        ] {
            dict.insert(Rc::from(m), Value::Builtin(Rc::new(Builtin { name: full, this: None })));
        }
        let c = Class::builtin("NodeVisitor", "ast", dict, ClassKind::Native);
        c
    }

    /// `ast.NodeVisitor.visit` / `generic_visit` / `visit_Constant` (each counts as a Python frame).
    pub fn node_visitor_method(
        &mut self,
        name: &str,
        this: Value<'a>,
        args: Vec<Value<'a>>,
    ) -> PyResult<'a, Value<'a>> {
        let node = args.into_iter().next().unwrap_or(Value::None);
        self.check_depth()?;
        self.depth += 1;
        let r = self.node_visitor_inner(name, &this, node);
        self.depth -= 1;
        r
    }

    fn node_visitor_inner(
        &mut self,
        name: &str,
        this: &Value<'a>,
        node: Value<'a>,
    ) -> PyResult<'a, Value<'a>> {
        match name {
            "visit" => {
                let cname = match &node {
                    Value::Node(n) => n.class.name.to_string(),
                    other => type_name(other),
                };
                let m = match self.get_method(this, &format!("visit_{cname}")) {
                    Ok(m) => m,
                    Err(e) if !e.fatal && self.is_exc(&e, ExcKind::AttributeError) => {
                        self.get_method(this, "generic_visit")?
                    }
                    Err(e) => return Err(e),
                };
                self.call_meth(m, vec![node], vec![])
            }
            "generic_visit" => {
                let Value::Node(n) = &node else {
                    return Err(self.no_fields_error(&node));
                };
                let vals: Vec<Value<'a>> = n.fields().iter().flatten().cloned().collect();
                for v in vals {
                    match &v {
                        Value::List(l) => {
                            let items = l.borrow().clone();
                            for it in items {
                                if let Value::Node(_) = it {
                                    let m = self.get_method(this, "visit")?;
                                    self.call_meth(m, vec![it], vec![])?;
                                }
                            }
                        }
                        Value::Node(_) => {
                            let m = self.get_method(this, "visit")?;
                            self.call_meth(m, vec![v.clone()], vec![])?;
                        }
                        _ => {}
                    }
                }
                Ok(Value::None)
            }
            _ => {
                // visit_Constant: the deprecated visit_Str/visit_Num/... hooks still fire in 3.11.
                let value = self.getattr(&node, "value")?;
                let tn = match value {
                    Value::Bool(_) | Value::None => Some("NameConstant"),
                    Value::Int(_) | Value::Big(_) | Value::Float(_) | Value::Complex(..) => {
                        Some("Num")
                    }
                    Value::Str(_) => Some("Str"),
                    Value::Bytes(_) => Some("Bytes"),
                    Value::Ellipsis => Some("Ellipsis"),
                    _ => None,
                };
                if let Some(tn) = tn {
                    if let Ok(m) = self.getattr(this, &format!("visit_{tn}")) {
                        return self.call(&m, vec![node], vec![]);
                    }
                }
                let m = self.get_method(this, "generic_visit")?;
                self.call_meth(m, vec![node], vec![])
            }
        }
    }

    // ------------------------------------------------------------------ functions

    pub fn ast_function(
        &mut self,
        name: &str,
        args: Vec<Value<'a>>,
        kwargs: Kwargs<'a>,
    ) -> PyResult<'a, Value<'a>> {
        let sig = match name {
            "parse" => Sig::def("parse", &["source", "filename", "mode"], 1)
                .kwonly(&["type_comments", "feature_version"]),
            "unparse" => Sig::def("unparse", &["ast_obj"], 1),
            "get_source_segment" => {
                Sig::def("get_source_segment", &["source", "node"], 2).kwonly(&["padded"])
            }
            "walk" => Sig::def("walk", &["node"], 1),
            "iter_child_nodes" => Sig::def("iter_child_nodes", &["node"], 1),
            "iter_fields" => Sig::def("iter_fields", &["node"], 1),
            "dump" => Sig::def("dump", &["node", "annotate_fields", "include_attributes"], 1)
                .kwonly(&["indent"]),
            "get_docstring" => Sig::def("get_docstring", &["node", "clean"], 1),
            "literal_eval" => Sig::def("literal_eval", &["node_or_string"], 1),
            other => return Err(self.unsupported(format!("ast.{other}"))),
        };
        let a = self.bind(&sig, args, kwargs)?;
        let get = |i: usize, _: &str| a.get(i);
        match name {
            "parse" => {
                // `ast.parse` is a Python function: calling it takes a frame.
                self.check_depth()?;
                self.ast_parse_entries = self.ast_parse_entries.saturating_add(1);
                let cold = self.ast_parse_entries < WARM_AFTER;
                let src = get(0, "source").unwrap_or(Value::None);
                let filename = match get(1, "filename") {
                    Some(Value::Str(s)) => s.to_string(),
                    Some(other) => self.str_of(&other)?,
                    None => "<unknown>".to_string(),
                };
                if let Some(Value::Str(m)) = get(2, "mode") {
                    if &*m != "exec" {
                        return Err(self.unsupported(format!(
                            "ast.parse(mode={})",
                            crate::interp::fmt::str_repr(&m)
                        )));
                    }
                }
                if let Some(tc) = get(3, "type_comments") {
                    if self.truthy(&tc)? {
                        return Err(self.unsupported("ast.parse(type_comments=True)"));
                    }
                }
                // Bytes are decoded as CPython's tokenizer does (BOM, coding cookie).
                let mut decode_err = None;
                let text: Str = match &src {
                    Value::Str(s) => s.clone(),
                    // `compile` refuses NUL bytes before decoding (no location).
                    Value::Bytes(b) if b.contains(&0) => {
                        return Err(self.err(
                            ExcKind::SyntaxError,
                            "source code string cannot contain null bytes",
                        ));
                    }
                    Value::Bytes(b) => {
                        match crate::python::decode_source_with(b, self.codecs.as_deref()) {
                            Ok(s) => Rc::from(s),
                            Err(crate::python::DecodeFailure::Syntax(e)) => {
                                decode_err = Some(e);
                                // (positions, the error's end among them, on the text as
                                // decoded with replacement)
                                Rc::from(String::from_utf8_lossy(b).as_ref())
                            }
                            Err(crate::python::DecodeFailure::NeedsCodecs) => {
                                return Err(self.needs_codecs_error("coding cookie"));
                            }
                        }
                    }
                    Value::Node(_) => return Ok(src.clone()),
                    other => {
                        return Err(self.err(
                            ExcKind::TypeError,
                            format!(
                                "compile() arg 1 must be a string, bytes or AST object, not {}",
                                type_name(other)
                            ),
                        ))
                    }
                };
                // A string the parse cache holds passed this check when it was parsed.
                if !self.cache.borrow().holds(&text) && text.contains('\0') {
                    return Err(self.err(
                        ExcKind::SyntaxError,
                        "source code string cannot contain null bytes",
                    ));
                }
                self.charge((text.len() / 16) as u64)?;
                let parsed = match decode_err {
                    Some(e) => Err(e),
                    None => self.parse_cached(&text, &filename),
                };
                match parsed {
                    Ok((tree, depth, built)) => {
                        self.ast_construction_check(depth, cold)?;
                        self.charge(8)?;
                        Ok(match built {
                            Some(v) => v,
                            None => self.cached_to_value(&tree, &text, &filename),
                        })
                    }
                    Err(mut e) => {
                        let mut end = crate::python::error_end(&e, &text);
                        if let Value::Bytes(b) = &src {
                            let chars = e.offset;
                            if crate::python::bytes_error_columns(&mut e, b) {
                                let start = (e.lineno, chars, e.offset);
                                end = end.map(|end| crate::python::end_in_bytes(&text, end, start));
                            }
                        }
                        if let Value::Bytes(b) = &src {
                            // (after the columns: they count on the text the parser read)
                            crate::python::decoding_error_text(&mut e, b);
                        }
                        // (an error before the first line, the source's encoding: offset -1)
                        let offset = if e.lineno == 0 { -1 } else { i64::from(e.offset) };
                        let (end_lineno, end_offset) = match end {
                            Some((l, o)) => (Value::Int(i64::from(l)), Value::Int(o)),
                            None => (Value::None, Value::None),
                        };
                        let msg = e.to_string();
                        let mut details = vec![
                            Value::str(&e.filename),
                            Value::Int(i64::from(e.lineno)),
                            Value::Int(offset),
                            e.text.as_deref().map_or(Value::None, Value::str),
                        ];
                        if end.is_some() {
                            // (CPython's 6-tuple; without an end, its 4-tuple)
                            details.extend([end_lineno.clone(), end_offset.clone()]);
                        }
                        let details = Value::tuple(details);
                        let cls = match e.kind {
                            crate::python::ErrorKind::SyntaxError => ExcKind::SyntaxError,
                            crate::python::ErrorKind::IndentationError => ExcKind::IndentationError,
                            crate::python::ErrorKind::TabError => ExcKind::TabError,
                            crate::python::ErrorKind::RecursionError => ExcKind::RecursionError,
                            crate::python::ErrorKind::MemoryError => ExcKind::MemoryError,
                            crate::python::ErrorKind::UnicodeDecodeError => {
                                ExcKind::UnicodeDecodeError
                            }
                        };
                        let args = if matches!(
                            cls,
                            ExcKind::SyntaxError | ExcKind::IndentationError | ExcKind::TabError
                        ) {
                            vec![Value::str(&e.msg), details]
                        } else if e.msg.is_empty() {
                            vec![]
                        } else {
                            vec![Value::str(&e.msg)]
                        };
                        let err = self.err_args(cls, args, Some(msg));
                        if let Value::Instance(i) = &err.exc {
                            let mut d = i.dict.borrow_mut();
                            d.insert(Rc::from("msg"), Value::str(&e.msg));
                            d.insert(Rc::from("lineno"), Value::Int(i64::from(e.lineno)));
                            d.insert(Rc::from("offset"), Value::Int(offset));
                            d.insert(Rc::from("end_lineno"), end_lineno);
                            d.insert(Rc::from("end_offset"), end_offset);
                            d.insert(Rc::from("filename"), Value::str(&e.filename));
                            d.insert(
                                Rc::from("text"),
                                e.text.as_deref().map_or(Value::None, Value::str),
                            );
                        }
                        Err(err)
                    }
                }
            }
            "unparse" => {
                let node = get(0, "ast_obj").unwrap_or(Value::None);
                if !matches!(node, Value::Node(_)) {
                    return Err(self.unsupported("ast.unparse of a non-node"));
                }
                Ok(Value::str(&self.unparse(&node, prec::TEST)?))
            }
            "get_source_segment" => {
                let Some(Value::Str(source)) = get(0, "source") else {
                    return Err(self.unsupported("ast.get_source_segment of non-str source"));
                };
                let node = get(1, "node").unwrap_or(Value::None);
                let padded = match get(2, "padded") {
                    Some(v) => self.truthy(&v)?,
                    None => false,
                };
                // Missing or None positions give None, as in CPython.
                let mut pos = [0i64; 4];
                for (slot, attr) in
                    pos.iter_mut().zip(["lineno", "end_lineno", "col_offset", "end_col_offset"])
                {
                    match self.getattr(&node, attr) {
                        Ok(Value::Int(n)) => *slot = n,
                        Ok(_) => return Ok(Value::None),
                        Err(e) if e.fatal => return Err(e),
                        Err(_) => return Ok(Value::None),
                    }
                }
                let [lineno, end_lineno, col, end_col] = pos;
                self.charge((source.len() / 64) as u64)?;
                // Lines split on \r\n, \n and \r only (not form feeds), keeping their ends.
                let mut lines: Vec<&str> = Vec::new();
                let b = source.as_bytes();
                let mut st = 0;
                let mut i = 0;
                while i < b.len() {
                    if b[i] == b'\n' || b[i] == b'\r' {
                        let e = if b[i] == b'\r' && b.get(i + 1) == Some(&b'\n') {
                            i + 2
                        } else {
                            i + 1
                        };
                        lines.push(&source[st..e]);
                        st = e;
                        i = e;
                    } else {
                        i += 1;
                    }
                }
                if st < b.len() {
                    lines.push(&source[st..]);
                }
                let line = |n: i64| -> Option<&[u8]> {
                    usize::try_from(n - 1).ok().and_then(|n| lines.get(n)).map(|l| l.as_bytes())
                };
                let cut = |l: &[u8], a: i64, z: Option<i64>| -> String {
                    let a = (a.max(0) as usize).min(l.len());
                    let z = z.map_or(l.len(), |z| (z.max(0) as usize).min(l.len())).max(a);
                    String::from_utf8_lossy(&l[a..z]).into_owned()
                };
                let (Some(first), Some(last)) = (line(lineno), line(end_lineno)) else {
                    return Err(self.err(ExcKind::IndexError, "list index out of range"));
                };
                if lineno == end_lineno {
                    return Ok(Value::str(&cut(first, col, Some(end_col))));
                }
                let mut out = String::new();
                if padded {
                    let pre = cut(first, 0, Some(col));
                    out.extend(pre.chars().map(|c| if c == '\t' || c == '\x0c' { c } else { ' ' }));
                }
                out.push_str(&cut(first, col, None));
                for n in lineno + 1..end_lineno {
                    if let Some(l) = line(n) {
                        out.push_str(&String::from_utf8_lossy(l));
                    }
                }
                out.push_str(&cut(last, 0, Some(end_col)));
                Ok(Value::str(&out))
            }
            "walk" => {
                let n = get(0, "node").unwrap_or(Value::None);
                let mut q = VecDeque::new();
                q.push_back(n);
                Ok(Value::iter(PyIter::Walk(q)))
            }
            "iter_child_nodes" => {
                let n = get(0, "node").unwrap_or(Value::None);
                let kids = self.child_nodes(&n)?;
                Ok(Value::iter(PyIter::Owned { items: kids.into_iter() }))
            }
            "iter_fields" => {
                let n = get(0, "node").unwrap_or(Value::None);
                let Value::Node(nd) = &n else {
                    return Err(self.no_fields_error(&n));
                };
                let mut out = Vec::new();
                for (i, f) in nd.class.fields.iter().enumerate() {
                    if let Some(x) = nd.get(i) {
                        out.push(Value::tuple(vec![Value::str(f), x]));
                    }
                }
                Ok(Value::iter(PyIter::Owned { items: out.into_iter() }))
            }
            "dump" => {
                let n = get(0, "node").unwrap_or(Value::None);
                let annotate = match get(1, "annotate_fields") {
                    Some(v) => self.truthy(&v)?,
                    None => true,
                };
                let include_attrs = match get(2, "include_attributes") {
                    Some(v) => self.truthy(&v)?,
                    None => false,
                };
                let indent = match get(3, "indent") {
                    None | Some(Value::None) => None,
                    Some(Value::Int(i)) => Some(" ".repeat(i.max(0) as usize)),
                    Some(Value::Str(s)) => Some(s.to_string()),
                    Some(_) => None,
                };
                if !matches!(n, Value::Node(_)) {
                    return Err(self.err(
                        ExcKind::TypeError,
                        format!("expected AST, got {}", crate::interp::fmt::type_name(&n)),
                    ));
                }
                // `ast.dump` is a Python function (one frame), `_format` one more per value.
                self.check_depth()?;
                self.depth += 1;
                let r = self.dump(&n, 0, annotate, include_attrs, indent.as_deref());
                self.depth -= 1;
                Ok(Value::str_rc(Rc::from(r?.0)))
            }
            "get_docstring" => {
                let n = get(0, "node").unwrap_or(Value::None);
                let clean = match get(1, "clean") {
                    Some(v) => self.truthy(&v)?,
                    None => true,
                };
                let ok = match &n {
                    Value::Node(nd) => matches!(
                        nd.class.name,
                        "AsyncFunctionDef" | "FunctionDef" | "ClassDef" | "Module"
                    ),
                    _ => false,
                };
                if !ok {
                    let cname = crate::interp::fmt::str_repr(&type_name(&n));
                    return Err(
                        self.err(ExcKind::TypeError, format!("{cname} can't have docstrings"))
                    );
                }
                let body = self.getattr(&n, "body")?;
                let first = match &body {
                    Value::List(l) => l.borrow().first().cloned(),
                    _ => None,
                };
                let Some(first) = first else { return Ok(Value::None) };
                if !node_isinstance(
                    &first,
                    AstCls::Real(ast_class("Expr").unwrap_or(&node::CLASSES[0])),
                ) {
                    return Ok(Value::None);
                }
                let val = self.getattr(&first, "value")?;
                let Value::Node(vn) = &val else { return Ok(Value::None) };
                if vn.class.name != "Constant" {
                    return Ok(Value::None);
                }
                match self.getattr(&val, "value")? {
                    Value::Str(s) => Ok(Value::Str(if clean { Rc::from(cleandoc(&s)) } else { s })),
                    _ => Ok(Value::None),
                }
            }
            "literal_eval" => {
                let n = get(0, "node_or_string").unwrap_or(Value::None);
                let node = match &n {
                    Value::Str(s) => {
                        let t = s.trim_start_matches([' ', '\t']);
                        let tree = self.ast_function("parse", vec![Value::str(t)], vec![])?;
                        let body = self.getattr(&tree, "body")?;
                        let items = self.to_vec(&body)?;
                        match items.as_slice() {
                            [one] if matches!(one, Value::Node(x) if x.class.name == "Expr") => {
                                self.getattr(one, "value")?
                            }
                            _ => {
                                return Err(self.err(
                                    ExcKind::SyntaxError,
                                    "invalid syntax (<unknown>, line 1)",
                                ))
                            }
                        }
                    }
                    Value::Node(nd) if nd.class.name == "Expression" => self.getattr(&n, "body")?,
                    _ => n.clone(),
                };
                self.literal(&node)
            }
            other => Err(self.unsupported(format!("ast.{other}"))),
        }
    }
}
