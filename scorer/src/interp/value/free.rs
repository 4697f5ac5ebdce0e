//! Freeing without recursion: containers, instances and generators that alone own nested
//! containers hand them to a work list, so freeing a deeply nested value (which CPython frees)
//! cannot overflow the native stack.

use std::rc::Rc;

use super::{Function, GenState, Instance, PyDict, PyIter, Scope, Value};

/// Dropping a dict unnests the containers it alone owns into a work list instead of recursing:
/// `x = {'a': x}` three million times (which CPython runs and frees) must not overflow the native
/// stack when it is freed. Lists, tuples, sets and instances (their attributes: an exception's
/// `__context__` chain, a linked list of objects) met on the way are unnested the same way. The
/// dict's charge to the run's memory account is credited.
impl Drop for PyDict<'_> {
    fn drop(&mut self) {
        crate::interp::memory::credit(self.charged);
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
/// contexts must not overflow the native stack); its header's charge is credited (its attribute
/// map credits its own).
impl Drop for Instance<'_> {
    fn drop(&mut self) {
        crate::interp::memory::credit(crate::interp::memory::OBJECT_BYTES);
        let mut work = Vec::new();
        take_attrs(self, &mut work);
        while let Some(v) = work.pop() {
            unnest(v, &mut work);
        }
    }
}

/// A function object's charge ([`Function::cost`]) is credited when it is freed.
impl Drop for Function<'_> {
    fn drop(&mut self) {
        crate::interp::memory::credit(self.cost());
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

/// A scope (a frame's locals, a namespace) frees its values and its enclosing scopes as dicts
/// free their items: a chain of a million generator-function calls each holding the previous
/// one as an argument, or of closures each holding the previous one, (which CPython frees)
/// must not overflow the native stack. A frame's charge is credited.
impl Drop for Scope<'_> {
    fn drop(&mut self) {
        crate::interp::memory::credit(self.vars.charged());
        let mut work = Vec::new();
        take_scope(self, &mut work);
        while let Some(v) = work.pop() {
            unnest(v, &mut work);
        }
    }
}

/// Moves the containers among `s`'s values, and those of the enclosing scopes it alone owns, to
/// `work`.
fn take_scope<'a>(s: &mut Scope<'a>, work: &mut Vec<Value<'a>>) {
    for v in s.vars.drain() {
        push_container(v, work);
    }
    let mut next = s.parent.take();
    while let Some(rc) = next {
        let Some(mut p) = Rc::into_inner(rc) else { break };
        for v in p.vars.drain() {
            push_container(v, work);
        }
        next = p.parent.take();
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
pub(crate) fn take_iter<'a>(it: PyIter<'a>, work: &mut Vec<Value<'a>>) {
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
        PyIter::GenFunc { scope, .. } => {
            if let Some(mut s) = Rc::into_inner(scope) {
                take_scope(&mut s, work);
            }
        }
        PyIter::GenDone { items, err } => {
            for v in items {
                push_container(v, work);
            }
            if let Some(e) = err {
                push_container(e.exc, work);
            }
        }
        PyIter::Owned { items } => {
            for v in items {
                push_container(v, work);
            }
        }
        PyIter::Reversed { items } => {
            for v in items {
                push_container(v, work);
            }
        }
        PyIter::Walk(items) => {
            for v in items {
                push_container(v, work);
            }
        }
        _ => {}
    }
}

/// Frees `items` without recursing into nested containers.
pub(crate) fn free_nested(items: Vec<Value<'_>>) {
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
    if let Some(d) = i.dict.take_live() {
        work.push(Value::Dict(d));
    }
    if let Some(e) = &mut i.exc {
        let e = e.get_mut();
        for v in std::mem::take(&mut e.args) {
            push_container(v, work);
        }
        for v in [e.cause.take(), e.context.take()].into_iter().flatten() {
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
            | Value::Func(_)
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
        Value::Func(rc) => {
            if let Some(mut f) = Rc::into_inner(rc) {
                // Taken, not drained: the function's charge counts its defaults when it drops.
                for v in f.defaults.iter_mut().chain(f.kwdefaults.iter_mut()) {
                    if let Some(v) = v.take() {
                        push_container(v, work);
                    }
                }
                for (_, v) in std::mem::take(f.dict.get_mut()) {
                    push_container(v, work);
                }
                if let Some(d) = f.dict.take_live() {
                    work.push(Value::Dict(d));
                }
                if let Some(mut s) = f.closure.take().and_then(Rc::into_inner) {
                    take_scope(&mut s, work);
                }
            }
        }
        _ => {}
    }
}
