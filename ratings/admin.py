"""Admin for ratings: ratings, the rating ledger, changes, the ranked queue and seasons.

Ratings, rating changes and the ledger are read-only here: they change only through the
actions (``ratings.updates``, ``ratings.seasons``), which replay history under the pool's ledger
lock (``manage.py recompute_ratings`` rebuilds a pool). Queue entries show and search their IP
address only to holders of ``ratings.view_collusion_report`` (moderators), like the collusion
report (``ratings:collusion``): club organisers are staff too and must not see addresses.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ratings import seasons
from ratings.models import (
    LadderQueueEntry,
    PlayerRating,
    RatedPartie,
    RatingChange,
    RatingLedger,
    Season,
    SeasonStanding,
)
from ratings.permissions import may_see_addresses


class ReadOnlyAdmin(admin.ModelAdmin):
    """Viewable, never added, changed or deleted here: rows written only by the actions."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(PlayerRating)
class PlayerRatingAdmin(ReadOnlyAdmin):
    list_display = ("user", "pool", "display", "mu", "sigma", "games", "last_played")
    list_filter = ("pool",)
    search_fields = ("user__username",)
    raw_id_fields = ("user",)
    ordering = ("pool", "-mu")


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ("partie", "user", "pool", "place", "total", "left", "mu_before", "mu_after")
    list_filter = ("pool", "left")
    search_fields = ("user__username",)
    raw_id_fields = ("user", "partie")
    date_hierarchy = "finished_at"


@admin.register(RatedPartie)
class RatedPartieAdmin(admin.ModelAdmin):
    list_display = ("partie", "pool", "status", "finished_at", "applied_at")
    list_filter = ("pool", "status")
    raw_id_fields = ("partie",)
    readonly_fields = ("participants",)


@admin.register(RatingLedger)
class RatingLedgerAdmin(ReadOnlyAdmin):
    list_display = ("pool", "applied", "last_finished_at", "last_partie_id")


@admin.register(LadderQueueEntry)
class LadderQueueEntryAdmin(admin.ModelAdmin):
    """The address column, field and search exist only for those allowed to see addresses."""

    list_display = ("user", "status", "joined_at", "ip", "table", "closed_at")
    list_filter = ("status", "pool")
    search_fields = ("user__username", "ip")
    raw_id_fields = ("user", "table")

    def get_list_display(self, request):
        shown = super().get_list_display(request)
        return shown if may_see_addresses(request.user) else [f for f in shown if f != "ip"]

    def get_search_fields(self, request):
        fields = super().get_search_fields(request)
        return fields if may_see_addresses(request.user) else [f for f in fields if f != "ip"]

    def get_exclude(self, request, obj=None):
        excluded = list(super().get_exclude(request, obj) or [])
        return excluded if may_see_addresses(request.user) else [*excluded, "ip"]


class SeasonStandingInline(admin.TabularInline):
    """A closed season's archived standings: shown, never edited."""

    model = SeasonStanding
    extra = 0
    raw_id_fields = ("user",)

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    """Seasons open and close only through ``ratings.seasons``: here a season's name and planned
    end (``ends_at``, when beat closes it) can be edited, and the action closes it now."""

    list_display = ("__str__", "number", "pool", "started_at", "ends_at", "closed_at")
    readonly_fields = ("pool", "number", "started_at", "closed_at", "reset_pull", "reset_sigma")
    inlines = [SeasonStandingInline]
    actions = ["close_selected_seasons"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False  # the next season opens when one closes (``close_season``)

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # a closed season's reset is part of the ratings' history

    @admin.action(
        permissions=["change"],
        description=_("Close the selected seasons now (archive, soft reset, open the next)"),
    )
    def close_selected_seasons(self, request: HttpRequest, queryset: QuerySet[Season]) -> None:
        """Close each selected open season through ``close_season``; a closed one is left as
        it is (the action is idempotent: a second click or a stale page closes nothing)."""
        closed, already = [], []
        for season in queryset.order_by("pool", "number"):
            now = timezone.now()
            try:
                result = seasons.close_season(season.pool, now=now, season=season.pk)
            except ValueError:
                self.message_user(
                    request,
                    gettext("%(season)s cannot close before Parties that are already rated.")
                    % {"season": season.title},
                    messages.ERROR,
                )
                continue
            (closed if result.closed_at == now else already).append(season.title)
        if closed:
            self.message_user(
                request,
                gettext("Closed: %(seasons)s.") % {"seasons": ", ".join(closed)},
                messages.SUCCESS,
            )
        if already:
            self.message_user(
                request,
                gettext("Already closed, nothing changed: %(seasons)s.")
                % {"seasons": ", ".join(already)},
                messages.WARNING,
            )
