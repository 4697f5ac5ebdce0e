//! `ast.AST` instances: field values by index, positions kept as the parsed [`Loc`] until written.

use std::cell::RefCell;

use std::rc::Rc;

use super::{hash_bytes, Mut, PyDict, Str, Value};
#[cfg(feature = "fast-parse")]
use crate::interp::stdlib::ast::Pending;
use crate::python::node::{Loc, NodeClass};

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
    /// Attributes outside `_fields` and `_attributes` (e.g. a `parent` link a test adds), boxed
    /// when the first is set: most nodes never get one, and a smaller node object is fewer
    /// cache lines for every `ast.walk` to bring in.
    extra: RefCell<Option<Box<Extra<'a>>>>,
    /// Whether the run's object list holds it (see [`Self::note_once`]).
    noted: std::cell::Cell<bool>,
    /// Whether `__dict__` was asked for: from then on the dict (the first entry of `extra`,
    /// under [`LIVE_KEY`]) holds the node's values, and `vals` and the rest of `extra` are
    /// copies refreshed when read as a whole ([`Self::fields`], [`Self::extra`]).
    live: std::cell::Cell<bool>,
    /// Whether the fields are still to be converted (the conversion waits in `extra`'s
    /// `pending`): a statement of a parse nothing has read yet ([`Self::lazy`]).
    lazy: std::cell::Cell<bool>,
}

/// A node's extra attributes ([`NodeObj::extra`]).
#[derive(Default)]
struct Extra<'a> {
    items: Vec<(Str, Value<'a>)>,
    /// A lazy node's conversion ([`NodeObj::lazy`]).
    #[cfg(feature = "fast-parse")]
    pending: Option<Box<Pending<'a>>>,
    /// Bytes charged to the run's memory account for `items`' capacity (synced after every
    /// write, as an instance's attribute map is), credited when the node is freed.
    charged: std::cell::Cell<u64>,
}

/// The key of a live node's `__dict__` in its `extra` (no attribute name can be it).
const LIVE_KEY: &str = "\0__dict__";

/// A node object's values; see [`NodeObj`].
pub(crate) type NodeVals<'a> = smallvec::SmallVec<[Option<Value<'a>>; 3]>;

impl<'a> NodeObj<'a> {
    /// A node with every field and attribute unset (what `ast.X()` starts from).
    pub fn blank(class: &'static NodeClass) -> Self {
        Self::charge_header(class);
        NodeObj {
            class,
            vals: RefCell::new(
                smallvec::smallvec![None; class.fields.len() + class.attributes.len()],
            ),
            loc: None,
            born: crate::interp::isolation::current(),
            extra: RefCell::new(None),
            noted: std::cell::Cell::new(false),
            live: std::cell::Cell::new(false),
            lazy: std::cell::Cell::new(false),
        }
    }

    /// A parsed node: its field values (unset ones padded) and its positions.
    pub fn parsed(class: &'static NodeClass, fields: NodeVals<'a>, loc: Option<Loc>) -> Self {
        let mut fields = fields;
        if fields.len() != class.fields.len() {
            fields.resize(class.fields.len(), None);
        }
        Self::charge_header(class);
        NodeObj {
            class,
            vals: RefCell::new(fields),
            loc,
            born: crate::interp::isolation::current(),
            extra: RefCell::new(None),
            noted: std::cell::Cell::new(false),
            live: std::cell::Cell::new(false),
            lazy: std::cell::Cell::new(false),
        }
    }

    /// A parsed statement whose fields `pending` converts when they are first read: most
    /// statements of a parse are never read, only passed over by a filtered `ast.walk`.
    #[cfg(feature = "fast-parse")]
    pub(crate) fn lazy(
        class: &'static NodeClass,
        loc: Option<Loc>,
        pending: Box<Pending<'a>>,
    ) -> Self {
        let n = Self::parsed(class, NodeVals::new(), loc);
        *n.extra.borrow_mut() =
            Some(Box::new(Extra { pending: Some(pending), ..Extra::default() }));
        n.lazy.set(true);
        n
    }

