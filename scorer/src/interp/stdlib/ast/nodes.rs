//! `ast` node objects: parsed nodes as Python values, their attributes (fields, positions,
//! class defaults), construction from Python (`ast.Name(...)`), their children, and constants as
//! values.

use super::*;
use crate::interp::ExcKind;

impl<'a> Interp<'a> {
    // ------------------------------------------------------------------ conversion

    pub fn node_to_value(&mut self, n: &Node) -> Value<'a> {
        let class = n.class;
        if class.fields.is_empty() && class.attributes.is_empty() {
            if let Some(i) = class.index() {
                return shared_leaf(&self.singletons, class, i);
            }
        }
        // Exactly as many slots as fields (inline up to three), filled in place; a child node
        // converted here directly (one call per node, not two).
        let vals: crate::interp::value::NodeVals<'a> = n
            .fields
            .iter()
            .map(|f| {
                Some(match f {
                    Field::Node(c) => self.node_to_value(c),
                    other => self.field_to_value(other),
                })
            })
            .collect();
        // Noted at its first write (`NodeObj::note_once`).
        Value::Node(Rc::new(NodeObj::parsed(class, vals, n.loc)))
    }

    /// The node objects of ruff's parse of `source` (checked by [`crate::python::FastTree::check`],
    /// whose `ast2obj` depth is `depth`): the module and its statements, each statement's fields
    /// converted when first read ([`LazySink`]); `None` when the conversion declines.
    #[cfg(feature = "fast-parse")]
    pub(crate) fn fast_to_value(
        &mut self,
        tree: &Rc<crate::python::FastTree>,
        source: &Str,
        depth: u32,
    ) -> Option<(Value<'a>, u32)> {
        let sink = LazySink {
            source: Rc::new(LazySource {
                tree: tree.clone(),
                src: source.clone(),
                leaves: self.singletons.clone(),
                objects: self.objects.clone(),
            }),
        };
        let fields = tree.build(source, &sink)?;
        let module = crate::python::Sink::node(&sink, module_class(), fields, None)?;
        Some((module, depth))
    }

    fn field_to_value(&mut self, f: &Field) -> Value<'a> {
        match f {
            Field::None => Value::None,
            Field::Node(n) => self.node_to_value(n),
            Field::List(items) => {
                let items = items
                    .iter()
                    .map(|x| match x {
                        Field::Node(c) => self.node_to_value(c),
                        other => self.field_to_value(other),
                    })
                    .collect();
                self.new_list(items)
            }
            Field::Str(s) => Value::Str(s.clone()),
            Field::Int(i) => Value::Int(*i),
            Field::Const(c) => const_to_value(c),
        }
    }

    // ------------------------------------------------------------------ attributes

    /// An attribute the test set on `class` or one of its bases (`ast.AST.x = ...`).
    pub(crate) fn ast_class_attr(
        &self,
        class: &'static NodeClass,
        name: &str,
    ) -> Option<Value<'a>> {
        if self.ast_class_attrs.is_empty() {
            return None;
        }
        let mut cur = Some(class);
        while let Some(c) = cur {
            if let Some((_, _, v)) =
                self.ast_class_attrs.iter().find(|(k, n, _)| *k == c.name && &**n == name)
            {
                return Some(v.clone());
            }
            cur = c.base.and_then(ast_class);
        }
        None
    }

    pub fn node_getattr(
        &mut self,
        v: &Value<'a>,
        n: &Rc<NodeObj<'a>>,
        name: &str,
    ) -> PyResult<'a, Value<'a>> {
        let class = n.class;
        if let Some(i) = n.index_of(name) {
            if let Some(x) = n.get(i) {
                return Ok(x);
            }
            if is_optional(class, name) {
                return Ok(self.ast_class_attr(class, name).unwrap_or(Value::None));
            }
        }
        if let Some((_, x)) = n.extra().iter().find(|(k, _)| &**k == name) {
            return Ok(x.clone());
        }
        if let Some(x) = self.ast_class_attr(class, name) {
            return Ok(match x {
                Value::Func(_) => Value::Method(Rc::new((v.clone(), x))),
                other => other,
            });
        }
        match name {
            "s" | "n" if class.name == "Constant" => {
                return Ok(n.get(0).unwrap_or(Value::None));
            }
            "__class__" => return Ok(Value::AstClass(AstCls::Real(class))),
            "_fields" => {
                return Ok(Value::tuple(class.fields.iter().map(|f| Value::str(f)).collect()))
            }
            "_attributes" => {
                return Ok(Value::tuple(class.attributes.iter().map(|f| Value::str(f)).collect()))
            }
            "__module__" => return Ok(Value::str("ast")),
            // The node's own storage from now on (as an instance's `__dict__` is).
            "__dict__" => {
                if let Some(d) = n.live_dict() {
                    return Ok(Value::Dict(d));
                }
                if n.note_once() {
                    self.objects.note(&Value::Node(n.clone()));
                }
                let d = self.new_dict();
                n.make_live(d.clone());
                return Ok(Value::Dict(d));
            }
            _ => {}
        }
        let _ = v;
        let mut e = self.err(
            ExcKind::AttributeError,
            format!("'{}' object has no attribute '{name}'", class.name),
        );
        e.line = None;
        Err(e)
    }

    pub fn node_setattr(&mut self, n: &Rc<NodeObj<'a>>, name: &str, v: Value<'a>) {
        if n.note_once() {
            self.objects.note(&Value::Node(n.clone()));
        }
        if n.live_dict().is_some() {
            n.live_set(name, Some(v));
            return;
        }
        if let Some(i) = n.index_of(name) {
            n.set(i, Some(v));
            return;
        }
        let mut extra = n.extra_mut();
        if let Some(slot) = extra.iter_mut().find(|(k, _)| &**k == name) {
            slot.1 = v;
        } else {
            extra.push((Rc::from(name), v));
        }
    }

    pub fn node_delattr(&mut self, n: &Rc<NodeObj<'a>>, name: &str) -> bool {
        if n.live_dict().is_some() {
            return n.live_set(name, None).is_some();
        }
        if let Some(i) = n.index_of(name) {
            return n.set(i, None).is_some();
        }
        let mut extra = n.extra_mut();
        let before = extra.len();
        extra.retain(|(k, _)| &**k != name);
        extra.len() != before
    }

    pub fn astclass_getattr(&mut self, c: AstCls, name: &str) -> PyResult<'a, Value<'a>> {
        if let AstCls::Real(r) = c {
            if let Some(x) = self.ast_class_attr(r, name) {
                return Ok(x);
            }
        }
        match (c, name) {
            (_, "__name__" | "__qualname__") => Ok(Value::str(c.name())),
            (_, "__module__") => Ok(Value::str("ast")),
            (AstCls::Real(r), "_fields") => {
                Ok(Value::tuple(r.fields.iter().map(|f| Value::str(f)).collect()))
            }
            (AstCls::Real(r), "_attributes") => {
                Ok(Value::tuple(r.attributes.iter().map(|f| Value::str(f)).collect()))
            }
            (AstCls::Alias(AstAlias::Str), "_fields") => Ok(Value::tuple(vec![Value::str("s")])),
            (AstCls::Alias(AstAlias::Num), "_fields") => Ok(Value::tuple(vec![Value::str("n")])),
            (AstCls::Alias(AstAlias::Bytes), "_fields") => Ok(Value::tuple(vec![Value::str("s")])),
            (AstCls::Alias(AstAlias::NameConstant), "_fields") => {
                Ok(Value::tuple(vec![Value::str("value"), Value::str("kind")]))
            }
            (AstCls::Alias(AstAlias::Ellipsis), "_fields") => Ok(Value::tuple(vec![])),
            (AstCls::Real(r), "__bases__") => Ok(Value::tuple(
                r.base
                    .and_then(ast_class)
                    .map(|b| Value::AstClass(AstCls::Real(b)))
                    .into_iter()
                    .collect(),
            )),
            (AstCls::Real(r), "__mro__") => {
                let mut out = vec![Value::AstClass(AstCls::Real(r))];
                let mut cur = r.base;
                while let Some(b) = cur.and_then(ast_class) {
                    out.push(Value::AstClass(AstCls::Real(b)));
                    cur = b.base;
                }
                out.push(Value::Type(BType::Object));
                Ok(Value::tuple(out))
            }
            (AstCls::Real(r), f)
                if is_optional(r, f) && (r.fields.contains(&f) || r.attributes.contains(&f)) =>
            {
                Ok(Value::None)
            }
            _ => {
                let mut e = self.err(
                    ExcKind::AttributeError,
                    format!("type object '{}' has no attribute '{name}'", c.name()),
                );
                e.line = None;
                Err(e)
            }
        }
    }

    /// `ast.X(...)` constructor.
    pub fn make_node(
        &mut self,
        c: AstCls,
        args: Vec<Value<'a>>,
        kwargs: Kwargs<'a>,
    ) -> PyResult<'a, Value<'a>> {
        let class = match c {
            AstCls::Real(r) => r,
            AstCls::Alias(_) => match ast_class("Constant") {
                Some(k) => k,
                None => return Err(self.unsupported("ast.Constant")),
            },
        };
        if let AstCls::Alias(_) = c {
            let val = args.into_iter().next().or_else(|| {
                kwargs
                    .iter()
                    .find(|(k, _)| matches!(&**k, "s" | "n" | "value"))
                    .map(|(_, v)| v.clone())
            });
            let n = Rc::new(NodeObj::blank(class));
            if n.note_once() {
                self.objects.note(&Value::Node(n.clone()));
            }
            if let Some(v) = val {
                self.node_setattr(&n, "value", v);
            }
            self.node_setattr(&n, "kind", Value::None);
            return Ok(Value::Node(n));
        }
        if args.len() > class.fields.len() {
            return Err(self.err(
                ExcKind::TypeError,
                format!(
                    "{} constructor takes at most {} positional argument{}",
                    class.name,
                    class.fields.len(),
                    if class.fields.len() == 1 { "" } else { "s" }
                ),
            ));
        }
        let n = Rc::new(NodeObj::blank(class));
        if n.note_once() {
            self.objects.note(&Value::Node(n.clone()));
        }
        for (i, a) in args.into_iter().enumerate() {
            n.set(i, Some(a));
        }
        for (k, v) in kwargs {
            self.node_setattr(&n, &k, v);
        }
        Ok(Value::Node(n))
    }

    /// What CPython's `ast` helpers raise for a value that is not a node.
    pub(super) fn no_fields_error(&self, v: &Value<'a>) -> Box<PyErr<'a>> {
        self.err(
            ExcKind::AttributeError,
            format!("'{}' object has no attribute '_fields'", type_name(v)),
        )
    }

    /// Appends the direct AST children of a node to `out` (the `ast.walk` step).
    pub fn child_nodes_into(
        &mut self,
        v: &Value<'a>,
        out: &mut VecDeque<Value<'a>>,
    ) -> PyResult<'a, ()> {
        self.for_each_child(v, |c| out.push_back(c))
    }

    /// The direct AST children of a node, in `_fields` order (list fields in list order).
    pub fn child_nodes(&mut self, v: &Value<'a>) -> PyResult<'a, Vec<Value<'a>>> {
        let mut out = Vec::new();
        self.for_each_child(v, |c| out.push(c))?;
        Ok(out)
    }

    /// Calls `push` with each direct AST child of a node, in `_fields` order.
    fn for_each_child(&self, v: &Value<'a>, mut push: impl FnMut(Value<'a>)) -> PyResult<'a, ()> {
        let Value::Node(n) = v else {
            return Err(self.no_fields_error(v));
        };
        #[cfg(feature = "fast-parse")]
        if let Some(skip) = WALK_SKIP.with(std::cell::Cell::get) {
            if let Some(count) = n.skippable(skip.accept) {
                SKIPPED.with(|c| c.set(c.get().saturating_add(u64::from(count))));
                return Ok(());
            }
        }
        let vals = n.fields();
        // Children pushed as `Rc` clones inline (`Value::clone` is a call; `ast.walk` runs this
        // for every node).
        for x in vals.iter().flatten() {
            match x {
                Value::Node(c) => push(Value::Node(c.clone())),
                Value::List(l) => {
                    for it in l.borrow().iter() {
                        if let Value::Node(c) = it {
                            push(Value::Node(c.clone()));
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }
}

pub(crate) fn const_to_value<'a>(c: &Constant) -> Value<'a> {
    match c {
        Constant::None => Value::None,
        Constant::Bool(b) => Value::Bool(*b),
        Constant::Int(i) => num_traits::ToPrimitive::to_i64(i)
            .map_or_else(|| Value::from_bigint(i.clone()), Value::Int),
        Constant::Float(f) => Value::Float(*f),
        Constant::Complex { real, imag } => Value::Complex(*real, *imag),
        Constant::Str(s) => Value::Str(s.clone()),
        Constant::Bytes(b) => Value::Bytes(b.clone()),
        Constant::Ellipsis => Value::Ellipsis,
    }
}

/// The `Module` class.
#[cfg(feature = "fast-parse")]
fn module_class() -> &'static NodeClass {
    static MODULE: std::sync::OnceLock<&'static NodeClass> = std::sync::OnceLock::new();
    MODULE.get_or_init(|| ast_class("Module").unwrap_or(&node::CLASSES[0]))
}

/// A leaf class's one node object in the run (`Load`, `Add`): shared by every `ast.parse` of the
/// run, whichever method made it, as CPython shares them.
fn shared_leaf<'a>(
    table: &std::cell::RefCell<Vec<Option<Value<'a>>>>,
    class: &'static NodeClass,
    i: usize,
) -> Value<'a> {
    let mut t = table.borrow_mut();
    match t.get(i) {
        // The clone of an `Rc` inline (`Value::clone` is a call; this runs for a quarter of a
        // tree's nodes).
        Some(Some(Value::Node(v))) => return Value::Node(v.clone()),
        Some(Some(v)) => return v.clone(),
        _ => {}
    }
    let v = crate::interp::isolation::shared(|| Value::Node(Rc::new(NodeObj::blank(class))));
    if t.len() <= i {
        t.resize(i + 1, None);
    }
    t[i] = Some(v.clone());
    v
}

