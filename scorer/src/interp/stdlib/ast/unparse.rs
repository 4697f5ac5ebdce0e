//! `ast.unparse` as CPython 3.11 writes source back from a tree (precedence levels, quoting).

use super::*;

/// `ast.unparse` precedence levels (CPython's `_Precedence`).
pub(super) mod prec {
    pub(crate) const TUPLE: u8 = 1;
    pub(crate) const TEST: u8 = 3;
    pub(crate) const OR: u8 = 4;
    pub(crate) const AND: u8 = 5;
    pub(crate) const NOT: u8 = 6;
    pub(crate) const CMP: u8 = 7;
    pub(crate) const BOR: u8 = 9;
    pub(crate) const BXOR: u8 = 10;
    pub(crate) const BAND: u8 = 11;
    pub(crate) const SHIFT: u8 = 12;
    pub(crate) const ARITH: u8 = 13;
    pub(crate) const TERM: u8 = 14;
    pub(crate) const FACTOR: u8 = 15;
    pub(crate) const POWER: u8 = 16;
    pub(crate) const ATOM: u8 = 18;
}

impl<'a> Interp<'a> {
    fn ast_field(&mut self, n: &Value<'a>, f: &str) -> PyResult<'a, Value<'a>> {
        self.getattr(n, f)
    }

    fn ast_list(&mut self, n: &Value<'a>, f: &str) -> PyResult<'a, Vec<Value<'a>>> {
        let v = self.getattr(n, f)?;
        self.to_vec(&v)
    }

