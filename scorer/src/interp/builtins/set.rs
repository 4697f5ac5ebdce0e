//! The methods of `set` and `frozenset`.

use super::arg;
use crate::interp::cpyhash::{self, Table};
use crate::interp::value::*;
use crate::interp::ExcKind;
use crate::interp::{Interp, PyResult, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

impl<'a> Interp<'a> {
    pub(super) fn set_method(
        &mut self,
        this: &Value<'a>,
        name: &str,
        args: Vec<Value<'a>>,
    ) -> PyResult<'a, Value<'a>> {
        use crate::python::syntax::Operator as O;
        let as_set = |it: &mut Self, v: &Value<'a>| -> PyResult<'a, Value<'a>> {
            match v {
                Value::Set(_) | Value::FrozenSet(_) => Ok(v.clone()),
                other => {
                    let items = it.to_vec(other)?;
                    Ok(Value::Set(it.new_set(items)?))
                }
            }
        };
        match (name, this) {
            ("add", Value::Set(s)) => {
                self.set_add(s, arg(&args, 0))?;
                Ok(Value::None)
            }
            ("update", Value::Set(s)) => {
                for a in &args {
                    self.set_update_with(s, a)?;
                }
                Ok(Value::None)
            }
            ("remove" | "discard", Value::Set(s)) => {
                let k = arg(&args, 0);
                let (_, slot) = self.dict_find(s, &k)?;
                if slot.and_then(|i| set_remove_slot(s, i)).is_none() && name == "remove" {
                    let r = self.repr(&k)?;
                    return Err(self.err_args(ExcKind::KeyError, vec![k], Some(r)));
                }
                Ok(Value::None)
            }
            ("pop", Value::Set(s)) => {
                // The first key in table order (CPython's finger starts at slot 0).
                let first = match cpyhash::table_of(&s.borrow(), 0) {
                    Some(t) => t.keys().next().map(|(i, _)| i as usize),
                    None => s.borrow().entries.iter().position(Option::is_some),
                };
                match first.and_then(|i| set_remove_slot(s, i)) {
                    Some((k, _)) => Ok(k),
                    None => Err(self.err(ExcKind::KeyError, "pop from an empty set")),
                }
            }
            ("clear", Value::Set(s)) => {
                let mut d = s.borrow_mut();
                d.clear();
                d.pinned = None;
                Ok(Value::None)
            }
            ("copy", _) => Ok(match this {
                Value::Set(s) => match self.set_copy_cpython(this)? {
                    Some(c) => Value::Set(c),
                    None => Value::Set(self.new_dict_from(s.borrow().clone())),
                },
                other => other.clone(),
            }),
            ("union", _) => {
                // `set_union`: a copy, then `set_update_internal` with each argument.
                let acc = match self.set_copy_cpython(this)? {
                    Some(c) => c,
                    None => self.new_set(self.set_items(this))?,
                };
                for a in &args {
                    self.set_update_with(&acc, a)?;
                }
                Ok(self.as_type_of(this, acc))
            }
            ("intersection" | "difference" | "symmetric_difference", _) => {
                let op = match name {
                    "intersection" => O::BitAnd,
                    "difference" => O::Sub,
                    _ => O::BitXor,
                };
                if args.is_empty() {
                    return match self.set_copy_cpython(this)? {
                        Some(c) => Ok(self.as_type_of(this, c)),
                        None => Ok(this.clone()),
                    };
                }
                let mut acc = this.clone();
                for (i, a) in args.iter().enumerate() {
                    let other = as_set(self, a)?;
                    let is_set = matches!(a, Value::Set(_) | Value::FrozenSet(_))
                        || (op == O::Sub && matches!(a, Value::Dict(_)));
                    acc = match (op, i) {
                        // `set_symmetric_difference` with an iterable: the set built from it,
                        // then updated with this set's keys.
                        (O::BitXor, _) if !is_set => match other.clone() {
                            Value::Set(r) if self.set_inplace_cpython(O::BitXor, &r, &acc)? => {
                                self.as_type_of(this, r)
                            }
                            _ => self.binop(op, &acc, &other)?,
                        },
                        // `set_intersection` with an iterable: its items, in order, that the
                        // set holds (the item's object kept).
                        (O::BitAnd, _) if !is_set => {
                            let r = self.new_set(vec![])?;
                            for x in self.to_vec(a)? {
                                if self.contains(&acc, &x)? {
                                    self.set_add(&r, x)?;
                                }
                            }
                            self.as_type_of(this, r)
                        }
                        // `set_difference_multi`: later arguments update the first result.
                        (O::Sub, i) if i > 0 || !is_set => {
                            let r = match (&acc, i) {
                                // later arguments update the first result in place
                                (Value::Set(s), 1..) => s.clone(),
                                (Value::FrozenSet(d), 1..) => Rc::new(Mut::new((**d).clone())),
                                // `set_copy_and_difference` for an iterable
                                _ => match self.set_copy_cpython(&acc)? {
                                    Some(c) => c,
                                    None => self.new_set(self.set_items(&acc))?,
                                },
                            };
                            if !self.set_inplace_cpython(O::Sub, &r, &other)? {
                                let v = self.binop(O::Sub, &Value::Set(r.clone()), &other)?;
                                if let Value::Set(v) = v {
                                    let inner = v.borrow().clone();
                                    *r.borrow_mut() = inner;
                                }
                            }
                            self.as_type_of(this, r)
                        }
                        _ => self.binop(op, &acc, &other)?,
                    };
                }
                Ok(acc)
            }
            ("issubset", _) => {
                let o = as_set(self, &arg(&args, 0))?;
                Ok(Value::Bool(self.is_subset(this, &o)?))
            }
            ("issuperset", _) => {
                let o = as_set(self, &arg(&args, 0))?;
                Ok(Value::Bool(self.is_subset(&o, this)?))
            }
            ("isdisjoint", _) => {
                for x in self.to_vec(&arg(&args, 0))? {
                    if self.contains(this, &x)? {
                        return Ok(Value::Bool(false));
                    }
                }
                Ok(Value::Bool(true))
            }
            (
                "intersection_update" | "difference_update" | "symmetric_difference_update",
                Value::Set(s),
            ) => {
                let op = match name {
                    "intersection_update" => O::BitAnd,
                    "difference_update" => O::Sub,
                    _ => O::BitXor,
                };
                let all = if op == O::BitXor { &args[..args.len().min(1)] } else { &args[..] };
                for a in all {
                    let o = as_set(self, a)?;
                    if op == O::BitAnd && !matches!(a, Value::Set(_) | Value::FrozenSet(_)) {
                        // `set_intersection_update`: the intersection's table swapped in.
                        let r = self.set_method(this, "intersection", vec![a.clone()])?;
                        if let Value::Set(r) = r {
                            let inner = r.borrow().clone();
                            *s.borrow_mut() = inner;
                        }
                        continue;
                    }
                    if self.set_inplace_cpython(op, s, &o)? {
                        continue;
                    }
                    let r = self.binop(op, this, &o)?;
                    if let Value::Set(r) = r {
                        let inner = r.borrow().clone();
                        *s.borrow_mut() = inner;
                    }
                }
                Ok(Value::None)
            }
            _ => Err(self.no_attr(this, name)),
        }
    }
}

