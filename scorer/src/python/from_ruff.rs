//! The fast path of [`super::parse_tree`]: ruff's hand-written parser, converted to the
//! CPython-shaped [`Node`] tree, or through a [`Sink`] straight into another representation of
//! the same tree (`ast.parse`'s node objects: [`parse_fast`] then [`FastTree::build`]).
//!
//! rustpython's LALRPOP parser was about a third of the scorer's cold instructions; ruff's parser
//! is several times faster on the benchmark's repositories. The rustpython pipeline stays the
//! reference: it owns every syntax error, CPython's error messages and the rare inputs below.
//! This path only ever answers *valid* sources, and declines (returns `None`, and the caller
//! parses the reference way) whenever it is not certain to build the very tree the reference
//! builds:
//! - the pre-scan found anything (a tokenizer error, tabs in indentation, an f-string backslash);
//! - a name has a character that is not XID in Unicode 14.0 (ruff knows a newer Unicode), or the
//!   source has a `\N{` (the reference pipeline holds every `\N{...}` to 3.11; ruff rejects a
//!   `\N` without `{`);
//! - the source has a `\r` (CPython's positions inside f-strings with CRLF need the reference's
//!   folding) or a form feed (it resets CPython's indentation column);
//! - ruff reports any error, or syntax newer than 3.11 (PEP 701 f-strings, type parameters,
//!   `type` aliases);
//! - the pre-scan counts deeper expression nesting than [`MAX_SCANNED_DEPTH`], or the tree is
//!   deeper than [`MAX_DEPTH`] (the reference reports CPython's RecursionError at its limit);
//! - an f-string nests replacement fields in a format spec of a format spec (3.11's "nested too
//!   deeply"), a single-quoted f-string's replacement field spans lines, or a replacement field
//!   is a bare tuple, generator or starred expression (3.11 parses it inside parentheses);
//! - t-strings, IPython escapes, big integer literals written in an unusual way.
//!
//! `tests/suite/python_differential.rs` holds this path to CPython on the fixtures, and checks that it
//! agrees with the reference path node for node, positions included.

use std::cell::Cell;
use std::rc::Rc;

use num_bigint::BigInt;
use ruff_python_ast as ra;
use ruff_python_ast::StringFlags;
use ruff_python_parser::{Mode, ParseOptions};
use ruff_text_size::{Ranged, TextRange};

use super::classes::k;
use super::node::{self, Constant, Field, Loc, Node, NodeClass, NodeFields};
use super::{scan, LineIndex};
use smallvec::{smallvec, SmallVec};

/// Deeper trees go the reference way (which raises CPython's RecursionError at its limit).
const MAX_DEPTH: usize = 500;

/// Sources nesting expressions deeper than this (by the pre-scan's count) go the reference way
/// before ruff sees them: the reference's limits were sized for the wasm stack, and ruff's
/// recursion (and its tree's recursive drop) then never goes deeper than ordinary code does.
const MAX_SCANNED_DEPTH: usize = 300;

/// Why the fast path declined (nothing to report: the reference path takes over).
struct Decline;

type R<T> = Result<T, Decline>;

/// What the fast path builds a tree into: the CPython-shaped [`Node`] tree ([`NodeSink`]), or
/// directly the interpreter's node objects (`ast.parse` of a source the parse cache has not
/// built a tree for: a tree used once would be built node by node only to be copied).
pub trait Sink {
    /// One field value.
    type F;
    fn none(&self) -> Self::F;
    fn list(&self, items: Vec<Self::F>) -> Self::F;
    fn str(&self, s: Rc<str>) -> Self::F;
    fn int(&self, i: i64) -> Self::F;
    fn constant(&self, c: Constant) -> Self::F;
    /// `Constant::Int` of an int that fits in an `i64`.
    fn small_int(&self, v: i64) -> Self::F {
        self.constant(Constant::Int(BigInt::from(v)))
    }
    fn node(
        &self,
        class: &'static NodeClass,
        fields: SmallVec<[Self::F; 3]>,
        loc: Option<Loc>,
    ) -> Self::F;
    /// A node of a class with no fields and no positions (`Load`, `Add`, `Eq`).
    fn leaf(&self, class: &'static NodeClass) -> Self::F;
    /// A statement converted in full (its value `f`), starting at byte `start`.
    fn record_stmt(&self, _start: u32, _f: &Self::F) {}
    /// Whether it builds values (a check only needs the tree's shape: no positions or constants).
    fn building(&self) -> bool {
        true
    }
    /// An identifier field.
    fn ident(&self, s: &str) -> Self::F {
        self.str(Rc::from(&*node::normalize_identifier(s)))
    }
    /// Whether statements are left for later ([`Sink::lazy_stmt`]).
    fn is_lazy(&self) -> bool {
        false
    }
    /// A statement left unconverted, converted when first read; `None`: convert now.
    fn lazy_stmt(
        &self,
        _s: StmtPath,
        _start: u32,
        _class: &'static NodeClass,
        _loc: Option<Loc>,
    ) -> Option<Self::F> {
        None
    }
}

/// A statement of a [`FastTree`]: (body, index) steps from the module's body, each body one of
/// the enclosing statement's ([`body_of`]).
#[derive(Clone, Default, Debug)]
pub struct StmtPath(SmallVec<[(u16, u32); 4]>);

/// [`StmtPath`] body codes: `body`, `orelse`, `finalbody`, then the n-th handler's, case's or
/// `elif`/`else` clause's body from [`NTH`] on.
const BODY: u16 = 0;
const ORELSE: u16 = 1;
const FINALBODY: u16 = 2;
const NTH: u16 = 3;

fn nth(n: usize) -> u16 {
    u16::try_from(n).map_or(u16::MAX, |n| n.saturating_add(NTH))
}

/// Body `code` of statement `s` ([`StmtPath`]).
fn body_of(s: &ra::Stmt, code: u16) -> Option<&[ra::Stmt]> {
    use ra::Stmt as S;
    let n = usize::from(code.wrapping_sub(NTH));
    match (s, code) {
        (S::FunctionDef(f), BODY) => Some(&f.body),
        (S::ClassDef(c), BODY) => Some(&c.body),
        (S::For(f), BODY) => Some(&f.body),
        (S::For(f), ORELSE) => Some(&f.orelse),
        (S::While(w), BODY) => Some(&w.body),
        (S::While(w), ORELSE) => Some(&w.orelse),
        (S::With(w), BODY) => Some(&w.body),
        (S::If(i), BODY) => Some(&i.body),
        (S::If(i), c) if c >= NTH => i.elif_else_clauses.get(n).map(|c| &c.body[..]),
        (S::Try(t), BODY) => Some(&t.body),
        (S::Try(t), ORELSE) => Some(&t.orelse),
        (S::Try(t), FINALBODY) => Some(&t.finalbody),
        (S::Try(t), c) if c >= NTH => t.handlers.get(n).map(|h| {
            let ra::ExceptHandler::ExceptHandler(h) = h;
            &h.body[..]
        }),
        (S::Match(m), c) if c >= NTH => m.cases.get(n).map(|c| &c.body[..]),
        _ => None,
    }
}

/// The check of a conversion ([`FastTree::check`]): nothing built.
struct CheckSink {
    stmts: std::cell::RefCell<Vec<(u32, u64, u32)>>,
}

/// What [`CheckSink`] knows of a value: its `ast2obj` depth, how many nodes `ast.walk` yields
/// in it, the class buckets of its nodes, and of its nodes below its root.
#[derive(Clone, Copy, Default)]
struct Check {
    depth: u32,
    count: u32,
    buckets: u64,
    below: u64,
}

impl CheckSink {
    fn join(items: impl IntoIterator<Item = Check>) -> Check {
        let mut out = Check::default();
        for c in items {
            out.depth = out.depth.max(c.depth);
            out.count = out.count.saturating_add(c.count);
            out.buckets |= c.buckets;
        }
        out
    }
}

impl Sink for CheckSink {
    type F = Check;
    fn none(&self) -> Check {
        Check::default()
    }
    fn list(&self, items: Vec<Check>) -> Check {
        Self::join(items)
    }
    fn str(&self, _s: Rc<str>) -> Check {
        Check::default()
    }
    fn int(&self, _i: i64) -> Check {
        Check::default()
    }
    fn constant(&self, _c: Constant) -> Check {
        Check::default()
    }
    fn small_int(&self, _v: i64) -> Check {
        Check::default()
    }
    fn node(
        &self,
        class: &'static NodeClass,
        fields: SmallVec<[Check; 3]>,
        _loc: Option<Loc>,
    ) -> Check {
        if class.fields.is_empty() && class.attributes.is_empty() {
            return self.leaf(class);
        }
        let below = Self::join(fields);
        Check {
            depth: below.depth + 1,
            count: below.count.saturating_add(1),
            buckets: below.buckets | node::bucket(class),
            below: below.buckets,
        }
    }
    fn leaf(&self, class: &'static NodeClass) -> Check {
        Check { depth: 1, count: 1, buckets: node::bucket(class), below: 0 }
    }
    fn ident(&self, _s: &str) -> Check {
        Check::default()
    }
    fn building(&self) -> bool {
        false
    }
    fn record_stmt(&self, start: u32, f: &Check) {
        self.stmts.borrow_mut().push((start, f.below, f.count.saturating_sub(1)));
    }
}

impl FastTree {
    /// Converts the statement at `path` into `sink` (its statements left lazy).
    pub fn fill_stmt<S: Sink>(&self, source: &str, path: &StmtPath, sink: &S) -> Option<S::F> {
        let mut steps = path.0.iter();
        let (_, first) = steps.next()?;
        let mut s = self.module.body.get(usize::try_from(*first).ok()?)?;
        for (code, i) in steps {
            s = body_of(s, *code)?.get(usize::try_from(*i).ok()?)?;
        }
        self.converter(source, sink, path.clone()).stmt(s).ok()
    }

