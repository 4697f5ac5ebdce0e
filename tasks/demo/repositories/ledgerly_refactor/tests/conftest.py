import datetime

import pytest

from ledgerly.accounts import default_chart
from ledgerly.journal import Journal


@pytest.fixture
def journal():
    return Journal(chart=default_chart())


@pytest.fixture
def day():
    return datetime.date(2024, 3, 31)
