import ast
import unittest


class TestStructure(unittest.TestCase):

    def setUp(self):
        with open('../shopkit/api/views.py', 'r') as f:
            self.views = ast.parse(f.read())
        with open('../shopkit/cart.py', 'r') as f:
            self.cart = ast.parse(f.read())

    def _function(self, tree, name):
        return next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name), None)

    def test_varargs_and_kwargs(self):
        func = self._function(self.views, 'list_carts')
        self.assertEqual(func.args.vararg.arg, 'owners')
        self.assertEqual(func.args.kwarg.arg, 'filters')
        self.assertEqual(len(func.args.args), 1)

    def test_varargs_missing(self):
        func = self._function(self.views, 'get_cart')
        self.assertEqual(func.args.vararg.arg, 'owners')

    def test_lambda_in_post(self):
        func = self._function(self.views, 'post')
        lambdas = [n for n in ast.walk(func) if isinstance(n, ast.Lambda)]
        self.assertEqual(len(lambdas), 1)
        self.assertEqual(lambdas[0].args.args[0].arg, 'r')
        self.assertEqual(lambdas[0].body.attr, 'body')

    def test_getattr_call(self):
        calls = [n for n in ast.walk(self.views) if isinstance(n, ast.Call)
                 and isinstance(n.func, ast.Name) and n.func.id == 'getattr']
        self.assertEqual(len(calls), 2)
        self.assertEqual(len(calls[0].args), 2)

    def test_none_comparison(self):
        func = self._function(self.views, 'get_cart')
        node = next(n for n in ast.walk(func) if isinstance(n, ast.Compare))
        self.assertIsInstance(node.ops[0], ast.Is)
        self.assertIs(node.comparators[0].value, None)

    def test_is_not_comparison(self):
        func = self._function(self.views, 'list_carts')
        comps = [n for n in ast.walk(func) if isinstance(n, ast.Compare)]
        self.assertTrue(any(isinstance(c.ops[0], ast.IsNot) for c in comps))
        self.assertTrue(any(isinstance(c.ops[0], ast.Eq) for c in comps))

    def test_not_in_comparison(self):
        func = self._function(self.views, 'dispatch')
        comp = next(n for n in ast.walk(func) if isinstance(n, ast.Compare))
        self.assertIsInstance(comp.ops[0], ast.NotIn)
        self.assertEqual(comp.comparators[0].attr, 'methods')

    def test_attribute_chain(self):
        func = self._function(self.views, 'dispatch')
        call = next(n for n in ast.walk(func) if isinstance(n, ast.Call)
                    and isinstance(n.func, ast.Attribute) and n.func.attr == 'lower')
        self.assertEqual(call.func.value.attr, 'method')
        self.assertEqual(call.func.value.value.id, 'request')

    def test_attribute_chain_too_deep(self):
        func = self._function(self.views, 'dispatch')
        call = next(n for n in ast.walk(func) if isinstance(n, ast.Call)
                    and isinstance(n.func, ast.Attribute) and n.func.attr == 'lower')
        self.assertEqual(call.func.value.value.value.id, 'request')

    def test_call_args_index(self):
        func = self._function(self.views, 'cart_summary')
        call = next(n for n in ast.walk(func) if isinstance(n, ast.Call)
                    and isinstance(n.func, ast.Attribute) and n.func.attr == 'describe')
        self.assertEqual(call.args[0].id, 'cart')

    def test_next_without_default(self):
        node = next(n for n in ast.walk(self.views) if isinstance(n, ast.AsyncFunctionDef))
        self.assertIsNotNone(node)

    def test_next_with_default(self):
        node = next((n for n in ast.walk(self.views) if isinstance(n, ast.AsyncFunctionDef)), None)
        self.assertIsNotNone(node, "views should have an async function")

    def test_try_except_in_summary(self):
        func = self._function(self.views, 'cart_summary')
        node = func.body[0]
        self.assertIsInstance(node, ast.Try)
        self.assertEqual(node.handlers[0].type.id, 'NotFound')
        self.assertIsInstance(func.body[-1], ast.Return)
        self.assertIsInstance(func.body[-1].value, ast.Dict)

    def test_return_count(self):
        returns = [n for n in ast.walk(self.views) if isinstance(n, ast.Return)]
        self.assertEqual(len(returns), 7)

    def test_returns_have_values(self):
        for node in ast.walk(self.cart):
            if isinstance(node, ast.Return):
                self.assertIsNotNone(node.value, f"bare return at line {node.lineno}")

    def test_class_body_assign(self):
        cls = next(n for n in ast.walk(self.views) if isinstance(n, ast.ClassDef))
        self.assertIsInstance(cls.body[0], ast.Assign)
        self.assertEqual([e.value for e in cls.body[0].value.elts], ['GET', 'POST'])

    def test_line_numbers(self):
        funcs = [(n.name, n.lineno, n.end_lineno) for n in self.views.body if isinstance(n, ast.FunctionDef)]
        self.assertEqual(funcs, [('get_cart', 6, 10), ('cart_summary', 13, 18), ('list_carts', 21, 27)])

    def test_col_offsets(self):
        cls = next(n for n in ast.walk(self.views) if isinstance(n, ast.ClassDef))
        self.assertEqual([(f.col_offset, f.end_col_offset) for f in cls.body[1:]], [(4, 35), (4, 54), (4, 40)])

    def test_nested_function(self):
        func = self._function(self.cart, 'describe')
        inner = [n.name for n in ast.walk(func) if isinstance(n, ast.FunctionDef)]
        self.assertEqual(inner, ['describe', 'line'])

    def test_delete_statement(self):
        deletes = [n for n in ast.walk(self.cart) if isinstance(n, ast.Delete)]
        self.assertEqual(len(deletes), 1)
        target = deletes[0].targets[0]
        self.assertIsInstance(target, ast.Subscript)
        self.assertIsInstance(target.ctx, ast.Del)

    def test_starred_kwargs_call(self):
        calls = [n for n in ast.walk(self.cart) if isinstance(n, ast.Call) and n.keywords
                 and n.keywords[0].arg is None]
        self.assertEqual(len(calls), 1)
        self.assertEqual(calls[0].func.id, 'CartItem')
        self.assertEqual(calls[0].keywords[0].value.id, 'row')

    def test_raise_in_cart(self):
        raises = [n for n in ast.walk(self.cart) if isinstance(n, ast.Raise)]
        self.assertEqual([r.exc.func.id for r in raises], ['CartError', 'CartError'])
        self.assertIsInstance(raises[1].exc.args[0], ast.JoinedStr)
        self.assertEqual(raises[1].exc.args[0].values[1].conversion, ord('r'))

    def test_context_types(self):
        stores = [n.id for n in ast.walk(self.cart) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]
        self.assertEqual(stores[:4], ['logger', 'MAX_ITEMS', 'cart', 'sku'])

    def test_attribute_store(self):
        func = self._function(self.cart, '__init__')
        attrs = [t.attr for s in func.body for t in s.targets]
        self.assertEqual(attrs, ['owner', 'items', 'currency'])

    def test_bool_op(self):
        func = self._function(self.cart, '__init__')
        boolop = next(n for n in ast.walk(func) if isinstance(n, ast.BoolOp))
        self.assertIsInstance(boolop.op, ast.Or)
        self.assertEqual(len(boolop.values), 2)
        self.assertIsInstance(boolop.values[1], ast.List)


if __name__ == '__main__':
    unittest.main()
