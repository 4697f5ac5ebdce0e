// Starts the trajectory worker (replaces Trunk's loader shim, which calls wasm-bindgen's init with
// a bare path and so logs "using deprecated parameters for the initialization function").
importScripts('./trajworker.js');
wasm_bindgen({ module_or_path: './trajworker_bg.wasm' });
