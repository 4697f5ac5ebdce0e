//! Static scope analysis: the names a function body binds (CPython's symbol table: locals,
//! `global` and `nonlocal` declarations), computed once per body before it first runs, and the
//! [`ScopeInfo`] that holds the answer with its slot numbering and name filter.

use std::rc::Rc;

use crate::python::syntax as ast;

use super::value::{NameMap, NameSet, Str};

/// Names a function body binds, computed statically as CPython's symbol table does.
/// Built once, then shared read-only (`Rc`): `locals` must not change after [`Self::is_local`]
/// or [`Self::slot_of`] was first asked (the filter and the slot numbering are made then).
#[derive(Default)]
pub struct ScopeInfo {
    pub locals: NameSet,
    pub globals: NameSet,
    pub nonlocals: NameSet,
    /// The union of [`name_bits`] of `locals`, made on first use (0 = not made yet).
    locals_filter: std::cell::Cell<u64>,
    /// Set when a frame of this body bound a name `locals` lacks (a binding form the static
    /// analysis does not know): from then on a name load asks the frame's variables before the
    /// global load cache, whose entries assume `locals` is complete.
    missed_binding: std::cell::Cell<bool>,
    /// The slot of each of `locals` in a frame's [`Vars`](super::value::vars::Vars), made on first use.
    slots: std::cell::OnceCell<NameMap<u32>>,
}

impl ScopeInfo {
    /// Whether `name` is one of the scope's locals. Most names a function body loads that are not
    /// in its variables are globals and builtins (`ast`, `isinstance`): the filter answers
    /// those without hashing the name; a filter hit is confirmed in the set.
    pub fn is_local(&self, name: &str) -> bool {
        if self.locals.is_empty() {
            return false;
        }
        let mut filter = self.locals_filter.get();
        if filter == 0 {
            filter = self.locals.iter().fold(0, |acc, n| acc | name_bits(n));
            self.locals_filter.set(filter);
        }
        let bits = name_bits(name);
        filter & bits == bits && self.locals.contains(name)
    }

    /// The slot a frame of this body keeps local `name` in (`None`: not one of `locals`).
    #[inline]
    pub fn slot_of(&self, name: &str) -> Option<u32> {
        if self.locals.is_empty() {
            return None;
        }
        let slots = self
            .slots
            .get_or_init(|| self.locals.iter().zip(0u32..).map(|(n, i)| (n.clone(), i)).collect());
        slots.get(name).copied()
    }

    /// Whether a frame of this body bound a name that [`Self::is_local`] denies.
    pub fn missed_a_binding(&self) -> bool {
        self.missed_binding.get()
    }

    pub fn note_missed_binding(&self) {
        self.missed_binding.set(true);
    }
}

