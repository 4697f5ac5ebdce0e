//! A size-class cache in front of the wasm allocator: freed small blocks go on a free list of
//! their class and the next allocation of that class pops one, in a few instructions.
//!
//! Why: the interpreter allocates and frees small objects at a high rate (values, `Rc` boxes,
//! `ast` node objects, short strings). In the browser profile of a 100-task run the general
//! allocator's `allocate` alone was 7–14% of a scoring worker's time; natively mimalloc serves
//! the same calls from per-size free lists. This is that fast path for the single-threaded wasm
//! workers: blocks of up to [`MAX_SMALL`] bytes (alignment ≤ [`ALIGN`]) are rounded up to a
//! multiple of [`ALIGN`]; each class keeps at most [`CACHE_BYTES`] of freed blocks, the rest goes
//! back to the inner allocator, so a run that frees many blocks of one size cannot keep more than
//! `classes × CACHE_BYTES` from the others.
//!
//! Only for targets without threads: the free lists are plain cells (the wasm workers and the
//! app's UI thread are single-threaded: no `atomics` target feature).

use std::alloc::{GlobalAlloc, Layout};
use std::cell::UnsafeCell;
use std::ptr;

/// Class granule and the alignment every cached block has.
pub const ALIGN: usize = 16;
/// Largest size served from the free lists.
pub const MAX_SMALL: usize = 256;
/// Freed bytes each class keeps at most before returning blocks to the inner allocator.
pub const CACHE_BYTES: usize = 4 << 20;
const CLASSES: usize = MAX_SMALL / ALIGN;

/// Free-list heads (a freed block's first word points to the next) and their byte counts.
struct Lists {
    heads: [*mut u8; CLASSES],
    cached: [usize; CLASSES],
}

/// [`GlobalAlloc`] over `A` with a free list per small size class.
pub struct SmallAlloc<A> {
    inner: A,
    lists: UnsafeCell<Lists>,
}

// SAFETY: only built for single-threaded targets (see the module doc and the `cfg` of its uses);
// no two threads ever reach the cells.
unsafe impl<A: Sync> Sync for SmallAlloc<A> {}

impl<A> SmallAlloc<A> {
    pub const fn new(inner: A) -> Self {
        SmallAlloc {
            inner,
            lists: UnsafeCell::new(Lists {
                heads: [ptr::null_mut(); CLASSES],
                cached: [0; CLASSES],
            }),
        }
    }
}

/// The class of a layout served from the free lists, with the layout its blocks really have.
fn class_of(layout: Layout) -> Option<(usize, Layout)> {
    if layout.size() > MAX_SMALL || layout.align() > ALIGN || layout.size() == 0 {
        return None;
    }
    let class = (layout.size() - 1) / ALIGN;
    let block = Layout::from_size_align((class + 1) * ALIGN, ALIGN).ok()?;
    Some((class, block))
}

