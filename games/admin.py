"""Admin: tables with their seats, the read-only event log, results, chat moderation.

The admin changes live tables only through the games actions (``games.lobby``,
``games.handoff``), so events, versions, broadcasts and queued tasks happen exactly as when
the same thing is done from the site.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin, messages
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games import handoff, lobby, reports
from games.events import ServiceError
from games.models import (
    ChatMessage,
    ChatReport,
    Partie,
    PartieDeal,
    Seat,
    SeatResult,
    Table,
    TableEvent,
    TableMute,
)
from rosbi_platform.accounts.permissions import is_site_moderator


class ModeratorsOnly:
    """The games' admin pages are for site moderators (``accounts.permissions``): being
    staff opens the admin, it shows no table, Partie, chat line or report."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_site_moderator(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_site_moderator(request.user)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_site_moderator(request.user)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_site_moderator(request.user)


class SeatInline(admin.TabularInline):
    """Seats change only by joining, leaving, starting and the clocks: read-only here."""

    model = Seat
    extra = 0
    fields = ("number", "user", "bot_level", "away", "started_by", "left_at")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.action(description=_("Replay as record (download the RULES.md Partie records)"))
def replay_as_record(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset) -> HttpResponse:
    records = []
    for table in queryset.select_related("partie"):
        partie = getattr(table, "partie", None)
        if partie is not None and partie.finished_at is not None:  # no hand of a deal in play
            records.append(partie.to_record().to_dict())
    body = "\n".join(json.dumps(r) for r in records) + ("\n" if records else "")
    response = HttpResponse(body, content_type="application/x-ndjson")
    response["Content-Disposition"] = 'attachment; filename="parties.jsonl"'
    return response


