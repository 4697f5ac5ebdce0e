//! Entry point of the scoring Web Worker (loaded by Trunk's `worker_loader.js`): answers the
//! messages of [`worker::ToWorker`] on the worker's global scope.

/// talc instead of Rust's default wasm allocator (dlmalloc): the interpreter allocates many small
/// objects, and talc is faster at that and smaller; small blocks are recycled by size class in
/// front of it ([`small_alloc`]).
#[cfg(all(not(target_feature = "atomics"), target_family = "wasm"))]
#[global_allocator]
static ALLOC: small_alloc::SmallAlloc<talc::wasm::WasmDynamicTalc> =
    small_alloc::SmallAlloc::new(talc::wasm::new_wasm_dynamic_allocator());

fn main() {
    console_error_panic_hook::set_once();
    #[cfg(target_arch = "wasm32")]
    worker::run_worker();
}
