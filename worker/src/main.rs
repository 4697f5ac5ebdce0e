//! Entry point of the scoring Web Worker (loaded by Trunk's `worker_loader.js`): answers the
//! messages of [`worker::ToWorker`] on the worker's global scope.

/// talc instead of Rust's default wasm allocator (dlmalloc): the interpreter allocates many small
/// objects, and talc is faster at that and smaller.
#[cfg(all(not(target_feature = "atomics"), target_family = "wasm"))]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

fn main() {
    console_error_panic_hook::set_once();
    #[cfg(target_arch = "wasm32")]
    worker::run_worker();
}
