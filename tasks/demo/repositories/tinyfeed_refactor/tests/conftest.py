import pathlib

import pytest

DATA = pathlib.Path(__file__).parent / "data"


@pytest.fixture
def rss_bytes():
    return (DATA / "bakery.rss.xml").read_bytes()


@pytest.fixture
def atom_bytes():
    return (DATA / "market.atom.xml").read_bytes()