    /// Checks that the whole tree converts (a lazy conversion must never decline half way) and
    /// records what a walk needs to pass over each statement unconverted ([`Self::below`]);
    /// the tree's `ast2obj` depth, or `None` when the conversion declines.
    pub fn check(&self, source: &str) -> Option<u32> {
        let sink = CheckSink { stmts: Default::default() };
        let f = self.build(source, &sink)?;
        let mut stmts = sink.stmts.into_inner();
        stmts.sort_unstable_by_key(|m| m.0);
        *self.stmts.borrow_mut() = stmts;
        Some(f.into_iter().map(|c| c.depth).max().unwrap_or(0) + 1)
    }

    /// The class buckets ([`bucket`]) of the nodes below the statement starting at byte
    /// `start`, and how many nodes `ast.walk` yields below it (`None` before [`Self::check`]).
    pub fn below(&self, start: u32) -> Option<(u64, u32)> {
        let stmts = self.stmts.borrow();
        let at = stmts.binary_search_by_key(&start, |m| m.0).ok()?;
        stmts.get(at).map(|m| (m.1, m.2))
    }
}

/// Builds the cached [`Node`] tree.
struct NodeSink;

impl Sink for NodeSink {
    type F = Field;
    #[inline]
    fn none(&self) -> Field {
        Field::None
    }
    #[inline]
    fn list(&self, items: Vec<Field>) -> Field {
        Field::List(items)
    }
    #[inline]
    fn str(&self, s: Rc<str>) -> Field {
        Field::Str(s)
    }
    #[inline]
    fn int(&self, i: i64) -> Field {
        Field::Int(i)
    }
    #[inline]
    fn constant(&self, c: Constant) -> Field {
        Field::Const(c)
    }
    #[inline]
    fn node(&self, class: &'static NodeClass, fields: NodeFields, loc: Option<Loc>) -> Field {
        node::node(class, fields, loc)
    }
    #[inline]
    fn leaf(&self, class: &'static NodeClass) -> Field {
        node::leaf(class)
    }
}

/// A source ruff parsed with nothing for the reference path to decide before conversion: its
/// module and line index, kept by the parse cache so a later `ast.parse` of the same source
/// converts it again ([`FastTree::build`]) without parsing.
pub struct FastTree {
    module: ra::ModModule,
    index: LineIndex,
    stmts: std::cell::RefCell<Vec<(u32, u64, u32)>>,
}

/// Parses a source the fast way, or `None` when the reference path must decide.
pub(crate) fn parse_tree(source: &str) -> Option<Node> {
    parse_fast(source)?.to_node(source)
}

/// ruff's parse of `source`, or `None` when the reference path must decide; the conversion
/// ([`FastTree::build`]) may still decline.
pub fn parse_fast(source: &str) -> Option<FastTree> {
    if memchr::memchr2(b'\r', b'\x0c', source.as_bytes()).is_some()
        || memchr::memmem::find(source.as_bytes(), b"\\N{").is_some()
    {
        return None;
    }
    let scanned = scan::scan(source);
    if scanned.error.is_some()
        || scanned.reject.is_some()
        || scanned.unclosed.is_some()
        || !scanned.tab_indents.is_empty()
        || !scanned.split_indents.is_empty()
        || scanned.remap_indents
        || scanned.deepest > MAX_SCANNED_DEPTH
    {
        return None;
    }
    let options = ParseOptions::from(Mode::Module).with_target_version(ra::PythonVersion::PY311);
    let parsed = ruff_python_parser::parse_unchecked(source, options);
    if !parsed.errors().is_empty() || !parsed.unsupported_syntax_errors().is_empty() {
        return None;
    }
    if !source.is_ascii() && !identifiers_are_3_11s(source, parsed.tokens()) {
        return None;
    }
    let ra::Mod::Module(module) = parsed.into_syntax() else { return None };
    Some(FastTree { module, index: LineIndex::positions_only(source), stmts: Default::default() })
}

impl FastTree {
    /// The `Module`'s fields (`body`, `type_ignores`) built into `sink`, or `None` when the
    /// conversion declines (the reference path decides). `source` is the text it was parsed from.
    pub fn build<S: Sink>(&self, source: &str, sink: &S) -> Option<SmallVec<[S::F; 3]>> {
        let body = self
            .converter(source, sink, StmtPath::default())
            .stmts(&self.module.body, BODY)
            .ok()?;
        Some(smallvec![body, sink.list(Vec::new())])
    }

