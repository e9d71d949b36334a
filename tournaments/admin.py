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

from tournaments import entries, events, exports, results, rounds, seasons, selectors
from tournaments import series as series_service
from tournaments.common import TournamentError, log_action
from tournaments.forms import SeriesForm
from tournaments.models import (
    SERIES_TEMPLATE_FIELDS,
    Announcement,
    AuditLog,
    ClubSeason,
    ClubSeasonStanding,
    Entry,
    PhysicalResult,
    Round,
    Series,
    SeriesSkip,
    Standing,
    Tournament,
)


class _ClubScoped:
    """Rows visible and changeable only for the club's owners and organisers and for site
    moderators (``accounts.permissions``); ``is_staff`` only opens the admin."""

    club_path = "club"

    def get_queryset(self, request: HttpRequest):
        queryset = super().get_queryset(request)  # type: ignore[misc]
        return queryset.filter(**{f"{self.club_path}__in": selectors.managed_clubs(request.user)})

    def _may(self, request: HttpRequest, obj: Any) -> bool:
        if obj is None:
            return selectors.managed_clubs(request.user).exists()
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
    readonly_fields = ["waiting_because", "status", "registration", "check_in", "paused_at"]
    fieldsets = [
        (None, {"fields": ["club", "name", "slug", "description", "status", "waiting_because"]}),
        (
            gettext_lazy("When"),
            {
                "fields": [
                    "starts_at",
                    "time_zone",
                    "scheduling",
                    "round_interval_minutes",
                    "paused_at",
                ]
            },
        ),
        (
            gettext_lazy("Format"),
            {
                "fields": [
                    "format",
                    "mode",
                    "rounds",
                    "table_size",
                    "allow_other_sizes",
                    "min_players",
                    "knockout_advance",
                    "first_round",
                    "avoid_same_club",
                ]
            },
        ),
        (
            gettext_lazy("Entry"),
            {
                "fields": [
                    "registration",
                    "registration_opens_at",
                    "registration_closes_at",
                    "check_in",
                    "check_in_opens_at",
                    "check_in_closes_at",
                    "members_only",
                    "allow_bots",
                    "min_rating",
                    "max_rating",
                    "capacity",
                    "late_entry_until_round",
                ]
            },
        ),
        (
            gettext_lazy("Scoring"),
            {
                "classes": ["collapse"],
                "description": gettext_lazy(
                    "The organiser's workspace on the site edits these as form fields with a "
                    "preview; here they are checked the same way when saved."
                ),
                "fields": [
                    "placement_points",
                    "tiebreaks",
                    "missed_round_points",
                    "missed_round_penalty",
                ],
            },
        ),
        (
            gettext_lazy("Play"),
            {
                "classes": ["collapse"],
                "fields": [
                    "rated",
                    "doubling",
                    "layout",
                    "turn_seconds",
                    "bot_level",
                    "no_show_policy",
                    "no_show_grace_minutes",
                ],
            },
        ),
    ]
    list_filter = ["status", "format", "mode", "club"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [RoundInline, EntryInline]
    actions = [
        "cancel_tournaments",
        "start_with_fewer_players",
        "open_registration",
        "close_registration",
        "open_check_in",
        "close_check_in",
        "pause_tournaments",
        "resume_tournaments",
        "start_next_round",
        "reseat_next_round",
        "recompute_standings",
        "export_standings_csv",
        "export_results_csv",
        "export_deals_csv",
    ]

    @admin.display(description=gettext_lazy("waiting because"))
    def waiting_because(self, obj: Tournament) -> str:
        """Why an event waits for the organiser's decision (empty otherwise)."""
        return selectors.hold_reason_text(obj) if obj.status == Tournament.Status.ON_HOLD else ""

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "club":
            kwargs["queryset"] = selectors.managed_clubs(request.user)
        if db_field.name == "season":
            kwargs["queryset"] = ClubSeason.objects.filter(
                club__in=selectors.managed_clubs(request.user)
            ).exclude(status=ClubSeason.Status.CLOSED)
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

    @admin.action(description=gettext_lazy("Close registration"))
    def close_registration(self, request, queryset):
        self._each(
            request,
            queryset,
            _("Registration closed"),
            lambda t: events.close_registration(t.pk, by=request.user),
        )

    @admin.action(description=gettext_lazy("Open check-in"))
    def open_check_in(self, request, queryset):
        self._each(
            request,
            queryset,
            _("Check-in opened"),
            lambda t: events.open_check_in(t.pk, by=request.user),
        )

    @admin.action(description=gettext_lazy("Close check-in"))
    def close_check_in(self, request, queryset):
        self._each(
            request,
            queryset,
            _("Check-in closed"),
            lambda t: events.close_check_in(t.pk, by=request.user),
        )

    @admin.action(description=gettext_lazy("Pause (no round is seated or started)"))
    def pause_tournaments(self, request, queryset):
        self._each(
            request,
            queryset,
            _("Event paused"),
            lambda t: events.pause_tournament(t.pk, by=request.user),
        )

    @admin.action(description=gettext_lazy("Resume"))
    def resume_tournaments(self, request, queryset):
        self._each(
            request,
            queryset,
            _("Event resumed"),
            lambda t: events.resume_tournament(t.pk, by=request.user),
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

    @admin.action(description=gettext_lazy("Export deals as CSV"))
    def export_deals_csv(self, request, queryset):
        return self._export(request, queryset, "deals")

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
        elif what == "deals":
            exports.write_csv(response, exports.DEALS_HEADER, exports.deal_rows_for_export(chosen))
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


@admin.register(Announcement)
class AnnouncementAdmin(_ClubScoped, admin.ModelAdmin):
    """Read-only: organisers post announcements in the workspace (``announce_to_entrants``),
    which also tells the entrants."""

    club_path = "tournament__club"
    list_display = ["created", "tournament", "author", "text"]
    readonly_fields = ["tournament", "author", "text", "created"]
    exclude = ["token"]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


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


class SeriesSkipInline(admin.TabularInline):
    """Skipped dates; an added or removed date goes through ``series.skip_date`` /
    ``unskip_date`` (``SeriesAdmin.save_formset``), so an event on it is cancelled."""

    model = SeriesSkip
    extra = 1
    fields = ["date"]

    def _may(self, request, obj) -> bool:
        if obj is None:
            return selectors.managed_clubs(request.user).exists()
        return selectors.can_manage_club(request.user, obj.club_id)

    def has_view_permission(self, request, obj=None):
        return request.user.is_staff and self._may(request, obj)

    def has_change_permission(self, request, obj=None):
        return request.user.is_staff and self._may(request, obj)

    def has_add_permission(self, request, obj=None):
        return request.user.is_staff and self._may(request, obj)

    def has_delete_permission(self, request, obj=None):
        return request.user.is_staff and self._may(request, obj)


@admin.register(Series)
class SeriesAdmin(_ClubScoped, admin.ModelAdmin):
    """Recurring events: the form is the site's (weekday checkboxes, time picker, zone list);
    saving and the actions call ``tournaments.series``."""

    form = SeriesForm
    list_display = ["name", "club", "weekday_list", "start_time", "time_zone", "active"]
    list_filter = ["active", "club"]
    search_fields = ["name"]
    inlines = [SeriesSkipInline]
    actions = ["create_upcoming_events", "pause_series", "resume_series"]
    fieldsets = [
        (None, {"fields": ["club", "name", "active"]}),
        (
            gettext_lazy("When"),
            {"fields": ["weekdays", "start_time", "time_zone", "weeks_ahead"]},
        ),
        (
            gettext_lazy("Every event"),
            {"fields": ["description", "format", "mode", "rounds", "table_size", "min_players"]},
        ),
        (
            gettext_lazy("Entry"),
            {"fields": ["members_only", "min_rating", "max_rating", "capacity", "rated"]},
        ),
        (
            gettext_lazy("Play"),
            {
                "classes": ["collapse"],
                "fields": [
                    name
                    for name in SERIES_TEMPLATE_FIELDS
                    if name
                    not in {
                        "description",
                        "format",
                        "mode",
                        "rounds",
                        "table_size",
                        "min_players",
                        "members_only",
                        "min_rating",
                        "max_rating",
                        "capacity",
                        "rated",
                    }
                ],
            },
        ),
    ]

    def _may(self, request: HttpRequest, obj: Any) -> bool:
        if obj is None:
            return selectors.managed_clubs(request.user).exists()
        return selectors.can_manage_club(request.user, obj.club_id)

    @admin.display(description=gettext_lazy("weekdays"))
    def weekday_list(self, obj: Series) -> str:
        return ", ".join(obj.weekday_labels)

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        if "club" in form.base_fields:
            if change:
                form.base_fields["club"].disabled = True
            else:
                form.base_fields["club"].queryset = selectors.managed_clubs(request.user)
        return form

    def save_model(self, request, obj, form, change):
        fields = form.service_fields()
        try:
            if change:
                series_service.update_series(obj.pk, request.user, **fields)
            else:
                created = series_service.create_series(
                    club=form.cleaned_data["club"], by=request.user, **fields
                )
                obj.pk = created.pk
        except TournamentError as error:
            self.message_user(request, str(error), messages.ERROR)

    def save_formset(self, request, form, formset, change):
        formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []
        if formset.model is not SeriesSkip or form.instance.pk is None:
            return
        series = form.instance
        for skip_form in formset.forms:
            day = skip_form.cleaned_data.get("date") if skip_form.is_valid() else None
            if day is None:
                continue
            try:
                if skip_form.cleaned_data.get("DELETE"):
                    if skip_form.instance.pk:
                        series_service.unskip_date(series.pk, skip_form.instance.date, request.user)
                elif not skip_form.instance.pk:
                    series_service.skip_date(series.pk, day, request.user)
                elif "date" in skip_form.changed_data:
                    series_service.unskip_date(
                        series.pk,
                        SeriesSkip.objects.get(pk=skip_form.instance.pk).date,
                        request.user,
                    )
                    series_service.skip_date(series.pk, day, request.user)
            except TournamentError as error:
                self.message_user(request, f"{day}: {error}", messages.ERROR)

    @admin.action(description=gettext_lazy("Create the upcoming events now"))
    def create_upcoming_events(self, request, queryset):
        created = sum(len(series_service.create_upcoming_events(s.pk)) for s in queryset)
        self.message_user(
            request,
            ngettext("%(count)s event created.", "%(count)s events created.", created)
            % {"count": created},
        )

    def _set_active(self, request, queryset, active: bool) -> None:
        for series in queryset:
            try:
                series_service.update_series(series.pk, request.user, active=active)
            except TournamentError as error:
                self.message_user(request, f"{series}: {error}", messages.ERROR)

    @admin.action(description=gettext_lazy("Pause (no new events)"))
    def pause_series(self, request, queryset):
        self._set_active(request, queryset, False)

    @admin.action(description=gettext_lazy("Resume"))
    def resume_series(self, request, queryset):
        self._set_active(request, queryset, True)


# --------------------------------------------------------------------------- club seasons


class ClubSeasonStandingInline(admin.TabularInline):
    """The stored table of a closed season: read-only (it is what closing archived)."""

    model = ClubSeasonStanding
    extra = 0
    fields = ["rank", "user", "points", "events_counted", "events_played", "results"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(ClubSeason)
class ClubSeasonAdmin(_ClubScoped, admin.ModelAdmin):
    """Club seasons: a new one is made by ``seasons.create_season``; opening and closing are
    the actions (``seasons.open_season`` / ``close_season``), as on the season page."""

    list_display = ["name", "club", "starts_on", "ends_on", "status", "best_of", "ladder"]
    list_filter = ["status", "club"]
    search_fields = ["name"]
    readonly_fields = ["status", "opened_at", "closed_at"]
    fields = [
        "club",
        "name",
        "starts_on",
        "ends_on",
        "best_of",
        "place_points",
        "ladder",
        "automatic",
        "status",
        "opened_at",
        "closed_at",
    ]
    inlines = [ClubSeasonStandingInline]
    actions = ["open_seasons", "close_seasons"]

    def _may(self, request: HttpRequest, obj: Any) -> bool:
        if obj is None:
            return selectors.managed_clubs(request.user).exists()
        return selectors.can_manage_club(request.user, obj.club_id)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        closed = obj is not None and obj.status == ClubSeason.Status.CLOSED
        return not closed and super().has_change_permission(request, obj)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "club":
            kwargs["queryset"] = selectors.managed_clubs(request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request, obj, form, change):
        if change:
            obj.save()
            return
        created = seasons.create_season(
            club=obj.club,
            by=request.user,
            **{name: getattr(obj, name) for name in form.cleaned_data if name != "club"},
        )
        obj.pk = created.pk

    def _each_season(self, request, queryset, run, label: str) -> None:
        done = 0
        for season in queryset.order_by("starts_on"):
            try:
                run(season.pk, request.user)
                done += 1
            except TournamentError as error:
                self.message_user(request, f"{season}: {error}", messages.ERROR)
        if done:
            self.message_user(request, f"{label}: {done}", messages.SUCCESS)

    @admin.action(description=gettext_lazy("Open the selected seasons"))
    def open_seasons(self, request, queryset):
        self._each_season(request, queryset, seasons.open_season, _("Seasons opened"))

    @admin.action(description=gettext_lazy("Close the selected seasons (stores their tables)"))
    def close_seasons(self, request, queryset):
        self._each_season(request, queryset, seasons.close_season, _("Seasons closed"))
