"""The API's shapes for events, entries, rounds with seating, standings, score sheets and
notices (``tournaments/api.py``)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from rosbi_platform.notifications.models import Notification
from tournaments import selectors
from tournaments.events import EDITABLE_FIELDS
from tournaments.models import (
    Entry,
    PhysicalResult,
    Round,
    RoundTable,
    Series,
    Tournament,
)


class EntrySerializer(serializers.ModelSerializer):
    class Meta:
        model = Entry
        fields = [
            "status",
            "plays_online",
            "first_round",
            "registered_at",
            "checked_in_at",
            "confirmed",
        ]
        read_only_fields = fields


class TournamentSerializer(serializers.ModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    entrants = serializers.SerializerMethodField()

    class Meta:
        model = Tournament
        fields = [
            "id",
            "slug",
            "name",
            "club",
            "description",
            "starts_at",
            "status",
            "format",
            "mode",
            "rounds",
            "table_size",
            "rated",
            "doubling",
            "layout",
            "registration",
            "check_in",
            "capacity",
            "members_only",
            "allow_bots",
            "min_rating",
            "max_rating",
            "turn_seconds",
            "time_zone",
            "entrants",
        ]
        read_only_fields = fields

    def get_entrants(self, tournament: Tournament) -> int:
        annotated = getattr(tournament, "active_entries", None)
        if annotated is not None:
            return annotated
        return tournament.entries.exclude(status=Entry.Status.WITHDRAWN).count()


class TournamentDetailSerializer(TournamentSerializer):
    your_entry = serializers.SerializerMethodField()
    can_manage = serializers.SerializerMethodField()
    hold_reason = serializers.SerializerMethodField()

    class Meta(TournamentSerializer.Meta):
        fields = [
            *TournamentSerializer.Meta.fields,
            "registration_opens_at",
            "registration_closes_at",
            "check_in_opens_at",
            "check_in_closes_at",
            "min_players",
            "round_interval_minutes",
            "hold_reason",
            "your_entry",
            "can_manage",
        ]
        read_only_fields = fields

    @extend_schema_field(EntrySerializer(allow_null=True))
    def get_your_entry(self, tournament: Tournament) -> dict[str, Any] | None:
        request = self.context.get("request")
        entry = selectors.entry_of(tournament, request.user if request else None)
        return EntrySerializer(entry).data if entry is not None else None

    def get_can_manage(self, tournament: Tournament) -> bool:
        request = self.context.get("request")
        return bool(request and selectors.can_manage(request.user, tournament))

    def get_hold_reason(self, tournament: Tournament) -> str:
        return selectors.hold_reason_text(tournament)


class TournamentWriteSerializer(serializers.ModelSerializer):
    """What an organiser sends to announce an event (``club`` by slug) or to change one."""

    club = serializers.SlugField(help_text="The club's slug (you must organise it).")

    class Meta:
        model = Tournament
        fields = [
            "club",
            "name",
            "slug",
            "description",
            "starts_at",
            "format",
            "mode",
            "rounds",
            "table_size",
            "rated",
            "doubling",
            "layout",
            "capacity",
            "members_only",
            "allow_bots",
            "min_rating",
            "max_rating",
            "min_players",
            "turn_seconds",
            "round_interval_minutes",
            "registration_opens_at",
            "registration_closes_at",
            "check_in_opens_at",
            "check_in_closes_at",
            "time_zone",
        ]
        extra_kwargs = {"slug": {"validators": []}, "rounds": {"min_value": 1, "max_value": 30}}


class TournamentUpdateSerializer(serializers.ModelSerializer):
    class Meta:
        model = Tournament
        # What ``events.update_tournament`` lets an organiser change before the start.
        fields = sorted(EDITABLE_FIELDS)


class RegisterSerializer(serializers.Serializer):
    plays_online = serializers.BooleanField(
        default=True, help_text="Hybrid events: online (true) or at a physical table (false)."
    )


class WithdrawalSerializer(serializers.Serializer):
    entry = EntrySerializer()
    reseated_round = serializers.IntegerField(allow_null=True)
    forfeited_round = serializers.IntegerField(allow_null=True)


class RoundSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    user_id = serializers.IntegerField()
    total = serializers.IntegerField(allow_null=True)
    forfeit = serializers.BooleanField()


class RoundTableSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    size = serializers.IntegerField()
    physical = serializers.BooleanField()
    status = serializers.ChoiceField(choices=RoundTable.Status.choices)
    game_table_id = serializers.IntegerField(allow_null=True)
    seats = RoundSeatSerializer(many=True)

    def to_representation(self, table: RoundTable) -> dict[str, Any]:
        return {
            "id": table.pk,
            "number": table.number,
            "size": table.size,
            "physical": table.physical,
            "status": table.status,
            "game_table_id": table.game_table_id,
            "seats": [
                {
                    "seat": seat.seat,
                    "name": selectors.entry_name(seat.entry),
                    "user_id": seat.entry.user_id,
                    "total": seat.total,
                    "forfeit": seat.forfeit,
                }
                for seat in table.seats.all()
            ],
        }


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Round.Status.choices)
    scheduled_at = serializers.DateTimeField(allow_null=True)
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    tables = RoundTableSerializer(many=True, help_text="Empty until the seating is released.")


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    name = serializers.CharField()
    points = serializers.FloatField()
    penalty = serializers.FloatField()
    opponents_points = serializers.FloatField()
    table_wins = serializers.IntegerField()
    percent = serializers.FloatField(allow_null=True)
    provisional = serializers.BooleanField()


class StandingsSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    rows = StandingSerializer(many=True)


class SheetSubmitSerializer(serializers.Serializer):
    penalties = serializers.ListField(
        child=serializers.ListField(
            child=serializers.IntegerField(min_value=-1000, max_value=1000),
            min_length=3,
            max_length=6,
        ),
        min_length=6,
        max_length=6,
        help_text="Six deals, each the penalties per seat in seat order.",
    )


class SheetSerializer(serializers.ModelSerializer):
    totals = serializers.ListField(child=serializers.IntegerField(), read_only=True)
    confirmed = serializers.SerializerMethodField()

    class Meta:
        model = PhysicalResult
        fields = ["id", "table", "version", "penalties", "totals", "submitted_at", "confirmed"]
        read_only_fields = fields

    def get_confirmed(self, sheet: PhysicalResult) -> bool:
        return sheet.confirmed_at is not None


class NoticeSerializer(serializers.ModelSerializer):
    """A notification (``rosbi_platform.notifications``) with its event's slug, looked up for
    the whole page at once (``context["slugs"]``: tournament id to slug)."""

    tournament = serializers.SerializerMethodField()
    read = serializers.SerializerMethodField()

    class Meta:
        model = Notification
        fields = ["id", "kind", "tournament", "message", "url", "created", "read"]
        read_only_fields = fields

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_tournament(self, notice: Notification) -> str | None:
        return self.context.get("slugs", {}).get(notice.tournament_id)

    def get_read(self, notice: Notification) -> bool:
        return notice.read_at is not None


class MarkReadSerializer(serializers.Serializer):
    ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**63 - 1),
        required=False,
        allow_null=True,
        default=None,
        max_length=500,
        help_text="The notices to mark read; leave out to mark all.",
    )


class MarkedSerializer(serializers.Serializer):
    marked = serializers.IntegerField()


class SeriesEventSerializer(serializers.ModelSerializer):
    class Meta:
        model = Tournament
        fields = ["slug", "name", "starts_at", "status"]
        read_only_fields = fields


class SeriesSerializer(serializers.ModelSerializer):
    """A club's recurring event: its schedule, the events' settings and the next events."""

    club = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    skipped_dates = serializers.SerializerMethodField()
    upcoming = serializers.SerializerMethodField()

    class Meta:
        model = Series
        fields = [
            "id",
            "club",
            "name",
            "weekdays",
            "start_time",
            "time_zone",
            "weeks_ahead",
            "active",
            "format",
            "rounds",
            "mode",
            "table_size",
            "rated",
            "members_only",
            "skipped_dates",
            "upcoming",
        ]
        read_only_fields = fields

    @extend_schema_field(serializers.ListField(child=serializers.DateField()))
    def get_skipped_dates(self, series: Series) -> list[str]:
        return [skip.date.isoformat() for skip in series.skips.all()]

    @extend_schema_field(SeriesEventSerializer(many=True))
    def get_upcoming(self, series: Series) -> list[dict[str, Any]]:
        events = selectors.upcoming_series_events(series)
        return SeriesEventSerializer(events, many=True).data
