//! CPython 3.11's hashes under `PYTHONHASHSEED=0` (SipHash-1-3 with a zero key for str/bytes, the
//! numeric hash for ints, xxHash-style for tuples) and its set table layout, so sets iterate and print
//! in the order the official harness (seed 0) shows. Objects hashed by address (None, nodes,
//! instances) have no reproducible order; sets holding them keep insertion order.

use num_traits::ToPrimitive;

use std::rc::Rc;

use super::value::{PyDict, Value};

#[inline]
fn half_round(a: &mut u64, b: &mut u64, c: &mut u64, d: &mut u64, s: u32, t: u32) {
    *a = a.wrapping_add(*b);
    *c = c.wrapping_add(*d);
    *b = b.rotate_left(s) ^ *a;
    *d = d.rotate_left(t) ^ *c;
    *a = a.rotate_left(32);
}

#[inline]
fn single_round(v0: &mut u64, v1: &mut u64, v2: &mut u64, v3: &mut u64) {
    half_round(v0, v1, v2, v3, 13, 16);
    half_round(v2, v1, v0, v3, 17, 21);
}

/// CPython's `siphash13` with k0 = k1 = 0.
pub(crate) fn siphash13(data: &[u8]) -> u64 {
    let (k0, k1) = (0u64, 0u64);
    let mut b: u64 = (data.len() as u64) << 56;
    let mut v0 = k0 ^ 0x736f_6d65_7073_6575;
    let mut v1 = k1 ^ 0x646f_7261_6e64_6f6d;
    let mut v2 = k0 ^ 0x6c79_6765_6e65_7261;
    let mut v3 = k1 ^ 0x7465_6462_7974_6573;
    let mut chunks = data.chunks_exact(8);
    for c in &mut chunks {
        let mut buf = [0u8; 8];
        buf.copy_from_slice(c);
        let mi = u64::from_le_bytes(buf);
        v3 ^= mi;
        single_round(&mut v0, &mut v1, &mut v2, &mut v3);
        v0 ^= mi;
    }
    let rest = chunks.remainder();
    let mut t = [0u8; 8];
    t[..rest.len()].copy_from_slice(rest);
    b |= u64::from_le_bytes(t);
    v3 ^= b;
    single_round(&mut v0, &mut v1, &mut v2, &mut v3);
    v0 ^= b;
    v2 ^= 0xff;
    single_round(&mut v0, &mut v1, &mut v2, &mut v3);
    single_round(&mut v0, &mut v1, &mut v2, &mut v3);
    single_round(&mut v0, &mut v1, &mut v2, &mut v3);
    (v0 ^ v1) ^ (v2 ^ v3)
}

fn bytes_hash(data: &[u8]) -> i64 {
    if data.is_empty() {
        return 0;
    }
    let x = siphash13(data) as i64;
    if x == -1 {
        -2
    } else {
        x
    }
}

fn str_hash(s: &str) -> i64 {
    let max = s.chars().map(|c| c as u32).max().unwrap_or(0);
    let mut buf = Vec::with_capacity(s.len() * 2);
    if max <= 0xff {
        buf.extend(s.chars().map(|c| c as u32 as u8));
    } else if max <= 0xffff {
        for c in s.chars() {
            buf.extend_from_slice(&(c as u32 as u16).to_le_bytes());
        }
    } else {
        for c in s.chars() {
            buf.extend_from_slice(&(c as u32).to_le_bytes());
        }
    }
    bytes_hash(&buf)
}

const MODULUS: i128 = (1i128 << 61) - 1;

fn int_hash(n: i128) -> i64 {
    let m = n.abs() % MODULUS;
    let h = if n < 0 { -m } else { m } as i64;
    if h == -1 {
        -2
    } else {
        h
    }
}

