import ast
import unittest


class TestDeprecatedAliases(unittest.TestCase):

    def setUp(self):
        with open('../shopkit/legacy.py', 'r') as f:
            self.tree = ast.parse(f.read())
        self.assigns = {}
        for node in self.tree.body:
            if isinstance(node, ast.Assign):
                self.assigns[node.targets[0].id] = node.value

    def test_str_matches_string_constant(self):
        self.assertIsInstance(self.assigns['GREETING'], ast.Str)
        self.assertTrue(isinstance(self.assigns['GREETING'], ast.Str))

    def test_implicit_concatenation_is_one_constant(self):
        node = self.assigns['GREETING']
        self.assertEqual(node.value, 'hello world')
        self.assertEqual(node.kind, 'u')
        self.assertEqual(node.s, 'hello world')

    def test_fstring_is_not_str(self):
        node = self.assigns['TEMPLATE']
        self.assertIsInstance(node, ast.JoinedStr)
        self.assertFalse(isinstance(node, ast.Str))
        self.assertFalse(isinstance(node, ast.Constant))

    def test_fstring_is_str(self):
        self.assertTrue(isinstance(self.assigns['TEMPLATE'], ast.Str), "f-string should count as Str")

    def test_fstring_parts(self):
        node = self.assigns['TEMPLATE']
        self.assertEqual(len(node.values), 2)
        self.assertIsInstance(node.values[0], ast.FormattedValue)
        self.assertEqual(node.values[0].value.id, 'GREETING')
        self.assertEqual(node.values[0].conversion, -1)
        self.assertEqual(node.values[1].value, '!')

    def test_bytes_is_not_str(self):
        node = self.assigns['RAW']
        self.assertFalse(isinstance(node, ast.Str))
        self.assertTrue(isinstance(node, ast.Bytes))
        self.assertEqual(node.s, b'raw-bytes')

    def test_num_excludes_bool(self):
        self.assertTrue(isinstance(self.assigns['ANSWER'], ast.Num))
        self.assertTrue(isinstance(self.assigns['RATIO'], ast.Num))
        self.assertFalse(isinstance(self.assigns['ENABLED'], ast.Num))

    def test_num_n_alias(self):
        self.assertEqual(self.assigns['ANSWER'].n, 42)
        self.assertEqual(self.assigns['RATIO'].n, 0.5)

    def test_s_on_int_constant_returns_int(self):
        self.assertEqual(self.assigns['ANSWER'].s, 42)
        self.assertIs(type(self.assigns['ANSWER'].s), int)

    def test_name_constant_matches_true_and_none(self):
        self.assertIsInstance(self.assigns['ENABLED'], ast.NameConstant)
        self.assertIsInstance(self.assigns['MISSING'], ast.NameConstant)
        self.assertFalse(isinstance(self.assigns['ANSWER'], ast.NameConstant))

    def test_name_constant_matches_int(self):
        self.assertIsInstance(self.assigns['ANSWER'], ast.NameConstant)

    def test_negative_number_is_unary_op(self):
        node = self.assigns['NEGATIVE']
        self.assertIsInstance(node, ast.UnaryOp)
        self.assertIsInstance(node.op, ast.USub)
        self.assertEqual(node.operand.value, 1)

    def test_negative_number_s(self):
        self.assertEqual(self.assigns['NEGATIVE'].s, -1)

    def test_s_on_every_constant(self):
        values = [node.s for node in ast.walk(self.tree) if isinstance(node, ast.Constant)]
        self.assertIn(None, values)
        self.assertIn(True, values)
        self.assertIn(b'raw-bytes', values)

    def test_str_constants_by_alias(self):
        strings = [node.s for node in ast.walk(self.tree) if isinstance(node, ast.Str)]
        self.assertEqual(strings[:4], ['Legacy helpers kept for backwards compatibility.', 'hello world', '!', 'a'])

    def test_str_constants_by_alias_wrong(self):
        strings = [node.s for node in ast.walk(self.tree) if isinstance(node, ast.Str)]
        self.assertNotIn('key', strings)

    def test_list_and_tuple_and_dict(self):
        self.assertIsInstance(self.assigns['LABELS'], ast.List)
        self.assertEqual([e.s for e in self.assigns['LABELS'].elts], ['a', 'b', 'c'])
        self.assertIsInstance(self.assigns['PAIR'], ast.Tuple)
        self.assertEqual(self.assigns['PAIR'].elts[1].n, 2)
        self.assertEqual([k.value for k in self.assigns['MAPPING'].keys], ['key', 'n'])

    def test_dict_values_are_strings(self):
        for value in self.assigns['MAPPING'].values:
            self.assertIsInstance(value, ast.Str, ast.dump(value))

    def test_import_from_aliases(self):
        node = next(n for n in self.tree.body if isinstance(n, ast.ImportFrom))
        self.assertEqual(node.module, 'os.path')
        self.assertEqual(node.level, 0)
        self.assertEqual([(a.name, a.asname) for a in node.names], [('join', 'path_join'), ('exists', None)])

    def test_import_as(self):
        imports = [n for n in self.tree.body if isinstance(n, ast.Import)]
        self.assertEqual([a.asname for n in imports for a in n.names], [None, 'system'])

    def test_docstring(self):
        self.assertEqual(ast.get_docstring(self.tree), 'Legacy helpers kept for backwards compatibility.')

    def test_s_on_name_raises(self):
        func = next(n for n in ast.walk(self.tree) if isinstance(n, ast.FunctionDef))
        stmt = func.body[0]
        self.assertEqual(stmt.test.comparators[0].s, 'label')

    def test_dump_constant(self):
        self.assertEqual(ast.dump(self.assigns['PAIR']),
                         "Tuple(elts=[Constant(value='x'), Constant(value=2)], ctx=Load())")

    def test_dump_in_message(self):
        node = self.assigns['MAPPING']
        self.assertTrue(len(node.keys) > 2, ast.dump(node))


if __name__ == '__main__':
    unittest.main()
