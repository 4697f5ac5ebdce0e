//! Submissions from the files researchers bring: SWE-bench predictions (`.jsonl`, `.json` list,
//! `.json` dict keyed by instance id), SWE-agent `.traj` (0.x and 1.x) and mini-swe-agent
//! `.traj.json`; with the feature `trajectories`, also OpenHands, Inspect, ATIF, Claude Code and
//! Codex logs through [`crate::trajectory`]. Pure parsing from bytes, so the CLI and the browser
//! read the same files the same way.
//!
//! One bad entry (invalid JSON line, missing or mistyped field) becomes an [`EntryError`] naming
//! the file and line; it never stops the other entries. Instance ids are checked against a bundle
//! later, with [`Parsed::retain_known`].

use std::collections::HashMap;

use serde::de::{Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::report::{EntryError, InstructionSet, SourceRef};

/// Kept at its old path for the CLI, the worker and the tests; it lives beside `evaluate` now.
pub use crate::evaluate::evaluate_submission;

/// One submission to score: a patch for one task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Submission {
    pub instance_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_name_or_path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instruction_set: Option<InstructionSet>,
    /// The unified diff as bytes, exactly as `git apply` would read them (a patch file's bytes,
    /// or the UTF-8 encoding of a JSON `model_patch` string); empty means no change (`model_patch`
    /// null or `""`). Serialised as a string when it is UTF-8, else as a list of byte values.
    #[serde(with = "patch_bytes")]
    pub patch: Vec<u8>,
    pub source: SourceRef,
}

/// What one input file holds: the submissions in file order, and the entries that could not be
/// read (sorted by line).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Parsed {
    pub submissions: Vec<Submission>,
    pub errors: Vec<EntryError>,
    /// Entries read but worth a word: a key repeated in a JSON object (the last value is used, as
    /// Python's `json.load` uses it).
    #[serde(default)]
    pub warnings: Vec<EntryError>,
    /// Errors past [`MAX_ENTRY_ERRORS`], counted only; `errors` ends with their summary entry.
    #[serde(default, skip_serializing_if = "Overflow::is_empty")]
    pub overflow: Overflow,
}

/// The entry errors of a file past [`MAX_ENTRY_ERRORS`]: how many, of which kind, from where.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Overflow {
    /// Lines that are not JSON.
    pub not_json: usize,
    /// Other entries that could not be read (not a prediction, unknown instance id…).
    pub other: usize,
    /// The line of the first error counted here.
    pub line: Option<u32>,
}

impl Overflow {
    pub fn is_empty(&self) -> bool {
        self.not_json + self.other == 0
    }
}

/// The shape an input file was recognised as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InputKind {
    /// One prediction per line.
    Jsonl,
    /// A JSON list of predictions.
    JsonList,
    /// A JSON dict keyed by instance id (SWE-agent's `preds.json`).
    JsonDict,
    /// A single prediction object (SWE-agent's `<id>.pred`).
    JsonSingle,
    /// A SWE-agent trajectory (`info.submission`).
    SweAgentTraj,
    /// A mini-swe-agent trajectory (`trajectory_format`, `info.submission`).
    MiniSweAgentTraj,
    /// Another agent log read by the `trajectory` readers (feature `trajectories`): OpenHands,
    /// Inspect, ATIF, Claude Code, Codex.
    Trajectory,
}

impl Parsed {
    /// Moves every submission whose instance id `known` rejects into `errors` (the harness would
    /// not find the instance), keeping both lists in file order.
    pub fn retain_known(&mut self, known: impl Fn(&str) -> bool) {
        let mut kept = Vec::with_capacity(self.submissions.len());
        for s in std::mem::take(&mut self.submissions) {
            if known(&s.instance_id) {
                kept.push(s);
            } else {
                self.errors.push(EntryError {
                    message: format!(
                        "unknown instance id {:?}: not a task of the bundle",
                        s.instance_id
                    ),
                    source: s.source,
                    instance_id: Some(s.instance_id),
                    model_name_or_path: s.model_name_or_path,
                });
            }
        }
        self.submissions = kept;
        let file = self.errors.first().map(|e| e.source.file.clone()).unwrap_or_default();
        self.cap_errors(&file);
    }

    /// Sorts the errors by line, keeps the first [`MAX_ENTRY_ERRORS`] and ends the list with one
    /// summary entry for the rest (counted in [`Parsed::overflow`]).
    fn cap_errors(&mut self, file_name: &str) {
        if !self.overflow.is_empty() {
            // The summary (wherever later errors put it) is taken out, then put back last with
            // the new counts; no message of a real entry starts with its prefix.
            self.errors.retain(|e| !e.message.starts_with(OVERFLOW_PREFIX));
        }
        sort_errors(&mut self.errors);
        if self.errors.len() > MAX_ENTRY_ERRORS {
            let dropped = self.errors.split_off(MAX_ENTRY_ERRORS);
            let not_json = dropped.iter().filter(|e| e.message.starts_with("invalid JSON")).count();
            self.overflow.not_json += not_json;
            self.overflow.other += dropped.len() - not_json;
            let first = dropped.iter().filter_map(|e| e.source.line).min();
            self.overflow.line = match (self.overflow.line, first) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        }
        if !self.overflow.is_empty() {
            let entry = overflow_entry(file_name, &self.overflow, !self.submissions.is_empty());
            self.errors.push(entry);
        }
    }
}

/// Serde for [`Submission::patch`]: a string when the bytes are UTF-8 (every JSON prediction, and
/// nearly every patch file), else a list of byte values, so the worker protocol stays readable
/// and no byte is lost.
mod patch_bytes {
    use serde::de::{Deserializer, Error, SeqAccess, Visitor};
    use serde::Serializer;

    pub(crate) fn serialize<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
        match std::str::from_utf8(bytes) {
            Ok(text) => s.serialize_str(text),
            Err(_) => s.collect_seq(bytes),
        }
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Vec<u8>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a patch as a string or a list of bytes")
            }
            fn visit_str<E: Error>(self, v: &str) -> Result<Vec<u8>, E> {
                Ok(v.as_bytes().to_vec())
            }
            fn visit_string<E: Error>(self, v: String) -> Result<Vec<u8>, E> {
                Ok(v.into_bytes())
            }
            fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<Vec<u8>, E> {
                Ok(v.to_vec())
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<u8>, A::Error> {
                let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 20));
                while let Some(b) = seq.next_element::<u8>()? {
                    out.push(b);
                }
                Ok(out)
            }
        }
        d.deserialize_any(V)
    }
}

/// Errors of one file in line order (file-level errors, with no line, first).
fn sort_errors(errors: &mut [EntryError]) {
    errors.sort_by_key(|e| e.source.line);
}

/// UTF-16 text (a byte-order mark, or the NUL of every other byte that ASCII text in UTF-16 has):
/// an editor's "Unicode" save, which no JSON reader here accepts; said plainly instead of a JSON
/// error.
pub fn looks_utf16(bytes: &[u8]) -> bool {
    if bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF") {
        return true;
    }
    let head = &bytes[..bytes.len().min(64)];
    head.len() >= 4
        && (head.iter().skip(1).step_by(2).all(|b| *b == 0)
            || head.iter().step_by(2).all(|b| *b == 0))
}

/// At most this many entry errors are listed per file. A file that is not predictions at all (a
/// log, random text) would otherwise give one error per line: hundreds of thousands of rows to
/// store and show. The rest are counted in one summary entry ([`overflow_entry`]).
pub const MAX_ENTRY_ERRORS: usize = 100;

/// How the summary entry of the errors past the cap starts.
const OVERFLOW_PREFIX: &str = "…and ";

