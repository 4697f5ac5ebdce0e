//! CPython's int/str digit limit (`sys.set_int_max_str_digits`, issue 22 class 3) against python3:
//! a generated unittest file converts ints of sizes around each limit through every decimal path
//! (`str`, `repr`, f-strings, `format`, `%d`, `json`, `int(text)` and `int(bytes)`) and the
//! power-of-two paths the limit exempts, after setting the limit to several values, valid and not.
//! Each method reports what it saw in its failure message, so the messages are compared too.
//! Skips with a message when python3 is absent.

use crate::interp_common;

/// Conversions of `n` (an int of `d` digits) and of `d`-digit texts; each is probed separately.
const EXPRS: &[&str] = &[
    "str(n)",
    "repr(n)",
    "str(-n)",
    "f'{n}'",
    "f'{-n:d}'",
    "f'{n:,}'",
    "f'{n:_}'",
    "f'{n:>12}'",
    "f'{n:n}'",
    "format(n)",
    "format(n, 'd')",
    "'{}'.format(n)",
    "'{:+d}'.format(n)",
    "'%d' % n",
    "'%i' % -n",
    "'%5d' % (n,)",
    "[n]",
    "repr((n, 1))",
    "str({'k': n})",
    "json.dumps(n)",
    "json.dumps({n: 1})",
    "hex(n)",
    "bin(n)",
    "oct(n)",
    "f'{n:x}'",
    "'%x' % n",
    "int('9' * d)",
    "int('-' + '9' * d)",
    "int(' ' + '9' * d + ' ')",
    "int('0' * d)",
    "int('9' * d, 0)",
    "int('7' * d, 8)",
    "int('f' * d, 16)",
    "int('0x' + 'f' * d, 0)",
    "int('1' * d, 2)",
    "int('z' * d, 36)",
    "int('5' * d, 7)",
    "int('1_' * (d - 1) + '1')",
    "int('9' * d + 'x')",
    "int('9' * d + '_')",
    "int('_' + '9' * d)",
    "int(b'9' * d)",
    "json.loads('9' * d)",
    "json.loads('[-' + '9' * d + ']')",
];

/// `(limit set before the conversions, digit counts tried)`; `None` keeps the default.
fn plan() -> Vec<(Option<&'static str>, Vec<usize>)> {
    vec![
        (None, vec![639, 640, 641, 4299, 4300, 4301, 5000]),
        (Some("0"), vec![4301, 9000]),
        (Some("640"), vec![639, 640, 641, 642]),
        (Some("641"), vec![640, 641, 642]),
        (Some("1000"), vec![999, 1000, 1001]),
        (Some("maxdigits=5000"), vec![4301, 5000, 5001]),
        (Some("4300"), vec![4300, 4301]),
    ]
}

/// Calls of `sys.set_int_max_str_digits` that CPython refuses (the limit must stay as it was).
const BAD_SETS: &[&str] = &[
    "639",
    "1",
    "-1",
    "-640",
    "2 ** 31",
    "-2 ** 31 - 1",
    "2 ** 100",
    "True",
    "1.0",
    "'5000'",
    "None",
    "",
    "5000, 6000",
    "x=5000",
];

fn source() -> (String, usize) {
    let mut s = String::from(
        "import json\nimport sys\nimport unittest\n\n\
def probe(f):\n    try:\n        r = f()\n    except Exception as e:\n        return type(e).__name__ + ': ' + str(e)[:300]\n    \
if isinstance(r, int):\n        return 'int mod=%d %d' % (r % 1000003, r % 999983)\n    \
r = str(r) if not isinstance(r, str) else r\n    return 'str len=%d %s..%s' % (len(r), r[:12], r[-12:])\n\n\n\
class T(unittest.TestCase):\n",
    );
    let mut cases = 0;
    let mut m = 0;
    for (limit, sizes) in plan() {
        for d in sizes {
            for e in EXPRS {
                m += 1;
                s.push_str(&format!("    def test_{m:04}(self):\n"));
                s.push_str("        sys.set_int_max_str_digits(0)\n");
                s.push_str(&format!("        d = {d}\n        n = 10 ** (d - 1) + 7\n"));
                match limit {
                    Some(l) => s.push_str(&format!("        sys.set_int_max_str_digits({l})\n")),
                    None => s.push_str(
                        "        sys.set_int_max_str_digits(sys.int_info.default_max_str_digits)\n",
                    ),
                }
                s.push_str(&format!(
                    "        self.fail(str(sys.get_int_max_str_digits()) + ' ' + probe(lambda: {e}))\n"
                ));
                cases += 1;
            }
        }
    }
    for bad in BAD_SETS {
        m += 1;
        s.push_str(&format!(
            "    def test_{m:04}(self):\n        sys.set_int_max_str_digits(1000)\n        \
out = [probe(lambda: sys.set_int_max_str_digits({bad}))]\n        \
out.append(str(sys.get_int_max_str_digits()))\n        \
out.append(probe(lambda: str(10 ** 1000)))\n        self.fail(' | '.join(out))\n"
        ));
        cases += 1;
    }
    m += 1;
    s.push_str(&format!(
        "    def test_{m:04}(self):\n        out = [probe(lambda: sys.get_int_max_str_digits(1))]\n        \
out.append(str(sys.int_info.default_max_str_digits))\n        \
out.append(str(sys.int_info.str_digits_check_threshold))\n        \
out.append(str(sys.int_info.bits_per_digit))\n        self.fail(' | '.join(out))\n"
    ));
    cases += 1;
    // The limit outlives the method that set it: the next method still has it.
    m += 1;
    s.push_str(&format!(
        "    def test_{m:04}(self):\n        sys.set_int_max_str_digits(700)\n\n    \
def test_{:04}(self):\n        self.fail(probe(lambda: str(10 ** 800)))\n",
        m + 1
    ));
    cases += 1;
    (s, cases)
}

#[test]
fn int_str_digit_limit_matches_cpython() {
    if std::process::Command::new("python3").arg("--version").output().is_err() {
        eprintln!("skipped: python3 is absent");
        return;
    }
    let (src, cases) = source();
    let (py, mine) = interp_common::run_both("test_int_digits.py", &[], &src);
    let pa = py.as_array().cloned().unwrap_or_default();
    let ma = mine.as_array().cloned().unwrap_or_default();
    let mut bad = Vec::new();
    for (i, p) in pa.iter().enumerate() {
        let m = ma.get(i).cloned().unwrap_or(serde_json::Value::Null);
        if *p != m {
            let (pm, mm) =
                (p["message"].as_str().unwrap_or(""), m["message"].as_str().unwrap_or(""));
            let parts: Vec<String> = pm
                .split(" | ")
                .zip(mm.split(" | "))
                .enumerate()
                .filter(|(_, (a, b))| a != b)
                .map(|(k, (a, b))| format!("  probe {k}: python {a:?}\n           mine   {b:?}"))
                .collect();
            bad.push(format!("{}:\n{}\n{p}\n{m}", p["id"], parts.join("\n")));
        }
    }
    eprintln!("{cases} conversions in {} methods compared with python3", pa.len());
    assert_eq!(pa.len(), ma.len(), "method counts differ");
    assert!(bad.is_empty(), "{} methods differ:\n{}", bad.len(), bad.join("\n"));
}
