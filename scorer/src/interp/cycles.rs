//! The cycle collector: frees the reference cycles a run no longer reaches while it goes on, as
//! CPython's `gc` does, so a test method that leaves its memory in cycles (a closure or a
//! generator expression kept in a local forms one with the method's frame) does not make the
//! file's later methods run out of the memory budget.
//!
//! CPython's algorithm on `Rc`s. The candidates are the objects the run noted
//! ([`super::memory::Objects`]) and everything they reach. For each candidate the references
//! coming from other candidates are counted by visiting each one's direct children (list items,
//! dict keys and values, attribute maps, frames' variables, closures, generators' frames and
//! iterators, bound methods, an exception's args, node fields...). A candidate whose
//! `Rc::strong_count` is more than those is held from outside (a Rust local, an interpreter
//! table, a frame running): it and everything it reaches are alive. The rest can only be reached
//! through each other: they are emptied, as [`super::memory::Objects::break_cycles`] empties a
//! run's objects when it ends, so their cycles fall apart and they are freed.
//!
//! Soundness rests on never counting a reference that is not there: a child is counted only for
//! a strong `Rc` its parent holds in the field visited, once per such `Rc`. A reference not
//! visited (a kind of field the visitor does not know, an object being written while the
//! collector runs) is simply not subtracted, so its target looks held from outside and is kept:
//! a missed edge costs memory, never a live object. An object being borrowed is kept the same
//! way, and so is anything the Rust stack reaches through borrows: such a path starts at a value
//! the stack owns (counted from outside) and follows fields the visitor either counts (so the
//! marking follows them too) or does not (so their targets are kept).
//!
//! Objects that hold no object (a list of ints, a string-keyed dict of strings) cannot be on a
//! cycle: they are left out of the tables, which stay proportional to the objects that hold
//! others.

use std::collections::HashMap;
use std::rc::Rc;

use super::value::{
    free_nested, take_iter, Builtin, Class, Function, Instance, Module, Mut, Native, NodeObj,
    PyDict, PyIter, PyList, PyTuple, Scope, Value,
};

