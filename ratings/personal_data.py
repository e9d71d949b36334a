"""Ratings' part of a person's data: ratings, every rating change, season lines and ranked
queue visits (export); at the account's deletion, leaving the queue and dropping the stored
addresses. Ratings and rating changes stay, unchanged: the others' changes were computed
against them, and a recompute from the history must give the same ladder."""

from __future__ import annotations

from typing import Any

from ratings.models import LadderQueueEntry, PlayerRating, RatingChange, SeasonStanding
from ratings.ranked_queue import leave_queue
from rosbi_platform.accounts.personal_data import DataSection


def export_ratings(user: Any) -> dict[str, Any]:
    return {
        "ratings": list(
            PlayerRating.objects.filter(user=user)
            .order_by("pool")
            .values("pool", "mu", "sigma", "games", "last_played")
        ),
        "rating_changes": list(
            RatingChange.objects.filter(user=user)
            .order_by("finished_at", "pk")
            .values(
                "partie_id",
                "pool",
                "finished_at",
                "seat",
                "total",
                "place",
                "left",
                "mu_before",
                "sigma_before",
                "games_before",
                "mu_after",
                "sigma_after",
            )
        ),
        "season_standings": list(
            SeasonStanding.objects.filter(user=user)
            .order_by("season_id")
            .values("season__name", "rank", "mu", "sigma", "games", "season_games", "display")
        ),
        "ranked_queue": list(
            LadderQueueEntry.objects.filter(user=user)
            .order_by("joined_at", "pk")
            .values("pool", "joined_at", "ip", "status", "table_id", "closed_at")
        ),
    }


def leave_ranked_play(user: Any) -> None:
    """At deletion: out of the ranked queue, and the addresses it stored are forgotten."""
    leave_queue(user)
    LadderQueueEntry.objects.filter(user=user).update(ip=None)


SECTION = DataSection(
    name="ratings",
    export=export_ratings,
    covers=(
        "ratings.PlayerRating.user",
        "ratings.RatingChange.user",
        "ratings.SeasonStanding.user",
        "ratings.LadderQueueEntry.user",
    ),
    erase=leave_ranked_play,
)
