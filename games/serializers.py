"""The API's shapes for tables and finished Parties (``games/api.py``).

Tables are shown as every frame shows them (``selectors.table_summary``: public information
only, never a hand or an invite code but to the table's organiser); finished Parties carry
their results, and their record is the RULES.md Partie record (``Partie.to_record``).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games import selectors
from games.forms import TURN_TIME_CHOICES
from games.models import BOT_LEVEL_CHOICES, Partie, Table

TURN_SECONDS = [value for value, _label in TURN_TIME_CHOICES]
LAYOUT_CHOICES = Table._meta.get_field("layout").choices


class RulesSerializer(serializers.Serializer):
    doubling = serializers.BooleanField()
    layout = serializers.ChoiceField(choices=LAYOUT_CHOICES)


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField(allow_null=True)
    user_id = serializers.IntegerField(allow_null=True)
    bot_level = serializers.CharField(allow_null=True)
    away = serializers.BooleanField()


class TableSerializer(serializers.Serializer):
    """A table as the lobby and the snapshot frame show it."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    size = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Table.Status.choices)
    owner_user_id = serializers.IntegerField(allow_null=True)
    rules = RulesSerializer()
    rated = serializers.BooleanField()
    public = serializers.BooleanField()
    turn_seconds = serializers.IntegerField()
    allow_bots = serializers.BooleanField()
    seats = SeatSerializer(many=True)
    websocket = serializers.CharField(help_text="Path of the table's websocket.")

    def to_representation(self, table: Table) -> dict[str, Any]:
        data = selectors.table_summary(table, list(table.seats.all()))
        data["allow_bots"] = table.allow_bots
        data["websocket"] = f"/ws/tables/{table.pk}/"
        return data


class OwnTableSerializer(TableSerializer):
    """The table as its organiser sees it after creating it: with the invite code."""

    invite_code = serializers.CharField()

    def to_representation(self, table: Table) -> dict[str, Any]:
        data = super().to_representation(table)
        data["invite_code"] = table.invite_code
        return data


class CreateTableSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80, required=False, allow_blank=True, default="")
    size = serializers.ChoiceField(choices=[3, 4, 5, 6], default=4)
    doubling = serializers.BooleanField(default=True)
    layout = serializers.ChoiceField(choices=LAYOUT_CHOICES, default="extend_first")
    turn_seconds = serializers.ChoiceField(
        choices=TURN_SECONDS, default=30, help_text="Seconds per move; 0 is no limit."
    )
    rated = serializers.BooleanField(default=False)
    public = serializers.BooleanField(default=True)
    fill_with_bots = serializers.BooleanField(default=False)
    bot_level = serializers.ChoiceField(
        choices=[level for level, _label in BOT_LEVEL_CHOICES], default="heuristic"
    )
    allow_bots = serializers.BooleanField(
        default=False, help_text="Whether accounts marked as bots may take a seat."
    )


class JoinTableSerializer(serializers.Serializer):
    seat = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=5, default=None
    )
    invite = serializers.CharField(
        required=False, allow_null=True, default=None, max_length=40, help_text="Private tables."
    )


class JoinedSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    table = TableSerializer()


class StartTableSerializer(serializers.Serializer):
    fill_with_bots = serializers.BooleanField(
        required=False, allow_null=True, default=None, help_text="Default: the table's choice."
    )


class StartedSerializer(serializers.Serializer):
    partie_id = serializers.IntegerField()
    table = TableSerializer()


class ResultSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    user_id = serializers.IntegerField(allow_null=True)
    bot_level = serializers.CharField(allow_null=True)
    total = serializers.IntegerField()
    place = serializers.IntegerField()
    left = serializers.BooleanField(help_text="The player left; a bot finished the seat.")


class PartieSerializer(serializers.Serializer):
    """A finished Partie: where, when, and every seat's total and place."""

    id = serializers.IntegerField()
    table_id = serializers.IntegerField()
    table_name = serializers.CharField()
    players = serializers.IntegerField()
    rated = serializers.BooleanField()
    rules = RulesSerializer()
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField()
    results = ResultSerializer(many=True)

    def to_representation(self, partie: Partie) -> dict[str, Any]:
        table = partie.table
        results = []
        for result in partie.results.all():
            player = result.started_by if result.started_by_id is not None else result.user
            results.append(
                {
                    "seat": result.seat,
                    "name": selectors.user_display_name(player)
                    if player is not None
                    else f"Bot ({result.bot_level})",
                    "user_id": player.pk if player is not None else None,
                    "bot_level": result.bot_level or None,
                    "total": result.total,
                    "place": result.place,
                    "left": result.left_at is not None and result.started_by_id is not None,
                }
            )
        return {
            "id": partie.pk,
            "table_id": table.pk,
            "table_name": table.name,
            "players": table.size,
            "rated": table.rated,
            "rules": table.rules.to_dict(),
            "started_at": serializers.DateTimeField().to_representation(partie.started_at),
            "finished_at": serializers.DateTimeField().to_representation(partie.finished_at),
            "results": results,
        }


@extend_schema_field(
    {
        "type": "object",
        "description": "A RULES.md section 6 record (players, contract, dealer, hands, moves).",
        "additionalProperties": True,
    }
)
class RecordField(serializers.JSONField):
    pass


class PartieDetailSerializer(PartieSerializer):
    record = RecordField(help_text="The RULES.md Partie record (score it with the engine).")
    penalties = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="The stored penalties per deal and seat.",
    )

    def to_representation(self, partie: Partie) -> dict[str, Any]:
        data = super().to_representation(partie)
        data["record"] = partie.to_record().to_dict()
        data["penalties"] = selectors.partie_penalties(partie)
        return data


class DealRecordsSerializer(serializers.Serializer):
    deals = serializers.ListField(child=RecordField())