// SAFETY: every block handed out is either the inner allocator's block for the same layout or
// a block of at least the layout's size and alignment (its class's), never handed out twice.
unsafe impl<A: GlobalAlloc> GlobalAlloc for SmallAlloc<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let Some((class, block)) = class_of(layout) else {
            // SAFETY: forwarded as given.
            return unsafe { self.inner.alloc(layout) };
        };
        // SAFETY: single-threaded (see `Sync`); the reference does not outlive this call.
        let lists = unsafe { &mut *self.lists.get() };
        let head = lists.heads[class];
        if head.is_null() {
            // SAFETY: `block` has a non-zero size.
            return unsafe { self.inner.alloc(block) };
        }
        // SAFETY: `head` is a freed block of this class, its first word the next free block.
        lists.heads[class] = unsafe { head.cast::<*mut u8>().read() };
        lists.cached[class] -= block.size();
        head
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        let Some((class, block)) = class_of(layout) else {
            // SAFETY: forwarded as given.
            return unsafe { self.inner.dealloc(p, layout) };
        };
        // SAFETY: single-threaded (see `Sync`).
        let lists = unsafe { &mut *self.lists.get() };
        if lists.cached[class] + block.size() > CACHE_BYTES {
            // SAFETY: blocks of this class were allocated from `inner` with `block`.
            return unsafe { self.inner.dealloc(p, block) };
        }
        // SAFETY: the block is at least `ALIGN` bytes, aligned for a pointer, and now unused.
        unsafe { p.cast::<*mut u8>().write(lists.heads[class]) };
        lists.heads[class] = p;
        lists.cached[class] += block.size();
    }

    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let old = class_of(layout);
        let Ok(new_layout) = Layout::from_size_align(new_size, layout.align()) else {
            return ptr::null_mut();
        };
        let new = class_of(new_layout);
        match (old, new) {
            // Still fits the block it has.
            (Some((a, _)), Some((b, _))) if a == b => p,
            // SAFETY: both sizes outside the cache: the inner allocator's block, grown or
            // shrunk in place when it can.
            (None, None) => unsafe { self.inner.realloc(p, layout, new_size) },
            _ => {
                // SAFETY: a fresh block of the new layout; the old one is valid for
                // `min(old, new)` bytes and freed with the layout it was allocated with.
                unsafe {
                    let q = self.alloc(new_layout);
                    if !q.is_null() {
                        ptr::copy_nonoverlapping(p, q, layout.size().min(new_size));
                        self.dealloc(p, layout);
                    }
                    q
                }
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::undocumented_unsafe_blocks, clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::alloc::System;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// The system allocator, counting the blocks it holds.
    struct Counting {
        live: AtomicUsize,
    }

    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            self.live.fetch_add(1, Ordering::Relaxed);
            unsafe { System.alloc(layout) }
        }
        unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
            self.live.fetch_sub(1, Ordering::Relaxed);
            unsafe { System.dealloc(p, layout) }
        }
    }

    fn cache() -> SmallAlloc<Counting> {
        SmallAlloc::new(Counting { live: AtomicUsize::new(0) })
    }

    fn layout(size: usize, align: usize) -> Layout {
        Layout::from_size_align(size, align).unwrap()
    }

    #[test]
    fn a_freed_small_block_serves_the_next_allocation_of_its_class() {
        let a = cache();
        unsafe {
            let p = a.alloc(layout(24, 8));
            a.dealloc(p, layout(24, 8));
            // 17..=32 bytes share a class: the same block comes back, the inner allocator is
            // not asked again.
            let q = a.alloc(layout(32, 16));
            assert_eq!(p, q);
            assert_eq!(a.inner.live.load(Ordering::Relaxed), 1);
            assert_eq!(q as usize % ALIGN, 0);
            a.dealloc(q, layout(32, 16));
        }
    }

    #[test]
    fn large_or_overaligned_blocks_go_to_the_inner_allocator() {
        let a = cache();
        unsafe {
            for l in [layout(MAX_SMALL + 1, 8), layout(8, 32)] {
                let p = a.alloc(l);
                assert_eq!(a.inner.live.load(Ordering::Relaxed), 1);
                a.dealloc(p, l);
                assert_eq!(a.inner.live.load(Ordering::Relaxed), 0);
            }
        }
    }

    #[test]
    fn each_class_keeps_at_most_its_cache_bytes() {
        let a = cache();
        let l = layout(MAX_SMALL, 8);
        let n = CACHE_BYTES / MAX_SMALL + 100;
        unsafe {
            let blocks: Vec<*mut u8> = (0..n).map(|_| a.alloc(l)).collect();
            for &p in &blocks {
                a.dealloc(p, l);
            }
            assert_eq!(a.inner.live.load(Ordering::Relaxed), CACHE_BYTES / MAX_SMALL);
        }
    }

    #[test]
    fn realloc_keeps_the_bytes_across_classes_and_sizes() {
        let a = cache();
        unsafe {
            let mut l = layout(5, 1);
            let mut p = a.alloc(l);
            p.copy_from_nonoverlapping(b"hello".as_ptr(), 5);
            // Within a class, into another class, out to the inner allocator, and back.
            for size in [9, 16, 17, 200, 300, 5000, 100, 5] {
                p = a.realloc(p, l, size);
                assert!(!p.is_null());
                l = layout(size, 1);
                assert_eq!(std::slice::from_raw_parts(p, 5), b"hello");
            }
            a.dealloc(p, l);
        }
    }

    #[test]
    fn many_mixed_allocations_keep_their_contents() {
        let a = cache();
        let mut live: Vec<(*mut u8, Layout, u8)> = Vec::new();
        let mut seed = 7u32;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed as usize
        };
        unsafe {
            for i in 0..20_000 {
                if live.len() > 200 && next() % 2 == 0 {
                    let (p, l, v) = live.swap_remove(next() % live.len());
                    assert!(std::slice::from_raw_parts(p, l.size()).iter().all(|&b| b == v));
                    a.dealloc(p, l);
                } else {
                    let l = layout(1 + next() % 400, 1 << (next() % 5));
                    let p = a.alloc(l);
                    let v = (i % 251) as u8;
                    p.write_bytes(v, l.size());
                    live.push((p, l, v));
                }
            }
            for (p, l, _) in live {
                a.dealloc(p, l);
            }
        }
    }
}
