//! Identifiers of the typed tree as CPython stores them: the names `parse` hid behind ASCII
//! placeholders (letters of Unicode 11.0-14.0, which rustpython's 10.0 tables lack) put back, and
//! every non-ASCII name NFKC-normalised (PEP 3131), so the interpreter binds, shows and compares
//! the names CPython does (`ﬁ = 1` binds `fi`; `def ꟁ()` is named `ꟁ`, not a placeholder).
//! The same walk decodes f-string format specs and wraps the `with` targets `parse.rs` parsed
//! without their `*` back in a `Starred` node.

use std::collections::HashMap;

use super::{node, syntax};

/// Placeholder → the normalised original.
pub(crate) type Names = HashMap<String, String>;

/// Fixes every identifier of `m` (a no-op for names that are ASCII and no placeholder).
pub(crate) fn fix_module(m: &mut syntax::ModModule, names: &Names) {
    let mut f = Fixer { names, specs_of: None, masked: false, stars: &[] };
    f.stmts(&mut m.body);
}

/// Decodes the escapes of f-string format specs (the parser crates keep a spec's text raw;
/// 3.11 decodes it unless the string is raw): `src` is the parsed source, whose string
/// prefixes say which are raw. `parse.rs` hands masked `\N{...}` escapes over as `\\(...)`.
/// `masked`: some were (only then is a `\\(NAME)` read as one).
pub(crate) fn fix_format_specs(m: &mut syntax::ModModule, src: &str, masked: bool) {
    let names = Names::default();
    let mut f = Fixer { names: &names, specs_of: Some(src), masked, stars: &[] };
    f.stmts(&mut m.body);
}

/// Wraps the `with` targets `parse.rs` parsed without their `*` (`with a as *x:`) back in a
/// `Starred` node: `stars` holds (star, target) offsets.
pub(crate) fn star_with_targets(m: &mut syntax::ModModule, stars: &[(usize, usize)]) {
    let names = Names::default();
    let mut f = Fixer { names: &names, specs_of: None, masked: false, stars };
    f.stmts(&mut m.body);
}

/// Decoded spec text with `parse.rs`'s masked `\N{NAME}` escapes (read as `\(NAME)`) put back.
fn unmask_names(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(p) = rest.find("\\(") {
        out.push_str(&rest[..p]);
        let after = &rest[p + 2..];
        match after.find(')').and_then(|q| Some((q, unicode_names2::character(&after[..q])?))) {
            Some((q, ch)) => {
                out.push(ch);
                rest = &after[q + 1..];
            }
            None => {
                out.push_str("\\(");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A format spec's text with its escapes decoded as a (non-raw) Python string literal's.
fn decode_spec(s: &str, masked: bool) -> String {
    let cs: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    let hex = |from: usize, n: usize| -> Option<char> {
        let t: String = cs.get(from..from + n)?.iter().collect();
        u32::from_str_radix(&t, 16).ok().and_then(char::from_u32)
    };
    while i < cs.len() {
        let c = cs[i];
        if c != '\\' || i + 1 >= cs.len() {
            out.push(c);
            i += 1;
            continue;
        }
        let n = cs[i + 1];
        // `parse.rs`'s masked `\N{NAME}`: `\\(NAME)`
        if masked && n == '\\' && cs.get(i + 2) == Some(&'(') {
            if let Some(p) = cs[i + 3..].iter().position(|&c| c == ')') {
                let name: String = cs[i + 3..i + 3 + p].iter().collect();
                if let Some(ch) = unicode_names2::character(&name) {
                    out.push(ch);
                    i += p + 4;
                    continue;
                }
            }
        }
        let simple = match n {
            '\n' => Some(None),
            '\\' => Some(Some('\\')),
            '\'' => Some(Some('\'')),
            '"' => Some(Some('"')),
            'a' => Some(Some('\x07')),
            'b' => Some(Some('\x08')),
            'f' => Some(Some('\x0c')),
            'n' => Some(Some('\n')),
            'r' => Some(Some('\r')),
            't' => Some(Some('\t')),
            'v' => Some(Some('\x0b')),
            _ => None,
        };
        if let Some(ch) = simple {
            out.extend(ch);
            i += 2;
            continue;
        }
        let (decoded, len) = match n {
            '0'..='7' => {
                let digits = cs[i + 1..].iter().take(3).take_while(|c| ('0'..='7').contains(c));
                let t: String = digits.collect();
                (u32::from_str_radix(&t, 8).ok().and_then(char::from_u32), 1 + t.len())
            }
            'x' => (hex(i + 2, 2), 4),
            'u' => (hex(i + 2, 4), 6),
            'U' => (hex(i + 2, 8), 10),
            'N' if cs.get(i + 2) == Some(&'{') => {
                match cs[i + 3..].iter().position(|&c| c == '}') {
                    Some(p) => {
                        let name: String = cs[i + 3..i + 3 + p].iter().collect();
                        (unicode_names2::character(&name), p + 4)
                    }
                    None => (None, 0),
                }
            }
            _ => (None, 0),
        };
        match decoded {
            Some(ch) if len > 0 => {
                out.push(ch);
                i += len;
            }
            // (3.11 refuses the malformed ones before; an unknown escape stays as it is)
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

struct Fixer<'a> {
    names: &'a Names,
    /// The source, when format specs are to be decoded ([`fix_format_specs`]).
    specs_of: Option<&'a str>,
    /// `parse.rs` masked `\N{...}` escapes of format specs.
    masked: bool,
    /// `with` targets parsed without their `*` ([`star_with_targets`]).
    stars: &'a [(usize, usize)],
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
            if let Some(v) = &mut w.optional_vars {
                let start = u32::from(syntax::Ranged::range(&**v).start()) as usize;
                if let Some(&(star, _)) = self.stars.iter().find(|&&(_, t)| t == start) {
                    let range = syntax::text_size::TextRange::new(
                        syntax::text_size::TextSize::from(star as u32),
                        syntax::Ranged::range(&**v).end(),
                    );
                    let value = std::mem::replace(
                        v,
                        Box::new(syntax::Expr::Constant(syntax::ExprConstant {
                            range,
                            value: syntax::Constant::None,
                            kind: None,
                        })),
                    );
                    **v = syntax::Expr::Starred(syntax::ExprStarred {
                        range,
                        value,
                        ctx: syntax::ExprContext::Store,
                    });
                }
            }
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
                if let (Some(src), Some(E::JoinedStr(j))) =
                    (self.specs_of, f.format_spec.as_deref_mut())
                {
                    // (the spec keeps its string token's range: the prefix says if it is raw)
                    let start = usize::from(j.range.start());
                    let raw = src.as_bytes().get(start..).is_some_and(|r| {
                        r.iter()
                            .take_while(|c| c.is_ascii_alphabetic())
                            .any(|c| matches!(c, b'r' | b'R'))
                    });
                    // rustpython keeps the text before the spec's first field raw and decodes
                    // the text after one (where a masked `\\(NAME)` is left as `\(NAME)`).
                    let mut after_field = false;
                    for v in &mut j.values {
                        match v {
                            E::FormattedValue(_) => after_field = true,
                            E::Constant(c) if !raw => {
                                if let syntax::Constant::Str(s) = &mut c.value {
                                    if s.contains('\\') {
                                        *s = if after_field {
                                            if self.masked {
                                                unmask_names(s)
                                            } else {
                                                s.clone()
                                            }
                                        } else {
                                            decode_spec(s, self.masked)
                                        };
                                    }
                                }
                            }
                            _ => {}
                        }
                    }
                }
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
