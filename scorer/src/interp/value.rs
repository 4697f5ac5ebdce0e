//! The value model: every Python object the interpreter can hold.
//!
//! Heap objects are `Rc`-shared (identity = pointer), mutable ones sit in a [`Mut`] (a `RefCell`
//! that reports writes to [`super::isolation`]). The lifetime `'a` is that of the executed
//! module's syntax tree: functions and generators point into it.

use std::cell::RefCell;

pub(crate) use super::isolation::Mut;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

use num_bigint::BigInt;

use crate::python::node::{Loc, NodeClass};
use crate::python::syntax as ast;

use super::scope::ScopeInfo;

pub type Str = Rc<str>;

/// A small, fast, non-cryptographic hasher (FxHash) for name maps: keys are trusted identifiers.
#[derive(Default, Clone, Copy)]
pub struct FxHasher {
    hash: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        // Whole words, then the zero-padded tail (no memcpy call for the short names this hashes).
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            let mut buf = [0u8; 8];
            buf.copy_from_slice(w);
            self.add(u64::from_le_bytes(buf));
        }
        let tail = words.remainder();
        if !tail.is_empty() {
            let mut w = 0u64;
            for (i, b) in tail.iter().enumerate() {
                w |= u64::from(*b) << (8 * i);
            }
            self.add(w);
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    fn finish(&self) -> u64 {
        self.hash
    }
}

impl FxHasher {
    #[inline]
    fn add(&mut self, w: u64) {
        self.hash = (self.hash.rotate_left(5) ^ w).wrapping_mul(SEED);
    }
}

pub(crate) type FxBuild = BuildHasherDefault<FxHasher>;
/// A namespace (class, instance, module, function): insertion-ordered like CPython's dicts, so
/// `vars()` and `__dict__` list names in definition order.
pub(crate) type NameMap<V> = indexmap::IndexMap<Str, V, FxBuild>;
pub(crate) type NameSet = HashSet<Str, FxBuild>;

/// Hash of a string (used for dict/set keys).
pub(crate) fn hash_bytes(b: &[u8]) -> u64 {
    let mut h = FxHasher::default();
    h.write(b);
    h.write_usize(b.len());
    h.finish()
}

/// Builtin types exposed as type objects (`str`, `list`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BType {
    Object,
    Type,
    NoneType,
    Bool,
    Int,
    Float,
    Complex,
    Str,
    Bytes,
    List,
    Tuple,
    Dict,
    Set,
    FrozenSet,
    Range,
    Function,
    BuiltinFunction,
    Method,
    Module,
    Generator,
    Iterator,
    Slice,
    Ellipsis,
    File,
    Property,
    ClassMethod,
    StaticMethod,
    Enumerate,
    Zip,
    /// `types.UnionType`, the type of `int | None`.
    UnionType,
}

impl BType {
    pub fn name(self) -> &'static str {
        match self {
            BType::Object => "object",
            BType::Type => "type",
            BType::NoneType => "NoneType",
            BType::Bool => "bool",
            BType::Int => "int",
            BType::Float => "float",
            BType::Complex => "complex",
            BType::Str => "str",
            BType::Bytes => "bytes",
            BType::List => "list",
            BType::Tuple => "tuple",
            BType::Dict => "dict",
            BType::Set => "set",
            BType::FrozenSet => "frozenset",
            BType::Range => "range",
            BType::Function => "function",
            BType::BuiltinFunction => "builtin_function_or_method",
            BType::Method => "method",
            BType::Module => "module",
            BType::Generator => "generator",
            BType::Iterator => "iterator",
            BType::Slice => "slice",
            BType::Ellipsis => "ellipsis",
            BType::File => "TextIOWrapper",
            BType::Property => "property",
            BType::ClassMethod => "classmethod",
            BType::StaticMethod => "staticmethod",
            BType::Enumerate => "enumerate",
            BType::Zip => "zip",
            BType::UnionType => "types.UnionType",
        }
    }
}

/// An AST class object: an index into `node::CLASSES`, or one of the deprecated aliases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AstCls {
    Real(&'static NodeClass),
    Alias(AstAlias),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AstAlias {
    Str,
    Num,
    Bytes,
    NameConstant,
    Ellipsis,
}

impl AstAlias {
    pub fn name(self) -> &'static str {
        match self {
            AstAlias::Str => "Str",
            AstAlias::Num => "Num",
            AstAlias::Bytes => "Bytes",
            AstAlias::NameConstant => "NameConstant",
            AstAlias::Ellipsis => "Ellipsis",
        }
    }
}

impl AstCls {
    pub fn name(self) -> &'static str {
        match self {
            AstCls::Real(c) => c.name,
            AstCls::Alias(a) => a.name(),
        }
    }
}

