"""Admin for tournaments: organisers see and change only their own club's events.

The admin writes through the action modules, like the pages and the scheduler: an entry's
status, a round's status, seating and results are read-only here; check-in, withdrawal,
starting and re-seating rounds, rescheduling and standings go through admin actions (or the
round times of the event's form) that call them, and every one of them lands in the audit log
(``AuditLog``, read-only here).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments import entries, events, exports, results, rounds, selectors
from tournaments.common import TournamentError, log_action
from tournaments.models import AuditLog, Entry, PhysicalResult, Round, Standing, Tournament


class _ClubScoped:
    """Rows visible and changeable only for superusers and the club's organisers."""

    club_path = "club"

    def get_queryset(self, request: HttpRequest):
        queryset = super().get_queryset(request)  # type: ignore[misc]
        if request.user.is_superuser:
            return queryset
        return queryset.filter(
            **{f"{self.club_path}__in": selectors.managed_club_ids(request.user)}
        )

    def _may(self, request: HttpRequest, obj: Any) -> bool:
        if obj is None:
            return request.user.is_superuser or bool(selectors.managed_club_ids(request.user))
        tournament = obj if isinstance(obj, Tournament) else obj.tournament
        return selectors.can_manage(request.user, tournament)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_staff and self._may(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_staff and self._may(request, obj)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_staff and self._may(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_staff and self._may(request, obj)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return request.user.is_staff and self._may(request, None)


class RoundInline(admin.TabularInline):
    """Rounds come from the event's ``rounds``; only a start time is edited here, and a changed
    one goes through ``rounds.reschedule_round`` (``TournamentAdmin.save_formset``)."""

    model = Round
    extra = 0
    fields = ["number", "status", "scheduled_at", "started_at", "finished_at"]
    readonly_fields = ["number", "status", "started_at", "finished_at"]

    def has_change_permission(self, request, obj=None):
        return obj is None or selectors.can_manage(request.user, obj)

    def has_add_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_view_permission(self, request, obj=None):
        return obj is None or selectors.can_manage(request.user, obj)


class EntryInline(admin.TabularInline):
    """Read-only: entries come from registration; check-in and withdrawal are actions of the
    entries' admin (``EntryAdmin``)."""

    model = Entry
    extra = 0
    fields = ["user", "status", "plays_online", "rating", "first_round", "seed_number"]
    readonly_fields = fields

    def has_change_permission(self, request, obj=None):
        return False

    def has_add_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    has_view_permission = RoundInline.has_view_permission


@admin.register(Tournament)
class TournamentAdmin(_ClubScoped, admin.ModelAdmin):
    list_display = [
        "name",
        "club",
        "format",
        "mode",
        "starts_at",
        "status",
        "waiting_because",
        "rounds",
    ]
    readonly_fields = ["waiting_because"]
    list_filter = ["status", "format", "mode", "club"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [RoundInline, EntryInline]
    actions = [
        "cancel_tournaments",
        "start_with_fewer_players",
        "open_registration",
        "start_next_round",
        "reseat_next_round",
        "recompute_standings",
        "export_standings_csv",
        "export_results_csv",
    ]

    @admin.display(description=gettext_lazy("waiting because"))
    def waiting_because(self, obj: Tournament) -> str:
        """Why an event waits for the organiser's decision (empty otherwise)."""
        return selectors.hold_reason_text(obj) if obj.status == Tournament.Status.ON_HOLD else ""

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "club" and not request.user.is_superuser:
            from rosbi_platform.accounts.models import Club

            kwargs["queryset"] = Club.objects.filter(
                pk__in=selectors.managed_club_ids(request.user)
            )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request, obj, form, change):
        events.save_tournament(obj, request.user, adding=not change)

    def save_formset(self, request, form, formset, change):
        """Entries are read-only; a round's changed start time is a ``reschedule_round``, and
        round 1's of an event waiting for a decision postpones it (``postpone_tournament``)."""
        if formset.model is not Round:
            return
        for round_form in formset.initial_forms:
            when = round_form.cleaned_data.get("scheduled_at")
            if "scheduled_at" not in round_form.changed_data or when is None:
                continue
            round_ = round_form.instance
            try:
                if round_.number == 1 and form.instance.status == Tournament.Status.ON_HOLD:
                    events.postpone_tournament(form.instance.pk, when, by=request.user)
                else:
                    rounds.reschedule_round(round_.pk, when, by=request.user)
            except TournamentError as error:
                self.message_user(request, f"{round_form.instance}: {error}", messages.ERROR)

    def _each(self, request, queryset, label: str, run) -> None:
        done = 0
        for tournament in queryset:
            try:
                if run(tournament):
                    done += 1
            except TournamentError as error:
                self.message_user(request, f"{tournament}: {error}", messages.ERROR)
        total = queryset.count()
        summary = ngettext(
            "%(label)s: %(done)s of %(total)s event.",
            "%(label)s: %(done)s of %(total)s events.",
            total,
        )
        self.message_user(request, summary % {"label": label, "done": done, "total": total})

    @admin.action(description=gettext_lazy("Cancel the event (players are told)"))
    def cancel_tournaments(self, request, queryset):
        self._each(
            request,
            queryset,
            _("Event cancelled"),
            lambda t: events.cancel_tournament(t.pk, by=request.user),
        )

    @admin.action(description=gettext_lazy("Start now with the players who are ready"))
    def start_with_fewer_players(self, request, queryset):
        self._each(
            request,
            queryset,
            _("Event started"),
            lambda t: rounds.start_with_fewer_players(t.pk, by=request.user),
        )

    @admin.action(description=gettext_lazy("Open registration"))
    def open_registration(self, request, queryset):
        self._each(
            request,
            queryset,
            _("Registration opened"),
            lambda t: events.open_registration(t.pk, by=request.user),
        )

    @admin.action(description=gettext_lazy("Start the next round now"))
    def start_next_round(self, request, queryset):
        self._each(
            request,
            queryset,
            _("Round started"),
            lambda t: rounds.start_next_round(t.pk, by=request.user),
        )

    @admin.action(description=gettext_lazy("Re-seat the next round (before it is released)"))
    def reseat_next_round(self, request, queryset):
        def run(tournament: Tournament) -> bool:
            round_ = selectors.current_round(tournament)
            if round_ is None:
                raise TournamentError(_("Every round is finished."))
            if round_.status == Round.Status.PENDING:
                return rounds.seat_round(round_.pk, by=request.user)
            return rounds.reseat_round(round_.pk, by=request.user)

        self._each(request, queryset, _("Round re-seated"), run)

    @admin.action(description=gettext_lazy("Recompute standings"))
    def recompute_standings(self, request, queryset):
        def run(tournament: Tournament) -> bool:
            results.recompute_standings(tournament.pk, by=request.user)
            return True

        self._each(request, queryset, _("Standings recomputed"), run)

    @admin.action(description=gettext_lazy("Export standings as CSV"))
    def export_standings_csv(self, request, queryset):
        return self._export(request, queryset, "standings")

    @admin.action(description=gettext_lazy("Export results as CSV"))
    def export_results_csv(self, request, queryset):
        return self._export(request, queryset, "results")

    def _export(self, request, queryset, what: str) -> HttpResponse:
        """Every export goes through ``exports.write_csv`` (formula-safe cells)."""
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{what}.csv"'
        chosen = list(queryset)
        for tournament in chosen:
            log_action(tournament, request.user, f"export_{what}")
        if what == "standings":
            exports.write_csv(
                response, exports.STANDINGS_HEADER, exports.standings_rows_for_export(chosen)
            )
        else:
            exports.write_csv(
                response, exports.RESULTS_HEADER, exports.result_rows_for_export(chosen)
            )
        return response


@admin.register(Entry)
class EntryAdmin(_ClubScoped, admin.ModelAdmin):
    """View-only rows; an entry changes through the actions, which call ``tournaments.entries``
    with the organiser as ``by`` (checked and audited there)."""

    club_path = "tournament__club"
    list_display = ["user", "tournament", "status", "plays_online", "rating", "first_round"]
    list_filter = ["status", "tournament"]
    search_fields = ["user__username", "tournament__name"]
    fields = [
        "tournament",
        "user",
        "status",
        "plays_online",
        "rating",
        "first_round",
        "seed_number",
        "registered_at",
        "checked_in_at",
        "withdrawn_at",
    ]
    readonly_fields = fields
    actions = ["check_in", "withdraw"]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def _each(self, request, queryset, run) -> None:
        done = 0
        for entry in queryset.select_related("tournament", "user"):
            try:
                run(entry)
                done += 1
            except TournamentError as error:
                self.message_user(request, f"{entry}: {error}", messages.ERROR)
        if done:
            self.message_user(request, _("Done."))

    @admin.action(description=gettext_lazy("Check in"))
    def check_in(self, request, queryset):
        self._each(
            request,
            queryset,
            lambda e: entries.check_in(e.tournament_id, e.user, by=request.user),
        )

    @admin.action(description=gettext_lazy("Withdraw"))
    def withdraw(self, request, queryset):
        self._each(
            request,
            queryset,
            lambda e: entries.withdraw_entry(e.tournament_id, e.user, by=request.user),
        )


@admin.register(AuditLog)
class AuditLogAdmin(_ClubScoped, admin.ModelAdmin):
    club_path = "tournament__club"
    list_display = ["created", "tournament", "actor", "action"]
    list_filter = ["action"]
    readonly_fields = ["tournament", "actor", "action", "details", "created"]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Standing)
class StandingAdmin(_ClubScoped, admin.ModelAdmin):
    club_path = "tournament__club"
    list_display = ["tournament", "rank", "entry", "points", "penalty", "percent"]
    list_filter = ["tournament"]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(PhysicalResult)
class PhysicalResultAdmin(_ClubScoped, admin.ModelAdmin):
    club_path = "table__round__tournament__club"
    list_display = ["table", "version", "submitted_by", "submitted_at", "confirmed_by"]
    readonly_fields = [
        "table",
        "version",
        "penalties",
        "submitted_by",
        "submitted_at",
        "confirmed_by",
        "confirmed_at",
    ]

    def _may(self, request, obj):
        if obj is None:
            return super()._may(request, None)
        return selectors.can_manage(request.user, obj.table.round.tournament)

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False
