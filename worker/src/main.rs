//! Entry point of the scoring Web Worker (loaded by Trunk's `worker_loader.js`): answers the
//! messages of [`worker::ToWorker`] on the worker's global scope.

fn main() {
    console_error_panic_hook::set_once();
    #[cfg(target_arch = "wasm32")]
    worker::run_worker();
}
