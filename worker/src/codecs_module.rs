//! `codecs.wasm` (the `codecs-wasm` crate: CPython's table codecs, outside the first-visit
//! wasm) loaded into the scoring worker the first time a run needs a codec: fetched with a
//! synchronous `XMLHttpRequest` (allowed in workers; the job is waiting anyway, and no message
//! can interleave), compiled and instantiated synchronously with `WebAssembly.Module` /
//! `WebAssembly.Instance` (no imports), and called through its exports `input`, `call`,
//! `output` and `memory` (see `codecs-wasm/src/lib.rs`).
//!
//! The URL is relative to the worker's script (`worker_loader.js` at the site's root), so the
//! site works under a sub-path.

use std::rc::Rc;

use js_sys::{Function, Object, Reflect, Uint8Array, WebAssembly};
use wasm_bindgen::{JsCast, JsValue};

/// The module's file, next to the worker's loader.
pub const CODECS_WASM: &str = "./codecs.wasm";

struct Exports {
    memory: WebAssembly::Memory,
    input: Function,
    call: Function,
    output: Function,
}

fn text(v: JsValue) -> String {
    v.as_string().unwrap_or_else(|| format!("{v:?}"))
}

fn export(exports: &JsValue, name: &str) -> Result<JsValue, String> {
    Reflect::get(exports, &name.into()).map_err(text)
}

fn func(exports: &JsValue, name: &str) -> Result<Function, String> {
    export(exports, name)?
        .dyn_into::<Function>()
        .map_err(|_| format!("codecs.wasm exports no {name}"))
}

impl Exports {
    fn number(v: Result<JsValue, JsValue>) -> Result<u32, String> {
        let v = v.map_err(text)?;
        v.as_f64().map(|n| n as u32).ok_or_else(|| "codecs.wasm answered no number".to_string())
    }

    /// One call of the byte protocol (`codecs::abi`).
    fn call(&self, op: u32, name: &[u8], data: &[u8], errors: &[u8]) -> Result<Vec<u8>, String> {
        let len = name.len() + data.len() + errors.len();
        let ptr = Self::number(self.input.call1(&JsValue::NULL, &(len as u32).into()))?;
        let input = [name, data, errors].concat();
        // A fresh view each time: the memory's buffer changes when the module grows it.
        Uint8Array::new(&self.memory.buffer()).set(&Uint8Array::from(input.as_slice()), ptr);
        let args = js_sys::Array::of4(
            &op.into(),
            &(name.len() as u32).into(),
            &(data.len() as u32).into(),
            &(errors.len() as u32).into(),
        );
        let out_len = Self::number(self.call.apply(&JsValue::NULL, &args))?;
        let out = Self::number(self.output.call0(&JsValue::NULL))?;
        let view = Uint8Array::new(&self.memory.buffer()).subarray(out, out + out_len);
        Ok(view.to_vec())
    }
}

/// Fetches and instantiates `codecs.wasm`: the provider the scorer's runs then use.
pub fn load() -> Result<Rc<dyn scorer::codec::Codecs>, String> {
    let xhr = web_sys::XmlHttpRequest::new().map_err(text)?;
    xhr.open_with_async("GET", CODECS_WASM, false).map_err(text)?;
    xhr.set_response_type(web_sys::XmlHttpRequestResponseType::Arraybuffer);
    xhr.send().map_err(text)?;
    let status = xhr.status().map_err(text)?;
    if status != 200 {
        return Err(format!("{CODECS_WASM}: HTTP {status}"));
    }
    let bytes = xhr.response().map_err(text)?;
    let module = WebAssembly::Module::new(&bytes).map_err(text)?;
    let instance = WebAssembly::Instance::new(&module, &Object::new()).map_err(text)?;
    let exports: JsValue = instance.exports().into();
    let memory = export(&exports, "memory")?
        .dyn_into::<WebAssembly::Memory>()
        .map_err(|_| "codecs.wasm exports no memory".to_string())?;
    let exports = Exports {
        memory,
        input: func(&exports, "input")?,
        call: func(&exports, "call")?,
        output: func(&exports, "output")?,
    };
    let provider =
        scorer::codec::AbiCodecs(move |op: u32, name: &[u8], data: &[u8], errors: &[u8]| {
            exports.call(op, name, data, errors).unwrap_or_else(|e| {
                let mut out = vec![7u8];
                out.extend_from_slice(e.as_bytes());
                out
            })
        });
    Ok(Rc::new(provider))
}
