//! Identifiers of the typed tree as CPython stores them: the names `parse` hid behind ASCII
//! placeholders (letters of Unicode 11.0-14.0, which rustpython's 10.0 tables lack) put back, and
//! every non-ASCII name NFKC-normalised (PEP 3131), so the interpreter binds, shows and compares
//! the names CPython does (`ﬁ = 1` binds `fi`; `def ꟁ()` is named `ꟁ`, not a placeholder).

use std::collections::HashMap;

use super::{node, syntax};

/// Placeholder → the normalised original.
pub(crate) type Names = HashMap<String, String>;

/// Fixes every identifier of `m` (a no-op for names that are ASCII and no placeholder).
pub(crate) fn fix_module(m: &mut syntax::ModModule, names: &Names) {
    let mut f = Fixer { names };
    f.stmts(&mut m.body);
}

struct Fixer<'a> {
    names: &'a Names,
}

impl Fixer<'_> {
    /// The stored spelling of one name (dotted names part by part: `import a.b`, `from a.b`).
    fn id(&self, id: &mut syntax::Identifier) {
        let s = id.as_str();
        if s.is_ascii()
            && (self.names.is_empty() || !s.split('.').any(|p| self.names.contains_key(p)))
        {
            return;
        }
        let fixed: Vec<String> = s
            .split('.')
            .map(|p| match self.names.get(p) {
                Some(orig) => orig.clone(),
                None => node::normalize_identifier(p).into_owned(),
            })
            .collect();
        *id = syntax::Identifier::new(fixed.join("."));
    }

    fn opt_id(&self, id: &mut Option<syntax::Identifier>) {
        if let Some(id) = id {
            self.id(id);
        }
    }

    fn stmts(&mut self, body: &mut [syntax::Stmt]) {
        body.iter_mut().for_each(|s| self.stmt(s));
    }

    fn exprs(&mut self, v: &mut [syntax::Expr]) {
        v.iter_mut().for_each(|e| self.expr(e));
    }

    fn opt(&mut self, e: &mut Option<Box<syntax::Expr>>) {
        if let Some(e) = e {
            self.expr(e);
        }
    }

    fn arg(&mut self, a: &mut syntax::Arg) {
        self.id(&mut a.arg);
        self.opt(&mut a.annotation);
    }

    fn arguments(&mut self, a: &mut syntax::Arguments) {
        for d in a.posonlyargs.iter_mut().chain(&mut a.args).chain(&mut a.kwonlyargs) {
            self.arg(&mut d.def);
            self.opt(&mut d.default);
        }
        for v in [&mut a.vararg, &mut a.kwarg].into_iter().flatten() {
            self.arg(v);
        }
    }

    fn keywords(&mut self, kws: &mut [syntax::Keyword]) {
        for k in kws {
            self.opt_id(&mut k.arg);
            self.expr(&mut k.value);
        }
    }

    fn type_params(&mut self, tps: &mut [syntax::TypeParam]) {
        for tp in tps {
            match tp {
                syntax::TypeParam::TypeVar(t) => {
                    self.id(&mut t.name);
                    self.opt(&mut t.bound);
                }
                syntax::TypeParam::ParamSpec(t) => self.id(&mut t.name),
                syntax::TypeParam::TypeVarTuple(t) => self.id(&mut t.name),
            }
        }
    }

    fn stmt(&mut self, s: &mut syntax::Stmt) {
        use syntax::Stmt as S;
        match s {
            S::FunctionDef(d) => {
                self.id(&mut d.name);
                self.arguments(&mut d.args);
                self.stmts(&mut d.body);
                self.exprs(&mut d.decorator_list);
                self.opt(&mut d.returns);
                self.type_params(&mut d.type_params);
            }
            S::AsyncFunctionDef(d) => {
                self.id(&mut d.name);
                self.arguments(&mut d.args);
                self.stmts(&mut d.body);
                self.exprs(&mut d.decorator_list);
                self.opt(&mut d.returns);
                self.type_params(&mut d.type_params);
            }
            S::ClassDef(d) => {
                self.id(&mut d.name);
                self.exprs(&mut d.bases);
                self.keywords(&mut d.keywords);
                self.stmts(&mut d.body);
                self.exprs(&mut d.decorator_list);
                self.type_params(&mut d.type_params);
            }
            S::Return(r) => self.opt(&mut r.value),
            S::Delete(d) => self.exprs(&mut d.targets),
            S::Assign(a) => {
                self.exprs(&mut a.targets);
                self.expr(&mut a.value);
            }
            S::TypeAlias(a) => {
                self.expr(&mut a.name);
                self.type_params(&mut a.type_params);
                self.expr(&mut a.value);
            }
            S::AugAssign(a) => {
                self.expr(&mut a.target);
                self.expr(&mut a.value);
            }
            S::AnnAssign(a) => {
                self.expr(&mut a.target);
                self.expr(&mut a.annotation);
                self.opt(&mut a.value);
            }
            S::For(f) => {
                self.expr(&mut f.target);
                self.expr(&mut f.iter);
                self.stmts(&mut f.body);
                self.stmts(&mut f.orelse);
            }
            S::AsyncFor(f) => {
                self.expr(&mut f.target);
                self.expr(&mut f.iter);
                self.stmts(&mut f.body);
                self.stmts(&mut f.orelse);
            }
            S::While(w) => {
                self.expr(&mut w.test);
                self.stmts(&mut w.body);
                self.stmts(&mut w.orelse);
            }
            S::If(i) => {
                self.expr(&mut i.test);
                self.stmts(&mut i.body);
                self.stmts(&mut i.orelse);
            }
            S::With(w) => {
                self.with_items(&mut w.items);
                self.stmts(&mut w.body);
            }
            S::AsyncWith(w) => {
                self.with_items(&mut w.items);
                self.stmts(&mut w.body);
            }
            S::Match(m) => {
                self.expr(&mut m.subject);
                for c in &mut m.cases {
                    self.pattern(&mut c.pattern);
                    self.opt(&mut c.guard);
                    self.stmts(&mut c.body);
                }
            }
            S::Raise(r) => {
                self.opt(&mut r.exc);
                self.opt(&mut r.cause);
            }
            S::Try(t) => {
                self.stmts(&mut t.body);
                self.handlers(&mut t.handlers);
                self.stmts(&mut t.orelse);
                self.stmts(&mut t.finalbody);
            }
            S::TryStar(t) => {
                self.stmts(&mut t.body);
                self.handlers(&mut t.handlers);
                self.stmts(&mut t.orelse);
                self.stmts(&mut t.finalbody);
            }
            S::Assert(a) => {
                self.expr(&mut a.test);
                self.opt(&mut a.msg);
            }
            S::Import(i) => self.aliases(&mut i.names),
            S::ImportFrom(i) => {
                self.opt_id(&mut i.module);
                self.aliases(&mut i.names);
            }
            S::Global(g) => g.names.iter_mut().for_each(|n| self.id(n)),
            S::Nonlocal(g) => g.names.iter_mut().for_each(|n| self.id(n)),
            S::Expr(e) => self.expr(&mut e.value),
            S::Pass(_) | S::Break(_) | S::Continue(_) => {}
        }
    }

    fn aliases(&mut self, names: &mut [syntax::Alias]) {
        for a in names {
            self.id(&mut a.name);
            self.opt_id(&mut a.asname);
        }
    }

    fn with_items(&mut self, items: &mut [syntax::WithItem]) {
        for w in items {
            self.expr(&mut w.context_expr);
            self.opt(&mut w.optional_vars);
        }
    }

    fn handlers(&mut self, hs: &mut [syntax::ExceptHandler]) {
        for syntax::ExceptHandler::ExceptHandler(h) in hs {
            self.opt(&mut h.type_);
            self.opt_id(&mut h.name);
            self.stmts(&mut h.body);
        }
    }

    fn comprehensions(&mut self, gens: &mut [syntax::Comprehension]) {
        for g in gens {
            self.expr(&mut g.target);
            self.expr(&mut g.iter);
            self.exprs(&mut g.ifs);
        }
    }

    fn expr(&mut self, e: &mut syntax::Expr) {
        use syntax::Expr as E;
        match e {
            E::BoolOp(b) => self.exprs(&mut b.values),
            E::NamedExpr(n) => {
                self.expr(&mut n.target);
                self.expr(&mut n.value);
            }
            E::BinOp(b) => {
                self.expr(&mut b.left);
                self.expr(&mut b.right);
            }
            E::UnaryOp(u) => self.expr(&mut u.operand),
            E::Lambda(l) => {
                self.arguments(&mut l.args);
                self.expr(&mut l.body);
            }
            E::IfExp(i) => {
                self.expr(&mut i.test);
                self.expr(&mut i.body);
                self.expr(&mut i.orelse);
            }
            E::Dict(d) => {
                d.keys.iter_mut().flatten().for_each(|k| self.expr(k));
                self.exprs(&mut d.values);
            }
            E::Set(s) => self.exprs(&mut s.elts),
            E::ListComp(c) => {
                self.expr(&mut c.elt);
                self.comprehensions(&mut c.generators);
            }
            E::SetComp(c) => {
                self.expr(&mut c.elt);
                self.comprehensions(&mut c.generators);
            }
            E::DictComp(c) => {
                self.expr(&mut c.key);
                self.expr(&mut c.value);
                self.comprehensions(&mut c.generators);
            }
            E::GeneratorExp(c) => {
                self.expr(&mut c.elt);
                self.comprehensions(&mut c.generators);
            }
            E::Await(a) => self.expr(&mut a.value),
            E::Yield(y) => self.opt(&mut y.value),
            E::YieldFrom(y) => self.expr(&mut y.value),
            E::Compare(c) => {
                self.expr(&mut c.left);
                self.exprs(&mut c.comparators);
            }
            E::Call(c) => {
                self.expr(&mut c.func);
                self.exprs(&mut c.args);
                self.keywords(&mut c.keywords);
            }
            E::FormattedValue(f) => {
                self.expr(&mut f.value);
                self.opt(&mut f.format_spec);
            }
            E::JoinedStr(j) => self.exprs(&mut j.values),
            E::Constant(_) => {}
            E::Attribute(a) => {
                self.expr(&mut a.value);
                self.id(&mut a.attr);
            }
            E::Subscript(s) => {
                self.expr(&mut s.value);
                self.expr(&mut s.slice);
            }
            E::Starred(s) => self.expr(&mut s.value),
            E::Name(n) => self.id(&mut n.id),
            E::List(l) => self.exprs(&mut l.elts),
            E::Tuple(t) => self.exprs(&mut t.elts),
            E::Slice(s) => {
                self.opt(&mut s.lower);
                self.opt(&mut s.upper);
                self.opt(&mut s.step);
            }
        }
    }

    fn pattern(&mut self, p: &mut syntax::Pattern) {
        use syntax::Pattern as P;
        match p {
            P::MatchValue(v) => self.expr(&mut v.value),
            P::MatchSingleton(_) => {}
            P::MatchSequence(s) => s.patterns.iter_mut().for_each(|p| self.pattern(p)),
            P::MatchMapping(m) => {
                self.exprs(&mut m.keys);
                m.patterns.iter_mut().for_each(|p| self.pattern(p));
                self.opt_id(&mut m.rest);
            }
            P::MatchClass(c) => {
                self.expr(&mut c.cls);
                c.patterns.iter_mut().for_each(|p| self.pattern(p));
                c.kwd_attrs.iter_mut().for_each(|n| self.id(n));
                c.kwd_patterns.iter_mut().for_each(|p| self.pattern(p));
            }
            P::MatchStar(s) => self.opt_id(&mut s.name),
            P::MatchAs(a) => {
                if let Some(p) = &mut a.pattern {
                    self.pattern(p);
                }
                self.opt_id(&mut a.name);
            }
            P::MatchOr(o) => o.patterns.iter_mut().for_each(|p| self.pattern(p)),
        }
    }
}
