import json
import re
import unittest


class TestJson(unittest.TestCase):

    def setUp(self):
        with open('../data/records.json', 'r') as f:
            self.records = json.load(f)

    def test_load_records(self):
        self.assertEqual(len(self.records), 4)
        self.assertEqual(self.records[0]['name'], 'alpha')
        self.assertIs(self.records[0]['active'], True)
        self.assertIsNone(self.records[3]['active'])
        self.assertEqual(self.records[2]['note'], 'Grüße')
        self.assertEqual([r['size'] for r in self.records], [3, 12, 7, -2])

    def test_records_filter(self):
        active = [r['name'] for r in self.records if r['active']]
        self.assertEqual(active, ['alpha', 'gamma'])
        tagged = sorted({t for r in self.records for t in r['tags']})
        self.assertEqual(tagged, ['x', 'y', 'z'])

    def test_records_wrong(self):
        self.assertEqual(max(self.records, key=lambda r: r['size'])['name'], 'gamma')

    def test_missing_note(self):
        self.assertEqual(self.records[0]['note'], '')

    def test_loads_values(self):
        self.assertEqual(json.loads('[1, 2.5, "x", null, true, false]'), [1, 2.5, 'x', None, True, False])
        self.assertEqual(json.loads('{"a": {"b": []}}'), {'a': {'b': []}})
        self.assertEqual(json.loads('"\\u00e9\\n"'), 'é\n')
        self.assertEqual(json.loads('1e3'), 1000.0)
        self.assertEqual(json.loads(' 12 '), 12)
        self.assertEqual(json.loads('{"k": 1, "k": 2}'), {'k': 2})

    def test_loads_invalid(self):
        json.loads('{"a": 1,}')

    def test_loads_invalid_caught(self):
        with self.assertRaises(json.JSONDecodeError):
            json.loads('not json')
        with self.assertRaises(ValueError):
            json.loads('')

    def test_dumps(self):
        self.assertEqual(json.dumps({'a': [1, None, True]}), '{"a": [1, null, true]}')
        self.assertEqual(json.dumps('é'), '"\\u00e9"')
        self.assertEqual(json.dumps('é', ensure_ascii=False), '"é"')
        self.assertEqual(json.dumps({'b': 1, 'a': 2}, sort_keys=True), '{"a": 2, "b": 1}')
        self.assertEqual(json.dumps([1, 2], indent=2), '[\n  1,\n  2\n]')
        self.assertEqual(json.dumps({'a': 1}, separators=(',', ':')), '{"a":1}')
        self.assertEqual(json.dumps((1, 2)), '[1, 2]')
        self.assertEqual(json.dumps(1.0), '1.0')
        self.assertEqual(json.dumps({1: 'x'}), '{"1": "x"}')

    def test_dumps_unserialisable(self):
        json.dumps({'s': {1, 2}})

    def test_roundtrip(self):
        text = json.dumps(self.records)
        self.assertEqual(json.loads(text), self.records)


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


if __name__ == '__main__':
    unittest.main()
