//! How CPython 3.11's compiler builds the set constants of the test module, so set displays
//! iterate in its order. A display of three or more constants is folded into a frozenset (built
//! in source order), which `merge_consts_recursive` rebuilds once in its own order; `_PyCode_New`
//! (`intern_string_constants`) rebuilds it once more when interning replaces one of its strings
//! with an equal string interned before: a string of name characters, longer than one character
//! (one-character strings are singletons), that the parser interned (every identifier of the
//! file), that the harness's process had interned before the file compiled, or a keyword — unless
//! the compiler's constant cache already held the interned object for it (keyword-argument names,
//! class names, module-level function names, `from` import names, annotated names registered
//! earlier in compile order). A frozenset constant equal to one compiled earlier in the module
//! is that earlier object (the cache again), so it iterates in the earlier one's order. `for x in
//! {...}` and comprehension iterables of constants are frozensets iterated as they are (the AST
//! optimizer folds them; no copy into a new set); `x in {...}` is folded too (only its order is
//! invisible, but it takes part in the sharing).
//!
//! Strings interned before the file compiles: the parser's identifiers (known here), Python's
//! keywords, and the harness process's interned strings ([`crate::interned`]: 9,680 words under
//! 3.11.7, loaded on demand in the scoring worker).

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use crate::python::syntax as ast;

/// How one set display (by the address of its `ExprSet` node) is built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SetPlan {
    /// `intern_string_constants` rebuilds the frozenset a third time.
    pub rebuild: bool,
    /// Iterated as the frozenset it is (a folded `for` or comprehension iterable).
    pub frozen: bool,
    /// The display's distinct elements (indices in first-occurrence order) in the source order of
    /// the equal frozenset the module compiled first (`None`: its own order).
    pub order: Option<Rc<[u32]>>,
}

pub(crate) type SetPlans = HashMap<usize, SetPlan>;

/// The plans of every set display of constants in `body` (a module).
pub(crate) fn plan_module(body: &[ast::Stmt]) -> SetPlans {
    walk(body).plans
}

fn walk(body: &[ast::Stmt]) -> Walker<'_> {
    let mut w = Walker { collecting: true, ..Walker::default() };
    w.stmts_in(body);
    w.collecting = false;
    w.scopes.clear();
    w.stmts_in(body);
    w
}

