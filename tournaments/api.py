"""API v1 for events: thin clients of ``tournaments.events`` / ``entries`` / ``results`` /
``notify`` (writes) and ``tournaments.selectors`` / ``exports`` (reads).

A player acts for themself (register, check in, withdraw, score sheets of their table, their
notices); an organiser announces and edits their club's events only (``tournament:write``).
"""

from __future__ import annotations

import io
from typing import Any

from django.db.models import Count, Prefetch, Q
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
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from rosbi_platform.accounts.models import Club
from rosbi_platform.api import (
    TOURNAMENT_WRITE,
    CsvRenderer,
    ErrorSerializer,
    TokenScopes,
    refusals,
)
from rosbi_platform.notifications import selectors as notifications_selectors
from rosbi_platform.notifications.models import Notification
from rosbi_platform.response_cache import cached_json
from tournaments import entries, events, exports, notify, results, selectors
from tournaments.common import TournamentError
from tournaments.models import (
    Entry,
    PhysicalResult,
    Round,
    RoundSeat,
    RoundTable,
    Tournament,
)
from tournaments.serializers import (
    EntrySerializer,
    MarkedSerializer,
    MarkReadSerializer,
    NoticeSerializer,
    RegisterSerializer,
    RoundSerializer,
    RoundTableSerializer,
    SeriesSerializer,
    SheetSerializer,
    SheetSubmitSerializer,
    StandingsSerializer,
    TournamentDetailSerializer,
    TournamentSerializer,
    TournamentUpdateSerializer,
    TournamentWriteSerializer,
    WithdrawalSerializer,
)

ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Refused or invalid input."),
    401: OpenApiResponse(ErrorSerializer, description="No or an invalid token."),
    403: OpenApiResponse(ErrorSerializer, description="Not yours to do (or the token's scope)."),
    404: OpenApiResponse(ErrorSerializer, description="No such event."),
}
ENTRY_EXAMPLE = {
    "status": "registered",
    "plays_online": True,
    "first_round": 1,
    "registered_at": "2026-12-01T10:00:00Z",
    "checked_in_at": None,
    "confirmed": True,
}
EVENT_EXAMPLE = {
    "id": 4,
    "slug": "friday-swiss",
    "name": "Friday Swiss",
    "club": "skat-friends",
    "description": "",
    "starts_at": "2026-12-11T18:00:00Z",
    "status": "planned",
    "format": "swiss",
    "mode": "online",
    "rounds": 3,
    "table_size": 4,
    "rated": False,
    "doubling": True,
    "layout": "extend_first",
    "registration": "open",
    "check_in": "not_open",
    "capacity": 24,
    "members_only": False,
    "allow_bots": False,
    "min_rating": None,
    "max_rating": None,
    "turn_seconds": 30,
    "time_zone": "Europe/Berlin",
    "entrants": 9,
}
SHEET_EXAMPLE = {
    "id": 12,
    "table": 17,
    "version": 1,
    "penalties": [
        [2, 3, 1, 2],
        [0, 4, 2, 2],
        [1, 2, 3, 2],
        [0, 0, 4, 0],
        [4, 2, 3, 3],
        [0, 10, 20, 5],
    ],
    "totals": [7, 21, 33, 14],
    "submitted_at": "2026-12-11T21:10:00Z",
    "confirmed": False,
}
ORDERINGS = {"starts_at", "-starts_at", "name", "-name"}


def _forbid_unless_manager(user: Any, tournament: Tournament) -> None:
    if not selectors.can_manage(user, tournament):
        raise PermissionDenied(_only_organisers())


def _only_organisers() -> str:
    from django.utils.translation import gettext as _

    return _("Only the club's organisers can do this.")


