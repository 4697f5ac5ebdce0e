//! Whether a test method changed state that outlives it, so that a later run may reuse its verdict
//! without running it (see [`crate::unittest::Scorer`]).
//!
//! Every mutable object records the *generation* it was born in. Code outside test methods runs
//! in generation [`SHARED`]; each test method (with its `setUp` and `tearDown`) runs in a fresh
//! generation. A write to an object born in another generation than the running one is a write to
//! state the method did not create: the method is then *not isolated*, and nothing after it may be
//! answered from a previous run. A method that writes only to objects it made leaves the rest of
//! the run exactly as it found it, so skipping it changes nothing another method can see.
//!
//! Writes are noticed at the one door they all go through: [`Mut::borrow_mut`] (and
//! [`note_write`] for the few objects that keep their own cells, like `ast` node objects). Tables
//! of the interpreter that outlive a method and are filled lazily (imported modules, the shared
//! field-less `ast` nodes) make their objects inside [`shared`], so those are born [`SHARED`] and a
//! later write to them counts.

use std::cell::{Cell, Ref, RefCell, RefMut};

/// The generation of everything made outside test methods.
pub(crate) const SHARED: u32 = 0;

thread_local! {
    /// Generation objects are born in now.
    static CURRENT: Cell<u32> = const { Cell::new(SHARED) };
    /// Last generation handed out (generations are never reused on a thread).
    static LAST: Cell<u32> = const { Cell::new(SHARED) };
    /// Whether the running method wrote to an object born in another generation.
    static ESCAPED: Cell<bool> = const { Cell::new(false) };
}

/// The generation objects are born in now.
#[inline]
pub(crate) fn current() -> u32 {
    CURRENT.with(Cell::get)
}

/// Records a write to an object born in generation `born`.
#[inline]
pub(crate) fn note_write(born: u32) {
    if born != current() {
        ESCAPED.with(|e| e.set(true));
    }
}

/// A test method's generation: objects it makes are its own until it ends.
#[must_use = "end the method's generation with `Method::end`"]
pub(crate) struct Method {
    previous: u32,
}

impl Method {
    /// Starts a fresh generation for one test method. `None` when this thread has used every
    /// generation number: the caller must then treat every method as not isolated.
    pub(crate) fn start() -> Option<Method> {
        let next = LAST.with(Cell::get).checked_add(1)?;
        LAST.with(|l| l.set(next));
        ESCAPED.with(|e| e.set(false));
        let previous = CURRENT.with(|c| c.replace(next));
        Some(Method { previous })
    }

    /// Ends the method's generation; whether it wrote only to objects it made.
    pub(crate) fn end(self) -> bool {
        CURRENT.with(|c| c.set(self.previous));
        !ESCAPED.with(|e| e.replace(false))
    }
}

/// Runs `make` with objects born [`SHARED`]: for tables that outlive the method that fills them.
pub(crate) fn shared<T>(make: impl FnOnce() -> T) -> T {
    born_in(SHARED, make)
}

/// Runs `make` with objects born in generation `born`: parts of an object made later than it
/// but counted as made with it (a lazily converted `ast` statement's fields).
pub(crate) fn born_in<T>(born: u32, make: impl FnOnce() -> T) -> T {
    let previous = CURRENT.with(|c| c.replace(born));
    let out = make();
    CURRENT.with(|c| c.set(previous));
    out
}

/// A `RefCell` that remembers the generation its value was born in and reports writes from
/// other generations (see the module doc).
pub struct Mut<T> {
    born: u32,
    cell: RefCell<T>,
}

impl<T> Mut<T> {
    #[inline]
    pub fn new(value: T) -> Self {
        Mut { born: current(), cell: RefCell::new(value) }
    }

    /// A value counted as born in generation `born` (a new representation of an older object's
    /// state).
    pub fn with_born(value: T, born: u32) -> Self {
        Mut { born, cell: RefCell::new(value) }
    }

    /// The generation the value was born in.
    pub fn born(&self) -> u32 {
        self.born
    }

    #[inline]
    pub fn borrow(&self) -> Ref<'_, T> {
        self.cell.borrow()
    }

    /// Mutable access: a write, for the isolation of the running method.
    #[inline]
    pub fn borrow_mut(&self) -> RefMut<'_, T> {
        note_write(self.born);
        self.cell.borrow_mut()
    }

    /// Shared access unless the value is being written (for the cycle collector, which may
    /// run while the evaluator writes to some object).
    pub fn try_borrow(&self) -> Option<Ref<'_, T>> {
        self.cell.try_borrow().ok()
    }

    /// Mutable access unless the value is borrowed, not reported as a write: for emptying
    /// objects nothing can reach any more ([`crate::interp::memory::Objects::collect`]), which
    /// no method can see.
    pub(crate) fn try_borrow_mut_unseen(&self) -> Option<RefMut<'_, T>> {
        self.cell.try_borrow_mut().ok()
    }

    /// Mutable access unless the value is borrowed (for emptying objects when a run ends).
    pub fn try_borrow_mut(&self) -> Option<RefMut<'_, T>> {
        note_write(self.born);
        self.cell.try_borrow_mut().ok()
    }

    pub fn into_inner(self) -> T {
        self.cell.into_inner()
    }

    /// Exclusive access (no other reference exists, e.g. while the owner is dropped): not a
    /// write another method could see.
    pub fn get_mut(&mut self) -> &mut T {
        self.cell.get_mut()
    }
}

impl<T: Default> Default for Mut<T> {
    fn default() -> Self {
        Mut::new(T::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_method_is_isolated_until_it_writes_to_an_object_it_did_not_make(
    ) -> Result<(), &'static str> {
        let start = || Method::start().ok_or("generations used up");
        let outside = Mut::new(vec![1]);
        let m = start()?;
        let own = Mut::new(vec![2]);
        own.borrow_mut().push(3);
        let _ = outside.borrow();
        assert!(m.end(), "reads and writes to its own objects keep it isolated");

        let m = start()?;
        outside.borrow_mut().push(4);
        assert!(!m.end(), "a write to an object from before the method");

        // An object made by one method and written by the next is not the next one's own.
        let m = start()?;
        let kept = Mut::new(0);
        assert!(m.end());
        let m = start()?;
        *kept.borrow_mut() += 1;
        assert!(!m.end());

        // Objects made for a lazily filled table are shared, even inside a method.
        let m = start()?;
        let table = shared(|| Mut::new(Vec::<u8>::new()));
        assert!(m.end());
        let m = start()?;
        table.borrow_mut().push(1);
        assert!(!m.end());
        // Outside methods nothing is tracked against anyone.
        table.borrow_mut().push(2);
        assert_eq!(current(), SHARED);
        Ok(())
    }
}
