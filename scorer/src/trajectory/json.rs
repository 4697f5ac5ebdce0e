//! Typed access to the parsed JSON of a log: a present field of the wrong type is an error naming
//! the field and the step; an absent or null field is `None`. Unknown fields are never looked at.

use serde_json::Value;

use super::TrajectoryError;

pub(crate) type Result<T> = std::result::Result<T, TrajectoryError>;

/// The JSON type named as error messages name it (one wording with the predictions reader).
pub(crate) use crate::submission::json_type as type_name;

pub(crate) fn wrong(
    step: Option<usize>,
    field: &str,
    expected: &'static str,
    v: &Value,
) -> TrajectoryError {
    TrajectoryError::FieldType { step, field: field.to_string(), expected, found: type_name(v) }
}

/// An optional string field.
pub(crate) fn opt_str<'a>(
    v: &'a Value,
    field: &str,
    step: Option<usize>,
) -> Result<Option<&'a str>> {
    match v.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(wrong(step, field, "a string", other)),
    }
}

/// An optional list field.
pub(crate) fn opt_arr<'a>(v: &'a Value, field: &str, step: Option<usize>) -> Result<&'a [Value]> {
    match v.get(field) {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(a)) => Ok(a),
        Some(other) => Err(wrong(step, field, "a list", other)),
    }
}

/// An optional object field (as a `Value`, `None` when absent or null).
pub(crate) fn opt_obj<'a>(
    v: &'a Value,
    field: &str,
    step: Option<usize>,
) -> Result<Option<&'a Value>> {
    match v.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(o @ Value::Object(_)) => Ok(Some(o)),
        Some(other) => Err(wrong(step, field, "an object", other)),
    }
}

/// A required list field.
pub(crate) fn req_arr<'a>(v: &'a Value, field: &str, step: Option<usize>) -> Result<&'a [Value]> {
    match v.get(field) {
        None => Err(TrajectoryError::Missing { step, field: field.to_string() }),
        Some(Value::Array(a)) => Ok(a),
        Some(other) => Err(wrong(step, field, "a list", other)),
    }
}

/// A number field (integer or float, or a numeric string as some loggers write), `None` when absent.
pub(crate) fn opt_f64(v: &Value, field: &str, step: Option<usize>) -> Result<Option<f64>> {
    match v.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => Ok(n.as_f64()),
        Some(Value::String(s)) => {
            s.trim().parse().map(Some).map_err(|_| wrong(step, field, "a number", &v[field]))
        }
        Some(other) => Err(wrong(step, field, "a number", other)),
    }
}

/// A non-negative integer field.
pub(crate) fn opt_u64(v: &Value, field: &str, step: Option<usize>) -> Result<Option<u64>> {
    match v.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => n
            .as_u64()
            .or_else(|| n.as_f64().filter(|f| *f >= 0.0).map(|f| f as u64))
            .map(Some)
            .ok_or_else(|| wrong(step, field, "a non-negative integer", &v[field])),
        Some(other) => Err(wrong(step, field, "an integer", other)),
    }
}

/// A signed integer field (exit codes; numeric strings accepted, as mini-swe-agent writes them).
pub(crate) fn opt_i64(v: &Value, field: &str, step: Option<usize>) -> Result<Option<i64>> {
    match v.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => {
            n.as_i64().map(Some).ok_or_else(|| wrong(step, field, "an integer", &v[field]))
        }
        Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
        Some(Value::String(s)) => {
            s.trim().parse().map(Some).map_err(|_| wrong(step, field, "an integer", &v[field]))
        }
        Some(other) => Err(wrong(step, field, "an integer", other)),
    }
}

/// Message content as text: a string, or a list of parts whose `text` (or `content`) strings
/// are joined; images and other parts are skipped.
pub(crate) fn content_text(v: &Value, field: &str, step: Option<usize>) -> Result<Option<String>> {
    match v.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(c) => parts_text(c)
            .map(Some)
            .ok_or_else(|| wrong(step, field, "a string or a list of content parts", c)),
    }
}

/// Text of a string or list of content parts (`None` for other types).
pub(crate) fn parts_text(c: &Value) -> Option<String> {
    match c {
        Value::String(s) => Some(s.clone()),
        Value::Array(parts) => {
            let mut out = String::new();
            for p in parts {
                let t = match p {
                    Value::String(s) => Some(s.as_str()),
                    Value::Object(_) => p
                        .get("text")
                        .and_then(Value::as_str)
                        .or_else(|| p.get("content").and_then(Value::as_str))
                        .or_else(|| p.get("reasoning").and_then(Value::as_str)),
                    _ => None,
                };
                if let Some(t) = t {
                    if !out.is_empty() && !out.ends_with('\n') {
                        out.push('\n');
                    }
                    out.push_str(t);
                }
            }
            Some(out)
        }
        _ => None,
    }
}

/// Tool-call arguments: an object, or a JSON string holding one (OpenAI style); a string that is
/// not JSON is kept as `{"input": <text>}`.
pub(crate) fn arguments(v: Option<&Value>) -> Value {
    match v {
        None | Some(Value::Null) => Value::Object(Default::default()),
        Some(Value::String(s)) => match serde_json::from_str::<Value>(s) {
            Ok(o @ Value::Object(_)) => o,
            _ => serde_json::json!({ "input": s }),
        },
        Some(other) => other.clone(),
    }
}

/// A string argument of a tool call.
pub(crate) fn arg<'a>(args: &'a Value, name: &str) -> Option<&'a str> {
    args.get(name).and_then(Value::as_str)
}

/// Parses one JSON document, mapping serde's error to ours with its line.
pub(crate) fn parse(bytes: &[u8]) -> Result<Value> {
    serde_json::from_slice(bytes).map_err(|e| TrajectoryError::Json {
        line: Some(e.line()).filter(|l| *l > 0),
        message: e.to_string(),
    })
}

/// Parses JSON lines (blank lines skipped); a bad line is an error naming it.
pub(crate) fn parse_lines(bytes: &[u8]) -> Result<Vec<Value>> {
    let mut out = Vec::new();
    for (i, line) in bytes.split(|b| *b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let v = serde_json::from_slice(line)
            .map_err(|e| TrajectoryError::Json { line: Some(i + 1), message: e.to_string() })?;
        out.push(v);
    }
    Ok(out)
}
