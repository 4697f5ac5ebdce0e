//! The value model: every Python object the interpreter can hold.
//!
//! Heap objects are `Rc`-shared (identity = pointer), mutable ones sit in a [`Mut`] (a `RefCell`
//! that reports writes to [`super::isolation`]). The lifetime `'a` is that of the executed
//! module's syntax tree: functions and generators point into it.

mod containers;
mod free;
pub(crate) use free::{free_nested, take_iter};
mod hash;
mod iter;
mod node_obj;
pub(crate) mod vars;

pub(crate) use super::isolation::Mut;
use std::rc::Rc;

use num_bigint::BigInt;

use crate::python::node::NodeClass;
use crate::python::syntax as ast;

use super::scope::ScopeInfo;

pub(crate) use containers::{PyDict, PyList, PyTuple};
pub(crate) use hash::{hash_bytes, FxBuild, NameMap, NameSet};
pub(crate) use iter::{GenElt, GenState, PyIter};
pub(crate) use node_obj::{NodeObj, NodeVals};
pub(crate) use vars::Scope;

pub type Str = Rc<str>;

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
    /// `range(start, stop, step)`, boxed so a `Value` is 24 bytes, not 32.
    Range(Rc<[i64; 3]>),
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
    pub dict: Attrs<'a>,
    pub is_generator: bool,
    /// The class whose body defined it (zero-argument `super()`'s `__class__` cell).
    pub defining_class: std::cell::RefCell<Option<Rc<Class<'a>>>>,
}

impl Function<'_> {
    /// What a function object costs the run's memory account besides its attribute map
    /// ([`Attrs`]): a header and its defaults. Charged when it is made, credited when freed.
    pub fn cost(&self) -> u64 {
        super::memory::FUNCTION_BYTES
            + (self.defaults.len() + self.kwdefaults.len()) as u64 * super::memory::SLOT_BYTES
    }
}

/// A function object: charged when made ([`Function::cost`]), credited when freed.
pub(crate) fn new_function(f: Function<'_>) -> Rc<Function<'_>> {
    super::memory::charge(f.cost());
    Rc::new(f)
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
    pub dict: Attrs<'a>,
    pub kind: ClassKind,
    /// What the class or a base defined when it was made ([`HOOK_GETATTRIBUTE`] & co.): the
    /// attribute protocol takes its general path only for such classes (and for every class once
    /// a class gets one of these later, [`crate::interp::Interp::attr_dynamic`]).
    pub hooks: u8,
}

/// A user `__getattribute__` in the MRO.
pub(crate) const HOOK_GETATTRIBUTE: u8 = 1;
/// A user `__setattr__` or `__delattr__` in the MRO.
pub(crate) const HOOK_SETATTR: u8 = 2;
/// A data descriptor (`property`) in the MRO: it wins over the instance's `__dict__`.
pub(crate) const HOOK_DATA_DESCR: u8 = 4;

/// The hook bits a class dict's own names give ([`Class::hooks`]).
pub(crate) fn hooks_of_dict(d: &NameMap<Value<'_>>) -> u8 {
    let mut h = 0;
    if d.contains_key("__getattribute__") {
        h |= HOOK_GETATTRIBUTE;
    }
    if d.contains_key("__setattr__") || d.contains_key("__delattr__") {
        h |= HOOK_SETATTR;
    }
    if d.values().any(|v| matches!(v, Value::Native(n) if matches!(&**n, Native::Property(..)))) {
        h |= HOOK_DATA_DESCR;
    }
    h
}

impl<'a> Class<'a> {
    /// A class the interpreter itself provides (no bases; its MRO is itself): `TestCase`,
    /// `NodeVisitor`, `stat_result`, descriptor types, an exception class outside the table.
    pub(crate) fn builtin(
        name: &str,
        module: &str,
        dict: NameMap<Value<'a>>,
        kind: ClassKind,
    ) -> Rc<Self> {
        let c = Rc::new(Class {
            name: Rc::from(name),
            qualname: Rc::from(name),
            module: Rc::from(module),
            bases: vec![],
            mro: Mut::new(vec![]),
            dict: Attrs::new(dict),
            kind,
            hooks: 0,
        });
        c.mro.borrow_mut().push(c.clone());
        c
    }

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
    /// `__cause__` (`raise X from Y`), `__context__` (raised while handling another),
    /// `__suppress_context__`: C slots in CPython, not in the instance's `__dict__`.
    pub cause: Option<Value<'a>>,
    pub context: Option<Value<'a>>,
    pub suppress_context: bool,
    /// The innermost line it was raised at (so `raise e` keeps it).
    pub tb_line: Option<u32>,
}

impl<'a> ExcData<'a> {
    pub fn new(args: Vec<Value<'a>>, str_override: Option<String>) -> Self {
        ExcData {
            args,
            str_override,
            cause: None,
            context: None,
            suppress_context: false,
            tb_line: None,
        }
    }
}

pub struct Instance<'a> {
    pub class: Rc<Class<'a>>,
    pub dict: Attrs<'a>,
    pub exc: Option<Mut<ExcData<'a>>>,
}