/// Binary data (an archive, an image, random bytes): a NUL byte in the first 8 KiB, or more than
/// one byte in twenty there a control character that no text file has or not UTF-8. Said plainly
/// up front instead of one "invalid JSON" per line.
pub fn looks_binary(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(8192)];
    if head.contains(&0) {
        return true;
    }
    let control =
        head.iter().filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c)).count();
    // Invalid UTF-8 sequences (a multi-byte character cut at the 8 KiB boundary is not one).
    let mut invalid = 0usize;
    let mut rest = head;
    while let Err(e) = std::str::from_utf8(rest) {
        let Some(len) = e.error_len() else { break };
        invalid += 1;
        rest = &rest[e.valid_up_to() + len..];
    }
    (control + invalid) * 20 > head.len()
}

/// The entry that stands for the errors past [`MAX_ENTRY_ERRORS`]. A file that gave no
/// submission at all probably is not a predictions file, and the entry says so.
fn overflow_entry(file_name: &str, o: &Overflow, any_submission: bool) -> EntryError {
    let mut message = match (o.not_json, o.other) {
        (n, 0) => format!("{OVERFLOW_PREFIX}{} more lines are not JSON", thousands(n)),
        (0, n) => format!("{OVERFLOW_PREFIX}{} more entries could not be read", thousands(n)),
        (j, o) => format!(
            "{OVERFLOW_PREFIX}{} more entries could not be read ({} lines are not JSON)",
            thousands(j + o),
            thousands(j)
        ),
    };
    if !any_submission {
        message.push_str(": is this a predictions file?");
    }
    EntryError {
        source: SourceRef { file: file_name.to_string(), line: o.line },
        instance_id: None,
        model_name_or_path: None,
        message,
    }
}

/// `81608` as `81,608`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Reads the submissions of one file. `file_name` is the path as the user gave it: it names the
/// source of every entry, decides the kind by its extension (`.jsonl`, `.traj`, `.traj.json`,
/// `.json`; anything else by content) and may name the instruction set (see
/// [`instruction_set_from_path`]).
pub fn parse_submissions(file_name: &str, bytes: &[u8]) -> Parsed {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if looks_utf16(bytes) {
        let mut out = Parsed::default();
        out.errors.push(EntryError {
            source: SourceRef { file: file_name.to_string(), line: None },
            instance_id: None,
            model_name_or_path: None,
            message: "the file is UTF-16 text, which is not supported: save it as UTF-8".into(),
        });
        return out;
    }
    // Agent logs first: an Inspect `.eval` is a zip, binary by the test below.
    #[cfg(feature = "trajectories")]
    if let Some(mut parsed) = trajectory_submissions(file_name, bytes) {
        parsed.cap_errors(file_name);
        return parsed;
    }
    if looks_binary(bytes) {
        let mut out = Parsed::default();
        out.errors.push(EntryError {
            source: SourceRef { file: file_name.to_string(), line: None },
            instance_id: None,
            model_name_or_path: None,
            message: "the file is binary data, not a predictions file or an agent log".into(),
        });
        return out;
    }
    let lower = file_name.to_ascii_lowercase();
    let mut out = Parsed::default();
    let file = |line: Option<u32>| SourceRef { file: file_name.to_string(), line };
    if lower.ends_with(".jsonl") {
        parse_jsonl(file_name, bytes, &mut out);
    } else {
        match parse_document(bytes) {
            Ok(doc) => parse_value_document(file_name, bytes, doc, &lower, &mut out),
            // Unknown extension: a file of several JSON lines is predictions in JSONL.
            Err(_) if !lower.ends_with(".json") && !lower.ends_with(".traj") => {
                parse_jsonl(file_name, bytes, &mut out)
            }
            Err(e) => {
                // Valid JSON of the wrong shape says what it found, not serde's type words.
                let message = match serde_json::from_slice::<Value>(bytes) {
                    Ok(v) => format!(
                        "expected a list of predictions, or an object (predictions keyed by \
                         instance_id, one prediction, or a trajectory), found {}",
                        json_type(&v)
                    ),
                    Err(_) => format!("invalid JSON: {e}"),
                };
                out.errors.push(EntryError {
                    source: file(u32::try_from(e.line()).ok().filter(|l| *l > 0)),
                    instance_id: None,
                    model_name_or_path: None,
                    message,
                })
            }
        }
    }
    if out.submissions.is_empty() && out.errors.is_empty() {
        out.errors.push(EntryError {
            source: file(None),
            instance_id: None,
            model_name_or_path: None,
            message: "holds no submissions".to_string(),
        });
    }
    out.cap_errors(file_name);
    out
}

/// Recognises the shape of a file without keeping its submissions (for listings and messages).
pub fn detect_kind(file_name: &str, bytes: &[u8]) -> Option<InputKind> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    #[cfg(feature = "trajectories")]
    if other_trajectory_format(bytes).is_some() {
        return Some(InputKind::Trajectory);
    }
    let lower = file_name.to_ascii_lowercase();
    if lower.ends_with(".jsonl") {
        return Some(InputKind::Jsonl);
    }
    match parse_document(bytes) {
        Ok(Document::List(_)) => Some(InputKind::JsonList),
        Ok(Document::Map(entries)) => Some(object_kind(&entries, &lower)),
        Err(_) if !lower.ends_with(".json") && !lower.ends_with(".traj") => Some(InputKind::Jsonl),
        Err(_) => None,
    }
}

/// A whole-file JSON document, objects with their keys in file order.
enum Document {
    List(Vec<Value>),
    Map(Vec<(String, Value)>),
}

fn parse_document(bytes: &[u8]) -> Result<Document, serde_json::Error> {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if first == Some(&b'{') {
        let map: Ordered = serde_json::from_slice(bytes)?;
        Ok(Document::Map(map.0))
    } else {
        // Anything else that parses is a list, or a type error naming what was found.
        serde_json::from_slice::<Vec<Value>>(bytes).map(Document::List)
    }
}

/// A JSON object's entries in file order; a repeated key keeps its first position and its last
/// value, as Python's `json.load` does.
struct Ordered(Vec<(String, Value)>);

impl<'de> Deserialize<'de> for Ordered {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Ordered;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Ordered, A::Error> {
                let mut out: Vec<(String, Value)> = Vec::new();
                while let Some((k, v)) = m.next_entry::<String, Value>()? {
                    match out.iter_mut().find(|(key, _)| *key == k) {
                        Some(slot) => slot.1 = v,
                        None => out.push((k, v)),
                    }
                }
                Ok(Ordered(out))
            }
        }
        d.deserialize_map(V)
    }
}

fn object_kind(entries: &[(String, Value)], lower_name: &str) -> InputKind {
    let has = |k: &str| entries.iter().any(|(key, _)| key == k);
    if has("trajectory_format") || (has("messages") && has("info") && !has("trajectory")) {
        InputKind::MiniSweAgentTraj
    } else if lower_name.ends_with(".traj")
        || (has("info") && (has("trajectory") || has("history")))
    {
        InputKind::SweAgentTraj
    } else if has("model_patch") && entries.iter().any(|(k, v)| k == "instance_id" && v.is_string())
    {
        InputKind::JsonSingle
    } else {
        InputKind::JsonDict
    }
}