/// What a parse's statements need to convert themselves when first read: ruff's tree and its
/// source, the run's shared leaves ([`Interp::singletons`]) and the run's object list (lists are
/// noted as made, as [`Interp::new_list`] does).
#[cfg(feature = "fast-parse")]
pub(crate) struct LazySource<'a> {
    tree: Rc<crate::python::FastTree>,
    src: Str,
    leaves: Rc<std::cell::RefCell<Vec<Option<Value<'a>>>>>,
    objects: Rc<crate::interp::memory::Objects<'a>>,
}

/// A statement whose fields are not converted yet ([`NodeObj::lazy`]): where it is, and what
/// the walk needs to pass over it unconverted (see [`WalkSkip`]).
#[cfg(feature = "fast-parse")]
pub(crate) struct Pending<'a> {
    source: Rc<LazySource<'a>>,
    path: crate::python::StmtPath,
    /// The class buckets of the nodes below the statement ([`crate::python::FastTree::below`]).
    pub(crate) below: u64,
    /// How many nodes `ast.walk` yields below the statement.
    pub(crate) count: u32,
}

#[cfg(feature = "fast-parse")]
impl<'a> Pending<'a> {
    /// The statement's fields, converted (its own statements left lazy), its node objects born
    /// in generation `born` (the statement's, as if converted with it).
    pub(crate) fn fill(&self, born: u32) -> Option<crate::interp::value::NodeVals<'a>> {
        crate::interp::isolation::born_in(born, || {
            let sink = LazySink { source: self.source.clone() };
            match self.source.tree.fill_stmt(&self.source.src, &self.path, &sink)? {
                Some(Value::Node(n)) => Some(n.take_vals()),
                _ => None,
            }
        })
    }
}