/// One `Rc` allocation the collector looks at.
pub(crate) enum Obj<'a> {
    List(Rc<Mut<PyList<'a>>>),
    /// A dict or a set (and the dict behind a view).
    Dict(Rc<Mut<PyDict<'a>>>),
    Frozen(Rc<PyDict<'a>>),
    Tuple(Rc<PyTuple<'a>>),
    Func(Rc<Function<'a>>),
    Method(Rc<(Value<'a>, Value<'a>)>),
    Builtin(Rc<Builtin<'a>>),
    Class(Rc<Class<'a>>),
    Instance(Rc<Instance<'a>>),
    Node(Rc<NodeObj<'a>>),
    Module(Rc<Module<'a>>),
    Iter(Rc<Mut<PyIter<'a>>>),
    Slice(Rc<[Value<'a>; 3]>),
    Native(Rc<Native<'a>>),
    Scope(Rc<Scope<'a>>),
}

fn addr_of<T: ?Sized>(rc: &Rc<T>) -> usize {
    Rc::as_ptr(rc) as *const u8 as usize
}

impl<'a> Obj<'a> {
    /// The object `v` refers to, if it is one that may hold others.
    pub(crate) fn of(v: &Value<'a>) -> Option<Obj<'a>> {
        Some(match v {
            Value::List(l) => Obj::List(l.clone()),
            Value::Dict(d) | Value::Set(d) | Value::DictView(d, _) => Obj::Dict(d.clone()),
            Value::FrozenSet(d) => Obj::Frozen(d.clone()),
            Value::Tuple(t) => Obj::Tuple(t.clone()),
            Value::Func(f) => Obj::Func(f.clone()),
            Value::Method(m) => Obj::Method(m.clone()),
            Value::Builtin(b) => Obj::Builtin(b.clone()),
            Value::Class(c) => Obj::Class(c.clone()),
            Value::Instance(i) => Obj::Instance(i.clone()),
            Value::Node(n) => Obj::Node(n.clone()),
            Value::Module(m) => Obj::Module(m.clone()),
            Value::Iter(i) => Obj::Iter(i.clone()),
            Value::Slice(s) => Obj::Slice(s.clone()),
            Value::Native(n) => Obj::Native(n.clone()),
            _ => return None,
        })
    }

    fn addr(&self) -> usize {
        match self {
            Obj::List(r) => addr_of(r),
            Obj::Dict(r) => addr_of(r),
            Obj::Frozen(r) => addr_of(r),
            Obj::Tuple(r) => addr_of(r),
            Obj::Func(r) => addr_of(r),
            Obj::Method(r) => addr_of(r),
            Obj::Builtin(r) => addr_of(r),
            Obj::Class(r) => addr_of(r),
            Obj::Instance(r) => addr_of(r),
            Obj::Node(r) => addr_of(r),
            Obj::Module(r) => addr_of(r),
            Obj::Iter(r) => addr_of(r),
            Obj::Slice(r) => addr_of(r),
            Obj::Native(r) => addr_of(r),
            Obj::Scope(r) => addr_of(r),
        }
    }

    fn strong(&self) -> usize {
        match self {
            Obj::List(r) => Rc::strong_count(r),
            Obj::Dict(r) => Rc::strong_count(r),
            Obj::Frozen(r) => Rc::strong_count(r),
            Obj::Tuple(r) => Rc::strong_count(r),
            Obj::Func(r) => Rc::strong_count(r),
            Obj::Method(r) => Rc::strong_count(r),
            Obj::Builtin(r) => Rc::strong_count(r),
            Obj::Class(r) => Rc::strong_count(r),
            Obj::Instance(r) => Rc::strong_count(r),
            Obj::Node(r) => Rc::strong_count(r),
            Obj::Module(r) => Rc::strong_count(r),
            Obj::Iter(r) => Rc::strong_count(r),
            Obj::Slice(r) => Rc::strong_count(r),
            Obj::Native(r) => Rc::strong_count(r),
            Obj::Scope(r) => Rc::strong_count(r),
        }
    }

    /// Pushes one entry per strong reference this object holds to another object; `false`
    /// when its state is being written and cannot be read (nothing pushed then).
    fn children(&self, out: &mut Vec<Obj<'a>>) -> bool {
        let mut value = |v: &Value<'a>| out.extend(Obj::of(v));
        match self {
            Obj::List(l) => {
                let Some(l) = l.try_borrow() else { return false };
                l.iter().for_each(value);
            }
            Obj::Dict(d) => {
                let Some(d) = d.try_borrow() else { return false };
                for (k, v, _) in d.entries.iter().flatten() {
                    value(k);
                    value(v);
                }
            }
            Obj::Frozen(d) => {
                for (k, v, _) in d.entries.iter().flatten() {
                    value(k);
                    value(v);
                }
            }
            Obj::Tuple(t) => t.iter().for_each(value),
            Obj::Func(f) => {
                let (Some(dict), Ok(live), Ok(class)) =
                    (f.dict.try_borrow(), f.dict.try_live(), f.defining_class.try_borrow())
                else {
                    return false;
                };
                f.defaults.iter().chain(f.kwdefaults.iter()).flatten().for_each(&mut value);
                dict.values().for_each(&mut value);
                out.extend(f.closure.clone().map(Obj::Scope));
                out.extend(live.map(Obj::Dict));
                out.extend(class.clone().map(Obj::Class));
            }
            Obj::Method(m) => {
                value(&m.0);
                value(&m.1);
            }
            Obj::Builtin(b) => b.this.iter().for_each(value),
            Obj::Class(c) => {
                let (Some(dict), Some(mro)) = (c.dict.try_borrow(), c.mro.try_borrow()) else {
                    return false;
                };
                dict.values().for_each(value);
                out.extend(c.bases.iter().chain(mro.iter()).cloned().map(Obj::Class));
            }
            Obj::Instance(i) => {
                let (Some(dict), Ok(live)) = (i.dict.try_borrow(), i.dict.try_live()) else {
                    return false;
                };
                let exc = match &i.exc {
                    Some(e) => match e.try_borrow() {
                        Some(e) => Some(e),
                        None => return false,
                    },
                    None => None,
                };
                dict.values().for_each(&mut value);
                exc.iter()
                    .flat_map(|e| e.args.iter().chain(e.cause.iter()).chain(e.context.iter()))
                    .for_each(&mut value);
                out.push(Obj::Class(i.class.clone()));
                out.extend(live.map(Obj::Dict));
            }
            Obj::Node(n) => return n.try_for_each(value),
            Obj::Module(m) => {
                let (Some(dict), Ok(live)) = (m.dict.try_borrow(), m.dict.try_live()) else {
                    return false;
                };
                dict.values().for_each(value);
                out.extend(live.map(Obj::Dict));
            }
            Obj::Iter(it) => {
                let Some(it) = it.try_borrow() else { return false };
                iter_children(&it, out);
            }
            Obj::Slice(s) => s.iter().for_each(value),
            Obj::Native(n) => match &**n {
                Native::ClassMethod(x) | Native::StaticMethod(x) => value(x),
                Native::Property(x, y, z) => {
                    value(x);
                    value(y);
                    value(z);
                }
                Native::Super(c, x) => {
                    value(x);
                    out.push(Obj::Class(c.clone()));
                }
                Native::AssertRaises(x, caught) => {
                    let Some(caught) = caught.try_borrow() else { return false };
                    value(x);
                    caught.iter().for_each(value);
                }
                Native::SubTest { params, msg } => {
                    params.iter().map(|p| &p.1).chain(msg.iter()).for_each(value);
                }
                Native::Union(xs) => xs.iter().for_each(value),
                Native::File(_)
                | Native::Sha256(_)
                | Native::SkipDecorator(_)
                | Native::RePattern(_)
                | Native::ReMatch(_) => {}
            },
            Obj::Scope(s) => {
                if !s.vars.try_for_each(value) {
                    return false;
                }
                out.extend(s.parent.clone().map(Obj::Scope));
            }
        }
        true
    }

    /// Empties the object (it is garbage): what it held goes to `sink`, dropped once every
    /// garbage object is emptied. Objects being borrowed, and immutable ones (tuples, frozen
    /// sets, bound methods...: every cycle also passes through a mutable object), are left.
    /// Not a write any method can see (nothing reaches the object).
    fn clear(&self, sink: &mut Sink<'a>) {
        match self {
            Obj::List(l) => {
                if let Some(mut l) = l.try_borrow_mut_unseen() {
                    sink.values.extend(l.take());
                }
            }
            Obj::Dict(d) => {
                if let Some(mut d) = d.try_borrow_mut_unseen() {
                    let mut taken = std::mem::take(&mut *d);
                    for (k, v, _) in std::mem::take(&mut taken.entries).into_iter().flatten() {
                        sink.values.push(k);
                        sink.values.push(v);
                    }
                    sink.dicts.push(taken);
                }
            }
            Obj::Func(f) => {
                sink.values.extend(f.dict.take_values());
                if let Ok(mut c) = f.defining_class.try_borrow_mut() {
                    sink.values.extend(c.take().map(Value::Class));
                }
            }
            Obj::Class(c) => {
                sink.values.extend(c.dict.take_values());
                if let Some(mut mro) = c.mro.try_borrow_mut_unseen() {
                    sink.values.extend(std::mem::take(&mut *mro).into_iter().map(Value::Class));
                }
            }
            Obj::Instance(i) => {
                sink.values.extend(i.dict.take_values());
                if let Some(mut e) = i.exc.as_ref().and_then(Mut::try_borrow_mut_unseen) {
                    sink.values.append(&mut e.args);
                    sink.values.extend(e.cause.take().into_iter().chain(e.context.take()));
                }
            }
            Obj::Node(n) => sink.values.extend(n.take_all()),
            Obj::Module(m) => sink.values.extend(m.dict.take_values()),
            Obj::Iter(it) => {
                if let Some(mut it) = it.try_borrow_mut_unseen() {
                    match std::mem::replace(&mut *it, PyIter::Exhausted) {
                        PyIter::GenFunc { func, scope } => {
                            sink.values.push(Value::Func(func));
                            sink.scopes.push(scope);
                        }
                        PyIter::Gen(g) => {
                            sink.scopes.push(g.scope.clone());
                            take_iter(PyIter::Gen(g), &mut sink.values);
                        }
                        PyIter::DictKeys { d, .. } => sink.values.push(Value::Dict(d)),
                        PyIter::FileLines { file } => sink.values.push(Value::Native(file)),
                        other => take_iter(other, &mut sink.values),
                    }
                }
            }
            Obj::Native(n) => {
                if let Native::AssertRaises(_, caught) = &**n {
                    if let Some(mut c) = caught.try_borrow_mut_unseen() {
                        sink.values.extend(c.take());
                    }
                }
            }
            Obj::Scope(s) => sink.values.extend(s.vars.take_all_unseen()),
            Obj::Frozen(_) | Obj::Tuple(_) | Obj::Method(_) | Obj::Builtin(_) | Obj::Slice(_) => {}
        }
    }
}

/// The strong references an iterator holds.
fn iter_children<'a>(it: &PyIter<'a>, out: &mut Vec<Obj<'a>>) {
    let mut value = |v: &Value<'a>| out.extend(Obj::of(v));
    match it {
        PyIter::Running
        | PyIter::Exhausted
        | PyIter::Chars { .. }
        | PyIter::Bytes { .. }
        | PyIter::Range { .. } => {}
        PyIter::Seq { items, .. } => out.push(Obj::List(items.clone())),
        PyIter::Tuple { items, .. } => out.push(Obj::Tuple(items.clone())),
        PyIter::Owned { items } => items.as_slice().iter().for_each(value),
        PyIter::DictKeys { d, .. } => out.push(Obj::Dict(d.clone())),
        PyIter::Walk(items) => items.iter().for_each(value),
        PyIter::Enumerate { inner, .. } => value(inner),
        PyIter::Zip(inner) => inner.iter().for_each(value),
        PyIter::Map { func, inner } => {
            value(func);
            inner.iter().for_each(value);
        }
        PyIter::Filter { func, inner } => {
            value(func);
            value(inner);
        }
        PyIter::Reversed { items } => items.iter().for_each(value),
        PyIter::Gen(g) => {
            g.iters.iter().chain(g.first.iter()).for_each(value);
            out.push(Obj::Scope(g.scope.clone()));
        }
        PyIter::GenFunc { func, scope } => {
            out.push(Obj::Func(func.clone()));
            out.push(Obj::Scope(scope.clone()));
        }
        PyIter::GenDone { items, err } => {
            items.as_slice().iter().chain(err.iter().map(|e| &e.exc)).for_each(value);
        }
        PyIter::FileLines { file } => out.push(Obj::Native(file.clone())),
    }
}

/// Whether `o` holds any object (or cannot be read): only those can be on a cycle.
fn may_cycle<'a>(o: &Obj<'a>, probe: &mut Vec<Obj<'a>>) -> bool {
    probe.clear();
    let readable = o.children(probe);
    let any = !probe.is_empty();
    probe.clear();
    !readable || any
}

/// What emptied garbage objects held, freed after all are emptied.
#[derive(Default)]
struct Sink<'a> {
    values: Vec<Value<'a>>,
    scopes: Vec<Rc<Scope<'a>>>,
    dicts: Vec<PyDict<'a>>,
}

/// What one collection did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Collected {
    /// Objects that hold others, looked at.
    pub(crate) examined: usize,
    /// Of those, objects found unreachable and emptied.
    pub(crate) freed: usize,
}

/// Finds the objects among `seeds` and what they reach that nothing outside them refers to, and
/// empties them (see the module doc). `seeds` are the run's noted objects, one entry each.
pub(crate) fn collect(seeds: Vec<Obj<'_>>) -> Collected {
    let mut objs: Vec<Obj<'_>> = Vec::new();
    let mut index: HashMap<usize, u32, super::value::FxBuild> = HashMap::default();
    // References from other candidates; `u32::MAX`: unreadable, held from outside.
    let mut internal: Vec<u32> = Vec::new();
    let mut kids = Vec::new();
    let mut probe = Vec::new();

    for o in seeds {
        let a = o.addr();
        if !index.contains_key(&a) && may_cycle(&o, &mut probe) {
            index.insert(a, objs.len() as u32);
            objs.push(o);
            internal.push(0);
        }
    }
    // Every candidate's children: new ones join the candidates, and each reference is counted.
    let mut i = 0;
    while i < objs.len() {
        kids.clear();
        if !objs[i].children(&mut kids) {
            internal[i] = u32::MAX;
        }
        for k in kids.drain(..) {
            let a = k.addr();
            let j = match index.get(&a) {
                Some(&j) => j as usize,
                None => {
                    if !may_cycle(&k, &mut probe) {
                        continue;
                    }
                    index.insert(a, objs.len() as u32);
                    objs.push(k);
                    internal.push(0);
                    objs.len() - 1
                }
            };
            internal[j] = internal[j].saturating_add(1);
        }
        i += 1;
    }
    // Held from outside: more strong references than the candidates' (plus the one `objs`
    // holds). Those and all they reach are alive.
    let mut alive = vec![false; objs.len()];
    let mut work: Vec<usize> = Vec::new();
    for (j, o) in objs.iter().enumerate() {
        let counted = internal[j];
        let outside = counted == u32::MAX || o.strong() > counted as usize + 1;
        debug_assert!(
            counted == u32::MAX || o.strong() > counted as usize,
            "the collector counted a reference that is not there"
        );
        if outside || o.strong() <= counted as usize {
            alive[j] = true;
            work.push(j);
        }
    }
    while let Some(j) = work.pop() {
        kids.clear();
        objs[j].children(&mut kids);
        for k in kids.drain(..) {
            if let Some(&c) = index.get(&k.addr()) {
                if !alive[c as usize] {
                    alive[c as usize] = true;
                    work.push(c as usize);
                }
            }
        }
    }
    drop(index);
    let mut sink = Sink::default();
    let mut freed = 0;
    for (o, _) in objs.iter().zip(&alive).filter(|(_, a)| !**a) {
        o.clear(&mut sink);
        freed += 1;
    }
    let examined = objs.len();
    drop(objs);
    drop(sink.dicts);
    drop(sink.scopes);
    free_nested(sink.values);
    Collected { examined, freed }
}
