"""API v1 for the ladder: leaderboard and around-me (ranks computed by PostgreSQL, one page
read), players (profile, rating, history, per-contract statistics, game history), the ranked
queue and seasons. Thin clients of ``ratings.selectors`` and ``ratings.ranked_queue``."""

from __future__ import annotations

import math
from typing import Any

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import selectors as games_selectors
from games.api import PARTIE_EXAMPLE
from games.serializers import PartieSerializer
from ratings import elo, profile_selectors, ranked_queue, selectors
from ratings.models import LADDER_POOL, PlayerRating, RatingChange, Season, SeasonStanding
from rosbi_platform.accounts.selectors import is_bot_account
from rosbi_platform.api import ErrorSerializer, TokenScopes, paginated, refusals
from rosbi_platform.client_ip import client_ip
from rosbi_platform.response_cache import cached_json

ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Refused."),
    401: OpenApiResponse(ErrorSerializer, description="No or an invalid token."),
    403: OpenApiResponse(ErrorSerializer, description="The token lacks the play scope."),
    404: OpenApiResponse(ErrorSerializer, description="No such player."),
}


def _name(user: Any) -> str:
    profile = getattr(user, "profile", None)
    return (profile.display_name if profile is not None else "") or user.get_username()


class LeaderboardRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    user_id = serializers.IntegerField()
    username = serializers.CharField()
    name = serializers.CharField()
    rating = serializers.IntegerField(help_text="Whole Elo points.")
    sigma = serializers.FloatField(help_text="Uncertainty, grown for days without play.")
    games = serializers.IntegerField()
    last_played = serializers.DateTimeField()

    def to_representation(self, row: PlayerRating) -> dict[str, Any]:
        return {
            "rank": row.rank,
            "user_id": row.user_id,
            "username": row.user.get_username(),
            "name": _name(row.user),
            "rating": math.floor(row.mu + 0.5),
            "sigma": round(selectors.shown_rating(row).sigma, 1),
            "games": row.games,
            "last_played": serializers.DateTimeField().to_representation(row.last_played),
        }


class AroundMeSerializer(serializers.Serializer):
    rank = serializers.IntegerField(allow_null=True, help_text="Null while not ranked.")
    rows = LeaderboardRowSerializer(many=True)


@extend_schema_view(
    list=extend_schema(
        summary="Leaderboard",
        description="Ranked players best first (rank, then page with `page` and "
        "`page_size`); ranks are computed by the database.",
        examples=[
            OpenApiExample(
                "First place",
                value={
                    "rank": 1,
                    "user_id": 7,
                    "username": "anna",
                    "name": "Anna",
                    "rating": 1712,
                    "sigma": 64.3,
                    "games": 118,
                    "last_played": "2026-11-30T18:02:11Z",
                },
                response_only=True,
            )
        ],
    ),
)
class LeaderboardViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    serializer_class = LeaderboardRowSerializer
    queryset = PlayerRating.objects.none()

    def get_queryset(self) -> Any:
        return selectors.ranked_leaderboard(LADDER_POOL)

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Any:
        """A page is the same for everyone between two numberings of the ladder (each
        minute, and 2 s after rating changes): built once per numbering."""
        parts = (
            "leaderboard",
            LADDER_POOL,
            selectors.leaderboard_version(LADDER_POOL),
            request.build_absolute_uri(),
        )
        build = lambda: super(LeaderboardViewSet, self).list(request, *args, **kwargs).data  # noqa: E731
        return cached_json(request, parts, build, seconds=120)

    @extend_schema(
        summary="Your place on the leaderboard",
        examples=[
            OpenApiExample(
                "Ranked 2nd",
                value={
                    "rank": 2,
                    "rows": [
                        {
                            "rank": 1,
                            "user_id": 7,
                            "username": "anna",
                            "name": "Anna",
                            "rating": 1712,
                            "sigma": 64.3,
                            "games": 118,
                            "last_played": "2026-11-30T18:02:11Z",
                        }
                    ],
                },
                response_only=True,
            )
        ],
        description="Your rank and the five ranks above and below (empty while not ranked).",
        responses={200: AroundMeSerializer, 401: ERRORS[401]},
    )
    @action(
        detail=False,
        methods=["get"],
        url_path="around-me",
        permission_classes=[IsAuthenticated, TokenScopes],
        pagination_class=None,
    )
    def around_me(self, request: Request) -> Response:
        rank = selectors.rank_of(request.user, LADDER_POOL)
        rows = selectors.around_rank(rank, LADDER_POOL) if rank is not None else []
        return Response({"rank": rank, "rows": LeaderboardRowSerializer(rows, many=True).data})


