//! Entry point of the trajectory Web Worker (loaded by Trunk's `trajworker_loader.js`, started
//! by the app only when a trajectory page needs it): answers [`trajworker::ToTraj`] messages.

fn main() {
    console_error_panic_hook::set_once();
    #[cfg(target_arch = "wasm32")]
    trajworker::engine::run_worker();
}