#[derive(Clone)]
pub enum Value<'a> {
    None,
    Ellipsis,
    NotImplemented,
    Bool(bool),
    Int(i64),
    /// Always outside the i64 range.
    Big(Rc<BigInt>),
    Float(f64),
    /// `complex` (real, imaginary).
    Complex(f64, f64),
    Str(Str),
    Bytes(Rc<[u8]>),
    List(Rc<Mut<PyList<'a>>>),
    Tuple(Rc<PyTuple<'a>>),
    Dict(Rc<Mut<PyDict<'a>>>),
    Set(Rc<Mut<PyDict<'a>>>),
    FrozenSet(Rc<PyDict<'a>>),
    Range(i64, i64, i64),
    Func(Rc<Function<'a>>),
    Method(Rc<(Value<'a>, Value<'a>)>),
    Builtin(Rc<Builtin<'a>>),
    Class(Rc<Class<'a>>),
    Instance(Rc<Instance<'a>>),
    Node(Rc<NodeObj<'a>>),
    AstClass(AstCls),
    Type(BType),
    Module(Rc<Module<'a>>),
    Iter(Rc<Mut<PyIter<'a>>>),
    Slice(Rc<[Value<'a>; 3]>),
    Native(Rc<Native<'a>>),
    /// `dict.keys()` (0), `.values()` (1), `.items()` (2): live views of the dict.
    DictView(Rc<Mut<PyDict<'a>>>, u8),
}

/// A builtin function or a method of a builtin value: dispatched by name.
pub struct Builtin<'a> {
    pub name: &'static str,
    pub this: Option<Value<'a>>,
}

pub enum FuncBody<'a> {
    Stmts(&'a [ast::Stmt]),
    Expr(&'a ast::Expr),
}

pub struct Function<'a> {
    pub name: Str,
    pub qualname: Str,
    pub args: &'a ast::Arguments,
    pub body: FuncBody<'a>,
    pub defaults: Vec<Option<Value<'a>>>,
    pub kwdefaults: Vec<Option<Value<'a>>>,
    pub closure: Option<Rc<Scope<'a>>>,
    pub info: Rc<ScopeInfo>,
    pub dict: Mut<NameMap<Value<'a>>>,
    pub is_generator: bool,
}

/// One variable scope (module globals, function locals, comprehension locals).
pub struct Scope<'a> {
    pub vars: Vars<'a>,
    pub parent: Option<Rc<Scope<'a>>>,
}

impl<'a> Scope<'a> {
    /// A module or class namespace: variables by name only.
    pub fn new(parent: Option<Rc<Scope<'a>>>) -> Rc<Self> {
        Rc::new(Scope { vars: Vars::default(), parent })
    }

    /// The variables of a frame running a body whose names `info` describes: its locals live in
    /// slots ([`ScopeInfo::slot_of`]).
    pub fn for_body(parent: Option<Rc<Scope<'a>>>, info: &Rc<ScopeInfo>) -> Rc<Self> {
        let vars = Vars {
            slots: Mut::new(vec![None; info.locals.len()]),
            layout: Some(info.clone()),
            ..Vars::default()
        };
        Rc::new(Scope { vars, parent })
    }
}

/// A scope's variables, with a version that every write moves on, so a value remembered with
/// [`Vars::version`] is still the current one while the version is unchanged (the global load
/// cache relies on it). A function body's locals live in slots numbered by its [`ScopeInfo`]
/// (a load site then finds its variable by index, not by hashing its name); every other name
/// lives in the map. Every access by name goes through [`Vars::get`], [`Vars::set`] and
/// [`Vars::remove`], which look in the right one.
#[derive(Default)]
pub struct Vars<'a> {
    map: Mut<NameMap<Value<'a>>>,
    /// `None` = unbound.
    slots: Mut<Vec<Option<Value<'a>>>>,
    /// The [`ScopeInfo`] numbering `slots` (`None`: a namespace without slots).
    layout: Option<Rc<ScopeInfo>>,
    version: std::cell::Cell<u64>,
}

impl<'a> Vars<'a> {
    /// The names outside slots (a module's or class's whole namespace).
    pub fn map(&self) -> std::cell::Ref<'_, NameMap<Value<'a>>> {
        self.map.borrow()
    }

    /// Mutable access to the names outside slots.
    pub fn map_mut(&self) -> std::cell::RefMut<'_, NameMap<Value<'a>>> {
        self.bump();
        self.map.borrow_mut()
    }

    fn bump(&self) {
        self.version.set(self.version.get().wrapping_add(1));
    }

    fn slot_of(&self, name: &str) -> Option<usize> {
        self.layout.as_ref()?.slot_of(name).map(|i| i as usize)
    }

    /// Whether these variables' slots are numbered by `info` (they belong to a frame of its body).
    pub fn laid_out_by(&self, info: &Rc<ScopeInfo>) -> bool {
        self.layout.as_ref().is_some_and(|l| Rc::ptr_eq(l, info))
    }

    /// Whether the names these variables can hold are fixed by their body's analysis: slots
    /// laid out by a body that never bound a name outside them.
    pub fn bindings_fixed(&self) -> bool {
        self.layout.as_ref().is_some_and(|l| !l.missed_a_binding())
    }

    /// Whether `name` is one of these variables' slots, bound or not (for variables whose
    /// bindings are fixed, [`Self::bindings_fixed`]).
    pub fn may_bind(&self, name: &str) -> bool {
        self.slot_of(name).is_some()
    }

    /// The value in slot `i` (`None`: unbound, or no such slot).
    #[inline]
    pub fn slot(&self, i: u32) -> Option<Value<'a>> {
        self.slots.borrow().get(i as usize).cloned().flatten()
    }

    pub fn get(&self, name: &str) -> Option<Value<'a>> {
        match self.slot_of(name) {
            Some(i) => self.slots.borrow().get(i).cloned().flatten(),
            None => self.map.borrow().get(name).cloned(),
        }
    }

    pub fn contains(&self, name: &str) -> bool {
        match self.slot_of(name) {
            Some(i) => self.slots.borrow().get(i).is_some_and(Option::is_some),
            None => self.map.borrow().contains_key(name),
        }
    }

    /// Binds `name`. A body's frame binding a name outside its slots (a binding form the static
    /// analysis missed) marks the body ([`ScopeInfo::note_missed_binding`]).
    pub fn set(&self, name: &str, v: Value<'a>) {
        if let Some(i) = self.slot_of(name) {
            self.set_slot(i as u32, v);
            return;
        }
        self.bump();
        let mut map = self.map.borrow_mut();
        match map.get_mut(name) {
            Some(s) => *s = v,
            None => {
                if let Some(layout) = &self.layout {
                    layout.note_missed_binding();
                }
                map.insert(Rc::from(name), v);
            }
        }
    }

    /// Binds slot `i` (numbered by this scope's [`ScopeInfo`]).
    pub fn set_slot(&self, i: u32, v: Value<'a>) {
        self.bump();
        if let Some(s) = self.slots.borrow_mut().get_mut(i as usize) {
            *s = Some(v);
        }
    }

    /// Unbinds `name`; returns its value (`None`: it was not bound).
    pub fn remove(&self, name: &str) -> Option<Value<'a>> {
        self.bump();
        match self.slot_of(name) {
            Some(i) => self.slots.borrow_mut().get_mut(i).and_then(Option::take),
            None => self.map.borrow_mut().shift_remove(name),
        }
    }

    pub fn version(&self) -> u64 {
        self.version.get()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClassKind {
    User,
    /// A builtin exception class.
    Exception,
    /// `unittest.TestCase` and its helpers.
    Native,
}

pub struct Class<'a> {
    pub name: Str,
    pub qualname: Str,
    pub module: Str,
    pub bases: Vec<Rc<Class<'a>>>,
    pub mro: Mut<Vec<Rc<Class<'a>>>>,
    pub dict: Mut<NameMap<Value<'a>>>,
    pub kind: ClassKind,
}

impl<'a> Class<'a> {
    pub fn lookup(self: &Rc<Self>, name: &str) -> Option<Value<'a>> {
        if let Some(v) = self.dict.borrow().get(name) {
            return Some(v.clone());
        }
        for c in self.mro.borrow().iter().skip(1) {
            if let Some(v) = c.dict.borrow().get(name) {
                return Some(v.clone());
            }
        }
        None
    }

    pub fn is_subclass(self: &Rc<Self>, other: &Rc<Class<'a>>) -> bool {
        Rc::ptr_eq(self, other) || self.mro.borrow().iter().any(|c| Rc::ptr_eq(c, other))
    }

    pub fn is_subclass_named(self: &Rc<Self>, name: &str) -> bool {
        self.mro.borrow().iter().any(|c| &*c.name == name && c.kind != ClassKind::User)
    }
}

/// Exception payload of an instance of a BaseException subclass.
#[derive(Clone)]
pub struct ExcData<'a> {
    pub args: Vec<Value<'a>>,
    /// CPython's `__str__` for exceptions whose str is not derived from args (OSError with errno...).
    pub str_override: Option<String>,
}

pub struct Instance<'a> {
    pub class: Rc<Class<'a>>,
    pub dict: Mut<NameMap<Value<'a>>>,
    pub exc: Option<Mut<ExcData<'a>>>,
}

/// An `ast.AST` instance: its `_fields` then `_attributes` values (None = unset), plus extra attributes.
///
/// Values are addressed by index: the class's `_fields` first, then its `_attributes` (none, or
/// the four positions). A parsed node keeps its positions as the parsed [`Loc`] (16 bytes) rather
/// than as four values (128 bytes): `ast.parse` makes a node object per parsed node, and most are
/// never asked for a position. The first write or delete of a position turns them into values.
pub struct NodeObj<'a> {
    pub class: &'static NodeClass,
    /// The `_fields` values, then (once spelled out) the `_attributes` values. Most classes have
    /// at most three fields: those values live in the node object itself (one allocation).
    vals: RefCell<NodeVals<'a>>,
    /// The positions while `vals` holds only the fields (`None`: unset).
    loc: Option<Loc>,
    /// Generation the node was made in: [`Self::set`] and [`Self::extra_mut`] report writes as
    /// [`Mut`] does (one field instead of a generation per cell).
    born: u32,
    /// Attributes outside `_fields` and `_attributes` (e.g. a `parent` link a test adds).
    extra: RefCell<Vec<(Str, Value<'a>)>>,
}

/// A node object's values; see [`NodeObj`].
type NodeVals<'a> = smallvec::SmallVec<[Option<Value<'a>>; 3]>;

impl<'a> NodeObj<'a> {
    /// A node with every field and attribute unset (what `ast.X()` starts from).
    pub fn blank(class: &'static NodeClass) -> Self {
        NodeObj {
            class,
            vals: RefCell::new(
                smallvec::smallvec![None; class.fields.len() + class.attributes.len()],
            ),
            loc: None,
            born: super::isolation::current(),
            extra: RefCell::new(Vec::new()),
        }
    }

    /// A parsed node: its field values (unset ones padded) and its positions.
    pub fn parsed(
        class: &'static NodeClass,
        fields: impl IntoIterator<Item = Option<Value<'a>>>,
        loc: Option<Loc>,
    ) -> Self {
        let mut fields: NodeVals<'a> = fields.into_iter().collect();
        fields.resize(class.fields.len(), None);
        NodeObj {
            class,
            vals: RefCell::new(fields),
            loc,
            born: super::isolation::current(),
            extra: RefCell::new(Vec::new()),
        }
    }

    /// Whether the positions are still the parsed [`Loc`] (`vals` holds only the fields).
    fn loc_pending(vals: &[Option<Value<'a>>], class: &NodeClass) -> bool {
        vals.len() == class.fields.len() && !class.attributes.is_empty()
    }

    /// Index of field or attribute `name` (fields, then attributes), as [`Self::get`] takes it.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        let class = self.class;
        class.field_index(name).or_else(|| {
            class.attributes.iter().position(|a| *a == name).map(|i| class.fields.len() + i)
        })
    }

    /// Position attribute `i` (0 = lineno .. 3 = end_col_offset) of a parsed `Loc`. A class's
    /// attributes are none or exactly `LOCATION_ATTRIBUTES`, in that order (a test in node.rs
    /// pins it).
    fn loc_value(loc: Option<Loc>, i: usize) -> Option<Value<'a>> {
        let l = loc?;
        let x = [l.lineno, l.col_offset, l.end_lineno, l.end_col_offset].get(i).copied()?;
        Some(Value::Int(i64::from(x)))
    }

    /// Value `i` (fields, then attributes); `None` when unset.
    pub fn get(&self, i: usize) -> Option<Value<'a>> {
        let vals = self.vals.borrow();
        if let Some(v) = vals.get(i) {
            return v.clone();
        }
        if Self::loc_pending(&vals, self.class) {
            return Self::loc_value(self.loc, i.checked_sub(self.class.fields.len())?);
        }
        None
    }

    /// Sets (or with `None` unsets) value `i`; gives the previous value.
    pub fn set(&self, i: usize, v: Option<Value<'a>>) -> Option<Value<'a>> {
        super::isolation::note_write(self.born);
        let mut vals = self.vals.borrow_mut();
        if i >= vals.len() && Self::loc_pending(&vals, self.class) {
            for k in 0..self.class.attributes.len() {
                vals.push(Self::loc_value(self.loc, k));
            }
        }
        while vals.len() <= i {
            vals.push(None);
        }
        std::mem::replace(&mut vals[i], v)
    }

    /// The `_fields` values, in order (`None`: unset).
    pub fn fields(&self) -> std::cell::Ref<'_, [Option<Value<'a>>]> {
        let n = self.class.fields.len();
        std::cell::Ref::map(self.vals.borrow(), |v| &v[..n.min(v.len())])
    }

    /// The attributes outside `_fields` and `_attributes`, in the order they were set.
    pub fn extra(&self) -> std::cell::Ref<'_, Vec<(Str, Value<'a>)>> {
        self.extra.borrow()
    }

    /// Writable [`Self::extra`]: a write, for the isolation of the running method.
    pub fn extra_mut(&self) -> std::cell::RefMut<'_, Vec<(Str, Value<'a>)>> {
        super::isolation::note_write(self.born);
        self.extra.borrow_mut()
    }

    /// Every value, fields then attributes (`None`: unset).
    pub fn values(&self) -> Vec<Option<Value<'a>>> {
        let n = self.class.fields.len() + self.class.attributes.len();
        (0..n).map(|i| self.get(i)).collect()
    }
}

pub struct Module<'a> {
    pub name: &'static str,
    pub dict: Mut<NameMap<Value<'a>>>,
}

