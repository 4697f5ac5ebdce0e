"""Shared fixtures: the demo bundle imported by the CLI, and the CLI itself to compare with.

The CLI binary is `REFSCORE_BIN`, else the workspace's `target/debug/refscore` (which
`cargo test --workspace` builds), else it is built here with `cargo build -p cli`.
"""

import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "tasks" / "demo"
SUBMISSIONS = DEMO / "submissions"


def _refscore_bin() -> Path:
    env = os.environ.get("REFSCORE_BIN")
    if env:
        return Path(env)
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    exe = target / "debug" / "refscore"
    if not exe.exists():
        subprocess.run(["cargo", "build", "--quiet", "-p", "cli"], cwd=REPO, check=True)
    return exe


REFSCORE = _refscore_bin()


def cli(*args: str, ok=(0, 1)) -> subprocess.CompletedProcess:
    """Runs `refscore ARGS` in the repository root; exit codes in `ok` are expected."""
    p = subprocess.run(
        [str(REFSCORE), *args], cwd=REPO, capture_output=True, text=True, check=False
    )
    assert p.returncode in ok, f"refscore {' '.join(args)}: exit {p.returncode}\n{p.stderr}"
    return p


def cli_report(bundle: Path, *predictions: str) -> str:
    """`refscore score --json` on prediction paths (relative to the repository root)."""
    return cli("score", "--tasks", str(bundle), "--predictions", *predictions, "--json").stdout


def canonical(value) -> str:
    """JSON text of a parsed report or result, keys in the order they were read."""
    return json.dumps(value, ensure_ascii=False)


@pytest.fixture(scope="session")
def bundle_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("demo") / "bundle"
    cli("import", "--from", str(DEMO), "--out", str(out), ok=(0,))
    return out


@pytest.fixture(scope="session")
def bundle(bundle_dir):
    import refscore

    return refscore.Bundle.open(bundle_dir)


@pytest.fixture(autouse=True)
def in_repo(monkeypatch):
    """Paths as the CLI is given them (relative to the repository), which reports name."""
    monkeypatch.chdir(REPO)
