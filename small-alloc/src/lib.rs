//! A size-class cache in front of the wasm allocator: small blocks come from 64 KiB slabs carved
//! per size class, freed ones go on a free list of their class, and the next allocation of that
//! class pops one, in a few instructions.
//!
//! Why: the interpreter allocates and frees small objects at a high rate (values, `Rc` boxes,
//! `ast` node objects, short strings). In the browser profile of a 100-task run the general
//! allocator's `allocate` alone was 7–14% of a scoring worker's time; natively mimalloc serves
//! the same calls from per-size free lists. This is that fast path for the single-threaded wasm
//! bundles: blocks of up to [`MAX_SMALL`] bytes (alignment ≤ [`ALIGN`]) are rounded up to a
//! multiple of [`ALIGN`].
//!
//! Memory bounds: slabs are never returned to the inner allocator, so at most [`SLAB_BYTES`] are
//! carved (then small blocks come from the inner allocator too); freed blocks that did not come
//! from a slab are kept up to [`CACHE_BYTES`] per class, the rest goes back. A slab block is told
//! from another by its 64 KiB chunk's bit in a bitmap over a 4 GiB window (wasm32's whole address
//! space).
//!
//! Only for targets without threads: the lists are plain cells (the wasm workers and the app's UI
//! thread are single-threaded: no `atomics` target feature).

use std::alloc::{GlobalAlloc, Layout};
use std::cell::UnsafeCell;
use std::ptr;

/// Class granule and the alignment every small block has.
pub const ALIGN: usize = 16;
/// Largest size served from the size classes.
pub const MAX_SMALL: usize = 256;
/// Freed bytes each class keeps, of blocks not from a slab, before returning them.
pub const CACHE_BYTES: usize = 4 << 20;
/// Size (and alignment) of a slab.
pub const CHUNK: usize = 64 << 10;
/// Most bytes carved into slabs.
pub const SLAB_BYTES: usize = 256 << 20;
const CLASSES: usize = MAX_SMALL / ALIGN;
/// Chunks in the 4 GiB window the slab bitmap covers.
const WINDOW_CHUNKS: usize = 1 << 16;
const CHUNK_SHIFT: u32 = CHUNK.trailing_zeros();

/// Free-list heads (a freed block's first word points to the next), the slab each class carves
/// from, and which chunks are slabs.
struct Lists {
    heads: [*mut u8; CLASSES],
    /// Bytes on each list that did not come from a slab.
    cached: [usize; CLASSES],
    /// Next unused address of the class's current slab, and its end.
    bump: [usize; CLASSES],
    end: [usize; CLASSES],
    /// Start of the bitmap's window (set when the first slab is carved) and bytes carved.
    base: usize,
    carved: usize,
    slabs: [u64; WINDOW_CHUNKS / 64],
}

impl Lists {
    /// The chunk index of `p` in the window, if it lies in it.
    fn chunk(&self, p: usize) -> Option<usize> {
        let index = (p.wrapping_sub(self.base) as u64) >> CHUNK_SHIFT;
        usize::try_from(index).ok().filter(|&i| i < WINDOW_CHUNKS)
    }

    fn is_slab(&self, p: *mut u8) -> bool {
        self.carved > 0
            && self.chunk(p as usize).is_some_and(|i| self.slabs[i / 64] & (1 << (i % 64)) != 0)
    }
}

/// [`GlobalAlloc`] over `A` with slabs and a free list per small size class.
pub struct SmallAlloc<A> {
    inner: A,
    /// [`SLAB_BYTES`] and [`CACHE_BYTES`] but in tests.
    slab_bytes: usize,
    cache_bytes: usize,
    lists: UnsafeCell<Lists>,
}

// SAFETY: only built for single-threaded targets (see the module doc and the `cfg` of its uses);
// no two threads ever reach the cells.
unsafe impl<A: Sync> Sync for SmallAlloc<A> {}

impl<A> SmallAlloc<A> {
    pub const fn new(inner: A) -> Self {
        Self::with_limits(inner, SLAB_BYTES, CACHE_BYTES)
    }

    const fn with_limits(inner: A, slab_bytes: usize, cache_bytes: usize) -> Self {
        SmallAlloc {
            inner,
            slab_bytes,
            cache_bytes,
            lists: UnsafeCell::new(Lists {
                heads: [ptr::null_mut(); CLASSES],
                cached: [0; CLASSES],
                bump: [0; CLASSES],
                end: [0; CLASSES],
                base: 0,
                carved: 0,
                slabs: [0; WINDOW_CHUNKS / 64],
            }),
        }
    }
}

/// The class of a layout served from the size classes, with the layout its blocks really have.
fn class_of(layout: Layout) -> Option<(usize, Layout)> {
    if layout.size() > MAX_SMALL || layout.align() > ALIGN || layout.size() == 0 {
        return None;
    }
    let class = (layout.size() - 1) / ALIGN;
    let block = Layout::from_size_align((class + 1) * ALIGN, ALIGN).ok()?;
    Some((class, block))
}

