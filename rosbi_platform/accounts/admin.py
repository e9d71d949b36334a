from typing import Any

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from rosbi_platform.accounts import clubs, permissions, tokens
from rosbi_platform.accounts.models import (
    AccessToken,
    Club,
    ClubInvite,
    ClubMembership,
    ClubRequest,
    MembershipRequest,
    Profile,
    User,
)


class ProfileInline(admin.StackedInline):
    model = Profile
    can_delete = False


@admin.register(User)
class RosbiUserAdmin(UserAdmin):
    inlines = [ProfileInline]


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "display_name", "card_look", "language", "time_zone"]
    search_fields = ["user__username", "display_name"]
    list_filter = ["card_look", "language"]


class _ClubScoped:
    """Club rows for whoever may act on that club (``accounts.permissions``): its owners and
    organisers see them, site moderators see every club. ``is_staff`` only opens the admin;
    Django's model permissions are not asked (they would let any staff user with them act on
    every club)."""

    club_path = "club"

    def _club_id(self, obj: Any) -> int:
        return obj.pk if isinstance(obj, Club) else obj.club_id

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        queryset = super().get_queryset(request)  # type: ignore[misc]
        ids = permissions.managed_club_ids(request.user)
        if ids is None:
            return queryset
        return queryset.filter(**{f"{self.club_path}__in": ids})

    def has_module_permission(self, request: HttpRequest) -> bool:
        ids = permissions.managed_club_ids(request.user)
        return request.user.is_staff and (ids is None or bool(ids))

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is None:
            return self.has_module_permission(request)
        return request.user.is_staff and permissions.may_manage_club(
            request.user, self._club_id(obj)
        )

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ClubMembershipInline(admin.TabularInline):
    """Read-only: roles change on the club's members page (``accounts.clubs.change_role``),
    which keeps an owner and lets nobody raise their own role."""

    model = ClubMembership
    extra = 0
    fields = ["user", "role", "joined"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Club)
class ClubAdmin(_ClubScoped, admin.ModelAdmin):
    """Clubs are created from approved requests (or ``clubs.create_club``); a club's owners
    and site moderators edit its name and description."""

    club_path = "pk"
    list_display = ["name", "slug", "created"]
    search_fields = ["name"]
    fields = ["name", "slug", "description"]
    readonly_fields = ["slug"]
    inlines = [ClubMembershipInline]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is None:
            return self.has_module_permission(request)
        return request.user.is_staff and permissions.may_own_club(request.user, obj.pk)


@admin.register(ClubMembership)
class ClubMembershipAdmin(_ClubScoped, admin.ModelAdmin):
    list_display = ["club", "user", "role", "joined"]
    list_filter = ["role", "club"]
    search_fields = ["user__username", "club__name"]


@admin.register(AccessToken)
class AccessTokenAdmin(admin.ModelAdmin):
    """Tokens are made by their owners on the profile page; staff can only look and revoke."""

    list_display = ["name", "user", "prefix", "created_at", "last_used_at", "revoked_at"]
    list_filter = ["revoked_at"]
    search_fields = ["name", "user__username", "prefix"]
    readonly_fields = [
        "user",
        "name",
        "prefix",
        "scopes",
        "created_at",
        "last_used_at",
        "revoked_at",
    ]
    exclude = ["secret_hash"]
    actions = ["revoke"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description=_("Revoke the selected tokens"))
    def revoke(self, request: HttpRequest, queryset: QuerySet[AccessToken]) -> None:
        for token in queryset.select_related("user"):
            tokens.revoke_token(token.user, token.pk)


@admin.register(ClubRequest)
class ClubRequestAdmin(admin.ModelAdmin):
    """Users ask for clubs on the site; staff decide here with the actions (the services)."""

    list_display = ["name", "requested_by", "status", "created", "decided_at", "club"]
    list_filter = ["status"]
    search_fields = ["name", "requested_by__username"]
    readonly_fields = [
        "requested_by",
        "name",
        "slug",
        "description",
        "status",
        "created",
        "decided_at",
        "decided_by",
        "club",
    ]
    actions = ["approve", "decline"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_module_permission(self, request: HttpRequest) -> bool:
        return request.user.is_staff and permissions.may_decide_club_requests(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_module_permission(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_module_permission(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def _decide(self, request: HttpRequest, queryset: QuerySet[ClubRequest], decide) -> None:
        done = 0
        for club_request in queryset.order_by("pk"):
            try:
                decide(club_request.pk, request.user)
                done += 1
            except clubs.ClubError as error:
                self.message_user(request, f"{club_request.name}: {error}", messages.ERROR)
        if done:
            self.message_user(
                request, _("%(count)s requests decided.") % {"count": done}, messages.SUCCESS
            )

    @admin.action(description=_("Approve the selected club requests"))
    def approve(self, request: HttpRequest, queryset: QuerySet[ClubRequest]) -> None:
        self._decide(request, queryset, clubs.approve_club_request)

    @admin.action(description=_("Decline the selected club requests"))
    def decline(self, request: HttpRequest, queryset: QuerySet[ClubRequest]) -> None:
        self._decide(request, queryset, clubs.decline_club_request)


@admin.register(MembershipRequest)
class MembershipRequestAdmin(_ClubScoped, admin.ModelAdmin):
    list_display = ["club", "user", "status", "created", "decided_at"]
    list_filter = ["status", "club"]
    search_fields = ["user__username", "club__name"]
    readonly_fields = ["club", "user", "message", "status", "created", "decided_at", "decided_by"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(ClubInvite)
class ClubInviteAdmin(_ClubScoped, admin.ModelAdmin):
    list_display = ["club", "created_by", "created", "expires_at", "revoked_at", "uses"]
    list_filter = ["club"]
    readonly_fields = ["club", "created_by", "created", "expires_at", "revoked_at", "uses"]
    actions = ["revoke"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_view_permission(request, obj)  # the revoke action (the service asks)

    @admin.action(description=_("Revoke the selected invite links"))
    def revoke(self, request: HttpRequest, queryset: QuerySet[ClubInvite]) -> None:
        for invite in queryset:
            try:
                clubs.revoke_invite_link(invite.pk, request.user)
            except clubs.ClubError as error:
                self.message_user(request, f"{invite}: {error}", messages.ERROR)
