//! `ast.dump` exactly as CPython 3.11 formats it, and Python's `repr` of the constants a tree
//! holds (`str`, `bytes`, `float`, `complex`).

use super::node::{Constant, Field, Node, NodeClass};

/// `ast.dump(node, annotate_fields, include_attributes, indent=indent)` exactly as CPython 3.11
/// formats it (`indent` is the already-normalised indent string: an int `n` is `n` spaces).
///
/// CPython formats children first and then picks the layout; here the layout is decided from the
/// structure (`allsimple` and the argument count) and everything is written into one buffer, so
/// each tree level costs a small stack frame.
pub fn dump(
    node: &Node,
    annotate_fields: bool,
    include_attributes: bool,
    indent: Option<&str>,
) -> String {
    let d = Dumper { annotate_fields, include_attributes, indent };
    let mut out = String::new();
    d.node(node, 0, &mut out);
    out
}

struct Dumper<'a> {
    annotate_fields: bool,
    include_attributes: bool,
    indent: Option<&'a str>,
}

const ATTRIBUTES: [&str; 4] = ["lineno", "col_offset", "end_lineno", "end_col_offset"];

impl Dumper<'_> {
    /// Whether a field is omitted (`None` in an optional field).
    fn omitted(cls: &NodeClass, name: &str, value: &Field) -> bool {
        matches!(value, Field::None) && cls.is_optional(name)
    }

    /// The attributes shown for a node (all four when it has a location).
    fn attrs_shown(&self, n: &Node) -> usize {
        if !self.include_attributes || n.loc.is_none() {
            return 0;
        }
        ATTRIBUTES.iter().filter(|a| n.class.attributes.contains(a)).count()
    }

    fn arg_count(&self, n: &Node) -> usize {
        let fields = n
            .class
            .fields
            .iter()
            .zip(&n.fields)
            .filter(|(name, v)| !Self::omitted(n.class, name, v))
            .count();
        fields + self.attrs_shown(n)
    }

    /// CPython's `simple` flag of a formatted value.
    fn simple(&self, f: &Field) -> bool {
        match f {
            Field::Node(n) => self.arg_count(n) == 0,
            Field::List(items) => items.is_empty(),
            _ => true,
        }
    }

    fn pad(&self, out: &mut String, level: usize, comma: bool) {
        if let Some(ind) = self.indent {
            if comma {
                out.push(',');
            }
            out.push('\n');
            for _ in 0..level {
                out.push_str(ind);
            }
        } else if comma {
            out.push_str(", ");
        }
    }

    fn node(&self, n: &Node, level: usize, out: &mut String) {
        let level = level + usize::from(self.indent.is_some());
        let cls = n.class;
        let shown = |(name, v): &(&&str, &Field)| !Self::omitted(cls, name, v);
        let allsimple = cls.fields.iter().zip(&n.fields).filter(shown).all(|(_, v)| self.simple(v));
        let flat = allsimple && self.arg_count(n) <= 3;
        out.push_str(cls.name);
        out.push('(');
        let mut first = true;
        let mut keywords = self.annotate_fields;
        for (i, name) in cls.fields.iter().enumerate() {
            let Some(value) = n.fields.get(i) else {
                keywords = true;
                continue;
            };
            if Self::omitted(cls, name, value) {
                keywords = true;
                continue;
            }
            self.separator(out, level, flat, first);
            first = false;
            if keywords {
                out.push_str(name);
                out.push('=');
            }
            self.field(value, level, out);
        }
        if let Some(loc) = n.loc.filter(|_| self.include_attributes) {
            let values = [loc.lineno, loc.col_offset, loc.end_lineno, loc.end_col_offset];
            for (name, v) in ATTRIBUTES.iter().zip(values) {
                if cls.attributes.contains(name) {
                    self.separator(out, level, flat, first);
                    first = false;
                    out.push_str(name);
                    out.push('=');
                    out.push_str(&v.to_string());
                }
            }
        }
        out.push(')');
    }

    fn separator(&self, out: &mut String, level: usize, flat: bool, first: bool) {
        if flat {
            if !first {
                out.push_str(", ");
            }
        } else {
            self.pad(out, level, !first);
        }
    }

    fn field(&self, f: &Field, level: usize, out: &mut String) {
        match f {
            Field::None => out.push_str("None"),
            Field::Node(n) => self.node(n, level, out),
            Field::List(items) => {
                if items.is_empty() {
                    out.push_str("[]");
                    return;
                }
                let level = level + usize::from(self.indent.is_some());
                out.push('[');
                for (i, x) in items.iter().enumerate() {
                    self.pad(out, level, i > 0);
                    self.field(x, level, out);
                }
                out.push(']');
            }
            Field::Str(s) => out.push_str(&repr_str(s)),
            Field::Int(i) => out.push_str(&i.to_string()),
            Field::Const(c) => out.push_str(&repr_constant(c)),
        }
    }
}