/// `hash(v)` as CPython computes it with seed 0, or None when it depends on addresses.
pub(crate) fn py_hash(v: &Value<'_>) -> Option<i64> {
    Some(match v {
        Value::Str(s) => str_hash(s),
        Value::Bytes(b) => bytes_hash(b),
        Value::Int(i) => int_hash(i128::from(*i)),
        Value::Bool(b) => i64::from(*b),
        Value::Big(b) => {
            let m = num_bigint::BigInt::from(MODULUS);
            let r = (b.as_ref() % &m).to_i64()?;
            if r == -1 {
                -2
            } else {
                r
            }
        }
        Value::Float(f) if f.fract() == 0.0 && f.abs() < 1e18 => int_hash(*f as i128),
        // `hash(real) + 1000003 * hash(imag)` (reproducible when both parts are integral).
        Value::Complex(r, i) => {
            let hr = py_hash(&Value::Float(*r))? as u64;
            let hi = py_hash(&Value::Float(*i))? as u64;
            let h = hr.wrapping_add(hi.wrapping_mul(1_000_003)) as i64;
            if h == -1 {
                -2
            } else {
                h
            }
        }
        Value::Tuple(t) => {
            const P1: u64 = 11400714785074694791;
            const P2: u64 = 14029467366897019727;
            const P5: u64 = 2870177450012600261;
            let mut acc: u64 = P5;
            for x in t.iter() {
                let lane = py_hash(x)? as u64;
                acc = acc.wrapping_add(lane.wrapping_mul(P2));
                acc = acc.rotate_left(31);
                acc = acc.wrapping_mul(P1);
            }
            acc = acc.wrapping_add((t.len() as u64) ^ (P5 ^ 3527539));
            if acc == u64::MAX {
                1546275796
            } else {
                acc as i64
            }
        }
        _ => return None,
    })
}

const LINEAR_PROBES: usize = 9;
const PERTURB_SHIFT: u32 = 5;

/// One slot of a CPython 3.11 set table: the key is named by an id (an entry index of the set's
/// [`PyDict`], or an index into an operation's pool of keys).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Slot {
    Empty,
    Dummy,
    Key(u32, u64),
}

/// A model of a `PySetObject`'s table (`Objects/setobject.c` of 3.11): where each key sits, so
/// iteration (table order) and the results of set operations come out as CPython's do.
#[derive(Clone, Debug)]
pub(crate) struct Table {
    slots: Vec<Slot>,
    fill: usize,
    used: usize,
}

impl Default for Table {
    fn default() -> Self {
        Table { slots: vec![Slot::Empty; 8], fill: 0, used: 0 }
    }
}

impl Table {
    fn mask(&self) -> usize {
        self.slots.len() - 1
    }

    pub(crate) fn len(&self) -> usize {
        self.used
    }

    /// `set_insert_clean`: the first empty slot of the probe sequence (no dummies, no equal key).
    fn insert_clean(slots: &mut [Slot], id: u32, hash: u64) {
        let mask = slots.len() - 1;
        let mut perturb = hash;
        let mut i = (hash as usize) & mask;
        loop {
            if slots[i] == Slot::Empty {
                slots[i] = Slot::Key(id, hash);
                return;
            }
            if i + LINEAR_PROBES <= mask {
                for j in 1..=LINEAR_PROBES {
                    if slots[i + j] == Slot::Empty {
                        slots[i + j] = Slot::Key(id, hash);
                        return;
                    }
                }
            }
            perturb >>= PERTURB_SHIFT;
            i = (i.wrapping_mul(5).wrapping_add(1).wrapping_add(perturb as usize)) & mask;
        }
    }

    /// `set_table_resize`: the smallest power of two above `minused` (at least 8), the keys
    /// reinserted in table order, dummies dropped.
    fn resize(&mut self, minused: usize) {
        let mut newsize = 8usize;
        while newsize <= minused {
            newsize <<= 1;
        }
        let old = std::mem::replace(&mut self.slots, vec![Slot::Empty; newsize]);
        for s in old {
            if let Slot::Key(id, h) = s {
                Self::insert_clean(&mut self.slots, id, h);
            }
        }
        self.fill = self.used;
    }