    /// How many nodes below this one a walk accepting class buckets `accept` may pass over
    /// without converting them: all of them when it is still lazy and none of its nodes is in
    /// those buckets.
    #[cfg(feature = "fast-parse")]
    #[inline]
    pub(crate) fn skippable(&self, accept: u64) -> Option<u32> {
        if !self.lazy.get() {
            return None;
        }
        let extra = self.extra.try_borrow().ok()?;
        let p = extra.as_ref()?.pending.as_ref()?;
        (p.below & accept == 0).then_some(p.count)
    }

    #[inline]
    fn force(&self) {
        if self.lazy.get() {
            self.force_slow();
        }
    }

    /// Converts a lazy node's fields (not a write: the node looks as if it had them all along).
    #[cold]
    #[inline(never)]
    fn force_slow(&self) {
        self.lazy.set(false);
        #[cfg(feature = "fast-parse")]
        {
            let pending = self.extra.borrow_mut().as_mut().and_then(|e| e.pending.take());
            if let Some(v) = pending.and_then(|p| p.fill(self.born)) {
                let mut v = v;
                v.resize(self.class.fields.len(), None);
                *self.vals.borrow_mut() = v;
            }
        }
    }

    /// The fields, taken (from a node built only to fill a lazy one).
    #[cfg_attr(not(feature = "fast-parse"), allow(dead_code))] // only the fast parse path uses it
    pub(crate) fn take_vals(&self) -> NodeVals<'a> {
        self.force();
        std::mem::take(&mut *self.vals.borrow_mut())
    }

    /// `true` the first time it is asked (the caller then notes the node in the run's object
    /// list). A parsed node holds only its children, field lists (noted when made) and
    /// constants, so it can be on a cycle only once a test writes to it: noting it at its first
    /// write, not when `ast.parse` makes it, saves the list an entry per node of every parse.
    pub fn note_once(&self) -> bool {
        !self.noted.replace(true)
    }

    /// What a node costs the run's memory account besides its extra attributes: a header and a
    /// slot per field and attribute (charged when made, credited when freed).
    fn header_cost(class: &NodeClass) -> u64 {
        use crate::interp::memory::{OBJECT_BYTES, SLOT_BYTES};
        OBJECT_BYTES + (class.fields.len() + class.attributes.len()) as u64 * SLOT_BYTES
    }

    fn charge_header(class: &NodeClass) {
        crate::interp::memory::charge(Self::header_cost(class));
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

    /// The name of value `i` (fields, then attributes).
    fn name_of(&self, i: usize) -> Option<&'static str> {
        let nf = self.class.fields.len();
        if i < nf {
            self.class.fields.get(i).copied()
        } else {
            self.class.attributes.get(i - nf).copied()
        }
    }

    /// The live `__dict__`, if it was asked for.
    pub fn live_dict(&self) -> Option<Rc<Mut<PyDict<'a>>>> {
        if !self.live.get() {
            return None;
        }
        match self.extra.borrow().as_ref().and_then(|e| e.items.first()) {
            Some((k, Value::Dict(d))) if &**k == LIVE_KEY => Some(d.clone()),
            _ => None,
        }
    }

    /// Makes `d` (empty) the node's `__dict__`: its values, then extra attributes, become `d`'s
    /// entries, which from then on are the node's values.
    pub fn make_live(&self, d: Rc<Mut<PyDict<'a>>>) {
        if self.live.get() {
            return;
        }
        let n = self.class.fields.len() + self.class.attributes.len();
        let mut pairs: Vec<(Str, Value<'a>)> = Vec::new();
        for i in 0..n {
            if let (Some(name), Some(v)) = (self.name_of(i), self.get(i)) {
                pairs.push((Rc::from(name), v));
            }
        }
        pairs.extend(self.extra().iter().cloned());
        {
            let mut m = d.borrow_mut();
            for (k, v) in pairs {
                let h = hash_bytes(k.as_bytes());
                m.insert_new(Value::Str(k), v, h);
            }
        }
        self.extra_mut().insert(0, (Rc::from(LIVE_KEY), Value::Dict(d)));
        self.live.set(true);
    }

    /// A live node's value for `name`.
    fn live_get(&self, d: &Mut<PyDict<'a>>, name: &str) -> Option<Value<'a>> {
        let m = d.borrow();
        let slot = m.find_str(name)?;
        m.entries.get(slot)?.as_ref().map(|(_, v, _)| v.clone())
    }

    /// Sets (or with `None` removes) a live node's `name`; gives the previous value.
    pub fn live_set(&self, name: &str, v: Option<Value<'a>>) -> Option<Value<'a>> {
        let d = self.live_dict()?;
        let mut m = d.borrow_mut();
        let slot = m.find_str(name);
        match (slot, v) {
            (Some(s), Some(v)) => {
                let e = m.entries.get_mut(s)?.as_mut()?;
                Some(std::mem::replace(&mut e.1, v))
            }
            (Some(s), None) => m.remove_slot(s).map(|(_, v)| v),
            (None, Some(v)) => {
                m.insert_new(Value::str(name), v, hash_bytes(name.as_bytes()));
                None
            }
            (None, None) => None,
        }
    }

    /// Value `i` (fields, then attributes); `None` when unset.
    pub fn get(&self, i: usize) -> Option<Value<'a>> {
        self.force();
        if self.live.get() {
            let d = self.live_dict()?;
            return self.live_get(&d, self.name_of(i)?);
        }
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
        self.force();
        if self.live.get() {
            return self.live_set(self.name_of(i)?, v);
        }
        crate::interp::isolation::note_write(self.born);
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
    #[inline]
    pub fn fields(&self) -> std::cell::Ref<'_, [Option<Value<'a>>]> {
        self.force();
        let n = self.class.fields.len();
        if self.live.get() {
            self.refresh_fields();
        }
        std::cell::Ref::map(self.vals.borrow(), |v| &v[..n.min(v.len())])
    }

    /// A live node's `_fields` values copied from its `__dict__` into `vals` (out of line: the
    /// common case, `ast.walk` over parsed nodes, never needs it).
    #[cold]
    #[inline(never)]
    fn refresh_fields(&self) {
        let n = self.class.fields.len();
        let fresh: Vec<Option<Value<'a>>> = (0..n).map(|i| self.get(i)).collect();
        let mut vals = self.vals.borrow_mut();
        vals.truncate(n);
        for (i, v) in fresh.into_iter().enumerate() {
            match vals.get_mut(i) {
                Some(slot) => *slot = v,
                None => vals.push(v),
            }
        }
    }

    /// The attributes outside `_fields` and `_attributes`, in the order they were set.
    /// A live node's are its dict's other string keys (after the [`LIVE_KEY`] entry).
    pub fn extra(&self) -> std::cell::Ref<'_, [(Str, Value<'a>)]> {
        if let Some(d) = self.live_dict() {
            let own: Vec<(Str, Value<'a>)> = d
                .borrow()
                .iter()
                .filter_map(|(k, v)| match k {
                    Value::Str(k) if self.index_of(k).is_none() => Some((k.clone(), v.clone())),
                    _ => None,
                })
                .collect();
            let mut extra = self.extra_mut();
            extra.truncate(1);
            extra.extend(own);
        }
        std::cell::Ref::map(self.extra.borrow(), |e| match e {
            Some(e) => &e.items[..],
            None => &[],
        })
    }

    /// Writable [`Self::extra`]: a write, for the isolation of the running method. Its capacity
    /// is charged to the run's memory account when the write ends.
    pub fn extra_mut(&self) -> ExtraMut<'_, 'a> {
        crate::interp::isolation::note_write(self.born);
        ExtraMut {
            extra: std::cell::RefMut::map(self.extra.borrow_mut(), |e| {
                &mut **e.get_or_insert_with(Box::default)
            }),
        }
    }

    /// Calls `f` with every value the node holds (fields, attributes written, extra
    /// attributes); `false` (nothing visited) while they are being written (for the cycle
    /// collector). Positions still in the parsed `Loc` are ints, not visited.
    pub(crate) fn try_for_each(&self, mut f: impl FnMut(&Value<'a>)) -> bool {
        let (Ok(vals), Ok(extra)) = (self.vals.try_borrow(), self.extra.try_borrow()) else {
            return false;
        };
        let extra = extra.as_ref().map_or(&[][..], |e| &e.items[..]);
        vals.iter().flatten().chain(extra.iter().map(|(_, v)| v)).for_each(&mut f);
        true
    }

    /// Every value the node holds, leaving it with none set, unless they are borrowed; not
    /// reported as a write (for emptying nodes nothing reaches any more: when a run ends, or
    /// the cycle collector's garbage).
    pub(crate) fn take_all(&self) -> Vec<Value<'a>> {
        let (Ok(mut vals), Ok(mut extra)) =
            (self.vals.try_borrow_mut(), self.extra.try_borrow_mut())
        else {
            return Vec::new();
        };
        self.lazy.set(false);
        let mut out: Vec<Value<'a>> = vals.iter_mut().filter_map(Option::take).collect();
        if let Some(e) = extra.take() {
            super::sync_charge(&e.charged, 0);
            out.extend(e.items.into_iter().map(|(_, v)| v));
        }
        out
    }

    /// Every value, fields then attributes (`None`: unset).
    pub fn values(&self) -> Vec<Option<Value<'a>>> {
        let n = self.class.fields.len() + self.class.attributes.len();
        (0..n).map(|i| self.get(i)).collect()
    }
}

