//! The `ast` module as CPython 3.11 has it: node classes and their hierarchy, the deprecated aliases,
//! `parse`, `walk` (breadth-first), `iter_child_nodes`, `iter_fields`, `dump`, `get_docstring`,
//! `literal_eval`.

use std::collections::VecDeque;
use std::rc::Rc;

use crate::python::node::{self, Constant, Field, Node, NodeClass};
use crate::python::syntax as pyast;

use crate::interp::eval::Kwargs;
use crate::interp::fmt::type_name;
use crate::interp::value::*;
use crate::interp::{Interp, PyErr, PyResult, Value};

/// `ast` attributes that exist in 3.11 but are not implemented here: using one is an `error` naming it.
pub const KNOWN_UNSUPPORTED: &[&str] = &[
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
pub fn class_is_subclass(a: AstCls, b: AstCls) -> bool {
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
pub fn node_isinstance(v: &Value<'_>, cls: AstCls) -> bool {
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
pub fn docstring_of_body(body: &[pyast::Stmt]) -> Option<String> {
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
pub fn cleandoc(doc: &str) -> String {
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
pub const WARM_AFTER: u32 = 8;

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
        let c = Rc::new(Class {
            name: Rc::from("NodeVisitor"),
            qualname: Rc::from("NodeVisitor"),
            module: Rc::from("ast"),
            bases: vec![],
            mro: Mut::new(vec![]),
            dict: Mut::new(dict),
            kind: ClassKind::Native,
        });
        c.mro.borrow_mut().push(c.clone());
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
                    Err(e) if !e.fatal && self.is_exc(&e, "AttributeError") => {
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

    // ------------------------------------------------------------------ conversion

    pub fn node_to_value(&mut self, n: &Node) -> Value<'a> {
        let class = n.class;
        if class.fields.is_empty() && class.attributes.is_empty() {
            if let Some(i) = class.index() {
                if let Some(Some(v)) = self.singletons.get(i) {
                    return v.clone();
                }
                // Shared by every later `ast.parse` of the run, whichever method made it.
                let v = crate::interp::isolation::shared(|| {
                    Value::Node(Rc::new(NodeObj::blank(class)))
                });
                if self.singletons.len() <= i {
                    self.singletons.resize(i + 1, None);
                }
                self.singletons[i] = Some(v.clone());
                return v;
            }
        }
        let vals = n.fields.iter().map(|f| Some(self.field_to_value(f)));
        Value::Node(Rc::new(NodeObj::parsed(class, vals, n.loc)))
    }

    fn field_to_value(&mut self, f: &Field) -> Value<'a> {
        match f {
            Field::None => Value::None,
            Field::Node(n) => self.node_to_value(n),
            Field::List(items) => {
                Value::list(items.iter().map(|x| self.field_to_value(x)).collect())
            }
            Field::Str(s) => Value::Str(s.clone()),
            Field::Int(i) => Value::Int(*i),
            Field::Const(c) => const_to_value(c),
        }
    }

    // ------------------------------------------------------------------ attributes

    pub fn node_getattr(
        &mut self,
        v: &Value<'a>,
        n: &Rc<NodeObj<'a>>,
        name: &str,
    ) -> PyResult<'a, Value<'a>> {
        let class = n.class;
        if let Some(i) = n.index_of(name) {
            if let Some(x) = n.get(i) {
                return Ok(x);
            }
            if is_optional(class, name) {
                return Ok(Value::None);
            }
        }
        if let Some((_, x)) = n.extra().iter().find(|(k, _)| &**k == name) {
            return Ok(x.clone());
        }
        match name {
            "s" | "n" if class.name == "Constant" => {
                return Ok(n.get(0).unwrap_or(Value::None));
            }
            "__class__" => return Ok(Value::AstClass(AstCls::Real(class))),
            "_fields" => {
                return Ok(Value::tuple(class.fields.iter().map(|f| Value::str(f)).collect()))
            }
            "_attributes" => {
                return Ok(Value::tuple(class.attributes.iter().map(|f| Value::str(f)).collect()))
            }
            "__module__" => return Ok(Value::str("ast")),
            "__dict__" => {
                let d = Rc::new(Mut::new(PyDict::new()));
                let pairs: Vec<(Str, Value<'a>)> = class
                    .fields
                    .iter()
                    .chain(class.attributes.iter())
                    .zip(n.values())
                    .filter_map(|(k, v)| v.map(|v| (Rc::from(*k), v)))
                    .chain(n.extra().iter().cloned())
                    .collect();
                for (k, x) in pairs {
                    self.dict_set(&d, Value::Str(k), x)?;
                }
                return Ok(Value::Dict(d));
            }
            _ => {}
        }
        let _ = v;
        let mut e = self
            .err("AttributeError", format!("'{}' object has no attribute '{name}'", class.name));
        e.line = None;
        Err(e)
    }

    pub fn node_setattr(&mut self, n: &Rc<NodeObj<'a>>, name: &str, v: Value<'a>) {
        if let Some(i) = n.index_of(name) {
            n.set(i, Some(v));
            return;
        }
        let mut extra = n.extra_mut();
        if let Some(slot) = extra.iter_mut().find(|(k, _)| &**k == name) {
            slot.1 = v;
        } else {
            extra.push((Rc::from(name), v));
        }
    }

    pub fn node_delattr(&mut self, n: &Rc<NodeObj<'a>>, name: &str) -> bool {
        if let Some(i) = n.index_of(name) {
            return n.set(i, None).is_some();
        }
        let mut extra = n.extra_mut();
        let before = extra.len();
        extra.retain(|(k, _)| &**k != name);
        extra.len() != before
    }

    pub fn astclass_getattr(&mut self, c: AstCls, name: &str) -> PyResult<'a, Value<'a>> {
        match (c, name) {
            (_, "__name__" | "__qualname__") => Ok(Value::str(c.name())),
            (_, "__module__") => Ok(Value::str("ast")),
            (AstCls::Real(r), "_fields") => {
                Ok(Value::tuple(r.fields.iter().map(|f| Value::str(f)).collect()))
            }
            (AstCls::Real(r), "_attributes") => {
                Ok(Value::tuple(r.attributes.iter().map(|f| Value::str(f)).collect()))
            }
            (AstCls::Alias(AstAlias::Str), "_fields") => Ok(Value::tuple(vec![Value::str("s")])),
            (AstCls::Alias(AstAlias::Num), "_fields") => Ok(Value::tuple(vec![Value::str("n")])),
            (AstCls::Alias(AstAlias::Bytes), "_fields") => Ok(Value::tuple(vec![Value::str("s")])),
            (AstCls::Alias(AstAlias::NameConstant), "_fields") => {
                Ok(Value::tuple(vec![Value::str("value"), Value::str("kind")]))
            }
            (AstCls::Alias(AstAlias::Ellipsis), "_fields") => Ok(Value::tuple(vec![])),
            (AstCls::Real(r), "__bases__") => Ok(Value::tuple(
                r.base
                    .and_then(ast_class)
                    .map(|b| Value::AstClass(AstCls::Real(b)))
                    .into_iter()
                    .collect(),
            )),
            (AstCls::Real(r), "__mro__") => {
                let mut out = vec![Value::AstClass(AstCls::Real(r))];
                let mut cur = r.base;
                while let Some(b) = cur.and_then(ast_class) {
                    out.push(Value::AstClass(AstCls::Real(b)));
                    cur = b.base;
                }
                out.push(Value::Type(BType::Object));
                Ok(Value::tuple(out))
            }
            (AstCls::Real(r), f)
                if is_optional(r, f) && (r.fields.contains(&f) || r.attributes.contains(&f)) =>
            {
                Ok(Value::None)
            }
            _ => {
                let mut e = self.err(
                    "AttributeError",
                    format!("type object '{}' has no attribute '{name}'", c.name()),
                );
                e.line = None;
                Err(e)
            }
        }
    }

    /// `ast.X(...)` constructor.
    pub fn make_node(
        &mut self,
        c: AstCls,
        args: Vec<Value<'a>>,
        kwargs: Kwargs<'a>,
    ) -> PyResult<'a, Value<'a>> {
        let class = match c {
            AstCls::Real(r) => r,
            AstCls::Alias(_) => match ast_class("Constant") {
                Some(k) => k,
                None => return Err(self.unsupported("ast.Constant")),
            },
        };
        if let AstCls::Alias(_) = c {
            let val = args.into_iter().next().or_else(|| {
                kwargs
                    .iter()
                    .find(|(k, _)| matches!(&**k, "s" | "n" | "value"))
                    .map(|(_, v)| v.clone())
            });
            let n = Rc::new(NodeObj::blank(class));
            if let Some(v) = val {
                self.node_setattr(&n, "value", v);
            }
            self.node_setattr(&n, "kind", Value::None);
            return Ok(Value::Node(n));
        }
        if args.len() > class.fields.len() {
            return Err(self.err(
                "TypeError",
                format!(
                    "{} constructor takes at most {} positional argument{}",
                    class.name,
                    class.fields.len(),
                    if class.fields.len() == 1 { "" } else { "s" }
                ),
            ));
        }
        let n = Rc::new(NodeObj::blank(class));
        for (i, a) in args.into_iter().enumerate() {
            n.set(i, Some(a));
        }
        for (k, v) in kwargs {
            self.node_setattr(&n, &k, v);
        }
        Ok(Value::Node(n))
    }

    /// What CPython's `ast` helpers raise for a value that is not a node.
    fn no_fields_error(&self, v: &Value<'a>) -> Box<PyErr<'a>> {
        self.err("AttributeError", format!("'{}' object has no attribute '_fields'", type_name(v)))
    }

    /// Appends the direct AST children of a node to `out` (the `ast.walk` step).
    pub fn child_nodes_into(
        &mut self,
        v: &Value<'a>,
        out: &mut VecDeque<Value<'a>>,
    ) -> PyResult<'a, ()> {
        self.for_each_child(v, |c| out.push_back(c))
    }

    /// The direct AST children of a node, in `_fields` order (list fields in list order).
    pub fn child_nodes(&mut self, v: &Value<'a>) -> PyResult<'a, Vec<Value<'a>>> {
        let mut out = Vec::new();
        self.for_each_child(v, |c| out.push(c))?;
        Ok(out)
    }

    /// Calls `push` with each direct AST child of a node, in `_fields` order.
    fn for_each_child(&self, v: &Value<'a>, mut push: impl FnMut(Value<'a>)) -> PyResult<'a, ()> {
        let Value::Node(n) = v else {
            return Err(self.no_fields_error(v));
        };
        let vals = n.fields();
        for x in vals.iter().flatten() {
            match x {
                Value::Node(_) => push(x.clone()),
                Value::List(l) => {
                    for it in l.borrow().iter() {
                        if let Value::Node(_) = it {
                            push(it.clone());
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    // ------------------------------------------------------------------ functions

    pub fn ast_function(
        &mut self,
        name: &str,
        args: Vec<Value<'a>>,
        kwargs: Kwargs<'a>,
    ) -> PyResult<'a, Value<'a>> {
        let get = |i: usize, k: &str| -> Option<Value<'a>> {
            kwargs
                .iter()
                .find(|(n, _)| &**n == k)
                .map(|(_, v)| v.clone())
                .or_else(|| args.get(i).cloned())
        };
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
                    Value::Bytes(b) => match crate::python::decode_source(b) {
                        Ok(s) => Rc::from(s),
                        Err(e) => {
                            decode_err = Some(e);
                            Rc::from("")
                        }
                    },
                    Value::Node(_) => return Ok(src.clone()),
                    other => {
                        return Err(self.err(
                            "TypeError",
                            format!(
                                "compile() arg 1 must be a string, bytes or AST object, not {}",
                                type_name(other)
                            ),
                        ))
                    }
                };
                if text.contains('\0') {
                    return Err(
                        self.err("SyntaxError", "source code string cannot contain null bytes")
                    );
                }
                self.charge((text.len() / 16) as u64)?;
                let parsed = match decode_err {
                    Some(e) => Err(e),
                    None => self.parse_cached(&text, &filename),
                };
                match parsed {
                    Ok((tree, depth)) => {
                        self.ast_construction_check(depth, cold)?;
                        self.charge(8)?;
                        Ok(self.node_to_value(&tree))
                    }
                    Err(e) => {
                        let msg = e.to_string();
                        let details = Value::tuple(vec![
                            Value::Str(Rc::from(e.filename.as_str())),
                            Value::Int(i64::from(e.lineno)),
                            Value::Int(i64::from(e.offset)),
                            e.text.as_deref().map_or(Value::None, Value::str),
                        ]);
                        let cls = e.kind.name();
                        let args = if matches!(cls, "SyntaxError" | "IndentationError" | "TabError")
                        {
                            vec![Value::Str(Rc::from(e.msg.as_str())), details]
                        } else if e.msg.is_empty() {
                            vec![]
                        } else {
                            vec![Value::Str(Rc::from(e.msg.as_str()))]
                        };
                        let err = self.err_args(cls, args, Some(msg));
                        if let Value::Instance(i) = &err.exc {
                            let mut d = i.dict.borrow_mut();
                            d.insert(Rc::from("msg"), Value::Str(Rc::from(e.msg.as_str())));
                            d.insert(Rc::from("lineno"), Value::Int(i64::from(e.lineno)));
                            d.insert(Rc::from("offset"), Value::Int(i64::from(e.offset)));
                            d.insert(
                                Rc::from("filename"),
                                Value::Str(Rc::from(e.filename.as_str())),
                            );
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
                    return Err(self.err("IndexError", "list index out of range"));
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
                let indent =
                    match kwargs.iter().find(|(k, _)| &**k == "indent").map(|(_, v)| v.clone()) {
                        None | Some(Value::None) => None,
                        Some(Value::Int(i)) => Some(" ".repeat(i.max(0) as usize)),
                        Some(Value::Str(s)) => Some(s.to_string()),
                        Some(_) => None,
                    };
                if !matches!(n, Value::Node(_)) {
                    return Err(self.err(
                        "TypeError",
                        format!("expected AST, got {}", crate::interp::fmt::type_name(&n)),
                    ));
                }
                // `ast.dump` is a Python function (one frame), `_format` one more per value.
                self.check_depth()?;
                self.depth += 1;
                let r = self.dump(&n, 0, annotate, include_attrs, indent.as_deref());
                self.depth -= 1;
                Ok(Value::Str(Rc::from(r?.0)))
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
                    return Err(self.err("TypeError", format!("{cname} can't have docstrings")));
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
                                return Err(
                                    self.err("SyntaxError", "invalid syntax (<unknown>, line 1)")
                                )
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

    fn literal(&mut self, v: &Value<'a>) -> PyResult<'a, Value<'a>> {
        let Value::Node(n) = v else {
            let r = self.repr(v)?;
            return Err(self.err("ValueError", format!("malformed node or string: {r}")));
        };
        match n.class.name {
            "Constant" => self.getattr(v, "value"),
            "Tuple" | "List" | "Set" => {
                let elts = self.getattr(v, "elts")?;
                let mut out = Vec::new();
                for e in self.to_vec(&elts)? {
                    out.push(self.literal(&e)?);
                }
                Ok(match n.class.name {
                    "Tuple" => Value::tuple(out),
                    "List" => Value::list(out),
                    _ => Value::Set(self.new_set(out)?),
                })
            }
            "Dict" => {
                let keys = self.getattr(v, "keys")?;
                let vals = self.getattr(v, "values")?;
                let (ks, vs) = (self.to_vec(&keys)?, self.to_vec(&vals)?);
                let d = Rc::new(Mut::new(PyDict::new()));
                for (k, x) in ks.iter().zip(vs.iter()) {
                    let kk = self.literal(k)?;
                    let xx = self.literal(x)?;
                    self.dict_set(&d, kk, xx)?;
                }
                Ok(Value::Dict(d))
            }
            "UnaryOp" => {
                let op = self.getattr(v, "op")?;
                let operand = self.getattr(v, "operand")?;
                let x = self.literal(&operand)?;
                let is_num = matches!(
                    x,
                    Value::Int(_) | Value::Big(_) | Value::Float(_) | Value::Complex(..)
                );
                match &op {
                    Value::Node(o) if is_num && o.class.name == "USub" => {
                        self.unaryop(pyast::UnaryOp::USub, &x)
                    }
                    Value::Node(o) if is_num && o.class.name == "UAdd" => {
                        self.unaryop(pyast::UnaryOp::UAdd, &x)
                    }
                    _ => {
                        let lineno = self.getattr(v, "lineno").ok();
                        let r = self.repr(v)?;
                        Err(self.err("ValueError", malformed(lineno, &r)))
                    }
                }
            }
            "BinOp" => {
                // `1+2j`: a signed real number plus or minus a complex constant.
                let op = self.getattr(v, "op")?;
                let op = match &op {
                    Value::Node(o) if o.class.name == "Add" => Some(pyast::Operator::Add),
                    Value::Node(o) if o.class.name == "Sub" => Some(pyast::Operator::Sub),
                    _ => None,
                };
                let left = self.getattr(v, "left")?;
                let right = self.getattr(v, "right")?;
                let right_complex = matches!(&right, Value::Node(r) if r.class.name == "Constant")
                    && matches!(self.getattr(&right, "value")?, Value::Complex(..));
                let left_ok = match &left {
                    Value::Node(l) if matches!(l.class.name, "Constant" | "UnaryOp") => matches!(
                        self.literal(&left)?,
                        Value::Int(_) | Value::Big(_) | Value::Float(_)
                    ),
                    _ => false,
                };
                match op {
                    Some(op) if right_complex && left_ok => {
                        let (l, r) = (self.literal(&left)?, self.getattr(&right, "value")?);
                        self.binop(op, &l, &r)
                    }
                    _ => {
                        let lineno = self.getattr(v, "lineno").ok();
                        let r = self.repr(v)?;
                        Err(self.err("ValueError", malformed(lineno, &r)))
                    }
                }
            }
            "Call" => {
                let func = self.getattr(v, "func")?;
                let args = self.getattr(v, "args")?;
                let kws = self.getattr(v, "keywords")?;
                let is_set = matches!(&func, Value::Node(f) if f.class.name == "Name")
                    && matches!(self.getattr(&func, "id")?, Value::Str(s) if &*s == "set")
                    && self.to_vec(&args)?.is_empty()
                    && self.to_vec(&kws)?.is_empty();
                if is_set {
                    return Ok(Value::Set(self.new_set(vec![])?));
                }
                let lineno = self.getattr(v, "lineno").ok();
                let r = self.repr(v)?;
                Err(self.err("ValueError", malformed(lineno, &r)))
            }
            _ => {
                let lineno = self.getattr(v, "lineno").ok();
                let r = self.repr(v)?;
                Err(self.err("ValueError", malformed(lineno, &r)))
            }
        }
    }

    /// `ast.dump`'s `_format` (3.11): a Python frame per call, as CPython counts it for its
    /// recursion limit (a deep tree dumped from a deep helper fails where CPython's does).
    fn dump(
        &mut self,
        v: &Value<'a>,
        level: usize,
        annotate: bool,
        attrs: bool,
        indent: Option<&str>,
    ) -> PyResult<'a, (String, bool)> {
        self.dump_levels(1)?;
        self.depth += 1;
        let r = self.dump_inner(v, level, annotate, attrs, indent);
        self.depth -= 1;
        r
    }

    /// RecursionError if `_format` cannot go `n` levels deeper. Measured with python3 3.11.7
    /// (warm, after the interpreter specialised `ast.py`): a failure inside `ast.dump` reads
    /// "while calling a Python object", except in the `repr` of a leaf value.
    fn dump_levels(&self, n: u32) -> PyResult<'a, ()> {
        if self.cpython_depth() + n > self.limits.max_recursion
            || self.stack_used() > self.limits.stack_budget
        {
            return Err(self.err(
                "RecursionError",
                "maximum recursion depth exceeded while calling a Python object",
            ));
        }
        Ok(())
    }

    fn dump_inner(
        &mut self,
        v: &Value<'a>,
        level: usize,
        annotate: bool,
        attrs: bool,
        indent: Option<&str>,
    ) -> PyResult<'a, (String, bool)> {
        self.step()?;
        let (prefix, sep) = match indent {
            Some(ind) => {
                let p = format!("\n{}", ind.repeat(level + 1));
                (p.clone(), format!(",{p}"))
            }
            None => (String::new(), ", ".to_string()),
        };
        let level = level + 1;
        match v {
            Value::Node(n) => {
                let class = n.class;
                let mut args = Vec::new();
                let mut allsimple = true;
                let mut keywords = annotate;
                let vals = n.values();
                for (i, name) in class.fields.iter().enumerate() {
                    let Some(Some(x)) = vals.get(i) else {
                        keywords = true;
                        continue;
                    };
                    if x.is_none() && is_optional(class, name) {
                        keywords = true;
                        continue;
                    }
                    let (s, simple) = self.dump(x, level, annotate, attrs, indent)?;
                    allsimple = allsimple && simple;
                    if keywords {
                        args.push(format!("{name}={s}"));
                    } else {
                        args.push(s);
                    }
                }
                if attrs {
                    for (i, name) in class.attributes.iter().enumerate() {
                        let Some(Some(x)) = vals.get(class.fields.len() + i) else { continue };
                        if x.is_none() && is_optional(class, name) {
                            continue;
                        }
                        let (s, simple) = self.dump(x, level, annotate, attrs, indent)?;
                        allsimple = allsimple && simple;
                        args.push(format!("{name}={s}"));
                    }
                }
                if allsimple && args.len() <= 3 {
                    let empty = args.is_empty();
                    return Ok((format!("{}({})", class.name, args.join(", ")), empty));
                }
                Ok((format!("{}({prefix}{})", class.name, args.join(&sep)), false))
            }
            Value::List(l) => {
                let items = l.borrow().clone();
                if items.is_empty() {
                    return Ok(("[]".into(), true));
                }
                // `sep.join(_format(x, level)[0] for x in node)`: the C call of `join`, the
                // generator's frame and the C entry resuming it are three levels more.
                self.dump_levels(3)?;
                self.depth += 3;
                let mut parts = Vec::new();
                let mut failed = None;
                for x in &items {
                    match self.dump(x, level, annotate, attrs, indent) {
                        Ok((s, _)) => parts.push(s),
                        Err(e) => {
                            failed = Some(e);
                            break;
                        }
                    }
                }
                self.depth -= 3;
                if let Some(e) = failed {
                    return Err(e);
                }
                Ok((format!("[{prefix}{}]", parts.join(&sep)), false))
            }
            other => {
                // `repr(node)` enters CPython's recursion guard once more.
                if self.cpython_depth() >= self.limits.max_recursion {
                    return Err(self.err(
                        "RecursionError",
                        "maximum recursion depth exceeded while getting the repr of an object",
                    ));
                }
                Ok((self.repr(other)?, true))
            }
        }
    }
}

fn malformed(lineno: Option<Value<'_>>, r: &str) -> String {
    match lineno {
        Some(Value::Int(l)) => format!("malformed node or string on line {l}: {r}"),
        _ => format!("malformed node or string: {r}"),
    }
}

pub fn const_to_value<'a>(c: &Constant) -> Value<'a> {
    match c {
        Constant::None => Value::None,
        Constant::Bool(b) => Value::Bool(*b),
        Constant::Int(i) => num_traits::ToPrimitive::to_i64(i)
            .map_or_else(|| Value::from_bigint(i.clone()), Value::Int),
        Constant::Float(f) => Value::Float(*f),
        Constant::Complex { real, imag } => Value::Complex(*real, *imag),
        Constant::Str(s) => Value::Str(s.clone()),
        Constant::Bytes(b) => Value::Bytes(b.clone()),
        Constant::Ellipsis => Value::Ellipsis,
    }
}

/// `ast.unparse` precedence levels (CPython's `_Precedence`).
mod prec {
    pub const TUPLE: u8 = 1;
    pub const TEST: u8 = 3;
    pub const OR: u8 = 4;
    pub const AND: u8 = 5;
    pub const NOT: u8 = 6;
    pub const CMP: u8 = 7;
    pub const BOR: u8 = 9;
    pub const BXOR: u8 = 10;
    pub const BAND: u8 = 11;
    pub const SHIFT: u8 = 12;
    pub const ARITH: u8 = 13;
    pub const TERM: u8 = 14;
    pub const FACTOR: u8 = 15;
    pub const POWER: u8 = 16;
    pub const ATOM: u8 = 18;
}

impl<'a> Interp<'a> {
    fn ast_field(&mut self, n: &Value<'a>, f: &str) -> PyResult<'a, Value<'a>> {
        self.getattr(n, f)
    }

    fn ast_list(&mut self, n: &Value<'a>, f: &str) -> PyResult<'a, Vec<Value<'a>>> {
        let v = self.getattr(n, f)?;
        self.to_vec(&v)
    }

    fn ast_str(&mut self, n: &Value<'a>, f: &str) -> PyResult<'a, String> {
        let v = self.getattr(n, f)?;
        self.str_of(&v)
    }

    /// `ast.unparse` for the common expression and simple statement forms; other nodes are an
    /// `UnsupportedConstruct` (never a different text).
    pub fn unparse(&mut self, n: &Value<'a>, level: u8) -> PyResult<'a, String> {
        self.step()?;
        self.check_depth()?;
        let cls = type_name(n);
        let paren = |s: String, own: u8| if level > own { format!("({s})") } else { s };
        Ok(match cls.as_str() {
            "Name" => self.ast_str(n, "id")?,
            "Constant" => {
                let v = self.ast_field(n, "value")?;
                self.repr(&v)?
            }
            "Attribute" => {
                let v = self.ast_field(n, "value")?;
                format!("{}.{}", self.unparse(&v, prec::ATOM)?, self.ast_str(n, "attr")?)
            }
            "Subscript" => {
                let v = self.ast_field(n, "value")?;
                let s = self.ast_field(n, "slice")?;
                let inner = if type_name(&s) == "Tuple" {
                    let elts = self.ast_list(&s, "elts")?;
                    let mut parts = Vec::new();
                    for e in &elts {
                        parts.push(self.unparse(e, prec::TEST)?);
                    }
                    if parts.len() == 1 {
                        format!("{},", parts[0])
                    } else {
                        parts.join(", ")
                    }
                } else {
                    self.unparse(&s, prec::TUPLE)?
                };
                format!("{}[{inner}]", self.unparse(&v, prec::ATOM)?)
            }
            "BinOp" => {
                let op = self.ast_field(n, "op")?;
                let (sym, own) = match type_name(&op).as_str() {
                    "Add" => ("+", prec::ARITH),
                    "Sub" => ("-", prec::ARITH),
                    "Mult" => ("*", prec::TERM),
                    "MatMult" => ("@", prec::TERM),
                    "Div" => ("/", prec::TERM),
                    "FloorDiv" => ("//", prec::TERM),
                    "Mod" => ("%", prec::TERM),
                    "Pow" => ("**", prec::POWER),
                    "LShift" => ("<<", prec::SHIFT),
                    "RShift" => (">>", prec::SHIFT),
                    "BitOr" => ("|", prec::BOR),
                    "BitXor" => ("^", prec::BXOR),
                    _ => ("&", prec::BAND),
                };
                let (lp, rp) = if sym == "**" { (own + 1, own) } else { (own, own + 1) };
                let l = self.ast_field(n, "left")?;
                let r = self.ast_field(n, "right")?;
                let s = format!("{} {sym} {}", self.unparse(&l, lp)?, self.unparse(&r, rp)?);
                paren(s, own)
            }
            "UnaryOp" => {
                let op = self.ast_field(n, "op")?;
                let (sym, own) = match type_name(&op).as_str() {
                    "Not" => ("not ", prec::NOT),
                    "USub" => ("-", prec::FACTOR),
                    "UAdd" => ("+", prec::FACTOR),
                    _ => ("~", prec::FACTOR),
                };
                let o = self.ast_field(n, "operand")?;
                let s = format!("{sym}{}", self.unparse(&o, own)?);
                paren(s, own)
            }
            "BoolOp" => {
                let op = self.ast_field(n, "op")?;
                let (sym, own) =
                    if type_name(&op) == "And" { (" and ", prec::AND) } else { (" or ", prec::OR) };
                let vals = self.ast_list(n, "values")?;
                let mut parts = Vec::new();
                for (i, v) in vals.iter().enumerate() {
                    // CPython raises the level for each further operand.
                    let lv = own.saturating_add(1).saturating_add(i.min(255) as u8);
                    parts.push(self.unparse(v, lv)?);
                }
                paren(parts.join(sym), own)
            }
            "Compare" => {
                let l = self.ast_field(n, "left")?;
                let mut s = self.unparse(&l, prec::CMP + 1)?;
                let ops = self.ast_list(n, "ops")?;
                let comps = self.ast_list(n, "comparators")?;
                for (op, c) in ops.iter().zip(&comps) {
                    let sym = match type_name(op).as_str() {
                        "Eq" => "==",
                        "NotEq" => "!=",
                        "Lt" => "<",
                        "LtE" => "<=",
                        "Gt" => ">",
                        "GtE" => ">=",
                        "Is" => "is",
                        "IsNot" => "is not",
                        "In" => "in",
                        _ => "not in",
                    };
                    s = format!("{s} {sym} {}", self.unparse(c, prec::CMP + 1)?);
                }
                paren(s, prec::CMP)
            }
            "Call" => {
                let f = self.ast_field(n, "func")?;
                let mut parts = Vec::new();
                for a in self.ast_list(n, "args")? {
                    parts.push(self.unparse(&a, prec::TEST)?);
                }
                for k in self.ast_list(n, "keywords")? {
                    let v = self.ast_field(&k, "value")?;
                    let arg = self.ast_field(&k, "arg")?;
                    let vs = self.unparse(&v, prec::TEST)?;
                    parts.push(match arg {
                        Value::None => format!("**{vs}"),
                        a => format!("{}={vs}", self.str_of(&a)?),
                    });
                }
                format!("{}({})", self.unparse(&f, prec::ATOM)?, parts.join(", "))
            }
            "Starred" => {
                let v = self.ast_field(n, "value")?;
                format!("*{}", self.unparse(&v, prec::BOR)?)
            }
            "Tuple" | "List" | "Set" => {
                let elts = self.ast_list(n, "elts")?;
                let mut parts = Vec::new();
                for e in &elts {
                    parts.push(self.unparse(e, prec::TEST)?);
                }
                match cls.as_str() {
                    "List" => format!("[{}]", parts.join(", ")),
                    "Set" if parts.is_empty() => "{*()}".into(),
                    "Set" => format!("{{{}}}", parts.join(", ")),
                    _ => {
                        let inner = if parts.len() == 1 {
                            format!("{},", parts[0])
                        } else {
                            parts.join(", ")
                        };
                        if parts.is_empty() || level > prec::TUPLE {
                            format!("({inner})")
                        } else {
                            inner
                        }
                    }
                }
            }
            "Dict" => {
                let keys = self.ast_list(n, "keys")?;
                let vals = self.ast_list(n, "values")?;
                let mut parts = Vec::new();
                for (k, v) in keys.iter().zip(&vals) {
                    let vs = self.unparse(v, prec::TEST)?;
                    parts.push(match k {
                        Value::None => format!("**{}", self.unparse(v, prec::BOR)?),
                        k => format!("{}: {vs}", self.unparse(k, prec::TEST)?),
                    });
                }
                format!("{{{}}}", parts.join(", "))
            }
            "arg" => {
                let name = self.ast_str(n, "arg")?;
                match self.ast_field(n, "annotation")? {
                    Value::None => name,
                    a => format!("{name}: {}", self.unparse(&a, prec::TEST)?),
                }
            }
            "arguments" => self.unparse_arguments(n)?,
            "Assign" => {
                let mut s = String::new();
                for t in self.ast_list(n, "targets")? {
                    s.push_str(&self.unparse(&t, prec::TUPLE)?);
                    s.push_str(" = ");
                }
                let v = self.ast_field(n, "value")?;
                s.push_str(&self.unparse(&v, prec::TUPLE)?);
                s
            }
            "AugAssign" => {
                let t = self.ast_field(n, "target")?;
                let op = self.ast_field(n, "op")?;
                let v = self.ast_field(n, "value")?;
                let sym = match type_name(&op).as_str() {
                    "Add" => "+",
                    "Sub" => "-",
                    "Mult" => "*",
                    "Div" => "/",
                    "FloorDiv" => "//",
                    "Mod" => "%",
                    "Pow" => "**",
                    other => return Err(self.unsupported(format!("ast.unparse of {other}="))),
                };
                format!(
                    "{} {sym}= {}",
                    self.unparse(&t, prec::TUPLE)?,
                    self.unparse(&v, prec::TUPLE)?
                )
            }
            "Return" => match self.ast_field(n, "value")? {
                Value::None => "return".into(),
                v => format!("return {}", self.unparse(&v, prec::TUPLE)?),
            },
            "Expr" => {
                let v = self.ast_field(n, "value")?;
                self.unparse(&v, prec::TUPLE)?
            }
            "Pass" => "pass".into(),
            "Break" => "break".into(),
            "Continue" => "continue".into(),
            other => return Err(self.unsupported(format!("ast.unparse of {other}"))),
        })
    }

    fn unparse_arguments(&mut self, n: &Value<'a>) -> PyResult<'a, String> {
        let posonly = self.ast_list(n, "posonlyargs")?;
        let args = self.ast_list(n, "args")?;
        let defaults = self.ast_list(n, "defaults")?;
        let kwonly = self.ast_list(n, "kwonlyargs")?;
        let kw_defaults = self.ast_list(n, "kw_defaults")?;
        let vararg = self.ast_field(n, "vararg")?;
        let kwarg = self.ast_field(n, "kwarg")?;
        let mut parts = Vec::new();
        let all: Vec<Value<'a>> = posonly.iter().chain(&args).cloned().collect();
        let first_default = all.len().saturating_sub(defaults.len());
        for (i, a) in all.iter().enumerate() {
            let mut s = self.unparse(a, prec::TEST)?;
            if i >= first_default {
                let d = self.unparse(&defaults[i - first_default], prec::TEST)?;
                let annotated = !self.ast_field(a, "annotation")?.is_none();
                s = if annotated { format!("{s} = {d}") } else { format!("{s}={d}") };
            }
            parts.push(s);
            if !posonly.is_empty() && i + 1 == posonly.len() {
                parts.push("/".into());
            }
        }
        if !vararg.is_none() {
            parts.push(format!("*{}", self.unparse(&vararg, prec::TEST)?));
        } else if !kwonly.is_empty() {
            parts.push("*".into());
        }
        for (a, d) in kwonly.iter().zip(kw_defaults.iter().map(Some).chain(std::iter::repeat(None)))
        {
            let mut s = self.unparse(a, prec::TEST)?;
            if let Some(d) = d.filter(|d| !d.is_none()) {
                let ds = self.unparse(d, prec::TEST)?;
                let annotated = !self.ast_field(a, "annotation")?.is_none();
                s = if annotated { format!("{s} = {ds}") } else { format!("{s}={ds}") };
            }
            parts.push(s);
        }
        if !kwarg.is_none() {
            parts.push(format!("**{}", self.unparse(&kwarg, prec::TEST)?));
        }
        Ok(parts.join(", "))
    }
}
