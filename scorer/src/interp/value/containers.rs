//! The containers' storage: [`PyDict`] (dicts and sets, in insertion order with their CPython
//! hashes), [`PyList`] and [`PyTuple`], each keeping the run's memory account up to date.

use std::collections::HashMap;
use std::rc::Rc;

use super::free::free_nested;
use super::{FxBuild, Value};

/// Insertion-ordered hash map keyed by Python values (also used for sets, with `None` values).
#[derive(Default)]
pub struct PyDict<'a> {
    pub entries: Vec<Option<(Value<'a>, Value<'a>, u64)>>,
    pub index: HashMap<u64, Vec<u32>, FxBuild>,
    pub len: usize,
    /// A set's iteration order (entry indices) when CPython built its table in a way the
    /// insertion replay of [`crate::interp::cpyhash::ordered_keys`] does not reproduce (a constant set
    /// display); valid only while the entries are exactly those it was made for.
    pub pinned: Option<Rc<[u32]>>,
    /// Bytes charged to the run's memory account for the entries' capacity.
    pub charged: u64,
}

/// A list's items. Dereferences to its `Vec`; each access first brings the run's memory account
/// up to date with the capacity ([`crate::interp::memory`]), and the operations that grow a list
/// (append, extend, insert, `+=`, slice assignment) call [`PyList::sync`] once they are done, so
/// growth is charged as it happens (a list grown once and never touched again counts too).
/// Dropping it credits what was charged and frees nested containers through a work list
/// ([`free_nested`]).
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

    /// Brings the run's memory account up to date with the capacity (after the list grew).
    #[inline]
    pub fn sync(&self) {
        let cost = self.items.capacity() as u64 * crate::interp::memory::SLOT_BYTES;
        let was = self.charged.get();
        if cost != was {
            if cost > was {
                crate::interp::memory::charge(cost - was);
            } else {
                crate::interp::memory::credit(was - cost);
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
        crate::interp::memory::credit(self.charged.get());
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
        crate::interp::memory::charge(items.capacity() as u64 * crate::interp::memory::SLOT_BYTES);
        PyTuple { items }
    }

    /// The items, leaving this tuple empty (its charge is credited).
    pub fn take(&mut self) -> Vec<Value<'a>> {
        crate::interp::memory::credit(
            self.items.capacity() as u64 * crate::interp::memory::SLOT_BYTES,
        );
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

    /// The slot of the string key `name` (a str key equals only a str: what attribute
    /// lookups through an object's live `__dict__` ask).
    pub fn find_str(&self, name: &str) -> Option<usize> {
        let slots = self.index.get(&super::hash_bytes(name.as_bytes()))?;
        slots
            .iter()
            .map(|&i| i as usize)
            .find(|&i| matches!(&self.entries[i], Some((Value::Str(k), _, _)) if &**k == name))
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
        let cost = self.entries.capacity() as u64 * crate::interp::memory::DICT_ENTRY_BYTES;
        if cost > self.charged {
            crate::interp::memory::charge(cost - self.charged);
        } else {
            crate::interp::memory::credit(self.charged - cost);
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