class RatingSerializer(serializers.Serializer):
    rating = serializers.IntegerField()
    display = serializers.CharField(help_text='"1623", or "1500?" while provisional.')
    sigma = serializers.FloatField()
    games = serializers.IntegerField()
    provisional = serializers.BooleanField()
    rank = serializers.IntegerField(allow_null=True)


class PlayerSerializer(serializers.Serializer):
    user_id = serializers.IntegerField()
    username = serializers.CharField()
    name = serializers.CharField()
    bot = serializers.BooleanField(help_text="The account is played by a program.")
    date_joined = serializers.DateTimeField()
    rating = RatingSerializer()


class RatingChangeSerializer(serializers.ModelSerializer):
    table_id = serializers.IntegerField(source="partie.table_id")
    delta = serializers.IntegerField(help_text="Whole Elo points won or lost.")

    class Meta:
        model = RatingChange
        fields = [
            "partie_id",
            "table_id",
            "finished_at",
            "seat",
            "total",
            "place",
            "left",
            "mu_before",
            "mu_after",
            "delta",
        ]
        read_only_fields = fields


class ContractStatSerializer(serializers.Serializer):
    contract = serializers.CharField()
    name = serializers.CharField()
    deals = serializers.IntegerField()
    average = serializers.FloatField(help_text="Your penalty points per deal.")
    table_average = serializers.FloatField(help_text="Everyone's at those deals.")
    edge = serializers.FloatField(help_text="Below 0: better than the table.")


def _player(username: str) -> Any:
    users = get_user_model().objects.select_related("profile")
    return get_object_or_404(users, username=username, is_active=True)