    /// A converter over this tree's `source`, placed at the statement `path` names.
    fn converter<'t, S: Sink>(
        &'t self,
        source: &'t str,
        sink: &'t S,
        path: StmtPath,
    ) -> Converter<'t, S> {
        Converter {
            sink,
            src: source.as_bytes(),
            index: &self.index,
            line_hint: Cell::new(0),
            depth: 0,
            path,
        }
    }

    /// The CPython-shaped tree of the module (`None` when the conversion declines).
    pub fn to_node(&self, source: &str) -> Option<Node> {
        Some(Node { class: k::Module, fields: self.build(source, &NodeSink)?, loc: None })
    }
}

/// Are all names XID in Unicode 14.0, as 3.11 requires? ruff's lexer knows a newer Unicode.
fn identifiers_are_3_11s(source: &str, tokens: &ra::token::Tokens) -> bool {
    tokens.iter().filter(|t| t.kind() == ra::token::TokenKind::Name).all(|t| {
        source
            .get(t.range().start().to_usize()..t.range().end().to_usize())
            .is_some_and(|name| name.is_ascii() || crate::unicode::is_identifier(name))
    })
}

struct Converter<'a, S: Sink> {
    sink: &'a S,
    src: &'a [u8],
    index: &'a LineIndex,
    line_hint: Cell<usize>,
    depth: usize,
    /// The statement being converted ([`StmtPath`]; empty for the module).
    path: StmtPath,
}

fn ident<S: Sink>(sink: &S, s: &str) -> S::F {
    sink.ident(s)
}

fn opt_ident<S: Sink>(sink: &S, s: Option<&ra::Identifier>) -> S::F {
    s.map_or_else(|| sink.none(), |s| ident(sink, s.as_str()))
}

fn ctx<S: Sink>(sink: &S, c: ra::ExprContext) -> R<S::F> {
    Ok(sink.leaf(match c {
        ra::ExprContext::Load => k::Load,
        ra::ExprContext::Store => k::Store,
        ra::ExprContext::Del => k::Del,
        ra::ExprContext::Invalid => return Err(Decline),
    }))
}

