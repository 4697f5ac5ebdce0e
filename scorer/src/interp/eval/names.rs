//! Name resolution and binding: loads through locals, enclosing scopes, globals and builtins
//! (with the load caches), stores, deletes, unpacking and augmented assignment.

use super::{start, Frame, FrameKind};
use crate::interp::ExcKind;
use crate::interp::PyResult;
use crate::interp::{Interp, Value};
use crate::python::syntax as ast;

impl<'a> Interp<'a> {
    // ------------------------------------------------------------------ names

    /// The value of `name` at a load site: `name` is the identifier in the syntax tree, so its
    /// address names the site for the global load cache.
    pub fn load_name(&mut self, f: &Frame<'a>, name: &'a str) -> PyResult<'a, Value<'a>> {
        match f.kind {
            FrameKind::Function => {
                // No enclosing function scope: a global or a builtin (`isinstance`, `ast` in a
                // test method), the same at this site until the globals change. The cache only
                // knows sites found not local, and whether a name is local is fixed by the syntax
                // tree, so it is asked first: unless the body bound a name its static analysis
                // missed (`ScopeInfo::missed_a_binding`), when its variables must be asked first.
                let top_level = f.locals.parent.is_none();
                let fixed = scopes_fixed(f);
                if fixed {
                    if let Some(v) = self.global_load_seen(name) {
                        return Ok(v);
                    }
                }
                // A function's variables hold only its locals, in slots (the site remembers its
                // slot), and names a missed binding form bound; then tell an unbound local from a
                // global or closure name.
                if f.locals.vars.laid_out_by(&f.info) {
                    match self.local_slot(f, name) {
                        Some(i) => {
                            if let Some(v) = f.locals.vars.slot(i) {
                                return Ok(v);
                            }
                        }
                        None if f.info.missed_a_binding() => {
                            if let Some(v) = f.locals.vars.get(name) {
                                return Ok(v);
                            }
                        }
                        None => {}
                    }
                } else if let Some(v) = f.locals.vars.get(name) {
                    return Ok(v);
                }
                if top_level && f.info.missed_a_binding() {
                    if let Some(v) = self.global_load_seen(name) {
                        return Ok(v);
                    }
                }
                if f.info.is_local(name) {
                    return Err(self.err(
                        ExcKind::UnboundLocalError,
                        format!("cannot access local variable '{name}' where it is not associated with a value"),
                    ));
                }
                if top_level {
                    return self.load_global(name);
                }
                if !f.info.globals.contains(name) {
                    let mut s = f.locals.parent.clone();
                    while let Some(sc) = s {
                        if let Some(v) = sc.vars.get(name) {
                            return Ok(v);
                        }
                        s = sc.parent.clone();
                    }
                }
                // Not local to any enclosing body either (so never will be): a global or builtin
                // for good, as at the top level.
                if fixed && !enclosing_may_bind(f, name) {
                    return self.load_global(name);
                }
            }
            FrameKind::Class => {
                let mut s = Some(f.locals.clone());
                while let Some(sc) = s {
                    if let Some(v) = sc.vars.get(name) {
                        return Ok(v);
                    }
                    s = sc.parent.clone();
                }
            }
            FrameKind::Module => {}
        }
        if let Some(v) = self.globals.vars.map().get(name) {
            return Ok(v.clone());
        }
        if let Some(v) = self.builtins.get(name) {
            return Ok(v.clone());
        }
        Err(self.err(ExcKind::NameError, format!("name '{name}' is not defined")))
    }

    /// A global or builtin load from a function body that [`Self::global_load_seen`] did not
    /// answer: looked up, and remembered for the site with the globals' version (builtins never
    /// change after `Interp::new`). A name that is neither is not remembered (NameError each time).
    pub(super) fn load_global(&mut self, name: &'a str) -> PyResult<'a, Value<'a>> {
        let version = self.globals.vars.version();
        let found = self.globals.vars.map().get(name).cloned();
        let Some(v) = found.or_else(|| self.builtins.get(name).cloned()) else {
            return Err(self.err(ExcKind::NameError, format!("name '{name}' is not defined")));
        };
        self.global_loads.put(name, version, v.clone());
        Ok(v)
    }

