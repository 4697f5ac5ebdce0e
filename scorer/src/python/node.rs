//! The CPython-shaped generic syntax tree: what `ast.parse` returns to Python code.
//!
//! Every node names its 3.11 class, holds its fields in `_fields` order and, for positioned classes,
//! its `lineno`, `col_offset`, `end_lineno`, `end_col_offset`.

use num_bigint::BigInt;
use smallvec::smallvec;
use std::rc::Rc;

use super::classes::{self, k};
use super::{syntax, LineIndex};

/// One `ast` class of CPython 3.11.
#[derive(Debug, PartialEq, Eq)]
pub struct NodeClass {
    pub name: &'static str,
    /// Direct base class (`None` only for `AST`).
    pub base: Option<&'static str>,
    pub fields: &'static [&'static str],
    pub attributes: &'static [&'static str],
    /// Fields and attributes whose class attribute is `None` in CPython (ASDL `?`): an instance
    /// built without them reads `None`, and `ast.dump` omits them when they are `None`.
    pub optional: &'static [&'static str],
}

impl NodeClass {
    /// The direct base class.
    pub fn base_class(&self) -> Option<&'static NodeClass> {
        // `isinstance` walks this chain for every node of every `ast.walk`: look the base up by
        // position in CLASSES instead of by name.
        static BASES: std::sync::OnceLock<Vec<Option<&'static NodeClass>>> =
            std::sync::OnceLock::new();
        let bases = BASES.get_or_init(|| CLASSES.iter().map(|c| c.base.and_then(class)).collect());
        match self.index().and_then(|i| bases.get(i)) {
            Some(b) => *b,
            None => self.base.and_then(class),
        }
    }

    /// This class's position in [`CLASSES`] (`None` for a class defined elsewhere), so per-class
    /// tables are plain vectors instead of maps keyed by name.
    pub fn index(&self) -> Option<usize> {
        let offset = (self as *const NodeClass as usize).wrapping_sub(CLASSES.as_ptr() as usize);
        let i = offset / std::mem::size_of::<NodeClass>().max(1);
        CLASSES.get(i).filter(|c| std::ptr::eq(*c, self)).map(|_| i)
    }

    /// `issubclass(self, other)` within the `ast` hierarchy.
    pub fn is_subclass_of(&self, other: &NodeClass) -> bool {
        // `isinstance(node, ast.X)` runs for every node of every `ast.walk`: a bit test in a
        // table of each class's ancestors, made once from `walk_is_subclass_of`.
        const WORDS: usize = 3;
        static ANCESTORS: std::sync::OnceLock<Vec<[u64; WORDS]>> = std::sync::OnceLock::new();
        if let (Some(i), Some(j)) = (self.index(), other.index()) {
            if j < 64 * WORDS {
                let table = ANCESTORS.get_or_init(|| {
                    CLASSES
                        .iter()
                        .map(|c| {
                            let mut bits = [0u64; WORDS];
                            for (j, o) in CLASSES.iter().enumerate().take(64 * WORDS) {
                                if c.walk_is_subclass_of(o) {
                                    bits[j / 64] |= 1 << (j % 64);
                                }
                            }
                            bits
                        })
                        .collect()
                });
                if let Some(bits) = table.get(i) {
                    return bits[j / 64] & (1 << (j % 64)) != 0;
                }
            }
        }
        self.walk_is_subclass_of(other)
    }

    /// `issubclass(self, other)` by walking the base chain.
    fn walk_is_subclass_of(&self, other: &NodeClass) -> bool {
        let mut cur: Option<&NodeClass> = Some(self);
        while let Some(c) = cur {
            if std::ptr::eq(c, other) || c.name == other.name {
                return true;
            }
            cur = c.base_class();
        }
        false
    }

    /// Index of a field in `fields`.
    pub fn field_index(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| *f == name)
    }

    /// Whether the class attribute `name` is `None` (optional field or attribute).
    pub fn is_optional(&self, name: &str) -> bool {
        self.optional.contains(&name)
    }
}

/// A constant as `ast.Constant.value` holds it.
#[derive(Debug, Clone, PartialEq)]
pub enum Constant {
    None,
    Bool(bool),
    Int(BigInt),
    Float(f64),
    Complex {
        real: f64,
        imag: f64,
    },
    /// Shared with the `str` values `ast.parse` hands out (no copy per parse).
    Str(Rc<str>),
    Bytes(Rc<[u8]>),
    Ellipsis,
}

