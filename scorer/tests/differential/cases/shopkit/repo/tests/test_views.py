import unittest

from shopkit.api import views


class ViewsTest(unittest.TestCase):
    def test_get_cart(self):
        storage = {}
        with self.assertRaises(Exception):
            views.get_cart(None, storage)

    def test_summary(self):
        self.assertIsNotNone(views.cart_summary)
