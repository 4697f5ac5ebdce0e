import ast
import unittest

with open('../shopkit/cart.py', 'r') as f:
    CART = ast.parse(f.read())

STATE = []


class TestRunOrder(unittest.TestCase):

    def test_b_reads_state(self):
        self.assertEqual(STATE, ['a'], "test_a runs before test_b")
        STATE.append('b')

    def test_a_writes_state(self):
        STATE.append('a')
        self.assertEqual(len(STATE), 1)

    def test_c_sees_both(self):
        self.assertEqual(STATE, ['a', 'b', 'z'])

    def test_cart_module_docstring(self):
        self.assertIsNone(ast.get_docstring(CART))


class ATestFirstClass(unittest.TestCase):

    def test_runs_before_other_class(self):
        self.assertEqual(STATE, [])
        STATE.append('first')


class ZTestLastClass(unittest.TestCase):

    def test_sees_state(self):
        self.assertEqual(STATE, ['first', 'a', 'b'])


if __name__ == '__main__':
    unittest.main()