/// One field value.
#[derive(Debug, Clone, PartialEq)]
pub enum Field {
    /// `None` (an absent optional child or a null string field).
    None,
    /// Shared: the parse cache hands one parsed tree to every `ast.parse` of the same source.
    Node(Rc<Node>),
    List(Vec<Field>),
    /// Identifier or other plain string field (`Name.id`, `alias.name`, `ImportFrom.module`).
    Str(Rc<str>),
    /// Plain int field (`ImportFrom.level`, `FormattedValue.conversion`, `is_async`).
    Int(i64),
    /// `Constant.value`.
    Const(Constant),
}

impl Field {
    pub fn as_node(&self) -> Option<&Node> {
        match self {
            Field::Node(n) => Some(n),
            _ => None,
        }
    }

    pub fn as_list(&self) -> Option<&[Field]> {
        match self {
            Field::List(v) => Some(v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Field::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_int(&self) -> Option<i64> {
        match self {
            Field::Int(i) => Some(*i),
            _ => None,
        }
    }

    pub fn as_const(&self) -> Option<&Constant> {
        match self {
            Field::Const(c) => Some(c),
            _ => None,
        }
    }
}

/// CPython source positions of a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Loc {
    pub lineno: u32,
    pub col_offset: u32,
    pub end_lineno: u32,
    pub end_col_offset: u32,
}

/// A node's fields: most classes have at most three, held in the node itself (one allocation
/// per node: building and freeing parsed trees showed in profiles).
pub type NodeFields = smallvec::SmallVec<[Field; 3]>;

#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub class: &'static NodeClass,
    /// In `class.fields` order.
    pub fields: NodeFields,
    pub loc: Option<Loc>,
}

impl Node {
    /// The value of field `name` (`None` if the class has no such field).
    pub fn get(&self, name: &str) -> Option<&Field> {
        self.class.field_index(name).and_then(|i| self.fields.get(i))
    }

    /// The value of attribute `name` (`lineno`, `col_offset`, `end_lineno`, `end_col_offset`).
    pub fn attribute(&self, name: &str) -> Option<u32> {
        let loc = self.loc?;
        match name {
            "lineno" => Some(loc.lineno),
            "col_offset" => Some(loc.col_offset),
            "end_lineno" => Some(loc.end_lineno),
            "end_col_offset" => Some(loc.end_col_offset),
            _ => None,
        }
    }

    /// Child nodes in `ast.iter_child_nodes` order (fields in order, lists flattened).
    pub fn children(&self) -> impl Iterator<Item = &Node> {
        self.fields.iter().flat_map(|f| {
            let (one, many): (Option<&Node>, &[Field]) = match f {
                Field::Node(n) => (Some(n), &[]),
                Field::List(items) => (None, items.as_slice()),
                _ => (None, &[]),
            };
            one.into_iter().chain(many.iter().filter_map(|x| match x {
                Field::Node(n) => Some(&**n),
                _ => None,
            }))
        })
    }
}

/// How deep CPython's `ast2obj` recursion goes converting `root` (3.11 `Python/Python-ast.c`):
/// every node it converts counts one level, except the shared field-less singletons of the
/// simple sums (`Load`, `Add`, `Eq`...), which it hands out without recursing. `ast.parse`
/// raises RecursionError when `3 * (caller's depth + 1)` plus this passes `3 *
/// sys.getrecursionlimit()`. Iterative, so any tree can be measured.
pub fn ast2obj_depth(root: &Node) -> u32 {
    let counts = |n: &Node| !(n.class.fields.is_empty() && n.class.attributes.is_empty());
    let mut deepest = 0u32;
    let mut todo: Vec<(&Node, u32)> = vec![(root, u32::from(counts(root)))];
    while let Some((n, d)) = todo.pop() {
        deepest = deepest.max(d);
        for f in &n.fields {
            let items: &[Field] = match f {
                Field::List(items) => items,
                one => std::slice::from_ref(one),
            };
            for item in items {
                if let Field::Node(c) = item {
                    todo.push((c, d + u32::from(counts(c))));
                }
            }
        }
    }
    deepest
}

/// Every 3.11 `ast` class, abstract and deprecated ones included (131 classes, as
/// `AST.__subclasses__()` enumerates them recursively).
pub static CLASSES: &[NodeClass] = &classes::ALL;

/// The attributes of every class that has any, in this order (the values `Loc` holds).
pub const LOCATION_ATTRIBUTES: [&str; 4] = ["lineno", "col_offset", "end_lineno", "end_col_offset"];

/// Looks a class up by name.
pub fn class(name: &str) -> Option<&'static NodeClass> {
    CLASSES.iter().find(|c| c.name == name)
}

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

