//! The reference conversion: rustpython's typed tree (`python::syntax`) into the CPython-shaped
//! [`Node`] tree, with CPython's positions (the quirks that need the source text included), and
//! the source-text helpers the validator shares (bracket matching, string skipping).

use smallvec::smallvec;
use std::rc::Rc;

use super::classes::k;
use super::node::{leaf, node, normalize_identifier, Constant, Field, Loc, Node, NodeFields};
use super::{syntax, LineIndex};

/// Converts a parsed module into the CPython-shaped tree (`index` must be built from the same
/// source, which it keeps for the position quirks that need the text).
pub fn from_module(module: &syntax::ModModule, index: &LineIndex) -> Node {
    Converter::new(index, &[]).module(module)
}

/// Conversion of a module whose duplicate parameter / keyword names were renamed before parsing:
/// `renames` maps the byte offset of each renamed name to its original text.
pub(crate) fn from_module_renamed(
    module: &syntax::ModModule,
    index: &LineIndex,
    renames: &[(u32, String)],
) -> Node {
    Converter::new(index, renames).module(module)
}

struct Converter<'a> {
    index: &'a LineIndex,
    renames: &'a [(u32, String)],
    /// Inside the replacement fields of an f-string containing CRLF, rustpython's offsets count the
    /// string with each `\r\n` folded to `\n`: these are the folded offsets at which one more
    /// `\r` was removed (`shift_on` says whether they apply right now).
    crlf: std::cell::RefCell<Vec<FoldedToken>>,
    shift_on: std::cell::Cell<bool>,
    /// The line of the last position asked for: nodes come in nearly source order, so the next
    /// answer is usually on the same line or the next one ([`LineIndex::position_near`]).
    line_hint: std::cell::Cell<usize>,
}

/// One string token of an f-string with CRLF line ends: its start, its end in folded offsets, and
/// the folded offsets from which one more `\r` was removed.
struct FoldedToken {
    start: u32,
    folded_end: u32,
    thresholds: Vec<u32>,
}

type Range = syntax::text_size::TextRange;

/// A string constant with no text.
fn is_empty_str(e: &syntax::Expr) -> bool {
    let syntax::Expr::Constant(c) = e else { return false };
    matches!(&c.value, syntax::Constant::Str(s) if s.is_empty())
}

/// An identifier as CPython stores it: NFKC-normalised when not ASCII (PEP 3131).
fn ident(s: &syntax::Identifier) -> Field {
    Field::Str(Rc::from(&*normalize_identifier(s.as_str())))
}

fn opt_ident(s: &Option<syntax::Identifier>) -> Field {
    s.as_ref().map_or(Field::None, ident)
}

fn ctx(c: &syntax::ExprContext) -> Field {
    leaf(match c {
        syntax::ExprContext::Load => k::Load,
        syntax::ExprContext::Store => k::Store,
        syntax::ExprContext::Del => k::Del,
    })
}

fn operator(op: &syntax::Operator) -> Field {
    use syntax::Operator as O;
    leaf(match op {
        O::Add => k::Add,
        O::Sub => k::Sub,
        O::Mult => k::Mult,
        O::MatMult => k::MatMult,
        O::Div => k::Div,
        O::Mod => k::Mod,
        O::Pow => k::Pow,
        O::LShift => k::LShift,
        O::RShift => k::RShift,
        O::BitOr => k::BitOr,
        O::BitXor => k::BitXor,
        O::BitAnd => k::BitAnd,
        O::FloorDiv => k::FloorDiv,
    })
}

fn cmpop(op: &syntax::CmpOp) -> Field {
    use syntax::CmpOp as C;
    leaf(match op {
        C::Eq => k::Eq,
        C::NotEq => k::NotEq,
        C::Lt => k::Lt,
        C::LtE => k::LtE,
        C::Gt => k::Gt,
        C::GtE => k::GtE,
        C::Is => k::Is,
        C::IsNot => k::IsNot,
        C::In => k::In,
        C::NotIn => k::NotIn,
    })
}

