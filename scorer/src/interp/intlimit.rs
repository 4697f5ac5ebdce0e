//! CPython's limit on decimal int/str conversion (`sys.set_int_max_str_digits`, 3.11): `str(int)`,
//! `repr`, `%d`, `format` and `int(text)` in a base that is not a power of two refuse values of
//! more than the limit's digits with CPython's `ValueError`, so a submission cannot flip a verdict
//! (or spend quadratic time) by relying on a missing limit.

use num_bigint::BigInt;

use super::{Interp, PyResult};
use crate::interp::ExcKind;

/// `sys.int_info.default_max_str_digits`.
pub(crate) const DEFAULT_MAX_STR_DIGITS: u32 = 4300;
/// `sys.int_info.str_digits_check_threshold`: the smallest limit other than 0 (no limit).
pub(crate) const STR_DIGITS_CHECK_THRESHOLD: u32 = 640;

impl<'a> Interp<'a> {
    /// `str(n)` in base 10, or CPython's ValueError when `n` has more digits than the limit.
    pub fn int_to_decimal(&self, n: &BigInt) -> PyResult<'a, String> {
        let max = u64::from(self.max_str_digits);
        if max > 0 {
            // A lower bound of the digit count from the bit length refuses huge values without
            // converting them (the conversion is quadratic).
            let bits = n.bits();
            let lower = bits.saturating_sub(1).saturating_mul(30_102) / 100_000 + 1;
            if lower > max + 1 {
                return Err(self.int_to_str_limit_error());
            }
        }
        let s = n.to_string();
        let digits = s.len() - usize::from(s.starts_with('-'));
        if max > 0 && digits as u64 > max {
            return Err(self.int_to_str_limit_error());
        }
        Ok(s)
    }

    fn int_to_str_limit_error(&self) -> Box<super::PyErr<'a>> {
        self.err(
            ExcKind::ValueError,
            format!(
                "Exceeds the limit ({} digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit",
                self.max_str_digits
            ),
        )
    }

    /// `int(text, base)`'s check before converting (CPython's `PyLong_FromString`): `text` is
    /// already ASCII (decimal digits and spaces translated). Counts the run of digits (and single
    /// underscores) after the sign and prefix; a base that is a power of two has no limit.
    pub fn check_int_parse_digits(&self, text: &str, base: u32) -> PyResult<'a, ()> {
        let max = self.max_str_digits as usize;
        if max == 0 {
            return Ok(());
        }
        let t = text.trim_start_matches([' ', '\t', '\n', '\x0b', '\x0c', '\r']);
        let t = t.strip_prefix(['-', '+']).unwrap_or(t);
        // A prefix (`0x`, `0o`, `0b`) names a power-of-two base: no limit.
        let prefixed = matches!(
            t.get(..2).map(|p| p.to_ascii_lowercase()).as_deref(),
            Some("0x" | "0o" | "0b")
        );
        let base = match base {
            0 if prefixed => return Ok(()),
            0 => 10,
            b => b,
        };
        if base.is_power_of_two() || t.starts_with('_') {
            return Ok(());
        }
        let rest = t;
        let mut digits = 0usize;
        let mut prev = 0u8;
        for &c in rest.as_bytes() {
            if c == b'_' {
                if prev == b'_' {
                    return Ok(()); // invalid: the parse reports it
                }
            } else if (c as char).to_digit(36).is_some_and(|d| d < base) {
                digits += 1;
            } else {
                break;
            }
            prev = c;
        }
        if prev == b'_' || digits <= STR_DIGITS_CHECK_THRESHOLD as usize || digits <= max {
            return Ok(());
        }
        Err(self.err(
            ExcKind::ValueError,
            format!(
                "Exceeds the limit ({max} digits) for integer string conversion: value has {digits} digits; use sys.set_int_max_str_digits() to increase the limit"
            ),
        ))
    }
}

impl<'a> Interp<'a> {
    /// `sys.int_info` (attribute access only: its four fields).
    pub fn int_info(&self) -> super::Value<'a> {
        use super::Value;
        self.new_module(
            "sys.int_info",
            vec![
                ("bits_per_digit", Value::Int(30)),
                ("sizeof_digit", Value::Int(4)),
                ("default_max_str_digits", Value::Int(i64::from(DEFAULT_MAX_STR_DIGITS))),
                ("str_digits_check_threshold", Value::Int(i64::from(STR_DIGITS_CHECK_THRESHOLD))),
            ],
        )
    }

    /// `sys.set_int_max_str_digits(maxdigits)` and `sys.get_int_max_str_digits()`.
    pub fn int_max_str_digits_fn(
        &mut self,
        name: &str,
        mut args: Vec<super::Value<'a>>,
        kwargs: super::eval::Kwargs<'a>,
    ) -> PyResult<'a, super::Value<'a>> {
        use super::Value;
        let short = name.trim_start_matches("sys.");
        if short == "get_int_max_str_digits" {
            if !args.is_empty() || !kwargs.is_empty() {
                return Err(self.err(
                    ExcKind::TypeError,
                    format!("{name}() takes no arguments ({} given)", args.len() + kwargs.len()),
                ));
            }
            return Ok(Value::Int(i64::from(self.max_str_digits)));
        }
        let given = args.len() + kwargs.len();
        for (k, v) in kwargs {
            if &*k == "maxdigits" && args.is_empty() {
                args.push(v);
            }
        }
        if given > 1 {
            return Err(self.err(
                ExcKind::TypeError,
                format!("{short}() takes at most 1 argument ({given} given)"),
            ));
        }
        if args.len() != 1 {
            return Err(self.err(
                ExcKind::TypeError,
                format!("{short}() missing required argument 'maxdigits' (pos 1)"),
            ));
        }
        let n: i64 = match &args[0] {
            Value::Int(i) => *i,
            Value::Bool(b) => i64::from(*b),
            Value::Big(_) => i64::MAX,
            other => {
                return Err(self.err(
                    ExcKind::TypeError,
                    format!(
                        "'{}' object cannot be interpreted as an integer",
                        super::fmt::type_name(other)
                    ),
                ))
            }
        };
        if n != 0 && !(i64::from(STR_DIGITS_CHECK_THRESHOLD)..=i64::from(i32::MAX)).contains(&n) {
            if n > i64::from(i32::MAX) || n < i64::from(i32::MIN) {
                return Err(
                    self.err(ExcKind::OverflowError, "Python int too large to convert to C int")
                );
            }
            return Err(self.err(ExcKind::ValueError, "maxdigits must be 0 or larger than 640"));
        }
        // The limit outlives the test method that sets it.
        super::isolation::note_write(super::isolation::SHARED);
        self.max_str_digits = n as u32;
        Ok(Value::None)
    }
}
