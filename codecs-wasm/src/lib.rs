//! `codecs.wasm`: [`codecs::abi::call`] behind four `extern "C"` exports, for the scoring worker
//! (`worker/src/codecs.rs`), which instantiates the module with `WebAssembly.Instance` (no
//! imports) and calls it synchronously:
//!
//! 1. `input(len) -> ptr`: room for `len` bytes (name, data, errors, concatenated), which the
//!    worker writes into the module's memory;
//! 2. `call(op, name_len, data_len, errors_len) -> len`: answers the call held in the input;
//! 3. `output() -> ptr`: where the `len` bytes of the answer are.
//!
//! The buffers are Rust `Vec`s the module owns; the worker only writes into the input between
//! `input` and `call`, when no Rust reference to it is alive. No `unsafe` here: the only
//! exception to the workspace lints is exporting by name.

use std::cell::RefCell;

thread_local! {
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Room for `len` input bytes; their address in the module's memory.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn input(len: u32) -> u32 {
    INPUT.with(|b| {
        let mut b = b.borrow_mut();
        b.clear();
        b.resize(len as usize, 0);
        b.as_ptr() as usize as u32
    })
}

/// Answers the call in the input buffer: `name_len` bytes of name, `data_len` of data,
/// `errors_len` of error handler name. Returns the answer's length (see [`output`]).
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn call(op: u32, name_len: u32, data_len: u32, errors_len: u32) -> u32 {
    let answer = INPUT.with(|b| {
        let b = b.borrow();
        let (n, d, e) = (name_len as usize, data_len as usize, errors_len as usize);
        match (b.get(..n), b.get(n..n + d), b.get(n + d..n + d + e)) {
            (Some(name), Some(data), Some(errors)) => codecs::abi::call(op, name, data, errors),
            _ => vec![codecs::abi::FAILED],
        }
    });
    OUTPUT.with(|o| {
        let mut o = o.borrow_mut();
        *o = answer;
        o.len() as u32
    })
}

/// The address of the last answer.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn output() -> u32 {
    OUTPUT.with(|o| o.borrow().as_ptr() as usize as u32)
}