fn parse_jsonl(file_name: &str, bytes: &[u8], out: &mut Parsed) {
    // Past the cap, errors are only counted (a file of garbage lines would otherwise hold one
    // message per line in memory); `Parsed::cap_errors` then writes the summary.
    for (i, line) in bytes.split(|b| *b == b'\n').enumerate() {
        let line_no = u32::try_from(i + 1).unwrap_or(u32::MAX);
        if line.iter().all(|b| b.is_ascii_whitespace()) {
            continue;
        }
        let source = SourceRef { file: file_name.to_string(), line: Some(line_no) };
        match serde_json::from_slice::<Value>(line) {
            Ok(v) => {
                prediction(&v, None, source, file_name, out);
                if out.errors.len() > MAX_ENTRY_ERRORS {
                    out.errors.pop();
                    out.overflow.other += 1;
                    out.overflow.line.get_or_insert(line_no);
                }
            }
            Err(_) if out.errors.len() >= MAX_ENTRY_ERRORS => {
                out.overflow.not_json += 1;
                out.overflow.line.get_or_insert(line_no);
            }
            Err(e) => out.errors.push(EntryError {
                source,
                instance_id: None,
                model_name_or_path: None,
                message: format!("invalid JSON line: {e}"),
            }),
        }
    }
}

fn parse_value_document(
    file_name: &str,
    bytes: &[u8],
    doc: Document,
    lower: &str,
    out: &mut Parsed,
) {
    let starts = top_level_starts(bytes);
    let line_at = |i: usize| starts.get(i).map(|&off| line_of(bytes, off));
    let source = |line: Option<u32>| SourceRef { file: file_name.to_string(), line };
    match doc {
        Document::List(items) => {
            for (i, v) in items.iter().enumerate() {
                prediction(v, None, source(line_at(i)), file_name, out);
            }
        }
        Document::Map(entries) => match object_kind(&entries, lower) {
            InputKind::SweAgentTraj => swe_agent_traj(&entries, file_name, out),
            InputKind::MiniSweAgentTraj => mini_traj(&entries, file_name, out),
            InputKind::JsonSingle => {
                let obj: serde_json::Map<String, Value> = entries.into_iter().collect();
                prediction(&Value::Object(obj), None, source(None), file_name, out)
            }
            _ => {
                // With duplicate keys the scanner sees more keys than there are entries; find
                // each entry's line by its key instead of its position.
                let keys = top_level_keys(bytes);
                for (key, v) in &entries {
                    let lines: Vec<u32> = keys
                        .iter()
                        .filter(|(k, _)| k == key)
                        .map(|&(_, off)| line_of(bytes, off))
                        .collect();
                    if let [earlier @ .., last] = lines.as_slice() {
                        for line in earlier {
                            out.warnings.push(EntryError {
                                source: source(Some(*line)),
                                instance_id: Some(key.clone()),
                                model_name_or_path: None,
                                message: format!(
                                    "key {key:?} appears again at line {last}; the last value is \
                                     used, as Python's json.load uses it"
                                ),
                            });
                        }
                    }
                    let line = keys
                        .iter()
                        .rev()
                        .find(|(k, _)| k == key)
                        .map(|&(_, off)| line_of(bytes, off));
                    prediction(v, Some(key), source(line), file_name, out);
                }
            }
        },
    }
}

/// One prediction object handed over in memory rather than read from a file (the Python
/// package's `score_many`), read as an entry of a predictions file named `source.file` is: the
/// same fields, the same errors, the instruction set named by the path when the entry names none.
pub fn read_prediction(v: &Value, source: SourceRef) -> Parsed {
    let mut out = Parsed::default();
    let file = source.file.clone();
    prediction(v, None, source, &file, &mut out);
    out
}

/// One SWE-bench prediction object. `key` is its dict key, used when it lacks `instance_id`.
fn prediction(v: &Value, key: Option<&str>, source: SourceRef, file_name: &str, out: &mut Parsed) {
    let err = |out: &mut Parsed, id: Option<String>, model: Option<String>, message: String| {
        out.errors.push(EntryError {
            source: source.clone(),
            instance_id: id,
            model_name_or_path: model,
            message,
        })
    };
    let Some(obj) = v.as_object() else {
        let what = json_type(v);
        return err(
            out,
            key.map(str::to_string),
            None,
            format!("expected a prediction object, found {what}"),
        );
    };
    let model = match obj.get("model_name_or_path") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => {
            let what = json_type(other);
            return err(
                out,
                None,
                None,
                format!("`model_name_or_path` must be a string, found {what}"),
            );
        }
    };
    let id = match (obj.get("instance_id"), key) {
        (Some(Value::String(s)), _) => s.clone(),
        (None | Some(Value::Null), Some(k)) => k.to_string(),
        (None | Some(Value::Null), None) => {
            return err(out, None, model, "missing `instance_id`".to_string());
        }
        (Some(other), _) => {
            let what = json_type(other);
            return err(out, None, model, format!("`instance_id` must be a string, found {what}"));
        }
    };
    let patch = match obj.get("model_patch") {
        Some(Value::Null) => Vec::new(),
        Some(Value::String(s)) => s.clone().into_bytes(),
        None => return err(out, Some(id), model, "missing `model_patch`".to_string()),
        Some(other) => {
            let what = json_type(other);
            return err(
                out,
                Some(id),
                model,
                format!("`model_patch` must be a string or null, found {what}"),
            );
        }
    };
    let set = match explicit_set(obj.get("instruction_set")) {
        Ok(s) => s.or_else(|| instruction_set_from_path(file_name)),
        Err(message) => return err(out, Some(id), model, message),
    };
    out.submissions.push(Submission {
        instance_id: id,
        model_name_or_path: model,
        instruction_set: set,
        patch,
        source,
    });
}

/// An `instruction_set` field: absent/null is `None`, a known name is the set, anything else is
/// an error (a typo must not silently count under no set).
fn explicit_set(v: Option<&Value>) -> Result<Option<InstructionSet>, String> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => {
            InstructionSet::from_name(&s.to_ascii_lowercase()).map(Some).ok_or_else(|| {
                format!("unknown `instruction_set` {s:?} (expected lazy, base or descriptive)")
            })
        }
        Some(other) => {
            Err(format!("`instruction_set` must be a string, found {}", json_type(other)))
        }
    }
}

fn get<'a>(entries: &'a [(String, Value)], key: &str) -> Option<&'a Value> {
    entries.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// A SWE-agent `replay_config`: an object in 1.x, a JSON-encoded string in some 0.x files.
fn replay_config(entries: &[(String, Value)]) -> Option<Value> {
    match get(entries, "replay_config")? {
        Value::String(s) => serde_json::from_str(s).ok(),
        v @ Value::Object(_) => Some(v.clone()),
        _ => None,
    }
}

/// The file name without its folders and its trajectory extension (`<id>.traj` → `<id>`).
fn traj_stem(file_name: &str) -> &str {
    let base = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name);
    let lower = base.to_ascii_lowercase();
    for ext in [".traj.json", ".traj", ".json"] {
        if lower.ends_with(ext) {
            return &base[..base.len() - ext.len()];
        }
    }
    base
}

fn str_at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a str> {
    path.iter().try_fold(v, |v, k| v.get(k))?.as_str().filter(|s| !s.is_empty())
}

/// The `info.submission` of a trajectory (null or absent: the agent submitted nothing).
fn traj_submission(
    entries: &[(String, Value)],
    source: &SourceRef,
    id: &str,
    model: &Option<String>,
) -> Result<String, EntryError> {
    let err = |message: String| EntryError {
        source: source.clone(),
        instance_id: Some(id.to_string()),
        model_name_or_path: model.clone(),
        message,
    };
    let Some(info) = get(entries, "info") else {
        return Err(err("trajectory has no `info`".to_string()));
    };
    let Some(info) = info.as_object() else {
        return Err(err(format!("`info` must be an object, found {}", json_type(info))));
    };
    match info.get("submission") {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(other) => Err(err(format!(
            "`info.submission` must be a string or null, found {}",
            json_type(other)
        ))),
    }
}

