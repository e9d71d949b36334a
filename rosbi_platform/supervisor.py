"""Keep a few child processes running: start them, start again one that exits, stop them all.

``runplatform`` (``make run``) supervises the web server, the Celery worker and beat with it.
A child that exits on its own (a worker that met a Redis outage, say) is started again; one
that keeps dying (``max_restarts`` exits within ``window`` seconds) is a fault a restart does
not mend, and ``check`` says so. Each child runs in its own process group, so a signal to the
supervisor reaches no child, and stopping a child stops its own children too.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Callable


class Supervisor:
    def __init__(
        self,
        commands: dict[str, list[str]],
        say: Callable[[str], None] = print,
        max_restarts: int = 5,
        window: float = 60.0,
    ) -> None:
        self.commands = commands
        self.say = say
        self.max_restarts = max_restarts
        self.window = window
        self.children: dict[str, subprocess.Popen] = {}
        self.restarts: dict[str, list[float]] = {name: [] for name in commands}

    def launch(self, name: str) -> None:
        self.children[name] = subprocess.Popen(
            self.commands[name], start_new_session=True, stdin=subprocess.DEVNULL
        )

    def start(self) -> None:
        for name in self.commands:
            self.launch(name)

    def check(self) -> bool:
        """Start again every child that exited; False when one exits too often."""
        for name, child in list(self.children.items()):
            if child.poll() is None:
                continue
            # Its own children (a worker's pool) share its group: none may outlive it.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(child.pid, signal.SIGKILL)
            now = time.monotonic()
            recent = [t for t in self.restarts[name] if now - t < self.window]
            if len(recent) >= self.max_restarts:
                self.say(
                    f"{name} exited {len(recent) + 1} times within {self.window:.0f}s; "
                    "stopping everything"
                )
                return False
            self.restarts[name] = [*recent, now]
            self.say(f"{name} exited with {child.returncode}; starting it again")
            self.launch(name)
        return True

    def stop(self, grace: float = 10.0) -> None:
        """SIGTERM every child's process group (in start order), then SIGKILL after ``grace``."""
        for child in self.children.values():
            if child.poll() is None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(child.pid, signal.SIGTERM)
        deadline = time.monotonic() + grace
        for name, child in self.children.items():
            try:
                child.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self.say(f"{name} did not stop in {grace:.0f}s; killing it")
                os.killpg(child.pid, signal.SIGKILL)
                child.wait()
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(child.pid, signal.SIGKILL)
