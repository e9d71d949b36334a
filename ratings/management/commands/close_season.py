"""``manage.py close_season``: close a season of a rating pool by hand, or every due season.

    manage.py close_season --number 3            # close season 3 of the ladder
    manage.py close_season --due                 # close every season whose end has come

A thin caller of ``ratings.seasons`` (the one way a season closes, as the admin action and the
scheduled task): a season is named by its number, so running the command again changes
nothing.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from ratings import seasons
from ratings.models import LADDER_POOL, Season


class Command(BaseCommand):
    help = "Close a season of a rating pool (archive standings, soft-reset, open the next)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--pool", default=LADDER_POOL, help="rating pool (default: ladder)")
        which = parser.add_mutually_exclusive_group(required=True)
        which.add_argument("--number", type=int, help="the season to close (its number)")
        which.add_argument(
            "--due", action="store_true", help="close every season whose end has come"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["due"]:
            closed = seasons.close_due_seasons()
            for season in closed:
                self.stdout.write(f"Closed {season.pool} season {season.number}.")
            self.stdout.write(self.style.SUCCESS(f"{len(closed)} due season(s) closed."))
            return
        pool, number = options["pool"], options["number"]
        season = Season.objects.filter(pool=pool, number=number).first()
        if season is None:
            raise CommandError(f"The pool {pool!r} has no season {number}.")
        if season.closed_at is not None:
            self.stdout.write(
                f"Season {number} of {pool} was already closed at {season.closed_at}."
            )
            return
        now = timezone.now()
        try:
            closed = seasons.close_season(pool, now=now, season=season.pk)
        except ValueError as error:
            raise CommandError(str(error)) from error
        if closed.closed_at != now:
            self.stdout.write(
                f"Season {number} of {pool} was already closed at {closed.closed_at}."
            )
            return
        self.stdout.write(self.style.SUCCESS(f"Closed season {number} of {pool}."))
