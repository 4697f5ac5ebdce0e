import ast
import unittest

with open('../shopkit/checkout.py', 'r') as f:
    CHECKOUT = ast.parse(f.read())


class TestCheckout(unittest.TestCase):

    def test_checkout(self):
        self.assertIsNotNone(CHECKOUT)


if __name__ == '__main__':
    unittest.main()
