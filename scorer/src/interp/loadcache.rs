//! Per-site caches of name loads: what the global or builtin name at a load site of a function
//! body resolved to ([`GlobalLoads`]), and which slot a local name at a site lives in
//! ([`LocalSites`]), and where in a module's namespace the attribute at a site was found
//! ([`ModuleAttrSites`]).
//!
//! A load site is the identifier's text in the syntax tree, alive and unmoved for the whole run,
//! so its address names it. The caches are direct-mapped (one entry per address bucket, a
//! colliding site evicts the other): a probe is an index and two compares instead of a hash-map
//! lookup, and name loads are the interpreter's hottest path (`node`, `isinstance`, `ast` in
//! every `ast.walk` loop).

use std::rc::Rc;

use super::scope::ScopeInfo;
use super::value::Value;

/// Number of entries (a power of two). A test file has a few hundred load sites.
const ENTRIES: usize = 1024;

#[derive(Default)]
pub struct GlobalLoads<'a> {
    /// `(site address, globals version, value)`; address 0 marks an empty entry.
    entries: Vec<(usize, u64, Option<Value<'a>>)>,
}

fn bucket(site: usize) -> usize {
    // Identifiers are heap strings at least 8 bytes apart: drop the low bits, fold in higher ones.
    ((site >> 3) ^ (site >> 13)) & (ENTRIES - 1)
}

impl<'a> GlobalLoads<'a> {
    /// The value `site` resolved to when the globals were at `version`, if still remembered.
    #[inline]
    pub fn get(&self, site: &str, version: u64) -> Option<&Value<'a>> {
        let addr = site.as_ptr() as usize;
        match self.entries.get(bucket(addr)) {
            Some((a, v, Some(value))) if *a == addr && *v == version => Some(value),
            _ => None,
        }
    }

    /// Remembers what `site` resolved to at globals `version` (evicting a colliding site).
    pub fn put(&mut self, site: &str, version: u64, value: Value<'a>) {
        if self.entries.is_empty() {
            self.entries.resize_with(ENTRIES, || (0, 0, None));
        }
        let addr = site.as_ptr() as usize;
        if let Some(e) = self.entries.get_mut(bucket(addr)) {
            *e = (addr, version, Some(value));
        }
    }
}

/// What [`LocalSites`] remembers for a site whose name is not one of the body's locals.
pub(crate) const NOT_LOCAL: u32 = u32::MAX;

/// The slot of the local name at a site, for the body whose [`ScopeInfo`] numbered it (or
/// [`NOT_LOCAL`]).
#[derive(Default)]
pub struct LocalSites {
    /// `(site address, ScopeInfo address, slot)`; address 0 marks an empty entry.
    entries: Vec<(usize, usize, u32)>,
}

impl LocalSites {
    /// The slot remembered for `site` in a frame of the body `info` describes.
    #[inline]
    pub fn get(&self, site: &str, info: &Rc<ScopeInfo>) -> Option<u32> {
        let addr = site.as_ptr() as usize;
        match self.entries.get(bucket(addr)) {
            Some(&(a, i, slot)) if a == addr && i == Rc::as_ptr(info) as usize => Some(slot),
            _ => None,
        }
    }

    pub fn put(&mut self, site: &str, info: &Rc<ScopeInfo>, slot: u32) {
        if self.entries.is_empty() {
            self.entries.resize(ENTRIES, (0, 0, 0));
        }
        let addr = site.as_ptr() as usize;
        if let Some(e) = self.entries.get_mut(bucket(addr)) {
            *e = (addr, Rc::as_ptr(info) as usize, slot);
        }
    }
}

/// Where the attribute named at a site (`FunctionDef` in `ast.FunctionDef`) sits in a module's
/// namespace: its index in the module dict, for the module at an address. The caller confirms
/// the entry at that index still has the attribute's name, so a stale answer (an entry removed,
/// another module at the same address) is only a miss: the keys of a namespace are unique.
#[derive(Default)]
pub struct ModuleAttrSites {
    /// `(site address, module address, index)`; address 0 marks an empty entry.
    entries: Vec<(usize, usize, u32)>,
}

impl ModuleAttrSites {
    /// The index remembered for `site` in the module at `module`, to be confirmed by the caller.
    #[inline]
    pub fn get(&self, site: &str, module: usize) -> Option<usize> {
        let addr = site.as_ptr() as usize;
        match self.entries.get(bucket(addr)) {
            Some(&(a, m, i)) if a == addr && m == module => Some(i as usize),
            _ => None,
        }
    }

    pub fn put(&mut self, site: &str, module: usize, index: usize) {
        let Ok(index) = u32::try_from(index) else { return };
        if self.entries.is_empty() {
            self.entries.resize(ENTRIES, (0, 0, 0));
        }
        let addr = site.as_ptr() as usize;
        if let Some(e) = self.entries.get_mut(bucket(addr)) {
            *e = (addr, module, index);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_site_is_answered_only_at_the_version_it_was_read_at() {
        let source = String::from("isinstance ast");
        let (a, b) = (&source[..10], &source[11..]);
        let mut c = GlobalLoads::default();
        assert!(c.get(a, 0).is_none());
        c.put(a, 3, Value::Int(1));
        assert!(matches!(c.get(a, 3), Some(Value::Int(1))));
        assert!(c.get(a, 4).is_none(), "the globals changed since");
        // Another site is another entry, even for an equal name at another address.
        let copy = a.to_string();
        assert!(c.get(&copy, 3).is_none());
        c.put(b, 3, Value::Int(2));
        assert!(matches!(c.get(b, 3), Some(Value::Int(2))));
    }

    #[test]
    fn colliding_sites_evict_each_other_and_are_never_confused() {
        let text = "x".repeat(ENTRIES * 8 * 2 + 1);
        // Two sites `ENTRIES * 8` bytes apart fall in buckets that may coincide; whichever was
        // written last is answered, the other is a miss, never the other's value.
        let (a, b) = (&text[..1], &text[ENTRIES * 8..ENTRIES * 8 + 1]);
        let mut c = GlobalLoads::default();
        c.put(a, 0, Value::Int(1));
        c.put(b, 0, Value::Int(2));
        assert!(matches!(c.get(b, 0), Some(Value::Int(2))));
        match c.get(a, 0) {
            None | Some(Value::Int(1)) => {}
            _ => panic!("site a answered with another site's value"),
        }
    }

    #[test]
    fn a_local_site_is_answered_only_for_the_body_that_numbered_it() {
        let source = String::from("node");
        let (one, other) = (Rc::new(ScopeInfo::default()), Rc::new(ScopeInfo::default()));
        let mut c = LocalSites::default();
        assert_eq!(c.get(&source, &one), None);
        c.put(&source, &one, 7);
        assert_eq!(c.get(&source, &one), Some(7));
        assert_eq!(c.get(&source, &other), None);
        assert_eq!(c.get(&source.clone(), &one), None);
    }

    #[test]
    fn a_module_attribute_site_is_answered_only_for_its_module() {
        let source = String::from("FunctionDef");
        let mut c = ModuleAttrSites::default();
        assert_eq!(c.get(&source, 1), None);
        c.put(&source, 1, 7);
        assert_eq!(c.get(&source, 1), Some(7));
        assert_eq!(c.get(&source, 2), None, "another module");
        assert_eq!(c.get(&source.clone(), 1), None, "another site");
    }
}
