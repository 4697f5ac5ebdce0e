import unittest


def add(a, b=2, *rest, scale=1, **named):
    total = (a + b + sum(rest)) * scale
    for value in named.values():
        total += value
    return total


def make_counter(start=0):
    count = start

    def step(by=1):
        nonlocal count
        count += by
        return count
    return step


def make_adders():
    return [lambda x, i=i: x + i for i in range(3)]


def make_late_adders():
    return [lambda x: x + i for i in range(3)]


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def gen_squares(n):
    for i in range(n):
        yield i * i


def default_list(item, bucket=[]):
    bucket.append(item)
    return bucket


GLOBAL_VALUE = 10


def read_global():
    return GLOBAL_VALUE


def write_global(v):
    global GLOBAL_VALUE
    GLOBAL_VALUE = v


class TestFunctions(unittest.TestCase):

    def test_defaults_and_keywords(self):
        self.assertEqual(add(1), 3)
        self.assertEqual(add(1, 1), 2)
        self.assertEqual(add(a=5, b=5), 10)
        self.assertEqual(add(1, 2, 3, 4), 10)
        self.assertEqual(add(1, 2, 3, scale=2), 12)
        self.assertEqual(add(1, 2, x=10, y=20), 33)

    def test_star_call(self):
        args = [1, 2, 3]
        kwargs = {'scale': 3}
        self.assertEqual(add(*args, **kwargs), 18)
        self.assertEqual(add(*[1], **{'b': 0}), 1)

    def test_wrong_keyword(self):
        def f(a, *, b):
            return a + b
        self.assertEqual(f(1, b=2), 3)
        f(1, 2)

    def test_closure_nonlocal(self):
        c = make_counter(5)
        c()
        c(10)
        self.assertEqual(c(), 17)
        other = make_counter()
        self.assertEqual(other(), 1)

    def test_lambda_default_capture(self):
        self.assertEqual([f(10) for f in make_adders()], [10, 11, 12])

    def test_lambda_late_binding(self):
        self.assertEqual([f(10) for f in make_late_adders()], [10, 11, 12])

    def test_recursion(self):
        self.assertEqual(fib(15), 610)
        self.assertEqual([fib(i) for i in range(8)], [0, 1, 1, 2, 3, 5, 8, 13])

    def test_generator_function(self):
        g = gen_squares(4)
        self.assertEqual(next(g), 0)
        self.assertEqual(list(g), [1, 4, 9])
        self.assertEqual(list(g), [])
        self.assertEqual(sum(gen_squares(5)), 30)

    def test_generator_exhausted(self):
        g = gen_squares(1)
        next(g)
        next(g)

    def test_generator_laziness(self):
        log = []

        def noisy(x):
            log.append(x)
            return x > 1
        gen = (noisy(x) for x in [0, 1, 2, 3])
        self.assertEqual(log, [])
        self.assertTrue(any(gen))
        self.assertEqual(log, [0, 1, 2])
        self.assertTrue(next(gen))
        self.assertEqual(log, [0, 1, 2, 3])

    def test_all_short_circuits(self):
        seen = []
        result = all(seen.append(x) or x < 2 for x in range(10))
        self.assertFalse(result)
        self.assertEqual(seen, [0, 1, 2])

    def test_mutable_default(self):
        default_list(1)
        self.assertEqual(default_list(2), [1, 2])

    def test_globals(self):
        write_global(99)
        self.assertEqual(read_global(), 99)
        write_global(10)
        self.assertEqual(GLOBAL_VALUE, 10)

    def test_unbound_local(self):
        def f():
            value = missing_later
            missing_later = 1
            return value
        f()

    def test_name_error(self):
        return undefined_name + 1

    def test_function_attributes(self):
        self.assertEqual(add.__name__, 'add')
        self.assertTrue(callable(add))
        self.assertFalse(callable(3))
        self.assertEqual(make_counter.__name__, 'make_counter')

    def test_sorted_with_lambda_key(self):
        words = ['pear', 'Fig', 'apple', 'kiwi']
        self.assertEqual(sorted(words, key=lambda w: (len(w), w.lower())), ['Fig', 'kiwi', 'pear', 'apple'])
        self.assertEqual(sorted(words, key=str.lower, reverse=True), ['pear', 'kiwi', 'Fig', 'apple'])

    def test_map_filter_lambda(self):
        self.assertEqual(list(map(lambda x: x * 2, filter(lambda x: x % 2, range(7)))), [2, 6, 10])
        self.assertEqual(list(filter(None, [0, 1, '', 'a', None, [], [0]])), [1, 'a', [0]])

    def test_too_many_positional(self):
        def g(a, b=1):
            return a
        g(1, 2, 3)

    def test_missing_positional(self):
        def h(a, b):
            return a
        h(1)

    def test_keyword_only_default_order(self):
        def k(a, *, b=2, c):
            return (a, b, c)
        self.assertEqual(k(1, c=3), (1, 2, 3))
        self.assertEqual(k(1, c=3, b=0), (1, 0, 3))

    def test_return_none_implicit(self):
        def nothing():
            pass
        self.assertIsNone(nothing())
        self.assertEqual(nothing(), 0)


if __name__ == '__main__':
    unittest.main()
