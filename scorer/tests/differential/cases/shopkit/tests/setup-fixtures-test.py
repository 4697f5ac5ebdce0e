import ast
import os
import unittest


class TestSetUpParses(unittest.TestCase):

    def setUp(self):
        self.path = '../shopkit/cart.py'
        self.assertTrue(os.path.exists(self.path), "cart.py must exist")
        with open(self.path, 'r') as f:
            self.tree = ast.parse(f.read())

    def test_cart_class(self):
        classes = [n.name for n in ast.walk(self.tree) if isinstance(n, ast.ClassDef)]
        self.assertIn('Cart', classes)

    def test_cart_error_class(self):
        classes = [n.name for n in ast.walk(self.tree) if isinstance(n, ast.ClassDef)]
        self.assertIn('CartFullError', classes, "CartFullError should be defined")

    def test_max_items(self):
        value = next(n.value.value for n in self.tree.body
                     if isinstance(n, ast.Assign) and n.targets[0].id == 'MAX_ITEMS')
        self.assertGreater(value, 10)
        self.assertLess(value, 100)


class TestSetUpAssertionFails(unittest.TestCase):

    def setUp(self):
        self.assertTrue(os.path.exists('../shopkit/checkout.py'), "checkout.py must exist")
        with open('../shopkit/checkout.py', 'r') as f:
            self.tree = ast.parse(f.read())

    def test_checkout_function(self):
        self.assertTrue(any(isinstance(n, ast.FunctionDef) for n in ast.walk(self.tree)))

    def test_checkout_class(self):
        self.assertTrue(any(isinstance(n, ast.ClassDef) for n in ast.walk(self.tree)))


class TestSetUpErrors(unittest.TestCase):

    def setUp(self):
        with open('../shopkit/checkout.py', 'r') as f:
            self.tree = ast.parse(f.read())

    def test_checkout_function(self):
        self.assertTrue(any(isinstance(n, ast.FunctionDef) for n in ast.walk(self.tree)))

    def test_nothing(self):
        pass


class TestSetUpClassFails(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        with open('../shopkit/checkout.py', 'r') as f:
            cls.tree = ast.parse(f.read())

    def test_never_runs(self):
        self.assertTrue(False)


class TestSetUpClassWorks(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        with open('../shopkit/pricing.py', 'r') as f:
            cls.tree = ast.parse(f.read())
        cls.names = [n.name for n in cls.tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]

    def test_names(self):
        self.assertEqual(self.names, ['PriceRule', 'BulkRule', 'apply_discount', 'compute_total',
                                      'to_decimal', 'scan'])

    def test_names_wrong(self):
        self.assertEqual(self.names[0], 'BulkRule')

    def test_shared_state(self):
        self.names.append('extra')
        self.assertEqual(len(self.names), 7)


class TestTearDown(unittest.TestCase):

    def setUp(self):
        self.calls = []

    def tearDown(self):
        if self.calls:
            raise RuntimeError("tearDown saw %d calls" % len(self.calls))

    def test_passes_then_teardown_fails(self):
        self.calls.append(1)
        self.assertEqual(self.calls, [1])

    def test_passes_clean(self):
        self.assertEqual(self.calls, [])

    def test_fails_and_teardown_fails(self):
        self.calls.append(2)
        self.assertEqual(self.calls, [])


if __name__ == '__main__':
    unittest.main()
