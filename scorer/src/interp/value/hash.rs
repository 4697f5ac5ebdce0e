//! Fast hashing for the interpreter's name maps and value dicts (FxHash: keys are trusted
//! identifiers or values whose CPython hash the dicts keep beside them).

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use super::Str;

/// A small, fast, non-cryptographic hasher (FxHash) for name maps: keys are trusted identifiers.
#[derive(Default, Clone, Copy)]
pub struct FxHasher {
    hash: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        // Whole words, then the zero-padded tail (no memcpy call for the short names this hashes).
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            let mut buf = [0u8; 8];
            buf.copy_from_slice(w);
            self.add(u64::from_le_bytes(buf));
        }
        let tail = words.remainder();
        if !tail.is_empty() {
            let mut w = 0u64;
            for (i, b) in tail.iter().enumerate() {
                w |= u64::from(*b) << (8 * i);
            }
            self.add(w);
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    fn finish(&self) -> u64 {
        self.hash
    }
}

impl FxHasher {
    #[inline]
    fn add(&mut self, w: u64) {
        self.hash = (self.hash.rotate_left(5) ^ w).wrapping_mul(SEED);
    }
}

pub(crate) type FxBuild = BuildHasherDefault<FxHasher>;
/// A namespace (class, instance, module, function): insertion-ordered like CPython's dicts, so
/// `vars()` and `__dict__` list names in definition order.
pub(crate) type NameMap<V> = indexmap::IndexMap<Str, V, FxBuild>;
pub(crate) type NameSet = HashSet<Str, FxBuild>;

/// Hash of a string (used for dict/set keys).
pub(crate) fn hash_bytes(b: &[u8]) -> u64 {
    let mut h = FxHasher::default();
    h.write(b);
    h.write_usize(b.len());
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time `write` gives the same hashes as zero-padding each 8-byte chunk (map
    /// iteration orders, and so some outputs, depend on them).
    #[test]
    fn fx_write_matches_zero_padded_chunks() {
        let reference = |b: &[u8]| {
            let mut h = FxHasher::default();
            for chunk in b.chunks(8) {
                let mut buf = [0u8; 8];
                buf[..chunk.len()].copy_from_slice(chunk);
                h.add(u64::from_le_bytes(buf));
            }
            h.write_usize(b.len());
            h.finish()
        };
        let text = "isinstance_assertEqual_ünïcödé_0123456789abcdef";
        for end in 0..=text.len() {
            let b = &text.as_bytes()[..end];
            assert_eq!(hash_bytes(b), reference(b), "length {end}");
        }
    }
}
