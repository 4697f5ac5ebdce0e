//! Variable scopes: a frame's locals in slots numbered by the body's [`ScopeInfo`], every other
//! name in an ordered map, with a version the global load cache checks.

use std::rc::Rc;

use super::{Mut, NameMap, Value};
use crate::interp::scope::ScopeInfo;

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
    /// The frame is charged to the run's memory account (a header and its slots), credited when
    /// it is freed: closures and generator calls keep frames alive.
    pub fn for_body(parent: Option<Rc<Scope<'a>>>, info: &Rc<ScopeInfo>) -> Rc<Self> {
        use crate::interp::memory::{charge, OBJECT_BYTES, SLOT_BYTES};
        let charged = OBJECT_BYTES + info.locals.len() as u64 * SLOT_BYTES;
        charge(charged);
        let vars = Vars {
            slots: Mut::new(vec![None; info.locals.len()]),
            layout: Some(info.clone()),
            charged,
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
    /// Bytes charged to the run's memory account for a frame's slots (see [`Scope::for_body`]).
    charged: u64,
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

    /// Unbinds every variable; gives their values (dropped by the caller).
    pub fn take_all(&self) -> Vec<Value<'a>> {
        self.bump();
        let slots = std::mem::take(&mut *self.slots.borrow_mut());
        let map = std::mem::take(&mut *self.map.borrow_mut());
        slots.into_iter().flatten().chain(map.into_values()).collect()
    }

    /// Calls `f` with every bound value; `false` (nothing visited) while the variables are being
    /// written (for the cycle collector).
    pub(crate) fn try_for_each(&self, mut f: impl FnMut(&Value<'a>)) -> bool {
        let (Some(slots), Some(map)) = (self.slots.try_borrow(), self.map.try_borrow()) else {
            return false;
        };
        slots.iter().flatten().chain(map.values()).for_each(&mut f);
        true
    }

    /// Unbinds every variable unless they are borrowed, not reported as a write (for emptying
    /// a frame nothing reaches any more: the cycle collector's garbage); gives their values.
    pub(crate) fn take_all_unseen(&self) -> Vec<Value<'a>> {
        let (Some(mut slots), Some(mut map)) =
            (self.slots.try_borrow_mut_unseen(), self.map.try_borrow_mut_unseen())
        else {
            return Vec::new();
        };
        self.bump();
        let slots = std::mem::take(&mut *slots);
        let map = std::mem::take(&mut *map);
        slots.into_iter().flatten().chain(map.into_values()).collect()
    }

    /// What was charged for these variables (credited when their scope is freed).
    pub(super) fn charged(&self) -> u64 {
        self.charged
    }

    /// Every bound value, leaving the variables empty (for freeing without recursion).
    pub(super) fn drain(&mut self) -> impl Iterator<Item = Value<'a>> {
        let slots = std::mem::take(self.slots.get_mut());
        let map = std::mem::take(self.map.get_mut());
        slots.into_iter().flatten().chain(map.into_values())
    }
}
