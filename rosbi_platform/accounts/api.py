"""API v1 for accounts: clubs with their members, and who the caller is."""

from __future__ import annotations

from typing import Any

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

from rosbi_platform.accounts import selectors
from rosbi_platform.accounts.models import Club, ClubMembership
from rosbi_platform.accounts.tokens import SCOPES
from rosbi_platform.api import ErrorSerializer, TokenScopes, paginated, token_of


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "slug", "name", "description", "created"]
        read_only_fields = fields


class MemberSerializer(serializers.Serializer):
    user_id = serializers.IntegerField()
    username = serializers.CharField()
    name = serializers.CharField()
    role = serializers.ChoiceField(choices=ClubMembership.Role.choices)
    joined = serializers.DateTimeField()

    def to_representation(self, membership: ClubMembership) -> dict[str, Any]:
        user = membership.user
        profile = getattr(user, "profile", None)
        return {
            "user_id": user.pk,
            "username": user.get_username(),
            "name": (profile.display_name if profile is not None else "") or user.get_username(),
            "role": membership.role,
            "joined": serializers.DateTimeField().to_representation(membership.joined),
        }


@extend_schema_view(
    list=extend_schema(
        summary="Clubs",
        examples=[
            OpenApiExample(
                "A club",
                value={
                    "id": 1,
                    "slug": "skat-friends",
                    "name": "Skat Friends",
                    "description": "Thursdays at the Krone.",
                    "created": "2026-01-10T18:00:00Z",
                },
                response_only=True,
            )
        ],
        description="Every club, by name.",
    ),
    retrieve=extend_schema(
        summary="One club",
        examples=[
            OpenApiExample(
                "A club",
                value={
                    "id": 1,
                    "slug": "skat-friends",
                    "name": "Skat Friends",
                    "description": "Thursdays at the Krone.",
                    "created": "2026-01-10T18:00:00Z",
                },
                response_only=True,
            )
        ],
        responses={200: ClubSerializer, 404: OpenApiResponse(ErrorSerializer)},
    ),
)
class ClubViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Clubs are public, as their pages are; so are their members and roles."""

    serializer_class = ClubSerializer
    lookup_field = "slug"
    lookup_value_regex = r"[-a-zA-Z0-9_]+"

    def get_queryset(self) -> Any:
        return selectors.list_clubs().order_by("name", "pk")

    @extend_schema(
        summary="A club's members",
        examples=[
            OpenApiExample(
                "Members",
                value={
                    "count": 1,
                    "next": None,
                    "previous": None,
                    "results": [
                        {
                            "user_id": 5,
                            "username": "anna",
                            "name": "Anna",
                            "role": "organiser",
                            "joined": "2026-01-10T18:00:00Z",
                        }
                    ],
                },
                response_only=True,
            )
        ],
        responses={200: paginated(MemberSerializer), 404: OpenApiResponse(ErrorSerializer)},
    )
    @action(detail=True, methods=["get"])
    def members(self, request: Request, slug: str) -> Response:
        club = self.get_object()
        page = self.paginate_queryset(selectors.club_members(club))
        return self.get_paginated_response(MemberSerializer(page, many=True).data)


class MeSerializer(serializers.Serializer):
    user_id = serializers.IntegerField()
    username = serializers.CharField()
    name = serializers.CharField()
    bot = serializers.BooleanField()
    scopes = serializers.ListField(child=serializers.ChoiceField(choices=SCOPES))


class MeView(APIView):
    """Who the token (or session) belongs to, and what it may do."""

    permission_classes = [IsAuthenticated, TokenScopes]

    @extend_schema(
        summary="You",
        examples=[
            OpenApiExample(
                "A bot's token",
                value={
                    "user_id": 9,
                    "username": "rosbot",
                    "name": "Rosbot",
                    "bot": True,
                    "scopes": ["read", "play"],
                },
                response_only=True,
            )
        ],
        responses={200: MeSerializer, 401: OpenApiResponse(ErrorSerializer)},
    )
    def get(self, request: Request) -> Response:
        user = request.user
        token = token_of(request)
        profile = getattr(user, "profile", None)
        return Response(
            {
                "user_id": user.pk,
                "username": user.get_username(),
                "name": (profile.display_name if profile is not None else "")
                or user.get_username(),
                "bot": selectors.is_bot_account(user),
                "scopes": list(token.scopes) if token is not None else list(SCOPES),
            }
        )
