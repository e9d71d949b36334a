"""Run the tournament sweeper once, in this process (cron-style, or to catch up by hand)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from tournaments import scheduler


class Command(BaseCommand):
    help = "Advance every tournament whose stored times are due (what beat's sweeper does)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slugs", nargs="*", help="only these events (default: all due)")

    def handle(self, *args, **options) -> None:
        from tournaments.models import Tournament

        if options["slugs"]:
            ids = list(
                Tournament.objects.filter(slug__in=options["slugs"]).values_list("pk", flat=True)
            )
        else:
            ids = scheduler.due_tournament_ids()
        for tournament_id in ids:
            steps = scheduler.advance_tournament(tournament_id)
            self.stdout.write(f"tournament {tournament_id}: {steps} step(s)")
        self.stdout.write(f"{len(ids)} tournament(s) looked at")
