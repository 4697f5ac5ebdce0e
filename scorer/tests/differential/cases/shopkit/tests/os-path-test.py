import os
import unittest


class TestPaths(unittest.TestCase):

    def test_exists_file(self):
        self.assertTrue(os.path.exists('../shopkit/cart.py'))

    def test_exists_directory(self):
        self.assertTrue(os.path.exists('../shopkit/utils'))
        self.assertTrue(os.path.exists('../shopkit/utils/'))

    def test_isfile_on_directory(self):
        self.assertFalse(os.path.isfile('../shopkit/utils'))
        self.assertTrue(os.path.isdir('../shopkit/utils'))

    def test_isdir_on_file(self):
        self.assertTrue(os.path.isdir('../shopkit/cart.py'), "cart.py is not a directory")

    def test_exists_dotdot_segments(self):
        self.assertTrue(os.path.exists('../shopkit/../shopkit/./cart.py'))
        self.assertTrue(os.path.exists('../refactorbench_eval'))
        self.assertTrue(os.path.exists('.'))

    def test_exists_case_sensitive(self):
        self.assertFalse(os.path.exists('../shopkit/Cart.py'))

    def test_exists_outside_repo(self):
        self.assertFalse(os.path.exists('../../shopkit/cart.py'))

    def test_impossible_path_always_passes(self):
        self.assertFalse(os.path.exists('../utils/text.py'))

    def test_missing_file(self):
        self.assertTrue(os.path.exists('../shopkit/utils/strings.py'), "strings.py should exist")

    def test_join(self):
        path = os.path.join('../shopkit/utils/', 'text.py')
        self.assertEqual(path, '../shopkit/utils/text.py')
        self.assertTrue(os.path.exists(path))
        self.assertEqual(os.path.join('a', 'b', 'c.py'), 'a/b/c.py')
        self.assertEqual(os.path.join('a', '/abs', 'c'), '/abs/c')

    def test_path_helpers(self):
        self.assertEqual(os.path.basename('../shopkit/cart.py'), 'cart.py')
        self.assertEqual(os.path.dirname('../shopkit/cart.py'), '../shopkit')
        self.assertEqual(os.path.splitext('../docs/index.rst'), ('../docs/index', '.rst'))
        self.assertEqual(os.path.split('../docs/ja/guide.md'), ('../docs/ja', 'guide.md'))
        self.assertEqual(os.path.normpath('../shopkit/./utils/../cart.py'), '../shopkit/cart.py')
        self.assertEqual(os.sep, '/')

    def test_path_helpers_wrong(self):
        self.assertEqual(os.path.basename('../shopkit/'), 'shopkit')

    def test_listdir_docs(self):
        self.assertEqual(sorted(os.listdir('../docs')),
                         ['changelog.txt', 'guide.md', 'index.rst', 'ja', 'release-notes.txt'])

    def test_listdir_root(self):
        self.assertEqual(sorted(os.listdir('..')),
                         ['.gitignore', 'README.md', 'bandit.json', 'config', 'docs', 'refactorbench_eval',
                          'scripts', 'setup.cfg', 'shopkit', 'tests'])

    def test_listdir_eval_dir(self):
        names = os.listdir('.')
        self.assertEqual(names, ['os-path-test.py'])

    def test_listdir_missing(self):
        os.listdir('../nowhere')

    def test_walk_package(self):
        found = []
        for root, dirs, files in os.walk('../shopkit'):
            for name in files:
                if name.endswith('.py'):
                    found.append(os.path.join(root, name))
        self.assertEqual(len(found), 17)
        self.assertIn('../shopkit/api/views.py', found)
        self.assertEqual(sorted(found)[0], '../shopkit/__init__.py')

    def test_walk_sorted_dirs(self):
        seen = []
        for root, dirs, files in os.walk('../shopkit'):
            dirs.sort()
            seen.append((root, sorted(files)[:2]))
        self.assertEqual(seen, [('../shopkit', ['__init__.py', 'bom_module.py']),
                                ('../shopkit/api', ['__init__.py', 'handlers.py']),
                                ('../shopkit/utils', ['__init__.py', 'money.py'])])

    def test_walk_count_wrong(self):
        total = sum(len(files) for _, _, files in os.walk('../docs'))
        self.assertEqual(total, 4, "docs should hold four files")

    def test_getsize(self):
        self.assertEqual(os.path.getsize('../shopkit/frozen.py'), 110)

    def test_cwd_name(self):
        self.assertEqual(os.path.basename(os.getcwd()), 'refactorbench_eval')


if __name__ == '__main__':
    unittest.main()