    /// `set_add_entry` for a key known to be absent: the last dummy met on the probe sequence is
    /// reused, else the empty slot that ends it (then the table may grow).
    pub(crate) fn add_new(&mut self, id: u32, hash: u64) {
        let mask = self.mask();
        let mut perturb = hash;
        let mut i = (hash as usize) & mask;
        let mut freeslot: Option<usize> = None;
        let found = 'probe: loop {
            let probes = if i + LINEAR_PROBES <= mask { LINEAR_PROBES } else { 0 };
            for j in i..=i + probes {
                match self.slots[j] {
                    Slot::Empty => break 'probe j,
                    // the last dummy of the probe sequence, as 3.11's `set_add_entry` keeps it
                    Slot::Dummy => freeslot = Some(j),
                    _ => {}
                }
            }
            perturb >>= PERTURB_SHIFT;
            i = (i.wrapping_mul(5).wrapping_add(1).wrapping_add(perturb as usize)) & mask;
        };
        self.used += 1;
        if let Some(f) = freeslot {
            self.slots[f] = Slot::Key(id, hash);
            return;
        }
        self.slots[found] = Slot::Key(id, hash);
        self.fill += 1;
        if self.fill * 5 >= mask * 3 {
            let used = self.used;
            self.resize(if used > 50000 { used * 2 } else { used * 4 });
        }
    }

    /// `set_discard_entry`: the key's slot becomes a dummy.
    pub(crate) fn discard(&mut self, id: u32) {
        if let Some(s) = self.slots.iter_mut().find(|s| matches!(s, Slot::Key(k, _) if *k == id)) {
            *s = Slot::Dummy;
            self.used -= 1;
        }
    }

    /// The keys (id, hash) in table order: CPython's iteration order.
    pub(crate) fn keys(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        self.slots.iter().filter_map(|s| match s {
            Slot::Key(id, h) => Some((*id, *h)),
            _ => None,
        })
    }

    /// `set_merge(self, other)` (`update`, `|`, and every copy of a set): one presize, then a
    /// slot-for-slot copy into an empty table of the same size, clean inserts into any other
    /// empty table, or ordinary adds of the keys `is_new` accepts.
    pub(crate) fn merge(&mut self, other: &Table, is_new: &mut dyn FnMut(u32) -> bool) {
        if other.used == 0 {
            return;
        }
        if (self.fill + other.used) * 5 >= self.mask() * 3 {
            self.resize((self.used + other.used) * 2);
        }
        if self.fill == 0 && self.mask() == other.mask() && other.fill == other.used {
            self.slots.clone_from(&other.slots);
            self.fill = other.fill;
            self.used = other.used;
            return;
        }
        if self.fill == 0 {
            self.fill = other.used;
            self.used = other.used;
            for (id, h) in other.keys() {
                Self::insert_clean(&mut self.slots, id, h);
            }
            return;
        }
        for (id, h) in other.keys() {
            if is_new(id) {
                self.add_new(id, h);
            }
        }
    }

    /// The presize `set_update_internal` does before adding a dict's keys.
    pub(crate) fn presize_for(&mut self, n: usize) {
        if (self.fill + n) * 5 >= self.mask() * 3 {
            self.resize((self.used + n) * 2);
        }
    }

    /// `set_difference_update_internal`'s last step: drop the dummies when over a quarter.
    pub(crate) fn after_discards(&mut self) {
        if self.fill - self.used > self.mask() / 4 {
            let used = self.used;
            self.resize(if used > 50000 { used * 2 } else { used * 4 });
        }
    }

    /// The table as a [`PyDict::pinned`] layout: a tag, the number of entries it covers, then one
    /// code per slot (`entry_of` an id, or the empty and dummy codes).
    pub(crate) fn to_pin(&self, entries: usize, entry_of: &dyn Fn(u32) -> u32) -> Rc<[u32]> {
        let mut out = Vec::with_capacity(self.slots.len() + 2);
        out.push(PIN_TAG);
        out.push(u32::try_from(entries).unwrap_or(u32::MAX));
        out.extend(self.slots.iter().map(|s| match s {
            Slot::Empty => PIN_EMPTY,
            Slot::Dummy => PIN_DUMMY,
            Slot::Key(id, _) => entry_of(*id),
        }));
        out.into()
    }
}

const PIN_TAG: u32 = u32::MAX - 2;
const PIN_EMPTY: u32 = u32::MAX;
const PIN_DUMMY: u32 = u32::MAX - 1;

/// The table of set `d` with ids `base + entry index`, or `None` when a key's hash is not
/// reproducible. From its pinned layout when it has one (later additions added, removed entries
/// as dummies), else by replaying its insertions from an empty table.
pub(crate) fn table_of(d: &PyDict<'_>, base: u32) -> Option<Table> {
    let hash_at = |i: usize| -> Option<Option<u64>> {
        Some(match d.entries.get(i)? {
            Some((k, _, _)) => Some(py_hash(k)? as u64),
            None => None,
        })
    };
    let (mut t, from) = pinned_table(d, base).unwrap_or_default();
    for i in from..d.entries.len() {
        if let Some(h) = hash_at(i)? {
            t.add_new(base + i as u32, h);
        }
    }
    Some(t)
}