impl<'a> Instance<'a> {
    /// An instance (a header and its attribute map charged to the run's memory account,
    /// credited when it is freed).
    pub fn new(class: Rc<Class<'a>>, dict: NameMap<Value<'a>>, exc: Option<ExcData<'a>>) -> Self {
        super::memory::charge(super::memory::OBJECT_BYTES);
        Instance { class, dict: Attrs::new(dict), exc: exc.map(Mut::new) }
    }
}

/// The attribute map of an instance, function, class or module. Its capacity is charged to the
/// run's memory account ([`super::memory::DICT_ENTRY_BYTES`] an entry) after every write,
/// whichever code writes it (`setattr`, an `OSError`'s fields), and credited when it is freed.
///
/// Two representations: a name map (fast, what attribute access uses until someone asks for the
/// object's `__dict__`), and a live dict. `o.__dict__` / `vars(o)` of an instance or a function
/// moves the names into a dict ([`Attrs::live_dict`]) that from then on *is* the storage, so
/// writes through it are attributes and attributes are in it, as in CPython (keys need not be
/// strings); `o.__dict__ = d` makes `d` the storage. Classes and modules never switch.
pub struct Attrs<'a> {
    map: Mut<NameMap<Value<'a>>>,
    charged: std::cell::Cell<u64>,
    live: std::cell::RefCell<Option<Rc<Mut<PyDict<'a>>>>>,
}

impl<'a> Attrs<'a> {
    pub fn new(map: NameMap<Value<'a>>) -> Self {
        let a = Attrs {
            map: Mut::new(map),
            charged: std::cell::Cell::new(0),
            live: std::cell::RefCell::new(None),
        };
        a.sync(a.map.borrow().capacity());
        a
    }

    /// The name map (only meaningful while the attributes are not a live dict: classes,
    /// modules, objects just made; instances and functions go through [`Attrs::get`] & co.).
    #[inline]
    pub fn borrow(&self) -> std::cell::Ref<'_, NameMap<Value<'a>>> {
        self.map.borrow()
    }

    /// Mutable access to the name map (a write, for isolation); the charge follows the map when
    /// it is released. See [`Attrs::borrow`].
    #[inline]
    pub fn borrow_mut(&self) -> AttrsMut<'_, 'a> {
        AttrsMut { map: self.map.borrow_mut(), charged: &self.charged }
    }

    /// Shared access unless the map is being written (for the cycle collector).
    pub(crate) fn try_borrow(&self) -> Option<std::cell::Ref<'_, NameMap<Value<'a>>>> {
        self.map.try_borrow()
    }

