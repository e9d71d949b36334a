"""API v1 for tables and finished Parties: thin clients of ``games.lobby`` (writes) and
``games.selectors`` (reads)."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from games import lobby, selectors
from games.events import ServiceError
from games.models import Partie, Seat, Table
from games.serializers import (
    CreateTableSerializer,
    DealRecordsSerializer,
    JoinedSerializer,
    JoinTableSerializer,
    OwnTableSerializer,
    PartieDetailSerializer,
    PartieSerializer,
    StartedSerializer,
    StartTableSerializer,
    TableSerializer,
)
from rosbi_platform.api import PLAY, ErrorSerializer, JsonLinesRenderer, refusals
from rosbi_platform.response_cache import cached_json

# The status of each refusal of the lobby actions.
SERVICE_STATUSES = {
    "forbidden": 403,
    "bots_refused": 403,
    "rated_refused": 403,
    "not_open": 409,
    "already_seated": 409,
    "seat_taken": 409,
    "not_full": 409,
    "not_seated": 409,
}
ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Refused or invalid input."),
    401: OpenApiResponse(ErrorSerializer, description="No or an invalid token."),
    403: OpenApiResponse(ErrorSerializer, description="Not allowed (or the token lacks play)."),
    404: OpenApiResponse(ErrorSerializer, description="No such table."),
    409: OpenApiResponse(ErrorSerializer, description="The table's state does not allow it."),
}
PARTIE_EXAMPLE = {
    "id": 31,
    "table_id": 40,
    "table_name": "Evening table",
    "players": 3,
    "rated": False,
    "rules": {"doubling": True, "layout": "extend_first"},
    "started_at": "2026-11-30T17:40:00Z",
    "finished_at": "2026-11-30T18:02:11Z",
    "results": [
        {
            "seat": 0,
            "name": "Anna",
            "user_id": 7,
            "bot_level": None,
            "total": 15,
            "place": 2,
            "left": False,
        },
        {
            "seat": 1,
            "name": "Bot (random)",
            "user_id": None,
            "bot_level": "random",
            "total": 10,
            "place": 1,
            "left": False,
        },
        {
            "seat": 2,
            "name": "Ben",
            "user_id": 8,
            "bot_level": None,
            "total": 19,
            "place": 3,
            "left": True,
        },
    ],
}
DEAL_EXAMPLE = {
    "players": 3,
    "contract": "no_tricks",
    "dealer": 1,
    "hands": [["7C", "..."], ["..."], ["..."]],
    "moves": ["9C", "..."],
    "rules": {"doubling": True, "layout": "extend_first"},
}
TABLE_EXAMPLE = {
    "id": 12,
    "name": "Evening table",
    "size": 4,
    "status": "open",
    "owner_user_id": 5,
    "rules": {"doubling": True, "layout": "extend_first"},
    "rated": False,
    "public": True,
    "turn_seconds": 30,
    "allow_bots": True,
    "seats": [
        {"seat": 0, "name": "Anna", "user_id": 5, "bot_level": None, "away": False},
        {"seat": 1, "name": None, "user_id": None, "bot_level": None, "away": False},
        {"seat": 2, "name": None, "user_id": None, "bot_level": None, "away": False},
        {"seat": 3, "name": None, "user_id": None, "bot_level": None, "away": False},
    ],
    "websocket": "/ws/tables/12/",
}
STATUS_FILTER = OpenApiParameter(
    "status",
    str,
    many=True,
    enum=["open", "playing"],
    description="Only tables in these states (default: open and playing).",
)


def _table(table_id: int) -> Table:
    seats = Prefetch(
        "seats", queryset=Seat.objects.select_related("user", "user__profile").order_by("number")
    )
    return get_object_or_404(Table.objects.prefetch_related(seats), pk=table_id)


@extend_schema_view(
    list=extend_schema(
        summary="Open and live tables",
        description="Public tables, and private ones you sit at, newest first: public "
        "information only.",
        parameters=[STATUS_FILTER],
        examples=[OpenApiExample("A table", value=TABLE_EXAMPLE, response_only=True)],
    ),
    retrieve=extend_schema(
        summary="One table",
        examples=[OpenApiExample("A public table", value=TABLE_EXAMPLE, response_only=True)],
        parameters=[OpenApiParameter("invite", str, description="A private table's code.")],
        responses={200: TableSerializer, 404: ERRORS[404]},
    ),
)
class TableViewSet(viewsets.GenericViewSet):
    """Tables: list and look (read), create, join, leave and start (``play``)."""

    serializer_class = TableSerializer
    write_scope = PLAY
    lookup_value_regex = r"\d+"
    queryset = Table.objects.none()

    def get_queryset(self) -> Any:
        wanted = [s for s in self.request.query_params.getlist("status") if s]
        allowed = {Table.Status.OPEN.value, Table.Status.PLAYING.value}
        return selectors.visible_tables(
            self.request.user, [s for s in wanted if s in allowed] or None
        )

    def list(self, request: Request) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(TableSerializer(page, many=True).data)

    def retrieve(self, request: Request, pk: str) -> Response:
        table = _table(int(pk))
        if not selectors.may_see_table(table, request.user, request.query_params.get("invite")):
            raise NotFound()
        return Response(TableSerializer(table).data)

    @extend_schema(
        summary="Create a table",
        description="You take seat 0. The answer includes the invite code for private tables.",
        request=CreateTableSerializer,
        responses={201: OwnTableSerializer, **ERRORS},
        examples=[
            OpenApiExample(
                "Four players, bots allowed",
                value={"name": "Bots welcome", "size": 4, "turn_seconds": 30, "allow_bots": True},
                request_only=True,
            )
        ],
    )
    def create(self, request: Request) -> Response:
        form = CreateTableSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        with refusals(ServiceError, statuses=SERVICE_STATUSES):
            table = lobby.create_table(owner=request.user, **form.validated_data)
        return Response(OwnTableSerializer(_table(table.pk)).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Join a table",
        description="Takes the first free seat, or `seat`. Private tables need `invite`.",
        request=JoinTableSerializer,
        responses={200: JoinedSerializer, **ERRORS},
        examples=[OpenApiExample("Seat 2", value={"seat": 2}, request_only=True)],
    )
    @action(detail=True, methods=["post"])
    def join(self, request: Request, pk: str) -> Response:
        form = JoinTableSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        table_id = _table(int(pk)).pk
        with refusals(ServiceError, statuses=SERVICE_STATUSES):
            seat = lobby.join_table(
                table_id, request.user, form.validated_data["seat"], form.validated_data["invite"]
            )
        return Response({"seat": seat, "table": TableSerializer(_table(table_id)).data})

    @extend_schema(
        summary="Leave a table",
        examples=[
            OpenApiExample("The seat is free again", value=TABLE_EXAMPLE, response_only=True)
        ],
        description="An open table frees the seat; a started one hands it to a bot for good.",
        request=None,
        responses={200: TableSerializer, **ERRORS},
    )
    @action(detail=True, methods=["post"])
    def leave(self, request: Request, pk: str) -> Response:
        table_id = _table(int(pk)).pk
        with refusals(ServiceError, statuses=SERVICE_STATUSES):
            lobby.leave_table(table_id, request.user)
        return Response(TableSerializer(_table(table_id)).data)

    @extend_schema(
        summary="Start a table",
        description="The table's organiser (or staff) deals the first deal; "
        "`fill_with_bots` puts server bots in the empty seats.",
        request=StartTableSerializer,
        responses={200: StartedSerializer, **ERRORS},
        examples=[OpenApiExample("Bots fill", value={"fill_with_bots": True}, request_only=True)],
    )
    @action(detail=True, methods=["post"])
    def start(self, request: Request, pk: str) -> Response:
        form = StartTableSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        table_id = _table(int(pk)).pk
        with refusals(ServiceError, statuses=SERVICE_STATUSES):
            partie = lobby.start_table(
                table_id, request.user, fill_with_bots=form.validated_data["fill_with_bots"]
            )
        return Response({"partie_id": partie.pk, "table": TableSerializer(_table(table_id)).data})


PLAYER_FILTER = OpenApiParameter("player", int, description="Only Parties this user (id) played.")


@extend_schema_view(
    list=extend_schema(
        summary="Finished Parties",
        examples=[OpenApiExample("A finished Partie", value=PARTIE_EXAMPLE, response_only=True)],
        description="Public tables' Parties and the private ones you played, newest first.",
        parameters=[PLAYER_FILTER],
    ),
    retrieve=extend_schema(
        summary="One finished Partie with its record",
        examples=[
            OpenApiExample(
                "With its record",
                value={
                    **PARTIE_EXAMPLE,
                    "record": {"players": 3, "first_dealer": 1, "deals": ["..."]},
                    "penalties": [
                        [2, 0, 4],
                        [0, 8, 0],
                        [4, 0, 0],
                        [0, 0, 8],
                        [9, 10, 1],
                        [0, -8, 0],
                    ],
                },
                response_only=True,
            )
        ],
        responses={200: PartieDetailSerializer, 404: ERRORS[404]},
    ),
)
class PartieViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Finished Parties, their RULES.md records and deal records (JSON and JSON Lines)."""

    serializer_class = PartieSerializer
    queryset = Partie.objects.none()
    lookup_value_regex = r"\d+"

    def get_queryset(self) -> Any:
        player = self.request.query_params.get("player")
        player_id = int(player) if player and player.isdigit() and len(player) < 19 else None
        if player and player_id is None:
            return Partie.objects.none()
        return selectors.finished_parties(self.request.user, player_id)

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Any:
        """Built once per finished Partie and caller (what they may see differs: private
        Parties they played, staff); names changed since show within a minute."""
        user = request.user
        parts = (
            "parties",
            selectors.finished_parties_version(),
            user.pk if user.is_authenticated else "anonymous",
            user.is_staff,
            request.build_absolute_uri(),
        )
        build = lambda: super(PartieViewSet, self).list(request, *args, **kwargs).data  # noqa: E731
        return cached_json(request, parts, build, seconds=60)

    def _partie(self, pk: str) -> Partie:
        partie = selectors.finished_parties(self.request.user).filter(pk=pk).first()
        if partie is None:
            raise NotFound()
        return partie

    def retrieve(self, request: Request, pk: str) -> Response:
        return Response(PartieDetailSerializer(self._partie(pk)).data)

    @extend_schema(
        summary="The Partie's deals as deal records",
        examples=[
            OpenApiExample("Six deal records", value={"deals": [DEAL_EXAMPLE]}, response_only=True)
        ],
        description="Each line a RULES.md deal record with the table's house rules.",
        responses={200: DealRecordsSerializer, 404: ERRORS[404]},
    )
    @action(detail=True, methods=["get"])
    def deals(self, request: Request, pk: str) -> Response:
        return Response({"deals": selectors.deal_records(self._partie(pk))})

    @extend_schema(
        summary="The Partie's deals as JSON Lines",
        examples=[
            OpenApiExample(
                "One line per deal",
                value='{"players": 3, "contract": "no_tricks", "dealer": 1, "hands": [...], '
                '"moves": [...], "rules": {"doubling": true, "layout": "extend_first"}}\n',
                response_only=True,
                media_type="application/x-ndjson",
            )
        ],
        description="One deal record a line: `python -m games.engine score -` scores it.",
        responses={
            (200, "application/x-ndjson"): OpenApiTypes.STR,
            (404, "application/x-ndjson"): ERRORS[404],
        },
    )
    @action(
        detail=True,
        methods=["get"],
        url_path="deals.jsonl",
        renderer_classes=[JsonLinesRenderer],
    )
    def deals_jsonl(self, request: Request, pk: str) -> Response:
        response = Response(selectors.deal_records(self._partie(pk)))
        response["Content-Disposition"] = f'attachment; filename="partie-{pk}.jsonl"'
        return response