fn constant(c: &syntax::Constant) -> Constant {
    match c {
        syntax::Constant::None => Constant::None,
        syntax::Constant::Bool(b) => Constant::Bool(*b),
        syntax::Constant::Str(s) => Constant::Str(Rc::from(s.as_str())),
        syntax::Constant::Bytes(b) => Constant::Bytes(Rc::from(b.as_slice())),
        syntax::Constant::Int(i) => Constant::Int(i.clone()),
        syntax::Constant::Float(f) => Constant::Float(*f),
        syntax::Constant::Complex { real, imag } => Constant::Complex { real: *real, imag: *imag },
        syntax::Constant::Ellipsis => Constant::Ellipsis,
        // The parser never produces tuple constants (only the optimiser does).
        syntax::Constant::Tuple(_) => Constant::None,
    }
}

impl Converter<'_> {
    fn new<'a>(index: &'a LineIndex, renames: &'a [(u32, String)]) -> Converter<'a> {
        Converter {
            index,
            renames,
            crlf: std::cell::RefCell::new(Vec::new()),
            shift_on: std::cell::Cell::new(false),
            line_hint: std::cell::Cell::new(0),
        }
    }

    fn unfold(&self, off: u32) -> u32 {
        if !self.shift_on.get() {
            return off;
        }
        let toks = self.crlf.borrow();
        match toks.iter().find(|t| t.start <= off && off <= t.folded_end) {
            Some(t) => off + t.thresholds.partition_point(|&x| x <= off) as u32,
            None => off,
        }
    }

    fn loc(&self, r: Range) -> Option<Loc> {
        let hint = &self.line_hint;
        let (lineno, col_offset) =
            self.index.position_near(self.unfold(u32::from(r.start())), hint);
        let (end_lineno, end_col_offset) =
            self.index.position_near(self.unfold(u32::from(r.end())), hint);
        Some(Loc { lineno, col_offset, end_lineno, end_col_offset })
    }

    /// Prepares the CRLF correction for an f-string's tokens (outermost f-string only).
    fn enter_fstring(&self, r: Range) -> bool {
        if self.shift_on.get() || !self.crlf.borrow().is_empty() {
            return false;
        }
        let src = self.index.source().as_bytes();
        let (a, b) = (u32::from(r.start()) as usize, u32::from(r.end()) as usize);
        if !src.get(a..b).is_some_and(|t| t.windows(2).any(|w| w == b"\r\n")) {
            return false;
        }
        let mut toks = Vec::new();
        let mut i = a;
        while i < b {
            let starts_string = src[i].is_ascii_alphabetic() || src[i] == b'\'' || src[i] == b'"';
            let end = if starts_string { skip_string(src, i) } else { None };
            match end {
                Some(e) => {
                    let mut thresholds = Vec::new();
                    for j in i..e.saturating_sub(1) {
                        if src[j] == b'\r' && src[j + 1] == b'\n' {
                            thresholds.push(j as u32 - thresholds.len() as u32);
                        }
                    }
                    let folded_end = e as u32 - thresholds.len() as u32;
                    toks.push(FoldedToken { start: i as u32, folded_end, thresholds });
                    i = e;
                }
                None if src[i] == b'#' => {
                    while i < b && src[i] != b'\n' && src[i] != b'\r' {
                        i += 1;
                    }
                }
                None => i += 1,
            }
        }
        *self.crlf.borrow_mut() = toks;
        true
    }

    /// The original name of an identifier renamed at `offset` before parsing, if any.
    fn renamed(&self, offset: u32, s: &syntax::Identifier) -> Field {
        if !self.renames.is_empty() {
            if let Some((_, orig)) = self.renames.iter().find(|(o, _)| *o == offset) {
                return Field::Str(Rc::from(&*normalize_identifier(orig)));
            }
        }
        ident(s)
    }

    fn module(&self, m: &syntax::ModModule) -> Node {
        Node {
            class: k::Module,
            fields: smallvec![self.stmts(&m.body), Field::List(Vec::new())],
            loc: None,
        }
    }

    fn stmts(&self, body: &[syntax::Stmt]) -> Field {
        Field::List(body.iter().map(|s| self.stmt(s)).collect())
    }

    fn exprs(&self, v: &[syntax::Expr]) -> Field {
        Field::List(v.iter().map(|e| self.expr(e)).collect())
    }

    fn opt_expr(&self, e: &Option<Box<syntax::Expr>>) -> Field {
        e.as_ref().map_or(Field::None, |e| self.expr(e))
    }

    fn stmt(&self, s: &syntax::Stmt) -> Field {
        use syntax::Stmt as S;
        match s {
            S::FunctionDef(f) => node(
                k::FunctionDef,
                smallvec![
                    ident(&f.name),
                    self.arguments(&f.args),
                    self.stmts(&f.body),
                    self.exprs(&f.decorator_list),
                    self.opt_expr(&f.returns),
                    Field::None,
                ],
                self.loc(f.range),
            ),
            S::AsyncFunctionDef(f) => node(
                k::AsyncFunctionDef,
                smallvec![
                    ident(&f.name),
                    self.arguments(&f.args),
                    self.stmts(&f.body),
                    self.exprs(&f.decorator_list),
                    self.opt_expr(&f.returns),
                    Field::None,
                ],
                self.loc(f.range),
            ),
            S::ClassDef(c) => node(
                k::ClassDef,
                smallvec![
                    ident(&c.name),
                    self.exprs(&c.bases),
                    self.keywords(&c.keywords),
                    self.stmts(&c.body),
                    self.exprs(&c.decorator_list),
                ],
                self.loc(c.range),
            ),
            S::Return(r) => node(k::Return, smallvec![self.opt_expr(&r.value)], self.loc(r.range)),
            S::Delete(d) => node(k::Delete, smallvec![self.exprs(&d.targets)], self.loc(d.range)),
            S::Assign(a) => node(
                k::Assign,
                smallvec![self.exprs(&a.targets), self.expr(&a.value), Field::None],
                self.loc(a.range),
            ),
            // Rejected by the 3.11 validation before conversion; kept total without panicking.
            S::TypeAlias(t) => node(k::Pass, NodeFields::new(), self.loc(t.range)),
            S::AugAssign(a) => node(
                k::AugAssign,
                smallvec![self.expr(&a.target), operator(&a.op), self.expr(&a.value)],
                self.loc(a.range),
            ),
            S::AnnAssign(a) => node(
                k::AnnAssign,
                smallvec![
                    self.expr(&a.target),
                    self.expr(&a.annotation),
                    self.opt_expr(&a.value),
                    // `(x): int` is not simple; rustpython says it is.
                    Field::Int(i64::from(
                        a.simple && range_of(&a.target).start() == a.range.start(),
                    )),
                ],
                self.loc(a.range),
            ),
            S::For(f) => node(
                k::For,
                smallvec![
                    self.expr(&f.target),
                    self.expr(&f.iter),
                    self.stmts(&f.body),
                    self.stmts(&f.orelse),
                    Field::None,
                ],
                self.loc(f.range),
            ),
            S::AsyncFor(f) => node(
                k::AsyncFor,
                smallvec![
                    self.expr(&f.target),
                    self.expr(&f.iter),
                    self.stmts(&f.body),
                    self.stmts(&f.orelse),
                    Field::None,
                ],
                self.loc(f.range),
            ),
            S::While(w) => node(
                k::While,
                smallvec![self.expr(&w.test), self.stmts(&w.body), self.stmts(&w.orelse)],
                self.loc(w.range),
            ),
            S::If(i) => node(
                k::If,
                smallvec![self.expr(&i.test), self.stmts(&i.body), self.stmts(&i.orelse)],
                self.loc(i.range),
            ),
            S::With(w) => node(
                k::With,
                smallvec![self.withitems(&w.items), self.stmts(&w.body), Field::None],
                self.loc(w.range),
            ),
            S::AsyncWith(w) => node(
                k::AsyncWith,
                smallvec![self.withitems(&w.items), self.stmts(&w.body), Field::None],
                self.loc(w.range),
            ),
            S::Match(m) => node(
                k::Match,
                smallvec![
                    self.expr(&m.subject),
                    Field::List(
                        m.cases
                            .iter()
                            .map(|c| {
                                node(
                                    k::match_case,
                                    smallvec![
                                        self.pattern(&c.pattern),
                                        self.opt_expr(&c.guard),
                                        self.stmts(&c.body),
                                    ],
                                    None,
                                )
                            })
                            .collect(),
                    ),
                ],
                self.loc(m.range),
            ),
            S::Raise(r) => node(
                k::Raise,
                smallvec![self.opt_expr(&r.exc), self.opt_expr(&r.cause)],
                self.loc(r.range),
            ),
            S::Try(t) => node(
                k::Try,
                smallvec![
                    self.stmts(&t.body),
                    self.handlers(&t.handlers),
                    self.stmts(&t.orelse),
                    self.stmts(&t.finalbody),
                ],
                self.loc(t.range),
            ),
            S::TryStar(t) => node(
                k::TryStar,
                smallvec![
                    self.stmts(&t.body),
                    self.handlers(&t.handlers),
                    self.stmts(&t.orelse),
                    self.stmts(&t.finalbody),
                ],
                self.loc(t.range),
            ),
            S::Assert(a) => node(
                k::Assert,
                smallvec![self.expr(&a.test), self.opt_expr(&a.msg)],
                self.loc(a.range),
            ),
            S::Import(i) => node(k::Import, smallvec![self.aliases(&i.names)], self.loc(i.range)),
            S::ImportFrom(i) => node(
                k::ImportFrom,
                smallvec![
                    opt_ident(&i.module),
                    self.aliases(&i.names),
                    Field::Int(i.level.as_ref().map_or(0, |l| i64::from(l.to_u32()))),
                ],
                self.loc(i.range),
            ),
            S::Global(g) => node(
                k::Global,
                smallvec![Field::List(g.names.iter().map(ident).collect())],
                self.loc(g.range),
            ),
            S::Nonlocal(g) => node(
                k::Nonlocal,
                smallvec![Field::List(g.names.iter().map(ident).collect())],
                self.loc(g.range),
            ),
            S::Expr(e) => node(k::Expr, smallvec![self.expr(&e.value)], self.loc(e.range)),
            S::Pass(p) => node(k::Pass, NodeFields::new(), self.loc(p.range)),
            S::Break(p) => node(k::Break, NodeFields::new(), self.loc(p.range)),
            S::Continue(p) => node(k::Continue, NodeFields::new(), self.loc(p.range)),
        }
    }

    fn handlers(&self, hs: &[syntax::ExceptHandler]) -> Field {
        Field::List(
            hs.iter()
                .map(|h| {
                    let syntax::ExceptHandler::ExceptHandler(h) = h;
                    node(
                        k::ExceptHandler,
                        smallvec![self.opt_expr(&h.type_), opt_ident(&h.name), self.stmts(&h.body)],
                        self.loc(h.range),
                    )
                })
                .collect(),
        )
    }

    fn withitems(&self, items: &[syntax::WithItem]) -> Field {
        Field::List(
            items
                .iter()
                .map(|w| {
                    node(
                        k::withitem,
                        smallvec![self.expr(&w.context_expr), self.opt_expr(&w.optional_vars)],
                        None,
                    )
                })
                .collect(),
        )
    }

    fn aliases(&self, names: &[syntax::Alias]) -> Field {
        Field::List(
            names
                .iter()
                .map(|a| {
                    node(
                        k::alias,
                        smallvec![ident(&a.name), opt_ident(&a.asname)],
                        self.loc(a.range),
                    )
                })
                .collect(),
        )
    }

    fn keywords(&self, kws: &[syntax::Keyword]) -> Field {
        Field::List(
            kws.iter()
                .map(|kw| {
                    let arg = match &kw.arg {
                        Some(a) => self.renamed(u32::from(kw.range.start()), a),
                        None => Field::None,
                    };
                    node(k::keyword, smallvec![arg, self.expr(&kw.value)], self.loc(kw.range))
                })
                .collect(),
        )
    }

    fn arg(&self, a: &syntax::Arg) -> Field {
        node(
            k::arg,
            smallvec![
                self.renamed(u32::from(a.range.start()), &a.arg),
                self.opt_expr(&a.annotation),
                Field::None,
            ],
            self.loc(a.range),
        )
    }

    fn arguments(&self, a: &syntax::Arguments) -> Field {
        let plain = |v: &[syntax::ArgWithDefault]| {
            Field::List(v.iter().map(|x| self.arg(&x.def)).collect())
        };
        let kw_defaults = a
            .kwonlyargs
            .iter()
            .map(|x| x.default.as_ref().map_or(Field::None, |d| self.expr(d)))
            .collect();
        let defaults = a
            .posonlyargs
            .iter()
            .chain(a.args.iter())
            .filter_map(|x| x.default.as_ref().map(|d| self.expr(d)))
            .collect();
        node(
            k::arguments,
            smallvec![
                plain(&a.posonlyargs),
                plain(&a.args),
                a.vararg.as_ref().map_or(Field::None, |v| self.arg(v)),
                plain(&a.kwonlyargs),
                Field::List(kw_defaults),
                a.kwarg.as_ref().map_or(Field::None, |v| self.arg(v)),
                Field::List(defaults),
            ],
            None,
        )
    }

    fn comprehensions(&self, gens: &[syntax::Comprehension]) -> Field {
        Field::List(
            gens.iter()
                .map(|c| {
                    node(
                        k::comprehension,
                        smallvec![
                            self.expr(&c.target),
                            self.expr(&c.iter),
                            self.exprs(&c.ifs),
                            Field::Int(i64::from(c.is_async)),
                        ],
                        None,
                    )
                })
                .collect(),
        )
    }

    /// A generator expression that is the only argument of a call without its own parentheses:
    /// CPython 3.11 gives it the range from the call's `(` to its `)`.
    fn sole_genexp_range(&self, call: &syntax::ExprCall) -> Option<Range> {
        if call.args.len() != 1 || !call.keywords.is_empty() {
            return None;
        }
        let syntax::Expr::GeneratorExp(g) = &call.args[0] else { return None };
        let src = self.index.source().as_bytes();
        if genexp_has_own_parens(src, g) {
            return None; // rustpython's range already includes its parentheses
        }
        let mut i = u32::from(range_of(&call.func).end()) as usize;
        while i < src.len() {
            match src[i] {
                b'(' => {
                    return Some(Range::new((i as u32).into(), call.range.end()));
                }
                b'#' => {
                    while i < src.len() && src[i] != b'\n' && src[i] != b'\r' {
                        i += 1;
                    }
                }
                _ => i += 1,
            }
        }
        None
    }

    fn expr(&self, e: &syntax::Expr) -> Field {
        use syntax::Expr as E;
        match e {
            E::BoolOp(b) => node(
                k::BoolOp,
                smallvec![
                    leaf(match b.op {
                        syntax::BoolOp::And => k::And,
                        syntax::BoolOp::Or => k::Or,
                    }),
                    self.exprs(&b.values),
                ],
                self.loc(b.range),
            ),
            E::NamedExpr(n) => node(
                k::NamedExpr,
                smallvec![self.expr(&n.target), self.expr(&n.value)],
                self.loc(n.range),
            ),
            E::BinOp(b) => node(
                k::BinOp,
                smallvec![self.expr(&b.left), operator(&b.op), self.expr(&b.right)],
                self.loc(b.range),
            ),
            E::UnaryOp(u) => node(
                k::UnaryOp,
                smallvec![
                    leaf(match u.op {
                        syntax::UnaryOp::Invert => k::Invert,
                        syntax::UnaryOp::Not => k::Not,
                        syntax::UnaryOp::UAdd => k::UAdd,
                        syntax::UnaryOp::USub => k::USub,
                    }),
                    self.expr(&u.operand),
                ],
                self.loc(u.range),
            ),
            E::Lambda(l) => node(
                k::Lambda,
                smallvec![self.arguments(&l.args), self.expr(&l.body)],
                self.loc(l.range),
            ),
            E::IfExp(i) => node(
                k::IfExp,
                smallvec![self.expr(&i.test), self.expr(&i.body), self.expr(&i.orelse)],
                self.loc(i.range),
            ),
            E::Dict(d) => node(
                k::Dict,
                smallvec![
                    Field::List(
                        d.keys
                            .iter()
                            .map(|key| key.as_ref().map_or(Field::None, |x| self.expr(x)))
                            .collect(),
                    ),
                    self.exprs(&d.values),
                ],
                self.loc(d.range),
            ),
            E::Set(s) => node(k::Set, smallvec![self.exprs(&s.elts)], self.loc(s.range)),
            E::ListComp(c) => node(
                k::ListComp,
                smallvec![self.expr(&c.elt), self.comprehensions(&c.generators)],
                self.loc(c.range),
            ),
            E::SetComp(c) => node(
                k::SetComp,
                smallvec![self.expr(&c.elt), self.comprehensions(&c.generators)],
                self.loc(c.range),
            ),
            E::DictComp(c) => node(
                k::DictComp,
                smallvec![
                    self.expr(&c.key),
                    self.expr(&c.value),
                    self.comprehensions(&c.generators)
                ],
                self.loc(c.range),
            ),
            E::GeneratorExp(c) => self.genexp(c, c.range),
            E::Await(a) => node(k::Await, smallvec![self.expr(&a.value)], self.loc(a.range)),
            E::Yield(y) => node(k::Yield, smallvec![self.opt_expr(&y.value)], self.loc(y.range)),
            E::YieldFrom(y) => {
                node(k::YieldFrom, smallvec![self.expr(&y.value)], self.loc(y.range))
            }
            E::Compare(c) => node(
                k::Compare,
                smallvec![
                    self.expr(&c.left),
                    Field::List(c.ops.iter().map(cmpop).collect()),
                    self.exprs(&c.comparators),
                ],
                self.loc(c.range),
            ),
            E::Call(c) => {
                let args = match (self.sole_genexp_range(c), c.args.first()) {
                    (Some(r), Some(E::GeneratorExp(g))) => Field::List(vec![self.genexp(g, r)]),
                    _ => self.exprs(&c.args),
                };
                node(
                    k::Call,
                    smallvec![self.expr(&c.func), args, self.keywords(&c.keywords)],
                    self.loc(c.range),
                )
            }
            E::FormattedValue(f) => self.formatted(f, f.range),
            E::JoinedStr(j) => {
                let entered = self.enter_fstring(j.range);
                let values = j
                    .values
                    .iter()
                    // CPython keeps no empty literal part (`f"{x}" ""` is one FormattedValue).
                    .filter(|v| !is_empty_str(v))
                    .map(|v| match v {
                        // CPython 3.11 gives each replacement field the whole string's range.
                        E::FormattedValue(f) => self.formatted(f, j.range),
                        other => self.expr(other),
                    })
                    .collect();
                if entered {
                    self.crlf.borrow_mut().clear();
                }
                node(k::JoinedStr, smallvec![Field::List(values)], self.loc(j.range))
            }
            E::Constant(c) => node(
                k::Constant,
                smallvec![
                    Field::Const(constant(&c.value)),
                    c.kind.as_ref().map_or(Field::None, |s| Field::Str(Rc::from(s.as_str()))),
                ],
                self.loc(c.range),
            ),
            E::Attribute(a) => node(
                k::Attribute,
                smallvec![self.expr(&a.value), ident(&a.attr), ctx(&a.ctx)],
                self.loc(a.range),
            ),
            E::Subscript(s) => {
                let slice = match &*s.slice {
                    // PEP 646 `a[*b]`: CPython 3.11 wraps the starred index in a 1-tuple.
                    E::Starred(st) => node(
                        k::Tuple,
                        smallvec![
                            Field::List(vec![self.expr(&s.slice)]),
                            ctx(&syntax::ExprContext::Load),
                        ],
                        self.loc(st.range),
                    ),
                    other => self.expr(other),
                };
                node(
                    k::Subscript,
                    smallvec![self.expr(&s.value), slice, ctx(&s.ctx)],
                    self.loc(s.range),
                )
            }
            E::Starred(s) => {
                node(k::Starred, smallvec![self.expr(&s.value), ctx(&s.ctx)], self.loc(s.range))
            }
            E::Name(n) => node(k::Name, smallvec![ident(&n.id), ctx(&n.ctx)], self.loc(n.range)),
            E::List(l) => {
                node(k::List, smallvec![self.exprs(&l.elts), ctx(&l.ctx)], self.loc(l.range))
            }
            E::Tuple(t) => {
                node(k::Tuple, smallvec![self.exprs(&t.elts), ctx(&t.ctx)], self.loc(t.range))
            }
            E::Slice(s) => node(
                k::Slice,
                smallvec![self.opt_expr(&s.lower), self.opt_expr(&s.upper), self.opt_expr(&s.step)],
                self.loc(s.range),
            ),
        }
    }

    fn genexp(&self, c: &syntax::ExprGeneratorExp, range: Range) -> Field {
        node(
            k::GeneratorExp,
            smallvec![self.expr(&c.elt), self.comprehensions(&c.generators)],
            self.loc(range),
        )
    }

    fn formatted(&self, f: &syntax::ExprFormattedValue, range: Range) -> Field {
        let loc = self.loc(range);
        let was_on = self.shift_on.replace(!self.crlf.borrow().is_empty());
        let value = self.expr(&f.value);
        // The spec's own parts carry real (token) offsets; only expressions are folded.
        self.shift_on.set(false);
        let spec = match f.format_spec.as_deref() {
            // The spec keeps its token range; its fields, and the text before a field, take the
            // whole string's (as above); the text after the last field takes the token range.
            Some(syntax::Expr::JoinedStr(j)) => {
                let parts: Vec<&syntax::Expr> =
                    j.values.iter().filter(|v| !is_empty_str(v)).collect();
                let last_field =
                    parts.iter().rposition(|p| matches!(p, syntax::Expr::FormattedValue(_)));
                let values = parts
                    .iter()
                    .enumerate()
                    .map(|(i, v)| match v {
                        syntax::Expr::FormattedValue(inner) => self.formatted(inner, range),
                        syntax::Expr::Constant(c) => {
                            let at =
                                if last_field.is_some_and(|l| l > i) { range } else { j.range };
                            node(
                                k::Constant,
                                smallvec![Field::Const(constant(&c.value)), Field::None],
                                self.loc(at),
                            )
                        }
                        other => self.expr(other),
                    })
                    .collect();
                node(k::JoinedStr, smallvec![Field::List(values)], self.loc(j.range))
            }
            _ => self.opt_expr(&f.format_spec),
        };
        self.shift_on.set(was_on);
        node(
            k::FormattedValue,
            smallvec![value, Field::Int(i64::from(f.conversion as i8)), spec],
            loc,
        )
    }

    fn patterns(&self, ps: &[syntax::Pattern]) -> Field {
        Field::List(ps.iter().map(|p| self.pattern(p)).collect())
    }

    fn pattern(&self, p: &syntax::Pattern) -> Field {
        use syntax::Pattern as P;
        match p {
            P::MatchValue(v) => {
                node(k::MatchValue, smallvec![self.expr(&v.value)], self.loc(v.range))
            }
            P::MatchSingleton(v) => node(
                k::MatchSingleton,
                smallvec![Field::Const(constant(&v.value))],
                self.loc(v.range),
            ),
            P::MatchSequence(v) => {
                node(k::MatchSequence, smallvec![self.patterns(&v.patterns)], self.loc(v.range))
            }
            P::MatchMapping(v) => node(
                k::MatchMapping,
                smallvec![self.exprs(&v.keys), self.patterns(&v.patterns), opt_ident(&v.rest)],
                self.loc(v.range),
            ),
            P::MatchClass(v) => node(
                k::MatchClass,
                smallvec![
                    self.expr(&v.cls),
                    self.patterns(&v.patterns),
                    Field::List(v.kwd_attrs.iter().map(ident).collect()),
                    self.patterns(&v.kwd_patterns),
                ],
                self.loc(v.range),
            ),
            P::MatchStar(v) => node(k::MatchStar, smallvec![opt_ident(&v.name)], self.loc(v.range)),
            P::MatchAs(v) => node(
                k::MatchAs,
                smallvec![
                    v.pattern.as_ref().map_or(Field::None, |p| self.pattern(p)),
                    opt_ident(&v.name),
                ],
                self.loc(v.range),
            ),
            P::MatchOr(v) => {
                node(k::MatchOr, smallvec![self.patterns(&v.patterns)], self.loc(v.range))
            }
        }
    }
}

