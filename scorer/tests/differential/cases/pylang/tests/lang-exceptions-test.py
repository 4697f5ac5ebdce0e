import unittest

print("module-level print: must not change any verdict")


class ShoutError(Exception):
    def __str__(self):
        return "SHOUT: " + " ".join(str(a) for a in self.args)


class QuietError(Exception):
    pass


def explode(kind):
    if kind == 'empty':
        raise ValueError()
    if kind == 'multi':
        raise RuntimeError("first line\nsecond line")
    if kind == 'args':
        raise ValueError(1, 'two')
    if kind == 'shout':
        raise ShoutError('a', 1)
    if kind == 'long':
        raise RuntimeError('x' * 1500)
    if kind == 'class':
        raise QuietError
    if kind == 'nested':
        explode('empty')
    return kind


class TestExceptionMessages(unittest.TestCase):

    def test_empty_message(self):
        explode('empty')

    def test_multiline_message(self):
        explode('multi')

    def test_tuple_args_message(self):
        explode('args')

    def test_custom_str(self):
        explode('shout')

    def test_long_message_is_cut(self):
        explode('long')

    def test_raise_class_not_instance(self):
        explode('class')

    def test_nested_helper_line(self):
        explode('nested')

    def test_caught_and_inspected(self):
        try:
            explode('args')
        except ValueError as exc:
            self.assertEqual(exc.args, (1, 'two'))
            self.assertEqual(str(exc), "(1, 'two')")
            self.assertEqual(repr(exc), "ValueError(1, 'two')")
        try:
            explode('shout')
        except Exception as exc:
            self.assertEqual(str(exc), 'SHOUT: a 1')
            self.assertEqual(type(exc).__name__, 'ShoutError')
        self.assertEqual(explode('ok'), 'ok')

    def test_key_error_repr_message(self):
        raise KeyError('it\'s "quoted"')

    def test_key_error_non_string(self):
        raise KeyError(42)

    def test_key_error_no_args(self):
        raise KeyError

    def test_assertion_error_non_string(self):
        raise AssertionError(['a', 1])

    def test_assertion_error_empty(self):
        raise AssertionError

    def test_assert_true_non_string_msg(self):
        self.assertTrue(False, ['a', 1])

    def test_assert_equal_msg_none(self):
        self.assertEqual(1, 2, msg=None)

    def test_fail_with_format(self):
        self.fail("%s items, %d%%" % ('3', 50))

    def test_attribute_error_on_module(self):
        return unittest.no_such_thing

    def test_attribute_error_on_class(self):
        return QuietError.nope

    def test_attribute_error_on_none(self):
        value = None
        return value.name

    def test_os_error_message(self):
        open('../data/nope/deeper.txt')

    def test_is_a_directory(self):
        open('../data')

    def test_exception_in_list_comprehension(self):
        return [1 / x for x in [1, 0]]

    def test_exception_in_lambda(self):
        f = lambda x: x['key']
        return f({})

    def test_exception_in_generator_consumed_by_builtin(self):
        return sum(int(x) for x in ['1', 'two'])

    def test_exception_chaining_message(self):
        try:
            {}['a']
        except KeyError:
            raise ValueError('during handling')

    def test_reraise_in_finally(self):
        try:
            explode('empty')
        finally:
            pass

    def test_system_exit_is_error(self):
        raise SystemExit(3)


if __name__ == '__main__':
    unittest.main()
