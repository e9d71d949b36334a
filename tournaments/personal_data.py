"""Tournaments' part of a person's data: entries with their rounds and standings, score sheets
they submitted or confirmed, what the audit log records them doing, announcements they wrote
and received, club season lines; at the account's deletion, withdrawing from every event not
over yet (its own rule: a seated round is reseated, a playing one forfeits the seat).

Every result stays: entries, round seats, standings and season lines keep pointing at the
(anonymised) user, so the event tables of everyone else read as before.
"""

from __future__ import annotations

from typing import Any

from rosbi_platform.accounts.deletion import AccountDeletionRefused
from rosbi_platform.accounts.personal_data import DataSection
from tournaments.common import TournamentError
from tournaments.entries import withdraw_entry
from tournaments.models import (
    Announcement,
    AnnouncementDelivery,
    AuditLog,
    CalendarToken,
    ClubSeasonStanding,
    Entry,
    PhysicalResult,
    RoundSeat,
    Standing,
    Tournament,
)

NOT_OVER = (Tournament.Status.PLANNED, Tournament.Status.ON_HOLD, Tournament.Status.RUNNING)


def export_tournaments(user: Any) -> dict[str, Any]:
    entries = Entry.objects.filter(user=user).select_related("tournament").order_by("pk")
    return {
        "entries": [
            {
                "tournament": entry.tournament.name,
                "slug": entry.tournament.slug,
                "starts_at": entry.tournament.starts_at,
                "status": entry.status,
                "plays_online": entry.plays_online,
                "rating_at_registration": entry.rating,
                "registered_at": entry.registered_at,
                "checked_in_at": entry.checked_in_at,
                "withdrawn_at": entry.withdrawn_at,
                "rounds": list(
                    RoundSeat.objects.filter(entry=entry)
                    .order_by("round__number")
                    .values("round__number", "table__number", "seat", "total", "present", "forfeit")
                ),
                "standing": Standing.objects.filter(entry=entry)
                .values(
                    "rank",
                    "points",
                    "penalty",
                    "opponents_points",
                    "table_wins",
                    "rounds_played",
                    "rounds_absent",
                    "percent",
                )
                .first(),
            }
            for entry in entries
        ],
        "score_sheets_submitted": list(
            PhysicalResult.objects.filter(submitted_by=user)
            .order_by("submitted_at")
            .values("table__round__tournament__slug", "version", "penalties", "submitted_at")
        ),
        "score_sheets_confirmed": list(
            PhysicalResult.objects.filter(confirmed_by=user)
            .order_by("confirmed_at")
            .values("table__round__tournament__slug", "version", "confirmed_at")
        ),
        "audited_actions": list(
            AuditLog.objects.filter(actor=user)
            .order_by("created", "pk")
            .values("tournament__slug", "action", "details", "created")
        ),
        "announcements_written": list(
            Announcement.objects.filter(author=user)
            .order_by("created")
            .values("tournament__slug", "text", "created")
        ),
        "announcements_received": list(
            AnnouncementDelivery.objects.filter(user=user)
            .order_by("created")
            .values("announcement__tournament__slug", "announcement__text", "created")
        ),
        # The feed's secret address is not exported: only that it exists.
        "calendar_feed_since": CalendarToken.objects.filter(user=user)
        .values_list("created", flat=True)
        .first(),
        "club_seasons": list(
            ClubSeasonStanding.objects.filter(user=user)
            .order_by("season_id")
            .values(
                "season__club__name",
                "season__name",
                "rank",
                "points",
                "events_played",
                "events_counted",
                "results",
                "rating_start",
                "rating_end",
            )
        ),
    }


def withdraw_everywhere(user: Any) -> None:
    """At deletion: withdraw from every event that is not over, end the calendar feed and the
    announcement notices. Results already played stay."""
    pending = Entry.objects.filter(user=user, tournament__status__in=NOT_OVER).exclude(
        status=Entry.Status.WITHDRAWN
    )
    for tournament_id in list(pending.values_list("tournament_id", flat=True)):
        try:
            withdraw_entry(tournament_id, user)
        except TournamentError as error:
            raise AccountDeletionRefused(str(error)) from error
    CalendarToken.objects.filter(user=user).delete()
    AnnouncementDelivery.objects.filter(user=user).delete()


SECTION = DataSection(
    name="tournaments",
    export=export_tournaments,
    covers=(
        "tournaments.Entry.user",
        "tournaments.PhysicalResult.submitted_by",
        "tournaments.PhysicalResult.confirmed_by",
        "tournaments.AuditLog.actor",
        "tournaments.Announcement.author",
        "tournaments.AnnouncementDelivery.user",
        "tournaments.CalendarToken.user",
        "tournaments.ClubSeasonStanding.user",
    ),
    erase=withdraw_everywhere,
)