/// Whether a generator expression is written with its own parentheses, `f((x for x in y))`,
/// rather than sharing the call's: its range then starts at a `(` matched by its last `)`.
pub(crate) fn genexp_has_own_parens(src: &[u8], g: &syntax::ExprGeneratorExp) -> bool {
    let start = u32::from(g.range.start()) as usize;
    let end = u32::from(g.range.end()) as usize;
    if src.get(start) != Some(&b'(') || end == 0 || src.get(end - 1) != Some(&b')') {
        return false;
    }
    matching_close(src, start) == Some(end - 1)
}

/// The offset of the bracket closing the one at `open`, read as CPython's tokenizer reads the
/// text after it: comments and strings skipped ([`skip_string`]: a one-quote string ends at its
/// line's end), brackets matched by kind. `None` where the tokenizer stops first (a string never
/// terminated, a closing bracket of another kind, more than 200 levels open) or the text ends.
/// The one bracket matcher of the parse facade (the tree's generator parentheses, the error
/// rules of `parse.rs`).
pub(crate) fn matching_close(b: &[u8], open: usize) -> Option<usize> {
    // CPython's MAXLEVEL.
    let mut open_kinds = [0u8; 200];
    let mut depth = 0usize;
    let mut i = open;
    while let Some(&c) = b.get(i) {
        match c {
            b'(' | b'[' | b'{' => {
                *open_kinds.get_mut(depth)? = c;
                depth += 1;
            }
            b')' | b']' | b'}' => {
                depth = depth.checked_sub(1)?;
                let closes = match open_kinds[depth] {
                    b'(' => b')',
                    b'[' => b']',
                    _ => b'}',
                };
                if c != closes {
                    return None;
                }
                if depth == 0 {
                    return Some(i);
                }
            }
            b'#' => {
                while b.get(i).is_some_and(|&c| c != b'\n' && c != b'\r') {
                    i += 1;
                }
                continue;
            }
            b'\'' | b'"' => {
                i = skip_string(b, i)?;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Skips one string literal (prefix included) starting at `i`; returns its end offset. As
/// CPython's tokenizer reads it: a one-quote string ends at the end of its line (`None`:
/// unterminated) unless a `\` continues it; a triple-quoted one runs to its closing quotes
/// (`None` at the end of the text).
pub(crate) fn skip_string(b: &[u8], mut i: usize) -> Option<usize> {
    while i < b.len() && b[i].is_ascii_alphabetic() {
        i += 1;
    }
    let q = *b.get(i)?;
    if q != b'\'' && q != b'"' {
        return None;
    }
    let triple = b.get(i + 1) == Some(&q) && b.get(i + 2) == Some(&q);
    i += if triple { 3 } else { 1 };
    while i < b.len() {
        match b[i] {
            b'\\' => {
                i += if b.get(i + 1..i + 3) == Some(b"\r\n") { 3 } else { 2 };
                continue;
            }
            b'\n' | b'\r' if !triple => return None,
            c if c == q && (!triple || (b.get(i + 1) == Some(&q) && b.get(i + 2) == Some(&q))) => {
                return Some(i + if triple { 3 } else { 1 });
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The byte range of an expression.
pub(crate) fn range_of(e: &syntax::Expr) -> Range {
    use syntax::Ranged;
    e.range()
}
