import unittest


class Animal:
    kind = 'animal'
    count = 0

    def __init__(self, name, legs=4):
        self.name = name
        self.legs = legs
        Animal.count += 1

    def speak(self):
        return '...'

    def describe(self):
        return f"{self.name} the {self.kind} says {self.speak()}"

    def __repr__(self):
        return f"Animal({self.name!r})"

    def __eq__(self, other):
        return isinstance(other, Animal) and self.name == other.name

    def __hash__(self):
        return hash(self.name)


class Dog(Animal):
    kind = 'dog'

    def speak(self):
        return 'woof'


class Puppy(Dog):
    def __init__(self, name):
        super().__init__(name)
        self.young = True

    def speak(self):
        return super().speak().upper()


class Bird(Animal):
    kind = 'bird'

    def __init__(self, name):
        super().__init__(name, legs=2)


class Counter:
    def __init__(self):
        self.items = {}

    def add(self, key, n=1):
        self.items[key] = self.items.get(key, 0) + n
        return self

    def __len__(self):
        return len(self.items)

    def __contains__(self, key):
        return key in self.items

    def __getitem__(self, key):
        return self.items[key]

    def __iter__(self):
        return iter(sorted(self.items))

    def __str__(self):
        return ', '.join(f"{k}={v}" for k, v in sorted(self.items.items()))

    def __bool__(self):
        return bool(self.items)

    @property
    def total(self):
        return sum(self.items.values())

    @staticmethod
    def merge(a, b):
        c = Counter()
        for src in (a, b):
            for k in src:
                c.add(k, src[k])
        return c

    @classmethod
    def of(cls, *keys):
        c = cls()
        for k in keys:
            c.add(k)
        return c


class TestClasses(unittest.TestCase):

    def test_inheritance(self):
        d = Dog('rex')
        self.assertEqual(d.describe(), 'rex the dog says woof')
        self.assertTrue(isinstance(d, Animal))
        self.assertTrue(issubclass(Dog, Animal))
        self.assertFalse(issubclass(Animal, Dog))

    def test_super_chain(self):
        p = Puppy('bit')
        self.assertEqual(p.speak(), 'WOOF')
        self.assertTrue(p.young)
        self.assertEqual(p.legs, 4)
        self.assertEqual(Bird('tweety').legs, 2)

    def test_super_chain_wrong(self):
        self.assertEqual(Puppy('bit').describe(), 'bit the puppy says WOOF')

    def test_class_attribute_counter(self):
        before = Animal.count
        Dog('a')
        Bird('b')
        self.assertEqual(Animal.count - before, 2)

    def test_repr_and_eq(self):
        self.assertEqual(repr(Dog('rex')), "Animal('rex')")
        self.assertEqual(Dog('rex'), Dog('rex'))
        self.assertNotEqual(Dog('rex'), Bird('rex'.upper()))
        self.assertIn(Dog('a'), [Bird('a')])

    def test_repr_in_message(self):
        self.assertEqual(Dog('rex'), Dog('max'))

    def test_dunder_methods(self):
        c = Counter().add('a').add('b', 3).add('a')
        self.assertEqual(len(c), 2)
        self.assertIn('b', c)
        self.assertNotIn('z', c)
        self.assertEqual(c['a'], 2)
        self.assertEqual(list(c), ['a', 'b'])
        self.assertEqual(str(c), 'a=2, b=3')
        self.assertTrue(c)
        self.assertFalse(Counter())

    def test_property_static_class_methods(self):
        a = Counter.of('x', 'y', 'x')
        b = Counter.of('y')
        m = Counter.merge(a, b)
        self.assertEqual(m.total, 4)
        self.assertEqual(m['y'], 2)
        self.assertIsInstance(a, Counter)

    def test_missing_key(self):
        c = Counter.of('x')
        self.assertEqual(c['y'], 0)

    def test_missing_attribute(self):
        d = Dog('rex')
        self.assertEqual(d.color, 'brown')

    def test_setattr_getattr_hasattr(self):
        d = Dog('rex')
        setattr(d, 'color', 'brown')
        self.assertEqual(getattr(d, 'color'), 'brown')
        self.assertEqual(getattr(d, 'size', 'medium'), 'medium')
        self.assertTrue(hasattr(d, 'speak'))
        self.assertFalse(hasattr(d, 'fly'))
        self.assertEqual(d.__class__.__name__, 'Dog')
        self.assertEqual(type(d).__name__, 'Dog')
        self.assertIs(type(d), Dog)

    def test_instance_dict(self):
        b = Bird('tweety')
        self.assertEqual(sorted(b.__dict__), ['legs', 'name'])
        self.assertEqual(b.__dict__['name'], 'tweety')

    def test_not_implemented(self):
        class Fish(Animal):
            def speak(self):
                raise NotImplementedError("fish do not speak")
        Fish('nemo').describe()

    def test_local_class_and_closure(self):
        def make(prefix):
            class Named:
                def __init__(self, n):
                    self.n = prefix + n
            return Named
        Cls = make('x-')
        self.assertEqual(Cls('1').n, 'x-1')

    def test_hash_in_set_and_dict(self):
        s = {Dog('a'), Dog('a'), Bird('b')}
        self.assertEqual(len(s), 2)
        d = {Dog('k'): 1}
        self.assertEqual(d[Dog('k')], 1)

    def test_call_unbound_method(self):
        self.assertEqual(Animal.speak(Dog('x')), '...')
        self.assertEqual(Dog.speak(Dog('x')), 'woof')

    def test_wrong_arg_count(self):
        Dog()

    def test_exception_subclass(self):
        class AppError(ValueError):
            pass
        try:
            raise AppError("bad value")
        except ValueError as exc:
            self.assertEqual(str(exc), 'bad value')
            self.assertIsInstance(exc, AppError)
            self.assertEqual(exc.args, ('bad value',))
        with self.assertRaises(AppError):
            raise AppError()

    def test_custom_exception_escapes(self):
        class AppError(Exception):
            pass
        raise AppError("custom failure", 42)


if __name__ == '__main__':
    unittest.main()