/// A write to a node's extra attributes; their capacity is charged when it ends.
pub struct ExtraMut<'b, 'a> {
    extra: std::cell::RefMut<'b, Extra<'a>>,
}

impl<'a> std::ops::Deref for ExtraMut<'_, 'a> {
    type Target = Vec<(Str, Value<'a>)>;
    fn deref(&self) -> &Self::Target {
        &self.extra.items
    }
}

impl std::ops::DerefMut for ExtraMut<'_, '_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.extra.items
    }
}

impl Drop for ExtraMut<'_, '_> {
    fn drop(&mut self) {
        let cost = self.extra.items.capacity() as u64 * crate::interp::memory::DICT_ENTRY_BYTES;
        super::sync_charge(&self.extra.charged, cost);
    }
}

/// A node's charges are credited when it is freed.
impl Drop for NodeObj<'_> {
    fn drop(&mut self) {
        let extra = self.extra.get_mut().as_ref().map_or(0, |e| e.charged.get());
        crate::interp::memory::credit(Self::header_cost(self.class) + extra);
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
        let n = NodeObj::parsed(name, smallvec::smallvec![Some(Value::str("x"))], Some(loc));
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

        let deleted = NodeObj::parsed(name, smallvec::smallvec![Some(Value::str("x"))], Some(loc));
        assert!(matches!(deleted.set(2, None), Some(Value::Int(3))));
        assert_eq!(ints(&deleted.values()[2..]), [None, Some(4), Some(5), Some(6)]);

        let unplaced = NodeObj::parsed(name, smallvec::smallvec![Some(Value::str("x"))], None);
        assert_eq!(ints(&unplaced.values()[2..]), [None, None, None, None]);
        assert!(unplaced.set(5, Some(Value::Int(1))).is_none());
        assert_eq!(ints(&unplaced.values()[2..]), [None, None, None, Some(1)]);

        let blank = NodeObj::blank(name);
        assert_eq!(ints(&blank.values()), [None; 6]);
        Ok(())
    }
}
#[cfg(all(test, target_pointer_width = "64"))]
mod sizes {
    /// A `Value` is 24 bytes (a boxed `range`), and a node object with its `Rc` header fits
    /// mimalloc's 160-byte size class: `ast.parse` makes one per node and `ast.walk` reads
    /// them all, so each byte here is paid per node (see `cli/benches/score.rs`).
    #[test]
    fn values_and_node_objects_stay_small() {
        assert_eq!(std::mem::size_of::<super::Value<'static>>(), 24);
        assert!(std::mem::size_of::<super::NodeObj<'static>>() + 16 <= 160);
    }
}
