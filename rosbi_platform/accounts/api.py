"""API v1 for accounts: clubs with their members, and who the caller is."""

from __future__ import annotations

import json
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import Throttled
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from rosbi_platform.accounts import selectors
from rosbi_platform.accounts.deletion import AccountDeletionRefused, delete_account
from rosbi_platform.accounts.models import AccessToken, Club, ClubMembership
from rosbi_platform.accounts.personal_data import count_export, export_personal_data
from rosbi_platform.accounts.tokens import SCOPES
from rosbi_platform.api import ErrorSerializer, TokenScopes, paginated, refusals, token_of

SCOPE_READ = AccessToken.Scope.READ


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


class MeExportView(APIView):
    """ "Download my data" for programs: the same document as the profile page's button."""

    permission_classes = [IsAuthenticated, TokenScopes]

    @extend_schema(
        summary="Download my data",
        description=(
            "Everything Rosbi holds about the caller, as one JSON document: `accounts` "
            "(account, profile, clubs and roles, requests, invite links, API tokens as "
            "metadata, never their secrets), `friends` (whom you follow and block), "
            "`notifications`, `games` (your Parties with your own seat and result, tables, "
            "chat, votes, invitations, reports, abandoned rated Parties; no hands), "
            "`tournaments` (entries with rounds and standings, score sheets, announcements, "
            "club seasons) and `ratings` (ratings, every rating change, seasons, queue visits). "
            "Expensive, so limited (`PERSONAL_DATA_EXPORT_RATE`, 5 an hour): over it 429 with "
            "`Retry-After`. See docs/api.md."
        ),
        responses={
            200: OpenApiResponse(
                response=OpenApiTypes.OBJECT,
                description="The document (`format` 1).",
                examples=[
                    OpenApiExample(
                        "The start of an export",
                        value={
                            "format": 1,
                            "exported_at": "2026-12-05T10:00:00Z",
                            "user_id": 5,
                            "accounts": {
                                "account": {"username": "anna", "email": "anna@example.com"},
                                "api_tokens": [
                                    {"name": "my bot", "prefix": "rosbi_Ab12", "scopes": ["read"]}
                                ],
                            },
                            "games": {"parties": [{"partie_id": 7, "seat": 2, "total": 14}]},
                        },
                    )
                ],
            ),
            401: OpenApiResponse(ErrorSerializer),
            429: OpenApiResponse(ErrorSerializer),
        },
    )
    def get(self, request: Request) -> Response:
        wait = count_export(request.user)
        if wait:
            raise Throttled(wait)
        return Response(
            json.loads(json.dumps(export_personal_data(request.user), cls=DjangoJSONEncoder))
        )


class DeleteAccountSerializer(serializers.Serializer):
    password = serializers.CharField(
        help_text="The account's password, again.", style={"input_type": "password"}
    )


class DeletedSerializer(serializers.Serializer):
    deleted = serializers.BooleanField()


class MeDeleteView(APIView):
    """ "Delete my account" for programs: the password again, then the same action as the
    profile page (``accounts.deletion.delete_account``)."""

    permission_classes = [IsAuthenticated, TokenScopes]
    write_scope = SCOPE_READ

    @extend_schema(
        summary="Delete my account",
        description=(
            "Anonymises the caller for good: user name, e-mail, password, profile, tokens, "
            "sessions, memberships, friends, notifications, open seats and pending entries go; "
            "results, ratings and rating history stay (shown as “Deleted player”), so no other "
            "player's history changes. Refused (409 `refused`) while the caller plays at a table "
            "or is the last owner of a club; a wrong password is 400 `invalid`."
        ),
        request=DeleteAccountSerializer,
        examples=[
            OpenApiExample(
                "The password again", value={"password": "correct horse"}, request_only=True
            ),
            OpenApiExample("Deleted", value={"deleted": True}, response_only=True),
        ],
        responses={
            200: DeletedSerializer,
            400: OpenApiResponse(ErrorSerializer),
            401: OpenApiResponse(ErrorSerializer),
            409: OpenApiResponse(ErrorSerializer),
        },
    )
    def post(self, request: Request) -> Response:
        data = DeleteAccountSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if not request.user.check_password(data.validated_data["password"]):
            raise serializers.ValidationError({"password": [_("That is not your password.")]})
        with refusals(AccountDeletionRefused, statuses={"refused": 409}):
            delete_account(request.user)
        return Response({"deleted": True})
