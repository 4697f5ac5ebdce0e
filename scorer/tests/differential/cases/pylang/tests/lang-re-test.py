import re
import unittest


class TestRegex(unittest.TestCase):

    def setUp(self):
        with open('../data/notes.txt', 'r') as f:
            self.text = f.read()

    def test_findall_todos(self):
        todos = re.findall(r'^TODO: (.+)$', self.text, re.MULTILINE)
        self.assertEqual(todos, ['rename compute_total', 'drop Python 3.8 support'])

    def test_findall_groups(self):
        emails = re.findall(r'(\w+)@(\w+)\.org', self.text)
        self.assertEqual(emails, [('dev', 'example'), ('ops', 'example')])

    def test_search_and_groups(self):
        m = re.search(r'version (\d+)\.(\d+)\.(\d+)', self.text)
        self.assertIsNotNone(m)
        self.assertEqual(m.group(0), 'version 1.4.2')
        self.assertEqual(m.group(1), '1')
        self.assertEqual(m.groups(), ('1', '4', '2'))
        self.assertEqual(m.start(), 46)
        date = re.search(r'(?P<y>\d{4})-(?P<m>\d\d)-(?P<d>\d\d)', self.text)
        self.assertEqual(date.group('m'), '05')
        self.assertEqual(date.groupdict(), {'y': '2024', 'm': '05', 'd': '01'})

    def test_match_anchors_at_start(self):
        self.assertIsNone(re.match(r'FIXME', self.text))
        self.assertIsNotNone(re.match(r'TODO', self.text))
        self.assertIsNotNone(re.fullmatch(r'[a-z_]+', 'compute_total'))
        self.assertIsNone(re.fullmatch(r'[a-z]+', 'compute_total'))

    def test_search_missing_group(self):
        m = re.search(r'version (\d+)', 'no version here')
        return m.group(1)

    def test_sub(self):
        self.assertEqual(re.sub(r'\d', '#', 'a1b22'), 'a#b##')
        self.assertEqual(re.sub(r'(\w+)@(\w+)', r'\2 at \1', 'dev@host'), 'host at dev')
        self.assertEqual(re.sub(r'\s+', ' ', ' a \n b '), ' a b ')
        self.assertEqual(re.sub('x', lambda m: m.group(0).upper(), 'axbx'), 'aXbX')
        self.assertEqual(re.sub(r'a', 'b', 'aaa', count=2), 'bba')
        self.assertEqual(re.split(r'[,;]\s*', 'a, b;c'), ['a', 'b', 'c'])

    def test_compiled_pattern(self):
        pattern = re.compile(r'(?i)todo')
        self.assertEqual(len(pattern.findall(self.text)), 2)
        self.assertTrue(pattern.search('ToDo'))
        word = re.compile(r'\bcompute_\w+')
        self.assertEqual(word.search(self.text).group(), 'compute_total')
        self.assertEqual(re.escape('a.b*c'), 'a\\.b\\*c')

    def test_finditer_positions(self):
        spans = [m.span() for m in re.finditer(r'TODO', self.text)]
        self.assertEqual(spans, [(0, 4), (84, 88)])

    def test_bad_pattern(self):
        re.compile('(unclosed')

    def test_regex_wrong_expectation(self):
        self.assertEqual(re.findall(r'\d+', self.text), ['1', '4', '2'])

    def test_unicode_property_is_a_bad_escape(self):
        re.compile(r'\p{L}+')

    def test_bad_escapes_are_re_errors(self):
        messages = []
        for p in [r'a\P{L}', r'[\p]', r'\z', r'(a\q', r'x)\q', r'[\A]']:
            try:
                re.compile(p)
                messages.append('ok')
            except re.error as e:
                messages.append(str(e))
        self.assertEqual(messages, [])

    def test_unicode_classes_and_case(self):
        self.assertEqual(re.findall(r'\w+', 'héllo wörld 123 ٣'), ['héllo', 'wörld', '123', '٣'])
        self.assertEqual(re.findall(r'\d', 'a1٣b'), ['1', '٣'])
        self.assertTrue(re.search(r'(?i)ÉTÉ', 'un été'))
        self.assertEqual(re.findall(r'[\b]', 'a\bb'), ['\b'])
        self.assertEqual(re.findall(r'[]a]', 'a]b'), ['a', ']'])
        self.assertEqual(re.findall(r'[^]a]', 'a]b'), ['b'])


if __name__ == '__main__':
    unittest.main()