/// The pinned layout of `d` and the number of entries it covers, when it still describes them
/// (every live entry it covers in exactly one slot; a compaction of the entries voids it).
fn pinned_table(d: &PyDict<'_>, base: u32) -> Option<(Table, usize)> {
    let p = d.pinned.as_deref()?;
    if p.len() < 10 || p[0] != PIN_TAG {
        return None;
    }
    let covered = p[1] as usize;
    if covered > d.entries.len() {
        return None;
    }
    let live = d.entries[..covered].iter().filter(|e| e.is_some()).count();
    let mut slots = Vec::with_capacity(p.len() - 2);
    let (mut fill, mut used) = (0, 0);
    for &code in &p[2..] {
        let slot = match code {
            PIN_EMPTY => Slot::Empty,
            PIN_DUMMY => Slot::Dummy,
            i if (i as usize) < covered => match &d.entries[i as usize] {
                Some((k, _, _)) => Slot::Key(base + i, py_hash(k)? as u64),
                None => Slot::Dummy,
            },
            _ => return None,
        };
        match slot {
            Slot::Key(..) => {
                fill += 1;
                used += 1;
            }
            Slot::Dummy => fill += 1,
            Slot::Empty => {}
        }
        slots.push(slot);
    }
    (used == live).then_some((Table { slots, fill, used }, covered))
}

/// The table 3.11 gives a set display of three or more constants, or a folded iterable: the
/// compiler folds them into a frozenset (built in source order, or in that of the equal constant
/// compiled first), rebuilds it once in its own order when it merges constants and once more when
/// interning replaces one of its strings (`plan`, see [`super::setplan`]); a display is then
/// `SET_UPDATE`d into an empty set, a folded iterable iterated as it is. `None` when a hash is not
/// reproducible.
pub(crate) fn display_order(
    d: &PyDict<'_>,
    plan: Option<&super::setplan::SetPlan>,
) -> Option<Rc<[u32]>> {
    if d.pinned.is_some() || d.entries.len() != d.len {
        return None;
    }
    let n = d.entries.len();
    let mut t = Table::default();
    let add = |t: &mut Table, i: u32| -> Option<()> {
        let (k, _, _) = d.entries.get(i as usize)?.as_ref()?;
        t.add_new(i, py_hash(k)? as u64);
        Some(())
    };
    match plan.and_then(|p| p.order.as_deref()).filter(|o| o.len() == n) {
        Some(order) => {
            for &i in order {
                add(&mut t, i)?;
            }
        }
        None => {
            for i in 0..n as u32 {
                add(&mut t, i)?;
            }
        }
    }
    let builds = if plan.is_some_and(|p| p.rebuild) { 2 } else { 1 };
    for _ in 0..builds {
        let mut next = Table::default();
        for (i, h) in t.keys() {
            next.add_new(i, h);
        }
        t = next;
    }
    if !plan.is_some_and(|p| p.frozen) {
        let mut set = Table::default();
        set.merge(&t, &mut |_| true);
        t = set;
    }
    Some(t.to_pin(n, &|i| i))
}

/// Keys of a set in CPython's iteration order (insertion order when it cannot be reproduced).
pub(crate) fn ordered_keys<'a>(d: &PyDict<'a>) -> Vec<Value<'a>> {
    match table_of(d, 0) {
        Some(t) => t
            .keys()
            .filter_map(|(i, _)| d.entries.get(i as usize)?.as_ref().map(|(k, _, _)| k.clone()))
            .collect(),
        None => d.keys(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    #[test]
    fn str_hashes_match_cpython_seed0() {
        // PYTHONHASHSEED=0 python3 -c "print(hash('a'), hash('abc'), hash('héllo'), hash('日本'), hash(''))"
        assert_eq!(py_hash(&Value::Str(Rc::from("a"))), Some(4644417185603328019));
        assert_eq!(py_hash(&Value::Str(Rc::from("abc"))), Some(-4594863902769663758));
        assert_eq!(py_hash(&Value::Str(Rc::from("héllo"))), Some(6395329678795984700));
        assert_eq!(py_hash(&Value::Str(Rc::from("日本"))), Some(6243316497235261705));
        let t = Value::tuple(vec![Value::Int(1), Value::Str(Rc::from("a"))]);
        assert_eq!(py_hash(&t), Some(3906047847676358913));
        assert_eq!(py_hash(&Value::Str(Rc::from(""))), Some(0));
        assert_eq!(py_hash(&Value::Int(-1)), Some(-2));
    }
}
