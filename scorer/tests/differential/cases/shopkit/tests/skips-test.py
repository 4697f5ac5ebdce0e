import os
import unittest

HAS_CHECKOUT = os.path.exists('../shopkit/checkout.py')


class TestSkips(unittest.TestCase):

    @unittest.skip("not ready")
    def test_decorated_skip(self):
        self.fail("never runs")

    @unittest.skipIf(not HAS_CHECKOUT, "checkout.py not present")
    def test_skip_if(self):
        self.fail("never runs either")

    @unittest.skipUnless(HAS_CHECKOUT, "needs checkout")
    def test_skip_unless(self):
        self.fail("skipped")

    @unittest.skipIf(HAS_CHECKOUT, "checkout present")
    def test_skip_if_false(self):
        self.assertFalse(HAS_CHECKOUT)

    def test_skip_test_call(self):
        if not os.path.exists('../shopkit/checkout.py'):
            self.skipTest("no checkout module")
        self.fail("unreachable")

    def test_raise_skip(self):
        raise unittest.SkipTest("raised skip")

    def test_skip_after_subtest_failure(self):
        with self.subTest(i=1):
            self.assertTrue(False)
        self.skipTest("then skipped")


@unittest.skip("whole class skipped")
class TestSkippedClass(unittest.TestCase):

    def test_one(self):
        self.fail("no")

    def test_two(self):
        pass


class TestSkipInSetUp(unittest.TestCase):

    def setUp(self):
        self.skipTest("skipped in setUp")

    def test_a(self):
        pass


if __name__ == '__main__':
    unittest.main()