pub(crate) fn node(class: &'static NodeClass, fields: NodeFields, loc: Option<Loc>) -> Field {
    Field::Node(Rc::new(Node { class, fields, loc }))
}

/// A node of a class with no fields and no positions (`Load`, `Add`, `Eq`): a quarter of a
/// tree's nodes. Each thread hands out one shared node per class instead of allocating one per
/// occurrence: the parse cache holds every tree, and their allocation and drop showed in profiles.
pub(crate) fn leaf(class: &'static NodeClass) -> Field {
    thread_local! {
        static LEAVES: std::cell::RefCell<Vec<Option<Rc<Node>>>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    let Some(i) = class.index() else {
        return node(class, NodeFields::new(), None);
    };
    LEAVES.with(|leaves| {
        let mut leaves = leaves.borrow_mut();
        if leaves.len() <= i {
            leaves.resize(i + 1, None);
        }
        let shared = leaves[i]
            .get_or_insert_with(|| Rc::new(Node { class, fields: NodeFields::new(), loc: None }));
        Field::Node(shared.clone())
    })
}

/// An identifier as CPython stores it: NFKC-normalised when not ASCII (PEP 3131).
fn ident(s: &syntax::Identifier) -> Field {
    Field::Str(Rc::from(&*normalize_identifier(s.as_str())))
}

/// PEP 3131 normalisation of a non-ASCII identifier (rustpython keeps the source spelling).
pub fn normalize_identifier(s: &str) -> std::borrow::Cow<'_, str> {
    if s.is_ascii() {
        std::borrow::Cow::Borrowed(s)
    } else {
        use unicode_normalization::UnicodeNormalization;
        std::borrow::Cow::Owned(s.nfkc().collect())
    }
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
    matching_paren(src, start) == Some(end - 1)
}