fn operator<S: Sink>(sink: &S, op: ra::Operator) -> S::F {
    use ra::Operator as O;
    sink.leaf(match op {
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

fn cmpop<S: Sink>(sink: &S, op: ra::CmpOp) -> S::F {
    use ra::CmpOp as C;
    sink.leaf(match op {
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

/// The literal text and replacement fields of a (possibly concatenated) f-string, in 3.11's
/// `JoinedStr` shape: adjacent literal text merged, empty text dropped.
struct Joined<F> {
    values: Vec<F>,
    text: String,
}

impl<S: Sink> Converter<'_, S> {
    fn loc(&self, r: TextRange) -> Option<Loc> {
        if !self.sink.building() {
            return None;
        }
        let (lineno, col_offset) = self.index.position_near(u32::from(r.start()), &self.line_hint);
        let (end_lineno, end_col_offset) =
            self.index.position_near(u32::from(r.end()), &self.line_hint);
        Some(Loc { lineno, col_offset, end_lineno, end_col_offset })
    }

    /// A body of statements: `code` says which body of the statement being converted it is
    /// ([`StmtPath`]); a lazy sink leaves each statement for later, named by its path.
    fn stmts(&mut self, body: &[ra::Stmt], code: u16) -> R<S::F> {
        let mut out = Vec::with_capacity(body.len());
        for (i, s) in body.iter().enumerate() {
            let start = u32::from(s.range().start());
            if self.sink.is_lazy() {
                let (class, range) = self.stmt_class(s);
                let mut path = self.path.clone();
                path.0.push((code, u32::try_from(i).map_err(|_| Decline)?));
                if let Some(f) = self.sink.lazy_stmt(path, start, class, self.loc(range)) {
                    out.push(f);
                    continue;
                }
            }
            let f = self.stmt(s)?;
            self.sink.record_stmt(start, &f);
            out.push(f);
        }
        Ok(self.sink.list(out))
    }

    /// A statement's class and CPython range, without converting it.
    fn stmt_class(&self, s: &ra::Stmt) -> (&'static NodeClass, TextRange) {
        use ra::Stmt as S;
        match s {
            S::FunctionDef(f) => (
                if f.is_async { k::AsyncFunctionDef } else { k::FunctionDef },
                self.after_decorators(&f.decorator_list, f.range),
            ),
            S::ClassDef(c) => (k::ClassDef, self.after_decorators(&c.decorator_list, c.range)),
            S::Return(x) => (k::Return, x.range),
            S::Delete(x) => (k::Delete, x.range),
            S::Assign(x) => (k::Assign, x.range),
            S::AugAssign(x) => (k::AugAssign, x.range),
            S::AnnAssign(x) => (k::AnnAssign, x.range),
            S::For(x) => (if x.is_async { k::AsyncFor } else { k::For }, x.range),
            S::While(x) => (k::While, x.range),
            S::If(x) => (k::If, x.range),
            S::With(x) => (if x.is_async { k::AsyncWith } else { k::With }, x.range),
            S::Match(x) => (k::Match, x.range),
            S::Raise(x) => (k::Raise, x.range),
            S::Try(x) => (if x.is_star { k::TryStar } else { k::Try }, x.range),
            S::Assert(x) => (k::Assert, x.range),
            S::Import(x) => (k::Import, x.range),
            S::ImportFrom(x) => (k::ImportFrom, x.range),
            S::Global(x) => (k::Global, x.range),
            S::Nonlocal(x) => (k::Nonlocal, x.range),
            S::Expr(x) => (k::Expr, x.range),
            S::Pass(x) => (k::Pass, x.range),
            S::Break(x) => (k::Break, x.range),
            S::Continue(x) => (k::Continue, x.range),
            S::TypeAlias(x) => (k::Pass, x.range),
            S::IpyEscapeCommand(x) => (k::Pass, x.range),
        }
    }

    fn exprs(&mut self, v: &[ra::Expr]) -> R<S::F> {
        Ok(self.sink.list(v.iter().map(|e| self.expr(e)).collect::<R<_>>()?))
    }

    fn opt_expr(&mut self, e: Option<&ra::Expr>) -> R<S::F> {
        e.map_or(Ok(self.sink.none()), |e| self.expr(e))
    }

    fn enter(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Decline);
        }
        Ok(())
    }

    /// Where a decorated definition starts for CPython: at `def`, `async` or `class`, the first
    /// token after the last decorator's line.
    fn after_decorators(&self, decorators: &[ra::Decorator], range: TextRange) -> TextRange {
        let Some(last) = decorators.last() else { return range };
        let src = self.src;
        let mut i = u32::from(last.range.end()) as usize;
        // The rest of the decorator's line: blanks and perhaps a comment.
        while i < src.len() && src[i] != b'\n' {
            i += 1;
        }
        loop {
            while i < src.len() && matches!(src[i], b' ' | b'\t' | b'\n') {
                i += 1;
            }
            if src.get(i) == Some(&b'#') {
                while i < src.len() && src[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            if src.get(i) == Some(&b'\\') && src.get(i + 1) == Some(&b'\n') {
                i += 2;
                continue;
            }
            break;
        }
        TextRange::new((i as u32).into(), range.end())
    }

    fn stmt(&mut self, s: &ra::Stmt) -> R<S::F> {
        self.enter()?;
        let f = self.stmt_inner(s);
        self.depth -= 1;
        f
    }

    fn stmt_inner(&mut self, s: &ra::Stmt) -> R<S::F> {
        use ra::Stmt as S;
        Ok(match s {
            S::FunctionDef(f) => {
                if f.type_params.is_some() {
                    return Err(Decline);
                }
                let range = self.after_decorators(&f.decorator_list, f.range);
                let class = if f.is_async { k::AsyncFunctionDef } else { k::FunctionDef };
                let fields = smallvec![
                    ident(self.sink, f.name.as_str()),
                    self.parameters(Some(&f.parameters))?,
                    self.stmts(&f.body, BODY)?,
                    self.decorators(&f.decorator_list)?,
                    self.opt_expr(f.returns.as_deref())?,
                    self.sink.none(),
                ];
                self.sink.node(class, fields, self.loc(range))
            }
            S::ClassDef(c) => {
                if c.type_params.is_some() {
                    return Err(Decline);
                }
                let range = self.after_decorators(&c.decorator_list, c.range);
                let (bases, keywords) = match c.arguments.as_deref() {
                    Some(a) => (self.exprs(&a.args)?, self.keywords(&a.keywords)?),
                    None => (self.sink.list(Vec::new()), self.sink.list(Vec::new())),
                };
                let fields = smallvec![
                    ident(self.sink, c.name.as_str()),
                    bases,
                    keywords,
                    self.stmts(&c.body, BODY)?,
                    self.decorators(&c.decorator_list)?,
                ];
                self.sink.node(k::ClassDef, fields, self.loc(range))
            }
            S::Return(r) => self.sink.node(
                k::Return,
                smallvec![self.opt_expr(r.value.as_deref())?],
                self.loc(r.range),
            ),
            S::Delete(d) => {
                self.sink.node(k::Delete, smallvec![self.exprs(&d.targets)?], self.loc(d.range))
            }
            S::Assign(a) => self.sink.node(
                k::Assign,
                smallvec![self.exprs(&a.targets)?, self.expr(&a.value)?, self.sink.none()],
                self.loc(a.range),
            ),
            S::AugAssign(a) => self.sink.node(
                k::AugAssign,
                smallvec![self.expr(&a.target)?, operator(self.sink, a.op), self.expr(&a.value)?],
                self.loc(a.range),
            ),
            S::AnnAssign(a) => self.sink.node(
                k::AnnAssign,
                smallvec![
                    self.expr(&a.target)?,
                    self.expr(&a.annotation)?,
                    self.opt_expr(a.value.as_deref())?,
                    self.sink.int(i64::from(a.simple)),
                ],
                self.loc(a.range),
            ),
            S::For(f) => self.sink.node(
                if f.is_async { k::AsyncFor } else { k::For },
                smallvec![
                    self.expr(&f.target)?,
                    self.expr(&f.iter)?,
                    self.stmts(&f.body, BODY)?,
                    self.stmts(&f.orelse, ORELSE)?,
                    self.sink.none(),
                ],
                self.loc(f.range),
            ),
            S::While(w) => self.sink.node(
                k::While,
                smallvec![
                    self.expr(&w.test)?,
                    self.stmts(&w.body, BODY)?,
                    self.stmts(&w.orelse, ORELSE)?
                ],
                self.loc(w.range),
            ),
            S::If(i) => {
                let orelse = self.elif_chain(&i.elif_else_clauses, NTH)?;
                self.sink.node(
                    k::If,
                    smallvec![self.expr(&i.test)?, self.stmts(&i.body, BODY)?, orelse],
                    self.loc(i.range),
                )
            }
            S::With(w) => self.sink.node(
                if w.is_async { k::AsyncWith } else { k::With },
                smallvec![self.withitems(&w.items)?, self.stmts(&w.body, BODY)?, self.sink.none()],
                self.loc(w.range),
            ),
            S::Match(m) => {
                let mut cases = Vec::with_capacity(m.cases.len());
                for (n, c) in m.cases.iter().enumerate() {
                    let fields = smallvec![
                        self.pattern(&c.pattern)?,
                        self.opt_expr(c.guard.as_deref())?,
                        self.stmts(&c.body, nth(n))?,
                    ];
                    cases.push(self.sink.node(k::match_case, fields, None));
                }
                self.sink.node(
                    k::Match,
                    smallvec![self.expr(&m.subject)?, self.sink.list(cases)],
                    self.loc(m.range),
                )
            }
            S::Raise(r) => self.sink.node(
                k::Raise,
                smallvec![self.opt_expr(r.exc.as_deref())?, self.opt_expr(r.cause.as_deref())?],
                self.loc(r.range),
            ),
            S::Try(t) => self.sink.node(
                if t.is_star { k::TryStar } else { k::Try },
                smallvec![
                    self.stmts(&t.body, BODY)?,
                    self.handlers(&t.handlers)?,
                    self.stmts(&t.orelse, ORELSE)?,
                    self.stmts(&t.finalbody, FINALBODY)?,
                ],
                self.loc(t.range),
            ),
            S::Assert(a) => self.sink.node(
                k::Assert,
                smallvec![self.expr(&a.test)?, self.opt_expr(a.msg.as_deref())?],
                self.loc(a.range),
            ),
            S::Import(i) => {
                if i.is_lazy {
                    return Err(Decline);
                }
                self.sink.node(k::Import, smallvec![self.aliases(&i.names)], self.loc(i.range))
            }
            S::ImportFrom(i) => {
                if i.is_lazy {
                    return Err(Decline);
                }
                self.sink.node(
                    k::ImportFrom,
                    smallvec![
                        opt_ident(self.sink, i.module.as_ref()),
                        self.aliases(&i.names),
                        self.sink.int(i64::from(i.level)),
                    ],
                    self.loc(i.range),
                )
            }
            S::Global(g) => self.sink.node(
                k::Global,
                smallvec![self
                    .sink
                    .list(g.names.iter().map(|n| ident(self.sink, n.as_str())).collect())],
                self.loc(g.range),
            ),
            S::Nonlocal(g) => self.sink.node(
                k::Nonlocal,
                smallvec![self
                    .sink
                    .list(g.names.iter().map(|n| ident(self.sink, n.as_str())).collect())],
                self.loc(g.range),
            ),
            S::Expr(e) => {
                self.sink.node(k::Expr, smallvec![self.expr(&e.value)?], self.loc(e.range))
            }
            S::Pass(p) => self.sink.node(k::Pass, SmallVec::new(), self.loc(p.range)),
            S::Break(p) => self.sink.node(k::Break, SmallVec::new(), self.loc(p.range)),
            S::Continue(p) => self.sink.node(k::Continue, SmallVec::new(), self.loc(p.range)),
            S::TypeAlias(_) | S::IpyEscapeCommand(_) => return Err(Decline),
        })
    }

    /// `elif` / `else` clauses as 3.11 nests them: each `elif` is an `If` in the previous
    /// `orelse`, from its `elif` keyword to the end of the whole chain.
    fn elif_chain(&mut self, clauses: &[ra::ElifElseClause], code: u16) -> R<S::F> {
        let Some((first, rest)) = clauses.split_first() else {
            return Ok(self.sink.list(Vec::new()));
        };
        match &first.test {
            None => self.stmts(&first.body, code),
            Some(test) => {
                // Each `elif` nests one level deeper, as CPython's depth limit counts it.
                self.enter()?;
                let end = clauses.last().map_or(first.range.end(), |c| c.range.end());
                let range = TextRange::new(first.range.start(), end);
                let fields = smallvec![
                    self.expr(test)?,
                    self.stmts(&first.body, code)?,
                    self.elif_chain(rest, code.saturating_add(1))?
                ];
                self.depth -= 1;
                Ok(self.sink.list(vec![self.sink.node(k::If, fields, self.loc(range))]))
            }
        }
    }

    fn decorators(&mut self, ds: &[ra::Decorator]) -> R<S::F> {
        Ok(self.sink.list(ds.iter().map(|d| self.expr(&d.expression)).collect::<R<_>>()?))
    }

    fn handlers(&mut self, hs: &[ra::ExceptHandler]) -> R<S::F> {
        let mut out = Vec::with_capacity(hs.len());
        for (n, h) in hs.iter().enumerate() {
            let ra::ExceptHandler::ExceptHandler(h) = h;
            let fields = smallvec![
                self.opt_expr(h.type_.as_deref())?,
                opt_ident(self.sink, h.name.as_ref()),
                self.stmts(&h.body, nth(n))?,
            ];
            out.push(self.sink.node(k::ExceptHandler, fields, self.loc(h.range)));
        }
        Ok(self.sink.list(out))
    }

    fn withitems(&mut self, items: &[ra::WithItem]) -> R<S::F> {
        let mut out = Vec::with_capacity(items.len());
        for w in items {
            let fields =
                smallvec![self.expr(&w.context_expr)?, self.opt_expr(w.optional_vars.as_deref())?];
            out.push(self.sink.node(k::withitem, fields, None));
        }
        Ok(self.sink.list(out))
    }

    fn aliases(&self, names: &[ra::Alias]) -> S::F {
        self.sink.list(
            names
                .iter()
                .map(|a| {
                    self.sink.node(
                        k::alias,
                        smallvec![
                            ident(self.sink, a.name.as_str()),
                            opt_ident(self.sink, a.asname.as_ref())
                        ],
                        self.loc(a.range),
                    )
                })
                .collect(),
        )
    }

    fn keywords(&mut self, kws: &[ra::Keyword]) -> R<S::F> {
        let mut out = Vec::with_capacity(kws.len());
        for kw in kws {
            let fields = smallvec![opt_ident(self.sink, kw.arg.as_ref()), self.expr(&kw.value)?];
            out.push(self.sink.node(k::keyword, fields, self.loc(kw.range)));
        }
        Ok(self.sink.list(out))
    }

    fn param(&mut self, p: &ra::Parameter) -> R<S::F> {
        let fields = smallvec![
            ident(self.sink, p.name.as_str()),
            self.opt_expr(p.annotation.as_deref())?,
            self.sink.none()
        ];
        // ruff's range of `*args` / `**kw` includes the stars; CPython's starts at the name.
        let range = TextRange::new(p.name.range.start(), p.range.end());
        Ok(self.sink.node(k::arg, fields, self.loc(range)))
    }

    fn parameters(&mut self, p: Option<&ra::Parameters>) -> R<S::F> {
        let empty = || self.sink.list(Vec::new());
        let Some(p) = p else {
            let fields = smallvec![
                empty(),
                empty(),
                self.sink.none(),
                empty(),
                empty(),
                self.sink.none(),
                empty()
            ];
            return Ok(self.sink.node(k::arguments, fields, None));
        };
        let plain = |c: &mut Self, v: &[ra::ParameterWithDefault]| -> R<S::F> {
            Ok(self.sink.list(v.iter().map(|x| c.param(&x.parameter)).collect::<R<_>>()?))
        };
        let posonly = plain(self, &p.posonlyargs)?;
        let args = plain(self, &p.args)?;
        let vararg = match p.vararg.as_deref() {
            Some(v) => self.param(v)?,
            None => self.sink.none(),
        };
        let kwonly = plain(self, &p.kwonlyargs)?;
        let kw_defaults =
            p.kwonlyargs.iter().map(|x| self.opt_expr(x.default.as_deref())).collect::<R<_>>()?;
        let kwarg = match p.kwarg.as_deref() {
            Some(v) => self.param(v)?,
            None => self.sink.none(),
        };
        let defaults = p
            .posonlyargs
            .iter()
            .chain(p.args.iter())
            .filter_map(|x| x.default.as_deref().map(|d| self.expr(d)))
            .collect::<R<_>>()?;
        let fields = smallvec![
            posonly,
            args,
            vararg,
            kwonly,
            self.sink.list(kw_defaults),
            kwarg,
            self.sink.list(defaults),
        ];
        Ok(self.sink.node(k::arguments, fields, None))
    }

    fn comprehensions(&mut self, gens: &[ra::Comprehension]) -> R<S::F> {
        let mut out = Vec::with_capacity(gens.len());
        for c in gens {
            let fields = smallvec![
                self.expr(&c.target)?,
                self.expr(&c.iter)?,
                self.exprs(&c.ifs)?,
                self.sink.int(i64::from(c.is_async)),
            ];
            out.push(self.sink.node(k::comprehension, fields, None));
        }
        Ok(self.sink.list(out))
    }

    fn expr(&mut self, e: &ra::Expr) -> R<S::F> {
        self.enter()?;
        let f = self.expr_inner(e);
        self.depth -= 1;
        f
    }

    fn expr_inner(&mut self, e: &ra::Expr) -> R<S::F> {
        use ra::Expr as E;
        // A bare `yield` as the first operand of a comparison, `and`/`or` or a conditional
        // (`yield == 1`, which ruff reads so): CPython's `yield_expr` ends at the operator, an
        // error for the reference path (the operand's range starts the node's: no parentheses).
        let (first, start) = match e {
            E::Compare(c) => (Some(&*c.left), c.range.start()),
            E::BoolOp(b) => (b.values.first(), b.range.start()),
            E::If(i) => (Some(&*i.body), i.range.start()),
            _ => (None, e.range().start()),
        };
        if let Some(E::Yield(y)) = first {
            if y.value.is_none() && y.range.start() == start {
                return Err(Decline);
            }
        }
        Ok(match e {
            E::BoolOp(b) => self.sink.node(
                k::BoolOp,
                smallvec![
                    self.sink.leaf(match b.op {
                        ra::BoolOp::And => k::And,
                        ra::BoolOp::Or => k::Or,
                    }),
                    self.exprs(&b.values)?,
                ],
                self.loc(b.range),
            ),
            E::Named(n) => self.sink.node(
                k::NamedExpr,
                smallvec![self.expr(&n.target)?, self.expr(&n.value)?],
                self.loc(n.range),
            ),
            E::BinOp(b) => self.sink.node(
                k::BinOp,
                smallvec![self.expr(&b.left)?, operator(self.sink, b.op), self.expr(&b.right)?],
                self.loc(b.range),
            ),
            E::UnaryOp(u) => self.sink.node(
                k::UnaryOp,
                smallvec![
                    self.sink.leaf(match u.op {
                        ra::UnaryOp::Invert => k::Invert,
                        ra::UnaryOp::Not => k::Not,
                        ra::UnaryOp::UAdd => k::UAdd,
                        ra::UnaryOp::USub => k::USub,
                    }),
                    self.expr(&u.operand)?,
                ],
                self.loc(u.range),
            ),
            E::Lambda(l) => self.sink.node(
                k::Lambda,
                smallvec![self.parameters(l.parameters.as_deref())?, self.expr(&l.body)?],
                self.loc(l.range),
            ),
            E::If(i) => self.sink.node(
                k::IfExp,
                smallvec![self.expr(&i.test)?, self.expr(&i.body)?, self.expr(&i.orelse)?],
                self.loc(i.range),
            ),
            E::Dict(d) => {
                let mut keys = Vec::with_capacity(d.items.len());
                let mut values = Vec::with_capacity(d.items.len());
                for item in &d.items {
                    keys.push(self.opt_expr(item.key.as_ref())?);
                    values.push(self.expr(&item.value)?);
                }
                self.sink.node(
                    k::Dict,
                    smallvec![self.sink.list(keys), self.sink.list(values)],
                    self.loc(d.range),
                )
            }
            E::Set(s) => self.sink.node(k::Set, smallvec![self.exprs(&s.elts)?], self.loc(s.range)),
            E::ListComp(c) => self.sink.node(
                k::ListComp,
                smallvec![self.expr(&c.elt)?, self.comprehensions(&c.generators)?],
                self.loc(c.range),
            ),
            E::SetComp(c) => self.sink.node(
                k::SetComp,
                smallvec![self.expr(&c.elt)?, self.comprehensions(&c.generators)?],
                self.loc(c.range),
            ),
            E::DictComp(c) => {
                let Some(key) = c.key.as_deref() else { return Err(Decline) };
                self.sink.node(
                    k::DictComp,
                    smallvec![
                        self.expr(key)?,
                        self.expr(&c.value)?,
                        self.comprehensions(&c.generators)?,
                    ],
                    self.loc(c.range),
                )
            }
            E::Generator(g) => self.genexp(g, g.range)?,
            E::Await(a) => {
                self.sink.node(k::Await, smallvec![self.expr(&a.value)?], self.loc(a.range))
            }
            E::Yield(y) => self.sink.node(
                k::Yield,
                smallvec![self.opt_expr(y.value.as_deref())?],
                self.loc(y.range),
            ),
            E::YieldFrom(y) => {
                self.sink.node(k::YieldFrom, smallvec![self.expr(&y.value)?], self.loc(y.range))
            }
            E::Compare(c) => self.sink.node(
                k::Compare,
                smallvec![
                    self.expr(&c.left)?,
                    self.sink.list(c.ops.iter().map(|op| cmpop(self.sink, *op)).collect()),
                    self.exprs(&c.comparators)?,
                ],
                self.loc(c.range),
            ),
            E::Call(c) => {
                let a = &c.arguments;
                let args = match &*a.args {
                    // A generator that is the call's only argument and has no parentheses of its
                    // own: CPython 3.11 gives it the range of the call's parentheses.
                    [E::Generator(g)] if a.keywords.is_empty() && !g.parenthesized => {
                        self.sink.list(vec![self.genexp(g, a.range)?])
                    }
                    args => self.exprs(args)?,
                };
                self.sink.node(
                    k::Call,
                    smallvec![self.expr(&c.func)?, args, self.keywords(&a.keywords)?],
                    self.loc(c.range()),
                )
            }
            E::FString(f) => self.fstring(f)?,
            E::StringLiteral(s) if !self.sink.building() => {
                let fields = smallvec![self.sink.none(), self.sink.none()];
                self.sink.node(k::Constant, fields, None)
            }
            E::BytesLiteral(b) if !self.sink.building() => {
                let fields = smallvec![self.sink.none(), self.sink.none()];
                self.sink.node(k::Constant, fields, None)
            }
            E::StringLiteral(s) => {
                let kind = if s.value.is_unicode() {
                    self.sink.str(Rc::from("u"))
                } else {
                    self.sink.none()
                };
                let value = Constant::Str(Rc::from(s.value.to_str()));
                self.sink.node(
                    k::Constant,
                    smallvec![self.sink.constant(value), kind],
                    self.loc(s.range),
                )
            }
            E::BytesLiteral(b) => {
                let bytes: Vec<u8> = b.value.iter().flat_map(|p| p.value.iter().copied()).collect();
                self.constant(Constant::Bytes(Rc::from(bytes)), b.range)
            }
            E::NumberLiteral(n) => {
                let value = match &n.value {
                    ra::Number::Int(i) => match i.as_i64() {
                        Some(v) => {
                            let loc = self.loc(n.range);
                            let none = self.sink.none();
                            return Ok(self.sink.node(
                                k::Constant,
                                smallvec![self.sink.small_int(v), none],
                                loc,
                            ));
                        }
                        None => Constant::Int(self.int(i, n.range)?),
                    },
                    ra::Number::Float(f) => Constant::Float(*f),
                    ra::Number::Complex { real, imag } => {
                        Constant::Complex { real: *real, imag: *imag }
                    }
                };
                self.constant(value, n.range)
            }
            E::BooleanLiteral(b) => self.constant(Constant::Bool(b.value), b.range),
            E::NoneLiteral(n) => self.constant(Constant::None, n.range),
            E::EllipsisLiteral(n) => self.constant(Constant::Ellipsis, n.range),
            E::Attribute(a) => self.sink.node(
                k::Attribute,
                smallvec![
                    self.expr(&a.value)?,
                    ident(self.sink, a.attr.as_str()),
                    ctx(self.sink, a.ctx)?
                ],
                self.loc(a.range),
            ),
            E::Subscript(s) => {
                let slice = match &*s.slice {
                    // PEP 646 `a[*b]`: CPython 3.11 wraps the starred index in a 1-tuple.
                    E::Starred(st) => self.sink.node(
                        k::Tuple,
                        smallvec![
                            self.sink.list(vec![self.expr(&s.slice)?]),
                            ctx(self.sink, ra::ExprContext::Load)?
                        ],
                        self.loc(st.range),
                    ),
                    other => self.expr(other)?,
                };
                self.sink.node(
                    k::Subscript,
                    smallvec![self.expr(&s.value)?, slice, ctx(self.sink, s.ctx)?],
                    self.loc(s.range),
                )
            }
            E::Starred(s) => self.sink.node(
                k::Starred,
                smallvec![self.expr(&s.value)?, ctx(self.sink, s.ctx)?],
                self.loc(s.range),
            ),
            E::Name(n) => self.sink.node(
                k::Name,
                smallvec![ident(self.sink, n.id.as_str()), ctx(self.sink, n.ctx)?],
                self.loc(n.range),
            ),
            E::List(l) => self.sink.node(
                k::List,
                smallvec![self.exprs(&l.elts)?, ctx(self.sink, l.ctx)?],
                self.loc(l.range),
            ),
            E::Tuple(t) => self.sink.node(
                k::Tuple,
                smallvec![self.exprs(&t.elts)?, ctx(self.sink, t.ctx)?],
                self.loc(t.range),
            ),
            E::Slice(s) => self.sink.node(
                k::Slice,
                smallvec![
                    self.opt_expr(s.lower.as_deref())?,
                    self.opt_expr(s.upper.as_deref())?,
                    self.opt_expr(s.step.as_deref())?,
                ],
                self.loc(s.range),
            ),
            E::TString(_) | E::IpyEscapeCommand(_) => return Err(Decline),
        })
    }

    fn constant(&self, value: Constant, range: TextRange) -> S::F {
        self.sink.node(
            k::Constant,
            smallvec![self.sink.constant(value), self.sink.none()],
            self.loc(range),
        )
    }

    /// An int literal's value; big ones are read from the source text.
    fn int(&self, i: &ra::Int, range: TextRange) -> R<BigInt> {
        if let Some(v) = i.as_i64() {
            return Ok(BigInt::from(v));
        }
        let text = self
            .src
            .get(u32::from(range.start()) as usize..u32::from(range.end()) as usize)
            .ok_or(Decline)?;
        let digits: Vec<u8> = text.iter().copied().filter(|c| *c != b'_').collect();
        let (radix, body) = match digits.get(..2) {
            Some(b"0x" | b"0X") => (16, &digits[2..]),
            Some(b"0o" | b"0O") => (8, &digits[2..]),
            Some(b"0b" | b"0B") => (2, &digits[2..]),
            _ => (10, &digits[..]),
        };
        BigInt::parse_bytes(body, radix).ok_or(Decline)
    }

    fn genexp(&mut self, g: &ra::ExprGenerator, range: TextRange) -> R<S::F> {
        Ok(self.sink.node(
            k::GeneratorExp,
            smallvec![self.expr(&g.elt)?, self.comprehensions(&g.generators)?],
            self.loc(range),
        ))
    }

    /// An f-string (possibly concatenated with plain strings) as 3.11's `JoinedStr`: every
    /// literal piece and every `FormattedValue` carries the whole string's range.
    fn fstring(&mut self, f: &ra::ExprFString) -> R<S::F> {
        let whole = self.loc(f.range);
        let unicode = f.value.iter().next().is_some_and(|p| match p {
            ra::FStringPart::Literal(s) => s.flags.prefix().is_unicode(),
            ra::FStringPart::FString(_) => false,
        });
        let mut joined = Joined { values: Vec::new(), text: String::new() };
        for part in f.value.iter() {
            match part {
                ra::FStringPart::Literal(s) => joined.text.push_str(&s.value),
                ra::FStringPart::FString(fs) => {
                    self.fstring_elements(&fs.elements, fs, whole, unicode, &mut joined, 0)?
                }
            }
        }
        self.flush(&mut joined, whole, unicode);
        Ok(self.sink.node(k::JoinedStr, smallvec![self.sink.list(joined.values)], whole))
    }

    /// Emits the pending literal text as a `Constant`, if any.
    fn flush(&self, joined: &mut Joined<S::F>, loc: Option<Loc>, unicode: bool) {
        if joined.text.is_empty() {
            return;
        }
        let kind = if unicode { self.sink.str(Rc::from("u")) } else { self.sink.none() };
        let text = std::mem::take(&mut joined.text);
        joined.values.push(self.sink.node(
            k::Constant,
            smallvec![self.sink.constant(Constant::Str(Rc::from(text))), kind],
            loc,
        ));
    }

    fn fstring_elements(
        &mut self,
        elements: &[ra::InterpolatedStringElement],
        token: &ra::FString,
        whole: Option<Loc>,
        unicode: bool,
        joined: &mut Joined<S::F>,
        spec_depth: usize,
    ) -> R<()> {
        for el in elements {
            match el {
                ra::InterpolatedStringElement::Literal(l) => joined.text.push_str(&l.value),
                ra::InterpolatedStringElement::Interpolation(i) => {
                    if !token.flags.is_triple_quoted() {
                        let (a, b) = (
                            u32::from(i.range.start()) as usize,
                            u32::from(i.range.end()) as usize,
                        );
                        if self.src.get(a..b).is_none_or(|t| t.contains(&b'\n')) {
                            return Err(Decline);
                        }
                    }
                    // 3.11 parses the field as `(text)`: a bare tuple's range then takes in the
                    // braces, and a bare starred expression is an error there.
                    match &*i.expression {
                        ra::Expr::Starred(_) => return Err(Decline),
                        ra::Expr::Tuple(t) if !t.parenthesized => return Err(Decline),
                        ra::Expr::Generator(g) if !g.parenthesized => return Err(Decline),
                        _ => {}
                    }
                    if let Some(debug) = &i.debug_text {
                        joined.text.push_str(debug.leading());
                        joined.text.push_str(debug.expression());
                        joined.text.push_str(debug.trailing());
                    }
                    self.flush(joined, whole, unicode);
                    let value = self.expr(&i.expression)?;
                    let mut conversion = i.conversion as i8;
                    let spec = match &i.format_spec {
                        None => {
                            if i.debug_text.is_some() && conversion == -1 {
                                conversion = b'r' as i8;
                            }
                            self.sink.none()
                        }
                        Some(spec) => {
                            if spec_depth >= 1
                                && spec.elements.iter().any(|e| {
                                    matches!(e, ra::InterpolatedStringElement::Interpolation(_))
                                })
                            {
                                return Err(Decline);
                            }
                            // The spec is a JoinedStr of its own with the range of the string
                            // token holding it; its replacement fields keep the whole range.
                            let token_loc = self.loc(token.range);
                            let mut inner = Joined { values: Vec::new(), text: String::new() };
                            self.fstring_elements(
                                &spec.elements,
                                token,
                                whole,
                                false,
                                &mut inner,
                                spec_depth + 1,
                            )?;
                            self.flush(&mut inner, token_loc, false);
                            self.sink.node(
                                k::JoinedStr,
                                smallvec![self.sink.list(inner.values)],
                                token_loc,
                            )
                        }
                    };
                    joined.values.push(self.sink.node(
                        k::FormattedValue,
                        smallvec![value, self.sink.int(i64::from(conversion)), spec],
                        whole,
                    ));
                }
            }
        }
        Ok(())
    }

    fn patterns(&mut self, ps: &[ra::Pattern]) -> R<S::F> {
        Ok(self.sink.list(ps.iter().map(|p| self.pattern(p)).collect::<R<_>>()?))
    }

    fn pattern(&mut self, p: &ra::Pattern) -> R<S::F> {
        self.enter()?;
        let f = self.pattern_inner(p);
        self.depth -= 1;
        f
    }

    fn pattern_inner(&mut self, p: &ra::Pattern) -> R<S::F> {
        use ra::Pattern as P;
        Ok(match p {
            P::MatchValue(v) => {
                self.sink.node(k::MatchValue, smallvec![self.expr(&v.value)?], self.loc(v.range))
            }
            P::MatchSingleton(v) => {
                let c = match v.value {
                    ra::Singleton::None => Constant::None,
                    ra::Singleton::True => Constant::Bool(true),
                    ra::Singleton::False => Constant::Bool(false),
                };
                self.sink.node(
                    k::MatchSingleton,
                    smallvec![self.sink.constant(c)],
                    self.loc(v.range),
                )
            }
            P::MatchSequence(v) => self.sink.node(
                k::MatchSequence,
                smallvec![self.patterns(&v.patterns)?],
                self.loc(v.range),
            ),
            P::MatchMapping(v) => self.sink.node(
                k::MatchMapping,
                smallvec![
                    self.exprs(&v.keys)?,
                    self.patterns(&v.patterns)?,
                    opt_ident(self.sink, v.rest.as_ref())
                ],
                self.loc(v.range),
            ),
            P::MatchClass(v) => {
                let kwd_patterns = v
                    .arguments
                    .keywords
                    .iter()
                    .map(|kw| self.pattern(&kw.pattern))
                    .collect::<R<_>>()?;
                self.sink.node(
                    k::MatchClass,
                    smallvec![
                        self.expr(&v.cls)?,
                        self.patterns(&v.arguments.patterns)?,
                        self.sink.list(
                            v.arguments
                                .keywords
                                .iter()
                                .map(|kw| ident(self.sink, kw.attr.as_str()))
                                .collect(),
                        ),
                        self.sink.list(kwd_patterns),
                    ],
                    self.loc(v.range),
                )
            }
            P::MatchStar(v) => self.sink.node(
                k::MatchStar,
                smallvec![opt_ident(self.sink, v.name.as_ref())],
                self.loc(v.range),
            ),
            P::MatchAs(v) => {
                let pattern = match v.pattern.as_deref() {
                    Some(p) => self.pattern(p)?,
                    None => self.sink.none(),
                };
                self.sink.node(
                    k::MatchAs,
                    smallvec![pattern, opt_ident(self.sink, v.name.as_ref())],
                    self.loc(v.range),
                )
            }
            P::MatchOr(v) => self.sink.node(
                k::MatchOr,
                smallvec![self.patterns(&v.patterns)?],
                self.loc(v.range),
            ),
        })
    }
}
