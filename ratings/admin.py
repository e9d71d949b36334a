"""Admin for ratings: ratings, the rating ledger, changes, the ranked queue and seasons.

Ratings, rating changes and the ledger are read-only here: they change only through the
actions (``ratings.updates``, ``ratings.seasons``), which replay history under the pool's ledger
lock (``manage.py recompute_ratings`` rebuilds a pool). The collusion report is a staff page
(``ratings:collusion``), linked from the change list of rating changes.
"""

from __future__ import annotations

from django.contrib import admin

from ratings.models import (
    LadderQueueEntry,
    PlayerRating,
    RatedPartie,
    RatingChange,
    RatingLedger,
    Season,
    SeasonStanding,
)


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
    list_display = ("user", "status", "joined_at", "ip", "table", "closed_at")
    list_filter = ("status", "pool")
    search_fields = ("user__username", "ip")
    raw_id_fields = ("user", "table")


class SeasonStandingInline(admin.TabularInline):
    model = SeasonStanding
    extra = 0
    raw_id_fields = ("user",)


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ("name", "pool", "started_at", "closed_at")
    inlines = [SeasonStandingInline]
