import ast
import unittest


class TestEncodings(unittest.TestCase):

    def test_i18n_parses(self):
        with open('../shopkit/i18n.py', 'r') as f:
            tree = ast.parse(f.read())
        names = [n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
        self.assertEqual(names, ['grüße'])

    def test_i18n_values(self):
        with open('../shopkit/i18n.py', 'r') as f:
            tree = ast.parse(f.read())
        values = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)]
        self.assertIn('こんにちは', values)
        self.assertIn('👋', values)
        self.assertEqual(len('👋'), 1)

    def test_i18n_wrong_greeting(self):
        with open('../shopkit/i18n.py', 'r') as f:
            tree = ast.parse(f.read())
        values = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)]
        self.assertEqual(values[:3], ['de', 'ja', 'ru'])

    def test_fullwidth_identifier_is_normalised(self):
        with open('../shopkit/i18n.py', 'r') as f:
            tree = ast.parse(f.read())
        targets = [n.targets[0].id for n in tree.body if isinstance(n, ast.Assign)]
        self.assertEqual(targets, ['GREETINGS', 'fullwidth'])

    def test_col_offset_counts_bytes(self):
        with open('../shopkit/i18n.py', 'r') as f:
            tree = ast.parse(f.read())
        func = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef))
        call = func.body[0].value
        self.assertEqual(call.lineno, 11)
        self.assertEqual(call.col_offset, 11)
        self.assertEqual(call.values[0].value.slice.col_offset, 25)

    def test_i18n_text_length(self):
        with open('../shopkit/i18n.py', 'r') as f:
            text = f.read()
        with open('../shopkit/i18n.py', 'rb') as f:
            data = f.read()
        self.assertEqual(len(text), len(data))

    def test_crlf_module_parses(self):
        with open('../shopkit/crlf_module.py', 'r') as f:
            source = f.read()
        tree = ast.parse(source)
        funcs = [(n.name, n.lineno) for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
        self.assertEqual(funcs, [('read_lines', 4), ('line_count', 13)])
        self.assertNotIn('\r', source)

    def test_crlf_docstring(self):
        with open('../shopkit/crlf_module.py', 'r') as f:
            tree = ast.parse(f.read())
        func = tree.body[1]
        self.assertEqual(ast.get_docstring(func, clean=False), 'Read lines.\n\n    Windows line endings in this file.\n    ')

    def test_crlf_docstring_has_crlf(self):
        with open('../shopkit/crlf_module.py', 'r') as f:
            tree = ast.parse(f.read())
        self.assertIn('\r\n', tree.body[1].body[0].value.value)

    def test_crlf_bytes_parse(self):
        with open('../shopkit/crlf_module.py', 'rb') as f:
            tree = ast.parse(f.read())
        self.assertEqual(tree.body[1].body[0].value.value.count('\n'), 3)

    def test_lone_cr_makes_code(self):
        with open('../shopkit/lone_cr.py', 'r') as f:
            tree = ast.parse(f.read())
        names = [n.targets[0].id for n in tree.body if isinstance(n, ast.Assign)]
        self.assertEqual(names, ['alpha', 'beta', 'gamma'])

    def test_lone_cr_line_numbers(self):
        with open('../shopkit/lone_cr.py', 'r') as f:
            tree = ast.parse(f.read())
        lines = [n.lineno for n in tree.body]
        self.assertEqual(lines, [1, 3, 4, 5, 8])

    def test_lone_cr_readlines(self):
        with open('../shopkit/lone_cr.py', 'r') as f:
            lines = f.readlines()
        self.assertEqual(len(lines), 10)
        self.assertEqual(lines[2], 'alpha = 1  # the comment ends here\n')
        self.assertEqual(lines[3], 'beta = 2\n')

    def test_lone_cr_line_separator_kept(self):
        with open('../shopkit/lone_cr.py', 'r') as f:
            lines = f.readlines()
        self.assertIn('\u2028', lines[4])
        self.assertEqual(len(lines[4].splitlines()), 2)

    def test_lone_cr_substring(self):
        with open('../shopkit/lone_cr.py', 'r') as f:
            content = f.read()
        self.assertIn('here\nbeta', content)
        self.assertNotIn('here\rbeta', content)

    def test_lone_cr_bytes(self):
        with open('../shopkit/lone_cr.py', 'rb') as f:
            data = f.read()
        self.assertIn(b'here\rbeta', data)
        self.assertEqual(data.count(b'\n'), 9)

    def test_bom_survives_text_read(self):
        with open('../shopkit/bom_module.py', 'r') as f:
            content = f.read()
        self.assertEqual(content[0], '\ufeff')
        self.assertTrue(content.startswith('\ufeffdef'))

    def test_bom_breaks_parse(self):
        with open('../shopkit/bom_module.py', 'r') as f:
            tree = ast.parse(f.read())
        self.assertTrue(any(isinstance(n, ast.FunctionDef) for n in ast.walk(tree)))

    def test_bom_bytes_parse(self):
        with open('../shopkit/bom_module.py', 'rb') as f:
            tree = ast.parse(f.read())
        self.assertEqual(tree.body[0].name, 'with_bom')

    def test_bom_strip_then_parse(self):
        with open('../shopkit/bom_module.py', 'r') as f:
            tree = ast.parse(f.read().lstrip('\ufeff'))
        self.assertEqual(tree.body[0].name, 'with_bom')

    def test_latin1_text_read(self):
        with open('../shopkit/latin1_module.py', 'r') as f:
            tree = ast.parse(f.read())
        self.assertIsNotNone(tree)

    def test_latin1_bytes_parse_uses_cookie(self):
        with open('../shopkit/latin1_module.py', 'rb') as f:
            tree = ast.parse(f.read())
        self.assertEqual(tree.body[0].value.value, 'café')

    def test_latin1_explicit_encoding(self):
        with open('../shopkit/latin1_module.py', 'r', encoding='latin-1') as f:
            content = f.read()
        self.assertIn('café', content)

    def test_latin1_catch_decode_error(self):
        try:
            with open('../shopkit/latin1_module.py', 'r') as f:
                f.read()
        except UnicodeDecodeError as exc:
            self.assertEqual(exc.start, 33)
            self.fail(str(exc))

    def test_strip_separators(self):
        with open('../scripts/strip_me.txt', 'r') as f:
            lines = f.read().split('\n')
        self.assertEqual(lines[0].strip(), 'separators:')
        self.assertEqual(lines[1].strip(), 'padded value')
        self.assertEqual(lines[2].strip(), 'vertical')
        self.assertEqual(lines[3].strip(), 'next-line')

    def test_strip_me_readlines(self):
        with open('../scripts/strip_me.txt', 'r') as f:
            lines = f.readlines()
        self.assertEqual(len(lines), 4)

    def test_strip_me_splitlines(self):
        with open('../scripts/strip_me.txt', 'r') as f:
            lines = f.read().splitlines()
        self.assertEqual(len(lines), 4, repr(lines))

    def test_settings_non_ascii(self):
        with open('../config/settings.json', 'r') as f:
            content = f.read()
        self.assertIn('"name": "Café Ünïcode"', content)
        self.assertNotIn('Cafe', content)


if __name__ == '__main__':
    unittest.main()