/// Two of 64 bits picked from a name's length and first and last bytes (a Bloom filter's key:
/// equal names give equal bits, so a name whose bits are not all in a filter is not in its set).
fn name_bits(name: &str) -> u64 {
    let b = name.as_bytes();
    let first = u64::from(b.first().copied().unwrap_or(0));
    let last = u64::from(b.last().copied().unwrap_or(0));
    let h = (b.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ first.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
        ^ last.wrapping_mul(0x1656_67B1_9E37_79F9);
    (1 << (h >> 58)) | (1 << ((h >> 52) & 63))
}

/// Names bound by a function body (CPython's "local" symbols), and its global/nonlocal declarations.
pub(crate) fn collect_locals(body: &[ast::Stmt], info: &mut ScopeInfo) {
    for s in body {
        collect_stmt(s, info);
    }
    let globals: Vec<Str> = info.globals.iter().cloned().collect();
    for g in globals.iter().chain(info.nonlocals.clone().iter()) {
        info.locals.remove(g);
    }
}

fn collect_stmt(s: &ast::Stmt, info: &mut ScopeInfo) {
    use ast::Stmt as S;
    match s {
        S::FunctionDef(d) => {
            info.locals.insert(Rc::from(d.name.as_str()));
            for dec in &d.decorator_list {
                collect_expr_binds(dec, info);
            }
        }
        S::AsyncFunctionDef(d) => {
            info.locals.insert(Rc::from(d.name.as_str()));
        }
        S::ClassDef(c) => {
            info.locals.insert(Rc::from(c.name.as_str()));
        }
        S::Assign(a) => {
            for t in &a.targets {
                collect_target_names(t, &mut info.locals);
            }
            collect_expr_binds(&a.value, info);
        }
        S::AugAssign(a) => {
            collect_target_names(&a.target, &mut info.locals);
            collect_expr_binds(&a.value, info);
        }
        S::For(f) => {
            collect_target_names(&f.target, &mut info.locals);
            collect_expr_binds(&f.iter, info);
            collect_locals_nested(&f.body, info);
            collect_locals_nested(&f.orelse, info);
        }
        S::AsyncFor(f) => {
            collect_target_names(&f.target, &mut info.locals);
            collect_expr_binds(&f.iter, info);
            collect_locals_nested(&f.body, info);
            collect_locals_nested(&f.orelse, info);
        }
        S::While(w) => {
            collect_expr_binds(&w.test, info);
            collect_locals_nested(&w.body, info);
            collect_locals_nested(&w.orelse, info);
        }
        S::If(i) => {
            collect_expr_binds(&i.test, info);
            collect_locals_nested(&i.body, info);
            collect_locals_nested(&i.orelse, info);
        }
        S::With(w) => {
            for it in &w.items {
                collect_expr_binds(&it.context_expr, info);
                if let Some(v) = &it.optional_vars {
                    collect_target_names(v, &mut info.locals);
                }
            }
            collect_locals_nested(&w.body, info);
        }
        S::AsyncWith(w) => {
            for it in &w.items {
                if let Some(v) = &it.optional_vars {
                    collect_target_names(v, &mut info.locals);
                }
            }
            collect_locals_nested(&w.body, info);
        }
        S::Try(t) => {
            collect_locals_nested(&t.body, info);
            for h in &t.handlers {
                let ast::ExceptHandler::ExceptHandler(h) = h;
                if let Some(n) = &h.name {
                    info.locals.insert(Rc::from(n.as_str()));
                }
                collect_locals_nested(&h.body, info);
            }
            collect_locals_nested(&t.orelse, info);
            collect_locals_nested(&t.finalbody, info);
        }
        S::TryStar(t) => {
            collect_locals_nested(&t.body, info);
            for h in &t.handlers {
                let ast::ExceptHandler::ExceptHandler(h) = h;
                if let Some(n) = &h.name {
                    info.locals.insert(Rc::from(n.as_str()));
                }
                collect_locals_nested(&h.body, info);
            }
            collect_locals_nested(&t.orelse, info);
            collect_locals_nested(&t.finalbody, info);
        }
        S::Import(i) => {
            for a in &i.names {
                let n = a.asname.as_ref().map_or_else(
                    || a.name.split('.').next().unwrap_or("").to_string(),
                    |x| x.to_string(),
                );
                info.locals.insert(Rc::from(n));
            }
        }
        S::ImportFrom(i) => {
            for a in &i.names {
                let n = a.asname.as_ref().unwrap_or(&a.name);
                info.locals.insert(Rc::from(n.as_str()));
            }
        }
        S::Global(g) => {
            for n in &g.names {
                info.globals.insert(Rc::from(n.as_str()));
            }
        }
        S::Nonlocal(g) => {
            for n in &g.names {
                info.nonlocals.insert(Rc::from(n.as_str()));
            }
        }
        S::Delete(d) => {
            for t in &d.targets {
                collect_target_names(t, &mut info.locals);
            }
        }
        S::Expr(e) => collect_expr_binds(&e.value, info),
        S::Return(r) => {
            if let Some(v) = &r.value {
                collect_expr_binds(v, info);
            }
        }
        S::Match(m) => {
            collect_expr_binds(&m.subject, info);
            for c in &m.cases {
                collect_pattern_names(&c.pattern, &mut info.locals);
                if let Some(g) = &c.guard {
                    collect_expr_binds(g, info);
                }
                collect_locals_nested(&c.body, info);
            }
        }
        S::AnnAssign(a) => {
            collect_target_names(&a.target, &mut info.locals);
            if let Some(v) = &a.value {
                collect_expr_binds(v, info);
            }
        }
        S::Assert(a) => {
            collect_expr_binds(&a.test, info);
            if let Some(m) = &a.msg {
                collect_expr_binds(m, info);
            }
        }
        S::Raise(r) => {
            for e in r.exc.iter().chain(r.cause.iter()) {
                collect_expr_binds(e, info);
            }
        }
        _ => {}
    }
}

/// Names a `case` pattern captures (they bind in the enclosing function scope).
fn collect_pattern_names(p: &ast::Pattern, out: &mut NameSet) {
    use ast::Pattern as P;
    match p {
        P::MatchValue(_) | P::MatchSingleton(_) => {}
        P::MatchSequence(s) => s.patterns.iter().for_each(|x| collect_pattern_names(x, out)),
        P::MatchMapping(m) => {
            m.patterns.iter().for_each(|x| collect_pattern_names(x, out));
            if let Some(r) = &m.rest {
                out.insert(Rc::from(r.as_str()));
            }
        }
        P::MatchClass(c) => c
            .patterns
            .iter()
            .chain(c.kwd_patterns.iter())
            .for_each(|x| collect_pattern_names(x, out)),
        P::MatchStar(s) => {
            if let Some(n) = &s.name {
                out.insert(Rc::from(n.as_str()));
            }
        }
        P::MatchAs(a) => {
            if let Some(inner) = &a.pattern {
                collect_pattern_names(inner, out);
            }
            if let Some(n) = &a.name {
                out.insert(Rc::from(n.as_str()));
            }
        }
        P::MatchOr(o) => o.patterns.iter().for_each(|x| collect_pattern_names(x, out)),
    }
}

fn collect_locals_nested(body: &[ast::Stmt], info: &mut ScopeInfo) {
    for s in body {
        collect_stmt(s, info);
    }
}

/// Walrus targets bind in the enclosing function scope.
pub(crate) fn collect_expr_binds(e: &ast::Expr, info: &mut ScopeInfo) {
    use ast::Expr as E;
    let mut go = |x: &ast::Expr| collect_expr_binds(x, info);
    match e {
        E::NamedExpr(n) => {
            collect_target_names(&n.target, &mut info.locals);
            collect_expr_binds(&n.value, info);
        }
        // A lambda is its own scope, but its defaults run in the enclosing one; comprehension
        // walruses bind in the enclosing one.
        E::Lambda(l) => {
            let a = &l.args;
            for d in a.posonlyargs.iter().chain(&a.args).chain(&a.kwonlyargs) {
                if let Some(d) = &d.default {
                    go(d);
                }
            }
        }
        E::BoolOp(b) => b.values.iter().for_each(go),
        E::BinOp(b) => {
            go(&b.left);
            go(&b.right);
        }
        E::UnaryOp(u) => go(&u.operand),
        E::Call(c) => {
            go(&c.func);
            c.args.iter().for_each(&mut go);
            c.keywords.iter().for_each(|k| go(&k.value));
        }
        E::Attribute(a) => go(&a.value),
        E::Subscript(s) => {
            go(&s.value);
            go(&s.slice);
        }
        E::Tuple(t) => t.elts.iter().for_each(go),
        E::List(t) => t.elts.iter().for_each(go),
        E::Set(t) => t.elts.iter().for_each(go),
        E::IfExp(i) => {
            go(&i.test);
            go(&i.body);
            go(&i.orelse);
        }
        E::Compare(c) => {
            go(&c.left);
            c.comparators.iter().for_each(go);
        }
        E::ListComp(c) => {
            go(&c.elt);
            comp_binds(&c.generators, info);
        }
        E::SetComp(c) => {
            go(&c.elt);
            comp_binds(&c.generators, info);
        }
        E::GeneratorExp(c) => {
            go(&c.elt);
            comp_binds(&c.generators, info);
        }
        E::DictComp(c) => {
            go(&c.key);
            collect_expr_binds(&c.value, info);
            comp_binds(&c.generators, info);
        }
        E::Dict(d) => {
            d.keys.iter().flatten().for_each(&mut go);
            d.values.iter().for_each(go);
        }
        E::Starred(s) => go(&s.value),
        E::Await(a) => go(&a.value),
        E::Yield(y) => y.value.iter().for_each(|v| go(v)),
        E::YieldFrom(y) => go(&y.value),
        E::JoinedStr(j) => j.values.iter().for_each(go),
        E::FormattedValue(v) => {
            go(&v.value);
            if let Some(spec) = &v.format_spec {
                go(spec);
            }
        }
        E::Slice(s) => {
            for x in s.lower.iter().chain(s.upper.iter()).chain(s.step.iter()) {
                go(x);
            }
        }
        _ => {}
    }
}

fn comp_binds(gens: &[ast::Comprehension], info: &mut ScopeInfo) {
    for g in gens {
        collect_expr_binds(&g.iter, info);
        for c in &g.ifs {
            collect_expr_binds(c, info);
        }
    }
}

pub(crate) fn collect_target_names(t: &ast::Expr, out: &mut NameSet) {
    match t {
        ast::Expr::Name(n) => {
            out.insert(Rc::from(n.id.as_str()));
        }
        ast::Expr::Tuple(tu) => {
            for e in &tu.elts {
                collect_target_names(e, out);
            }
        }
        ast::Expr::List(l) => {
            for e in &l.elts {
                collect_target_names(e, out);
            }
        }
        ast::Expr::Starred(s) => collect_target_names(&s.value, out),
        _ => {}
    }
}

/// Does a function body contain `yield` (outside nested scopes)? Such functions are generators.
pub(crate) fn contains_yield(body: &[ast::Stmt]) -> bool {
    fn expr(e: &ast::Expr) -> bool {
        use ast::Expr as E;
        match e {
            E::Yield(_) | E::YieldFrom(_) => true,
            E::Lambda(_) | E::GeneratorExp(_) | E::ListComp(_) | E::SetComp(_) | E::DictComp(_) => {
                false
            }
            E::BoolOp(b) => b.values.iter().any(expr),
            E::BinOp(b) => expr(&b.left) || expr(&b.right),
            E::UnaryOp(u) => expr(&u.operand),
            E::Call(c) => {
                expr(&c.func)
                    || c.args.iter().any(expr)
                    || c.keywords.iter().any(|k| expr(&k.value))
            }
            E::Attribute(a) => expr(&a.value),
            E::Subscript(s) => expr(&s.value) || expr(&s.slice),
            E::Tuple(t) => t.elts.iter().any(expr),
            E::List(t) => t.elts.iter().any(expr),
            E::IfExp(i) => expr(&i.test) || expr(&i.body) || expr(&i.orelse),
            E::Compare(c) => expr(&c.left) || c.comparators.iter().any(expr),
            E::NamedExpr(n) => expr(&n.value),
            E::Await(a) => expr(&a.value),
            _ => false,
        }
    }
    fn stmt(s: &ast::Stmt) -> bool {
        use ast::Stmt as S;
        match s {
            S::Expr(e) => expr(&e.value),
            S::Assign(a) => expr(&a.value),
            S::AugAssign(a) => expr(&a.value),
            S::AnnAssign(a) => a.value.as_deref().is_some_and(expr),
            S::Return(r) => r.value.as_deref().is_some_and(expr),
            S::For(f) => expr(&f.iter) || f.body.iter().any(stmt) || f.orelse.iter().any(stmt),
            S::While(w) => expr(&w.test) || w.body.iter().any(stmt) || w.orelse.iter().any(stmt),
            S::If(i) => expr(&i.test) || i.body.iter().any(stmt) || i.orelse.iter().any(stmt),
            S::With(w) => w.items.iter().any(|i| expr(&i.context_expr)) || w.body.iter().any(stmt),
            S::Try(t) => {
                t.body.iter().any(stmt)
                    || t.orelse.iter().any(stmt)
                    || t.finalbody.iter().any(stmt)
                    || t.handlers.iter().any(|h| {
                        let ast::ExceptHandler::ExceptHandler(h) = h;
                        h.body.iter().any(stmt)
                    })
            }
            _ => false,
        }
    }
    body.iter().any(stmt)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The filter never hides a local (whatever was asked first), and still finds non-locals.
    #[test]
    fn is_local_agrees_with_the_set() {
        let names = ["self", "node", "tree", "ast", "isinstance", "x", "found", "_", "é", "a"];
        let mut info = ScopeInfo::default();
        for n in ["self", "node", "tree", "x", "é"] {
            info.locals.insert(Rc::from(n));
        }
        for n in names.iter().chain(names.iter()) {
            assert_eq!(info.is_local(n), info.locals.contains(*n), "{n}");
        }
        assert!(!ScopeInfo::default().is_local("self"));
    }
}
