// Starts the scoring worker (replaces Trunk's loader shim, which calls wasm-bindgen's init with a
// bare path and so logs "using deprecated parameters for the initialization function").
importScripts('./worker.js');
wasm_bindgen({ module_or_path: './worker_bg.wasm' });