    /// The slot of local `name` (a site in the syntax tree) in the variables of `f`, laid out by
    /// `f.info`; `None` when it is not one of the body's locals. Remembered per site.
    #[inline]
    pub(super) fn local_slot(&mut self, f: &Frame<'a>, name: &'a str) -> Option<u32> {
        if let Some(slot) = self.local_sites.get(name, &f.info) {
            return (slot != crate::interp::loadcache::NOT_LOCAL).then_some(slot);
        }
        let slot = f.info.slot_of(name);
        self.local_sites.put(name, &f.info, slot.unwrap_or(crate::interp::loadcache::NOT_LOCAL));
        slot
    }

    /// Binds the name at a target site of the syntax tree: a local's slot directly, else as
    /// [`Self::store`] does.
    pub fn store_site(
        &mut self,
        f: &mut Frame<'a>,
        name: &'a str,
        v: Value<'a>,
    ) -> PyResult<'a, ()> {
        if f.kind == FrameKind::Function && f.locals.vars.laid_out_by(&f.info) {
            // A slot is never a `global` or `nonlocal` name: the analysis leaves those out.
            if let Some(i) = self.local_slot(f, name) {
                f.locals.vars.set_slot(i, v);
                return Ok(());
            }
        }
        self.store(f, name, v)
    }

    /// The value the load site `name` resolved to, if the globals have not changed since.
    pub(super) fn global_load_seen(&self, name: &'a str) -> Option<Value<'a>> {
        self.global_loads.get(name, self.globals.vars.version()).cloned()
    }

    pub fn store(&mut self, f: &mut Frame<'a>, name: &str, v: Value<'a>) -> PyResult<'a, ()> {
        if f.kind == FrameKind::Function {
            if f.info.globals.contains(name) {
                self.globals.vars.set(name, v);
                return Ok(());
            }
            if f.info.nonlocals.contains(name) {
                let mut s = f.locals.parent.clone();
                while let Some(sc) = s {
                    if sc.vars.contains(name) {
                        sc.vars.set(name, v);
                        return Ok(());
                    }
                    s = sc.parent.clone();
                }
                // A comprehension's walrus binding a name not yet set: the enclosing function's
                // scope, or the module's.
                match &f.locals.parent {
                    Some(p) => p.vars.set(name, v),
                    None => self.globals.vars.set(name, v),
                };
                return Ok(());
            }
        }
        f.locals.vars.set(name, v);
        Ok(())
    }

    pub(super) fn delete(&mut self, f: &mut Frame<'a>, t: &'a ast::Expr) -> PyResult<'a, ()> {
        match t {
            ast::Expr::Name(n) => {
                let removed =
                    if f.kind == FrameKind::Function && f.info.globals.contains(n.id.as_str()) {
                        self.globals.vars.remove(n.id.as_str())
                    } else {
                        f.locals.vars.remove(n.id.as_str())
                    };
                if removed.is_none() {
                    return Err(
                        self.err(ExcKind::NameError, format!("name '{}' is not defined", n.id))
                    );
                }
                Ok(())
            }
            ast::Expr::Subscript(s) => {
                let o = self.eval(f, &s.value)?;
                let k = self.eval(f, &s.slice)?;
                self.delitem(&o, &k)
            }
            ast::Expr::Attribute(a) => {
                let o = self.eval(f, &a.value)?;
                self.delattr(&o, a.attr.as_str())
            }
            ast::Expr::Tuple(t) => {
                for e in &t.elts {
                    self.delete(f, e)?;
                }
                Ok(())
            }
            ast::Expr::List(t) => {
                for e in &t.elts {
                    self.delete(f, e)?;
                }
                Ok(())
            }
            _ => Err(self.unsupported("del target")),
        }
    }

    pub fn assign(
        &mut self,
        f: &mut Frame<'a>,
        t: &'a ast::Expr,
        v: Value<'a>,
    ) -> PyResult<'a, ()> {
        match t {
            ast::Expr::Name(n) => self.store_site(f, n.id.as_str(), v),
            ast::Expr::Tuple(tu) => self.unpack(f, &tu.elts, v),
            ast::Expr::List(l) => self.unpack(f, &l.elts, v),
            ast::Expr::Attribute(a) => {
                let o = self.eval(f, &a.value)?;
                self.setattr(&o, a.attr.as_str(), v).map_err(|e| self.at(e, start(t)))
            }
            ast::Expr::Subscript(s) => {
                let o = self.eval(f, &s.value)?;
                let k = self.eval(f, &s.slice)?;
                self.setitem(&o, k, v).map_err(|e| self.at(e, start(t)))
            }
            ast::Expr::Starred(_) => Err(self
                .err(ExcKind::SyntaxError, "starred assignment target must be in a list or tuple")),
            _ => {
                Err(self
                    .unsupported(format!("assignment target (line {})", self.line_of(start(t)))))
            }
        }
    }

    pub(super) fn unpack(
        &mut self,
        f: &mut Frame<'a>,
        elts: &'a [ast::Expr],
        v: Value<'a>,
    ) -> PyResult<'a, ()> {
        let items = self.to_vec(&v).map_err(|e| {
            if self.is_exc(&e, ExcKind::TypeError) {
                self.err(
                    ExcKind::TypeError,
                    format!("cannot unpack non-iterable {} object", self.type_name(&v)),
                )
            } else {
                e
            }
        })?;
        let star = elts.iter().position(|e| matches!(e, ast::Expr::Starred(_)));
        match star {
            None => {
                if items.len() < elts.len() {
                    return Err(self.err(
                        ExcKind::ValueError,
                        format!(
                            "not enough values to unpack (expected {}, got {})",
                            elts.len(),
                            items.len()
                        ),
                    ));
                }
                if items.len() > elts.len() {
                    return Err(self.err(
                        ExcKind::ValueError,
                        format!("too many values to unpack (expected {})", elts.len()),
                    ));
                }
                for (t, v) in elts.iter().zip(items) {
                    self.assign(f, t, v)?;
                }
            }
            Some(si) => {
                let after = elts.len() - si - 1;
                if items.len() < elts.len() - 1 {
                    return Err(self.err(
                        ExcKind::ValueError,
                        format!(
                            "not enough values to unpack (expected at least {}, got {})",
                            elts.len() - 1,
                            items.len()
                        ),
                    ));
                }
                let mut items = items;
                let tail = items.split_off(items.len() - after);
                let mid = items.split_off(si);
                for (t, v) in elts[..si].iter().zip(items) {
                    self.assign(f, t, v)?;
                }
                if let ast::Expr::Starred(s) = &elts[si] {
                    self.assign(f, &s.value, self.new_list(mid))?;
                }
                for (t, v) in elts[si + 1..].iter().zip(tail) {
                    self.assign(f, t, v)?;
                }
            }
        }
        Ok(())
    }

    pub(super) fn aug_assign(
        &mut self,
        f: &mut Frame<'a>,
        a: &'a ast::StmtAugAssign,
    ) -> PyResult<'a, ()> {
        match &*a.target {
            ast::Expr::Name(n) => {
                let cur =
                    self.load_name(f, n.id.as_str()).map_err(|e| self.at(e, start(&*a.target)))?;
                let rhs = self.eval(f, &a.value)?;
                let nv = self.inplace_op(a.op, cur, rhs)?;
                self.store_site(f, n.id.as_str(), nv)
            }
            ast::Expr::Attribute(at) => {
                let o = self.eval(f, &at.value)?;
                let cur = self.getattr(&o, at.attr.as_str())?;
                let rhs = self.eval(f, &a.value)?;
                let nv = self.inplace_op(a.op, cur, rhs)?;
                self.setattr(&o, at.attr.as_str(), nv)
            }
            ast::Expr::Subscript(s) => {
                let o = self.eval(f, &s.value)?;
                let k = self.eval(f, &s.slice)?;
                let cur = self.getitem(&o, &k)?;
                let rhs = self.eval(f, &a.value)?;
                let nv = self.inplace_op(a.op, cur, rhs)?;
                self.setitem(&o, k, nv)
            }
            _ => Err(self.unsupported("augmented assignment target")),
        }
    }

    pub(super) fn inplace_op(
        &mut self,
        op: ast::Operator,
        cur: Value<'a>,
        rhs: Value<'a>,
    ) -> PyResult<'a, Value<'a>> {
        // Lists extend in place (`l += x` keeps identity).
        if let (ast::Operator::Add, Value::List(l)) = (op, &cur) {
            let items = self.to_vec(&rhs)?;
            self.check_len(l.borrow().len() + items.len())?;
            l.borrow_mut().extend(items);
            l.borrow().sync();
            return Ok(cur);
        }
        // `dict_ior`: `update` with anything it takes (a mapping, pairs), in place.
        if let (ast::Operator::BitOr, Value::Dict(d)) = (op, &cur) {
            self.dict_update(d, &rhs)?;
            return Ok(cur);
        }
        if let (ast::Operator::Mult, Value::List(l)) = (op, &cur) {
            // `list_inplace_repeat`: the list itself becomes the repetition.
            if crate::interp::ops::is_intlike(&rhs) {
                if let Value::List(made) = self.binop(op, &cur, &rhs)? {
                    let items = made.borrow_mut().take();
                    let mut items_now = l.borrow_mut();
                    items_now.clear();
                    items_now.extend(items);
                }
                l.borrow().sync();
                return Ok(cur);
            }
        }
        if let (
            ast::Operator::BitOr
            | ast::Operator::BitAnd
            | ast::Operator::Sub
            | ast::Operator::BitXor,
            Value::Set(s),
            Value::Set(_) | Value::FrozenSet(_),
        ) = (op, &cur, &rhs)
        {
            // `set_ior` and friends: in place, as 3.11 builds the table.
            if self.set_inplace_cpython(op, s, &rhs)? {
                return Ok(cur);
            }
        }
        // `set_ior` takes sets and frozensets only; anything else falls back to `|`.
        if let (ast::Operator::BitOr, Value::Set(s), Value::Set(_) | Value::FrozenSet(_)) =
            (op, &cur, &rhs)
        {
            let items = self.to_vec(&rhs)?;
            for it in items {
                self.set_add(s, it)?;
            }
            return Ok(cur);
        }
        self.binop(op, &cur, &rhs).map_err(|e| self.inplace_error(e, op, &cur, &rhs))
    }
}

/// Whether every body whose variables a name load in `f` can reach (its own and the enclosing
/// function bodies) binds only the names its static analysis found: then a site found global
/// stays global ([`Interp::global_load_seen`] may answer first).
fn scopes_fixed(f: &Frame<'_>) -> bool {
    if f.info.missed_a_binding() {
        return false;
    }
    let mut s = f.locals.parent.as_deref();
    while let Some(sc) = s {
        if !sc.vars.bindings_fixed() {
            return false;
        }
        s = sc.parent.as_deref();
    }
    true
}

/// Whether a body enclosing `f` has `name` among its locals (bound now or not).
fn enclosing_may_bind(f: &Frame<'_>, name: &str) -> bool {
    let mut s = f.locals.parent.as_deref();
    while let Some(sc) = s {
        if sc.vars.may_bind(name) {
            return true;
        }
        s = sc.parent.as_deref();
    }
    false
}
