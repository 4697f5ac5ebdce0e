import unittest


class TestExpectedFailures(unittest.TestCase):

    @unittest.expectedFailure
    def test_expected_failure(self):
        self.assertEqual(1, 2)

    @unittest.expectedFailure
    def test_unexpected_success(self):
        self.assertEqual(1, 1)

    @unittest.expectedFailure
    def test_expected_error(self):
        {}['missing']

    def test_plain(self):
        self.assertTrue(True)


if __name__ == '__main__':
    unittest.main()
