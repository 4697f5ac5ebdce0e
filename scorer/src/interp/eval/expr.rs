//! Expressions: the evaluator's fast and slow paths, constants (cached per site), f-strings
//! and the elements of displays.

use super::{start, Frame};
use crate::interp::value::*;
use crate::interp::ExcKind;
use crate::interp::PyResult;
use crate::interp::{Interp, Value};
use crate::python::syntax as ast;
use std::rc::Rc;

impl<'a> Interp<'a> {
    // ------------------------------------------------------------------ expressions

    pub fn eval(&mut self, f: &mut Frame<'a>, e: &'a ast::Expr) -> PyResult<'a, Value<'a>> {
        match self.eval_inner(f, e) {
            Ok(v) => Ok(v),
            Err(err) => {
                if err.line.is_none() {
                    let off = self.expr_line_offset(e);
                    return Err(self.at(err, off));
                }
                Err(err)
            }
        }
    }

    /// Common expressions inline, the rest in [`Self::eval_slow`] (small frames on the recursive path).
    pub(super) fn eval_inner(
        &mut self,
        f: &mut Frame<'a>,
        e: &'a ast::Expr,
    ) -> PyResult<'a, Value<'a>> {
        use ast::Expr as E;
        self.step()?;
        if self.stack_used() > self.limits.stack_budget {
            return Err(self.err(ExcKind::RecursionError, "maximum recursion depth exceeded"));
        }
        match e {
            E::Name(n) => self.load_name(f, n.id.as_str()),
            E::Constant(c) => Ok(self.cached_constant(&c.value)),
            E::Attribute(a) => {
                let o = self.eval(f, &a.value)?;
                if let Value::Module(m) = &o {
                    if let Some(v) = self.module_attr(m, a.attr.as_str()) {
                        return Ok(v);
                    }
                }
                self.getattr(&o, a.attr.as_str())
            }
            E::Call(c) => self.eval_call(f, c),
            _ => self.eval_mid(f, e),
        }
    }