impl<A: GlobalAlloc> SmallAlloc<A> {
    /// A new slab for `class` from the inner allocator; false when none can be had (the carving
    /// budget is spent, the inner allocator refused, or the chunk lies outside the window).
    fn carve(&self, lists: &mut Lists, class: usize) -> bool {
        if lists.carved + CHUNK > self.slab_bytes {
            return false;
        }
        let Ok(layout) = Layout::from_size_align(CHUNK, CHUNK) else { return false };
        // SAFETY: a non-zero size.
        let chunk = unsafe { self.inner.alloc(layout) };
        if chunk.is_null() {
            return false;
        }
        if lists.carved == 0 {
            // The window spans 2 GiB either side of the first slab (all of wasm32's memory).
            lists.base = (chunk as usize).saturating_sub(1 << 31) & !(CHUNK - 1);
        }
        let Some(i) = lists.chunk(chunk as usize) else {
            // SAFETY: just allocated with `layout`, never handed out.
            unsafe { self.inner.dealloc(chunk, layout) };
            lists.carved = self.slab_bytes;
            return false;
        };
        lists.slabs[i / 64] |= 1 << (i % 64);
        lists.carved += CHUNK;
        lists.bump[class] = chunk as usize;
        lists.end[class] = chunk as usize + CHUNK;
        true
    }
}

// SAFETY: every block handed out is either the inner allocator's block for the same layout or
// a block of at least the layout's size and alignment (its class's: a slab's blocks are class-
// sized at multiples of `ALIGN` from a `CHUNK`-aligned start), never handed out twice.
unsafe impl<A: GlobalAlloc> GlobalAlloc for SmallAlloc<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let Some((class, block)) = class_of(layout) else {
            // SAFETY: forwarded as given.
            return unsafe { self.inner.alloc(layout) };
        };
        // SAFETY: single-threaded (see `Sync`); the reference does not outlive this call.
        let lists = unsafe { &mut *self.lists.get() };
        let head = lists.heads[class];
        if !head.is_null() {
            // SAFETY: `head` is a freed block of this class, its first word the next free block.
            lists.heads[class] = unsafe { head.cast::<*mut u8>().read() };
            if !lists.is_slab(head) {
                lists.cached[class] -= block.size();
            }
            return head;
        }
        if lists.bump[class] + block.size() <= lists.end[class] || self.carve(lists, class) {
            let p = lists.bump[class];
            lists.bump[class] += block.size();
            return p as *mut u8;
        }
        // SAFETY: `block` has a non-zero size.
        unsafe { self.inner.alloc(block) }
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        let Some((class, block)) = class_of(layout) else {
            // SAFETY: forwarded as given.
            return unsafe { self.inner.dealloc(p, layout) };
        };
        // SAFETY: single-threaded (see `Sync`).
        let lists = unsafe { &mut *self.lists.get() };
        if !lists.is_slab(p) {
            if lists.cached[class] + block.size() > self.cache_bytes {
                // SAFETY: blocks of this class not from a slab came from `inner` with `block`.
                return unsafe { self.inner.dealloc(p, block) };
            }
            lists.cached[class] += block.size();
        }
        // SAFETY: the block is at least `ALIGN` bytes, aligned for a pointer, and now unused.
        unsafe { p.cast::<*mut u8>().write(lists.heads[class]) };
        lists.heads[class] = p;
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
            // SAFETY: both sizes outside the classes: the inner allocator's block, grown or
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
            // 17..=32 bytes share a class: the same block comes back.
            let q = a.alloc(layout(32, 16));
            assert_eq!(p, q);
            assert_eq!(q as usize % ALIGN, 0);
            a.dealloc(q, layout(32, 16));
        }
    }

    #[test]
    fn small_blocks_come_from_slabs_a_chunk_at_a_time() {
        let a = cache();
        let l = layout(100, 8);
        unsafe {
            // 112-byte blocks: 585 fit a 64 KiB slab; the inner allocator is asked once per slab.
            let blocks: Vec<*mut u8> = (0..1000).map(|_| a.alloc(l)).collect();
            assert_eq!(a.inner.live.load(Ordering::Relaxed), 2);
            let mut sorted = blocks.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), 1000);
            assert!(sorted.windows(2).all(|w| w[1] as usize - w[0] as usize >= 112));
            for &p in &blocks {
                a.dealloc(p, l);
            }
            // Slab blocks go back on the list, never to the inner allocator.
            assert_eq!(a.inner.live.load(Ordering::Relaxed), 2);
            let again: Vec<*mut u8> = (0..1000).map(|_| a.alloc(l)).collect();
            assert_eq!(a.inner.live.load(Ordering::Relaxed), 2);
            for &p in &again {
                a.dealloc(p, l);
            }
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
    fn past_the_slab_budget_blocks_come_from_the_inner_allocator_and_the_cache_is_capped() {
        // One slab, and 64 KiB of cached blocks per class.
        let a = SmallAlloc::with_limits(Counting { live: AtomicUsize::new(0) }, CHUNK, CHUNK);
        let l = layout(MAX_SMALL, 8);
        let per_slab = CHUNK / MAX_SMALL;
        let n = per_slab + 2 * per_slab;
        unsafe {
            let blocks: Vec<*mut u8> = (0..n).map(|_| a.alloc(l)).collect();
            assert_eq!(a.inner.live.load(Ordering::Relaxed), 1 + 2 * per_slab);
            for &p in &blocks {
                a.dealloc(p, l);
            }
            // The slab's blocks and a cache's worth of the others are kept; the rest returned.
            assert_eq!(a.inner.live.load(Ordering::Relaxed), 1 + per_slab);
            // Taken again: all from the lists.
            let again: Vec<*mut u8> = (0..2 * per_slab).map(|_| a.alloc(l)).collect();
            assert_eq!(a.inner.live.load(Ordering::Relaxed), 1 + per_slab);
            for &p in &again {
                a.dealloc(p, l);
            }
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
        mixed(&cache());
        // Slab and inner blocks on the same lists, some returned past the cache's cap.
        mixed(&SmallAlloc::with_limits(Counting { live: AtomicUsize::new(0) }, 2 * CHUNK, 4096));
    }

    fn mixed(a: &SmallAlloc<Counting>) {
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
