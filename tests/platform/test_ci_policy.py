"""With CI=true a test that needs Redis and cannot have it fails; never skips.

Runs a tiny suite in a subprocess with the project's real conftest and a Redis URL that points
at a port nothing listens on.
"""

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
INNER_TESTS = """
import pytest

@pytest.mark.redis
def test_needs_redis():
    pass

def test_plain():
    pass
"""


def unused_tcp_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def run_inner_suite(tmp_path: Path) -> str:
    (tmp_path / "conftest.py").write_text((REPO_ROOT / "tests" / "conftest.py").read_text())
    (tmp_path / "test_inner.py").write_text(INNER_TESTS)
    env = {
        **os.environ,
        "CI": "true",
        "REDIS_URL": f"redis://127.0.0.1:{unused_tcp_port()}/0",
        "DJANGO_SETTINGS_MODULE": "rosbi_platform.settings",
        "PYTHONPATH": str(REPO_ROOT),
    }
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", str(tmp_path)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return result.stdout + result.stderr


@pytest.mark.slow
def test_in_ci_missing_services_fail(tmp_path):
    output = run_inner_suite(tmp_path)

    assert "ERROR test_inner.py::test_needs_redis" in output
    assert "does not answer" in output
    assert "PASSED test_inner.py::test_plain" in output
    assert "skipped" not in output
