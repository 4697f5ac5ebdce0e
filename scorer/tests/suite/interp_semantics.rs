//! Interpreter semantics, each snippet checked against python3 (3.11) through the harness rules.

use crate::interp_common;

use interp_common::check;

#[test]
fn core_language() {
    check(
        "core-test.py",
        &[],
        r#"import unittest

COUNT = 0

def bump():
    global COUNT
    COUNT += 1
    return COUNT

def make_counter():
    n = 0
    def inc(step=1):
        nonlocal n
        n += step
        return n
    return inc

def kw(a, b=2, *args, c, d=4, **rest):
    return (a, b, args, c, d, sorted(rest.items()))

class Base:
    label = "base"
    def __init__(self, x):
        self.x = x
    def describe(self):
        return f"{self.label}:{self.x!r}"

class Child(Base):
    label = "child"
    def __init__(self, x, y):
        super().__init__(x)
        self.y = y
    def describe(self):
        return super().describe() + f"/{self.y:>4}"

class TestCore(unittest.TestCase):
    def test_closures(self):
        c = make_counter()
        c(); c(5)
        self.assertEqual(c(), 7)
        fs = [lambda i=i: i * 2 for i in range(3)]
        self.assertEqual([f() for f in fs], [0, 2, 4])

    def test_kwargs(self):
        self.assertEqual(kw(1, c=3), (1, 2, (), 3, 4, []))
        self.assertEqual(kw(1, 5, 6, 7, c=3, z=1, a2=2), (1, 5, (6, 7), 3, 4, [('a2', 2), ('z', 1)]))
        args = (1, 2)
        opts = {"c": 9}
        self.assertEqual(kw(*args, **opts)[3], 9)

    def test_missing_arg(self):
        kw(1)

    def test_too_many(self):
        make_counter(1)

    def test_classes(self):
        self.assertEqual(Child(1, "ab").describe(), "child:1/  ab")
        self.assertTrue(isinstance(Child(1, 2), Base))
        self.assertEqual(type(Child(1, 2)).__name__, "Child")

    def test_loops(self):
        out = []
        for i in range(10):
            if i % 2:
                continue
            if i > 6:
                break
            out.append(i)
        else:
            out.append("never")
        n = 0
        while n < 3:
            n += 1
        else:
            out.append("done")
        self.assertEqual(out, [0, 2, 4, 6, "done"])

    def test_unpacking(self):
        a, (b, c), *d = 1, (2, 3), 4, 5
        self.assertEqual((a, b, c, d), (1, 2, 3, [4, 5]))
        x, y = [1, 2, 3]

    def test_try(self):
        log = []
        try:
            try:
                {}["k"]
            except KeyError as e:
                log.append(repr(e))
                raise ValueError("bad") from e
            finally:
                log.append("finally")
        except ValueError as e:
            log.append(str(e))
        else:
            log.append("else")
        self.assertEqual(log, ["KeyError('k')", "finally", "bad"])

    def test_unbound(self):
        def f():
            print(v)
            v = 1
        f()

    def test_name_error(self):
        undefined_name + 1

    def test_global(self):
        bump(); bump()
        self.assertEqual(COUNT, 2)

    def test_comparisons(self):
        self.assertTrue(1 < 2 < 3 == 3 != 4)
        self.assertFalse(1 < 2 > 5)
        self.assertTrue("a" in "cat" and "z" not in "cat")
        self.assertEqual(None or 0 or "x", "x")
        self.assertEqual(1 and [] and 3, [])
        self.assertEqual("x" if 0 else "y", "y")

    def test_arith(self):
        self.assertEqual(7 // -2, -4)
        self.assertEqual(-7 % 3, 2)
        self.assertEqual(2 ** 100, 1267650600228229401496703205376)
        self.assertEqual(10 / 4, 2.5)
        self.assertEqual(repr(0.1 + 0.2), "0.30000000000000004")
        self.assertEqual(repr(1e16), "1e+16")
        self.assertEqual(repr(1.5e-5), "1.5e-05")
        self.assertEqual(str(2.0), "2.0")
        self.assertEqual("ab" * 3, "ababab")
        self.assertEqual([1] * 3 + [2], [1, 1, 1, 2])

    def test_zero_div(self):
        1 / 0

    def test_type_error(self):
        "a" + 1

    def test_slices(self):
        s = "hello world"
        self.assertEqual(s[::-1], "dlrow olleh")
        self.assertEqual(s[2:-3], "llo wo")
        self.assertEqual([1, 2, 3, 4][1::2], [2, 4])
        l = [1, 2, 3, 4, 5]
        l[1:3] = ["a"]
        self.assertEqual(l, [1, "a", 4, 5])
        del l[0]
        self.assertEqual(l, ["a", 4, 5])

    def test_index_error(self):
        [1, 2][5]

if __name__ == '__main__':
    unittest.main()
"#,
    );
}

#[test]
fn comprehensions_and_generators() {
    check(
        "gen-test.py",
        &[],
        r#"import unittest

class TestGen(unittest.TestCase):
    def test_laziness(self):
        seen = []
        def f(x):
            seen.append(x)
            return x
        g = (f(x) for x in [1, 2, 3] if x != 2)
        self.assertEqual(seen, [])
        self.assertEqual(next(g), 1)
        self.assertEqual(list(g), [3])
        self.assertEqual(seen, [1, 3])

    def test_outermost_eager(self):
        g = (x for x in undefined_thing)

    def test_inner_lazy(self):
        g = (y for x in [1] for y in undefined_inner)
        self.assertTrue(True)

    def test_any_short_circuit(self):
        self.assertTrue(any(x > 1 for x in [1, 2, 3]))
        self.assertFalse(all(x > 1 for x in [1, 2, 3]))
        self.assertTrue(any(1 / x for x in [1, 0]))

    def test_any_error(self):
        any(1 / x for x in [0, 1])

    def test_comps(self):
        self.assertEqual([x * y for x in range(3) for y in range(2) if x], [0, 1, 0, 2])
        self.assertEqual({x % 3 for x in range(10)}, {0, 1, 2})
        self.assertEqual({k: v for k, v in zip("ab", [1, 2])}, {"a": 1, "b": 2})
        self.assertEqual(sorted({"b": 1, "a": 2}.items()), [("a", 2), ("b", 1)])
        self.assertEqual(list(enumerate("ab", 1)), [(1, "a"), (2, "b")])
        self.assertEqual(next((x for x in [] if x), None), None)
        self.assertEqual(sum(x for x in range(5)), 10)
        self.assertEqual(max([3, 1, 2], key=lambda v: -v), 1)
        self.assertEqual(list(reversed([1, 2, 3])), [3, 2, 1])
        self.assertEqual(list(map(str, [1, 2])), ["1", "2"])
        self.assertEqual(list(filter(None, [0, 1, 2])), [1, 2])

    def test_stop(self):
        next(iter([]))

    def test_class_scope(self):
        class K:
            xs = [1, 2]
            ys = [x + 1 for x in xs]
        self.assertEqual(K.ys, [2, 3])
"#,
    );
}

#[test]
fn strings_and_containers() {
    check(
        "str-test.py",
        &[],
        r#"import unittest

class TestStr(unittest.TestCase):
    def test_methods(self):
        s = "  Hello, World \x1c"
        self.assertEqual(s.strip(), "Hello, World")
        self.assertEqual("a,b,,c".split(","), ["a", "b", "", "c"])
        self.assertEqual(" a  b ".split(), ["a", "b"])
        self.assertEqual("a b c".split(None, 1), ["a", "b c"])
        self.assertEqual("a.b.c".rsplit(".", 1), ["a.b", "c"])
        self.assertEqual("x\r\ny\rz\n".splitlines(), ["x", "y", "z"])
        self.assertEqual("x\ny".splitlines(True), ["x\n", "y"])
        self.assertEqual("-".join(["a", "b"]), "a-b")
        self.assertEqual("abcabc".replace("b", "X", 1), "aXcabc")
        self.assertEqual("abc".find("c"), 2)
        self.assertEqual("abc".find("z"), -1)
        self.assertEqual("abca".count("a"), 2)
        self.assertTrue("abc".startswith(("x", "a")))
        self.assertEqual("ab".upper() + "CD".lower(), "ABcd")
        self.assertEqual("{} {x} {!r}".format("a", "b", x=1), "a 1 'b'")
        self.assertEqual("{1}{0}".format("a", "b"), "ba")
        self.assertEqual("%s-%d-%r" % ("a", 3, "b"), "a-3-'b'")
        self.assertEqual(f"{3.14159:.2f}|{42:05d}|{'x':^5}|{1234567:,}", "3.14|00042|  x  |1,234,567")
        self.assertEqual("a=b=c".partition("="), ("a", "=", "b=c"))
        self.assertEqual("héllo"[1], "é")
        self.assertEqual(len("héllo"), 5)

    def test_reprs(self):
        self.assertEqual(repr("it's"), '"it\'s"')
        self.assertEqual(repr('a"b\'c'), "'a\"b\\'c'")
        self.assertEqual(repr("tab\there\n\x00\x7f\xa0é"), "'tab\\there\\n\\x00\\x7f\\xa0é'")
        self.assertEqual(repr([1, "a", (2,), {"k": None}, set()]), "[1, 'a', (2,), {'k': None}, set()]")
        self.assertEqual(repr(b"a'\x00"), "b\"a'\\x00\"")
        self.assertEqual(repr(frozenset()), "frozenset()")
        self.assertEqual(str(True) + repr(None), "TrueNone")

    def test_dict(self):
        d = {"b": 1}
        d["a"] = 2
        d.setdefault("c", []).append(1)
        self.assertEqual(list(d), ["b", "a", "c"])
        self.assertEqual(d.get("zz", 5), 5)
        self.assertEqual(d.pop("b"), 1)
        d.update({"x": 1}, y=2)
        self.assertEqual(list(d.keys()), ["a", "c", "x", "y"])
        self.assertEqual({1: "a", 1.0: "b"}, {1: "b"})

    def test_format_mixing(self):
        "{} {0}".format(1)

    def test_key_error(self):
        {"a": 1}["b"]

    def test_sets(self):
        a = {1, 2, 3}
        self.assertEqual(a - {1}, {2, 3})
        self.assertEqual(a & {2, 9}, {2})
        self.assertTrue({1}.issubset(a))
        self.assertTrue(a >= {1, 2})
        a.add(4); a.discard(1)
        self.assertEqual(len(a), 3)

    def test_list_methods(self):
        l = [3, 1, 2]
        l.sort()
        l.insert(0, 9)
        l.extend((7,))
        self.assertEqual(l, [9, 1, 2, 3, 7])
        self.assertEqual(l.index(2), 2)
        self.assertEqual(sorted(["b", "A", "c"], key=str.lower if False else None), ["A", "b", "c"])
        self.assertEqual(sorted([3, 1, 2], reverse=True), [3, 2, 1])
        l.remove(9)
        self.assertEqual(l.pop(), 7)

    def test_list_index_error(self):
        [1].index(5)

    def test_attr_error(self):
        "abc".nope

    def test_none_attr(self):
        x = None
        x.id
"#,
    );
}

#[test]
fn assert_messages() {
    check(
        "assert-test.py",
        &[],
        r#"import unittest

class TestAsserts(unittest.TestCase):
    def test_true(self):
        self.assertTrue([], "list empty")
    def test_false(self):
        self.assertFalse("x")
    def test_equal_int(self):
        self.assertEqual(1, 2, msg="numbers")
    def test_equal_str(self):
        self.assertEqual("a\nb", "a\nc")
    def test_equal_long_str(self):
        self.assertEqual("x" * 100 + "a", "x" * 100 + "b")
    def test_equal_list(self):
        self.assertEqual([1, 2], [1, 3], "lists")
    def test_equal_long_list(self):
        self.assertEqual(list(range(40)), list(range(39)) + [99])
    def test_equal_dict(self):
        self.assertEqual({"a": 1}, {"a": 2})
    def test_equal_set(self):
        self.assertEqual({1}, {2})
    def test_equal_tuple(self):
        self.assertEqual((1,), (2,))
    def test_not_equal(self):
        self.assertNotEqual("a", "a")
    def test_in(self):
        self.assertIn("x", "abc")
    def test_in_list(self):
        self.assertIn("x", ["a", "b"], "missing x")
    def test_not_in(self):
        self.assertNotIn("a", "abc")
    def test_is_none(self):
        self.assertIsNone(1)
    def test_is_not_none(self):
        self.assertIsNotNone(None, "should exist")
    def test_isinstance(self):
        self.assertIsInstance(1, str)
    def test_greater(self):
        self.assertGreater(1, 2)
    def test_greater_equal(self):
        self.assertGreaterEqual(1, 2)
    def test_less(self):
        self.assertLess(2, 1)
    def test_is(self):
        self.assertIs(1, None)
    def test_fail(self):
        self.fail("explicit failure")
    def test_fail_none(self):
        self.fail()
    def test_skip(self):
        self.skipTest("not today")
    def test_assert_stmt(self):
        assert 1 == 2, "assert message"
    def test_count_equal(self):
        self.assertCountEqual([1, 2], [2, 2])
    def test_raises_ok(self):
        self.assertRaises(ValueError, int, "x")

class TestSetUpFails(unittest.TestCase):
    def setUp(self):
        self.assertTrue(False, "setup check")
    def test_a(self):
        pass
    def test_b(self):
        pass

class TestSubtests(unittest.TestCase):
    def test_mixed(self):
        for i in range(4):
            with self.subTest(i=i):
                if i == 1:
                    self.assertEqual(i, 0)
                if i == 2:
                    {}["missing"]
    def test_fail_then_method_fails(self):
        with self.subTest(x=1):
            self.fail("sub")
        self.fail("own")
    def test_all_pass(self):
        for i in range(2):
            with self.subTest(i=i):
                pass

class TestFixtureClass(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        raise RuntimeError("no class setup")
    def test_x(self):
        pass

class TestSkipDecorator(unittest.TestCase):
    @unittest.skip("decorated")
    def test_skipped(self):
        self.fail("ran")
    def test_duplicate(self):
        self.fail("first definition")
    def test_duplicate(self):
        pass
"#,
    );
}

#[test]
fn module_errors() {
    check("broken-test.py", &[], "import unittest\nx = 1\nraise ValueError('module level')\n");
    check("import-test.py", &[], "import unittest\nimport ast\nast.iter_parent_nodes\n");
}

#[test]
fn files_and_os() {
    let files: &[(&str, &[u8])] = &[
        ("pkg/mod.py", b"def f():\n    return 1\r\n# comment\rx = 2\n"),
        ("pkg/sub/data.txt", b"line1\nline2\n"),
        ("bad.py", b"ok = 1\n\xff\xfe\n"),
        ("trunc.py", b"x = '\xe4\xb8'"),
        ("notes.md", "caf\u{e9} \u{65e5}\u{672c}\n".as_bytes()),
    ];
    check(
        "files-test.py",
        files,
        r#"import unittest
import os
import hashlib

class TestFiles(unittest.TestCase):
    def test_exists(self):
        self.assertTrue(os.path.exists('../pkg/mod.py'))
        self.assertTrue(os.path.exists('../pkg'))
        self.assertTrue(os.path.exists('../pkg/'))
        self.assertFalse(os.path.exists('../pkg/mod.py/'))
        self.assertFalse(os.path.exists('../nothing.py'))
        self.assertFalse(os.path.exists('../../pkg/mod.py'))
        self.assertFalse(os.path.exists('/etc/passwd-not-in-tree'))
        self.assertTrue(os.path.isfile('../pkg/sub/data.txt'))
        self.assertFalse(os.path.isfile('../pkg/sub'))
        self.assertTrue(os.path.isdir('../pkg/sub'))
        self.assertTrue(os.path.exists('files-test.py'))
        self.assertTrue(os.path.exists('../pkg/sub/../mod.py'))
        self.assertFalse(os.path.exists('../pkg/nope/../mod.py'))

    def test_paths(self):
        self.assertEqual(os.path.join('../a/', 'b.py'), '../a/b.py')
        self.assertEqual(os.path.join('a', '/b', 'c'), '/b/c')
        self.assertEqual(os.path.basename('../a/b.py'), 'b.py')
        self.assertEqual(os.path.dirname('../a/b.py'), '../a')
        self.assertEqual(os.path.splitext('../a/b.tar.gz'), ('../a/b.tar', '.gz'))
        self.assertEqual(os.path.splitext('.bashrc'), ('.bashrc', ''))
        self.assertEqual(os.path.normpath('../a/./b/../c/'), '../a/c')
        self.assertEqual(sorted(os.listdir('../pkg')), ['mod.py', 'sub'])

    def test_read(self):
        with open('../pkg/mod.py') as f:
            text = f.read()
        self.assertEqual(text, "def f():\n    return 1\n# comment\nx = 2\n")
        with open('../pkg/sub/data.txt', 'r') as f:
            self.assertEqual(f.readlines(), ['line1\n', 'line2\n'])
        with open('../pkg/sub/data.txt') as f:
            self.assertEqual([l for l in f], ['line1\n', 'line2\n'])
        with open('../notes.md', encoding='utf-8') as f:
            self.assertIn('日本', f.read())

    def test_missing(self):
        with open('../nothing.py') as f:
            f.read()

    def test_directory(self):
        open('../pkg')

    def test_bad_utf8(self):
        with open('../bad.py') as f:
            f.read()

    def test_truncated_utf8(self):
        with open('../trunc.py') as f:
            f.read()

    def test_binary_hash(self):
        with open('../pkg/mod.py', 'rb') as f:
            data = f.read()
        self.assertEqual(hashlib.sha256(data).hexdigest(), hashlib.sha256(b"def f():\n    return 1\r\n# comment\rx = 2\n").hexdigest())
        self.assertEqual(hashlib.sha256(data).hexdigest(), "0")

    def test_closed(self):
        f = open('../pkg/mod.py')
        f.close()
        f.read()
"#,
    );
}

#[test]
fn context_managers_and_raises() {
    check(
        "ctx-test.py",
        &[],
        r#"import unittest

class Ctx:
    def __init__(self, log):
        self.log = log
    def __enter__(self):
        self.log.append("enter")
        return self
    def __exit__(self, et, ev, tb):
        self.log.append(("exit", et.__name__ if et else None))
        return et is KeyError

class TestCtx(unittest.TestCase):
    def test_user_ctx(self):
        log = []
        with Ctx(log) as c:
            {}["x"]
        self.assertEqual(log, ["enter", ("exit", "KeyError")])
        with Ctx(log):
            [][1]

    def test_raises_ok(self):
        with self.assertRaises(ValueError) as cm:
            int("x")
        self.assertEqual(str(cm.exception), "invalid literal for int() with base 10: 'x'")

    def test_raises_missing(self):
        with self.assertRaises(KeyError):
            pass

    def test_raises_other(self):
        with self.assertRaises(KeyError):
            [][0]
"#,
    );
}

#[test]
fn json_module() {
    check(
        "json-test.py",
        &[
            (
                "data.json",
                b"{\"b\": [1, 2.5, -3e2, true, null], \"a\": {\"x\": \"\\u00e9\\n\"}, \"b\": 0}\n",
            ),
            ("bad.json", b"{\"a\": 1,}"),
        ],
        r#"import unittest
import json

class TestJson(unittest.TestCase):
    def test_load(self):
        with open('../data.json') as f:
            data = json.load(f)
        self.assertEqual(repr(data), "")

    def test_loads(self):
        self.assertEqual(json.loads('[1, "a", {"k": [false]}]'), [1, "a", {"k": [False]}])
        json.loads('[1, 2')

    def test_bad(self):
        with open('../bad.json') as f:
            json.loads(f.read())

    def test_extra(self):
        json.loads('{} x')

    def test_empty(self):
        json.loads('')
"#,
    );
}

#[test]
fn dict_views() {
    check(
        "views-test.py",
        &[],
        r#"import unittest

class TestViews(unittest.TestCase):
    def test_views(self):
        d = {"a": 1, "b": 2}
        k = d.keys()
        d["c"] = 3
        self.assertEqual(list(k), ["a", "b", "c"])
        self.assertEqual(k - {"a"}, {"b", "c"})
        self.assertTrue("a" in k and 2 in d.values() and ("b", 2) in d.items())
        self.assertEqual(len(d.items()), 3)
        self.assertEqual(list(reversed(d.keys())), ["c", "b", "a"])
        self.assertEqual(k, {"a", "b", "c"})

    def test_repr(self):
        self.assertIn("z", {"a": 1}.keys())

    def test_repr_items(self):
        self.assertEqual(repr({"a": 1}.items()) + repr({"a": 1}.values()), "")

    def test_changed_size(self):
        d = {"a": 1}
        for k in d.keys():
            d[k + "x"] = 1
"#,
    );
}

/// Which names a function body binds decides, statically, whether a load reads a local or a
/// global: every binding form (match captures, walrus inside any expression, `except*` names)
/// makes the name local for the whole body, and the global load cache must never answer for one.
#[test]
fn binding_forms_make_names_local() {
    check(
        "binding-forms-test.py",
        &[],
        r#"import unittest

x = "global x"
y = "global y"
z = "global z"
w = "global w"
v = "global v"
len = len

def match_capture(bind):
    if bind:
        match 5:
            case x:
                pass
    return x

def walrus_in_dict(bind):
    if bind:
        d = {"k": (y := 1)}
    return y

def walrus_in_fstring(bind):
    if bind:
        s = f"{(z := 2)}"
    return z

def walrus_in_starred(bind):
    if bind:
        t = [*(w := [3])]
    return w

def walrus_in_lambda_default(bind):
    if bind:
        f = lambda a=(u := 4): a
    return u

u = "global u"

def mapping_rest(bind):
    if bind:
        match {"a": 1, "b": 2}:
            case {"a": 1, **v}:
                pass
    return v

def reads_global_then_builtin(n):
    out = []
    for _ in range(n):
        out.append(len([1, 2]))
    return out

class TestBindingForms(unittest.TestCase):
    def test_bound(self):
        # (refscore does not run `match` statements; a body holding one it does not reach
        # still reads its captures as locals.)
        self.assertEqual(walrus_in_dict(True), 1)
        self.assertEqual(walrus_in_fstring(True), 2)
        self.assertEqual(walrus_in_starred(True), [3])
        self.assertEqual(walrus_in_lambda_default(True), 4)

    def test_match_capture_unbound(self):
        match_capture(False)

    def test_walrus_in_dict_unbound(self):
        walrus_in_dict(False)

    def test_walrus_in_fstring_unbound(self):
        walrus_in_fstring(False)

    def test_walrus_in_starred_unbound(self):
        walrus_in_starred(False)

    def test_walrus_in_lambda_default_unbound(self):
        walrus_in_lambda_default(False)

    def test_mapping_rest_unbound(self):
        mapping_rest(False)

    def test_loop_reads_each_time(self):
        global len
        self.assertEqual(reads_global_then_builtin(2), [2, 2])
        len = lambda s: -1
        self.assertEqual(reads_global_then_builtin(2), [-1, -1])
        del len
        self.assertEqual(reads_global_then_builtin(1), [2])

    def test_same_site_local_after_global(self):
        # One load site, read as a global on the first pass; the body binds the name only in
        # a form the static analysis must know (a walrus in a subscript), so CPython raises.
        out = []
        for i in range(2):
            try:
                out.append(x)
            except UnboundLocalError as e:
                out.append(type(e).__name__)
            if i == 0:
                q = [0][(x := 0)]
        self.assertEqual(out, ["UnboundLocalError", 0])
"#,
    );
}

/// Loads from nested bodies (closures, generator expressions, class bodies in functions): the
/// slot and per-site caches must answer what CPython reads after every rebinding.
#[test]
fn nested_scopes_read_current_bindings() {
    check(
        "nested-scopes-test.py",
        &[],
        r#"import unittest

counter = 0
shadow = "global"

def outer_rebinds():
    g = 1
    def inner():
        return g
    a = inner()
    g = 2
    return [a, inner()]

def genexp_reads_changing_global():
    global counter
    out = []
    for _ in range(3):
        out.append(sum(counter for _ in range(2)))
        counter += 1
    return out

def genexp_reads_enclosing_local():
    out = []
    for step in range(3):
        out.append([step * x for x in range(3)])
    return out

def class_in_function():
    k = 5
    class C:
        v = k
        def m(self):
            return k
    k = 6
    return C.v, C().m()

def builtin_then_global(n):
    return [len(s) for s in ["ab", "c"][:n]]

def nonlocal_counter():
    n = 0
    def bump():
        nonlocal n
        n += 1
        return n
    return [bump(), bump(), n]

def deleted_local():
    x = 1
    del x
    try:
        return x
    except UnboundLocalError as e:
        return type(e).__name__

class TestNested(unittest.TestCase):
    def test_closure_sees_rebinding(self):
        self.assertEqual(outer_rebinds(), [1, 2])
        self.assertEqual(outer_rebinds(), [1, 2])

    def test_genexp_global(self):
        self.assertEqual(genexp_reads_changing_global(), [0, 2, 4])

    def test_genexp_enclosing(self):
        self.assertEqual(genexp_reads_enclosing_local(), [[0, 0, 0], [0, 1, 2], [0, 2, 4]])

    def test_class_body(self):
        self.assertEqual(class_in_function(), (5, 6))

    def test_builtin_shadowed_later(self):
        global len
        self.assertEqual(builtin_then_global(2), [2, 1])
        len = lambda s: 0
        try:
            self.assertEqual(builtin_then_global(2), [0, 0])
        finally:
            del len
        self.assertEqual(builtin_then_global(1), [2])

    def test_nonlocal(self):
        self.assertEqual(nonlocal_counter(), [1, 2, 2])

    def test_deleted_local(self):
        self.assertEqual(deleted_local(), "UnboundLocalError")
"#,
    );
}

/// Classes with definition-ordered namespaces: every class shape x every way of reading its
/// namespace (`vars`, `__dict__`, keys, items, lookups, the descriptors CPython adds) and
/// instance / function dicts, against python3.
#[test]
fn class_namespaces_match_cpython() {
    if !interp_common::have_python3() {
        return;
    }
    let prelude = r#"
class Plain:
    x = 1
    def f(self): pass
    y = 'two'

class Doc:
    'the doc'
    b = 2
    a = 1
    def __init__(self):
        self.q = 1
        self.p = 2

class Sub(Plain):
    z = 3
    def f(self): return 1

class Err(Exception):
    code = 5

class Both(Sub, Doc):
    pass

class Mixed(ValueError, Doc):
    pass

class ZCase(unittest.TestCase):
    def test_x(self): pass
    k = 1

class Later:
    a = 1
    b = 2
    c = 3
Later.d = 4
del Later.b
Later.a = 10
Later.b = 20

def outer():
    class Inner:
        w = 1
        def g(self): pass
    return Inner

Nested = outer()

def func(): pass
func.tag = 1
func.other = 2
"#;
    let classes =
        ["Plain", "Doc", "Sub", "Err", "Both", "Mixed", "ZCase", "Later", "Nested", "type(self)"];
    let exprs = [
        "vars(C)",
        "C.__dict__",
        "list(vars(C))",
        "list(C.__dict__.keys())",
        "[k for k, v in C.__dict__.items()]",
        "type(C.__dict__).__name__",
        "len(C.__dict__)",
        "'x' in C.__dict__, '__doc__' in C.__dict__, '__qualname__' in C.__dict__",
        "C.__dict__.get('nope'), C.__dict__.get('__module__')",
        "C.__dict__ == dict(C.__dict__)",
        "vars(C) is C.__dict__, vars(C) == C.__dict__",
        "[repr(C.__dict__.get(k)) for k in ('__dict__', '__weakref__')]",
        "C.__doc__",
        "[k for k in dir(C) if not k.startswith('__')]",
        "list(C.__dict__.values())[-1]",
        "C.__dict__['nope']",
        "str(C.__dict__)",
    ];
    let mut cases: Vec<(String, String)> = Vec::new();
    for c in classes {
        for e in exprs {
            // The attribute lists of TestCase and BaseException are not this test's subject.
            if matches!(c, "type(self)" | "Err" | "Mixed" | "ZCase") && e.contains("dir(") {
                continue;
            }
            cases.push((String::new(), e.replace('C', c)));
        }
    }
    for (setup, e) in [
        ("o = Plain(); o.b = 1; o.a = 2", "vars(o)"),
        ("o = Plain(); o.b = 1; o.a = 2; del o.b; o.b = 3", "o.__dict__"),
        ("o = Doc()", "vars(o), list(o.__dict__)"),
        ("o = Doc(); o.q = 5", "vars(o)"),
        ("o = Plain()", "o.__weakref__, vars(o)"),
        ("o = Err('m'); o.extra = 1", "vars(o)"),
        ("", "vars(func)"),
        ("", "vars(1)"),
        ("", "vars('s')"),
        ("", "vars([1])"),
        ("", "Plain.__dict__['f'].__name__"),
        ("", "Later.__dict__['a'], Later.b"),
    ] {
        cases.push((setup.replace("; ", "\n"), e.to_string()));
    }
    let (n, bad) = interp_common::compare_exprs("test_classdict.py", &[], prelude, &cases);
    assert!(bad.is_empty(), "class namespaces differ:{bad}");
    eprintln!("class namespace cases compared with python3: {n}, all agree");
}

/// Regression fixtures without python3 (CPython 3.11.7's messages): `vars(C)` was unsupported
/// and instance dicts listed names in hash order.
#[test]
fn class_namespace_regression_fixtures() {
    let src = r#"import unittest

class Plain:
    x = 1
    def f(self): pass

class Doc:
    'the doc'
    b = 2

class Err(Exception):
    pass

class T(unittest.TestCase):
    def test_a(self):
        raise Exception(list(vars(Plain)))
    def test_b(self):
        raise Exception(repr(Doc.__dict__))
    def test_c(self):
        raise Exception(list(Err.__dict__))
    def test_d(self):
        o = Plain()
        o.zeta = 1
        o.alpha = 2
        o.mid = 3
        raise Exception(repr(vars(o)))
"#;
    let got = interp_common::run_scorer("test_fixture.py", &[], src);
    let want = [
        "['__module__', 'x', 'f', '__dict__', '__weakref__', '__doc__']",
        "mappingproxy({'__module__': 'refactorbench_official_test', '__doc__': 'the doc', 'b': 2, \
         '__dict__': <attribute '__dict__' of 'Doc' objects>, '__weakref__': <attribute \
         '__weakref__' of 'Doc' objects>})",
        "['__module__', '__weakref__', '__doc__']",
        "{'zeta': 1, 'alpha': 2, 'mid': 3}",
    ];
    let got: Vec<&str> = got.iter().map(|(_, m)| m.as_str()).collect();
    assert_eq!(got, want);
}

/// `(callee, positional-or-keyword parameters, how many are required, keyword-only parameters)` of
/// the native functions whose arguments `builtins/args.rs` binds; each parameter's sample value is
/// in [`sample`].
const SIGNATURES: &[(&str, &[&str], usize, &[&str])] = &[
    ("re.escape", &["pattern"], 1, &[]),
    ("re.compile", &["pattern", "flags"], 1, &[]),
    ("re.search", &["pattern", "string", "flags"], 2, &[]),
    ("re.match", &["pattern", "string", "flags"], 2, &[]),
    ("re.fullmatch", &["pattern", "string", "flags"], 2, &[]),
    ("re.findall", &["pattern", "string", "flags"], 2, &[]),
    ("re.finditer", &["pattern", "string", "flags"], 2, &[]),
    ("re.sub", &["pattern", "repl", "string", "count", "flags"], 3, &[]),
    ("re.split", &["pattern", "string", "maxsplit", "flags"], 2, &[]),
    ("P.search", &["string", "pos", "endpos"], 1, &[]),
    ("P.match", &["string", "pos", "endpos"], 1, &[]),
    ("P.findall", &["string", "pos", "endpos"], 1, &[]),
    ("P.sub", &["repl", "string", "count"], 2, &[]),
    ("P.split", &["string", "maxsplit"], 1, &[]),
    ("ast.parse", &["source", "filename", "mode"], 1, &["type_comments", "feature_version"]),
    ("ast.unparse", &["ast_obj"], 1, &[]),
    ("ast.get_source_segment", &["source", "node"], 2, &["padded"]),
    ("ast.walk", &["node"], 1, &[]),
    ("ast.iter_child_nodes", &["node"], 1, &[]),
    ("ast.iter_fields", &["node"], 1, &[]),
    ("ast.dump", &["node", "annotate_fields", "include_attributes"], 1, &["indent"]),
    ("ast.get_docstring", &["node", "clean"], 1, &[]),
    ("ast.literal_eval", &["node_or_string"], 1, &[]),
    (
        "open",
        &["file", "mode", "buffering", "encoding", "errors", "newline", "closefd", "opener"],
        1,
        &[],
    ),
    ("os.path.realpath", &["filename"], 1, &["strict"]),
    ("os.path.relpath", &["path", "start"], 1, &[]),
    ("os.walk", &["top", "topdown", "onerror", "followlinks"], 1, &[]),
    ("'a b'.split", &["sep", "maxsplit"], 0, &[]),
    ("'a b'.rsplit", &["sep", "maxsplit"], 0, &[]),
    ("'a\\nb'.splitlines", &["keepends"], 0, &[]),
    ("'a\\tb'.expandtabs", &["tabsize"], 0, &[]),
    ("'ab'.encode", &["encoding", "errors"], 0, &[]),
    ("enumerate", &["iterable", "start"], 1, &[]),
    ("[2, 1].sort", &[], 0, &["key", "reverse"]),
];

/// A value each parameter accepts (so that a well-bound call succeeds in both).
fn sample(param: &str) -> &'static str {
    match param {
        "pattern" => "'a'",
        "string" | "source" => "'x = 1'",
        "repl" => "'b'",
        "flags" | "count" | "maxsplit" | "pos" => "0",
        "endpos" => "3",
        "filename" => "'<f>'",
        "mode" => "'exec'",
        "node" => "ast.parse('x = 1')",
        "ast_obj" => "ast.parse('x = 1').body[0]",
        "node_or_string" => "'1'",
        "file" => "'missing.txt'",
        "buffering" => "-1",
        "path" | "top" | "start" => "'.'",
        "iterable" => "[]",
        "tabsize" => "4",
        "encoding" => "'utf-8'",
        "errors" => "'strict'",
        "annotate_fields" | "clean" | "topdown" | "closefd" => "True",
        _ => "None",
    }
}

/// Calls each native function of [`SIGNATURES`] with too few, too many, unknown, duplicated and
/// keyword-only arguments, and well bound, in one generated unittest file; every method's outcome
/// (pass, or the TypeError and its message) must be CPython's.
#[test]
fn builtin_argument_binding_matches_cpython() {
    let mut src = String::from(
        "import unittest\nimport ast\nimport os\nimport re\n\nP = re.compile('a')\n\n\
         class TestBinding(unittest.TestCase):\n",
    );
    let mut n = 0;
    let mut method = |src: &mut String, call: String| {
        src.push_str(&format!("    def test_{n}(self):\n        {call}\n\n"));
        n += 1;
    };
    for (f, params, required, kwonly) in SIGNATURES {
        let pos = |k: usize| params[..k].iter().map(|p| sample(p).to_string()).collect::<Vec<_>>();
        let kw = |ps: &[&str]| ps.iter().map(|p| format!("{p}={}", sample(p))).collect::<Vec<_>>();
        let call = |parts: Vec<String>| format!("{f}({})", parts.join(", "));
        method(&mut src, call(vec![]));
        method(&mut src, call(pos(*required)));
        method(&mut src, call(kw(&params[..*required])));
        let mut extra = pos(params.len());
        extra.push("0".into());
        method(&mut src, call(extra.clone()));
        if let Some(k) = kwonly.first() {
            extra.push(format!("{k}={}", sample(k)));
            method(&mut src, call(extra));
            let mut ok = pos(*required);
            ok.push(format!("{k}={}", sample(k)));
            method(&mut src, call(ok));
        }
        let mut bad = pos(*required);
        bad.push("bad=1".into());
        method(&mut src, call(bad));
        if let Some(p) = params.first() {
            let mut twice = pos((*required).max(1));
            twice.push(format!("{p}={}", sample(p)));
            method(&mut src, call(twice));
        }
        if *required > 0 {
            method(&mut src, call(pos(required - 1)));
            let mut later = pos(required - 1);
            later.extend(kw(&params[*required..]));
            method(&mut src, call(later));
        }
        let mut all_kw = kw(params);
        all_kw.extend(kw(kwonly));
        all_kw.push("bad=1".into());
        method(&mut src, call(all_kw));
    }
    check("binding-test.py", &[], &src);
}

/// `isinstance(x, C)` and `len(x)` answered on the evaluator's fast path (plain positional
/// arguments) and on the general one (starred or keyword arguments, a shadowed name), held to
/// CPython: the answers, argument-count and type errors, evaluation order and a first
/// argument's error stopping the second's evaluation. Also module attributes read at one site
/// (the evaluator remembers where a site's name sits in a module's namespace): rebound,
/// another module at the same site, a name added after a miss, absent names.
#[test]
fn hot_builtin_calls_and_module_attributes_match_python() {
    let prelude = "import ast\norder = []\ndef p(x):\n    order.append(repr(x))\n    return x\n";
    let mut cases: Vec<(String, String)> = Vec::new();
    for e in [
        "isinstance(1, int), isinstance(True, int), isinstance(1.0, int)",
        "isinstance(1, (str, int)), isinstance('s', (int, (bytes, str)))",
        "isinstance(ast.parse('x').body[0], ast.Expr), isinstance(ast.Name(), ast.expr)",
        "isinstance(ast.parse('def f(): pass').body[0], (ast.ClassDef, ast.FunctionDef))",
        "isinstance(1, 2)",
        "isinstance(1, (int, 2))",
        "isinstance(1)",
        "isinstance(1, int, 3)",
        "isinstance()",
        "isinstance(*[1, int])",
        "isinstance(1, *[int])",
        "isinstance(1, int, **{})",
        "isinstance(1, cls=int)",
        "issubclass(bool, int), issubclass(int, cls=int)",
        "isinstance(p(1), p(int)), order",
        "isinstance(1 / 0, undefined_name)",
        "len([1, 2]), len('é'), len({}), len(ast.parse('x').body)",
        "len(5)",
        "len()",
        "len([1], [2])",
        "len(*[[1, 2]])",
        "len(obj=[1])",
        "len(p([3]), ), order",
        "[isinstance(n, ast.Name) for n in ast.walk(ast.parse('a + b'))]",
    ] {
        cases.push((String::new(), e.to_string()));
    }
    for (setup, e) in [
        ("isinstance = lambda a, b: ('mine', a, b)", "isinstance(1, int)"),
        ("len = lambda a: 'mine'", "len([1])"),
        ("f = isinstance", "f(1, int), f('x', int)"),
        // Module attributes at one site, read through the site's remembered index.
        ("out = []\nfor v in (1, 2, 3):\n    ast.zz_hot = v\n    out.append(ast.zz_hot)", "out"),
        ("ast.zz_m = 'ast'\nos.zz_m = 'os'", "[m.zz_m for m in (ast, os, ast, os)]"),
        ("os.zz_f = lambda: 'os'\nast.zz_f = lambda: 'ast'", "[m.zz_f() for m in (os, ast, os)]"),
        (
            "out = []\nfor i in range(2):\n    try:\n        out.append(ast.zz_late)\n    except AttributeError as e:\n        out.append(str(e))\n        ast.zz_late = i",
            "out",
        ),
        ("", "[n.func.id for n in ast.walk(ast.parse('x = f(g(1))')) if isinstance(n, ast.Call)]"),
        ("", "ast.no_such_name"),
        ("", "os.path.no_such_name()"),
    ] {
        cases.push((setup.to_string(), e.to_string()));
    }
    let (n, bad) = interp_common::compare_exprs("test_hot_builtins.py", &[], prelude, &cases);
    assert!(bad.is_empty(), "builtin calls differ:{bad}");
    eprintln!("hot builtin call cases compared with python3: {n}, all agree");
}

/// Instance, function and class namespaces are live, as in CPython 3.11: `o.__dict__` / `vars(o)`
/// is the object's own storage (writes through it are attributes and the other way round,
/// iteration order is insertion order, any key), `o.__dict__ = d` installs `d`, `del o.__dict__`
/// starts afresh; `__setattr__` / `__getattr__` / `__getattribute__` / `__delattr__` overrides
/// and `object.__setattr__` & co. interact with it; `C.__dict__` is a read-only live proxy.
#[test]
fn live_namespaces_match_python() {
    let prelude = r#"
class P:
    k = 'class'
    def m(self): return 'm'

class Slotless(P):
    def __init__(self):
        self.a = 1
        self.b = 2

class Logged:
    def __init__(self):
        object.__setattr__(self, 'log', [])
        self.x = 1
    def __setattr__(self, name, value):
        self.log.append(name)
        object.__setattr__(self, name, value * 2 if isinstance(value, int) else value)

class ViaSuper:
    def __init__(self):
        super().__setattr__('seen', [])
        self.v = 3
    def __setattr__(self, name, value):
        self.seen.append((name, value))
        super().__setattr__(name, value)

class Fallback:
    def __init__(self):
        self.real = 1
    def __getattr__(self, name):
        if name.startswith('f_'):
            return name.upper()
        raise AttributeError(name)

class Proxying:
    def __init__(self, target):
        self.__dict__['_t'] = target
    def __getattr__(self, name):
        return getattr(self._t, name)
    def __setattr__(self, name, value):
        setattr(self._t, name, value)

class Counting:
    def __init__(self):
        object.__setattr__(self, 'n', 0)
    def __getattribute__(self, name):
        if name != 'n':
            object.__setattr__(self, 'n', object.__getattribute__(self, 'n') + 1)
        return object.__getattribute__(self, name)
    def hello(self): return 'hi'

class NoDel:
    def __delattr__(self, name):
        raise AttributeError('no deleting ' + name)

class WithProp:
    @property
    def p(self): return 'prop'

class E(Exception):
    pass

def f(): pass
def g(): pass
g.tag = 1
"#;
    let cases: &[(&str, &str)] = &[
        // writes through the dict are attributes, and attributes are in the dict
        ("o = P(); o.__dict__['x'] = 1", "o.x"),
        ("o = P(); d = vars(o); o.y = 2", "d['y'], d"),
        ("o = P(); d = o.__dict__; o.y = 2; del o.y", "d"),
        ("o = P(); d = o.__dict__; d['z'] = 3; del d['z']", "hasattr(o, 'z')"),
        ("o = P(); o.__dict__.update(a=1, b=2)", "o.a + o.b, list(vars(o))"),
        ("o = P()", "o.__dict__ is vars(o), o.__dict__ is o.__dict__"),
        ("o = P(); o.a = 1", "type(o.__dict__).__name__, isinstance(vars(o), dict)"),
        ("o = P(); o.__dict__['k'] = 'inst'", "o.k, P.k"),
        ("o = P(); o.__dict__['m'] = lambda: 'own'", "o.m()"),
        ("o = P(); o.__dict__[1] = 'one'", "vars(o), getattr(o, '1', None)"),
        ("o = P(); o.__dict__.clear(); o.q = 1", "vars(o)"),
        ("o = P(); o.a = 1; d = vars(o); d.pop('a')", "hasattr(o, 'a'), d"),
        ("o = P(); vars(o)['s'] = 's'; o.t = 't'", "list(o.__dict__.items())"),
        ("o = P(); o.a = 1; d = dict(vars(o)); o.b = 2", "d"),
        ("o = P(); d = vars(o); o.__dict__['w'] = 1", "'w' in d, len(d)"),
        ("o = P(); d = vars(o); setattr(o, 'x', 5); delattr(o, 'x'); o.x = 6", "d"),
        // iteration order
        ("o = Slotless(); o.c = 3; del o.a; o.a = 4", "list(vars(o))"),
        ("o = Slotless(); d = vars(o); d['a'] = 9", "list(d.items()), o.a"),
        ("o = Slotless(); o.__dict__.setdefault('z', 0); o.y = 1", "list(o.__dict__)"),
        // replacing __dict__
        ("o = P(); o.a = 1; nd = {'b': 2}; o.__dict__ = nd", "vars(o) is nd, hasattr(o, 'a'), o.b"),
        ("o = P(); nd = {}; o.__dict__ = nd; o.c = 3", "nd"),
        ("o = P(); nd = {}; o.__dict__ = nd; nd['d'] = 4", "o.d"),
        ("o = P()", "setattr(o, '__dict__', 5)"),
        ("o = P(); o.__dict__ = []", "1"),
        ("o = P(); o.a = 1; del o.__dict__", "vars(o)"),
        ("o = P(); o.a = 1; old = vars(o); del o.__dict__; o.b = 2", "old, vars(o)"),
        ("o = P(); nd = {'x': 1}; o.__dict__ = nd; o.__dict__ = {'y': 2}", "nd, vars(o)"),
        ("o = P(); o.__dict__ = {'__dict__': 1}", "type(o.__dict__).__name__"),
        // vars() errors and other objects
        ("", "vars(1)"),
        ("", "vars(None)"),
        ("", "vars(object())"),
        ("", "vars(P.__dict__)"),
        ("", "vars(P()) == {}"),
        ("", "vars(1, 2)"),
        // del
        ("o = P(); o.a = 1; del o.a", "vars(o)"),
        ("o = P()", "delattr(o, 'nope')"),
        ("o = P(); o.__dict__['a'] = 1; del o.a", "vars(o)"),
        ("o = NoDel(); o.a = 1", "delattr(o, 'a')"),
        ("o = NoDel(); o.a = 1; object.__delattr__(o, 'a')", "vars(o)"),
        ("o = P()", "object.__delattr__(o, 'zz')"),
        // __setattr__ overrides
        ("o = Logged(); o.y = 5", "o.log, vars(o)"),
        ("o = Logged(); o.__dict__['z'] = 7", "o.log, o.z"),
        ("o = Logged(); setattr(o, 'w', 1)", "o.log, o.w"),
        ("o = Logged(); object.__setattr__(o, 'u', 1)", "o.log, o.u"),
        ("o = ViaSuper(); o.w = 4", "o.seen, vars(o)"),
        ("o = Logged(); o.__setattr__('q', 2)", "o.log, o.q"),
        ("t = P(); o = Proxying(t); o.a = 1", "vars(t), vars(o) == {'_t': t}, o.a"),
        ("t = P(); o = Proxying(t)", "o.k, o.m()"),
        ("t = P(); o = Proxying(t)", "o.missing"),
        // __getattr__
        ("o = Fallback()", "o.real, o.f_x, hasattr(o, 'g'), getattr(o, 'g', 'dflt')"),
        ("o = Fallback(); o.__dict__['f_y'] = 'own'", "o.f_y"),
        ("o = Fallback()", "o.other"),
        ("o = Fallback()", "object.__getattribute__(o, 'f_x')"),
        ("o = Fallback()", "o.__getattribute__('real')"),
        // __getattribute__
        ("o = Counting(); o.a = 1; o.a; o.hello()", "object.__getattribute__(o, 'n')"),
        ("o = Counting(); o.__dict__['b'] = 2", "o.b, object.__getattribute__(o, 'n')"),
        // object.__setattr__ & co. on other objects
        ("", "object.__setattr__(1, 'x', 2)"),
        ("", "object.__setattr__(P, 'x', 2)"),
        ("o = P()", "object.__setattr__(o, 1, 2)"),
        ("o = P(); object.__setattr__(o, 'a', 1)", "vars(o)"),
        ("o = P()", "object.__getattribute__(o, 'nope')"),
        ("o = P()", "object.__getattribute__(o, 'm')()"),
        ("o = P(); o.a = 1", "object.__getattribute__(o, '__dict__')"),
        ("type.__setattr__(P, 'added', 1)", "P.added, P.__dict__['added']"),
        ("", "type.__setattr__(int, 'x', 1)"),
        ("setattr(P, 'cls_attr', 2)", "P().cls_attr"),
        // properties win over the dict
        ("o = WithProp(); o.__dict__['p'] = 'dict'", "o.p, vars(o)"),
        ("o = WithProp()", "setattr(o, 'p', 1)"),
        ("o = WithProp()", "delattr(o, 'p')"),
        // class namespaces: live, read-only proxy
        ("d = P.__dict__; P.later = 1", "'later' in d, d['later']"),
        ("", "P.__dict__.__setitem__"),
        ("d = P.__dict__", "len(d) == len(vars(P))"),
        ("", "type(vars(P)).__name__"),
        ("P.dyn = 5; del P.dyn", "'dyn' in P.__dict__"),
        // exceptions and functions
        ("e = E('m'); e.x = 1", "vars(e), e.__dict__ is vars(e)"),
        ("e = E('m'); e.__dict__['y'] = 2", "e.y, e.args"),
        ("", "vars(f)"),
        ("f.__dict__['a'] = 1", "f.a"),
        ("d = vars(g); g.more = 2", "d"),
        ("g.__dict__ = {'n': 1}", "g.n, hasattr(g, 'tag')"),
        ("", "setattr(f, '__dict__', 1)"),
        ("", "delattr(f, '__dict__')"),
        ("f.zz = 1; del f.zz", "hasattr(f, 'zz'), vars(f)"),
        ("", "delattr(f, 'nope')"),
        ("import re\nre.extra = 1\ndel re.extra", "hasattr(re, 'extra')"),
        ("import re", "delattr(re, 'nope')"),
    ];
    let cases: Vec<(String, String)> =
        cases.iter().map(|(s, e)| (s.replace("; ", "\n"), e.to_string())).collect();
    let (n, bad) = interp_common::compare_exprs("test_live_dict.py", &[], prelude, &cases);
    assert!(bad.is_empty(), "live namespaces differ:{bad}");
    eprintln!("live namespace cases compared with python3: {n}, all agree");
}

/// Issue 18's differences found by the last fidelity pass, each compared with python3.11: the
/// ASCII flag of `re` (`re.A`, `(?a)`; `\w`, `\d`, `\s`, `\b` ASCII's; LOCALE and ASCII|UNICODE
/// refused as CPython refuses them), negative `count`/`maxsplit` (no substitution, no split in
/// `re`; unlimited in `str`), `Match.lastindex`/`lastgroup` (the group closed last), `id()`
/// agreeing with `is` for every kind of value, and properties with setters and deleters
/// (`@p.setter`, `@p.deleter`, `p.getter`, `property(fget, fset, fdel)`, CPython's messages).
#[test]
fn re_flags_ids_and_property_setters_match_python() {
    let prelude = r#"
class Prop:
    def __init__(self):
        self._v = 0
        self.log = []
    @property
    def v(self):
        return self._v
    @v.setter
    def v(self, x):
        self.log.append(('set', x))
        self._v = x
    @v.deleter
    def v(self):
        self.log.append('del')
        self._v = None

class Sub(Prop):
    pass

class RO:
    p = property(lambda self: 1)
    q = property(None, lambda self, x: None)
    r = property(fget=lambda self: 2, doc='d')

class G:
    @property
    def a(self):
        return 1
    @a.getter
    def a(self):
        return 2
"#;
    let cases: &[(&str, &str)] = &[
        // re.ASCII
        ("", "int(re.A), int(re.ASCII), int(re.U), int(re.UNICODE), int(re.NOFLAG), int(re.L)"),
        ("", r"re.findall(r'\w+', 'héllo wörld', re.A)"),
        ("", r"re.findall(r'\w+', 'héllo wörld')"),
        ("", r"re.findall(r'\d', '1\u0661 2', re.ASCII)"),
        ("", r"re.findall(r'\s', '\x1c\x0b \x85\xa0\t', re.A)"),
        ("", r"re.findall(r'\S+', 'a\x85b\xa0c', re.A)"),
        ("", r"re.findall(r'\b\w', 'aé éb', re.A)"),
        ("", r"re.findall(r'\B.', 'aé b', re.A)"),
        ("", r"re.sub(r'\W', '-', 'aé b_1', flags=re.A)"),
        ("", r"re.split(r'\W+', 'a-é-b', flags=re.A)"),
        ("", r"re.findall(r'[\w.]+', 'aé.b', re.A)"),
        ("", r"re.findall(r'[^\d]', '1\u0662x', re.A)"),
        ("", "re.compile('x', re.A).flags, re.compile('(?a)x').flags, re.compile('x').flags"),
        ("", r"re.findall(r'(?a)\w', 'éa')"),
        ("", r"re.findall(r'(?ai)K\w', 'kÉ kX')"),
        ("", "re.search('K', 'k', re.I | re.A).group()"),
        ("", "re.compile('x', re.L)"),
        ("", "re.compile('x', re.A | re.U)"),
        ("", r"re.match(r'\B', '', re.A)"),
        ("", r"re.fullmatch(r'\w+', 'abc_9', re.ASCII).group()"),
        // negative count / maxsplit
        ("", "re.sub('a', 'b', 'aaa', count=-1)"),
        ("", "re.sub('a', 'b', 'aaa', -5)"),
        ("", "re.sub('a', 'b', 'aaa', count=0)"),
        ("", "re.split('a', 'bab', maxsplit=-1)"),
        ("", "re.compile('a').split('babab', -2)"),
        ("", "re.compile('a').sub('b', 'aa', -1)"),
        ("", "re.split('a', 'babab', 1)"),
        ("", "'a b c'.split(maxsplit=-5), 'a b c'.rsplit(None, -1), 'a,b,c'.split(',', -2)"),
        ("", "'aaa'.replace('a', 'b', -1), 'aaa'.replace('a', 'b', -3)"),
        // lastindex / lastgroup
        ("", r"re.match(r'(a)(b(c))?(d)?', 'abc').lastindex"),
        ("", r"re.match(r'(?P<x>a)(?P<y>b(?P<z>c))', 'abc').lastgroup"),
        ("", r"re.match(r'((a)|b)+', 'ab').lastindex"),
        ("", r"re.match(r'(a)(b)?', 'a').lastindex"),
        ("", r"re.match(r'(a)()', 'a').lastindex"),
        ("", r"re.match(r'((a))', 'a').lastindex"),
        ("", "re.match('a', 'a').lastindex, re.match('a', 'a').lastgroup"),
        ("", r"re.match(r'(?P<n>a)', 'a').lastgroup"),
        ("", r"re.match(r'(a)(?P<n>b)?', 'a').lastgroup"),
        ("", r"re.search(r'(\d+)-(\d+)', 'x 12-34').lastindex"),
        ("", r"re.match(r'(?P<o>(?P<i>a))', 'a').lastgroup"),
        // id() agrees with `is`
        ("a = 'hello world'; b = a", "id(a) == id(b), id(a) == id('other string'), a is b"),
        ("x = 12345678; y = x", "id(x) == id(y), x is y"),
        ("f = 1.5; g = f", "id(f) == id(g), id(f) == id(2.5)"),
        ("t = (1, 2); u = t", "id(t) == id(u), id(t) == id((3, 4))"),
        ("b = b'xy'; c = b", "id(b) == id(c), id(b) == id(b'zz')"),
        ("", "id(None) == id(None), id(True) == id(False), id('') == id('')"),
        ("s = 'a'", "id(s) == id('a'), id(s) == id('b')"),
        ("", "len({id(x) for x in ['aa', 'bb', 'cc']})"),
        ("", "id(()) == id(()), id(1) == id(2), id(None) == id(False)"),
        ("", "isinstance(id('xyz'), int), id('xyz') > 0, id(7) > 0, id(None) > 0"),
        ("l = [1, 2]; m = [1, 2]", "id(l) == id(m), id(l) == id(l)"),
        ("r = range(3)", "id(r) == id(r), r is r"),
        ("c = 1j", "c is c, id(c) == id(c)"),
        ("n = 10 ** 30; k = n", "id(n) == id(k), n is k"),
        // properties with setters and deleters
        ("o = Prop(); o.v = 5", "o.v, o.log"),
        ("o = Prop(); del o.v", "o.v, o.log"),
        ("o = Prop(); setattr(o, 'v', 3)", "o._v, o.log"),
        ("o = Prop(); o.v = 7; o.v += 1", "o.v, o.log"),
        ("o = Sub(); o.v = 2; del o.v", "o.v, o.log"),
        ("o = RO()", "setattr(o, 'p', 2)"),
        ("o = RO()", "o.q"),
        ("o = RO(); o.q = 5", "vars(o)"),
        ("o = RO()", "delattr(o, 'p')"),
        ("o = RO()", "o.r"),
        ("", "RO.r.fget is not None, RO.p.fset, RO.p.fdel"),
        ("", "type(Prop.v).__name__, Prop.v.fset.__name__, Prop.v.fdel.__name__"),
        ("p = RO.p.setter(lambda s, x: None)", "p is RO.p, p.fget is RO.p.fget, p.fset is None"),
        ("", "G().a"),
        ("o = G()", "setattr(o, 'a', 1)"),
        // sets of address-hashed objects: CPython's order is not reproducible (refscore keeps
        // insertion order); everything that does not show the order agrees
        ("a = RO(); b = RO(); s = {a, b, a}", "len(s), a in s, RO() in s"),
        ("fs = [lambda: 1, lambda: 2]; s = set(fs)", "len(s), fs[0] in s, (lambda: 3) in s"),
        ("s = {Prop, RO, G, Prop}", "len(s), sorted(c.__name__ for c in s)"),
        ("s = {None, 1, 'a', None}", "len(s), None in s, sorted(map(str, s))"),
        (
            "import ast; t = ast.parse('x = 1\\ny = f(2)'); s = set(ast.walk(t))",
            "len(s), t in s, sorted(type(n).__name__ for n in s)",
        ),
        (
            "a = RO(); b = RO(); s = {a} | {b}; s2 = {a, b} - {a}",
            "len(s), len(s2), b in s2, s2 == {b}",
        ),
        ("a = RO(); d = {a: 1, RO(): 2}", "len(d), d[a], list(d.values())"),
        ("a = RO(); b = RO(); s = {a, b}; x = s.pop()", "len(s), x in (a, b), x not in s"),
        ("a = RO(); b = RO()", "frozenset([a, b]) == frozenset([b, a]), {a, b} == {b, a}"),
        ("a = RO(); b = RO(); s = {a, b}", "sorted(s, key=id) == sorted([a, b], key=id)"),
        (
            "a = RO(); s = {a, None, 2}",
            "s & {None, 2} == {None, 2}, len(s ^ {a}), s.issuperset({a})",
        ),
        ("s = {RO() for _ in range(50)}; s.add(None)", "len(s), sum(1 for x in s if x is None)"),
        ("a = RO(); s = {a, 1}; s.discard(a); s.add(a)", "len(s), a in s, 1 in s"),
        // `ast`'s classes take attributes, which their nodes find through the bases
        (
            "import ast; ast.Name.tag = 'nm'",
            "ast.Name.tag, ast.parse('x').body[0].value.tag, hasattr(ast.Constant, 'tag')",
        ),
        (
            "import ast; ast.AST.up = None; t = ast.parse('x = 1')",
            "t.up, t.body[0].up, ast.expr.up, ast.Name.up",
        ),
        (
            "import ast; ast.AST.kind_of = lambda self: type(self).__name__",
            "ast.parse('x').body[0].kind_of()",
        ),
        ("import ast; ast.Name.q = 1; del ast.Name.q", "hasattr(ast.Name, 'q')"),
        ("import ast", "delattr(ast.Name, 'zz')"),
        (
            "import ast; ast.AST.up2 = 0; n = ast.parse('x').body[0]; n.up2 = 5",
            "n.up2, ast.AST.up2, ast.Expr.up2",
        ),
        (
            "import ast; ast.stmt.depth = 3",
            "ast.parse('x').body[0].depth, hasattr(ast.parse('x').body[0].value, 'depth')",
        ),
        // a node's `__dict__` is its storage
        ("import ast; n = ast.parse('x').body[0]; d = n.__dict__; d['tag'] = 1", "n.tag, list(d)"),
        (
            "import ast; n = ast.parse('x').body[0]; d = n.__dict__; n.more = 2",
            "d['more'], list(d)",
        ),
        (
            "import ast; n = ast.parse('x').body[0]; d = vars(n); d['value'] = 5",
            "n.value, ast.dump(n)",
        ),
        (
            "import ast; n = ast.parse('x = 1').body[0]; d = n.__dict__; del d['lineno']",
            "hasattr(n, 'lineno'), n.__dict__ is d, vars(n) is d",
        ),
        (
            "import ast; n = ast.Name(id='x'); d = n.__dict__; n.ctx = ast.Load()",
            "list(d), n.__dict__ is d",
        ),
        ("import ast; t = ast.parse('x = 1'); t.body[0].__dict__['targets'] = []", "ast.dump(t)"),
        (
            "import ast; n = ast.parse('f(1)').body[0].value; n.__dict__['args'] = []",
            "[type(c).__name__ for c in ast.iter_child_nodes(n)], len(list(ast.walk(n)))",
        ),
        ("import ast; n = ast.parse('x').body[0]; del n.__dict__['value']", "hasattr(n, 'value')"),
        (
            "import ast; n = ast.parse('x').body[0]; vars(n).update(a=1, b=2); del n.a",
            "n.b, list(vars(n))",
        ),
        (
            "import ast; n = ast.parse('x').body[0]; d = n.__dict__; n.value = None",
            "d['value'], ast.dump(n)",
        ),
        (
            "import ast; ast.FunctionDef.returns = 'r'",
            "ast.parse('def f(): pass').body[0].returns, ast.FunctionDef().returns",
        ),
    ];
    let cases: Vec<(String, String)> =
        cases.iter().map(|(s, e)| (s.replace("; ", "\n"), e.to_string())).collect();
    let (n, bad) = interp_common::compare_exprs("test_fid8.py", &[], prelude, &cases);
    assert!(bad.is_empty(), "differences:{bad}");
    eprintln!("re flags, ids and property cases compared with python3: {n}, all agree");
}