/// Builds `ast.parse`'s node objects straight from ruff's tree: each statement as a lazy node
/// whose fields are converted when first read, everything else as it is met.
#[cfg(feature = "fast-parse")]
struct LazySink<'a> {
    source: Rc<LazySource<'a>>,
}

#[cfg(feature = "fast-parse")]
impl<'a> crate::python::Sink for LazySink<'a> {
    type F = Option<Value<'a>>;
    #[inline]
    fn none(&self) -> Self::F {
        Some(Value::None)
    }
    #[inline]
    fn list(&self, items: Vec<Self::F>) -> Self::F {
        // Every item is `Some`; a `map` is collected in place (no new allocation).
        let v = Value::list(items.into_iter().map(|v| v.unwrap_or(Value::None)).collect());
        self.source.objects.note(&v);
        Some(v)
    }
    #[inline]
    fn str(&self, s: Rc<str>) -> Self::F {
        Some(Value::Str(s))
    }
    #[inline]
    fn int(&self, i: i64) -> Self::F {
        Some(Value::Int(i))
    }
    #[inline]
    fn constant(&self, c: Constant) -> Self::F {
        Some(const_to_value(&c))
    }
    #[inline]
    fn small_int(&self, v: i64) -> Self::F {
        Some(Value::Int(v))
    }
    fn node(
        &self,
        class: &'static NodeClass,
        fields: NodeVals<'a>,
        loc: Option<crate::python::node::Loc>,
    ) -> Self::F {
        if class.fields.is_empty() && class.attributes.is_empty() {
            return self.leaf(class);
        }
        // Noted at its first write (`NodeObj::note_once`).
        Some(Value::Node(Rc::new(NodeObj::parsed(class, fields, loc))))
    }
    fn leaf(&self, class: &'static NodeClass) -> Self::F {
        Some(match class.index() {
            Some(i) => shared_leaf(&self.source.leaves, class, i),
            None => Value::Node(Rc::new(NodeObj::blank(class))),
        })
    }
    fn is_lazy(&self) -> bool {
        true
    }
    fn lazy_stmt(
        &self,
        path: crate::python::StmtPath,
        start: u32,
        class: &'static NodeClass,
        loc: Option<crate::python::node::Loc>,
    ) -> Option<Self::F> {
        let (below, count) = self.source.tree.below(start)?;
        let pending = Pending { source: self.source.clone(), path, below, count };
        Some(Some(Value::Node(Rc::new(NodeObj::lazy(class, loc, Box::new(pending))))))
    }
}