class PlayerViewSet(viewsets.GenericViewSet):
    """Players by user name: public, as on the ladder pages."""

    serializer_class = PlayerSerializer
    queryset = PlayerRating.objects.none()
    lookup_field = "username"
    lookup_value_regex = r"[\w.@+-]+"

    @extend_schema(
        summary="A player",
        examples=[
            OpenApiExample(
                "A ranked player",
                value={
                    "user_id": 7,
                    "username": "anna",
                    "name": "Anna",
                    "bot": False,
                    "date_joined": "2026-01-02T10:00:00Z",
                    "rating": {
                        "rating": 1712,
                        "display": "1712",
                        "sigma": 64.3,
                        "games": 118,
                        "provisional": False,
                        "rank": 1,
                    },
                },
                response_only=True,
            )
        ],
        responses={200: PlayerSerializer, 404: ERRORS[404]},
    )
    def retrieve(self, request: Request, username: str) -> Response:
        user = _player(username)
        row = selectors.rating_of(user, LADDER_POOL)
        shown = selectors.shown_rating(row)
        return Response(
            {
                "user_id": user.pk,
                "username": user.get_username(),
                "name": _name(user),
                "bot": is_bot_account(user),
                "date_joined": serializers.DateTimeField().to_representation(user.date_joined),
                "rating": {
                    "rating": int(shown.mu + 0.5),
                    "display": elo.display(shown),
                    "sigma": round(shown.sigma, 1),
                    "games": row.games if row is not None else 0,
                    "provisional": elo.is_provisional(shown),
                    "rank": selectors.rank_of(user, LADDER_POOL),
                },
            }
        )

    @extend_schema(
        summary="A player's rating history",
        examples=[
            OpenApiExample(
                "One rated Partie",
                value={
                    "count": 1,
                    "next": None,
                    "previous": None,
                    "results": [
                        {
                            "partie_id": 31,
                            "table_id": 40,
                            "finished_at": "2026-11-30T18:02:11Z",
                            "seat": 2,
                            "total": 12,
                            "place": 1,
                            "left": False,
                            "mu_before": 1700.0,
                            "mu_after": 1712.4,
                            "delta": 12,
                        }
                    ],
                },
                response_only=True,
            )
        ],
        description="One line per rated Partie, oldest first.",
        responses={200: paginated(RatingChangeSerializer), 404: ERRORS[404]},
    )
    @action(detail=True, methods=["get"], url_path="rating-history")
    def rating_history(self, request: Request, username: str) -> Response:
        user = _player(username)
        changes = (
            RatingChange.objects.filter(user=user, pool=LADDER_POOL)
            .select_related("partie")
            .order_by("finished_at", "partie_id")
        )
        page = self.paginate_queryset(changes)
        return self.get_paginated_response(RatingChangeSerializer(page, many=True).data)

    @extend_schema(
        summary="A player's penalties per contract",
        examples=[
            OpenApiExample(
                "Two contracts",
                value=[
                    {
                        "contract": "no_tricks",
                        "name": "Keine Stiche",
                        "deals": 20,
                        "average": 2.1,
                        "table_average": 2.6,
                        "edge": -0.5,
                    },
                    {
                        "contract": "no_hearts",
                        "name": "Keine Herzen",
                        "deals": 20,
                        "average": 3.4,
                        "table_average": 3.1,
                        "edge": 0.3,
                    },
                ],
                response_only=True,
            )
        ],
        responses={200: ContractStatSerializer(many=True), 404: ERRORS[404]},
    )
    @action(detail=True, methods=["get"], pagination_class=None)
    def contracts(self, request: Request, username: str) -> Response:
        user = _player(username)
        lines = profile_selectors.contract_lines(profile_selectors.player_seats(user, LADDER_POOL))
        return Response(
            [
                {
                    "contract": line.contract,
                    "name": line.name,
                    "deals": line.deals,
                    "average": round(line.average, 3),
                    "table_average": round(line.table_average, 3),
                    "edge": round(line.edge, 3),
                }
                for line in lines
            ]
        )

    @extend_schema(
        summary="A player's finished Parties",
        examples=[
            OpenApiExample(
                "A page",
                value={"count": 1, "next": None, "previous": None, "results": [PARTIE_EXAMPLE]},
                response_only=True,
            )
        ],
        description="Those you may see: public tables', and private ones you played too.",
        responses={200: paginated(PartieSerializer), 404: ERRORS[404]},
    )
    @action(detail=True, methods=["get"])
    def games(self, request: Request, username: str) -> Response:
        user = _player(username)
        parties = games_selectors.finished_parties(request.user, player_id=user.pk)
        page = self.paginate_queryset(parties)
        return self.get_paginated_response(PartieSerializer(page, many=True).data)


class QueueStatusSerializer(serializers.Serializer):
    waiting = serializers.BooleanField()
    waited_seconds = serializers.IntegerField()
    queue_size = serializers.IntegerField()
    table_id = serializers.IntegerField(allow_null=True, help_text="Your running ranked table.")


def _status(request: Request) -> dict[str, Any]:
    status = selectors.queue_status(request.user)
    return {
        "waiting": status.waiting,
        "waited_seconds": status.waited_seconds,
        "queue_size": status.queue_size,
        "table_id": status.table_id,
    }