/// One operand of a set operation as CPython 3.11 sees it: its table, with ids into the
/// operation's pool of keys, and its keys by hash for lookups.
struct Operand {
    table: Table,
    by_hash: BTreeMap<u64, Vec<u32>>,
}

impl Operand {
    fn new(table: Table) -> Operand {
        let mut by_hash: BTreeMap<u64, Vec<u32>> = BTreeMap::new();
        for (id, h) in table.keys() {
            by_hash.entry(h).or_default().push(id);
        }
        Operand { table, by_hash }
    }
}

/// The keys of an operation's operands, by id.
type Pool<'a> = Vec<Value<'a>>;

impl<'a> Interp<'a> {
    /// `v`'s table with ids appended to `pool`; `None` for a non-set or a key whose hash CPython
    /// takes from its address (then the caller keeps insertion order).
    fn set_operand(&self, v: &Value<'a>, pool: &mut Pool<'a>) -> Option<Operand> {
        let base = u32::try_from(pool.len()).ok()?;
        let fill = |d: &PyDict<'a>, pool: &mut Pool<'a>| {
            let t = cpyhash::table_of(d, base)?;
            pool.extend(d.entries.iter().map(|e| e.as_ref().map_or(Value::None, |e| e.0.clone())));
            Some(t)
        };
        let table = match v {
            Value::Set(s) => fill(&s.borrow(), pool)?,
            Value::FrozenSet(d) => fill(d, pool)?,
            _ => return None,
        };
        Some(Operand::new(table))
    }

