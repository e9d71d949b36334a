"""Sweep expired turn clocks without Celery beat (development, or a one-off after an outage)."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand

from games import clocks


class Command(BaseCommand):
    help = "Play the stand-in bot move for every expired turn; --loop repeats every second."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--loop", action="store_true", help="keep sweeping every second")
        parser.add_argument("--interval", type=float, default=1.0, help="seconds between sweeps")

    def handle(self, *args, loop: bool = False, interval: float = 1.0, **options) -> None:
        while True:
            played = clocks.expire_turns()
            if played:
                self.stdout.write(f"played {played} stand-in move(s)")
            if not loop:
                if not played:
                    self.stdout.write("no expired turns")
                return
            time.sleep(interval)
