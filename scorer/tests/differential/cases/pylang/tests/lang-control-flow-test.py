import unittest


def classify(n):
    if n < 0:
        return 'negative'
    elif n == 0:
        return 'zero'
    elif n < 10:
        return 'small'
    else:
        return 'large'


def find_first(items, target):
    for i, item in enumerate(items):
        if item == target:
            break
    else:
        return -1
    return i


def risky(kind):
    if kind == 'value':
        raise ValueError('bad value')
    if kind == 'key':
        raise KeyError('bad key')
    if kind == 'type':
        raise TypeError('bad type')
    return 'ok'


class TestControlFlow(unittest.TestCase):

    def test_if_elif_else(self):
        self.assertEqual([classify(n) for n in (-5, 0, 3, 50)], ['negative', 'zero', 'small', 'large'])

    def test_for_else(self):
        self.assertEqual(find_first([4, 5, 6], 5), 1)
        self.assertEqual(find_first([4, 5, 6], 9), -1)
        self.assertEqual(find_first([], 9), -1)

    def test_while_else_and_continue(self):
        n, odd = 0, []
        while n < 10:
            n += 1
            if n % 2 == 0:
                continue
            odd.append(n)
        else:
            odd.append('done')
        self.assertEqual(odd, [1, 3, 5, 7, 9, 'done'])

    def test_while_break_skips_else(self):
        n = 0
        while True:
            n += 1
            if n > 4:
                break
        else:
            n = -1
        self.assertEqual(n, 5)

    def test_nested_break(self):
        hits = []
        for i in range(3):
            for j in range(3):
                if j > i:
                    break
                hits.append((i, j))
        self.assertEqual(len(hits), 6)
        self.assertEqual(hits[-1], (2, 2))

    def test_try_except_else_finally(self):
        log = []
        for kind in ['ok', 'value', 'key']:
            try:
                result = risky(kind)
            except ValueError as exc:
                log.append(f'value:{exc}')
            except (KeyError, TypeError) as exc:
                log.append(f'other:{exc}')
            else:
                log.append(f'else:{result}')
            finally:
                log.append('finally')
        self.assertEqual(log, ['else:ok', 'finally', 'value:bad value', 'finally', "other:'bad key'", 'finally'])

    def test_finally_runs_on_return(self):
        log = []

        def f():
            try:
                return 'try'
            finally:
                log.append('cleanup')
        self.assertEqual(f(), 'try')
        self.assertEqual(log, ['cleanup'])

    def test_finally_overrides_return(self):
        def f():
            try:
                return 1
            finally:
                return 2
        self.assertEqual(f(), 1)

    def test_reraise(self):
        try:
            try:
                risky('value')
            except ValueError:
                raise
        except ValueError as exc:
            self.assertEqual(exc.args[0], 'bad value')
        risky('type')

    def test_raise_from_and_context(self):
        try:
            try:
                {}['x']
            except KeyError as exc:
                raise RuntimeError('wrapped') from exc
        except RuntimeError as err:
            self.assertIsInstance(err.__cause__, KeyError)
            self.assertIsInstance(err.__context__, KeyError)

    def test_exception_in_handler(self):
        try:
            risky('key')
        except KeyError:
            risky('value')

    def test_bare_except_catches(self):
        try:
            1 / 0
        except:
            caught = True
        self.assertTrue(caught)

    def test_exception_variable_cleared(self):
        try:
            raise ValueError('x')
        except ValueError as exc:
            pass
        exc

    def test_uncaught_specific(self):
        try:
            risky('key')
        except ValueError:
            self.fail('wrong handler')

    def test_assert_inside_helper(self):
        def check(x):
            assert x > 0, f"x must be positive, got {x}"
            return x
        self.assertEqual(check(1), 1)
        check(-3)

    def test_pass_and_ellipsis(self):
        if True:
            pass
        ...
        self.assertIs(..., Ellipsis)

    def test_for_over_dict_mutation(self):
        d = {'a': 1, 'b': 2}
        for k in d:
            d[k + k] = 0

    def test_range_variants(self):
        self.assertEqual(list(range(5)), [0, 1, 2, 3, 4])
        self.assertEqual(list(range(2, 10, 3)), [2, 5, 8])
        self.assertEqual(list(range(5, 0, -2)), [5, 3, 1])
        self.assertEqual(len(range(0, 100, 7)), 15)
        self.assertEqual(range(10)[-1], 9)
        self.assertIn(4, range(2, 6))

    def test_zero_step(self):
        range(1, 2, 0)

    def test_with_statement_custom(self):
        log = []

        class Ctx:
            def __enter__(self):
                log.append('enter')
                return 'value'

            def __exit__(self, exc_type, exc, tb):
                log.append(('exit', exc_type is None))
                return False
        with Ctx() as v:
            log.append(v)
        self.assertEqual(log, ['enter', 'value', ('exit', True)])
        with Ctx():
            raise KeyError('inside with')


if __name__ == '__main__':
    unittest.main()
