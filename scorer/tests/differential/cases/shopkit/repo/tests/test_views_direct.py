import unittest

from shopkit.api.views import get_cart, cart_summary


class DirectViewsTest(unittest.TestCase):
    def test_get_cart(self):
        with self.assertRaises(Exception):
            get_cart(None, {})

    def test_summary(self):
        self.assertTrue(callable(cart_summary))