fn swe_agent_traj(entries: &[(String, Value)], file_name: &str, out: &mut Parsed) {
    let source = SourceRef { file: file_name.to_string(), line: None };
    let rc = replay_config(entries);
    let top_id = get(entries, "instance_id").and_then(Value::as_str).filter(|s| !s.is_empty());
    let rc_id = rc.as_ref().and_then(|rc| str_at(rc, &["problem_statement", "id"]));
    let id = top_id.or(rc_id).unwrap_or_else(|| traj_stem(file_name)).to_string();
    let model = rc
        .as_ref()
        .and_then(|rc| {
            str_at(rc, &["agent", "model", "name"])
                .or_else(|| str_at(rc, &["agent", "model", "model_name"]))
                .or_else(|| str_at(rc, &["model", "model_name"]))
        })
        .map(str::to_string);
    let set_field = get(entries, "instruction_set");
    let set = explicit_set(set_field).map(|s| {
        s.or_else(|| {
            let path = rc.as_ref().and_then(|rc| str_at(rc, &["problem_statement", "path"]));
            path.and_then(instruction_set_from_path)
        })
        .or_else(|| instruction_set_from_path(file_name))
    });
    push_traj(entries, source, id, model, set, out);
}

fn mini_traj(entries: &[(String, Value)], file_name: &str, out: &mut Parsed) {
    let source = SourceRef { file: file_name.to_string(), line: None };
    let top_id = get(entries, "instance_id").and_then(Value::as_str).filter(|s| !s.is_empty());
    let id = top_id.unwrap_or_else(|| traj_stem(file_name)).to_string();
    let model = get(entries, "info")
        .and_then(|info| {
            str_at(info, &["config", "model", "model_name"])
                .or_else(|| str_at(info, &["config", "model", "name"]))
        })
        .map(str::to_string);
    let set = explicit_set(get(entries, "instruction_set"))
        .map(|s| s.or_else(|| instruction_set_from_path(file_name)));
    push_traj(entries, source, id, model, set, out);
}

/// The common end of both trajectory readers: a bad instruction set or a missing submission is an
/// entry error; otherwise the trajectory is one submission.
fn push_traj(
    entries: &[(String, Value)],
    source: SourceRef,
    id: String,
    model: Option<String>,
    set: Result<Option<InstructionSet>, String>,
    out: &mut Parsed,
) {
    let set = match set {
        Ok(set) => set,
        Err(message) => {
            return out.errors.push(EntryError {
                source,
                instance_id: Some(id),
                model_name_or_path: model,
                message,
            })
        }
    };
    match traj_submission(entries, &source, &id, &model) {
        Ok(patch) => out.submissions.push(Submission {
            instance_id: id,
            model_name_or_path: model,
            instruction_set: set,
            patch: patch.into_bytes(),
            source,
        }),
        Err(e) => out.errors.push(e),
    }
}

/// A trajectory format the readers of `crate::trajectory` handle and the readers above do not
/// (SWE-agent and mini-swe-agent keep their own, older path).
#[cfg(feature = "trajectories")]
fn other_trajectory_format(bytes: &[u8]) -> Option<crate::trajectory::Format> {
    use crate::trajectory::Format;
    crate::trajectory::detect(bytes).filter(|f| {
        !matches!(
            f,
            Format::SweAgent0x
                | Format::SweAgent10
                | Format::SweAgent11
                | Format::MiniSweAgentV1
                | Format::MiniSweAgentV2
        )
    })
}

/// Submissions of an OpenHands / Inspect / ATIF / Claude Code / Codex log: one per trajectory
/// (per Inspect sample), its logged patch. Logs that record no patch (ATIF, Claude Code, Codex)
/// are an entry error saying so. `None`: not such a log.
#[cfg(feature = "trajectories")]
fn trajectory_submissions(file_name: &str, bytes: &[u8]) -> Option<Parsed> {
    let format = other_trajectory_format(bytes)?;
    let mut out = Parsed::default();
    let source = SourceRef { file: file_name.to_string(), line: None };
    let err = |message: String, id: Option<String>| EntryError {
        source: source.clone(),
        instance_id: id,
        model_name_or_path: None,
        message,
    };
    match crate::trajectory::read(bytes) {
        Err(e) => out.errors.push(err(format!("{} log: {e}", format.label()), None)),
        Ok(ts) => {
            let single = ts.len() == 1;
            for t in ts {
                let id = t
                    .instance_id
                    .clone()
                    .or_else(|| single.then(|| traj_stem(file_name).to_string()));
                let Some(id) = id else {
                    out.errors.push(err("trajectory names no instance id".to_string(), None));
                    continue;
                };
                match t.submission {
                    Some(patch) => out.submissions.push(Submission {
                        instance_id: id,
                        model_name_or_path: t.model,
                        instruction_set: instruction_set_from_path(file_name),
                        patch: patch.into_bytes(),
                        source: source.clone(),
                    }),
                    None => out.errors.push(err(
                        format!("{} log records no submitted patch", format.label()),
                        Some(id),
                    )),
                }
            }
        }
    }
    if out.submissions.is_empty() && out.errors.is_empty() {
        out.errors.push(err("holds no submissions".to_string(), None));
    }
    Some(out)
}

/// SWE-agent and mini-swe-agent write every submission of a run twice: as an entry of the run
/// folder's `preds.json` and as `info.submission` of `<run>/<id>/<id>.traj` (`.traj.json`), so a
/// run folder handed in whole would score each submission twice. Given the submissions of all the
/// files handed in, marks the trajectory copies: a submission from a trajectory file whose
/// instance id and patch equal those of an entry of a `preds.json` in a folder above it (and
/// whose model, when the trajectory names one, is that entry's). The `preds.json` entry is the
/// one kept: it names the model.
pub fn trajectory_copies<'s>(subs: impl IntoIterator<Item = &'s Submission>) -> Vec<bool> {
    let subs: Vec<&Submission> = subs.into_iter().collect();
    let folder = |file: &'s str| file.rfind('/').map_or("", |i| &file[..i]);
    let mut preds: HashMap<&str, Vec<(&str, &Submission)>> = HashMap::new();
    for s in &subs {
        let file = s.source.file.as_str();
        if file == "preds.json" || file.ends_with("/preds.json") {
            preds.entry(s.instance_id.as_str()).or_default().push((folder(file), s));
        }
    }
    subs.iter()
        .map(|t| {
            let file = t.source.file.to_ascii_lowercase();
            if !(file.ends_with(".traj") || file.ends_with(".traj.json")) {
                return false;
            }
            preds.get(t.instance_id.as_str()).is_some_and(|entries| {
                entries.iter().any(|(dir, p)| {
                    let below = dir.is_empty()
                        || t.source.file.strip_prefix(dir).is_some_and(|r| r.starts_with('/'));
                    let same_model = t.model_name_or_path.is_none()
                        || t.model_name_or_path == p.model_name_or_path;
                    below && same_model && p.patch == t.patch
                })
            })
        })
        .collect()
}

/// Duplicates across everything handed in at once (files, folders, entries): for each submission,
/// the index of an earlier one with the same instance id, model and instruction set, or `None`.
/// Both are scored (repeated samples of one agent are a legitimate input, and identical ones are
/// answered from the first run); the CLI and the app report each repeat as a warning
/// ([`repeat_warning`]) so that rates are not compared unknowingly over repeated entries.
pub fn repeats<'s>(subs: impl IntoIterator<Item = &'s Submission>) -> Vec<Option<usize>> {
    let mut first: HashMap<(&str, Option<&str>, Option<InstructionSet>), usize> = HashMap::new();
    subs.into_iter()
        .enumerate()
        .map(|(i, s)| {
            let key = (s.instance_id.as_str(), s.model_name_or_path.as_deref(), s.instruction_set);
            match first.get(&key) {
                Some(&j) => Some(j),
                None => {
                    first.insert(key, i);
                    None
                }
            }
        })
        .collect()
}

