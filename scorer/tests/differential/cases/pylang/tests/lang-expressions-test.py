import unittest


class TestExpressions(unittest.TestCase):

    def test_conditional_expression(self):
        x = 5
        self.assertEqual('big' if x > 3 else 'small', 'big')
        self.assertEqual('a' if [] else 'b' if 0 else 'c', 'c')

    def test_short_circuit_values(self):
        self.assertEqual(0 or 'default', 'default')
        self.assertEqual('first' or 1 / 0, 'first')
        self.assertEqual([] and 1 / 0, [])
        self.assertEqual(1 and 2 and 3, 3)
        self.assertIsNone(None and 'x')
        self.assertEqual(not [], True)

    def test_comparison_chains(self):
        x = 5
        self.assertTrue(1 < x < 10)
        self.assertFalse(1 < x > 10)
        self.assertTrue(1 == 1.0 != 2)
        self.assertTrue('a' < 'b' <= 'b' < 'ba')
        self.assertTrue([1, 2] < [1, 3])
        self.assertTrue((1, 'a') < (1, 'b'))
        self.assertTrue(None is None is not False)

    def test_comparison_chain_evaluates_once(self):
        calls = []

        def mid():
            calls.append(1)
            return 5
        self.assertTrue(0 < mid() < 10)
        self.assertEqual(len(calls), 1)

    def test_mixed_type_ordering(self):
        self.assertTrue(1 < 'a')

    def test_identity_of_constants(self):
        self.assertFalse(0 is False)
        self.assertTrue(0 == False)
        self.assertTrue(True == 1)
        self.assertEqual(True + True, 2)
        self.assertTrue(None is None)
        self.assertEqual(hash(1), hash(1.0))

    def test_big_ints(self):
        big = 2 ** 100
        self.assertEqual(big, 1267650600228229401496703205376)
        self.assertEqual(str(big * big)[:10], '1606938044')
        self.assertEqual(big // 3 % 1000, 125)
        self.assertEqual(-big // 7, -181092942889747057356671886483)
        self.assertEqual((-7) // 2, -4)
        self.assertEqual((-7) % 3, 2)
        self.assertEqual(7 % -3, -2)
        self.assertEqual(divmod(-7, 2), (-4, 1))
        self.assertEqual(abs(-big), big)
        self.assertEqual(int('9' * 30) + 1, 10 ** 30)

    def test_big_int_message(self):
        self.assertEqual(3 ** 80, 0)

    def test_float_arithmetic(self):
        self.assertEqual(0.1 + 0.2, 0.30000000000000004)
        self.assertEqual(str(0.1 + 0.2), '0.30000000000000004')
        self.assertEqual(repr(1e16), '1e+16')
        self.assertEqual(repr(1.5e-7), '1.5e-07')
        self.assertEqual(str(100.0), '100.0')
        self.assertEqual(str(2.5e15), '2500000000000000.0')
        self.assertEqual(7 / 2, 3.5)
        self.assertEqual(6 / 3, 2.0)
        self.assertEqual(type(6 / 3).__name__, 'float')
        self.assertEqual(2 ** -1, 0.5)
        self.assertEqual(round(2.5), 2)
        self.assertEqual(round(3.5), 4)
        self.assertEqual(round(2.675, 2), 2.67)
        self.assertEqual(float('inf') > 10 ** 300, True)

    def test_float_message(self):
        self.assertEqual(1 / 3, 0.33)

    def test_division_by_zero(self):
        return 1 % 0

    def test_float_division_by_zero(self):
        return 1.0 / 0

    def test_slices(self):
        s = 'abcdefgh'
        self.assertEqual(s[2:5], 'cde')
        self.assertEqual(s[:-3], 'abcde')
        self.assertEqual(s[::2], 'aceg')
        self.assertEqual(s[::-1], 'hgfedcba')
        self.assertEqual(s[-2:], 'gh')
        self.assertEqual(s[5:2], '')
        self.assertEqual(s[100:], '')
        self.assertEqual(s[1:7:3], 'be')
        xs = list(range(10))
        self.assertEqual(xs[-3:-1], [7, 8])
        self.assertEqual(xs[8:2:-2], [8, 6, 4])
        self.assertEqual((1, 2, 3)[1:], (2, 3))

    def test_index_out_of_range(self):
        return 'abc'[5]

    def test_tuple_index_out_of_range(self):
        return (1, 2)[2]

    def test_comprehensions(self):
        self.assertEqual([x * x for x in range(5) if x % 2 == 0], [0, 4, 16])
        self.assertEqual({x % 3 for x in range(10)}, {0, 1, 2})
        self.assertEqual({k: len(k) for k in ['a', 'bb']}, {'a': 1, 'bb': 2})
        self.assertEqual([(a, b) for a in range(3) for b in range(a)], [(1, 0), (2, 0), (2, 1)])
        self.assertEqual([[y for y in range(x)] for x in range(3)], [[], [0], [0, 1]])
        self.assertEqual(sum(x for x in range(101)), 5050)

    def test_comprehension_scope(self):
        x = 'outer'
        result = [x for x in range(3)]
        self.assertEqual(x, 'outer')
        self.assertEqual(result, [0, 1, 2])

    def test_unary_and_bitwise(self):
        self.assertEqual(-(-3), 3)
        self.assertEqual(+4, 4)
        self.assertEqual(~5, -6)
        self.assertEqual(6 & 3, 2)
        self.assertEqual(6 | 3, 7)
        self.assertEqual(6 ^ 3, 5)
        self.assertEqual(1 << 70, 1180591620717411303424)
        self.assertEqual(-16 >> 2, -4)

    def test_string_operators(self):
        self.assertEqual('ab' * 3, 'ababab')
        self.assertEqual(3 * [0], [0, 0, 0])
        self.assertEqual('a' + 'b', 'ab')
        self.assertEqual([1] + [2], [1, 2])
        self.assertEqual((1,) + (2,), (1, 2))
        self.assertTrue('bc' in 'abcd')
        self.assertEqual('%s-%d-%.2f-%r' % ('x', 5, 1.5, 'y'), "x-5-1.50-'y'")
        self.assertEqual('%5s|%-5s|%05d' % ('ab', 'cd', 42), '   ab|cd   |00042')

    def test_type_error_add(self):
        return 'a' + 1

    def test_type_error_add_reverse(self):
        return 1 + 'a'

    def test_type_error_list_plus_tuple(self):
        return [1] + (2,)

    def test_type_error_subscript(self):
        return None[0]

    def test_type_error_call(self):
        value = 5
        return value()

    def test_type_error_len(self):
        return len(5)

    def test_type_error_iterate(self):
        for _ in 42:
            pass

    def test_in_on_int(self):
        return 1 in 5

    def test_dict_unhashable_key(self):
        return {[1]: 2}

    def test_set_operations(self):
        a, b = {1, 2, 3}, {2, 3, 4}
        self.assertEqual(a | b, {1, 2, 3, 4})
        self.assertEqual(a & b, {2, 3})
        self.assertEqual(a - b, {1})
        self.assertEqual(a ^ b, {1, 4})
        self.assertTrue({2} <= a)
        self.assertTrue(a.issubset({0, 1, 2, 3}))
        self.assertEqual(sorted(a.union([9])), [1, 2, 3, 9])

    def test_bool_conversions(self):
        self.assertEqual([bool(v) for v in [0, 0.0, '', [], {}, (), set(), None, 'a', [0], -1]],
                         [False] * 8 + [True] * 3)


if __name__ == '__main__':
    unittest.main()
