//! The strings of name characters CPython 3.11 has interned in the official harness's test process
//! when the test file compiles: interning one of a folded frozenset's strings makes the compiler
//! rebuild the frozenset, which changes the order a set display iterates in (`interp::setplan`).
//!
//! `words.txt` (9,680 words, 39 KB gzip) is measured by `scripts/gen-interned-words.py` under
//! the harness's own runner. The CLI, tests and Python package link it (feature
//! `embedded-words`); the scoring worker does not (first-visit wasm budget): it links the
//! [`common`] words only, and when a display asks about another word, [`before_test_compiles`]
//! answers "not interned" and marks the full list wanted. The worker then loads [`FILE`],
//! [`install`]s it and scores the job again, so no verdict is made without it.

mod common;

use std::cell::Cell;

use common::COMMON;

/// The full list's file name on the site (written next to the workers by
/// `scripts/build-site.sh`), the bytes of `words.txt`.
pub const FILE: &str = "interned-words.txt";

/// FNV-1a of `words.txt`, checked by [`install`]. Computed at compile time: the list itself is
/// not linked where `embedded-words` is off.
const DIGEST: u64 = fnv1a(include_bytes!("words.txt"));
const LEN: usize = include_bytes!("words.txt").len();

const fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
        i += 1;
    }
    hash
}

/// Why a words file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InstallError {
    #[error("not the interned-words list this scorer was built with ({found} bytes, want {LEN})")]
    Mismatch { found: usize },
}

thread_local! {
    static FULL: Cell<Option<&'static [&'static str]>> = Cell::new(embedded());
    static WANTED: Cell<bool> = const { Cell::new(false) };
}

#[cfg(feature = "embedded-words")]
fn embedded() -> Option<&'static [&'static str]> {
    static LIST: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    Some(LIST.get_or_init(|| words(include_str!("words.txt"))))
}

#[cfg(not(feature = "embedded-words"))]
fn embedded() -> Option<&'static [&'static str]> {
    None
}

/// The words of a `words.txt` (its first line is a comment).
fn words(text: &'static str) -> Vec<&'static str> {
    text.lines().filter(|l| !l.is_empty() && !l.starts_with('#')).collect()
}

/// Whether the harness's process had `s` interned before the test file compiled. Without the
/// full list, a word outside [`COMMON`] is answered `false` and the list is marked wanted.
pub(crate) fn before_test_compiles(s: &str) -> bool {
    if COMMON.binary_search(&s).is_ok() {
        return true;
    }
    match FULL.with(Cell::get) {
        Some(full) => full.binary_search(&s).is_ok(),
        None => {
            WANTED.with(|w| w.set(true));
            false
        }
    }
}

/// Installs the full list for this thread (kept for the thread's life: a worker loads it once).
/// Only the exact file this scorer was built with is taken.
pub fn install(file: &[u8]) -> Result<(), InstallError> {
    if file.len() != LEN || fnv1a(file) != DIGEST {
        return Err(InstallError::Mismatch { found: file.len() });
    }
    let text = std::str::from_utf8(file).map_err(|_| InstallError::Mismatch { found: LEN })?;
    let text: &'static str = Box::leak(text.to_owned().into_boxed_str());
    let list: &'static [&'static str] = Box::leak(words(text).into_boxed_slice());
    FULL.with(|f| f.set(Some(list)));
    Ok(())
}

/// Whether this thread has the full list (embedded or installed).
pub fn installed() -> bool {
    FULL.with(Cell::get).is_some()
}

/// Forgets this thread's full list: for tests of the loading path.
#[doc(hidden)]
pub fn remove() {
    FULL.with(|f| f.set(None));
}

/// Whether a word outside [`COMMON`] was asked about on this thread while it had no full list,
/// since the last call (which clears it).
pub fn take_wanted() -> bool {
    WANTED.with(|w| w.replace(false))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE_BYTES: &[u8] = include_bytes!("words.txt");

    fn full() -> Vec<&'static str> {
        words(include_str!("words.txt"))
    }

    #[test]
    fn the_lists_are_sorted_name_words_and_common_is_part_of_full() {
        let full = full();
        assert!(full.len() > 7_000);
        assert!(full.windows(2).all(|w| w[0] < w[1]));
        assert!(COMMON.windows(2).all(|w| w[0] < w[1]));
        assert!(full
            .iter()
            .all(|w| w.len() > 1 && w.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')));
        for w in COMMON.iter().filter(|w| w.len() > 1) {
            assert!(full.binary_search(w).is_ok(), "{w} is not in words.txt");
        }
    }

    #[test]
    fn without_the_list_a_rare_word_is_wanted_and_a_common_one_is_not() {
        std::thread::spawn(|| {
            remove();
            take_wanted();
            assert!(before_test_compiles("TestCase"), "common words need no list");
            assert!(!take_wanted());
            assert!(!before_test_compiles("indent"), "answered not interned without the list");
            assert!(take_wanted());
            assert!(!take_wanted(), "taking clears it");
            install(FILE_BYTES).expect("the scorer's own file");
            assert!(installed());
            assert!(before_test_compiles("indent"));
            assert!(!before_test_compiles("zzq_never_interned"));
            assert!(!take_wanted());
        })
        .join()
        .expect("thread");
    }

    #[test]
    fn a_damaged_or_foreign_file_is_refused() {
        std::thread::spawn(|| {
            remove();
            let mut damaged = FILE_BYTES.to_vec();
            damaged[100] ^= 1;
            assert!(install(&damaged).is_err());
            assert!(install(&FILE_BYTES[..FILE_BYTES.len() - 1]).is_err());
            assert!(install(b"indent\n").is_err());
            assert!(!installed());
        })
        .join()
        .expect("thread");
    }
}