/// A distinct element of a frozenset constant, as `_PyCode_ConstantKey` tells them apart.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
enum Key {
    Str(String),
    Int(String),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Scope {
    Class,
    Function,
}

#[derive(Default)]
struct Walker<'s> {
    /// First pass: collect the file's identifiers; second: plan.
    collecting: bool,
    names: HashSet<&'s str>,
    /// Whether the first constant of this value registered in the compiler's cache is an
    /// identifier object (interned).
    first_is_ident: HashMap<String, bool>,
    /// Frozenset constants by their sorted distinct keys: first-occurrence keys and rebuild.
    frozensets: HashMap<Vec<Key>, (Vec<Key>, bool)>,
    scopes: Vec<(Scope, &'s str)>,
    plans: SetPlans,
    /// The planned displays in walk order (for tests).
    seen: Vec<usize>,
}

fn name_chars(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// A keyword or soft keyword of more than one character (`keyword.kwlist` and `softkwlist` but
/// `_`): interned by CPython before any test file compiles.
fn is_keyword(s: &str) -> bool {
    crate::python::is_hard_keyword(s) || matches!(s, "case" | "match")
}

impl<'s> Walker<'s> {
    fn name(&mut self, n: &'s str) {
        if self.collecting {
            for part in n.split('.') {
                self.names.insert(part);
            }
        }
    }

    fn planning(&self) -> bool {
        !self.collecting
    }

    /// The compiler registers an identifier object (interned) as a constant.
    fn ident_const(&mut self, n: &str) {
        if !self.planning() {
            return;
        }
        // `_Py_Mangle` makes a new string for a private name in a class.
        let mangled = n.starts_with("__")
            && !n.ends_with("__")
            && self.scopes.iter().any(|(s, _)| *s == Scope::Class);
        if !mangled && name_chars(n) {
            self.first_is_ident.entry(n.to_string()).or_insert(true);
        }
    }

    fn lit_const(&mut self, s: &str) {
        if self.planning() && name_chars(s) {
            self.first_is_ident.entry(s.to_string()).or_insert(false);
        }
    }

    fn interned_before(&self, s: &str) -> bool {
        self.names.contains(s) || is_keyword(s) || crate::interned::before_test_compiles(s)
    }

    fn at_module(&self) -> bool {
        self.scopes.is_empty()
    }

    fn args_defaults(&mut self, a: &'s ast::Arguments) {
        for d in a.posonlyargs.iter().chain(&a.args) {
            if let Some(e) = &d.default {
                self.expr(e);
            }
        }
        let mut kw = Vec::new();
        for d in &a.kwonlyargs {
            if let Some(e) = &d.default {
                self.expr(e);
                kw.push(d.def.arg.as_str());
            }
        }
        for n in kw {
            self.ident_const(n);
        }
    }

    fn arg_names(&mut self, a: &'s ast::Arguments) {
        for d in a.posonlyargs.iter().chain(&a.args).chain(&a.kwonlyargs) {
            self.name(d.def.arg.as_str());
        }
        for v in a.vararg.iter().chain(&a.kwarg) {
            self.name(v.arg.as_str());
        }
    }

    fn annotations(&mut self, a: &'s ast::Arguments, returns: Option<&'s ast::Expr>) {
        let one = |w: &mut Self, arg: &'s ast::Arg| {
            if let Some(ann) = &arg.annotation {
                w.ident_const(arg.arg.as_str());
                w.expr(ann);
            }
        };
        for d in a.args.iter().chain(&a.posonlyargs) {
            one(self, &d.def);
        }
        if let Some(v) = &a.vararg {
            one(self, v);
        }
        for d in &a.kwonlyargs {
            one(self, &d.def);
        }
        if let Some(v) = &a.kwarg {
            one(self, v);
        }
        if let Some(r) = returns {
            self.expr(r);
        }
    }

    fn function(
        &mut self,
        name: &'s str,
        args: &'s ast::Arguments,
        body: &'s [ast::Stmt],
        decorators: &'s [ast::Expr],
        returns: Option<&'s ast::Expr>,
    ) {
        self.name(name);
        self.arg_names(args);
        self.exprs(decorators);
        self.args_defaults(args);
        self.annotations(args, returns);
        let top = self.at_module();
        self.scopes.push((Scope::Function, name));
        for s in body {
            self.stmt(s);
        }
        self.scopes.pop();
        if top {
            // the qualname constant of a module-level function is its identifier
            self.ident_const(name);
        }
    }

    fn stmt(&mut self, s: &'s ast::Stmt) {
        use ast::Stmt as S;
        match s {
            S::FunctionDef(d) => {
                self.function(&d.name, &d.args, &d.body, &d.decorator_list, d.returns.as_deref())
            }
            S::AsyncFunctionDef(d) => {
                self.function(&d.name, &d.args, &d.body, &d.decorator_list, d.returns.as_deref())
            }
            S::ClassDef(c) => {
                self.name(&c.name);
                self.exprs(&c.decorator_list);
                if self.at_module() {
                    self.ident_const(&c.name);
                }
                self.scopes.push((Scope::Class, &c.name));
                for s in &c.body {
                    self.stmt(s);
                }
                self.scopes.pop();
                self.ident_const(&c.name);
                self.exprs(&c.bases);
                self.keywords(&c.keywords);
            }
            S::Return(r) => self.opt(r.value.as_deref()),
            S::Delete(d) => self.exprs(&d.targets),
            S::Assign(a) => {
                self.expr(&a.value);
                self.exprs(&a.targets);
            }
            S::TypeAlias(t) => {
                self.expr(&t.name);
                self.expr(&t.value);
            }
            S::AugAssign(a) => {
                self.expr(&a.target);
                self.expr(&a.value);
            }
            S::AnnAssign(a) => {
                self.opt(a.value.as_deref());
                self.expr(&a.target);
                self.expr(&a.annotation);
                let stored = matches!(self.scopes.last(), None | Some((Scope::Class, _)));
                if let (true, true, ast::Expr::Name(n)) = (a.simple, stored, &*a.target) {
                    self.ident_const(&n.id);
                }
            }
            S::For(x) => self.for_(&x.target, &x.iter, &x.body, &x.orelse),
            S::AsyncFor(x) => self.for_(&x.target, &x.iter, &x.body, &x.orelse),
            S::While(x) => {
                self.expr(&x.test);
                self.stmts_in(&x.body);
                self.stmts_in(&x.orelse);
            }
            S::If(x) => {
                self.expr(&x.test);
                self.stmts_in(&x.body);
                self.stmts_in(&x.orelse);
            }
            S::With(x) => self.with(&x.items, &x.body),
            S::AsyncWith(x) => self.with(&x.items, &x.body),
            S::Match(m) => {
                self.expr(&m.subject);
                for c in &m.cases {
                    self.pattern(&c.pattern);
                    self.opt(c.guard.as_deref());
                    self.stmts_in(&c.body);
                }
            }
            S::Raise(r) => {
                self.opt(r.exc.as_deref());
                self.opt(r.cause.as_deref());
            }
            S::Try(t) => self.try_(&t.body, &t.handlers, &t.orelse, &t.finalbody),
            S::TryStar(t) => self.try_(&t.body, &t.handlers, &t.orelse, &t.finalbody),
            S::Assert(a) => {
                self.expr(&a.test);
                self.opt(a.msg.as_deref());
            }
            S::Import(i) => {
                for a in &i.names {
                    self.name(&a.name);
                    if let Some(n) = &a.asname {
                        self.name(n);
                    }
                }
            }
            S::ImportFrom(i) => {
                if let Some(m) = &i.module {
                    self.name(m);
                }
                for a in &i.names {
                    if let Some(n) = &a.asname {
                        self.name(n);
                    }
                    if a.name.as_str() != "*" {
                        self.name(&a.name);
                        self.ident_const(&a.name);
                    }
                }
            }
            S::Global(g) => g.names.iter().for_each(|n| self.name(n)),
            S::Nonlocal(g) => g.names.iter().for_each(|n| self.name(n)),
            S::Expr(e) => self.expr(&e.value),
            S::Pass(_) | S::Break(_) | S::Continue(_) => {}
        }
    }

    fn stmts_in(&mut self, body: &'s [ast::Stmt]) {
        for s in body {
            self.stmt(s);
        }
    }

    fn for_(
        &mut self,
        target: &'s ast::Expr,
        iter: &'s ast::Expr,
        body: &'s [ast::Stmt],
        orelse: &'s [ast::Stmt],
    ) {
        self.iterable(iter);
        self.expr(target);
        self.stmts_in(body);
        self.stmts_in(orelse);
    }

    fn with(&mut self, items: &'s [ast::WithItem], body: &'s [ast::Stmt]) {
        for i in items {
            self.expr(&i.context_expr);
            self.opt(i.optional_vars.as_deref());
        }
        self.stmts_in(body);
    }

    fn try_(
        &mut self,
        body: &'s [ast::Stmt],
        handlers: &'s [ast::ExceptHandler],
        orelse: &'s [ast::Stmt],
        finalbody: &'s [ast::Stmt],
    ) {
        self.stmts_in(body);
        for ast::ExceptHandler::ExceptHandler(h) in handlers {
            if let Some(n) = &h.name {
                self.name(n);
            }
            self.opt(h.type_.as_deref());
            self.stmts_in(&h.body);
        }
        self.stmts_in(orelse);
        self.stmts_in(finalbody);
    }

    fn pattern(&mut self, p: &'s ast::Pattern) {
        use ast::Pattern as P;
        match p {
            P::MatchValue(v) => self.expr(&v.value),
            P::MatchSingleton(_) => {}
            P::MatchSequence(s) => s.patterns.iter().for_each(|p| self.pattern(p)),
            P::MatchMapping(m) => {
                self.exprs(&m.keys);
                m.patterns.iter().for_each(|p| self.pattern(p));
                if let Some(r) = &m.rest {
                    self.name(r);
                }
            }
            P::MatchClass(c) => {
                self.expr(&c.cls);
                c.patterns.iter().for_each(|p| self.pattern(p));
                for a in &c.kwd_attrs {
                    self.name(a);
                    self.ident_const(a);
                }
                c.kwd_patterns.iter().for_each(|p| self.pattern(p));
            }
            P::MatchStar(s) => {
                if let Some(n) = &s.name {
                    self.name(n);
                }
            }
            P::MatchAs(a) => {
                if let Some(p) = &a.pattern {
                    self.pattern(p);
                }
                if let Some(n) = &a.name {
                    self.name(n);
                }
            }
            P::MatchOr(o) => o.patterns.iter().for_each(|p| self.pattern(p)),
        }
    }

    fn keywords(&mut self, kws: &'s [ast::Keyword]) {
        for k in kws {
            if let Some(a) = &k.arg {
                self.name(a);
            }
            self.expr(&k.value);
        }
        for k in kws {
            if let Some(a) = &k.arg {
                self.ident_const(a);
            }
        }
    }

    fn opt(&mut self, e: Option<&'s ast::Expr>) {
        if let Some(e) = e {
            self.expr(e);
        }
    }

    fn exprs(&mut self, es: &'s [ast::Expr]) {
        for e in es {
            self.expr(e);
        }
    }

    /// A `for` or comprehension iterable: a set of constants is a frozenset constant.
    fn iterable(&mut self, e: &'s ast::Expr) {
        match e {
            ast::Expr::Set(s) => self.set(s, true),
            _ => self.expr(e),
        }
    }

    fn comprehension(&mut self, gens: &'s [ast::Comprehension], elts: &[&'s ast::Expr]) {
        // The body is compiled first, the outermost iterable last (in the enclosing scope).
        for (i, g) in gens.iter().enumerate() {
            if i > 0 {
                self.iterable(&g.iter);
            }
            self.expr(&g.target);
            self.exprs(&g.ifs);
        }
        for e in elts {
            self.expr(e);
        }
        if let Some(g) = gens.first() {
            self.iterable(&g.iter);
        }
    }