/// Objects with native state.
pub enum Native<'a> {
    File(Mut<FileObj>),
    Sha256(Mut<sha2::Sha256>),
    SubTest {
        params: Vec<(Str, Value<'a>)>,
        msg: Option<Value<'a>>,
    },
    ClassMethod(Value<'a>),
    StaticMethod(Value<'a>),
    Property(Value<'a>),
    /// `unittest.skip(reason)` / skipIf / skipUnless decorator, waiting for its function.
    SkipDecorator(Option<Str>),
    /// `with self.assertRaises(E) as cm:`; `.1` receives the caught exception.
    AssertRaises(Value<'a>, Mut<Option<Value<'a>>>),
    /// What zero-argument `super()` returns: attribute lookups start after `.0` in the MRO of `.1`.
    Super(Rc<Class<'a>>, Value<'a>),
    /// `re.compile(...)` result.
    RePattern(Rc<super::stdlib::re::RePattern>),
    /// A successful `re` match.
    ReMatch(super::stdlib::re::ReMatch),
    /// A PEP 604 union (`int | None`): its distinct member types, in order (`None` as
    /// `NoneType`), at least two.
    Union(Vec<Value<'a>>),
}

pub struct FileObj {
    pub name: Str,
    pub binary: bool,
    pub closed: bool,
    /// Raw bytes of the file.
    pub data: Rc<[u8]>,
    /// Read position: byte offset in `data` (binary) or char-boundary byte offset in `text`.
    pub pos: usize,
    /// Decoded, newline-translated text (text mode), filled on first read.
    pub text: Option<Str>,
    pub translate_newlines: bool,
}

/// Insertion-ordered hash map keyed by Python values (also used for sets, with `None` values).
#[derive(Default)]
pub struct PyDict<'a> {
    pub entries: Vec<Option<(Value<'a>, Value<'a>, u64)>>,
    pub index: HashMap<u64, Vec<u32>, FxBuild>,
    pub len: usize,
    /// A set's iteration order (entry indices) when CPython built its table in a way the
    /// insertion replay of [`super::cpyhash::ordered_keys`] does not reproduce (a constant set
    /// display); valid only while the entries are exactly those it was made for.
    pub pinned: Option<Rc<[u32]>>,
    /// Bytes charged to the run's memory account for the entries' capacity.
    pub charged: u64,
}

/// A list's items. Dereferences to its `Vec`; each access first brings the run's memory account
/// up to date with the capacity ([`super::memory`]: growth is counted at the next access at the
/// latest), and dropping it credits what was charged and frees nested containers through a work
/// list ([`free_nested`]).
#[derive(Default)]
pub struct PyList<'a> {
    items: Vec<Value<'a>>,
    charged: std::cell::Cell<u64>,
}

impl<'a> PyList<'a> {
    pub fn new(items: Vec<Value<'a>>) -> Self {
        let l = PyList { items, charged: std::cell::Cell::new(0) };
        l.sync();
        l
    }

    /// The items, leaving this list empty (its charge is credited).
    pub fn take(&mut self) -> Vec<Value<'a>> {
        let v = std::mem::take(&mut self.items);
        self.sync();
        v
    }

    #[inline]
    fn sync(&self) {
        let cost = self.items.capacity() as u64 * super::memory::SLOT_BYTES;
        let was = self.charged.get();
        if cost != was {
            if cost > was {
                super::memory::charge(cost - was);
            } else {
                super::memory::credit(was - cost);
            }
            self.charged.set(cost);
        }
    }
}

impl<'a> FromIterator<Value<'a>> for PyList<'a> {
    fn from_iter<I: IntoIterator<Item = Value<'a>>>(iter: I) -> Self {
        PyList::new(iter.into_iter().collect())
    }
}