    /// The id of the key of `op` equal to `key` (hash `h`).
    fn set_lookup(
        &mut self,
        op: &Operand,
        pool: &Pool<'a>,
        key: &Value<'a>,
        h: u64,
    ) -> PyResult<'a, Option<u32>> {
        for &id in op.by_hash.get(&h).map(Vec::as_slice).unwrap_or(&[]) {
            if self.py_eq(&pool[id as usize], key)? {
                return Ok(Some(id));
            }
        }
        Ok(None)
    }

    /// A set holding the keys of `t` in its table order, its layout pinned.
    fn set_from_table(&mut self, t: &Table, pool: &Pool<'a>) -> PyResult<'a, Rc<Mut<PyDict<'a>>>> {
        let s = self.new_dict();
        let mut to_entry: BTreeMap<u32, u32> = BTreeMap::new();
        for (n, (id, _)) in t.keys().enumerate() {
            self.set_add(&s, pool[id as usize].clone())?;
            to_entry.insert(id, n as u32);
        }
        let n = s.borrow().entries.len();
        let pin = t.to_pin(n, &|id| to_entry.get(&id).copied().unwrap_or(u32::MAX));
        s.borrow_mut().pinned = Some(pin);
        Ok(s)
    }

    /// `a op b` for two sets, built as 3.11's `set_or`, `set_and`, `set_sub` and `set_xor` build
    /// it (copies, merges, which operand is iterated, which key object is kept, dummies); the
    /// result has `a`'s type. `None` when a hash is not reproducible.
    pub(crate) fn set_binop_cpython(
        &mut self,
        op: crate::python::syntax::Operator,
        a: &Value<'a>,
        b: &Value<'a>,
    ) -> PyResult<'a, Option<Value<'a>>> {
        use crate::python::syntax::Operator as O;
        let mut pool = Pool::new();
        let (Some(ta), Some(tb)) = (self.set_operand(a, &mut pool), self.set_operand(b, &mut pool))
        else {
            return Ok(None);
        };
        let same = same_set(a, b);
        let t = match op {
            O::BitOr => {
                let mut r = Table::default();
                r.merge(&ta.table, &mut |_| true);
                if !same {
                    let news = self.absent_in(&tb, &ta, &pool)?;
                    r.merge(&tb.table, &mut |id| news.contains(&id));
                }
                r
            }
            O::BitAnd => self.intersection_table(&ta, &tb, &pool, same)?,
            O::Sub => self.difference_table(&ta, &tb, &pool, same)?,
            _ => {
                // `set_symmetric_difference`: a copy of `b`, then `b ^= a`.
                let mut r = Table::default();
                r.merge(&tb.table, &mut |_| true);
                if same {
                    Table::default()
                } else {
                    self.xor_update(&mut r, &tb, &ta, &pool)?;
                    r
                }
            }
        };
        let s = self.set_from_table(&t, &pool)?;
        Ok(Some(if matches!(a, Value::FrozenSet(_)) {
            let inner = s.borrow().clone();
            Value::FrozenSet(Rc::new(inner))
        } else {
            Value::Set(s)
        }))
    }

    /// Ids of `from`'s keys that `other` lacks.
    fn absent_in(
        &mut self,
        from: &Operand,
        other: &Operand,
        pool: &Pool<'a>,
    ) -> PyResult<'a, BTreeSet<u32>> {
        let mut out = BTreeSet::new();
        for (id, h) in from.table.keys() {
            if self.set_lookup(other, pool, &pool[id as usize], h)?.is_none() {
                out.insert(id);
            }
        }
        Ok(out)
    }

    /// `set_intersection(a, b)` for two sets: iterate the smaller (`b` on a tie), keep its keys.
    fn intersection_table(
        &mut self,
        a: &Operand,
        b: &Operand,
        pool: &Pool<'a>,
        same: bool,
    ) -> PyResult<'a, Table> {
        let mut r = Table::default();
        if same {
            r.merge(&a.table, &mut |_| true);
            return Ok(r);
        }
        let (big, small) = if b.table.len() > a.table.len() { (b, a) } else { (a, b) };
        for (id, h) in small.table.keys() {
            if self.set_lookup(big, pool, &pool[id as usize], h)?.is_some() {
                r.add_new(id, h);
            }
        }
        Ok(r)
    }

    /// `set_difference(a, b)` for two sets: a copy of `a` with `b`'s keys discarded when `a` is
    /// over four times larger, else `a`'s keys not in `b` added to an empty set.
    fn difference_table(
        &mut self,
        a: &Operand,
        b: &Operand,
        pool: &Pool<'a>,
        same: bool,
    ) -> PyResult<'a, Table> {
        let mut r = Table::default();
        if (a.table.len() >> 2) > b.table.len() {
            r.merge(&a.table, &mut |_| true);
            if same {
                return Ok(Table::default());
            }
            self.discard_all(&mut r, a, b, pool)?;
            return Ok(r);
        }
        for (id, h) in a.table.keys() {
            if self.set_lookup(b, pool, &pool[id as usize], h)?.is_none() {
                r.add_new(id, h);
            }
        }
        Ok(r)
    }

    /// `set_difference_update_internal(r, b)` where `r` holds the keys of `a` (same ids):
    /// every key of `b` found is discarded, then the dummies may be resized away.
    fn discard_all(
        &mut self,
        r: &mut Table,
        a: &Operand,
        b: &Operand,
        pool: &Pool<'a>,
    ) -> PyResult<'a, ()> {
        for (id, h) in b.table.keys() {
            if let Some(found) = self.set_lookup(a, pool, &pool[id as usize], h)? {
                r.discard(found);
            }
        }
        r.after_discards();
        Ok(())
    }

    /// `set_symmetric_difference_update(r, other)` where `r` holds the keys of `mine`: each key
    /// of `other` in table order is discarded when present, else added.
    fn xor_update(
        &mut self,
        r: &mut Table,
        mine: &Operand,
        other: &Operand,
        pool: &Pool<'a>,
    ) -> PyResult<'a, ()> {
        for (id, h) in other.table.keys() {
            match self.set_lookup(mine, pool, &pool[id as usize], h)? {
                Some(found) => r.discard(found),
                None => r.add_new(id, h),
            }
        }
        Ok(())
    }

    /// `s op= other` on a set in place (`|=` merges, `&=` swaps in the intersection, `-=`
    /// discards, `^=` discards or adds), as 3.11 does it; `false` when not modelled.
    pub(crate) fn set_inplace_cpython(
        &mut self,
        op: crate::python::syntax::Operator,
        s: &Rc<Mut<PyDict<'a>>>,
        other: &Value<'a>,
    ) -> PyResult<'a, bool> {
        use crate::python::syntax::Operator as O;
        let me = Value::Set(s.clone());
        let mut pool = Pool::new();
        let (Some(ta), Some(tb)) =
            (self.set_operand(&me, &mut pool), self.set_operand(other, &mut pool))
        else {
            return Ok(false);
        };
        let same = same_set(&me, other);
        let t = match op {
            O::BitOr => {
                let mut r = ta.table.clone();
                if !same {
                    let news = self.absent_in(&tb, &ta, &pool)?;
                    r.merge(&tb.table, &mut |id| news.contains(&id));
                }
                r
            }
            O::BitAnd => self.intersection_table(&ta, &tb, &pool, same)?,
            O::Sub => {
                if same {
                    Table::default()
                } else {
                    let mut r = ta.table.clone();
                    self.discard_all(&mut r, &ta, &tb, &pool)?;
                    r
                }
            }
            O::BitXor => {
                if same {
                    Table::default()
                } else {
                    let mut r = ta.table.clone();
                    self.xor_update(&mut r, &ta, &tb, &pool)?;
                    r
                }
            }
            _ => return Ok(false),
        };
        let fresh = self.set_from_table(&t, &pool)?;
        let inner = std::mem::take(&mut *fresh.borrow_mut());
        *s.borrow_mut() = inner;
        Ok(true)
    }

    /// A new set of `v`'s keys as `set(v)` / `frozenset(v)` / `copy()` make it from a set
    /// (`set_merge` into an empty table); `None` when not modelled.
    pub(crate) fn set_copy_cpython(
        &mut self,
        v: &Value<'a>,
    ) -> PyResult<'a, Option<Rc<Mut<PyDict<'a>>>>> {
        let mut pool = Pool::new();
        let Some(t) = self.set_operand(v, &mut pool) else { return Ok(None) };
        let mut r = Table::default();
        r.merge(&t.table, &mut |_| true);
        Ok(Some(self.set_from_table(&r, &pool)?))
    }

    /// `set.update(d)` / `set(d)` for a dict: one presize for the dict's size, then its keys
    /// added in order (`set_update_internal`'s dict path).
    pub(crate) fn set_update_from_dict(
        &mut self,
        s: &Rc<Mut<PyDict<'a>>>,
        keys: Vec<Value<'a>>,
    ) -> PyResult<'a, ()> {
        let me = Value::Set(s.clone());
        let mut pool = Pool::new();
        let hashes: Option<Vec<u64>> =
            keys.iter().map(|k| cpyhash::py_hash(k).map(|h| h as u64)).collect();
        let (Some(mut mine), Some(hashes)) = (self.set_operand(&me, &mut pool), hashes) else {
            for k in keys {
                self.set_add(s, k)?;
            }
            return Ok(());
        };
        let mut t = mine.table.clone();
        t.presize_for(keys.len());
        for (k, h) in keys.into_iter().zip(hashes) {
            if self.set_lookup(&mine, &pool, &k, h)?.is_none() {
                let id = u32::try_from(pool.len()).unwrap_or(u32::MAX);
                pool.push(k);
                t.add_new(id, h);
                mine.by_hash.entry(h).or_default().push(id);
            }
        }
        let fresh = self.set_from_table(&t, &pool)?;
        let inner = std::mem::take(&mut *fresh.borrow_mut());
        *s.borrow_mut() = inner;
        Ok(())
    }
}

