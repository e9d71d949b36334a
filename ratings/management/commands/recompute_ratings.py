"""``manage.py recompute_ratings``: rebuild every rating of a pool from its rated Parties."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from ratings.models import LADDER_POOL
from ratings.updates import recompute_all_ratings

BAR_WIDTH = 30


class Command(BaseCommand):
    help = "Recompute all ratings of a pool from history (deterministic; equals incremental)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--pool", default=LADDER_POOL, help="rating pool (default: ladder)")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        show = not options["no_progress"]

        def progress(done: int, total: int) -> None:
            filled = BAR_WIDTH * done // max(total, 1)
            bar = "#" * filled + "-" * (BAR_WIDTH - filled)
            self.stderr.write(f"\r[{bar}] {done}/{total} Parties", ending="")
            self.stderr.flush()

        count = recompute_all_ratings(options["pool"], progress if show else None)
        if show and count:
            self.stderr.write("")
        seconds = time.perf_counter() - started
        self.stdout.write(
            self.style.SUCCESS(f"Recomputed {count} rated Parties in {seconds:.1f} s.")
        )
