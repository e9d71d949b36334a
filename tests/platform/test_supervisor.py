"""``make run``'s supervisor starts again a child that exits and gives up on one that keeps dying."""

from __future__ import annotations

import sys
import time

from rosbi_platform.supervisor import Supervisor

STEADY = [sys.executable, "-c", "import time; time.sleep(60)"]
DIES_SOON = [sys.executable, "-c", "import sys, time; time.sleep(0.3); sys.exit(3)"]


def check_until(supervisor: Supervisor, condition, seconds: float = 20.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        healthy = supervisor.check()
        if condition() or not healthy:
            return healthy
        time.sleep(0.05)
    raise AssertionError("condition not reached")


def test_a_child_that_exits_is_started_again_and_the_others_keep_running():
    said: list[str] = []
    supervisor = Supervisor({"web": STEADY, "worker": DIES_SOON}, say=said.append)
    supervisor.start()
    try:
        web_pid, worker_pid = supervisor.children["web"].pid, supervisor.children["worker"].pid
        healthy = check_until(supervisor, lambda: supervisor.children["worker"].pid != worker_pid)
        assert healthy
        assert supervisor.children["web"].pid == web_pid, "the web server was left alone"
        assert supervisor.children["worker"].poll() is None, "the worker runs again"
        assert said == ["worker exited with 3; starting it again"]
    finally:
        supervisor.stop(grace=5)
    assert all(child.poll() is not None for child in supervisor.children.values())


def test_a_child_that_keeps_dying_stops_the_supervisor():
    said: list[str] = []
    supervisor = Supervisor({"beat": DIES_SOON}, say=said.append, max_restarts=2, window=60)
    supervisor.start()
    try:
        assert check_until(supervisor, lambda: False) is False
        assert said[-1] == "beat exited 3 times within 60s; stopping everything"
    finally:
        supervisor.stop(grace=5)