@extend_schema_view(
    list=extend_schema(
        summary="Events",
        examples=[OpenApiExample("An event", value=EVENT_EXAMPLE, response_only=True)],
        description="Every event, soonest first; filter by club and status.",
        parameters=[
            OpenApiParameter("club", str, description="A club's slug."),
            OpenApiParameter(
                "status", str, many=True, enum=[s for s, _l in Tournament.Status.choices]
            ),
            OpenApiParameter("ordering", str, enum=sorted(ORDERINGS)),
        ],
    ),
    retrieve=extend_schema(
        summary="One event",
        examples=[
            OpenApiExample(
                "Your entry",
                value={
                    **EVENT_EXAMPLE,
                    "registration_opens_at": None,
                    "registration_closes_at": None,
                    "check_in_opens_at": None,
                    "check_in_closes_at": None,
                    "min_players": 3,
                    "round_interval_minutes": 10,
                    "hold_reason": "",
                    "your_entry": ENTRY_EXAMPLE,
                    "can_manage": False,
                },
                response_only=True,
            )
        ],
        description="With your entry and whether you organise it.",
        responses={200: TournamentDetailSerializer, 404: ERRORS[404]},
    ),
)
class TournamentViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Events: list and detail, announce and edit (organisers), enter, check in, withdraw."""

    serializer_class = TournamentSerializer
    lookup_field = "slug"
    lookup_value_regex = r"[-a-zA-Z0-9_]+"
    write_scopes = {"create": TOURNAMENT_WRITE, "partial_update": TOURNAMENT_WRITE}

    def get_queryset(self) -> Any:
        tournaments = Tournament.objects.select_related("club").annotate(
            active_entries=Count("entries", filter=~Q(entries__status=Entry.Status.WITHDRAWN))
        )
        params = self.request.query_params
        if params.get("club"):
            tournaments = tournaments.filter(club__slug=params["club"])
        wanted = [s for s in params.getlist("status") if s in Tournament.Status.values]
        if wanted:
            tournaments = tournaments.filter(status__in=wanted)
        ordering = params.get("ordering")
        ordering = ordering if ordering in ORDERINGS else "starts_at"
        return tournaments.order_by(ordering, "pk")

    def _tournament(self, slug: str) -> Tournament:
        return get_object_or_404(Tournament.objects.select_related("club"), slug=slug)

    def retrieve(self, request: Request, slug: str) -> Response:
        tournament = self._tournament(slug)
        return Response(TournamentDetailSerializer(tournament, context={"request": request}).data)

    @extend_schema(
        summary="Announce an event",
        description="Organisers of the club only (`tournament:write`). Rounds are created.",
        request=TournamentWriteSerializer,
        responses={201: TournamentDetailSerializer, **ERRORS},
        examples=[
            OpenApiExample(
                "A Swiss evening",
                value={
                    "club": "skat-friends",
                    "name": "Friday Swiss",
                    "slug": "friday-swiss",
                    "starts_at": "2026-12-11T19:00:00+01:00",
                    "format": "swiss",
                    "rounds": 3,
                },
                request_only=True,
            )
        ],
    )
    def create(self, request: Request) -> Response:
        form = TournamentWriteSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = dict(form.validated_data)
        club = Club.objects.filter(slug=data.pop("club")).first()
        if club is None:
            raise NotFound(_no_club())
        if not selectors.can_manage_club(request.user, club.pk):
            raise PermissionDenied(_only_organisers())
        with refusals(TournamentError):
            tournament = events.create_tournament(club=club, by=request.user, **data)
        body = TournamentDetailSerializer(tournament, context={"request": request}).data
        return Response(body, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Change an event before it starts",
        description="Organisers of the club only (`tournament:write`); format, rounds and "
        "house rules stay as announced.",
        request=TournamentUpdateSerializer,
        responses={200: TournamentDetailSerializer, **ERRORS},
        examples=[OpenApiExample("More seats", value={"capacity": 24}, request_only=True)],
    )
    def partial_update(self, request: Request, slug: str) -> Response:
        tournament = self._tournament(slug)
        _forbid_unless_manager(request.user, tournament)
        form = TournamentUpdateSerializer(tournament, data=request.data, partial=True)
        form.is_valid(raise_exception=True)
        with refusals(TournamentError):
            tournament = events.update_tournament(
                tournament.pk, request.user, **form.validated_data
            )
        return Response(TournamentDetailSerializer(tournament, context={"request": request}).data)

    @extend_schema(
        summary="Enter the event",
        examples=[OpenApiExample("Registered", value=ENTRY_EXAMPLE, response_only=True)],
        request=RegisterSerializer,
        responses={201: EntrySerializer, **ERRORS},
    )
    @action(detail=True, methods=["post"])
    def register(self, request: Request, slug: str) -> Response:
        form = RegisterSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        tournament = self._tournament(slug)
        with refusals(TournamentError):
            entry = entries.register_entry(
                tournament.pk, request.user, plays_online=form.validated_data["plays_online"]
            )
        return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Confirm an entry the organisers made for you",
        description="Until you confirm it, your Parties in the event are unrated. Withdraw "
        "instead if you do not want to play.",
        examples=[OpenApiExample("Confirmed", value=ENTRY_EXAMPLE, response_only=True)],
        request=None,
        responses={200: EntrySerializer, **ERRORS},
    )
    @action(detail=True, methods=["post"])
    def confirm(self, request: Request, slug: str) -> Response:
        tournament = self._tournament(slug)
        with refusals(TournamentError):
            entry = entries.confirm_entry(tournament.pk, request.user)
        return Response(EntrySerializer(entry).data)

    @extend_schema(
        summary="Check in",
        examples=[
            OpenApiExample(
                "Checked in",
                value={
                    **ENTRY_EXAMPLE,
                    "status": "checked_in",
                    "checked_in_at": "2026-12-11T18:40:00Z",
                },
                response_only=True,
            )
        ],
        request=None,
        responses={200: EntrySerializer, **ERRORS},
    )
    @action(detail=True, methods=["post"], url_path="check-in")
    def check_in(self, request: Request, slug: str) -> Response:
        tournament = self._tournament(slug)
        with refusals(TournamentError):
            entry = entries.check_in(tournament.pk, request.user)
        return Response(EntrySerializer(entry).data)

    @extend_schema(
        summary="Withdraw from the event",
        examples=[
            OpenApiExample(
                "Withdrawn before the seating",
                value={
                    "entry": {**ENTRY_EXAMPLE, "status": "withdrawn"},
                    "reseated_round": None,
                    "forfeited_round": None,
                },
                response_only=True,
            )
        ],
        description="A seated round is seated again without you; a running one is forfeited.",
        request=None,
        responses={200: WithdrawalSerializer, **ERRORS},
    )
    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, slug: str) -> Response:
        tournament = self._tournament(slug)
        with refusals(TournamentError):
            done = entries.withdraw_entry(tournament.pk, request.user)
        return Response(
            {
                "entry": EntrySerializer(done.entry).data,
                "reseated_round": done.reseated_round,
                "forfeited_round": done.forfeited_round,
            }
        )

    @extend_schema(
        summary="Rounds with their seating",
        examples=[
            OpenApiExample(
                "Round 1 playing",
                value=[
                    {
                        "number": 1,
                        "status": "started",
                        "scheduled_at": "2026-12-11T19:00:00Z",
                        "started_at": "2026-12-11T19:00:02Z",
                        "finished_at": None,
                        "tables": [
                            {
                                "id": 17,
                                "number": 1,
                                "size": 3,
                                "physical": False,
                                "status": "playing",
                                "game_table_id": 40,
                                "seats": [
                                    {
                                        "seat": 0,
                                        "name": "Anna",
                                        "user_id": 7,
                                        "total": None,
                                        "forfeit": False,
                                    }
                                ],
                            }
                        ],
                    }
                ],
                response_only=True,
            )
        ],
        description="A round's tables are shown once it is released (organisers see them "
        "as soon as it is seated).",
        responses={200: RoundSerializer(many=True), 404: ERRORS[404]},
    )
    @action(detail=True, methods=["get"], pagination_class=None)
    def rounds(self, request: Request, slug: str) -> Response:
        tournament = self._tournament(slug)
        released = [Round.Status.STARTED, Round.Status.FINISHED]
        if selectors.can_manage(request.user, tournament):
            released.append(Round.Status.SEATED)
        seats = Prefetch(
            "seats",
            queryset=RoundSeat.objects.select_related("entry__user__profile").order_by("seat"),
        )
        tables = Prefetch(
            "tables",
            queryset=RoundTable.objects.prefetch_related(seats).order_by("number"),
        )
        body = []
        for round_ in (
            Round.objects.filter(tournament=tournament).prefetch_related(tables).order_by("number")
        ):
            shown = round_.status in released
            body.append(
                {
                    "number": round_.number,
                    "status": round_.status,
                    "scheduled_at": round_.scheduled_at,
                    "started_at": round_.started_at,
                    "finished_at": round_.finished_at,
                    "tables": RoundTableSerializer(
                        list(round_.tables.all()) if shown else [], many=True
                    ).data,
                }
            )
        return Response(body)

    @extend_schema(
        summary="Standings",
        examples=[
            OpenApiExample(
                "After round 1",
                value={
                    "version": 2,
                    "rows": [
                        {
                            "rank": 1,
                            "name": "Anna",
                            "points": 3.0,
                            "penalty": 12.0,
                            "opponents_points": 1.0,
                            "table_wins": 1,
                            "percent": None,
                            "provisional": False,
                        }
                    ],
                },
                response_only=True,
            )
        ],
        responses={200: StandingsSerializer, 404: ERRORS[404]},
    )
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, slug: str) -> Any:
        """Rendered once per standings version and set of still-playing entries (every
        client of a live event reads the same answer)."""
        tournament = self._tournament(slug)
        parts = (
            "standings",
            tournament.pk,
            tournament.created.timestamp() if tournament.created else 0,
            tournament.standings_version,
            sorted(selectors.provisional_entry_ids(tournament)),
        )
        build = lambda: selectors.standings_payload(tournament)  # noqa: E731
        return cached_json(request, parts, build, seconds=selectors.STANDINGS_CACHE_SECONDS)

    @extend_schema(
        summary="Standings as CSV",
        examples=[
            OpenApiExample(
                "Two lines",
                value="tournament,rank,player,points,penalty,opponents_points,table_wins,"
                "rounds_played,rounds_absent,percent\r\nfriday-swiss,1,Anna,3.0,12.0,1.0,1,1,0,\r\n",
                response_only=True,
                media_type="text/csv",
            )
        ],
        responses={(200, "text/csv"): OpenApiTypes.STR, (404, "text/csv"): ERRORS[404]},
    )
    @action(detail=True, methods=["get"], url_path="standings.csv", renderer_classes=[CsvRenderer])
    def standings_csv(self, request: Request, slug: str) -> Response:
        tournament = self._tournament(slug)
        out = io.StringIO()
        exports.write_csv(
            out, exports.STANDINGS_HEADER, exports.standings_rows_for_export([tournament])
        )
        return _csv(out.getvalue(), f"{tournament.slug}-standings.csv")

    @extend_schema(
        summary="Results per seat as CSV",
        examples=[
            OpenApiExample(
                "Two lines",
                value="tournament,round,table,seat,player,total,forfeit\r\n"
                "friday-swiss,1,1,0,Anna,12,False\r\n",
                response_only=True,
                media_type="text/csv",
            )
        ],
        responses={(200, "text/csv"): OpenApiTypes.STR, (404, "text/csv"): ERRORS[404]},
    )
    @action(detail=True, methods=["get"], url_path="results.csv", renderer_classes=[CsvRenderer])
    def results_csv(self, request: Request, slug: str) -> Response:
        tournament = self._tournament(slug)
        out = io.StringIO()
        exports.write_csv(out, exports.RESULTS_HEADER, exports.result_rows_for_export([tournament]))
        return _csv(out.getvalue(), f"{tournament.slug}-results.csv")


def _csv(text: str, filename: str) -> Response:
    response = Response(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _no_club() -> str:
    from django.utils.translation import gettext as _

    return _("There is no club with this slug.")


class RoundTableSheetViewSet(viewsets.GenericViewSet):
    """Score sheets of a physical table: its players and the event's organisers."""

    serializer_class = SheetSerializer
    queryset = RoundTable.objects.none()
    permission_classes = [IsAuthenticated, TokenScopes]
    lookup_value_regex = r"\d+"

    def _table(self, pk: str) -> RoundTable:
        table = RoundTable.objects.select_related("round__tournament").filter(pk=pk).first()
        if table is None:
            raise NotFound()
        _require_table_player_or_organiser(self.request.user, table)
        return table

    @extend_schema(
        summary="A physical table's score sheets",
        examples=[OpenApiExample("One sheet", value=[SHEET_EXAMPLE], response_only=True)],
        responses={200: SheetSerializer(many=True), **ERRORS},
    )
    @action(detail=True, methods=["get"], pagination_class=None)
    def sheets(self, request: Request, pk: str) -> Response:
        table = self._table(pk)
        return Response(SheetSerializer(selectors.sheets_of(table), many=True).data)

    @extend_schema(
        summary="Submit a physical table's score sheet",
        description="Six deals of penalties per seat, checked against the rules; a second "
        "person (player at the table or organiser) confirms it.",
        request=SheetSubmitSerializer,
        responses={201: SheetSerializer, **ERRORS},
        examples=[
            OpenApiExample(
                "Four players",
                value={
                    "penalties": [
                        [2, 3, 1, 2],
                        [0, 4, 2, 2],
                        [1, 2, 3, 2],
                        [0, 0, 4, 0],
                        [4, 2, 3, 3],
                        [0, 10, 20, 5],
                    ]
                },
                request_only=True,
            ),
            OpenApiExample("Stored as version 1", value=SHEET_EXAMPLE, response_only=True),
        ],
    )
    @sheets.mapping.post
    def submit_sheet(self, request: Request, pk: str) -> Response:
        form = SheetSubmitSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        table = self._table(pk)
        with refusals(TournamentError):
            sheet = results.submit_physical_result(
                table.pk, form.validated_data["penalties"], request.user
            )
        return Response(SheetSerializer(sheet).data, status=status.HTTP_201_CREATED)