class QueueView(APIView):
    """The ranked queue: your status (anyone: the queue's size), join and leave (``play``)."""

    @extend_schema(
        summary="Ranked queue status",
        examples=[
            OpenApiExample(
                "Waiting",
                value={"waiting": True, "waited_seconds": 42, "queue_size": 5, "table_id": None},
                response_only=True,
            )
        ],
        responses={200: QueueStatusSerializer},
    )
    def get(self, request: Request) -> Response:
        return Response(_status(request))


class QueueJoinView(APIView):
    permission_classes = [IsAuthenticated, TokenScopes]

    @extend_schema(
        summary="Join the ranked queue",
        examples=[
            OpenApiExample(
                "Waiting",
                value={"waiting": True, "waited_seconds": 0, "queue_size": 6, "table_id": None},
                response_only=True,
            )
        ],
        description="Joining twice keeps your first place in the queue. Whoever may not play "
        "rated now (`ratings/eligibility.py`: bot accounts, ...) is refused.",
        request=None,
        responses={200: QueueStatusSerializer, **ERRORS},
    )
    def post(self, request: Request) -> Response:
        with refusals(ranked_queue.QueueError):
            ranked_queue.join_queue(request.user, ip=client_ip(request))
        return Response(_status(request))


class QueueLeaveView(APIView):
    permission_classes = [IsAuthenticated, TokenScopes]

    @extend_schema(
        summary="Leave the ranked queue",
        examples=[
            OpenApiExample(
                "Not waiting",
                value={"waiting": False, "waited_seconds": 0, "queue_size": 5, "table_id": None},
                response_only=True,
            )
        ],
        request=None,
        responses={200: QueueStatusSerializer, **ERRORS},
    )
    def post(self, request: Request) -> Response:
        ranked_queue.leave_queue(request.user)
        return Response(_status(request))


class SeasonSerializer(serializers.ModelSerializer):
    class Meta:
        model = Season
        fields = ["id", "name", "started_at", "closed_at"]
        read_only_fields = fields


class SeasonStandingSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username")

    class Meta:
        model = SeasonStanding
        fields = ["rank", "user_id", "username", "mu", "games", "season_games", "display"]
        read_only_fields = fields


@extend_schema_view(
    list=extend_schema(
        summary="Ladder seasons",
        examples=[
            OpenApiExample(
                "A season",
                value={
                    "id": 3,
                    "name": "Winter 2026",
                    "started_at": "2026-10-01T00:00:00Z",
                    "closed_at": None,
                },
                response_only=True,
            )
        ],
        description="The open one first.",
    ),
    retrieve=extend_schema(
        summary="One season",
        examples=[
            OpenApiExample(
                "A season",
                value={
                    "id": 3,
                    "name": "Winter 2026",
                    "started_at": "2026-10-01T00:00:00Z",
                    "closed_at": None,
                },
                response_only=True,
            )
        ],
        responses={200: SeasonSerializer, 404: ERRORS[404]},
    ),
)
class SeasonViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = SeasonSerializer
    queryset = Season.objects.filter(pool=LADDER_POOL).order_by("-started_at", "-pk")
    lookup_value_regex = r"\d+"

    @extend_schema(
        summary="A closed season's final standings",
        examples=[
            OpenApiExample(
                "The champion",
                value={
                    "count": 1,
                    "next": None,
                    "previous": None,
                    "results": [
                        {
                            "rank": 1,
                            "user_id": 7,
                            "username": "anna",
                            "mu": 1712.4,
                            "games": 118,
                            "season_games": 40,
                            "display": "1712",
                        }
                    ],
                },
                response_only=True,
            )
        ],
        responses={200: paginated(SeasonStandingSerializer), 404: ERRORS[404]},
    )
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, pk: str) -> Response:
        season = self.get_object()
        rows = (
            SeasonStanding.objects.filter(season=season)
            .select_related("user")
            .order_by("rank", "-mu", "user_id")
        )
        page = self.paginate_queryset(rows)
        return self.get_paginated_response(SeasonStandingSerializer(page, many=True).data)