/// Python's `repr` of a constant value.
pub fn repr_constant(c: &Constant) -> String {
    match c {
        Constant::None => "None".to_string(),
        Constant::Bool(true) => "True".to_string(),
        Constant::Bool(false) => "False".to_string(),
        Constant::Int(i) => i.to_string(),
        Constant::Float(f) => repr_float(*f),
        Constant::Complex { real, imag } => repr_complex(*real, *imag),
        Constant::Str(s) => repr_str(s),
        Constant::Bytes(b) => repr_bytes(b),
        Constant::Ellipsis => "Ellipsis".to_string(),
    }
}

/// Python's `repr(float)`: shortest round-trip digits, exponent form outside `1e-4 <= |x| < 1e16`.
pub fn repr_float(f: f64) -> String {
    format_float(f, true)
}

/// `float_repr_style` 'r' formatting; `force_point` adds `.0` to integral values (repr of float,
/// but not of the parts of a complex).
fn format_float(f: f64, force_point: bool) -> String {
    if f.is_nan() {
        return "nan".to_string();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf".to_string() } else { "-inf".to_string() };
    }
    if f == 0.0 {
        let z = if force_point { "0.0" } else { "0" };
        return if f.is_sign_negative() { format!("-{z}") } else { z.to_string() };
    }
    // Rust's `{:e}` gives the shortest round-trip digits: "d.ddde±x".
    let sci = format!("{:e}", f.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let sign = if f < 0.0 { "-" } else { "" };
    let decpt = exp + 1; // position of the decimal point relative to the digits
    if (-4..16).contains(&exp) {
        let n = digits.len() as i32;
        let body = if decpt <= 0 {
            format!("0.{}{}", "0".repeat((-decpt) as usize), digits)
        } else if decpt >= n {
            let zeros = "0".repeat((decpt - n) as usize);
            if force_point {
                format!("{digits}{zeros}.0")
            } else {
                format!("{digits}{zeros}")
            }
        } else {
            format!("{}.{}", &digits[..decpt as usize], &digits[decpt as usize..])
        };
        format!("{sign}{body}")
    } else {
        let m = if digits.len() > 1 {
            format!("{}.{}", &digits[..1], &digits[1..])
        } else {
            digits.clone()
        };
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{sign}{m}e{esign}{:02}", exp.abs())
    }
}

/// Python's `repr(complex)`.
pub fn repr_complex(real: f64, imag: f64) -> String {
    let im = format_float(imag, false);
    if real == 0.0 && real.is_sign_positive() {
        return format!("{im}j");
    }
    let re = format_float(real, false);
    let sign = if im.starts_with('-') { "" } else { "+" };
    format!("({re}{sign}{im}j)")
}

pub(crate) fn is_printable_char(c: char) -> bool {
    crate::unicode::is_printable(c)
}

/// Python's `repr(str)`.
pub fn repr_str(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if (c as u32) < 0x7f => out.push(c),
            c if is_printable_char(c) => out.push(c),
            c => {
                let cp = c as u32;
                if cp <= 0xff {
                    out.push_str(&format!("\\x{cp:02x}"));
                } else if cp <= 0xffff {
                    out.push_str(&format!("\\u{cp:04x}"));
                } else {
                    out.push_str(&format!("\\U{cp:08x}"));
                }
            }
        }
    }
    out.push(quote);
    out
}

/// Python's `repr(bytes)`.
pub fn repr_bytes(b: &[u8]) -> String {
    let quote = if b.contains(&b'\'') && !b.contains(&b'"') { b'"' } else { b'\'' };
    let mut out = String::with_capacity(b.len() + 3);
    out.push('b');
    out.push(quote as char);
    for &c in b {
        match c {
            b'\\' => out.push_str("\\\\"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c as char);
            }
            c if !(0x20..0x7f).contains(&c) => out.push_str(&format!("\\x{c:02x}")),
            c => out.push(c as char),
        }
    }
    out.push(quote as char);
    out
}
