from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from rosbi_platform.accounts import clubs, tokens
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


class ClubMembershipInline(admin.TabularInline):
    model = ClubMembership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "created"]
    prepopulated_fields = {"slug": ["name"]}
    search_fields = ["name"]
    inlines = [ClubMembershipInline]


@admin.register(ClubMembership)
class ClubMembershipAdmin(admin.ModelAdmin):
    list_display = ["club", "user", "role", "joined"]
    list_filter = ["role", "club"]
    autocomplete_fields = ["user", "club"]


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
class MembershipRequestAdmin(admin.ModelAdmin):
    list_display = ["club", "user", "status", "created", "decided_at"]
    list_filter = ["status", "club"]
    search_fields = ["user__username", "club__name"]
    readonly_fields = ["club", "user", "message", "status", "created", "decided_at", "decided_by"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(ClubInvite)
class ClubInviteAdmin(admin.ModelAdmin):
    list_display = ["club", "created_by", "created", "expires_at", "revoked_at", "uses"]
    list_filter = ["club"]
    readonly_fields = ["club", "created_by", "created", "expires_at", "revoked_at", "uses"]
    actions = ["revoke"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description=_("Revoke the selected invite links"))
    def revoke(self, request: HttpRequest, queryset: QuerySet[ClubInvite]) -> None:
        for invite in queryset:
            clubs.revoke_invite_link(invite.pk, request.user)