def _require_table_player_or_organiser(user: Any, table: RoundTable) -> None:
    """Score sheets are for the players at the table and the event's organisers."""
    if not (
        selectors.can_manage(user, table.round.tournament)
        or table.seats.filter(entry__user_id=user.pk).exists()
    ):
        raise PermissionDenied(_players_or_organisers())


def _players_or_organisers() -> str:
    from django.utils.translation import gettext as _

    return _("Only the organisers and the players at the table can do this.")


class SheetViewSet(viewsets.GenericViewSet):
    serializer_class = SheetSerializer
    queryset = PhysicalResult.objects.none()
    permission_classes = [IsAuthenticated, TokenScopes]
    lookup_value_regex = r"\d+"

    @extend_schema(
        summary="Confirm a score sheet",
        examples=[
            OpenApiExample(
                "Confirmed", value={**SHEET_EXAMPLE, "confirmed": True}, response_only=True
            )
        ],
        description="The latest version, by someone other than its submitter.",
        request=None,
        responses={200: SheetSerializer, **ERRORS},
    )
    @action(detail=True, methods=["post"])
    def confirm(self, request: Request, pk: str) -> Response:
        sheet = (
            PhysicalResult.objects.select_related("table__round__tournament").filter(pk=pk).first()
        )
        if sheet is None:
            raise NotFound()
        _require_table_player_or_organiser(request.user, sheet.table)
        with refusals(TournamentError):
            results.confirm_physical_result(sheet.pk, request.user)
        sheet.refresh_from_db()
        return Response(SheetSerializer(sheet).data)