    fn ast_str(&mut self, n: &Value<'a>, f: &str) -> PyResult<'a, String> {
        let v = self.getattr(n, f)?;
        self.str_of(&v)
    }

    /// `ast.unparse` for the common expression and simple statement forms; other nodes are an
    /// `UnsupportedConstruct` (never a different text).
    pub fn unparse(&mut self, n: &Value<'a>, level: u8) -> PyResult<'a, String> {
        self.step()?;
        self.check_depth()?;
        let cls = type_name(n);
        let paren = |s: String, own: u8| if level > own { format!("({s})") } else { s };
        Ok(match cls.as_str() {
            "Name" => self.ast_str(n, "id")?,
            "Constant" => {
                let v = self.ast_field(n, "value")?;
                self.repr(&v)?
            }
            "Attribute" => {
                let v = self.ast_field(n, "value")?;
                format!("{}.{}", self.unparse(&v, prec::ATOM)?, self.ast_str(n, "attr")?)
            }
            "Subscript" => {
                let v = self.ast_field(n, "value")?;
                let s = self.ast_field(n, "slice")?;
                let inner = if type_name(&s) == "Tuple" {
                    let elts = self.ast_list(&s, "elts")?;
                    let mut parts = Vec::new();
                    for e in &elts {
                        parts.push(self.unparse(e, prec::TEST)?);
                    }
                    if parts.len() == 1 {
                        format!("{},", parts[0])
                    } else {
                        parts.join(", ")
                    }
                } else {
                    self.unparse(&s, prec::TUPLE)?
                };
                format!("{}[{inner}]", self.unparse(&v, prec::ATOM)?)
            }
            "BinOp" => {
                let op = self.ast_field(n, "op")?;
                let (sym, own) = match type_name(&op).as_str() {
                    "Add" => ("+", prec::ARITH),
                    "Sub" => ("-", prec::ARITH),
                    "Mult" => ("*", prec::TERM),
                    "MatMult" => ("@", prec::TERM),
                    "Div" => ("/", prec::TERM),
                    "FloorDiv" => ("//", prec::TERM),
                    "Mod" => ("%", prec::TERM),
                    "Pow" => ("**", prec::POWER),
                    "LShift" => ("<<", prec::SHIFT),
                    "RShift" => (">>", prec::SHIFT),
                    "BitOr" => ("|", prec::BOR),
                    "BitXor" => ("^", prec::BXOR),
                    _ => ("&", prec::BAND),
                };
                let (lp, rp) = if sym == "**" { (own + 1, own) } else { (own, own + 1) };
                let l = self.ast_field(n, "left")?;
                let r = self.ast_field(n, "right")?;
                let s = format!("{} {sym} {}", self.unparse(&l, lp)?, self.unparse(&r, rp)?);
                paren(s, own)
            }
            "UnaryOp" => {
                let op = self.ast_field(n, "op")?;
                let (sym, own) = match type_name(&op).as_str() {
                    "Not" => ("not ", prec::NOT),
                    "USub" => ("-", prec::FACTOR),
                    "UAdd" => ("+", prec::FACTOR),
                    _ => ("~", prec::FACTOR),
                };
                let o = self.ast_field(n, "operand")?;
                let s = format!("{sym}{}", self.unparse(&o, own)?);
                paren(s, own)
            }
            "BoolOp" => {
                let op = self.ast_field(n, "op")?;
                let (sym, own) =
                    if type_name(&op) == "And" { (" and ", prec::AND) } else { (" or ", prec::OR) };
                let vals = self.ast_list(n, "values")?;
                let mut parts = Vec::new();
                for (i, v) in vals.iter().enumerate() {
                    // CPython raises the level for each further operand.
                    let lv = own.saturating_add(1).saturating_add(i.min(255) as u8);
                    parts.push(self.unparse(v, lv)?);
                }
                paren(parts.join(sym), own)
            }
            "Compare" => {
                let l = self.ast_field(n, "left")?;
                let mut s = self.unparse(&l, prec::CMP + 1)?;
                let ops = self.ast_list(n, "ops")?;
                let comps = self.ast_list(n, "comparators")?;
                for (op, c) in ops.iter().zip(&comps) {
                    let sym = match type_name(op).as_str() {
                        "Eq" => "==",
                        "NotEq" => "!=",
                        "Lt" => "<",
                        "LtE" => "<=",
                        "Gt" => ">",
                        "GtE" => ">=",
                        "Is" => "is",
                        "IsNot" => "is not",
                        "In" => "in",
                        _ => "not in",
                    };
                    s = format!("{s} {sym} {}", self.unparse(c, prec::CMP + 1)?);
                }
                paren(s, prec::CMP)
            }
            "Call" => {
                let f = self.ast_field(n, "func")?;
                let mut parts = Vec::new();
                for a in self.ast_list(n, "args")? {
                    parts.push(self.unparse(&a, prec::TEST)?);
                }
                for k in self.ast_list(n, "keywords")? {
                    let v = self.ast_field(&k, "value")?;
                    let arg = self.ast_field(&k, "arg")?;
                    let vs = self.unparse(&v, prec::TEST)?;
                    parts.push(match arg {
                        Value::None => format!("**{vs}"),
                        a => format!("{}={vs}", self.str_of(&a)?),
                    });
                }
                format!("{}({})", self.unparse(&f, prec::ATOM)?, parts.join(", "))
            }
            "Starred" => {
                let v = self.ast_field(n, "value")?;
                format!("*{}", self.unparse(&v, prec::BOR)?)
            }
            "Tuple" | "List" | "Set" => {
                let elts = self.ast_list(n, "elts")?;
                let mut parts = Vec::new();
                for e in &elts {
                    parts.push(self.unparse(e, prec::TEST)?);
                }
                match cls.as_str() {
                    "List" => format!("[{}]", parts.join(", ")),
                    "Set" if parts.is_empty() => "{*()}".into(),
                    "Set" => format!("{{{}}}", parts.join(", ")),
                    _ => {
                        let inner = if parts.len() == 1 {
                            format!("{},", parts[0])
                        } else {
                            parts.join(", ")
                        };
                        if parts.is_empty() || level > prec::TUPLE {
                            format!("({inner})")
                        } else {
                            inner
                        }
                    }
                }
            }
            "Dict" => {
                let keys = self.ast_list(n, "keys")?;
                let vals = self.ast_list(n, "values")?;
                let mut parts = Vec::new();
                for (k, v) in keys.iter().zip(&vals) {
                    let vs = self.unparse(v, prec::TEST)?;
                    parts.push(match k {
                        Value::None => format!("**{}", self.unparse(v, prec::BOR)?),
                        k => format!("{}: {vs}", self.unparse(k, prec::TEST)?),
                    });
                }
                format!("{{{}}}", parts.join(", "))
            }
            "arg" => {
                let name = self.ast_str(n, "arg")?;
                match self.ast_field(n, "annotation")? {
                    Value::None => name,
                    a => format!("{name}: {}", self.unparse(&a, prec::TEST)?),
                }
            }
            "arguments" => self.unparse_arguments(n)?,
            "Assign" => {
                let mut s = String::new();
                for t in self.ast_list(n, "targets")? {
                    s.push_str(&self.unparse(&t, prec::TUPLE)?);
                    s.push_str(" = ");
                }
                let v = self.ast_field(n, "value")?;
                s.push_str(&self.unparse(&v, prec::TUPLE)?);
                s
            }
            "AugAssign" => {
                let t = self.ast_field(n, "target")?;
                let op = self.ast_field(n, "op")?;
                let v = self.ast_field(n, "value")?;
                let sym = match type_name(&op).as_str() {
                    "Add" => "+",
                    "Sub" => "-",
                    "Mult" => "*",
                    "Div" => "/",
                    "FloorDiv" => "//",
                    "Mod" => "%",
                    "Pow" => "**",
                    other => return Err(self.unsupported(format!("ast.unparse of {other}="))),
                };
                format!(
                    "{} {sym}= {}",
                    self.unparse(&t, prec::TUPLE)?,
                    self.unparse(&v, prec::TUPLE)?
                )
            }
            "Return" => match self.ast_field(n, "value")? {
                Value::None => "return".into(),
                v => format!("return {}", self.unparse(&v, prec::TUPLE)?),
            },
            "Expr" => {
                let v = self.ast_field(n, "value")?;
                self.unparse(&v, prec::TUPLE)?
            }
            "Pass" => "pass".into(),
            "Break" => "break".into(),
            "Continue" => "continue".into(),
            other => return Err(self.unsupported(format!("ast.unparse of {other}"))),
        })
    }

    fn unparse_arguments(&mut self, n: &Value<'a>) -> PyResult<'a, String> {
        let posonly = self.ast_list(n, "posonlyargs")?;
        let args = self.ast_list(n, "args")?;
        let defaults = self.ast_list(n, "defaults")?;
        let kwonly = self.ast_list(n, "kwonlyargs")?;
        let kw_defaults = self.ast_list(n, "kw_defaults")?;
        let vararg = self.ast_field(n, "vararg")?;
        let kwarg = self.ast_field(n, "kwarg")?;
        let mut parts = Vec::new();
        let all: Vec<Value<'a>> = posonly.iter().chain(&args).cloned().collect();
        let first_default = all.len().saturating_sub(defaults.len());
        for (i, a) in all.iter().enumerate() {
            let mut s = self.unparse(a, prec::TEST)?;
            if i >= first_default {
                let d = self.unparse(&defaults[i - first_default], prec::TEST)?;
                let annotated = !self.ast_field(a, "annotation")?.is_none();
                s = if annotated { format!("{s} = {d}") } else { format!("{s}={d}") };
            }
            parts.push(s);
            if !posonly.is_empty() && i + 1 == posonly.len() {
                parts.push("/".into());
            }
        }
        if !vararg.is_none() {
            parts.push(format!("*{}", self.unparse(&vararg, prec::TEST)?));
        } else if !kwonly.is_empty() {
            parts.push("*".into());
        }
        for (a, d) in kwonly.iter().zip(kw_defaults.iter().map(Some).chain(std::iter::repeat(None)))
        {
            let mut s = self.unparse(a, prec::TEST)?;
            if let Some(d) = d.filter(|d| !d.is_none()) {
                let ds = self.unparse(d, prec::TEST)?;
                let annotated = !self.ast_field(a, "annotation")?.is_none();
                s = if annotated { format!("{s} = {ds}") } else { format!("{s}={ds}") };
            }
            parts.push(s);
        }
        if !kwarg.is_none() {
            parts.push(format!("**{}", self.unparse(&kwarg, prec::TEST)?));
        }
        Ok(parts.join(", "))
    }
}
