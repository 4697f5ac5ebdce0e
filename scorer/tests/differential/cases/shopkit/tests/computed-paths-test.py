import ast
import hashlib
import os
import unittest

# Every path below is built at run time: no string constant of this file names the files the
# tests read, so only an instrumented run can tell which ones they are.
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, '..'))
PKG = 'shop' + 'kit'


def module_path(*parts):
    return os.path.join('..', PKG, *parts)


class TestComputedPaths(unittest.TestCase):

    def test_modules_from_a_loop(self):
        for stem in ['pri' + 'cing', 'ca' + 'rt']:
            with self.subTest(module=stem):
                with open(module_path(stem + '.py')) as f:
                    tree = ast.parse(f.read())
                self.assertTrue(any(isinstance(n, ast.FunctionDef) for n in tree.body))

    def test_listed_then_read(self):
        folder = module_path('utils')
        names = sorted(n for n in os.listdir(folder) if n.endswith('.py'))
        sizes = {}
        for n in names:
            with open(os.path.join(folder, n), 'rb') as f:
                sizes[n] = len(f.read())
        self.assertEqual(sorted(sizes), ['__init__.py', 'money.py', 'text.py'])

    def test_walk_and_getsize(self):
        total = 0
        for dirpath, dirnames, filenames in os.walk(module_path('api')):
            for n in filenames:
                total += os.path.getsize(os.path.join(dirpath, n))
        self.assertGreater(total, 0)

    def test_absolute_paths(self):
        path = os.path.join(ROOT, 'docs', 'guide' + '.md')
        self.assertTrue(os.path.isfile(path))
        self.assertTrue(os.path.isdir(ROOT))
        self.assertFalse(os.path.exists(os.path.join(ROOT, 'docs', 'missing' + '.md')))
        with open(path, encoding='utf-8') as f:
            self.assertIn('handling errors', f.read().lower())

    def test_hash_of_a_computed_file(self):
        with open(os.path.join(ROOT, 'config', 'settings' + '.json'), 'rb') as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        self.assertEqual(len(digest), 64)

    def test_error_after_a_read(self):
        with open(module_path('legacy' + '.py')) as f:
            f.read()
        open(module_path('no_such_' + 'module.py'))

    def test_fails_on_content(self):
        with open(module_path('i18n' + '.py')) as f:
            self.assertIn('def nothing_like_this', f.read())

    def test_probes(self):
        self.assertFalse(os.path.exists(module_path('gone' + '.py')))
        self.assertTrue(os.path.isdir(module_path()))
        self.assertFalse(os.path.isdir(os.path.join('..', '..', 'outside')))


if __name__ == '__main__':
    unittest.main()
