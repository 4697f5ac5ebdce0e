//! What CPython 3.11 rejects but rustpython 0.4 accepts, checked on the parsed tree: 3.12 syntax
//! (`type X = ...`, type parameters), invalid assignment / deletion / augmented-assignment
//! targets, unparenthesised generator arguments next to other arguments, and a tree deeper than
//! CPython's AST-construction recursion limit.

use super::from_rustpython::{genexp_has_own_parens, range_of};
use super::{syntax, ErrorKind};
use syntax::Expr as E;
use syntax::Stmt as S;

/// CPython 3.11 raises RecursionError when `ast2obj` recursion exceeds
/// `3 * sys.getrecursionlimit()` (3000) minus 3 per active Python frame. How deep the caller is
/// is decided where `ast.parse` runs (`Interp::ast_construction_check`, on the converted tree's
/// `node::ast2obj_depth`); here only trees no caller could convert are refused (any caller has
/// at least one frame, `ast.parse`'s own), which also bounds the recursion of the conversion.
pub(crate) const AST_DEPTH_LIMIT: usize = 2997;

#[derive(Debug)]
pub(crate) struct Invalid {
    pub msg: String,
    pub offset: usize,
    pub kind: ErrorKind,
}

fn invalid(msg: impl Into<String>, offset: impl Into<u32>) -> Invalid {
    Invalid { msg: msg.into(), offset: offset.into() as usize, kind: ErrorKind::SyntaxError }
}

type R = Result<(), Invalid>;

/// CPython's tokenizer message for a character that cannot start or continue a name.
pub(crate) fn invalid_character(c: char) -> String {
    if crate::unicode::is_printable(c) {
        format!("invalid character '{c}' (U+{:04X})", c as u32)
    } else {
        format!("invalid non-printable character U+{:04X}", c as u32)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Targets {
    Star,
    Del,
    For,
}

/// CPython's `_PyPegen_get_expr_name`.
pub(crate) fn expr_name(e: &syntax::Expr) -> &'static str {
    match e {
        E::Attribute(_) => "attribute",
        E::Subscript(_) => "subscript",
        E::Starred(_) => "starred",
        E::Name(_) => "name",
        E::List(_) => "list",
        E::Tuple(_) => "tuple",
        E::Lambda(_) => "lambda",
        E::Call(_) => "function call",
        E::BoolOp(_) | E::BinOp(_) | E::UnaryOp(_) => "expression",
        E::GeneratorExp(_) => "generator expression",
        E::Yield(_) | E::YieldFrom(_) => "yield expression",
        E::Await(_) => "await expression",
        E::ListComp(_) => "list comprehension",
        E::SetComp(_) => "set comprehension",
        E::DictComp(_) => "dict comprehension",
        E::Dict(_) => "dict literal",
        E::Set(_) => "set display",
        E::JoinedStr(_) | E::FormattedValue(_) => "f-string expression",
        E::Constant(c) => match c.value {
            syntax::Constant::None => "None",
            syntax::Constant::Bool(true) => "True",
            syntax::Constant::Bool(false) => "False",
            syntax::Constant::Ellipsis => "ellipsis",
            _ => "literal",
        },
        E::Compare(_) => "comparison",
        E::IfExp(_) => "conditional expression",
        E::NamedExpr(_) => "named expression",
        E::Slice(_) => "slice",
    }
}

/// CPython's `_PyPegen_get_invalid_target`.
fn invalid_target(e: &syntax::Expr, t: Targets) -> Option<&syntax::Expr> {
    match e {
        E::List(l) => l.elts.iter().find_map(|x| invalid_target(x, t)),
        E::Tuple(l) => l.elts.iter().find_map(|x| invalid_target(x, t)),
        E::Starred(s) => {
            if t == Targets::Del {
                Some(e)
            } else {
                invalid_target(&s.value, t)
            }
        }
        E::Compare(c) => {
            if t == Targets::For {
                if matches!(c.ops.first(), Some(syntax::CmpOp::In)) {
                    invalid_target(&c.left, t)
                } else {
                    None
                }
            } else {
                Some(e)
            }
        }
        E::Name(_) | E::Subscript(_) | E::Attribute(_) => None,
        _ => Some(e),
    }
}

fn target_error(bad: &syntax::Expr, t: Targets) -> Invalid {
    let start = range_of(bad).start();
    if t == Targets::Del {
        invalid(format!("cannot delete {}", expr_name(bad)), start)
    } else {
        invalid(format!("cannot assign to {}", expr_name(bad)), start)
    }
}

/// The error of `e` read as a `del` statement's targets (`del_`) or a `for` loop's: CPython's
/// `invalid_del_stmt` / `invalid_for_target`, which parse the statement's expressions whole.
pub(crate) fn statement_target_error(e: &syntax::Expr, del: bool) -> Option<Invalid> {
    let t = if del { Targets::Del } else { Targets::For };
    invalid_target(e, t).map(|bad| target_error(bad, t))
}

/// The error of `e` read as a `with` item's target (`invalid_with_item`: star targets).
pub(crate) fn star_target_error(e: &syntax::Expr) -> Option<Invalid> {
    invalid_target(e, Targets::Star).map(|bad| target_error(bad, Targets::Star))
}

fn check_targets(e: &syntax::Expr, t: Targets) -> R {
    match invalid_target(e, t) {
        Some(bad) => Err(target_error(bad, t)),
        None => Ok(()),
    }
}

pub(crate) struct Validator<'a> {
    src: &'a [u8],
    depth: usize,
}