    fn expr(&mut self, e: &'s ast::Expr) {
        use ast::Expr as E;
        match e {
            E::BoolOp(b) => self.exprs(&b.values),
            E::NamedExpr(n) => {
                self.expr(&n.value);
                self.expr(&n.target);
            }
            E::BinOp(b) => {
                self.expr(&b.left);
                self.expr(&b.right);
            }
            E::UnaryOp(u) => self.expr(&u.operand),
            E::Lambda(l) => {
                self.arg_names(&l.args);
                self.args_defaults(&l.args);
                self.scopes.push((Scope::Function, "<lambda>"));
                self.expr(&l.body);
                self.scopes.pop();
            }
            E::IfExp(i) => {
                self.expr(&i.test);
                self.expr(&i.body);
                self.expr(&i.orelse);
            }
            E::Dict(d) => {
                for (k, v) in d.keys.iter().zip(&d.values) {
                    if let Some(k) = k {
                        self.expr(k);
                    }
                    self.expr(v);
                }
            }
            E::Set(s) => self.set(s, false),
            E::ListComp(c) => self.comp_scope(|w| w.comprehension(&c.generators, &[&c.elt])),
            E::SetComp(c) => self.comp_scope(|w| w.comprehension(&c.generators, &[&c.elt])),
            E::GeneratorExp(c) => self.comp_scope(|w| w.comprehension(&c.generators, &[&c.elt])),
            E::DictComp(c) => {
                self.comp_scope(|w| w.comprehension(&c.generators, &[&c.key, &c.value]))
            }
            E::Await(a) => self.expr(&a.value),
            E::Yield(y) => self.opt(y.value.as_deref()),
            E::YieldFrom(y) => self.expr(&y.value),
            E::Compare(c) => {
                self.expr(&c.left);
                let n = c.comparators.len();
                for (i, x) in c.comparators.iter().enumerate() {
                    let folded = i + 1 == n
                        && matches!(c.ops.last(), Some(ast::CmpOp::In | ast::CmpOp::NotIn));
                    match x {
                        E::Set(s) if folded => self.set(s, true),
                        _ => self.expr(x),
                    }
                }
            }
            E::Call(c) => {
                self.expr(&c.func);
                self.exprs(&c.args);
                self.keywords(&c.keywords);
            }
            E::FormattedValue(f) => {
                self.expr(&f.value);
                self.opt(f.format_spec.as_deref());
            }
            E::JoinedStr(j) => self.exprs(&j.values),
            E::Constant(c) => self.constant(&c.value),
            E::Attribute(a) => {
                self.expr(&a.value);
                self.name(&a.attr);
            }
            E::Subscript(s) => {
                self.expr(&s.value);
                self.expr(&s.slice);
            }
            E::Starred(s) => self.expr(&s.value),
            E::Name(n) => self.name(&n.id),
            E::List(l) => self.exprs(&l.elts),
            E::Tuple(t) => self.exprs(&t.elts),
            E::Slice(s) => {
                self.opt(s.lower.as_deref());
                self.opt(s.upper.as_deref());
                self.opt(s.step.as_deref());
            }
        }
    }