    /// The live dict (for the cycle collector's count of references); `Err` while it is being
    /// replaced.
    pub(crate) fn try_live(&self) -> Result<Option<Rc<Mut<PyDict<'a>>>>, ()> {
        self.live.try_borrow().map(|l| l.clone()).map_err(|_| ())
    }

    /// The live dict, if the attributes are one.
    #[inline]
    pub fn live(&self) -> Option<Rc<Mut<PyDict<'a>>>> {
        self.live.borrow().clone()
    }

    /// The attribute `name`.
    #[inline]
    pub fn get(&self, name: &str) -> Option<Value<'a>> {
        if let Some(d) = &*self.live.borrow() {
            let d = d.borrow();
            return d.find_str(name).and_then(|i| d.entries[i].as_ref().map(|e| e.1.clone()));
        }
        self.map.borrow().get(name).cloned()
    }

    /// Whether the attribute `name` exists.
    pub fn contains(&self, name: &str) -> bool {
        if let Some(d) = &*self.live.borrow() {
            return d.borrow().find_str(name).is_some();
        }
        self.map.borrow().contains_key(name)
    }

    /// Sets the attribute `name`.
    #[inline]
    pub fn set(&self, name: &str, v: Value<'a>) {
        if let Some(d) = &*self.live.borrow() {
            let mut d = d.borrow_mut();
            match d.find_str(name) {
                Some(i) => {
                    if let Some(e) = d.entries[i].as_mut() {
                        e.1 = v;
                    }
                }
                None => d.insert_new(Value::str(name), v, hash_bytes(name.as_bytes())),
            }
            return;
        }
        let mut m = self.borrow_mut();
        match m.get_mut(name) {
            Some(slot) => *slot = v,
            None => {
                m.insert(Rc::from(name), v);
            }
        }
    }

    /// Removes the attribute `name` (order of the rest kept), giving its value.
    pub fn remove(&self, name: &str) -> Option<Value<'a>> {
        if let Some(d) = &*self.live.borrow() {
            let mut d = d.borrow_mut();
            let i = d.find_str(name)?;
            return d.remove_slot(i).map(|(_, v)| v);
        }
        self.borrow_mut().shift_remove(name)
    }

    /// The names that are strings, in order.
    pub fn names(&self) -> Vec<Str> {
        if let Some(d) = &*self.live.borrow() {
            return d
                .borrow()
                .iter()
                .filter_map(|(k, _)| match k {
                    Value::Str(s) => Some(s.clone()),
                    _ => None,
                })
                .collect();
        }
        self.map.borrow().keys().cloned().collect()
    }

    /// The attributes as a dict that stays the storage from now on (see the type's doc); `new`
    /// makes the dict (so the caller can note it as made by the run). It is born in the name
    /// map's generation: writing to it writes to the object.
    pub fn live_dict(
        &self,
        new: impl FnOnce(Mut<PyDict<'a>>) -> Rc<Mut<PyDict<'a>>>,
    ) -> Rc<Mut<PyDict<'a>>> {
        if let Some(d) = &*self.live.borrow() {
            return d.clone();
        }
        let mut d = PyDict::new();
        {
            let mut m = self.borrow_mut();
            for (k, v) in std::mem::take(&mut *m) {
                let h = hash_bytes(k.as_bytes());
                d.insert_new(Value::Str(k), v, h);
            }
        }
        let d = new(Mut::with_born(d, self.map.born()));
        *self.live.borrow_mut() = Some(d.clone());
        d
    }

    /// `o.__dict__ = d`: `d` is the storage from now on.
    pub fn replace_dict(&self, d: Rc<Mut<PyDict<'a>>>) {
        let _ = std::mem::take(&mut *self.borrow_mut());
        let old = self.live.borrow_mut().replace(d);
        drop(old);
    }

    /// Every value, leaving the map empty (for emptying objects nothing reaches any more: when a
    /// run ends, or the cycle collector's garbage; nothing while the map is borrowed). A live
    /// dict is among them (as a dict, to be emptied in turn). Not a write a method can see.
    pub(crate) fn take_values(&self) -> Vec<Value<'a>> {
        let mut values: Vec<Value<'a>> = Vec::new();
        if let Ok(mut l) = self.live.try_borrow_mut() {
            values.extend(l.take().map(Value::Dict));
        }
        let Some(mut m) = self.map.try_borrow_mut_unseen() else { return values };
        values.extend(std::mem::take(&mut *m).into_values());
        drop(m);
        self.sync(0);
        values
    }

    /// Exclusive access while the owner is freed (the charge is credited when this drops).
    pub fn get_mut(&mut self) -> &mut NameMap<Value<'a>> {
        self.map.get_mut()
    }

    /// The live dict, taken while the owner is freed.
    pub fn take_live(&mut self) -> Option<Rc<Mut<PyDict<'a>>>> {
        self.live.get_mut().take()
    }

    fn sync(&self, capacity: usize) {
        sync_charge(&self.charged, capacity as u64 * super::memory::DICT_ENTRY_BYTES);
    }
}

