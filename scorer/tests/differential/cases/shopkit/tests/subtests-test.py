import ast
import os
import unittest


class TestSubTests(unittest.TestCase):

    MODULES = ['cart', 'pricing', 'legacy', 'i18n']

    def test_all_modules_exist(self):
        for name in self.MODULES:
            with self.subTest(module=name):
                self.assertTrue(os.path.exists(f'../shopkit/{name}.py'))

    def test_modules_have_functions(self):
        for name in self.MODULES + ['checkout', 'broken']:
            with self.subTest(module=name):
                with open(f'../shopkit/{name}.py', 'r') as f:
                    tree = ast.parse(f.read())
                self.assertTrue(any(isinstance(n, ast.FunctionDef) for n in ast.walk(tree)))

    def test_modules_define_compute_total(self):
        for name in self.MODULES:
            with self.subTest(module=name):
                with open(f'../shopkit/{name}.py', 'r') as f:
                    tree = ast.parse(f.read())
                names = [n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
                self.assertIn('compute_total', names, f"{name}.py lacks compute_total")

    def test_failure_then_error(self):
        for name in ['cart', 'nowhere']:
            with self.subTest(name=name):
                self.assertTrue(os.path.exists(f'../shopkit/{name}.py'), f"{name} missing")
                with open(f'../shopkit/{name}_v2.py', 'r') as f:
                    f.read()

    def test_subtest_fail_then_method_fails(self):
        with self.subTest(step=1):
            self.assertEqual(1, 2)
        self.assertEqual('a', 'b')

    def test_subtest_error_then_method_fails(self):
        with self.subTest(step=1):
            {}['missing']
        self.fail("method failed too")

    def test_subtest_fail_then_method_errors(self):
        with self.subTest(step=1):
            self.assertEqual(1, 2)
        [][0]

    def test_subtest_with_message(self):
        for i in range(3):
            with self.subTest("checking value", i=i):
                self.assertLess(i, 1)

    def test_subtest_all_pass_then_method_fails(self):
        for i in range(3):
            with self.subTest(i=i):
                self.assertGreaterEqual(i, 0)
        self.assertTrue(False, "after subtests")

    def test_nested_subtests(self):
        for a in ['x', 'y']:
            with self.subTest(a=a):
                for b in [1, 2]:
                    with self.subTest(b=b):
                        self.assertNotEqual((a, b), ('y', 2))

    def test_subtest_no_params(self):
        with self.subTest():
            self.assertIsNone(None)
        with self.subTest():
            self.assertIsNotNone(None, "second subtest")

    def test_docs_files(self):
        for doc in ['index.rst', 'guide.md', 'changelog.txt', 'missing.rst']:
            with self.subTest(doc=doc):
                with open('../docs/' + doc, 'r') as f:
                    content = f.read()
                self.assertIn('compute_total', content)


if __name__ == '__main__':
    unittest.main()
