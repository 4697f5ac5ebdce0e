//! `ast.literal_eval` as CPython 3.11 evaluates a node: literals, containers, `+`/`-` on numbers,
//! and its "malformed node or string" errors.

use super::*;
use crate::interp::ExcKind;

impl<'a> Interp<'a> {
    pub(super) fn literal(&mut self, v: &Value<'a>) -> PyResult<'a, Value<'a>> {
        let Value::Node(n) = v else {
            let r = self.repr(v)?;
            return Err(self.err(ExcKind::ValueError, format!("malformed node or string: {r}")));
        };
        match n.class.name {
            "Constant" => self.getattr(v, "value"),
            "Tuple" | "List" | "Set" => {
                let elts = self.getattr(v, "elts")?;
                let mut out = Vec::new();
                for e in self.to_vec(&elts)? {
                    out.push(self.literal(&e)?);
                }
                Ok(match n.class.name {
                    "Tuple" => Value::tuple(out),
                    "List" => self.new_list(out),
                    _ => Value::Set(self.new_set(out)?),
                })
            }
            "Dict" => {
                let keys = self.getattr(v, "keys")?;
                let vals = self.getattr(v, "values")?;
                let (ks, vs) = (self.to_vec(&keys)?, self.to_vec(&vals)?);
                let d = self.new_dict();
                for (k, x) in ks.iter().zip(vs.iter()) {
                    let kk = self.literal(k)?;
                    let xx = self.literal(x)?;
                    self.dict_set(&d, kk, xx)?;
                }
                Ok(Value::Dict(d))
            }
            "UnaryOp" => {
                let op = self.getattr(v, "op")?;
                let operand = self.getattr(v, "operand")?;
                let x = self.literal(&operand)?;
                let is_num = matches!(
                    x,
                    Value::Int(_) | Value::Big(_) | Value::Float(_) | Value::Complex(..)
                );
                match &op {
                    Value::Node(o) if is_num && o.class.name == "USub" => {
                        self.unaryop(pyast::UnaryOp::USub, &x)
                    }
                    Value::Node(o) if is_num && o.class.name == "UAdd" => {
                        self.unaryop(pyast::UnaryOp::UAdd, &x)
                    }
                    _ => {
                        let lineno = self.getattr(v, "lineno").ok();
                        let r = self.repr(v)?;
                        Err(self.err(ExcKind::ValueError, malformed(lineno, &r)))
                    }
                }
            }
            "BinOp" => {
                // `1+2j`: a signed real number plus or minus a complex constant.
                let op = self.getattr(v, "op")?;
                let op = match &op {
                    Value::Node(o) if o.class.name == "Add" => Some(pyast::Operator::Add),
                    Value::Node(o) if o.class.name == "Sub" => Some(pyast::Operator::Sub),
                    _ => None,
                };
                let left = self.getattr(v, "left")?;
                let right = self.getattr(v, "right")?;
                let right_complex = matches!(&right, Value::Node(r) if r.class.name == "Constant")
                    && matches!(self.getattr(&right, "value")?, Value::Complex(..));
                let left_ok = match &left {
                    Value::Node(l) if matches!(l.class.name, "Constant" | "UnaryOp") => matches!(
                        self.literal(&left)?,
                        Value::Int(_) | Value::Big(_) | Value::Float(_)
                    ),
                    _ => false,
                };
                match op {
                    Some(op) if right_complex && left_ok => {
                        let (l, r) = (self.literal(&left)?, self.getattr(&right, "value")?);
                        self.binop(op, &l, &r)
                    }
                    _ => {
                        let lineno = self.getattr(v, "lineno").ok();
                        let r = self.repr(v)?;
                        Err(self.err(ExcKind::ValueError, malformed(lineno, &r)))
                    }
                }
            }
            "Call" => {
                let func = self.getattr(v, "func")?;
                let args = self.getattr(v, "args")?;
                let kws = self.getattr(v, "keywords")?;
                let is_set = matches!(&func, Value::Node(f) if f.class.name == "Name")
                    && matches!(self.getattr(&func, "id")?, Value::Str(s) if &*s == "set")
                    && self.to_vec(&args)?.is_empty()
                    && self.to_vec(&kws)?.is_empty();
                if is_set {
                    return Ok(Value::Set(self.new_set(vec![])?));
                }
                let lineno = self.getattr(v, "lineno").ok();
                let r = self.repr(v)?;
                Err(self.err(ExcKind::ValueError, malformed(lineno, &r)))
            }
            _ => {
                let lineno = self.getattr(v, "lineno").ok();
                let r = self.repr(v)?;
                Err(self.err(ExcKind::ValueError, malformed(lineno, &r)))
            }
        }
    }
}

fn malformed(lineno: Option<Value<'_>>, r: &str) -> String {
    match lineno {
        Some(Value::Int(l)) => format!("malformed node or string on line {l}: {r}"),
        _ => format!("malformed node or string: {r}"),
    }
}
