//! `codecs.wasm` (the `codecs-wasm` crate: CPython's table codecs, outside the first-visit
//! wasm) made into the scorer's codec provider: its bytes (fetched by the worker like any site
//! file, [`crate::fetch_site_file`], the first time a run needs a codec) compiled and
//! instantiated synchronously with `WebAssembly.Module` / `WebAssembly.Instance` (no imports;
//! a worker may compile synchronously, and the job is waiting anyway), then called through its
//! exports `input`, `call`, `output` and `memory` (see `codecs-wasm/src/lib.rs`).

use std::rc::Rc;

use js_sys::{Function, Object, Reflect, Uint8Array, WebAssembly};
use wasm_bindgen::{JsCast, JsValue};

struct Exports {
    memory: WebAssembly::Memory,
    input: Function,
    call: Function,
    output: Function,
}

fn text(v: JsValue) -> String {
    v.as_string()
        .or_else(|| Reflect::get(&v, &"message".into()).ok()?.as_string())
        .unwrap_or_else(|| format!("{v:?}"))
}

fn export(exports: &JsValue, name: &str) -> Result<JsValue, String> {
    Reflect::get(exports, &name.into()).map_err(text)
}

fn func(exports: &JsValue, name: &str) -> Result<Function, String> {
    export(exports, name)?.dyn_into::<Function>().map_err(|_| format!("exports no {name}"))
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

/// Compiles and instantiates `codecs.wasm`'s bytes: the provider the scorer's runs then use.
pub fn instantiate(bytes: &[u8]) -> Result<Rc<dyn scorer::codec::Codecs>, String> {
    let module = WebAssembly::Module::new(&Uint8Array::from(bytes)).map_err(text)?;
    let instance = WebAssembly::Instance::new(&module, &Object::new()).map_err(text)?;
    let exports: JsValue = instance.exports().into();
    let memory = export(&exports, "memory")?
        .dyn_into::<WebAssembly::Memory>()
        .map_err(|_| "exports no memory".to_string())?;
    let exports = Exports {
        memory,
        input: func(&exports, "input")?,
        call: func(&exports, "call")?,
        output: func(&exports, "output")?,
    };
    let provider =
        scorer::codec::AbiCodecs(move |op: u32, name: &[u8], data: &[u8], errors: &[u8]| {
            exports.call(op, name, data, errors).unwrap_or_else(|e| {
                // `codecs::abi`'s status for a failed provider, read as `CodecError::Failed`.
                let mut out = vec![7u8];
                out.extend_from_slice(e.as_bytes());
                out
            })
        });
    Ok(Rc::new(provider))
}
