import unittest


class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __repr__(self):
        return f"Point({self.x}, {self.y})"

    def __str__(self):
        return f"({self.x}, {self.y})"


class TestFStrings(unittest.TestCase):

    def test_conversions(self):
        p = Point(1, 2)
        self.assertEqual(f"{p}", '(1, 2)')
        self.assertEqual(f"{p!r}", 'Point(1, 2)')
        self.assertEqual(f"{p!s}", '(1, 2)')
        self.assertEqual(f"{'é'!a}", "'\\xe9'")
        self.assertEqual(f"{'x'!r}", "'x'")
        self.assertEqual(f"{None}", 'None')
        self.assertEqual(f"{[1, 'a']}", "[1, 'a']")

    def test_width_and_alignment(self):
        self.assertEqual(f"{'ab':5}|", 'ab   |')
        self.assertEqual(f"{'ab':>5}|", '   ab|')
        self.assertEqual(f"{'ab':^6}|", '  ab  |')
        self.assertEqual(f"{'ab':*^7}|", '**ab***|')
        self.assertEqual(f"{42:5}|", '   42|')
        self.assertEqual(f"{42:<5}|", '42   |')
        self.assertEqual(f"{42:05}", '00042')
        self.assertEqual(f"{-42:06}", '-00042')
        self.assertEqual(f"{42:+}", '+42')
        self.assertEqual(f"{42: }", ' 42')

    def test_numbers(self):
        self.assertEqual(f"{3.14159:.2f}", '3.14')
        self.assertEqual(f"{3.14159:8.3f}|", '   3.142|')
        self.assertEqual(f"{1234567.891:,.2f}", '1,234,567.89')
        self.assertEqual(f"{1234567:,}", '1,234,567')
        self.assertEqual(f"{1234567:_}", '1_234_567')
        self.assertEqual(f"{255:x}", 'ff')
        self.assertEqual(f"{255:X}", 'FF')
        self.assertEqual(f"{255:#x}", '0xff')
        self.assertEqual(f"{255:08b}", '11111111')
        self.assertEqual(f"{8:o}", '10')
        self.assertEqual(f"{0.256:.1%}", '25.6%')
        self.assertEqual(f"{0.5:%}", '50.000000%')
        self.assertEqual(f"{12345.678:e}", '1.234568e+04')
        self.assertEqual(f"{12345.678:.3g}", '1.23e+04')
        self.assertEqual(f"{0.0001:g}", '0.0001')
        self.assertEqual(f"{1.0:g}", '1')
        self.assertEqual(f"{2.5:.0f}", '2')
        self.assertEqual(f"{3:.2f}", '3.00')
        self.assertEqual(f"{1e20:.1f}", '100000000000000000000.0')

    def test_nested_format_spec(self):
        width, prec = 10, 3
        self.assertEqual(f"{3.14159:{width}.{prec}f}|", '     3.142|')
        self.assertEqual(f"{'x':>{width}}", '         x')

    def test_expressions_inside(self):
        items = {'a': 1}
        self.assertEqual(f"{items['a'] + 1}", '2')
        self.assertEqual(f"{len(items)} item{'s' if len(items) != 1 else ''}", '1 item')
        self.assertEqual(f"{{literal}} {1 + 1}", '{literal} 2')
        self.assertEqual(f"{'a' 'b'}", 'ab')
        self.assertEqual(f"{3!r:>4}", '   3')

    def test_debug_specifier(self):
        value = 7
        self.assertEqual(f"{value=}", 'value=7')
        self.assertEqual(f"{value = }", 'value = 7')
        self.assertEqual(f"{'s'=}", "'s'='s'")

    def test_format_method(self):
        self.assertEqual('{} + {} = {}'.format(1, 2, 3), '1 + 2 = 3')
        self.assertEqual('{1}{0}{1}'.format('a', 'b'), 'bab')
        self.assertEqual('{name}:{n:03d}'.format(name='x', n=7), 'x:007')
        self.assertEqual('{0[1]}-{1.x}'.format([5, 6], Point(8, 9)), '6-8')
        self.assertEqual(format(3.5, '.3f'), '3.500')
        self.assertEqual(format(10, 'x'), 'a')

    def test_bad_format_spec(self):
        return f"{'text':d}"

    def test_bad_format_spec_int(self):
        return f"{5:s}"

    def test_format_wrong_expectation(self):
        self.assertEqual(f"{1234.5:,.1f}", '1.234,5')

    def test_bool_and_none_formatting(self):
        self.assertEqual(f"{True}", 'True')
        self.assertEqual(f"{True:d}", '1')
        self.assertEqual(f"{None!r}", 'None')
        self.assertEqual(str(True) + str(None), 'TrueNone')

    def test_repr_of_strings(self):
        self.assertEqual(repr("it's"), '"it\'s"')
        self.assertEqual(repr('say "hi"'), '\'say "hi"\'')
        self.assertEqual(repr('both \' and "'), '\'both \\\' and "\'')
        self.assertEqual(repr('tab\tnew\nnul\x00'), "'tab\\tnew\\nnul\\x00'")
        self.assertEqual(repr('é ü 日本'), "'é ü 日本'")
        self.assertEqual(repr('\x7f\u200b'), "'\\x7f\\u200b'")
        self.assertEqual(repr(b'a\x00\xff'), "b'a\\x00\\xff'")
        self.assertEqual(ascii('é'), "'\\xe9'")

    def test_repr_of_containers(self):
        self.assertEqual(repr([1, 'a', None, True, 2.0]), "[1, 'a', None, True, 2.0]")
        self.assertEqual(repr({'k': (1,), 'e': ()}), "{'k': (1,), 'e': ()}")
        self.assertEqual(repr(set()), 'set()')
        self.assertEqual(repr({3, 1, 2}), '{1, 2, 3}')
        self.assertEqual(repr([[]]), '[[]]')
        self.assertEqual(str({'a': 'b'}), "{'a': 'b'}")

    def test_recursive_repr(self):
        xs = [1]
        xs.append(xs)
        self.assertEqual(repr(xs), '[1, [...]]')


if __name__ == '__main__':
    unittest.main()
