import ast
import unittest

LONG_A = "The quick brown fox jumps over the lazy dog. " * 3
LONG_B = LONG_A.replace("lazy", "sleepy")


class TestAssertionMessages(unittest.TestCase):

    def test_equal_ints(self):
        self.assertEqual(1 + 1, 3)

    def test_equal_ints_msg(self):
        self.assertEqual(2, 3, "two is not three")

    def test_equal_short_strings(self):
        self.assertEqual('cart', 'carts')

    def test_equal_long_strings(self):
        self.assertEqual(LONG_A, LONG_B)

    def test_equal_multiline_strings(self):
        self.assertEqual("line one\nline two\n", "line one\nline 2\n")

    def test_equal_lists(self):
        self.assertEqual([1, 2, 3], [1, 2, 4])

    def test_equal_lists_length(self):
        self.assertEqual(['a', 'b'], ['a', 'b', 'c'])

    def test_equal_long_lists(self):
        self.assertEqual(list(range(40)), list(range(1, 41)))

    def test_equal_tuples(self):
        self.assertEqual((1, 'a'), (1, 'b'))

    def test_equal_dicts(self):
        self.assertEqual({'a': 1, 'b': 2}, {'a': 1, 'b': 3})

    def test_equal_sets_of_ints(self):
        self.assertEqual({1, 2, 3}, {2, 3, 4})

    def test_equal_mixed_types(self):
        self.assertEqual([1, 2], (1, 2))

    def test_equal_none_and_string(self):
        self.assertEqual(None, 'x')

    def test_not_equal(self):
        self.assertNotEqual('same', 'same')

    def test_not_equal_msg(self):
        self.assertNotEqual([1], [1], "lists should differ")

    def test_true_with_expression_value(self):
        self.assertTrue([])

    def test_true_with_zero(self):
        self.assertTrue(0, "zero is falsy")

    def test_false_with_string(self):
        self.assertFalse('text')

    def test_false_with_dict(self):
        self.assertFalse({'k': 'v'}, "dict should be empty")

    def test_in_list(self):
        self.assertIn('d', ['a', 'b', 'c'])

    def test_in_string(self):
        self.assertIn('xyz', 'abc')

    def test_in_dict(self):
        self.assertIn('z', {'a': 1})

    def test_not_in_list(self):
        self.assertNotIn(2, [1, 2, 3], "two must not be present")

    def test_is_none(self):
        self.assertIsNone('value')

    def test_is_none_ast_node(self):
        node = ast.parse('x = 1').body[0]
        self.assertIsNone(node, "expected no assignment")

    def test_is_not_none(self):
        self.assertIsNotNone(None)

    def test_is_instance(self):
        self.assertIsInstance('x', int)

    def test_is_instance_ast(self):
        node = ast.parse('f()').body[0]
        self.assertIsInstance(node, ast.Assign)

    def test_is_instance_tuple_of_types(self):
        self.assertIsInstance(3.5, (int, str))

    def test_not_is_instance(self):
        self.assertNotIsInstance(True, int)

    def test_greater(self):
        self.assertGreater(1, 2)

    def test_greater_equal(self):
        self.assertGreaterEqual(1, 2, "too small")

    def test_less(self):
        self.assertLess(5, 2)

    def test_less_equal(self):
        self.assertLessEqual(5.5, 2)

    def test_is(self):
        self.assertIs([], [])

    def test_is_not(self):
        self.assertIsNot(None, None)

    def test_fail_plain(self):
        self.fail()

    def test_fail_message(self):
        self.fail("explicit failure message")

    def test_fail_multiline(self):
        self.fail("first line\nsecond line")

    def test_count_equal(self):
        self.assertCountEqual([1, 2, 2], [2, 1, 1])

    def test_almost_equal(self):
        self.assertAlmostEqual(1.0, 1.1)

    def test_raises_not_raised(self):
        with self.assertRaises(ValueError):
            int('5')

    def test_raises_other_exception(self):
        with self.assertRaises(ValueError):
            {}['k']

    def test_regex(self):
        self.assertRegex('shopkit', r'^cart')

    def test_passes_many(self):
        self.assertEqual([1, 2], [1, 2])
        self.assertNotEqual(1, 2)
        self.assertIn(1, {1: 'a'})
        self.assertIsNone(None)
        self.assertIsInstance(1, int)
        self.assertGreater(3, 2)
        self.assertLessEqual(2, 2)
        self.assertAlmostEqual(0.1 + 0.2, 0.3)
        with self.assertRaises(KeyError):
            {}['k']
        with self.assertRaises(ZeroDivisionError) as ctx:
            1 / 0
        self.assertEqual(str(ctx.exception), 'division by zero')

    def test_assert_statement(self):
        value = 3
        assert value == 4, "value should be 4"

    def test_assert_statement_no_message(self):
        assert []

    def test_raise_assertion_error(self):
        raise AssertionError("raised by hand")


if __name__ == '__main__':
    unittest.main()