impl Default for Attrs<'_> {
    fn default() -> Self {
        Attrs::new(NameMap::default())
    }
}

impl Drop for Attrs<'_> {
    fn drop(&mut self) {
        super::memory::credit(self.charged.get());
    }
}

/// Brings a charge recorded in `charged` to `cost`.
pub(crate) fn sync_charge(charged: &std::cell::Cell<u64>, cost: u64) {
    let was = charged.replace(cost);
    if cost > was {
        super::memory::charge(cost - was);
    } else if was > cost {
        super::memory::credit(was - cost);
    }
}

/// A write to an [`Attrs`] map; the map's capacity is charged when it ends.
pub struct AttrsMut<'b, 'a> {
    map: std::cell::RefMut<'b, NameMap<Value<'a>>>,
    charged: &'b std::cell::Cell<u64>,
}

impl<'a> std::ops::Deref for AttrsMut<'_, 'a> {
    type Target = NameMap<Value<'a>>;
    fn deref(&self) -> &Self::Target {
        &self.map
    }
}

impl<'a> std::ops::DerefMut for AttrsMut<'_, 'a> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.map
    }
}

impl Drop for AttrsMut<'_, '_> {
    fn drop(&mut self) {
        sync_charge(self.charged, self.map.capacity() as u64 * super::memory::DICT_ENTRY_BYTES);
    }
}

