"""Read-only tournament queries."""

from django.db.models import QuerySet
from django.utils import timezone

from tournaments.models import Tournament


def list_upcoming_tournaments(limit: int | None = None) -> QuerySet[Tournament]:
    """Planned or running tournaments that start from today on, soonest first."""
    start_of_today = timezone.localtime().replace(hour=0, minute=0, second=0, microsecond=0)
    tournaments = (
        Tournament.objects.filter(
            status__in=[Tournament.Status.PLANNED, Tournament.Status.RUNNING],
            starts_at__gte=start_of_today,
        )
        .select_related("club")
        .order_by("starts_at", "name")
    )
    return tournaments[:limit] if limit is not None else tournaments
