import unittest


class TestBuiltins(unittest.TestCase):

    def test_len_sorted_min_max_sum(self):
        xs = [5, 3, 8, 1]
        self.assertEqual(len(xs), 4)
        self.assertEqual(sorted(xs), [1, 3, 5, 8])
        self.assertEqual(sorted(xs, reverse=True), [8, 5, 3, 1])
        self.assertEqual(xs, [5, 3, 8, 1])
        self.assertEqual(min(xs), 1)
        self.assertEqual(max(xs), 8)
        self.assertEqual(min(3, 2, 9), 2)
        self.assertEqual(max(['aa', 'b', 'ccc'], key=len), 'ccc')
        self.assertEqual(min([], default=None), None)
        self.assertEqual(sum(xs), 17)
        self.assertEqual(sum([0.5, 0.25], 1), 1.75)
        self.assertEqual(sorted({'b': 1, 'a': 2}), ['a', 'b'])
        self.assertEqual(sorted('bca'), ['a', 'b', 'c'])

    def test_max_empty(self):
        max([])

    def test_enumerate_zip_reversed(self):
        self.assertEqual(list(enumerate('ab')), [(0, 'a'), (1, 'b')])
        self.assertEqual(list(enumerate('ab', 1)), [(1, 'a'), (2, 'b')])
        self.assertEqual(list(zip([1, 2, 3], 'ab')), [(1, 'a'), (2, 'b')])
        self.assertEqual(list(zip()), [])
        self.assertEqual(list(reversed([1, 2, 3])), [3, 2, 1])
        self.assertEqual(list(reversed(range(3))), [2, 1, 0])
        self.assertEqual(list(zip(*[(1, 'a'), (2, 'b')])), [(1, 2), ('a', 'b')])

    def test_map_filter_any_all(self):
        self.assertEqual(list(map(str, [1, 2])), ['1', '2'])
        self.assertEqual(list(map(lambda a, b: a + b, [1, 2], [10, 20])), [11, 22])
        self.assertEqual(list(filter(lambda x: x > 1, [0, 1, 2, 3])), [2, 3])
        self.assertTrue(any([0, '', 'x']))
        self.assertFalse(any([]))
        self.assertTrue(all([]))
        self.assertFalse(all([1, 0]))

    def test_isinstance_variants(self):
        self.assertTrue(isinstance(1, int))
        self.assertTrue(isinstance(True, int))
        self.assertTrue(isinstance(1.0, (int, float)))
        self.assertFalse(isinstance('1', (int, float)))
        self.assertTrue(isinstance([], list))
        self.assertTrue(isinstance({}, dict))
        self.assertTrue(isinstance((), tuple))
        self.assertTrue(isinstance(set(), set))
        self.assertTrue(isinstance(None, type(None)))
        self.assertTrue(isinstance(ValueError('x'), Exception))
        self.assertTrue(isinstance(int, type))

    def test_isinstance_bad_second_arg(self):
        isinstance(1, 'int')

    def test_type_and_conversions(self):
        self.assertEqual(type(1).__name__, 'int')
        self.assertEqual(type('').__name__, 'str')
        self.assertEqual(type(None).__name__, 'NoneType')
        self.assertEqual(int('42'), 42)
        self.assertEqual(int(' -7 '), -7)
        self.assertEqual(int('ff', 16), 255)
        self.assertEqual(int('0x1f', 0), 31)
        self.assertEqual(int(3.99), 3)
        self.assertEqual(int(-3.99), -3)
        self.assertEqual(int(True), 1)
        self.assertEqual(float('1.5'), 1.5)
        self.assertEqual(float(2), 2.0)
        self.assertEqual(str(12), '12')
        self.assertEqual(str(b'ab'), "b'ab'")
        self.assertEqual(bool('False'), True)
        self.assertEqual(list('ab'), ['a', 'b'])
        self.assertEqual(list({'k': 1}), ['k'])
        self.assertEqual(set('aab'), {'a', 'b'})
        self.assertEqual(tuple(range(3)), (0, 1, 2))
        self.assertEqual(dict(), {})

    def test_int_invalid(self):
        int('4.5')

    def test_float_invalid(self):
        float('abc')

    def test_int_of_none(self):
        int(None)

    def test_numeric_builtins(self):
        self.assertEqual(abs(-3), 3)
        self.assertEqual(abs(-2.5), 2.5)
        self.assertEqual(round(3.14159, 2), 3.14)
        self.assertEqual(round(-0.5), 0)
        self.assertEqual(round(1234, -2), 1200)
        self.assertEqual(divmod(17, 5), (3, 2))
        self.assertEqual(divmod(-17, 5), (-4, 3))
        self.assertEqual(pow(2, 10), 1024)
        self.assertEqual(pow(2, 10, 1000), 24)
        self.assertEqual(hex(255), '0xff')
        self.assertEqual(hex(-1), '-0x1')
        self.assertEqual(oct(8), '0o10')
        self.assertEqual(bin(5), '0b101')
        self.assertEqual(chr(65), 'A')
        self.assertEqual(ord('a'), 97)
        self.assertEqual(ord('€'), 8364)

    def test_ord_of_long_string(self):
        ord('ab')

    def test_repr_str_builtins(self):
        self.assertEqual(repr('a'), "'a'")
        self.assertEqual(str('a'), 'a')
        self.assertEqual(repr(1.0), '1.0')
        self.assertEqual(repr(None), 'None')
        self.assertEqual(repr(int), "<class 'int'>")
        self.assertEqual(repr(ValueError('bad')), "ValueError('bad')")
        self.assertEqual(str(ValueError('bad')), 'bad')
        self.assertEqual(str(KeyError('k')), "'k'")
        self.assertEqual(repr(range(3)), 'range(0, 3)')

    def test_print_does_not_change_verdicts(self):
        print("to stdout", 1, None, sep='|', end='!\n')
        print()
        self.assertTrue(True)

    def test_print_then_fail(self):
        print("about to fail")
        self.assertEqual(print('x'), 'x')

    def test_id_and_identity(self):
        a = [1]
        b = a
        self.assertEqual(id(a), id(b))
        self.assertIsNot(a, [1])

    def test_iter_next(self):
        it = iter([1, 2])
        self.assertEqual(next(it), 1)
        self.assertEqual(next(it), 2)
        self.assertEqual(next(it, 'end'), 'end')
        next(it)

    def test_callable_and_getattr_default(self):
        self.assertTrue(callable(len))
        self.assertEqual(getattr('abc', 'upper')(), 'ABC')
        self.assertEqual(getattr(1, 'missing', None), None)
        getattr(1, 'missing')


if __name__ == '__main__':
    unittest.main()