/// The warning entry for `repeat`, which repeats `first` ([`repeats`]).
pub fn repeat_warning(repeat: &Submission, first: &Submission) -> EntryError {
    let model =
        repeat.model_name_or_path.as_deref().map_or(String::new(), |m| format!(", model {m}"));
    EntryError {
        source: repeat.source.clone(),
        instance_id: Some(repeat.instance_id.clone()),
        model_name_or_path: repeat.model_name_or_path.clone(),
        message: format!(
            "repeats the instance{model} of {} (both are scored; each counts in the run's rates)",
            first.source
        ),
    }
}

/// The instruction set a path names: a folder or a `-`/`_`/`.`-separated token of a path segment
/// that is exactly `lazy`, `base` or `descriptive` (case-insensitive), as in
/// `runs/descriptive/preds.jsonl`, `gpt4-lazy.jsonl` or `problems/base_problems/...`. The last
/// segment that names one wins; two different sets in one segment name none.
pub fn instruction_set_from_path(path: &str) -> Option<InstructionSet> {
    path.split(['/', '\\']).rev().find_map(|segment| {
        let mut found = None;
        for token in segment.split(['-', '_', '.']) {
            if let Some(set) = InstructionSet::from_name(&token.to_ascii_lowercase()) {
                if found.is_some_and(|f| f != set) {
                    return None;
                }
                found = Some(set);
            }
        }
        found
    })
}

pub(crate) fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// 1-based line of a byte offset.
fn line_of(bytes: &[u8], offset: usize) -> u32 {
    let n = bytes[..offset.min(bytes.len())].iter().filter(|b| **b == b'\n').count();
    u32::try_from(n + 1).unwrap_or(u32::MAX)
}

/// Byte offsets where the top-level container's elements (list) or keys (object) start. Only
/// called on text that parsed as JSON, so a simple scanner suffices.
fn top_level_starts(bytes: &[u8]) -> Vec<usize> {
    scan_top_level(bytes).into_iter().map(|(off, _)| off).collect()
}

/// The keys of a top-level object with their offsets, in file order.
fn top_level_keys(bytes: &[u8]) -> Vec<(String, usize)> {
    scan_top_level(bytes)
        .into_iter()
        .filter_map(|(off, end)| {
            let key: String = serde_json::from_slice(bytes.get(off..end)?).ok()?;
            Some((key, off))
        })
        .collect()
}