    fn comp_scope(&mut self, f: impl FnOnce(&mut Self)) {
        self.scopes.push((Scope::Function, "<comprehension>"));
        f(self);
        self.scopes.pop();
    }

    fn constant(&mut self, c: &ast::Constant) {
        match c {
            ast::Constant::Str(s) => self.lit_const(s),
            ast::Constant::Tuple(t) => t.iter().for_each(|c| self.constant(c)),
            _ => {}
        }
    }

    /// A set display. `folded`: the AST optimizer makes it a frozenset constant whatever its size
    /// (a `for`/comprehension iterable, or the right of `in`).
    fn set(&mut self, s: &'s ast::ExprSet, folded: bool) {
        let mut keys = Vec::new();
        let mut shareable = true;
        let mut all_const = true;
        for e in &s.elts {
            match e {
                ast::Expr::Constant(c) => match &c.value {
                    ast::Constant::Str(v) => keys.push(Some(Key::Str(v.clone()))),
                    ast::Constant::Int(i) => keys.push(Some(Key::Int(i.to_string()))),
                    _ => {
                        shareable = false;
                        keys.push(None);
                    }
                },
                ast::Expr::UnaryOp(u) if matches!(&*u.operand, ast::Expr::Constant(_)) => {
                    match (&u.op, &*u.operand) {
                        (ast::UnaryOp::USub, ast::Expr::Constant(c)) => match &c.value {
                            ast::Constant::Int(i) => keys.push(Some(Key::Int((-i).to_string()))),
                            _ => {
                                shareable = false;
                                keys.push(None);
                            }
                        },
                        _ => {
                            shareable = false;
                            keys.push(None);
                        }
                    }
                }
                _ => all_const = false,
            }
        }
        if !all_const || s.elts.is_empty() || (!folded && s.elts.len() < 3) {
            self.exprs(&s.elts);
            return;
        }
        if !self.planning() {
            return;
        }
        self.exprs(&s.elts);
        let mut distinct: Vec<Key> = Vec::new();
        for k in keys.iter().flatten() {
            if !distinct.contains(k) {
                distinct.push(k.clone());
            }
        }
        let rebuild_here = distinct.iter().any(|k| match k {
            Key::Str(v) => {
                v.len() > 1
                    && name_chars(v)
                    && self.interned_before(v)
                    && self.first_is_ident.get(v.as_str()) != Some(&true)
            }
            Key::Int(_) => false,
        });
        let mut plan = SetPlan { rebuild: rebuild_here, frozen: folded, order: None };
        if shareable {
            let mut sorted = distinct.clone();
            sorted.sort();
            match self.frozensets.get(&sorted) {
                Some((first, rebuild)) => {
                    plan.rebuild = *rebuild;
                    if *first != distinct {
                        let perm: Option<Vec<u32>> = first
                            .iter()
                            .map(|k| distinct.iter().position(|d| d == k).map(|p| p as u32))
                            .collect();
                        plan.order = perm.map(Rc::from);
                    }
                }
                None => {
                    self.frozensets.insert(sorted, (distinct, rebuild_here));
                }
            }
        }
        let at = s as *const ast::ExprSet as usize;
        self.seen.push(at);
        self.plans.insert(at, plan);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plans(src: &str) -> Vec<SetPlan> {
        let m = crate::python::parse_module(src, "t.py").expect("parses");
        let w = walk(&m.body);
        w.seen.iter().map(|a| w.plans[a].clone()).collect()
    }

    #[test]
    fn rebuilds_follow_interning_and_the_constant_cache() {
        // `zzq_a` and friends are interned by no one before; `name` is (the list).
        let p = plans("x = {'zzq_a', 'zzq_b', 'zzq_c'}\ny = {'name', 'zzq_a', 'zzq_b'}\n");
        assert!(!p[0].rebuild && p[1].rebuild);
        // a keyword argument registers the interned `name` first
        let p = plans("f(name=1)\ny = {'name', 'zzq_a', 'zzq_b'}\n");
        assert!(!p[0].rebuild);
        // an identifier of the file is interned by the parser
        let p = plans("zzq_d = 1\ny = {'zzq_d', 'zzq_a', 'zzq_b'}\n");
        assert!(p[0].rebuild);
        // an equal frozenset compiled earlier is shared, in its order
        let p = plans("x = {'zzq_a', 'zzq_b', 'zzq_c'}\ny = {'zzq_c', 'zzq_b', 'zzq_a'}\n");
        assert_eq!(p[1].order.as_deref(), Some(&[2u32, 1, 0][..]));
        // folded iterables of any size
        let p = plans("for x in {'a', 'b'}:\n    pass\nz = [y for y in {1}]\n");
        assert!(p.len() == 2 && p.iter().all(|p| p.frozen));
    }
}