/// What the running filtered walk may pass over without converting it: a lazy statement none of
/// whose nodes below it the walk's `isinstance` filter accepts. The walk yields the statement
/// itself and skips what is below it; the loop charges the skipped nodes as rejected ones
/// ([`super::super::super::eval`]'s filtered loops set it around each `next`).
#[cfg_attr(not(feature = "fast-parse"), allow(dead_code))] // only the fast parse path uses it
#[derive(Clone, Copy)]
pub(crate) struct WalkSkip {
    /// Class buckets the filter accepts ([`crate::python::node::accepted_by`]).
    pub(crate) accept: u64,
}

thread_local! {
    /// The running filtered walk's [`WalkSkip`], while it asks for its next node.
    pub(crate) static WALK_SKIP: std::cell::Cell<Option<WalkSkip>> =
        const { std::cell::Cell::new(None) };
    /// Nodes passed over since the loop last asked ([`WalkSkip`]).
    pub(crate) static SKIPPED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Runs `next` with `skip` in force; the nodes it passed over.
#[cfg_attr(not(feature = "fast-parse"), allow(dead_code))] // only the fast parse path uses it
pub(crate) fn with_walk_skip<T>(skip: Option<WalkSkip>, next: impl FnOnce() -> T) -> (T, u64) {
    let Some(skip) = skip else { return (next(), 0) };
    WALK_SKIP.with(|c| c.set(Some(skip)));
    let out = next();
    WALK_SKIP.with(|c| c.set(None));
    (out, SKIPPED.with(|c| c.replace(0)))
}