impl<'a> std::ops::Deref for PyList<'a> {
    type Target = Vec<Value<'a>>;
    #[inline]
    fn deref(&self) -> &Vec<Value<'a>> {
        self.sync();
        &self.items
    }
}

impl<'a> std::ops::DerefMut for PyList<'a> {
    #[inline]
    fn deref_mut(&mut self) -> &mut Vec<Value<'a>> {
        self.sync();
        &mut self.items
    }
}

impl Drop for PyList<'_> {
    fn drop(&mut self) {
        super::memory::credit(self.charged.get());
        free_nested(std::mem::take(&mut self.items));
    }
}

/// A tuple's items (immutable): charged when made, credited and freed as [`PyList`] is.
#[derive(Default)]
pub struct PyTuple<'a> {
    items: Vec<Value<'a>>,
}

impl<'a> PyTuple<'a> {
    pub fn new(items: Vec<Value<'a>>) -> Self {
        super::memory::charge(items.capacity() as u64 * super::memory::SLOT_BYTES);
        PyTuple { items }
    }

    /// The items, leaving this tuple empty (its charge is credited).
    pub fn take(&mut self) -> Vec<Value<'a>> {
        super::memory::credit(self.items.capacity() as u64 * super::memory::SLOT_BYTES);
        std::mem::take(&mut self.items)
    }
}