/// `(start, end)` of every top-level element (for an object: of every key string).
fn scan_top_level(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut is_object = false;
    // At depth 1: whether the next token begins an element (list) or a key (object).
    let mut expect_item = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'"' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                if depth == 1 && expect_item {
                    out.push((start, (i + 1).min(bytes.len())));
                    expect_item = false;
                }
            }
            b'[' | b'{' => {
                if depth == 0 {
                    is_object = b == b'{';
                    expect_item = true;
                } else if depth == 1 && expect_item {
                    out.push((i, i));
                    expect_item = false;
                }
                depth += 1;
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b',' if depth == 1 => expect_item = true,
            _ if b.is_ascii_whitespace() => {}
            _ => {
                // A scalar element of a top-level list.
                if depth == 1 && expect_item && !is_object {
                    out.push((i, i));
                    expect_item = false;
                }
            }
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(p: &Parsed) -> Vec<(&str, Option<u32>)> {
        p.submissions.iter().map(|s| (s.instance_id.as_str(), s.source.line)).collect()
    }

    fn errs(p: &Parsed) -> Vec<(Option<u32>, &str)> {
        p.errors.iter().map(|e| (e.source.line, e.message.as_str())).collect()
    }

    #[test]
    fn jsonl_with_mixed_good_and_bad_lines() {
        let text = concat!(
            r#"{"instance_id": "a", "model_name_or_path": "m", "model_patch": "diff"}"#,
            "\n\n",
            "{not json\n",
            r#"{"model_name_or_path": "m", "model_patch": ""}"#,
            "\n",
            r#"{"instance_id": "b", "model_patch": null}"#,
            "\r\n",
            r#"{"instance_id": "c"}"#,
            "\n",
            r#"{"instance_id": 7, "model_patch": ""}"#,
            "\n",
            r#"{"instance_id": "d", "model_patch": 3}"#,
            "\n",
            "[1]\n",
            r#"{"instance_id": "e", "model_patch": "", "instruction_set": "Lazy"}"#,
            "\n",
        );
        let p = parse_submissions("runs/preds.jsonl", text.as_bytes());
        assert_eq!(ids(&p), vec![("a", Some(1)), ("b", Some(5)), ("e", Some(10))]);
        assert_eq!(p.submissions[0].model_name_or_path.as_deref(), Some("m"));
        assert_eq!(p.submissions[0].patch, b"diff");
        assert!(p.submissions[1].patch.is_empty());
        assert_eq!(p.submissions[2].instruction_set, Some(InstructionSet::Lazy));
        let e = errs(&p);
        assert_eq!(e.len(), 6, "{e:?}");
        assert_eq!(e[0].0, Some(3));
        assert!(e[0].1.starts_with("invalid JSON line: key must be a string at line 1 column 2"));
        assert_eq!(e[1], (Some(4), "missing `instance_id`"));
        assert_eq!(e[2], (Some(6), "missing `model_patch`"));
        assert_eq!(e[3], (Some(7), "`instance_id` must be a string, found a number"));
        assert_eq!(e[4], (Some(8), "`model_patch` must be a string or null, found a number"));
        assert_eq!(e[5], (Some(9), "expected a prediction object, found a list"));
        assert_eq!(p.errors[2].instance_id.as_deref(), Some("c"));
        assert!(p.errors.iter().all(|e| e.source.file == "runs/preds.jsonl"));
    }

    #[test]
    fn garbage_lines_past_the_cap_become_one_summary_entry() {
        // 20,000 lines of text that is not JSON, one real prediction in the middle.
        let mut text = String::new();
        for i in 0..20_000 {
            if i == 150 {
                text.push_str(r#"{"instance_id": "a", "model_patch": ""}"#);
            } else {
                text.push_str("lorem ipsum dolor");
            }
            text.push('\n');
        }
        let p = parse_submissions("notes.jsonl", text.as_bytes());
        assert_eq!(ids(&p), vec![("a", Some(151))]);
        assert_eq!(p.errors.len(), MAX_ENTRY_ERRORS + 1);
        let last = p.errors.last().unwrap();
        assert_eq!(last.source.line, Some(101));
        assert_eq!(last.message, "…and 19,899 more lines are not JSON");
        // No submission at all: the summary asks whether this is a predictions file.
        let text = "not json\n".repeat(81_708);
        let p = parse_submissions("random.jsonl", text.as_bytes());
        assert!(p.submissions.is_empty());
        assert_eq!(p.errors.len(), MAX_ENTRY_ERRORS + 1);
        assert_eq!(
            p.errors.last().unwrap().message,
            "…and 81,608 more lines are not JSON: is this a predictions file?"
        );
        // A JSON list of non-predictions is capped the same way.
        let list = format!("[{}1]", "1,".repeat(500));
        let p = parse_submissions("list.json", list.as_bytes());
        assert_eq!(p.errors.len(), MAX_ENTRY_ERRORS + 1);
        assert_eq!(
            p.errors.last().unwrap().message,
            "…and 401 more entries could not be read: is this a predictions file?"
        );
    }

    #[test]
    fn unknown_ids_past_the_cap_join_the_summary() {
        let mut text = "junk\n".repeat(150);
        for i in 0..50 {
            text.push_str(&format!("{{\"instance_id\": \"x{i}\", \"model_patch\": \"\"}}\n"));
        }
        text.push_str(r#"{"instance_id": "a", "model_patch": ""}"#);
        let mut p = parse_submissions("p.jsonl", text.as_bytes());
        assert_eq!(p.submissions.len(), 51);
        assert_eq!(p.errors.last().unwrap().message, "…and 50 more lines are not JSON");
        p.retain_known(|id| id == "a");
        assert_eq!(p.submissions.len(), 1);
        assert_eq!(p.errors.len(), MAX_ENTRY_ERRORS + 1);
        assert_eq!(
            p.errors.last().unwrap().message,
            "…and 100 more entries could not be read (50 lines are not JSON)"
        );
        assert_eq!(p.errors.last().unwrap().source.line, Some(101));
        // Under the cap nothing changes.
        let mut small = parse_submissions(
            "s.jsonl",
            b"junk\n{\"instance_id\": \"z\", \"model_patch\": \"\"}\n",
        );
        small.retain_known(|_| false);
        assert_eq!(small.errors.len(), 2);
        assert!(small.overflow.is_empty());
    }

    #[test]
    fn binary_input_is_said_up_front() {
        // Pseudo-random bytes (an LCG), as a random or compressed file has.
        let mut x: u32 = 12345;
        let bytes: Vec<u8> = (0..100_000)
            .map(|_| {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                (x >> 16) as u8
            })
            .collect();
        let p = parse_submissions("preds.jsonl", &bytes);
        assert!(p.submissions.is_empty());
        assert_eq!(
            errs(&p),
            vec![(None, "the file is binary data, not a predictions file or an agent log")]
        );
        assert!(looks_binary(b"PK\x03\x04\x14\x00\x00\x00"));
        // Text, with non-ASCII UTF-8 cut at the 8 KiB boundary, is not binary.
        let text = "é".repeat(5000);
        assert!(!looks_binary(text.as_bytes()));
        assert!(!looks_binary(b"{\"instance_id\": \"a\"}\r\n\t\x0c"));
    }

    fn sub(file: &str, id: &str, model: Option<&str>, patch: &str) -> Submission {
        Submission {
            instance_id: id.into(),
            model_name_or_path: model.map(Into::into),
            instruction_set: None,
            patch: patch.into(),
            source: SourceRef { file: file.into(), line: None },
        }
    }

    #[test]
    fn trajectory_copies_of_a_run_folder_s_preds_json_are_marked() {
        let subs = [
            sub("run/preds.json", "a", Some("m"), "pa"),
            sub("run/preds.json", "b", Some("m"), "pb"),
            sub("run/a/a.traj", "a", None, "pa"), // copy of the preds.json entry
            sub("run/b/b.traj", "b", None, "pb-other"), // a different patch: kept
            sub("run/c/c.traj", "c", None, ""),   // no preds.json entry: kept
            sub("other/a/a.traj", "a", None, "pa"), // not below run/: kept
            sub("run/a/a.traj.json", "a", Some("n"), "pa"), // another model: kept
            sub("run/a/a.traj.json", "a", Some("m"), "pa"), // same model: copy
            sub("run/x.jsonl", "a", None, "pa"),  // not a trajectory: kept
            sub("runner/a.traj", "a", None, "pa"), // `runner` is not below `run`
        ];
        let marked = trajectory_copies(&subs);
        assert_eq!(marked, [false, false, true, false, false, false, false, true, false, false]);
        // A bare `preds.json` (no folder) is above every trajectory.
        let top = [sub("preds.json", "a", None, "p"), sub("a/a.traj", "a", None, "p")];
        assert_eq!(trajectory_copies(&top), [false, true]);
    }

    #[test]
    fn json_list_entries_carry_their_lines() {
        let text = "[\n  {\"instance_id\": \"a\", \"model_patch\": \"\"},\n  {\"instance_id\": \"b\"},\n  \"x\",\n  {\"instance_id\": \"c\",\n   \"model_patch\": \"p\"}\n]\n";
        let p = parse_submissions("preds.json", text.as_bytes());
        assert_eq!(ids(&p), vec![("a", Some(2)), ("c", Some(5))]);
        assert_eq!(
            errs(&p),
            vec![
                (Some(3), "missing `model_patch`"),
                (Some(4), "expected a prediction object, found a string")
            ]
        );
        assert_eq!(detect_kind("preds.json", text.as_bytes()), Some(InputKind::JsonList));
    }

    #[test]
    fn json_dict_keyed_by_instance_id_keeps_file_order_and_uses_the_key() {
        let text = r#"{
  "zeta": {"instance_id": "zeta", "model_name_or_path": "m", "model_patch": "p"},
  "alpha": {"model_patch": null},
  "beta": 3,
  "gamma": {"instance_id": "gamma", "model_patch": "", "model_name_or_path": 5}
}"#;
        let p = parse_submissions("preds.json", text.as_bytes());
        assert_eq!(ids(&p), vec![("zeta", Some(2)), ("alpha", Some(3))]);
        assert_eq!(p.errors.len(), 2);
        assert_eq!(p.errors[0].source.line, Some(4));
        assert_eq!(p.errors[0].instance_id.as_deref(), Some("beta"));
        assert_eq!(p.errors[1].message, "`model_name_or_path` must be a string, found a number");
        assert_eq!(detect_kind("preds.json", text.as_bytes()), Some(InputKind::JsonDict));
    }

    #[test]
    fn a_repeated_key_keeps_the_last_value_like_python() {
        let text = "{\"a\": {\"model_patch\": \"1\"},\n\"a\": {\"model_patch\": \"2\"}}";
        let p = parse_submissions("p.json", text.as_bytes());
        assert_eq!(ids(&p), vec![("a", Some(2))]);
        assert_eq!(p.submissions[0].patch, b"2");
    }

    #[test]
    fn invalid_json_documents_name_the_line() {
        let p = parse_submissions("dir/p.json", b"[\n{\"instance_id\": \"a\",\n");
        assert_eq!(p.submissions.len(), 0);
        assert_eq!(p.errors.len(), 1);
        assert_eq!(p.errors[0].source.to_string(), "dir/p.json:3");
        assert!(p.errors[0].message.starts_with("invalid JSON: "));
        let p = parse_submissions("p.json", b"42");
        assert!(p.errors[0].message.ends_with("found a number"), "{:?}", p.errors);
        let p = parse_submissions("p.json", b"\xff\xfe");
        assert_eq!(p.errors.len(), 1);
        let p =
            parse_submissions("p.jsonl", b"\xff\n{\"instance_id\":\"a\",\"model_patch\":\"\"}\n");
        assert_eq!(ids(&p), vec![("a", Some(2))]);
        assert_eq!(p.errors[0].source.line, Some(1));
    }

    #[test]
    fn empty_files_say_so() {
        for name in ["p.jsonl", "p.json"] {
            let text: &[u8] = if name.ends_with('l') { b"\n\n" } else { b"[]" };
            let p = parse_submissions(name, text);
            assert_eq!(errs(&p), vec![(None, "holds no submissions")]);
        }
    }

    #[test]
    fn a_bom_is_ignored() {
        let p = parse_submissions(
            "p.json",
            b"\xEF\xBB\xBF[{\"instance_id\":\"a\",\"model_patch\":\"\"}]",
        );
        assert_eq!(ids(&p), vec![("a", Some(1))]);
    }

    #[test]
    fn single_prediction_objects_and_unknown_extensions() {
        let one = br#"{"model_name_or_path": "m", "instance_id": "a", "model_patch": "x"}"#;
        let p = parse_submissions("out/a.pred", one);
        assert_eq!(ids(&p), vec![("a", None)]);
        assert_eq!(detect_kind("out/a.pred", one), Some(InputKind::JsonSingle));
        let lines = b"{\"instance_id\":\"a\",\"model_patch\":\"\"}\n{\"instance_id\":\"b\",\"model_patch\":\"\"}\n";
        let p = parse_submissions("preds.txt", lines);
        assert_eq!(ids(&p), vec![("a", Some(1)), ("b", Some(2))]);
    }

    #[test]
    fn swe_agent_1x_trajectory() {
        let text = r#"{"trajectory": [], "history": [], "environment": "main",
          "info": {"submission": "diff --git a/x b/x\n", "exit_status": "submitted"},
          "replay_config": {"agent": {"model": {"name": "gpt-4o"}},
            "problem_statement": {"id": "render-template-str", "type": "text_file",
              "path": "problems/descriptive_problems/flask_refactor/render-template-str-task.txt"}}}"#;
        let p = parse_submissions("runs/x/whatever.traj", text.as_bytes());
        assert!(p.errors.is_empty(), "{:?}", p.errors);
        let s = &p.submissions[0];
        assert_eq!(s.instance_id, "render-template-str");
        assert_eq!(s.model_name_or_path.as_deref(), Some("gpt-4o"));
        assert_eq!(s.instruction_set, Some(InstructionSet::Descriptive));
        assert_eq!(s.patch, b"diff --git a/x b/x\n");
        assert_eq!(s.source, SourceRef { file: "runs/x/whatever.traj".into(), line: None });
        assert_eq!(detect_kind("a.traj", text.as_bytes()), Some(InputKind::SweAgentTraj));
    }

    #[test]
    fn swe_agent_0x_trajectory_takes_the_file_stem() {
        let text = r#"{"environment": "swe_main", "trajectory": [{"state": "{\"open_file\": \"n/a\"}"}],
          "history": [], "info": {"exit_status": "submitted", "submission": null}}"#;
        let p = parse_submissions("lazy/stock-ledger-class.traj", text.as_bytes());
        let s = &p.submissions[0];
        assert_eq!(s.instance_id, "stock-ledger-class");
        assert_eq!((s.model_name_or_path.as_deref(), s.patch.as_slice()), (None, &b""[..]));
        assert_eq!(s.instruction_set, Some(InstructionSet::Lazy));
        // A replay_config given as a JSON string (some 0.x files) is read too.
        let text = r#"{"trajectory": [], "info": {"submission": "p"},
          "replay_config": "{\"model\": {\"model_name\": \"gpt4\"}, \"problem_statement\": {\"id\": \"t1\"}}"}"#;
        let p = parse_submissions("x.traj", text.as_bytes());
        assert_eq!(ids(&p), vec![("t1", None)]);
        assert_eq!(p.submissions[0].model_name_or_path.as_deref(), Some("gpt4"));
    }

    #[test]
    fn valid_json_of_the_wrong_shape_names_what_it_found() {
        let p = parse_submissions("p.json", b"\"just a string\"\n");
        assert_eq!(
            errs(&p),
            vec![(
                Some(1),
                "expected a list of predictions, or an object (predictions keyed by instance_id, \
                 one prediction, or a trajectory), found a string"
            )]
        );
        let p = parse_submissions("p.json", b"[1, 2");
        assert!(p.errors[0].message.starts_with("invalid JSON: "));
    }

    #[test]
    fn broken_trajectories_are_entry_errors() {
        let p = parse_submissions("t.traj", br#"{"trajectory": [], "history": []}"#);
        assert_eq!(errs(&p), vec![(None, "trajectory has no `info`")]);
        assert_eq!(p.errors[0].instance_id.as_deref(), Some("t"));
        let p = parse_submissions("t.traj", br#"{"trajectory": [], "info": {"submission": 1}}"#);
        assert_eq!(
            errs(&p),
            vec![(None, "`info.submission` must be a string or null, found a number")]
        );
        let p = parse_submissions("t.traj", br#"{"trajectory": [], "info": []}"#);
        assert_eq!(errs(&p), vec![(None, "`info` must be an object, found a list")]);
        let p = parse_submissions("t.traj", b"{\"trajectory\": [");
        assert!(p.errors[0].message.starts_with("invalid JSON"));
    }

    #[test]
    fn mini_swe_agent_trajectory() {
        let text = r#"{"trajectory_format": "mini-swe-agent-1.1", "instance_id": "rename-x",
          "messages": [{"role": "user", "content": "hi"}],
          "info": {"exit_status": "Submitted", "submission": "diff",
                   "config": {"model": {"model_name": "claude"}}}}"#;
        let p = parse_submissions("base/rename-x.traj.json", text.as_bytes());
        let s = &p.submissions[0];
        assert_eq!((s.instance_id.as_str(), s.patch.as_slice()), ("rename-x", &b"diff"[..]));
        assert_eq!(s.model_name_or_path.as_deref(), Some("claude"));
        assert_eq!(s.instruction_set, Some(InstructionSet::Base));
        assert_eq!(detect_kind("x.traj.json", text.as_bytes()), Some(InputKind::MiniSweAgentTraj));
        let v1 = br#"{"messages": [], "info": {"submission": ""}}"#;
        let p = parse_submissions("runs/rename-y.traj.json", v1);
        assert_eq!(ids(&p), vec![("rename-y", None)]);
    }

    #[test]
    fn instruction_sets_from_paths_and_fields() {
        use InstructionSet::*;
        assert_eq!(instruction_set_from_path("runs/descriptive/preds.jsonl"), Some(Descriptive));
        assert_eq!(instruction_set_from_path("gpt4-lazy.jsonl"), Some(Lazy));
        assert_eq!(instruction_set_from_path("out/gpt4_BASE.preds.json"), Some(Base));
        assert_eq!(instruction_set_from_path("lazy/run-descriptive.jsonl"), Some(Descriptive));
        assert_eq!(instruction_set_from_path("database/lazybones.jsonl"), None);
        assert_eq!(instruction_set_from_path("lazy-vs-base.jsonl"), None);
        assert_eq!(instruction_set_from_path("preds.jsonl"), None);
        let line = br#"{"instance_id": "a", "model_patch": "", "instruction_set": "base"}"#;
        let p = parse_submissions("lazy/p.jsonl", line);
        assert_eq!(p.submissions[0].instruction_set, Some(Base));
        let bad = br#"{"instance_id": "a", "model_patch": "", "instruction_set": "medium"}"#;
        let p = parse_submissions("p.jsonl", bad);
        assert_eq!(
            errs(&p),
            vec![(
                Some(1),
                "unknown `instruction_set` \"medium\" (expected lazy, base or descriptive)"
            )]
        );
    }

    #[test]
    fn unknown_instance_ids_become_errors_in_line_order() {
        let text = "{\"instance_id\":\"a\",\"model_patch\":\"\"}\nbad\n{\"instance_id\":\"zz\",\"model_name_or_path\":\"m\",\"model_patch\":\"\"}\n";
        let mut p = parse_submissions("p.jsonl", text.as_bytes());
        p.retain_known(|id| id == "a");
        assert_eq!(ids(&p), vec![("a", Some(1))]);
        assert_eq!(p.errors.len(), 2);
        assert_eq!(p.errors[1].source.line, Some(3));
        assert_eq!(p.errors[1].message, "unknown instance id \"zz\": not a task of the bundle");
        assert_eq!(p.errors[1].model_name_or_path.as_deref(), Some("m"));
    }

    /// A one-method task over `m.py` (`x = 1`).
    fn one_method_task() -> (crate::tree::Tree, crate::bundle::TaskData) {
        use crate::bundle::{Instructions, TaskData, TestFile};
        let mut base = crate::tree::Tree::new();
        base.insert_bytes("m.py", b"x = 1\n".to_vec()).unwrap();
        let source =
            "import unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n        pass\n";
        let task = TaskData {
            schema_version: 1,
            id: "t".into(),
            repo: "r".into(),
            instructions: Instructions {
                lazy: String::new(),
                base: String::new(),
                descriptive: String::new(),
            },
            test: TestFile {
                name: "t.py".into(),
                path: "tests/r/t.py".into(),
                source: source.into(),
            },
            methods: vec!["T.test_a".into()],
            inspected: vec![],
            files: vec![],
            combined: None,
        };
        (base, task)
    }

    #[test]
    fn evaluate_submission_scores_unparsable_patches_as_failed_and_labels_results() {
        use crate::patch::PatchStatus;
        use crate::unittest::{RunConfig, Scorer};
        let (base, task) = one_method_task();
        let sub = |patch: &str| Submission {
            instance_id: "t".into(),
            model_name_or_path: Some("m".into()),
            instruction_set: Some(InstructionSet::Base),
            patch: patch.into(),
            source: SourceRef { file: "p.jsonl".into(), line: Some(2) },
        };
        let mut scorer = Scorer::new(RunConfig::default());
        let ok = evaluate_submission(&mut scorer, &base, &task, &sub("  \n"));
        assert!(ok.resolved);
        assert_eq!(ok.model_name_or_path.as_deref(), Some("m"));
        assert_eq!(ok.source.as_ref().and_then(|s| s.line), Some(2));
        // git: "error: corrupt patch at line 5"; the report stores git's message without the
        // "error: " prefix, as for every apply failure.
        let corrupt = "--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-x = 1\nnonsense\n";
        let failed = evaluate_submission(&mut scorer, &base, &task, &sub(corrupt));
        assert_eq!(
            (failed.patch_status, failed.resolved, failed.tests.len()),
            (PatchStatus::Failed, false, 0)
        );
        assert_eq!(failed.patch_error.as_deref(), Some("corrupt patch at line 5"));
        assert_eq!((failed.subtests_passed, failed.subtests_total), (0, 1));
        assert_eq!(failed.instruction_set, Some(InstructionSet::Base));
        assert_eq!(failed.source.as_ref().and_then(|s| s.line), Some(2));
        let stale = "--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-x = 2\n+x = 3\n";
        let failed = evaluate_submission(&mut scorer, &base, &task, &sub(stale));
        assert_eq!(
            (failed.patch_status, failed.resolved, failed.subtests_passed, failed.subtests_total),
            (PatchStatus::Failed, false, 0, 1)
        );
    }

    #[test]
    fn a_patch_that_is_not_utf8_is_scored_and_round_trips_through_json() {
        use crate::patch::PatchStatus;
        use crate::unittest::{RunConfig, Scorer};
        let (mut base, task) = one_method_task();
        base.insert_bytes("doc.txt", b"caf\xe9\n".to_vec()).unwrap();
        let patch = b"--- a/doc.txt\n+++ b/doc.txt\n@@ -1 +1 @@\n-caf\xe9\n+K\xe4se\n".to_vec();
        let s = Submission {
            instance_id: "t".into(),
            model_name_or_path: None,
            instruction_set: None,
            patch,
            source: SourceRef { file: "x.patch".into(), line: None },
        };
        let json = serde_json::to_string(&s).unwrap();
        assert!(json.contains("\"patch\":[45,45,45,"), "{json}");
        assert_eq!(serde_json::from_str::<Submission>(&json).unwrap(), s);
        let text = Submission { patch: b"diff".to_vec(), ..s.clone() };
        let json = serde_json::to_string(&text).unwrap();
        assert!(json.contains("\"patch\":\"diff\""), "{json}");
        assert_eq!(serde_json::from_str::<Submission>(&json).unwrap(), text);
        let r = evaluate_submission(&mut Scorer::new(RunConfig::default()), &base, &task, &s);
        assert_eq!((r.patch_status, r.resolved), (PatchStatus::Applied, true));
    }

    /// The demo submissions shipped in `tasks/demo/submissions`, in every shape.
    #[test]
    fn demo_submissions() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tasks/demo/submissions");
        let read = |name: &str| std::fs::read(format!("{dir}/{name}")).unwrap();
        let jsonl = parse_submissions("predictions.jsonl", &read("predictions.jsonl"));
        assert!(jsonl.errors.is_empty(), "{:?}", jsonl.errors);
        assert_eq!(jsonl.submissions.len(), 8);
        assert_eq!(jsonl.submissions[2].instance_id, "add-log-parameter-post-entry");
        assert_eq!(jsonl.submissions[2].source.line, Some(3));
        let list = parse_submissions("predictions.json", &read("predictions.json"));
        assert!(list.errors.is_empty(), "{:?}", list.errors);
        assert_eq!(list.submissions.len(), 7);
        assert!(list
            .submissions
            .iter()
            .all(|s| s.model_name_or_path.as_deref() == Some("demo-agent-b")));
        let null = list.submissions.iter().find(|s| s.instance_id == "combine-currency-into-money");
        assert_eq!(null.map(|s| s.patch.as_slice()), Some(&b""[..]));
        let dict = parse_submissions("predictions-by-id.json", &read("predictions-by-id.json"));
        assert!(dict.errors.is_empty(), "{:?}", dict.errors);
        assert_eq!(dict.submissions.len(), 3);
        for t in ["add-log-parameter-post-entry", "extract-normalize-sku", "stock-ledger-class"] {
            let name = format!("trajectories/{t}.traj");
            let p = parse_submissions(&name, &read(&name));
            assert!(p.errors.is_empty(), "{:?}", p.errors);
            assert_eq!(p.submissions[0].instance_id, t);
        }
        let sku = parse_submissions(
            "trajectories/extract-normalize-sku.traj",
            &read("trajectories/extract-normalize-sku.traj"),
        );
        assert_eq!(sku.submissions[0].model_name_or_path.as_deref(), Some("claude-demo-1"));
        assert_eq!(sku.submissions[0].instruction_set, Some(InstructionSet::Descriptive));
        assert!(sku.submissions[0].patch.windows(10).any(|w| w == b"diff --git"));
    }

    /// Real SWE-agent files, when the shared samples are present on this machine (never copied
    /// into the repository).
    #[test]
    fn real_swe_agent_samples_when_present() {
        let dir = std::path::Path::new("/work/shared/samples/trajectories");
        let cases = [
            (
                "sweagent-v0x__swe-agent__test-repo-i1.traj",
                "sweagent-v0x__swe-agent__test-repo-i1",
                None,
            ),
            (
                "sweagent-v1x__6e44b9__sweagenttestrepo-1c2844.traj",
                "SWE-agent__test-repo-i1",
                Some("gpt-4o"),
            ),
            (
                "sweagent-v1x-fc__marshmallow-code__marshmallow-1867.traj",
                "marshmallow-code__marshmallow-1867",
                Some("replay"),
            ),
        ];
        for (file, id, model) in cases {
            let Ok(bytes) = std::fs::read(dir.join(file)) else { continue };
            let p = parse_submissions(file, &bytes);
            assert!(p.errors.is_empty(), "{file}: {:?}", p.errors);
            let s = &p.submissions[0];
            assert_eq!((s.instance_id.as_str(), s.model_name_or_path.as_deref()), (id, model));
            assert!(s.patch.windows(13).any(|w| w == b"diff --git a/"), "{file}");
        }
    }
}
