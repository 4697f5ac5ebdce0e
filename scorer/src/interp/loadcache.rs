//! What the global or builtin name at a load site of a function body resolved to.
//!
//! A load site is the identifier's text in the syntax tree, alive and unmoved for the whole run,
//! so its address names it. The cache is direct-mapped (one entry per address bucket, a colliding
//! site evicts the other): a probe is an index and two compares instead of a hash-map lookup, and
//! name loads are the interpreter's hottest path (`isinstance`, `ast` in every `ast.walk` loop).

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
}