@extend_schema_view(
    list=extend_schema(
        summary="Your notices",
        examples=[
            OpenApiExample(
                "Table ready",
                value={
                    "id": 3,
                    "kind": "table_ready",
                    "tournament": "friday-swiss",
                    "message": "Your table in round 2 is ready.",
                    "url": "/tables/40/",
                    "created": "2026-12-11T19:30:00Z",
                    "read": False,
                },
                response_only=True,
            )
        ],
        description="Newest first; yours only.",
    ),
)
class NoticeViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    serializer_class = NoticeSerializer
    permission_classes = [IsAuthenticated, TokenScopes]
    queryset = Notification.objects.none()

    def get_queryset(self) -> Any:
        notices = notifications_selectors.visible_notifications(self.request.user)
        if self.request.query_params.get("unread") in ("1", "true"):
            notices = notices.filter(read_at__isnull=True)
        return notices

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        rows = list(page) if page is not None else list(self.get_queryset())
        ids = {row.tournament_id for row in rows if row.tournament_id is not None}
        slugs = dict(Tournament.objects.filter(pk__in=ids).values_list("pk", "slug"))
        context = {**self.get_serializer_context(), "slugs": slugs}
        data = self.get_serializer(rows, many=True, context=context).data
        return self.get_paginated_response(data) if page is not None else Response(data)

    @extend_schema(
        summary="Mark notices read",
        parameters=[],
        request=MarkReadSerializer,
        responses={200: MarkedSerializer, **ERRORS},
        examples=[
            OpenApiExample("Two of them", value={"ids": [3, 4]}, request_only=True),
            OpenApiExample("Two marked", value={"marked": 2}, response_only=True),
        ],
    )
    @action(detail=False, methods=["post"])
    def read(self, request: Request) -> Response:
        form = MarkReadSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        return Response(
            {"marked": notify.mark_notices_read(request.user, form.validated_data["ids"])}
        )


