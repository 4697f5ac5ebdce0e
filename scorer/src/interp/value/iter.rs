//! Lazy iterators and suspended generator expressions.

use std::rc::Rc;

use super::{Function, Mut, Native, PyDict, PyList, PyTuple, Scope, Str, Value};
use crate::interp::scope::ScopeInfo;
use crate::python::syntax as ast;

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
        err: Option<Box<crate::interp::PyErr<'a>>>,
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
    /// The `isinstance` filter of its one `for` clause (kept between items for its measured step
    /// count; its classes are evaluated anew on every resumption).
    pub(crate) filter: Option<crate::interp::eval::IsFilter<'a>>,
    /// Set while `any()` consumes it: false items may be skipped without being made.
    pub(crate) skip_false: bool,
}

#[derive(Clone, Copy)]
pub enum GenElt<'a> {
    One(&'a ast::Expr),
    Pair(&'a ast::Expr, &'a ast::Expr),
}