    /// A module's attribute named at a site (`ast.FunctionDef` in every `ast.walk` filter), found
    /// at the index the site remembers when that entry still has the name, else by hashing;
    /// `None` when the namespace lacks it ([`Self::getattr`] then answers as before).
    pub(super) fn module_attr(&mut self, m: &Rc<Module<'a>>, site: &'a str) -> Option<Value<'a>> {
        let owner = Rc::as_ptr(m) as usize;
        let d = m.dict.borrow();
        if let Some(i) = self.module_attrs.get(site, owner) {
            if let Some((k, v)) = d.get_index(i) {
                if **k == *site {
                    return Some(v.clone());
                }
            }
        }
        let (i, _, v) = d.get_full(site)?;
        self.module_attrs.put(site, owner, i);
        Some(v.clone())
    }

    #[inline(never)]
    pub(super) fn eval_mid(
        &mut self,
        f: &mut Frame<'a>,
        e: &'a ast::Expr,
    ) -> PyResult<'a, Value<'a>> {
        use ast::Expr as E;
        match e {
            E::Compare(c) => {
                let mut left = self.eval(f, &c.left)?;
                let n = c.ops.len();
                for (k, (op, right)) in c.ops.iter().zip(c.comparators.iter()).enumerate() {
                    let r = self.eval(f, right)?;
                    // A rich comparison's own result is the value (of the last, or of the
                    // first that is false in a chain); `in`/`is` give bools.
                    let v = match op {
                        ast::CmpOp::In | ast::CmpOp::NotIn | ast::CmpOp::Is | ast::CmpOp::IsNot => {
                            Value::Bool(self.compare(*op, &left, &r)?)
                        }
                        _ => self.rich_compare(*op, &left, &r)?,
                    };
                    if k + 1 == n {
                        return Ok(v);
                    }
                    let t = match v {
                        Value::Bool(t) => t,
                        ref other => self.truthy(other)?,
                    };
                    if !t {
                        return Ok(v);
                    }
                    left = r;
                }
                Ok(Value::Bool(true))
            }
            E::BoolOp(b) => {
                let is_and = matches!(b.op, ast::BoolOp::And);
                let mut last = Value::None;
                for v in &b.values {
                    last = self.eval(f, v)?;
                    let t = self.truthy(&last)?;
                    if is_and != t {
                        return Ok(last);
                    }
                }
                Ok(last)
            }
            E::UnaryOp(u) => {
                let v = self.eval(f, &u.operand)?;
                self.unaryop(u.op, &v)
            }
            E::BinOp(b) => {
                let l = self.eval(f, &b.left)?;
                let r = self.eval(f, &b.right)?;
                self.binop(b.op, &l, &r)
            }
            E::IfExp(i) => {
                let t = self.eval(f, &i.test)?;
                if self.truthy(&t)? {
                    self.eval(f, &i.body)
                } else {
                    self.eval(f, &i.orelse)
                }
            }
            E::Subscript(s) => {
                let o = self.eval(f, &s.value)?;
                let k = self.eval(f, &s.slice)?;
                self.getitem(&o, &k)
            }
            _ => self.eval_slow(f, e),
        }
    }

    #[inline(never)]
    pub(super) fn eval_slow(
        &mut self,
        f: &mut Frame<'a>,
        e: &'a ast::Expr,
    ) -> PyResult<'a, Value<'a>> {
        use ast::Expr as E;
        match e {
            E::List(l) => {
                let items = self.eval_elts(f, &l.elts)?;
                Ok(self.new_list(items))
            }
            E::Tuple(t) => Ok(Value::tuple(self.eval_elts(f, &t.elts)?)),
            E::Set(s) => {
                let items = self.eval_elts(f, &s.elts)?;
                let set = self.new_dict();
                for it in items {
                    self.set_add(&set, it)?;
                }
                // Three or more constants: 3.11 builds the set from a folded frozenset
                // (`-1` is a constant too: the AST optimizer folds it); a `for` iterable of
                // constants is that frozenset. The module's plan says how it was built.
                let folded = |e: &ast::Expr| match e {
                    ast::Expr::Constant(_) => true,
                    ast::Expr::UnaryOp(u) => matches!(&*u.operand, ast::Expr::Constant(_)),
                    _ => false,
                };
                let plan = self.set_plans.get(&(s as *const ast::ExprSet as usize));
                if plan.is_some() || (s.elts.len() > 2 && s.elts.iter().all(folded)) {
                    let pin = crate::interp::cpyhash::display_order(&set.borrow(), plan);
                    set.borrow_mut().pinned = pin;
                }
                Ok(Value::Set(set))
            }
            E::Dict(d) => {
                let dict = self.new_dict();
                for (k, v) in d.keys.iter().zip(d.values.iter()) {
                    match k {
                        Some(k) => {
                            let kv = self.eval(f, k)?;
                            let vv = self.eval(f, v)?;
                            self.dict_set(&dict, kv, vv)?;
                        }
                        None => {
                            let other = self.eval(f, v)?;
                            let Value::Dict(o) = &other else {
                                return Err(self.err(
                                    ExcKind::TypeError,
                                    format!("'{}' object is not a mapping", self.type_name(&other)),
                                ));
                            };
                            let pairs: Vec<_> =
                                o.borrow().iter().map(|(a, b)| (a.clone(), b.clone())).collect();
                            for (a, b) in pairs {
                                self.dict_set(&dict, a, b)?;
                            }
                        }
                    }
                }
                Ok(Value::Dict(dict))
            }
            E::Slice(s) => {
                let mut parts = [Value::None, Value::None, Value::None];
                for (i, p) in [&s.lower, &s.upper, &s.step].into_iter().enumerate() {
                    if let Some(p) = p {
                        parts[i] = self.eval(f, p)?;
                    }
                }
                Ok(Value::Slice(Rc::new(parts)))
            }
            E::JoinedStr(j) => {
                let mut out = String::new();
                for part in &j.values {
                    match part {
                        E::Constant(c) => {
                            if let ast::Constant::Str(s) = &c.value {
                                out.push_str(s);
                            }
                        }
                        E::FormattedValue(fv) => out.push_str(&self.formatted_value(f, fv)?),
                        other => {
                            let v = self.eval(f, other)?;
                            out.push_str(&self.str_of(&v)?);
                        }
                    }
                }
                self.check_len(out.len())?;
                Ok(Value::str_rc(Rc::from(out)))
            }
            E::FormattedValue(fv) => Ok(Value::str_rc(Rc::from(self.formatted_value(f, fv)?))),
            E::Lambda(l) => {
                let func =
                    self.make_function(f, "<lambda>", &l.args, FuncBody::Expr(&l.body), None)?;
                Ok(Value::Func(func))
            }
            E::GeneratorExp(g) => self.make_gen(f, e, GenElt::One(&g.elt), &g.generators),
            E::ListComp(l) => {
                let g = self.make_gen(f, e, GenElt::One(&l.elt), &l.generators)?;
                let items = self.drain(&g)?;
                Ok(self.new_list(items))
            }
            E::SetComp(l) => {
                let g = self.make_gen(f, e, GenElt::One(&l.elt), &l.generators)?;
                let items = self.drain(&g)?;
                let set = self.new_dict();
                for it in items {
                    self.set_add(&set, it)?;
                }
                Ok(Value::Set(set))
            }
            E::DictComp(d) => {
                let g = self.make_gen(f, e, GenElt::Pair(&d.key, &d.value), &d.generators)?;
                let items = self.drain(&g)?;
                let dict = self.new_dict();
                for it in items {
                    if let Value::Tuple(t) = it {
                        self.dict_set(&dict, t[0].clone(), t[1].clone())?;
                    }
                }
                Ok(Value::Dict(dict))
            }
            E::NamedExpr(n) => {
                let v = self.eval(f, &n.value)?;
                self.assign(f, &n.target, v.clone())?;
                Ok(v)
            }
            E::Starred(_) => {
                Err(self.err(ExcKind::SyntaxError, "can't use starred expression here"))
            }
            E::Name(_)
            | E::Constant(_)
            | E::Attribute(_)
            | E::Call(_)
            | E::Compare(_)
            | E::BoolOp(_)
            | E::UnaryOp(_)
            | E::BinOp(_)
            | E::IfExp(_)
            | E::Subscript(_) => Err(self.unsupported("expression dispatch")),
            E::Yield(y) if !self.yield_sinks.is_empty() => {
                let v = match &y.value {
                    Some(x) => self.eval(f, x)?,
                    None => Value::None,
                };
                let n = self.yield_sinks.last().map_or(0, Vec::len);
                self.check_len(n + 1)?;
                if let Some(s) = self.yield_sinks.last_mut() {
                    s.push(v);
                }
                Ok(Value::None)
            }
            E::YieldFrom(y) if !self.yield_sinks.is_empty() => {
                let src = self.eval(f, &y.value)?;
                let it = self.get_iter(&src)?;
                while let Some(v) = self.next(&it)? {
                    let n = self.yield_sinks.last().map_or(0, Vec::len);
                    self.check_len(n + 1)?;
                    if let Some(s) = self.yield_sinks.last_mut() {
                        s.push(v);
                    }
                }
                Ok(Value::None)
            }
            E::Await(_) | E::Yield(_) | E::YieldFrom(_) => Err(self
                .unsupported(format!("yield/await expression (line {})", self.line_of(start(e))))),
        }
    }

    pub(super) fn drain(&mut self, g: &Value<'a>) -> PyResult<'a, Vec<Value<'a>>> {
        let mut out = Vec::new();
        while let Some(v) = self.next(g)? {
            out.push(v);
            self.check_len(out.len())?;
        }
        Ok(out)
    }

    /// A constant of the test source; str/bytes/int values are built once per node.
    #[inline(never)]
    pub(super) fn cached_constant(&mut self, c: &ast::Constant) -> Value<'a> {
        match c {
            ast::Constant::None => Value::None,
            ast::Constant::Bool(b) => Value::Bool(*b),
            other => {
                let key = other as *const ast::Constant as usize;
                if let Some(v) = self.const_cache.get(&key) {
                    return v.clone();
                }
                let v = self.constant(other);
                self.const_cache.insert(key, v.clone());
                v
            }
        }
    }

    pub fn constant(&mut self, c: &ast::Constant) -> Value<'a> {
        match c {
            ast::Constant::None => Value::None,
            ast::Constant::Bool(b) => Value::Bool(*b),
            ast::Constant::Str(s) => Value::str_rc(Rc::from(s.as_str())),
            ast::Constant::Bytes(b) => Value::bytes_rc(Rc::from(b.as_slice())),
            ast::Constant::Int(i) => Value::from_bigint(i.clone()),
            ast::Constant::Float(x) => Value::Float(*x),
            ast::Constant::Tuple(t) => Value::tuple(t.iter().map(|c| self.constant(c)).collect()),
            ast::Constant::Ellipsis => Value::Ellipsis,
            ast::Constant::Complex { real, imag } => Value::Complex(*real, *imag),
        }
    }

    pub(super) fn formatted_value(
        &mut self,
        f: &mut Frame<'a>,
        fv: &'a ast::ExprFormattedValue,
    ) -> PyResult<'a, String> {
        let v = self.eval(f, &fv.value)?;
        let v = match fv.conversion {
            ast::ConversionFlag::None => v,
            ast::ConversionFlag::Str => Value::str_rc(Rc::from(self.str_of(&v)?)),
            ast::ConversionFlag::Repr => Value::str_rc(Rc::from(self.repr(&v)?)),
            ast::ConversionFlag::Ascii => {
                Value::str_rc(Rc::from(crate::interp::fmt::ascii_escape(&self.repr(&v)?)))
            }
        };
        let spec = match &fv.format_spec {
            Some(s) => {
                let sv = self.eval(f, s)?;
                self.str_of(&sv)?
            }
            None => String::new(),
        };
        // `PyObject_Format` calls `__format__` (one recursion level) unless `v` is a str or int.
        if matches!(v, Value::Str(_) | Value::Int(_) | Value::Big(_)) {
            return self.format_value(&v, &spec);
        }
        self.c_level(" while calling a Python object", |it| it.format_value(&v, &spec))
    }

    pub(super) fn eval_elts(
        &mut self,
        f: &mut Frame<'a>,
        elts: &'a [ast::Expr],
    ) -> PyResult<'a, Vec<Value<'a>>> {
        let mut out = Vec::with_capacity(elts.len());
        for e in elts {
            if let ast::Expr::Starred(s) = e {
                let v = self.eval(f, &s.value)?;
                out.extend(self.to_vec(&v)?);
            } else {
                out.push(self.eval(f, e)?);
            }
        }
        self.check_len(out.len())?;
        Ok(out)
    }
}