SERIES_EXAMPLE = {
    "id": 3,
    "club": "hirschen",
    "name": "Club evening",
    "weekdays": [3],
    "start_time": "19:30:00",
    "time_zone": "Europe/Berlin",
    "weeks_ahead": 4,
    "active": True,
    "format": "swiss",
    "rounds": 4,
    "mode": "online",
    "table_size": 4,
    "rated": False,
    "members_only": True,
    "skipped_dates": ["2026-12-24"],
    "upcoming": [
        {
            "slug": "club-evening-2026-12-03",
            "name": "Club evening 2026-12-03",
            "starts_at": "2026-12-03T18:30:00Z",
            "status": "registration",
        }
    ],
}


@extend_schema_view(
    list=extend_schema(
        summary="Recurring events (series)",
        description="Every club's series, one club's with `?club=<slug>`; each with its "
        "schedule (weekdays 0 = Monday, local time and zone), skipped dates and next events.",
        parameters=[OpenApiParameter("club", str, description="A club's slug.")],
        examples=[
            OpenApiExample("Thursday club evening", value=SERIES_EXAMPLE, response_only=True)
        ],
    ),
    retrieve=extend_schema(
        summary="A series",
        examples=[
            OpenApiExample("Thursday club evening", value=SERIES_EXAMPLE, response_only=True)
        ],
        responses={200: SeriesSerializer, 404: ERRORS[404]},
    ),
)
class SeriesViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Read only: organisers create and edit series on the site (tournaments/series.py)."""

    serializer_class = SeriesSerializer
    lookup_value_regex = r"\d+"

    def get_queryset(self) -> Any:
        return selectors.public_series(self.request.query_params.get("club") or None)
