import ast
import json
import os
import unittest


class TestRawText(unittest.TestCase):

    def test_exact_import_line(self):
        with open('../shopkit/cart.py', 'r') as f:
            content = f.read()
        self.assertIn('from shopkit.pricing import compute_total\n', content)

    def test_exact_import_line_renamed(self):
        with open('../shopkit/cart.py', 'r') as f:
            content = f.read()
        self.assertIn('from shopkit.totals import compute_total', content, "import not updated")

    def test_comment_is_visible_in_text(self):
        with open('../shopkit/pricing.py', 'r') as f:
            content = f.read()
        self.assertIn('# a method with the same name', content)

    def test_comment_is_invisible_to_ast(self):
        with open('../shopkit/pricing.py', 'r') as f:
            tree = ast.parse(f.read())
        strings = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
        self.assertTrue(any('same name' in s for s in strings), "the comment is not in the AST")

    def test_bandit_json_text(self):
        with open('../bandit.json', 'r') as f:
            content = f.read()
        self.assertIn('shopkit/legacy.py', content)
        self.assertNotIn('shopkit/totals.py', content)

    def test_bandit_json_mentions_totals(self):
        with open('../bandit.json', 'r') as f:
            content = f.read()
        self.assertIn('shopkit/totals.py', content)

    def test_bandit_json_parsed(self):
        with open('../bandit.json', 'r') as f:
            data = json.load(f)
        files = [r['filename'] for r in data['results']]
        self.assertEqual(files, ['shopkit/legacy.py', 'shopkit/api/views.py'])

    def test_settings_json_loads(self):
        with open('../config/settings.json', 'r') as f:
            settings = json.loads(f.read())
        self.assertEqual(settings['currency'], 'EUR')
        self.assertEqual(settings['rates']['reduced'], 0.05)
        self.assertIs(settings['debug'], False)
        self.assertIsNone(settings['owner'])
        self.assertEqual(settings['features'][-1], 'i18n')
        self.assertEqual(settings['name'], 'Café Ünïcode')

    def test_settings_json_wrong(self):
        with open('../config/settings.json', 'r') as f:
            settings = json.loads(f.read())
        self.assertEqual(settings['rates'], {'default': 0.2, 'reduced': 0.1})

    def test_settings_missing_key(self):
        with open('../config/settings.json', 'r') as f:
            settings = json.loads(f.read())
        self.assertTrue(settings['timezone'])

    def test_release_notes_long_message(self):
        with open('../docs/release-notes.txt', 'r') as f:
            content = f.read()
        self.assertIn('item 99', content)

    def test_release_notes_not_in(self):
        with open('../docs/release-notes.txt', 'r') as f:
            content = f.read()
        self.assertNotIn('naïve fix number 59', content, "long message is truncated")

    def test_release_notes_lines(self):
        with open('../docs/release-notes.txt', 'r') as f:
            lines = f.readlines()
        self.assertEqual(len(lines), 62)
        self.assertEqual(lines[0], 'Release notes — été 2024\n')
        self.assertEqual(lines[-1].rstrip('\n')[-6:], 'module')

    def test_readme(self):
        with open('../README.md', 'r') as f:
            content = f.read()
        self.assertIn('Café-grade', content)
        self.assertIn('naïve', content)
        self.assertTrue(content.startswith('# shopkit\n'))

    def test_readme_mentions_totals(self):
        with open('../README.md', 'r') as f:
            content = f.read()
        self.assertIn('shopkit.totals', content, f"README has {len(content)} characters")

    def test_setup_cfg_version(self):
        with open('../setup.cfg', 'r') as f:
            content = f.read()
        version = None
        for line in content.splitlines():
            if line.startswith('version'):
                version = line.split('=')[1].strip()
        self.assertEqual(version, '1.4.2')

    def test_version_matches_init(self):
        with open('../shopkit/__init__.py', 'r') as f:
            tree = ast.parse(f.read())
        version = None
        for node in tree.body:
            if isinstance(node, ast.Assign) and node.targets[0].id == '__version__':
                version = node.value.value
        self.assertEqual(version, '1.5.0', "version was not bumped")

    def test_read_with_iteration(self):
        count = 0
        with open('../shopkit/utils/text.py') as f:
            for line in f:
                if line.startswith('def '):
                    count += 1
        self.assertEqual(count, 3)

    def test_read_text_then_find(self):
        with open('../shopkit/utils/money.py', encoding='utf-8') as f:
            content = f.read()
        index = content.find('def format_money')
        self.assertGreater(index, 0)
        self.assertEqual(content[index:index + 16], 'def format_money')
        self.assertEqual(content.index('€'), 58)

    def test_shell_script(self):
        with open('../scripts/release.sh', 'r') as f:
            first = f.readline()
        self.assertEqual(first, '#!/bin/sh\n')
        self.assertTrue(os.path.isfile('../scripts/release.sh'))

    def test_directory_open_fails(self):
        with open('../docs', 'r') as f:
            f.read()


if __name__ == '__main__':
    unittest.main()