impl<'a> std::ops::Deref for PyTuple<'a> {
    type Target = Vec<Value<'a>>;
    #[inline]
    fn deref(&self) -> &Vec<Value<'a>> {
        &self.items
    }
}

impl Drop for PyTuple<'_> {
    fn drop(&mut self) {
        let items = self.take();
        free_nested(items);
    }
}

/// Dropping a dict unnests the containers it alone owns into a work list instead of recursing:
/// `x = {'a': x}` three million times (which CPython runs and frees) must not overflow the native
/// stack when it is freed. Lists, tuples, sets and instances (their attributes: an exception's
/// `__context__` chain, a linked list of objects) met on the way are unnested the same way. The
/// dict's charge to the run's memory account is credited.
impl Drop for PyDict<'_> {
    fn drop(&mut self) {
        super::memory::credit(self.charged);
        if self.entries.is_empty() {
            return;
        }
        let mut work = Vec::new();
        take_entries(self, &mut work);
        while let Some(v) = work.pop() {
            unnest(v, &mut work);
        }
    }
}

/// Instances free their attributes as dicts do (a chain of a million linked objects or exception
/// contexts must not overflow the native stack); each instance's header is charged when made.
impl Drop for Instance<'_> {
    fn drop(&mut self) {
        super::memory::credit(super::memory::OBJECT_BYTES);
        let mut work = Vec::new();
        take_attrs(self, &mut work);
        while let Some(v) = work.pop() {
            unnest(v, &mut work);
        }
    }
}

impl<'a> Instance<'a> {
    /// An instance (charged to the run's memory account, credited when freed).
    pub fn new(class: Rc<Class<'a>>, dict: NameMap<Value<'a>>, exc: Option<ExcData<'a>>) -> Self {
        super::memory::charge(super::memory::OBJECT_BYTES);
        Instance { class, dict: Mut::new(dict), exc: exc.map(Mut::new) }
    }
}

/// A generator expression frees the iterators it consumes as dicts free their items: a chain
/// of a million generators each consuming the next (which CPython frees) must not overflow the
/// native stack.
impl Drop for GenState<'_> {
    fn drop(&mut self) {
        let mut work = Vec::new();
        take_gen(self, &mut work);
        while let Some(v) = work.pop() {
            unnest(v, &mut work);
        }
    }
}

fn take_gen<'a>(g: &mut GenState<'a>, work: &mut Vec<Value<'a>>) {
    if let Some(v) = g.first.take() {
        push_container(v, work);
    }
    for v in std::mem::take(&mut g.iters) {
        push_container(v, work);
    }
}

/// Moves the values an iterator holds to `work` (generators and the wrappers around them).
fn take_iter<'a>(it: PyIter<'a>, work: &mut Vec<Value<'a>>) {
    match it {
        PyIter::Gen(mut g) => take_gen(&mut g, work),
        PyIter::Enumerate { inner, .. } | PyIter::Filter { inner, .. } => {
            push_container(inner, work)
        }
        PyIter::Map { inner, .. } | PyIter::Zip(inner) => {
            for v in inner {
                push_container(v, work);
            }
        }
        PyIter::Seq { items, .. } => work.push(Value::List(items)),
        PyIter::Tuple { items, .. } => work.push(Value::Tuple(items)),
        _ => {}
    }
}