impl<'a> Interp<'a> {
    /// `set_update_internal(s, a)`: a set merges, a dict presizes, anything else adds its items.
    pub(crate) fn set_update_with(
        &mut self,
        s: &Rc<Mut<PyDict<'a>>>,
        a: &Value<'a>,
    ) -> PyResult<'a, ()> {
        use crate::python::syntax::Operator as O;
        match a {
            Value::Set(_) | Value::FrozenSet(_) if self.set_inplace_cpython(O::BitOr, s, a)? => {}
            Value::Dict(d) => {
                let keys = d.borrow().keys();
                self.set_update_from_dict(s, keys)?;
            }
            _ => {
                for x in self.to_vec(a)? {
                    self.set_add(s, x)?;
                }
            }
        }
        Ok(())
    }

    /// `r` as a set, or as a frozenset when `this` is one.
    fn as_type_of(&self, this: &Value<'a>, r: Rc<Mut<PyDict<'a>>>) -> Value<'a> {
        if matches!(this, Value::FrozenSet(_)) {
            let inner = r.borrow().clone();
            Value::FrozenSet(Rc::new(inner))
        } else {
            Value::Set(r)
        }
    }
}

/// Removes entry `i` of set `s`, leaving a dummy in its table as CPython does: the table is
/// pinned first, so the other keys keep their slots (through a compaction of the entries too).
fn set_remove_slot<'a>(s: &Rc<Mut<PyDict<'a>>>, i: usize) -> Option<(Value<'a>, Value<'a>)> {
    let before = {
        let d = s.borrow();
        let live: Vec<bool> = d.entries.iter().map(Option::is_some).collect();
        cpyhash::table_of(&d, 0).map(|t| (t, live))
    };
    let removed = s.borrow_mut().remove_slot(i)?;
    if let Some((mut t, live)) = before {
        t.discard(i as u32);
        let mut d = s.borrow_mut();
        let pin = if d.entries.len() == live.len() {
            t.to_pin(live.len(), &|id| id)
        } else {
            // compacted: the live entries kept their order
            let mut rank = vec![u32::MAX; live.len()];
            let mut n = 0;
            for (k, &was) in live.iter().enumerate() {
                if was && k != i {
                    rank[k] = n;
                    n += 1;
                }
            }
            t.to_pin(d.entries.len(), &|id| rank.get(id as usize).copied().unwrap_or(u32::MAX))
        };
        d.pinned = Some(pin);
    }
    Some(removed)
}

/// Whether two set values are the same object (`a | a` returns a copy at once).
fn same_set<'a>(a: &Value<'a>, b: &Value<'a>) -> bool {
    match (a, b) {
        (Value::Set(x), Value::Set(y)) => Rc::ptr_eq(x, y),
        (Value::FrozenSet(x), Value::FrozenSet(y)) => Rc::ptr_eq(x, y),
        _ => false,
    }
}
