import ast
import unittest as ut
from unittest import TestCase


def test_module_level_function():
    raise RuntimeError("module-level functions are not collected")


class Helpers:
    def _parse(self, path):
        with open(path, 'r') as f:
            return ast.parse(f.read())


class TestOrdering(Helpers, TestCase):

    def test_10(self):
        self.assertTrue(True)

    def test_2(self):
        self.fail("test_2")

    def test_A(self):
        self.assertEqual(self._parse('../shopkit/frozen.py').body[1].targets[0].id, 'FROZEN')

    def test_a(self):
        pass

    def test__(self):
        self._parse('../shopkit/nothing.py')

    def testNoUnderscore(self):
        self.assertEqual(1, 1)

    def helper_not_collected(self):
        raise RuntimeError("not a test")

    test_attribute_not_callable = 5


class TestLongMessage(ut.TestCase):
    longMessage = False

    def test_only_custom_message(self):
        self.assertEqual(1, 2, "custom only")

    def test_no_custom_message(self):
        self.assertEqual(1, 2)

    def test_keyword_msg(self):
        self.assertTrue(False, msg="keyword message")


class TestRecursion(ut.TestCase):

    def test_recursion_error(self):
        def forever(n):
            return forever(n + 1)
        forever(0)

    def test_deep_but_fine(self):
        def depth(n):
            return 0 if n == 0 else 1 + depth(n - 1)
        self.assertEqual(depth(200), 200)


class TestRunTest(ut.TestCase):

    def runTest(self):
        self.fail("runTest is not collected when test methods exist")

    def test_present(self):
        pass


if __name__ == '__main__':
    ut.main()