/// Checks a parsed module.
pub(crate) fn validate(m: &syntax::ModModule, src: &str) -> R {
    let mut v = Validator { src: src.as_bytes(), depth: 1 };
    v.stmts(&m.body)
}

/// Whether text between tokens (whitespace, comments, punctuation) has a comma.
fn has_comma_outside_comments(t: &[u8]) -> bool {
    let mut in_comment = false;
    for &c in t {
        match c {
            b'#' => in_comment = true,
            b'\n' | b'\r' => in_comment = false,
            b',' if !in_comment => return true,
            _ => {}
        }
    }
    false
}

fn word_at(src: &[u8], at: usize, word: &[u8]) -> bool {
    src.get(at..at + word.len()) == Some(word)
        && !src
            .get(at + word.len())
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c >= 0x80)
}

impl Validator<'_> {
    fn enter(&mut self, at: u32) -> R {
        self.depth += 1;
        if self.depth > AST_DEPTH_LIMIT {
            return Err(Invalid {
                msg: "maximum recursion depth exceeded during ast construction".to_string(),
                offset: at as usize,
                kind: ErrorKind::RecursionError,
            });
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Whether an expression is wrapped in grouping parentheses (the previous token is `(`).
    fn grouped(&self, e: &syntax::Expr) -> bool {
        let mut i = u32::from(range_of(e).start()) as usize;
        while i > 0 {
            i -= 1;
            match self.src[i] {
                b' ' | b'\t' | b'\x0c' | b'\n' | b'\r' | b'\\' => continue,
                b'(' => return true,
                _ => return false,
            }
        }
        false
    }

    /// Whether an expression is a parenthesised tuple (its range starts at its own `(`).
    fn paren_tuple(&self, e: &syntax::Expr) -> bool {
        match e {
            E::Tuple(t) => match t.elts.first() {
                // (`(a), b` starts at its first item's own parenthesis: the tuple's is the one
                // whose match ends it)
                Some(first) => {
                    let start = u32::from(t.range.start()) as usize;
                    range_of(first).start() != t.range.start()
                        && (self.src.get(start) != Some(&b'(')
                            || super::from_rustpython::matching_close(self.src, start).is_some_and(
                                |close| close + 1 == u32::from(t.range.end()) as usize,
                            ))
                }
                None => true,
            },
            _ => false,
        }
    }

    /// The first-target rule of CPython's `invalid_named_expression`: `t = v` where `t` is a
    /// bitwise_or expression not starting with a list/tuple/genexp/True/None/False and `v` starts
    /// with a bitwise_or gives "cannot assign to X here. Maybe you meant '==' instead of '='?".
    fn maybe_eq(&self, c: &syntax::Expr, value: &syntax::Expr) -> bool {
        let grouped = self.grouped(c);
        let bitwise_or = grouped
            || !matches!(
                c,
                E::Compare(_)
                    | E::BoolOp(_)
                    | E::IfExp(_)
                    | E::Lambda(_)
                    | E::NamedExpr(_)
                    | E::Starred(_)
                    | E::Yield(_)
                    | E::YieldFrom(_)
                    | E::UnaryOp(syntax::ExprUnaryOp { op: syntax::UnaryOp::Not, .. })
            );
        if !bitwise_or {
            return false;
        }
        // Leftmost atom of `c`.
        let mut left = c;
        loop {
            if !std::ptr::eq(left, c) && range_of(left).start() != range_of(c).start() {
                break;
            }
            if !std::ptr::eq(left, c) && self.grouped(left) {
                break;
            }
            let next = match left {
                E::BinOp(b) => &*b.left,
                E::Call(x) => &*x.func,
                E::Attribute(x) => &*x.value,
                E::Subscript(x) => &*x.value,
                _ => break,
            };
            left = next;
        }
        let starts_bad = !self.grouped(left)
            && (matches!(left, E::List(_) | E::GeneratorExp(_))
                || self.paren_tuple(left)
                || matches!(left, E::Constant(k) if matches!(k.value, syntax::Constant::None | syntax::Constant::Bool(_))));
        if starts_bad && range_of(left).start() == range_of(c).start() {
            return false;
        }
        self.value_is_bitwise_or(value)
    }

    /// Whether `e` is one `bitwise_or` as a whole (the token after it is the one after `e`):
    /// not a comparison, `not`, `and`/`or`, conditional, lambda, unparenthesized tuple, starred
    /// or yield, unless in parentheses.
    fn whole_bitwise_or(&self, e: &syntax::Expr) -> bool {
        if self.grouped(e) {
            return true;
        }
        match e {
            E::Tuple(_) => self.paren_tuple(e),
            E::UnaryOp(u) => !matches!(u.op, syntax::UnaryOp::Not),
            E::Compare(_)
            | E::BoolOp(_)
            | E::IfExp(_)
            | E::Lambda(_)
            | E::Starred(_)
            | E::Yield(_)
            | E::YieldFrom(_)
            | E::NamedExpr(_) => false,
            _ => true,
        }
    }

    /// Whether a value starts with a `bitwise_or` (not `not`, `lambda`, `yield` or `*`).
    fn value_is_bitwise_or(&self, value: &syntax::Expr) -> bool {
        let v = u32::from(range_of(value).start()) as usize;
        !(word_at(self.src, v, b"not")
            || word_at(self.src, v, b"lambda")
            || word_at(self.src, v, b"yield")
            || self.src.get(v) == Some(&b'*'))
    }

    fn assign(&mut self, a: &syntax::StmtAssign) -> R {
        let Some(first_bad) = a.targets.iter().find_map(|t| invalid_target(t, Targets::Star))
        else {
            return Ok(());
        };
        // The second pass's `invalid_assignment` parses the statement's first items as
        // `star_named_expression`s: `invalid_named_expression` looks at the last item of the
        // first target, `=`, and the `bitwise_or` after it, and raises unless `=` or `:=`
        // follows that (the value, or a second target that is a `bitwise_or` as a whole).
        let chained = a.targets.len() >= 2;
        let after = match a.targets.get(1) {
            None => Some(&*a.value),
            Some(t1) if !self.whole_bitwise_or(t1) => Some(t1),
            Some(_) => None,
        };
        if let Some(value) = after {
            let t0 = &a.targets[0];
            let cand = match t0 {
                E::Tuple(t) if !self.paren_tuple(t0) => t.elts.last(),
                other => Some(other),
            };
            let in_tuple = !std::ptr::eq(cand.map_or(t0, |c| c), t0);
            if let Some(c) = cand {
                if (in_tuple || chained)
                    && matches!(c, E::Name(_))
                    && !self.grouped(c)
                    && self.value_is_bitwise_or(value)
                {
                    return Err(invalid(
                        "invalid syntax. Maybe you meant '==' or ':=' instead of '='?",
                        range_of(c).start(),
                    ));
                }
                let invalid_itself =
                    invalid_target(c, Targets::Star).is_some_and(|bad| std::ptr::eq(bad, c));
                if (invalid_itself || in_tuple || chained)
                    && !matches!(c, E::Starred(_))
                    && self.maybe_eq(c, value)
                {
                    return Err(invalid(
                        format!(
                            "cannot assign to {} here. Maybe you meant '==' instead of '='?",
                            expr_name(c)
                        ),
                        range_of(c).start(),
                    ));
                }
            }
        }
        for t in &a.targets {
            if let Some(bad) = invalid_target(t, Targets::Star) {
                if matches!(bad, E::Yield(_) | E::YieldFrom(_))
                    && std::ptr::eq(bad, t)
                    && !self.grouped(bad)
                {
                    // (`invalid_assignment`'s bare `yield_expr`; a parenthesized one is a
                    // `star_expressions` target that cannot be assigned)
                    return Err(invalid(
                        "assignment to yield expression not possible",
                        range_of(bad).start(),
                    ));
                }
                return Err(target_error(bad, Targets::Star));
            }
        }
        Err(target_error(first_bad, Targets::Star))
    }

    fn stmts(&mut self, body: &[syntax::Stmt]) -> R {
        body.iter().try_for_each(|s| self.stmt(s))
    }

    fn exprs(&mut self, v: &[syntax::Expr]) -> R {
        v.iter().try_for_each(|e| self.expr(e))
    }

    fn opt(&mut self, e: &Option<Box<syntax::Expr>>) -> R {
        match e {
            Some(e) => self.expr(e),
            None => Ok(()),
        }
    }

    fn type_params(&self, tp: &[syntax::TypeParam], msg: &str) -> R {
        match tp.first() {
            None => Ok(()),
            Some(p) => {
                use syntax::Ranged;
                // Report at the `[` before the first parameter.
                let mut i = u32::from(p.range().start()) as usize;
                while i > 0 && self.src[i - 1] != b'[' {
                    i -= 1;
                }
                Err(invalid(msg, i.saturating_sub(1) as u32))
            }
        }
    }

    fn stmt(&mut self, s: &syntax::Stmt) -> R {
        use syntax::Ranged;
        self.enter(u32::from(s.range().start()))?;
        match s {
            S::FunctionDef(f) => {
                self.type_params(&f.type_params, "expected '('")?;
                self.exprs(&f.decorator_list)?;
                self.arguments(&f.args)?;
                self.opt(&f.returns)?;
                self.stmts(&f.body)?;
            }
            S::AsyncFunctionDef(f) => {
                self.type_params(&f.type_params, "expected '('")?;
                self.exprs(&f.decorator_list)?;
                self.arguments(&f.args)?;
                self.opt(&f.returns)?;
                self.stmts(&f.body)?;
            }
            S::ClassDef(c) => {
                self.type_params(&c.type_params, "invalid syntax")?;
                self.exprs(&c.decorator_list)?;
                for b in &c.bases {
                    // `class C(x for x in y)`: a generator is no base list.
                    if let E::GeneratorExp(g) = b {
                        if !genexp_has_own_parens(self.src, g) {
                            let mut j = u32::from(range_of(&g.elt).end()) as usize;
                            while j < self.src.len()
                                && matches!(self.src[j], b' ' | b'\t' | b'\n' | b'\r' | b')')
                            {
                                j += 1;
                            }
                            return Err(invalid("invalid syntax", j as u32));
                        }
                    }
                }
                self.exprs(&c.bases)?;
                self.keywords(&c.keywords)?;
                self.stmts(&c.body)?;
            }
            S::Return(r) => self.opt(&r.value)?,
            S::Delete(d) => {
                for t in &d.targets {
                    check_targets(t, Targets::Del)?;
                }
                self.exprs(&d.targets)?;
            }
            S::Assign(a) => {
                self.assign(a)?;
                self.exprs(&a.targets)?;
                self.expr(&a.value)?;
            }
            S::TypeAlias(t) => {
                // `type X = ...`: 3.11 sees the soft keyword as a name followed by a name.
                let name_start = u32::from(range_of(&t.name).start());
                return Err(invalid("invalid syntax", name_start));
            }
            S::AugAssign(a) => {
                if !matches!(&*a.target, E::Name(_) | E::Attribute(_) | E::Subscript(_)) {
                    return Err(invalid(
                        format!(
                            "'{}' is an illegal expression for augmented assignment",
                            expr_name(&a.target)
                        ),
                        range_of(&a.target).start(),
                    ));
                }
                self.expr(&a.target)?;
                self.expr(&a.value)?;
            }
            S::AnnAssign(a) => {
                let t = &*a.target;
                let msg = match t {
                    E::Name(_) | E::Attribute(_) | E::Subscript(_) => None,
                    E::Tuple(_) => Some("only single target (not tuple) can be annotated"),
                    E::List(_) => Some("only single target (not list) can be annotated"),
                    _ => Some("illegal target for annotation"),
                };
                if let Some(msg) = msg {
                    return Err(invalid(msg, range_of(t).start()));
                }
                self.expr(t)?;
                self.expr(&a.annotation)?;
                self.opt(&a.value)?;
            }
            S::For(f) => {
                check_targets(&f.target, Targets::For)?;
                self.expr(&f.target)?;
                self.expr(&f.iter)?;
                self.stmts(&f.body)?;
                self.stmts(&f.orelse)?;
            }
            S::AsyncFor(f) => {
                check_targets(&f.target, Targets::For)?;
                self.expr(&f.target)?;
                self.expr(&f.iter)?;
                self.stmts(&f.body)?;
                self.stmts(&f.orelse)?;
            }
            S::While(w) => {
                self.expr(&w.test)?;
                self.stmts(&w.body)?;
                self.stmts(&w.orelse)?;
            }
            S::If(i) => {
                self.expr(&i.test)?;
                self.stmts(&i.body)?;
                self.stmts(&i.orelse)?;
            }
            S::With(w) => {
                self.withitems(&w.items)?;
                self.stmts(&w.body)?;
            }
            S::AsyncWith(w) => {
                self.withitems(&w.items)?;
                self.stmts(&w.body)?;
            }
            S::Match(m) => {
                self.expr(&m.subject)?;
                for c in &m.cases {
                    self.enter(u32::from(m.range.start()))?;
                    self.pattern(&c.pattern)?;
                    self.opt(&c.guard)?;
                    self.stmts(&c.body)?;
                    self.leave();
                }
            }
            S::Raise(r) => {
                self.opt(&r.exc)?;
                self.opt(&r.cause)?;
            }
            S::Try(t) => {
                self.stmts(&t.body)?;
                self.handlers(&t.handlers)?;
                self.stmts(&t.orelse)?;
                self.stmts(&t.finalbody)?;
            }
            S::TryStar(t) => {
                self.stmts(&t.body)?;
                self.handlers(&t.handlers)?;
                self.stmts(&t.orelse)?;
                self.stmts(&t.finalbody)?;
            }
            S::Assert(a) => {
                self.expr(&a.test)?;
                self.opt(&a.msg)?;
            }
            S::Import(_) | S::ImportFrom(_) => {
                self.enter(0)?;
                self.leave();
            }
            S::Global(_) | S::Nonlocal(_) | S::Pass(_) | S::Break(_) | S::Continue(_) => {}
            S::Expr(e) => self.expr(&e.value)?,
        }
        self.leave();
        Ok(())
    }

    fn handlers(&mut self, hs: &[syntax::ExceptHandler]) -> R {
        for h in hs {
            let syntax::ExceptHandler::ExceptHandler(h) = h;
            self.enter(u32::from(h.range.start()))?;
            self.opt(&h.type_)?;
            self.stmts(&h.body)?;
            self.leave();
        }
        Ok(())
    }

    fn withitems(&mut self, items: &[syntax::WithItem]) -> R {
        for w in items {
            self.enter(u32::from(range_of(&w.context_expr).start()))?;
            if let Some(v) = &w.optional_vars {
                check_targets(v, Targets::Star)?;
            }
            self.expr(&w.context_expr)?;
            self.opt(&w.optional_vars)?;
            self.leave();
        }
        Ok(())
    }

    fn keywords(&mut self, kws: &[syntax::Keyword]) -> R {
        for kw in kws {
            self.enter(u32::from(kw.range.start()))?;
            self.expr(&kw.value)?;
            self.leave();
        }
        Ok(())
    }

    fn arg(&mut self, a: &syntax::Arg) -> R {
        self.enter(u32::from(a.range.start()))?;
        self.opt(&a.annotation)?;
        self.leave();
        Ok(())
    }

    fn arguments(&mut self, a: &syntax::Arguments) -> R {
        // `def f(*, **k)`: rustpython accepts a bare `*` followed only by `**kwargs`.
        if let (Some(kw), None, true) = (&a.kwarg, &a.vararg, a.kwonlyargs.is_empty()) {
            let mut i = u32::from(kw.range.start()) as usize;
            let mut stars = 0;
            let mut first_star = i;
            while i > 0
                && matches!(self.src[i - 1], b' ' | b'\t' | b'\n' | b'\r' | b'\\' | b',' | b'*')
            {
                i -= 1;
                if self.src[i] == b'*' {
                    stars += 1;
                    first_star = i;
                }
            }
            if stars >= 3 {
                return Err(invalid("named arguments must follow bare *", first_star as u32));
            }
        }
        self.enter(0)?;
        for x in a.posonlyargs.iter().chain(&a.args).chain(&a.kwonlyargs) {
            self.arg(&x.def)?;
            self.opt(&x.default)?;
        }
        if let Some(v) = &a.vararg {
            self.arg(v)?;
        }
        if let Some(v) = &a.kwarg {
            self.arg(v)?;
        }
        self.leave();
        Ok(())
    }

    fn comprehensions(&mut self, gens: &[syntax::Comprehension]) -> R {
        for c in gens {
            self.enter(u32::from(range_of(&c.target).start()))?;
            if !c.ifs.is_empty() && invalid_target(&c.target, Targets::Star).is_some() {
                // The second pass's `invalid_for_target` reads `target in iter if cond` as
                // `star_expressions`: a conditional without `else` (`invalid_expression`) at
                // the comparison's start, the target's last item (its parentheses included).
                let last = match &c.target {
                    E::Tuple(t) if !self.paren_tuple(&c.target) => t.elts.last(),
                    other => Some(other),
                };
                let mut at = u32::from(range_of(last.unwrap_or(&c.target)).start()) as usize;
                let mut i = at;
                while i > 0 {
                    i -= 1;
                    match self.src[i] {
                        b' ' | b'\t' | b'\x0c' | b'\n' | b'\r' | b'\\' => {}
                        b'(' => at = i,
                        _ => break,
                    }
                }
                return Err(invalid("expected 'else' after 'if' expression", at as u32));
            }
            check_targets(&c.target, Targets::Star)?;
            self.expr(&c.target)?;
            self.expr(&c.iter)?;
            self.exprs(&c.ifs)?;
            self.leave();
        }
        Ok(())
    }

    fn expr(&mut self, e: &syntax::Expr) -> R {
        self.enter(u32::from(range_of(e).start()))?;
        match e {
            E::BoolOp(b) => self.exprs(&b.values)?,
            E::NamedExpr(n) => {
                if !matches!(&*n.target, E::Name(_)) {
                    return Err(invalid(
                        format!("cannot use assignment expressions with {}", expr_name(&n.target)),
                        range_of(&n.target).start(),
                    ));
                }
                self.expr(&n.value)?;
            }
            E::BinOp(b) => {
                self.expr(&b.left)?;
                self.expr(&b.right)?;
            }
            E::UnaryOp(u) => self.expr(&u.operand)?,
            E::Lambda(l) => {
                self.arguments(&l.args)?;
                self.expr(&l.body)?;
            }
            E::IfExp(i) => {
                self.expr(&i.test)?;
                self.expr(&i.body)?;
                self.expr(&i.orelse)?;
            }
            E::Dict(d) => {
                for k in d.keys.iter().flatten() {
                    self.expr(k)?;
                }
                self.exprs(&d.values)?;
            }
            E::Set(s) => self.exprs(&s.elts)?,
            E::ListComp(c) => {
                self.expr(&c.elt)?;
                self.comprehensions(&c.generators)?;
            }
            E::SetComp(c) => {
                self.expr(&c.elt)?;
                self.comprehensions(&c.generators)?;
            }
            E::GeneratorExp(c) => {
                self.expr(&c.elt)?;
                self.comprehensions(&c.generators)?;
            }
            E::DictComp(c) => {
                self.expr(&c.key)?;
                self.expr(&c.value)?;
                self.comprehensions(&c.generators)?;
            }
            E::Await(a) => self.expr(&a.value)?,
            E::Yield(y) => self.opt(&y.value)?,
            E::YieldFrom(y) => self.expr(&y.value)?,
            E::Compare(c) => {
                self.expr(&c.left)?;
                self.exprs(&c.comparators)?;
            }
            E::Call(c) => {
                if let [E::GeneratorExp(g)] = c.args.as_slice() {
                    // `f(x for x in y,)`: a trailing comma needs the generator parenthesised.
                    let end = u32::from(c.range.end()) as usize;
                    let tail =
                        self.src.get(u32::from(g.range.end()) as usize..end.saturating_sub(1));
                    if c.keywords.is_empty()
                        && !genexp_has_own_parens(self.src, g)
                        && tail.is_some_and(has_comma_outside_comments)
                    {
                        return Err(invalid(
                            "Generator expression must be parenthesized",
                            g.range.start(),
                        ));
                    }
                }
                if c.args.len() + c.keywords.len() > 1 {
                    for a in &c.args {
                        if let E::GeneratorExp(g) = a {
                            if !genexp_has_own_parens(self.src, g) {
                                return Err(invalid(
                                    "Generator expression must be parenthesized",
                                    g.range.start(),
                                ));
                            }
                        }
                    }
                }
                self.expr(&c.func)?;
                self.exprs(&c.args)?;
                self.keywords(&c.keywords)?;
            }
            E::FormattedValue(f) => {
                self.expr(&f.value)?;
                self.opt(&f.format_spec)?;
            }
            E::JoinedStr(j) => self.exprs(&j.values)?,
            E::Constant(_) => {}
            // rustpython lexes an emoji as a name; 3.11's identifiers are Unicode 14.0's XID.
            E::Name(n) if !n.id.is_ascii() && !crate::unicode::is_identifier(n.id.as_str()) => {
                let c = n.id.chars().find(|&c| !crate::unicode::is_xid_continue(c)).unwrap_or('?');
                return Err(invalid(invalid_character(c), n.range.start()));
            }
            E::Name(_) => {}
            E::Attribute(a) => self.expr(&a.value)?,
            E::Subscript(s) => {
                self.expr(&s.value)?;
                self.expr(&s.slice)?;
            }
            E::Starred(s) => self.expr(&s.value)?,
            E::List(l) => self.exprs(&l.elts)?,
            E::Tuple(t) => self.exprs(&t.elts)?,
            E::Slice(s) => {
                self.opt(&s.lower)?;
                self.opt(&s.upper)?;
                self.opt(&s.step)?;
            }
        }
        self.leave();
        Ok(())
    }

    fn pattern(&mut self, p: &syntax::Pattern) -> R {
        use syntax::Pattern as P;
        use syntax::Ranged;
        self.enter(u32::from(p.range().start()))?;
        match p {
            P::MatchValue(v) => self.expr(&v.value)?,
            P::MatchSingleton(_) | P::MatchStar(_) => {}
            P::MatchSequence(v) => v.patterns.iter().try_for_each(|p| self.pattern(p))?,
            P::MatchMapping(v) => {
                self.exprs(&v.keys)?;
                v.patterns.iter().try_for_each(|p| self.pattern(p))?;
            }
            P::MatchClass(v) => {
                self.expr(&v.cls)?;
                v.patterns.iter().try_for_each(|p| self.pattern(p))?;
                v.kwd_patterns.iter().try_for_each(|p| self.pattern(p))?;
            }
            P::MatchAs(v) => {
                if let Some(p) = &v.pattern {
                    self.pattern(p)?;
                }
            }
            P::MatchOr(v) => v.patterns.iter().try_for_each(|p| self.pattern(p))?,
        }
        self.leave();
        Ok(())
    }
}