/// The offset of the bracket closing the one at `open`, skipping strings and comments.
pub(crate) fn matching_paren(src: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = open;
    while i < src.len() {
        match src[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            b'#' => {
                while i < src.len() && src[i] != b'\n' && src[i] != b'\r' {
                    i += 1;
                }
                continue;
            }
            q @ (b'\'' | b'"') => {
                let triple = src.get(i + 1) == Some(&q) && src.get(i + 2) == Some(&q);
                i += if triple { 3 } else { 1 };
                while i < src.len() {
                    if src[i] == b'\\' {
                        i += 2;
                        continue;
                    }
                    if src[i] == q
                        && (!triple || (src.get(i + 1) == Some(&q) && src.get(i + 2) == Some(&q)))
                    {
                        i += if triple { 3 } else { 1 };
                        break;
                    }
                    i += 1;
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Skips one string literal (prefix included) starting at `i`; returns its end offset.
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
        if b[i] == b'\\' {
            i += 2;
            continue;
        }
        if b[i] == q && (!triple || (b.get(i + 1) == Some(&q) && b.get(i + 2) == Some(&q))) {
            return Some(i + if triple { 3 } else { 1 });
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

/// `ast.dump(node, annotate_fields, include_attributes, indent=indent)` exactly as CPython 3.11
/// formats it (`indent` is the already-normalised indent string: an int `n` is `n` spaces).
///
/// CPython formats children first and then picks the layout; here the layout is decided from the
/// structure (`allsimple` and the argument count) and everything is written into one buffer, so
/// each tree level costs a small stack frame.
pub fn dump(
    node: &Node,
    annotate_fields: bool,
    include_attributes: bool,
    indent: Option<&str>,
) -> String {
    let d = Dumper { annotate_fields, include_attributes, indent };
    let mut out = String::new();
    d.node(node, 0, &mut out);
    out
}

struct Dumper<'a> {
    annotate_fields: bool,
    include_attributes: bool,
    indent: Option<&'a str>,
}

const ATTRIBUTES: [&str; 4] = ["lineno", "col_offset", "end_lineno", "end_col_offset"];

impl Dumper<'_> {
    /// Whether a field is omitted (`None` in an optional field).
    fn omitted(cls: &NodeClass, name: &str, value: &Field) -> bool {
        matches!(value, Field::None) && cls.is_optional(name)
    }

    /// The attributes shown for a node (all four when it has a location).
    fn attrs_shown(&self, n: &Node) -> usize {
        if !self.include_attributes || n.loc.is_none() {
            return 0;
        }
        ATTRIBUTES.iter().filter(|a| n.class.attributes.contains(a)).count()
    }

    fn arg_count(&self, n: &Node) -> usize {
        let fields = n
            .class
            .fields
            .iter()
            .zip(&n.fields)
            .filter(|(name, v)| !Self::omitted(n.class, name, v))
            .count();
        fields + self.attrs_shown(n)
    }

    /// CPython's `simple` flag of a formatted value.
    fn simple(&self, f: &Field) -> bool {
        match f {
            Field::Node(n) => self.arg_count(n) == 0,
            Field::List(items) => items.is_empty(),
            _ => true,
        }
    }

    fn pad(&self, out: &mut String, level: usize, comma: bool) {
        if let Some(ind) = self.indent {
            if comma {
                out.push(',');
            }
            out.push('\n');
            for _ in 0..level {
                out.push_str(ind);
            }
        } else if comma {
            out.push_str(", ");
        }
    }

    fn node(&self, n: &Node, level: usize, out: &mut String) {
        let level = level + usize::from(self.indent.is_some());
        let cls = n.class;
        let shown = |(name, v): &(&&str, &Field)| !Self::omitted(cls, name, v);
        let allsimple = cls.fields.iter().zip(&n.fields).filter(shown).all(|(_, v)| self.simple(v));
        let flat = allsimple && self.arg_count(n) <= 3;
        out.push_str(cls.name);
        out.push('(');
        let mut first = true;
        let mut keywords = self.annotate_fields;
        for (i, name) in cls.fields.iter().enumerate() {
            let Some(value) = n.fields.get(i) else {
                keywords = true;
                continue;
            };
            if Self::omitted(cls, name, value) {
                keywords = true;
                continue;
            }
            self.separator(out, level, flat, first);
            first = false;
            if keywords {
                out.push_str(name);
                out.push('=');
            }
            self.field(value, level, out);
        }
        if let Some(loc) = n.loc.filter(|_| self.include_attributes) {
            let values = [loc.lineno, loc.col_offset, loc.end_lineno, loc.end_col_offset];
            for (name, v) in ATTRIBUTES.iter().zip(values) {
                if cls.attributes.contains(name) {
                    self.separator(out, level, flat, first);
                    first = false;
                    out.push_str(name);
                    out.push('=');
                    out.push_str(&v.to_string());
                }
            }
        }
        out.push(')');
    }

    fn separator(&self, out: &mut String, level: usize, flat: bool, first: bool) {
        if flat {
            if !first {
                out.push_str(", ");
            }
        } else {
            self.pad(out, level, !first);
        }
    }

    fn field(&self, f: &Field, level: usize, out: &mut String) {
        match f {
            Field::None => out.push_str("None"),
            Field::Node(n) => self.node(n, level, out),
            Field::List(items) => {
                if items.is_empty() {
                    out.push_str("[]");
                    return;
                }
                let level = level + usize::from(self.indent.is_some());
                out.push('[');
                for (i, x) in items.iter().enumerate() {
                    self.pad(out, level, i > 0);
                    self.field(x, level, out);
                }
                out.push(']');
            }
            Field::Str(s) => out.push_str(&repr_str(s)),
            Field::Int(i) => out.push_str(&i.to_string()),
            Field::Const(c) => out.push_str(&repr_constant(c)),
        }
    }
}

/// Python's `repr` of a constant value.
pub fn repr_constant(c: &Constant) -> String {
    match c {
        Constant::None => "None".to_string(),
        Constant::Bool(true) => "True".to_string(),
        Constant::Bool(false) => "False".to_string(),
        Constant::Int(i) => i.to_string(),
        Constant::Float(f) => repr_float(*f),
        Constant::Complex { real, imag } => repr_complex(*real, *imag),
        Constant::Str(s) => repr_str(s),
        Constant::Bytes(b) => repr_bytes(b),
        Constant::Ellipsis => "Ellipsis".to_string(),
    }
}

/// Python's `repr(float)`: shortest round-trip digits, exponent form outside `1e-4 <= |x| < 1e16`.
pub fn repr_float(f: f64) -> String {
    format_float(f, true)
}

/// `float_repr_style` 'r' formatting; `force_point` adds `.0` to integral values (repr of float,
/// but not of the parts of a complex).
fn format_float(f: f64, force_point: bool) -> String {
    if f.is_nan() {
        return "nan".to_string();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf".to_string() } else { "-inf".to_string() };
    }
    if f == 0.0 {
        let z = if force_point { "0.0" } else { "0" };
        return if f.is_sign_negative() { format!("-{z}") } else { z.to_string() };
    }
    // Rust's `{:e}` gives the shortest round-trip digits: "d.ddde±x".
    let sci = format!("{:e}", f.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let sign = if f < 0.0 { "-" } else { "" };
    let decpt = exp + 1; // position of the decimal point relative to the digits
    if (-4..16).contains(&exp) {
        let n = digits.len() as i32;
        let body = if decpt <= 0 {
            format!("0.{}{}", "0".repeat((-decpt) as usize), digits)
        } else if decpt >= n {
            let zeros = "0".repeat((decpt - n) as usize);
            if force_point {
                format!("{digits}{zeros}.0")
            } else {
                format!("{digits}{zeros}")
            }
        } else {
            format!("{}.{}", &digits[..decpt as usize], &digits[decpt as usize..])
        };
        format!("{sign}{body}")
    } else {
        let m = if digits.len() > 1 {
            format!("{}.{}", &digits[..1], &digits[1..])
        } else {
            digits.clone()
        };
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{sign}{m}e{esign}{:02}", exp.abs())
    }
}

/// Python's `repr(complex)`.
pub fn repr_complex(real: f64, imag: f64) -> String {
    let im = format_float(imag, false);
    if real == 0.0 && real.is_sign_positive() {
        return format!("{im}j");
    }
    let re = format_float(real, false);
    let sign = if im.starts_with('-') { "" } else { "+" };
    format!("({re}{sign}{im}j)")
}

pub(crate) fn is_printable_char(c: char) -> bool {
    crate::unicode::is_printable(c)
}

/// Python's `repr(str)`.
pub fn repr_str(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if (c as u32) < 0x7f => out.push(c),
            c if is_printable_char(c) => out.push(c),
            c => {
                let cp = c as u32;
                if cp <= 0xff {
                    out.push_str(&format!("\\x{cp:02x}"));
                } else if cp <= 0xffff {
                    out.push_str(&format!("\\u{cp:04x}"));
                } else {
                    out.push_str(&format!("\\U{cp:08x}"));
                }
            }
        }
    }
    out.push(quote);
    out
}

/// Python's `repr(bytes)`.
pub fn repr_bytes(b: &[u8]) -> String {
    let quote = if b.contains(&b'\'') && !b.contains(&b'"') { b'"' } else { b'\'' };
    let mut out = String::with_capacity(b.len() + 3);
    out.push('b');
    out.push(quote as char);
    for &c in b {
        match c {
            b'\\' => out.push_str("\\\\"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c as char);
            }
            c if !(0x20..0x7f).contains(&c) => out.push_str(&format!("\\x{c:02x}")),
            c => out.push(c as char),
        }
    }
    out.push(quote as char);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `node_to_value` fills attributes from `Loc` by position: every class must have none or
    /// exactly [`LOCATION_ATTRIBUTES`].
    #[test]
    fn attributes_are_none_or_the_four_locations() {
        for c in CLASSES {
            assert!(
                c.attributes.is_empty() || c.attributes == LOCATION_ATTRIBUTES,
                "{}: {:?}",
                c.name,
                c.attributes
            );
        }
    }

    #[test]
    fn index_is_the_position_in_classes() {
        for (i, c) in CLASSES.iter().enumerate() {
            assert_eq!(c.index(), Some(i));
        }
        let elsewhere =
            NodeClass { name: "X", base: None, fields: &[], attributes: &[], optional: &[] };
        assert_eq!(elsewhere.index(), None);
    }

    /// The ancestor table answers as the walk up the base chain does, for every pair of classes
    /// (and the walk still serves a class defined elsewhere).
    #[test]
    fn subclass_table_agrees_with_the_walk() {
        let mut yes = 0;
        for a in CLASSES {
            for b in CLASSES {
                assert_eq!(a.is_subclass_of(b), a.walk_is_subclass_of(b), "{} {}", a.name, b.name);
                yes += usize::from(a.is_subclass_of(b));
            }
        }
        assert!(yes > CLASSES.len(), "every class is its own subclass, and some have bases");
        let expr = class("expr").map(|c| class("Name").is_some_and(|n| n.is_subclass_of(c)));
        assert_eq!(expr, Some(true));
        let elsewhere = NodeClass {
            name: "Name",
            base: Some("expr"),
            fields: &[],
            attributes: &[],
            optional: &[],
        };
        assert!(class("AST").is_some_and(|ast| elsewhere.is_subclass_of(ast)));
    }
}
