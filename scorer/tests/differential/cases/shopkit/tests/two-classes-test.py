import ast
import os
import unittest


class TestRulesExist(unittest.TestCase):
    import unittest

    def test_price_rule_class(self):
        with open('../shopkit/pricing.py', 'r') as f:
            tree = ast.parse(f.read())
        self.assertTrue(any(isinstance(n, ast.ClassDef) and n.name == 'PriceRule' for n in ast.walk(tree)))

    def test_bulk_rule_inherits(self):
        with open('../shopkit/pricing.py', 'r') as f:
            tree = ast.parse(f.read())
        bulk = next(n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == 'BulkRule')
        self.assertEqual([b.id for b in bulk.bases], ['PriceRule'])

    def test_duplicate_name(self):
        self.assertTrue(os.path.exists('../shopkit/cart.py'))

    def test_duplicate_name(self):
        self.assertTrue(os.path.exists('../shopkit/checkout.py'), "second definition wins")


if __name__ == '__main__':
    unittest.main()
import ast
import os
import unittest


class TestRulesMethods(unittest.TestCase):

    def _methods(self, class_name):
        with open('../shopkit/pricing.py', 'r') as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and node.name == class_name:
                return [n.name for n in node.body if isinstance(n, ast.FunctionDef)]
        return []

    def test_price_rule_methods(self):
        self.assertEqual(self._methods('PriceRule'), ['applies', 'compute_total'])

    def test_bulk_rule_methods(self):
        self.assertEqual(self._methods('BulkRule'), ['applies', 'compute_total'])

    def test_unknown_rule_methods(self):
        self.assertEqual(self._methods('FlatRule'), [])

    def test_duplicate_name(self):
        self.assertFalse(os.path.exists('../shopkit/rules.py'))


class BaseChecks(unittest.TestCase):

    path = '../shopkit/cart.py'

    def test_file_exists(self):
        self.assertTrue(os.path.exists(self.path), f"{self.path} is missing")


class PricingChecks(BaseChecks):

    path = '../shopkit/pricing.py'


class MissingChecks(BaseChecks):

    path = '../shopkit/missing.py'

    def test_extra(self):
        self.assertIn('missing', self.path)


class NotATest:

    def test_ignored(self):
        raise RuntimeError("never collected")


if __name__ == '__main__':
    unittest.main()
