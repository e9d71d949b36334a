"""Admin: tables with their seats, the read-only event log, results, chat moderation."""

from __future__ import annotations

import json

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy as _

from games.models import (
    ChatMessage,
    Partie,
    PartieDeal,
    Seat,
    SeatResult,
    Table,
    TableEvent,
    TableMute,
)


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("number", "user", "bot_level", "away")
    raw_id_fields = ("user",)


@admin.action(description=_("Replay as record (download the RULES.md Partie records)"))
def replay_as_record(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset) -> HttpResponse:
    records = []
    for table in queryset.select_related("partie"):
        partie = getattr(table, "partie", None)
        if partie is not None:
            records.append(partie.to_record().to_dict())
    body = "\n".join(json.dumps(r) for r in records) + ("\n" if records else "")
    response = HttpResponse(body, content_type="application/x-ndjson")
    response["Content-Disposition"] = 'attachment; filename="parties.jsonl"'
    return response


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("id", "name", "size", "status", "rated", "public", "version", "created")
    list_filter = ("status", "rated", "public", "size")
    search_fields = ("name", "owner__username")
    readonly_fields = ("version", "state_version", "turn_seat", "turn_deadline", "invite_code")
    raw_id_fields = ("owner",)
    inlines = [SeatInline]
    actions = [replay_as_record]


class ReadOnlyAdmin(admin.ModelAdmin):
    """The event log is append-only: admins read it, nobody edits it here."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(TableEvent)
class TableEventAdmin(ReadOnlyAdmin):
    list_display = ("table", "version", "kind", "created")
    list_filter = ("kind",)
    search_fields = ("table__id",)


class PartieDealInline(admin.TabularInline):
    model = PartieDeal
    extra = 0
    fields = ("number", "contract", "dealer", "penalties", "finished_at")
    readonly_fields = fields
    can_delete = False


class SeatResultInline(admin.TabularInline):
    model = SeatResult
    extra = 0
    readonly_fields = ("seat", "user", "bot_level", "total", "place")
    can_delete = False


@admin.register(Partie)
class PartieAdmin(ReadOnlyAdmin):
    list_display = ("id", "table", "first_dealer", "started_at", "finished_at", "handed_off")
    inlines = [PartieDealInline, SeatResultInline]


@admin.register(SeatResult)
class SeatResultAdmin(ReadOnlyAdmin):
    list_display = ("partie", "seat", "user", "bot_level", "total", "place")


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("table", "author", "channel", "text", "created")
    list_filter = ("channel",)
    raw_id_fields = ("author", "table")


@admin.register(TableMute)
class TableMuteAdmin(admin.ModelAdmin):
    list_display = ("table", "user", "muted_by", "created")
    raw_id_fields = ("table", "user", "muted_by")