@admin.register(Table)
class TableAdmin(ModeratorsOnly, admin.ModelAdmin):
    """Tables are created in the lobby (or by tournaments and the ranked queue), never here.

    Everything the games actions own is read-only: status, size, house rules (doubling,
    layout), the versions and the turn, rated, rating pool, ranked queue, tournament round,
    owner, invite code and the seats (inline). Changes go through the admin actions, which
    call the same actions as the site: "Start the selected open tables, bots in empty seats"
    (``lobby.start_table`` with ``fill_with_bots=True``) and "Hand off finished Parties not
    handed off yet" (``handoff.hand_off_partie_result``).

    While a table is open, its name, public flag, time per move and bot level stay editable:
    harmless before the start, and saved through ``lobby.change_open_table`` (only those
    fields, under the table lock, refused once the table has started). Once it has started
    they are read-only too: the clocks and the bots already use them.
    """

    list_display = ("id", "name", "size", "status", "rated", "public", "version", "created")
    list_filter = ("status", "rated", "public", "size")
    search_fields = ("name", "owner__username")
    fields = (
        "name",
        "owner",
        "status",
        "size",
        "public",
        "turn_seconds",
        "bot_level",
        "fill_with_bots",
        "doubling",
        "layout",
        "rated",
        "rating_pool",
        "ranked_queue",
        "tournament_round_id",
        "invite_code",
        "version",
        "state_version",
        "turn_seat",
        "turn_deadline",
        "bot_due_at",
        "created",
        "started_at",
        "finished_at",
    )
    inlines = [SeatInline]
    actions = [replay_as_record, "start_with_bots", "hand_off_results"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        if obj is not None and obj.status == Table.Status.OPEN:
            return tuple(f for f in self.fields if f not in lobby.OPEN_TABLE_SETTINGS)
        return self.fields

    def save_model(self, request: HttpRequest, obj: Table, form: Any, change: bool) -> None:
        """Write only the changed open-table settings, through the lobby action."""
        changes = {
            field: form.cleaned_data[field]
            for field in form.changed_data
            if field in lobby.OPEN_TABLE_SETTINGS
        }
        if not changes:
            return
        try:
            lobby.change_open_table(obj.pk, request.user, **changes)
        except ServiceError as error:
            self.message_user(request, f"{obj}: {error.message}", messages.ERROR)

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        """Save nothing: the seats change only through the games actions (the inline is
        read-only, and whatever a hand-made POST puts into it is dropped here)."""
        formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []

    @admin.action(
        description=_("Start the selected open tables, bots in empty seats"),
        permissions=["change"],
    )
    def start_with_bots(self, request: HttpRequest, queryset) -> None:
        started = 0
        for table_id in queryset.filter(status=Table.Status.OPEN).values_list("pk", flat=True):
            try:
                lobby.start_table_as_moderator(table_id, request.user)
            except ServiceError as error:
                self.message_user(request, f"#{table_id}: {error.message}", messages.ERROR)
            else:
                started += 1
        summary = ngettext("%(count)s table started.", "%(count)s tables started.", started)
        self.message_user(request, summary % {"count": started})

    @admin.action(
        description=_("Hand off finished Parties not handed off yet"), permissions=["change"]
    )
    def hand_off_results(self, request: HttpRequest, queryset) -> None:
        parties = Partie.objects.filter(
            table__in=queryset, finished_at__isnull=False, handed_off=False
        ).values_list("pk", flat=True)
        handed = sum(1 for partie_id in parties if handoff.hand_off_partie_result(partie_id))
        summary = ngettext("%(count)s Partie handed off.", "%(count)s Parties handed off.", handed)
        self.message_user(request, summary % {"count": handed})


class ReadOnlyAdmin(ModeratorsOnly, admin.ModelAdmin):
    """The event log is append-only: admins read it, nobody edits it here."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(TableEvent)
class TableEventAdmin(ReadOnlyAdmin):
    """The event log holds the hands dealt: only of tables no longer in play (finished or
    aborted), so nobody reads a hand of a deal in progress here."""

    list_display = ("table", "version", "kind", "created")
    list_filter = ("kind",)
    search_fields = ("table__id",)

    def get_queryset(self, request: HttpRequest):
        return (
            super()
            .get_queryset(request)
            .filter(table__status__in=[Table.Status.FINISHED, Table.Status.ABORTED])
        )


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
class ChatMessageAdmin(ModeratorsOnly, admin.ModelAdmin):
    list_display = ("table", "author", "channel", "text", "created")
    list_filter = ("channel",)
    raw_id_fields = ("author", "table")


@admin.register(TableMute)
class TableMuteAdmin(ModeratorsOnly, admin.ModelAdmin):
    list_display = ("table", "user", "muted_by", "created")
    raw_id_fields = ("table", "user", "muted_by")


@admin.register(ChatReport)
class ChatReportAdmin(ModeratorsOnly, admin.ModelAdmin):
    """The site moderators' queue of reported chat lines (filter by status "Open"). Reports are handled
    only through the actions, which call ``games.reports``: dismiss, or mute the author at
    the line's table."""

    list_display = ("created", "status", "reporter", "author", "line", "table", "reason")
    list_filter = ("status",)
    search_fields = ("message__text", "reporter__username", "message__author__username")
    list_select_related = ("reporter", "message__author", "message__table")
    fields = (
        "message",
        "reporter",
        "reason",
        "status",
        "created",
        "handled_by",
        "handled_at",
    )
    readonly_fields = fields
    actions = ["dismiss", "mute_author"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description=_("author"))
    def author(self, report: ChatReport) -> str:
        return str(report.message.author)

    @admin.display(description=_("message"))
    def line(self, report: ChatReport) -> str:
        return report.message.text

    @admin.display(description=_("table"))
    def table(self, report: ChatReport) -> str:
        return str(report.message.table)

    def _run(self, request: HttpRequest, queryset, action) -> int:
        handled = 0
        for report_id in queryset.values_list("pk", flat=True):
            try:
                action(report_id, request.user)
            except ServiceError as error:
                self.message_user(request, f"#{report_id}: {error.message}", messages.WARNING)
            else:
                handled += 1
        return handled

    @admin.action(description=_("Dismiss the selected reports"), permissions=["change"])
    def dismiss(self, request: HttpRequest, queryset) -> None:
        count = self._run(request, queryset, reports.dismiss_report)
        summary = ngettext("%(count)s report dismissed.", "%(count)s reports dismissed.", count)
        self.message_user(request, summary % {"count": count})

    @admin.action(
        description=_("Mute the authors at their tables and close the reports"),
        permissions=["change"],
    )
    def mute_author(self, request: HttpRequest, queryset) -> None:
        count = self._run(request, queryset, reports.mute_reported_author)
        summary = ngettext(
            "%(count)s report closed by a mute.", "%(count)s reports closed by a mute.", count
        )
        self.message_user(request, summary % {"count": count})