/// Frees `items` without recursing into nested containers.
fn free_nested(items: Vec<Value<'_>>) {
    if items.iter().all(|v| !is_container(v)) {
        return;
    }
    let mut work = Vec::new();
    for x in items {
        push_container(x, &mut work);
    }
    while let Some(v) = work.pop() {
        unnest(v, &mut work);
    }
}

fn take_attrs<'a>(i: &mut Instance<'a>, work: &mut Vec<Value<'a>>) {
    let map = std::mem::take(&mut *i.dict.get_mut());
    for (_, v) in map {
        push_container(v, work);
    }
    if let Some(e) = &mut i.exc {
        for v in std::mem::take(&mut e.get_mut().args) {
            push_container(v, work);
        }
    }
}

/// Moves the containers among `d`'s keys and values to `work` (the rest drops here).
fn take_entries<'a>(d: &mut PyDict<'a>, work: &mut Vec<Value<'a>>) {
    for (k, v, _) in std::mem::take(&mut d.entries).into_iter().flatten() {
        push_container(k, work);
        push_container(v, work);
    }
}

fn is_container(v: &Value<'_>) -> bool {
    matches!(
        v,
        Value::Dict(_)
            | Value::Set(_)
            | Value::FrozenSet(_)
            | Value::List(_)
            | Value::Tuple(_)
            | Value::Instance(_)
            | Value::Iter(_)
    )
}

fn push_container<'a>(v: Value<'a>, work: &mut Vec<Value<'a>>) {
    if is_container(&v) {
        work.push(v);
    }
}

/// Frees one container if this was its last reference, moving its own containers to `work`.
fn unnest<'a>(v: Value<'a>, work: &mut Vec<Value<'a>>) {
    match v {
        Value::Dict(rc) | Value::Set(rc) => {
            if let Some(m) = Rc::into_inner(rc) {
                take_entries(&mut m.into_inner(), work);
            }
        }
        Value::FrozenSet(rc) => {
            if let Some(mut d) = Rc::into_inner(rc) {
                take_entries(&mut d, work);
            }
        }
        Value::List(rc) => {
            if let Some(m) = Rc::into_inner(rc) {
                for x in m.into_inner().take() {
                    push_container(x, work);
                }
            }
        }
        Value::Tuple(rc) => {
            if let Some(mut t) = Rc::into_inner(rc) {
                for x in t.take() {
                    push_container(x, work);
                }
            }
        }
        Value::Instance(rc) => {
            if let Some(mut i) = Rc::into_inner(rc) {
                take_attrs(&mut i, work);
            }
        }
        Value::Iter(rc) => {
            if let Some(m) = Rc::into_inner(rc) {
                take_iter(m.into_inner(), work);
            }
        }
        _ => {}
    }
}

/// A copy is charged for its own entries.
impl Clone for PyDict<'_> {
    fn clone(&self) -> Self {
        let mut d = PyDict {
            entries: self.entries.clone(),
            index: self.index.clone(),
            len: self.len,
            pinned: self.pinned.clone(),
            charged: 0,
        };
        d.sync_charge();
        d
    }
}

impl<'a> PyDict<'a> {
    pub fn new() -> Self {
        PyDict { entries: Vec::new(), index: HashMap::default(), len: 0, pinned: None, charged: 0 }
    }

    pub fn iter(&self) -> impl Iterator<Item = (&Value<'a>, &Value<'a>)> {
        self.entries.iter().filter_map(|e| e.as_ref().map(|(k, v, _)| (k, v)))
    }

    pub fn keys(&self) -> Vec<Value<'a>> {
        self.iter().map(|(k, _)| k.clone()).collect()
    }

    /// Finds the slot of `key` (with hash `h`) using `eq` for value equality.
    pub fn find(
        &self,
        key: &Value<'a>,
        h: u64,
        eq: &mut dyn FnMut(&Value<'a>, &Value<'a>) -> bool,
    ) -> Option<usize> {
        let slots = self.index.get(&h)?;
        for &i in slots {
            if let Some((k, _, _)) = &self.entries[i as usize] {
                if eq(k, key) {
                    return Some(i as usize);
                }
            }
        }
        None
    }

    pub fn insert_new(&mut self, key: Value<'a>, val: Value<'a>, h: u64) {
        let i = self.entries.len() as u32;
        self.entries.push(Some((key, val, h)));
        self.index.entry(h).or_default().push(i);
        self.len += 1;
        self.sync_charge();
    }

    /// Brings the run's memory account up to date with the entries' capacity.
    fn sync_charge(&mut self) {
        let cost = self.entries.capacity() as u64 * super::memory::DICT_ENTRY_BYTES;
        if cost > self.charged {
            super::memory::charge(cost - self.charged);
        } else {
            super::memory::credit(self.charged - cost);
        }
        self.charged = cost;
    }

    pub fn remove_slot(&mut self, i: usize) -> Option<(Value<'a>, Value<'a>)> {
        let (k, v, h) = self.entries.get_mut(i)?.take()?;
        if let Some(slots) = self.index.get_mut(&h) {
            slots.retain(|&s| s as usize != i);
            if slots.is_empty() {
                self.index.remove(&h);
            }
        }
        self.len -= 1;
        if self.entries.len() > 32 && self.len * 2 < self.entries.len() {
            self.compact();
        }
        Some((k, v))
    }

    fn compact(&mut self) {
        let old = std::mem::take(&mut self.entries);
        self.index.clear();
        self.len = 0;
        for (k, v, h) in old.into_iter().flatten() {
            self.insert_new(k, v, h);
        }
    }

    pub fn clear(&mut self) {
        self.entries.clear();
        self.index.clear();
        self.len = 0;
        self.entries.shrink_to_fit();
        self.sync_charge();
    }
}

