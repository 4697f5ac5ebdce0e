import unittest


class TestStringMethods(unittest.TestCase):

    def test_case_methods(self):
        self.assertEqual('Hello World'.lower(), 'hello world')
        self.assertEqual('Hello World'.upper(), 'HELLO WORLD')
        self.assertEqual('hello world'.title(), 'Hello World')
        self.assertEqual('hello World'.capitalize(), 'Hello world')
        self.assertEqual('Hello'.swapcase(), 'hELLO')
        self.assertEqual('Straße'.upper(), 'STRASSE')
        self.assertEqual('Straße'.casefold(), 'strasse')

    def test_split_and_join(self):
        self.assertEqual('a,b,,c'.split(','), ['a', 'b', '', 'c'])
        self.assertEqual('  a  b \n c '.split(), ['a', 'b', 'c'])
        self.assertEqual('a b c'.split(' ', 1), ['a', 'b c'])
        self.assertEqual('a.b.c'.rsplit('.', 1), ['a.b', 'c'])
        self.assertEqual('x'.split(','), ['x'])
        self.assertEqual(''.split(','), [''])
        self.assertEqual(''.split(), [])
        self.assertEqual('-'.join(['a', 'b', 'c']), 'a-b-c')
        self.assertEqual(''.join(reversed('abc')), 'cba')
        self.assertEqual('a\nb\r\nc\rd'.splitlines(), ['a', 'b', 'c', 'd'])
        self.assertEqual('a\nb\n'.splitlines(True), ['a\n', 'b\n'])
        self.assertEqual('k=v=w'.partition('='), ('k', '=', 'v=w'))
        self.assertEqual('k=v=w'.rpartition('='), ('k=v', '=', 'w'))

    def test_join_non_string(self):
        return ','.join(['a', 1])

    def test_strip_family(self):
        self.assertEqual('  x  '.strip(), 'x')
        self.assertEqual('xxhixx'.strip('x'), 'hi')
        self.assertEqual('  x  '.lstrip(), 'x  ')
        self.assertEqual('  x  '.rstrip(), '  x')
        self.assertEqual('\x1c\x1d x \x1e\x1f'.strip(), 'x')
        self.assertEqual('\u3000x\xa0'.strip(), 'x')
        self.assertEqual('abcba'.strip('ab'), 'c')
        self.assertEqual('prefix_name'.removeprefix('prefix_'), 'name')
        self.assertEqual('name.py'.removesuffix('.py'), 'name')

    def test_strip_wrong(self):
        self.assertEqual('\x1cvalue'.lstrip(), '\x1cvalue')

    def test_find_and_count(self):
        s = 'banana'
        self.assertEqual(s.find('an'), 1)
        self.assertEqual(s.rfind('an'), 3)
        self.assertEqual(s.find('x'), -1)
        self.assertEqual(s.index('n'), 2)
        self.assertEqual(s.count('a'), 3)
        self.assertEqual(s.count('ana'), 1)
        self.assertEqual(s.count(''), 7)
        self.assertTrue(s.startswith('ban'))
        self.assertTrue(s.startswith(('x', 'b')))
        self.assertTrue(s.endswith('na'))
        self.assertFalse(s.endswith('n'))

    def test_index_missing(self):
        return 'banana'.index('x')

    def test_replace(self):
        self.assertEqual('aaa'.replace('a', 'b'), 'bbb')
        self.assertEqual('aaa'.replace('a', 'b', 2), 'bba')
        self.assertEqual('abc'.replace('', '-'), '-a-b-c-')

    def test_predicates(self):
        self.assertTrue('abc'.isalpha())
        self.assertTrue('123'.isdigit())
        self.assertTrue('abc123'.isalnum())
        self.assertTrue(' \t\n\x1c'.isspace())
        self.assertFalse(''.isspace())
        self.assertTrue('ABC'.isupper())
        self.assertTrue('abc'.islower())
        self.assertTrue('snake_case'.isidentifier())
        self.assertFalse('2x'.isidentifier())
        self.assertTrue('Title Case'.istitle())
        self.assertTrue('é'.isalpha())
        self.assertTrue('٣'.isdigit())

    def test_padding(self):
        self.assertEqual('7'.zfill(3), '007')
        self.assertEqual('-7'.zfill(4), '-007')
        self.assertEqual('ab'.center(6, '*'), '**ab**')
        self.assertEqual('ab'.ljust(4, '.'), 'ab..')
        self.assertEqual('ab'.rjust(4), '  ab')
        self.assertEqual('a\tb'.expandtabs(4), 'a   b')

    def test_encode_decode(self):
        self.assertEqual('café'.encode('utf-8'), b'caf\xc3\xa9')
        self.assertEqual(b'caf\xc3\xa9'.decode(), 'café')
        self.assertEqual('café'.encode('latin-1'), b'caf\xe9')
        self.assertEqual(len('日本'.encode()), 6)

    def test_encode_error(self):
        return '日本'.encode('ascii')

    def test_decode_error(self):
        return b'\xff\xfe\xfa'.decode('utf-8')

    def test_iteration_and_indexing(self):
        s = 'héllo'
        self.assertEqual(len(s), 5)
        self.assertEqual(s[1], 'é')
        self.assertEqual(list(s)[:2], ['h', 'é'])
        self.assertEqual(ord(s[1]), 233)
        self.assertEqual(chr(0x1F600), '😀')
        self.assertEqual(len('😀'), 1)
        self.assertEqual(s[-1], 'o')

    def test_comparisons(self):
        self.assertTrue('apple' < 'banana')
        self.assertTrue('Z' < 'a')
        self.assertTrue('é' > 'z')
        self.assertEqual(max('abc'), 'c')
        self.assertEqual(sorted(['b', 'A', 'a', 'B']), ['A', 'B', 'a', 'b'])

    def test_immutability(self):
        s = 'abc'
        s[0] = 'x'

    def test_multiline_literals(self):
        text = """first
second"""
        self.assertEqual(text.count('\n'), 1)
        raw = r'\d+\n'
        self.assertEqual(len(raw), 5)
        joined = ('abc'
                  'def')
        self.assertEqual(joined, 'abcdef')
        self.assertEqual('\N{BULLET}', '•')
        self.assertEqual('\u00e9\x41\101', 'éAA')

    def test_string_mismatch_message(self):
        self.assertEqual('héllo wörld', 'hello world')


if __name__ == '__main__':
    unittest.main()