pub struct Module<'a> {
    pub name: &'static str,
    pub dict: Attrs<'a>,
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
    /// `property(fget, fset, fdel)` (`None` where absent).
    Property(Value<'a>, Value<'a>, Value<'a>),
    /// `unittest.skip(reason)` / skipIf / skipUnless decorator, waiting for its function.
    SkipDecorator(Option<Str>),
    /// `with self.assertRaises(E) as cm:`; `.1` receives the caught exception.
    AssertRaises(Value<'a>, Mut<Option<Value<'a>>>),
    /// What zero-argument `super()` returns: attribute lookups start after `.0` in the MRO of `.1`.
    Super(Rc<Class<'a>>, Value<'a>),
    /// `re.compile(...)` result.
    RePattern(Rc<crate::interp::stdlib::re::RePattern>),
    /// A successful `re` match.
    ReMatch(crate::interp::stdlib::re::ReMatch),
    /// A PEP 604 union (`int | None`): its distinct member types, in order (`None` as
    /// `NoneType`), at least two.
    Union(Vec<Value<'a>>),
}

pub struct FileObj {
    pub name: Str,
    pub binary: bool,
    pub closed: bool,
    /// Raw bytes of the file (the tree's own, shared).
    pub data: std::sync::Arc<[u8]>,
    /// Read position: byte offset in `data` (binary) or char-boundary byte offset in `text`.
    pub pos: usize,
    /// Decoded, newline-translated text (text mode), filled on first read.
    pub text: Option<Str>,
    pub translate_newlines: bool,
    /// A codec of the run's provider (`open(..., encoding=...)` beyond UTF-8 and Latin-1): its
    /// module name and the `errors` handler, applied on first read.
    pub codec: Option<(String, Str)>,
    /// A text file that does not decode whole: read as CPython's `TextIOWrapper` reads it,
    /// 8 KiB chunks through an incremental decoder (then `text` stays `None`).
    pub chunked: Option<Box<ChunkedText>>,
}

/// CPython's `TextIOWrapper` state over a file that does not decode whole: the lines before
/// the chunk holding the bad bytes are read, the error is raised where that chunk is decoded,
/// with positions in what the decoder was handed (the bytes held back + the chunk).
#[derive(Debug, Clone, Default)]
pub struct ChunkedText {
    /// Bytes of the file handed to the decoder so far.
    pub raw: usize,
    /// An incomplete sequence the incremental decoder holds back.
    pub pending: Vec<u8>,
    /// A `\r` held back by the newline decoder (a `\r\n` may straddle chunks).
    pub pending_cr: bool,
    /// Decoded text not handed out yet.
    pub decoded: String,
    /// Bytes per character of the last chunk (`b2cratio`: `read(n)` sizes its chunks by it).
    pub b2cratio: f64,
    /// The provider codec for the chunks to come (`utf_16` becomes `utf_16_le` or `_be` after
    /// its byte order mark), with its `errors`.
    pub codec: Option<(String, Str)>,
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
            (Complex(a, b), Complex(c, d)) => {
                a.to_bits() == c.to_bits() && b.to_bits() == d.to_bits()
            }
            (Range(a), Range(b)) => a == b,
            (Big(a), Big(b)) => Rc::ptr_eq(a, b),
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

    /// `id(v)`: equal exactly when [`Self::is`] holds (for live values). Values `is` compares
    /// by value (ints, floats, one-character strings, singletons...) get a synthetic id above
    /// every user-space address (from 2**60), derived from the value; the rest their address.
    pub fn py_id(&self) -> i64 {
        const BASE: i64 = 1 << 60;
        // FxHash-style mixing, for the values whose bits do not fit beside a tag.
        let mix = |x: u64| (x.wrapping_mul(0x517c_c1b7_2722_0a95) >> 4) as i64;
        match self {
            Value::None => BASE + 16,
            Value::Ellipsis => BASE + 32,
            Value::NotImplemented => BASE + 48,
            Value::Bool(b) => BASE + 64 + 16 * i64::from(*b),
            Value::Str(s) if s.chars().nth(1).is_none() => {
                BASE + (1 << 32) + 16 * (s.chars().next().map_or(0, |c| c as i64 + 1))
            }
            Value::Tuple(t) if t.is_empty() => BASE + 96,
            Value::Int(i) if (-(1 << 58)..(1 << 58)).contains(i) => 2 * BASE + i + (1 << 58),
            Value::Int(i) => 3 * BASE + mix(*i as u64) % BASE,
            Value::Float(f) => 4 * BASE + mix(f.to_bits()) % BASE,
            Value::Complex(r, i) => {
                5 * BASE + mix(r.to_bits() ^ i.to_bits().rotate_left(29)) % BASE
            }
            Value::Range(r) => {
                let [a, b, c] = **r;
                6 * BASE
                    + mix((a as u64) ^ (b as u64).rotate_left(21) ^ (c as u64).rotate_left(42))
                        % BASE
            }
            Value::Str(s) => Rc::as_ptr(s) as *const u8 as usize as i64,
            Value::Bytes(b) => Rc::as_ptr(b) as *const u8 as usize as i64,
            Value::Tuple(t) => Rc::as_ptr(t) as *const u8 as usize as i64,
            Value::Big(b) => Rc::as_ptr(b) as *const u8 as usize as i64,
            Value::FrozenSet(d) => Rc::as_ptr(d) as *const u8 as usize as i64,
            Value::Slice(x) => Rc::as_ptr(x) as *const u8 as usize as i64,
            Value::DictView(d, k) => {
                7 * BASE + mix(Rc::as_ptr(d) as *const u8 as usize as u64 ^ u64::from(*k)) % BASE
            }
            other => other.addr() as i64,
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