/// Lazy iterators.
pub enum PyIter<'a> {
    /// Placeholder while a generator runs (re-entry is a ValueError).
    Running,
    Exhausted,
    Seq {
        items: Rc<Mut<PyList<'a>>>,
        idx: usize,
    },
    Tuple {
        items: Rc<PyTuple<'a>>,
        idx: usize,
    },
    Owned {
        items: std::vec::IntoIter<Value<'a>>,
    },
    Chars {
        s: Str,
        pos: usize,
    },
    Bytes {
        b: Rc<[u8]>,
        idx: usize,
    },
    Range {
        cur: i64,
        stop: i64,
        step: i64,
    },
    DictKeys {
        d: Rc<Mut<PyDict<'a>>>,
        idx: usize,
        len: usize,
        mode: u8,
    },
    Walk(std::collections::VecDeque<Value<'a>>),
    Enumerate {
        inner: Value<'a>,
        count: i64,
    },
    Zip(Vec<Value<'a>>),
    Map {
        func: Value<'a>,
        inner: Vec<Value<'a>>,
    },
    Filter {
        func: Value<'a>,
        inner: Value<'a>,
    },
    Reversed {
        items: Vec<Value<'a>>,
    },
    Gen(Box<GenState<'a>>),
    /// A call of a generator function, not started yet: its body runs to completion on the first
    /// `next` (the interpreter cannot suspend a frame), so side effects between yields happen then.
    GenFunc {
        func: Rc<Function<'a>>,
        scope: Rc<Scope<'a>>,
    },
    /// What a generator function yielded, then the exception that ended its body, if any.
    GenDone {
        items: std::vec::IntoIter<Value<'a>>,
        err: Option<Box<super::PyErr<'a>>>,
    },
    FileLines {
        file: Rc<Native<'a>>,
    },
}

/// A generator expression suspended between elements.
pub struct GenState<'a> {
    pub elt: GenElt<'a>,
    pub gens: &'a [ast::Comprehension],
    pub scope: Rc<Scope<'a>>,
    /// One live iterator per started `for` clause.
    pub iters: Vec<Value<'a>>,
    pub first: Option<Value<'a>>,
    pub qualname: Str,
    pub info: Rc<ScopeInfo>,
    /// CPython recursion depth the body runs above its consumer: 1 for a list, set or dict
    /// comprehension (3.11 calls its function frame inline), 2 for a generator expression
    /// (resumed through the C iterator protocol, which enters the eval loop anew).
    pub frames: u32,
}

#[derive(Clone, Copy)]
pub enum GenElt<'a> {
    One(&'a ast::Expr),
    Pair(&'a ast::Expr, &'a ast::Expr),
}

impl<'a> Value<'a> {
    pub fn str(s: &str) -> Self {
        Value::str_rc(Rc::from(s))
    }

    /// A str made by the run: charged to the run's memory account ([`super::memory`]).
    pub fn str_rc(s: Str) -> Self {
        super::memory::track_str(&s);
        Value::Str(s)
    }

    /// A bytes object made by the run: charged to the run's memory account.
    pub fn bytes_rc(b: Rc<[u8]>) -> Self {
        super::memory::track_bytes(&b);
        Value::Bytes(b)
    }

    pub fn list(items: Vec<Value<'a>>) -> Self {
        Value::List(Rc::new(Mut::new(PyList::new(items))))
    }

    pub fn tuple(items: Vec<Value<'a>>) -> Self {
        Value::Tuple(Rc::new(PyTuple::new(items)))
    }

    pub fn iter(it: PyIter<'a>) -> Self {
        Value::Iter(Rc::new(Mut::new(it)))
    }

    pub fn from_bigint(b: BigInt) -> Self {
        use num_traits::ToPrimitive;
        match b.to_i64() {
            Some(i) => Value::Int(i),
            None => {
                let b = Rc::new(b);
                super::memory::track_big(&b);
                Value::Big(b)
            }
        }
    }

    pub fn is_none(&self) -> bool {
        matches!(self, Value::None)
    }

    /// Identity (`is`).
    pub fn is(&self, other: &Value<'a>) -> bool {
        use Value::*;
        match (self, other) {
            (None, None) | (Ellipsis, Ellipsis) | (NotImplemented, NotImplemented) => true,
            (Bool(a), Bool(b)) => a == b,
            // Small ints are cached by CPython; other ints compare by value here (close enough).
            (Int(a), Int(b)) => a == b,
            (Float(a), Float(b)) => a.to_bits() == b.to_bits(),
            (Str(a), Str(b)) => Rc::ptr_eq(a, b) || (a.len() <= 1 && a == b),
            (Bytes(a), Bytes(b)) => Rc::ptr_eq(a, b),
            (List(a), List(b)) => Rc::ptr_eq(a, b),
            (Tuple(a), Tuple(b)) => Rc::ptr_eq(a, b) || (a.is_empty() && b.is_empty()),
            (Dict(a), Dict(b)) => Rc::ptr_eq(a, b),
            (Set(a), Set(b)) => Rc::ptr_eq(a, b),
            (FrozenSet(a), FrozenSet(b)) => Rc::ptr_eq(a, b),
            (Func(a), Func(b)) => Rc::ptr_eq(a, b),
            (Method(a), Method(b)) => Rc::ptr_eq(a, b),
            (Builtin(a), Builtin(b)) => Rc::ptr_eq(a, b),
            (Class(a), Class(b)) => Rc::ptr_eq(a, b),
            (Instance(a), Instance(b)) => Rc::ptr_eq(a, b),
            (Node(a), Node(b)) => Rc::ptr_eq(a, b),
            (AstClass(a), AstClass(b)) => a == b,
            (Type(a), Type(b)) => a == b,
            (Module(a), Module(b)) => Rc::ptr_eq(a, b),
            (Iter(a), Iter(b)) => Rc::ptr_eq(a, b),
            (Native(a), Native(b)) => Rc::ptr_eq(a, b),
            (Slice(a), Slice(b)) => Rc::ptr_eq(a, b),
            (DictView(a, x), DictView(b, y)) => Rc::ptr_eq(a, b) && x == y,
            _ => false,
        }
    }

    /// Address used for identity hashing.
    pub fn addr(&self) -> usize {
        match self {
            Value::List(r) => Rc::as_ptr(r) as *const u8 as usize,
            Value::Dict(r) | Value::Set(r) => Rc::as_ptr(r) as *const u8 as usize,
            Value::Func(r) => Rc::as_ptr(r) as *const u8 as usize,
            Value::Class(r) => Rc::as_ptr(r) as *const u8 as usize,
            Value::Instance(r) => Rc::as_ptr(r) as *const u8 as usize,
            Value::Node(r) => Rc::as_ptr(r) as *const u8 as usize,
            Value::Module(r) => Rc::as_ptr(r) as *const u8 as usize,
            Value::Iter(r) => Rc::as_ptr(r) as *const u8 as usize,
            Value::Native(r) => Rc::as_ptr(r) as *const u8 as usize,
            Value::Builtin(r) => Rc::as_ptr(r) as *const u8 as usize,
            Value::Method(r) => Rc::as_ptr(r) as *const u8 as usize,
            Value::AstClass(c) => c.name().as_ptr() as usize,
            Value::Type(t) => *t as usize + 1,
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(vals: &[Option<Value<'_>>]) -> Vec<Option<i64>> {
        vals.iter()
            .map(|v| match v {
                Some(Value::Int(i)) => Some(*i),
                Some(_) => Some(-1),
                None => None,
            })
            .collect()
    }

    /// A parsed node answers for its positions from the `Loc` until one is written or deleted,
    /// then from values, without losing the other three; a node made blank has none.
    #[test]
    fn node_positions_read_the_same_before_and_after_a_write() -> Result<(), &'static str> {
        let name = crate::python::node::class("Name").ok_or("no Name class")?;
        let loc = Loc { lineno: 3, col_offset: 4, end_lineno: 5, end_col_offset: 6 };
        let n = NodeObj::parsed(name, vec![Some(Value::str("x"))], Some(loc));
        assert_eq!(n.fields().len(), 2);
        assert_eq!(n.index_of("ctx"), Some(1));
        assert_eq!(n.index_of("end_lineno"), Some(4));
        assert_eq!(n.index_of("parent"), None);
        assert!(n.get(1).is_none(), "ctx was not given");
        assert_eq!(ints(&n.values()[2..]), [Some(3), Some(4), Some(5), Some(6)]);
        assert!(matches!(n.get(2), Some(Value::Int(3))));
        assert!(n.get(6).is_none());
        assert!(matches!(n.set(3, Some(Value::Int(40))), Some(Value::Int(4))));
        assert_eq!(ints(&n.values()[2..]), [Some(3), Some(40), Some(5), Some(6)]);
        assert!(matches!(n.set(4, None), Some(Value::Int(5))));
        assert_eq!(ints(&n.values()[2..]), [Some(3), Some(40), None, Some(6)]);
        assert_eq!(n.fields().len(), 2);

        let deleted = NodeObj::parsed(name, vec![Some(Value::str("x"))], Some(loc));
        assert!(matches!(deleted.set(2, None), Some(Value::Int(3))));
        assert_eq!(ints(&deleted.values()[2..]), [None, Some(4), Some(5), Some(6)]);

        let unplaced = NodeObj::parsed(name, vec![Some(Value::str("x"))], None);
        assert_eq!(ints(&unplaced.values()[2..]), [None, None, None, None]);
        assert!(unplaced.set(5, Some(Value::Int(1))).is_none());
        assert_eq!(ints(&unplaced.values()[2..]), [None, None, None, Some(1)]);

        let blank = NodeObj::blank(name);
        assert_eq!(ints(&blank.values()), [None; 6]);
        Ok(())
    }

    /// The word-at-a-time `write` gives the same hashes as zero-padding each 8-byte chunk (map
    /// iteration orders, and so some outputs, depend on them).
    #[test]
    fn fx_write_matches_zero_padded_chunks() {
        let reference = |b: &[u8]| {
            let mut h = FxHasher::default();
            for chunk in b.chunks(8) {
                let mut buf = [0u8; 8];
                buf[..chunk.len()].copy_from_slice(chunk);
                h.add(u64::from_le_bytes(buf));
            }
            h.write_usize(b.len());
            h.finish()
        };
        let text = "isinstance_assertEqual_ünïcödé_0123456789abcdef";
        for end in 0..=text.len() {
            let b = &text.as_bytes()[..end];
            assert_eq!(hash_bytes(b), reference(b), "length {end}");
        }
    }
}
