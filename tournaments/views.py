"""Tournament pages: list, club page, live event page, bracket, print-outs, score sheets.

Views only translate requests into service calls and selector reads.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseForbidden,
    JsonResponse,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from rosbi_platform.accounts.models import Club
from tournaments import entries, events, knockout, results, rounds, selectors
from tournaments.common import SheetError, TournamentError
from tournaments.forms import ScoreSheetForm
from tournaments.models import Entry, PhysicalResult, Round, RoundTable, Tournament
from tournaments.sheet_texts import CONTRACT_NAMES
from tournaments.sheets import CONTRACTS


def tournament_list(request: HttpRequest) -> HttpResponse:
    managed = (
        Club.objects.filter(pk__in=selectors.managed_club_ids(request.user)).order_by("name")
        if request.user.is_authenticated
        else Club.objects.none()
    )
    return render(
        request,
        "tournaments/list.html",
        {"tournaments": selectors.list_upcoming_tournaments(), "managed_clubs": managed},
    )


def club_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's page moved to /clubs/<slug>/ (members, seasons, archive, events)."""
    club = get_object_or_404(Club, slug=slug)
    return redirect("clubs:detail", club.slug, permanent=True)


def _viewer_zone(request: HttpRequest) -> str:
    profile = getattr(request.user, "profile", None) if request.user.is_authenticated else None
    return getattr(profile, "time_zone", None) or timezone.get_current_timezone_name()


def _page_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    current = selectors.current_round(tournament)
    every_round = list(Round.objects.filter(tournament=tournament).order_by("number"))
    shown = current or (every_round[-1] if every_round else None)
    viewer_zone = _viewer_zone(request)
    registration_open = selectors.registration_refusal(tournament) is None
    return {
        "tournament": tournament,
        "rounds": every_round,
        "current": current,
        "shown_round": shown,
        "tables": selectors.seating_of(shown) if shown else [],
        "byes": shown.byes.select_related("entry__user") if shown else [],
        "standings": selectors.standings_rows(tournament),
        "entry": selectors.entry_of(tournament, request.user),
        "entries": tournament.entries.select_related("user__profile").order_by("registered_at"),
        "can_manage": selectors.can_manage(request.user, tournament),
        "event_zone": tournament.time_zone,
        "viewer_zone": viewer_zone,
        "notices": selectors.notices_for(request.user, tournament)
        if request.user.is_authenticated
        else [],
        "audit": selectors.audit_of(tournament, 20)
        if selectors.can_manage(request.user, tournament)
        else [],
        "is_knockout": tournament.format == Tournament.Format.KNOCKOUT,
        "registration_open": registration_open,
        "registration_label": _registration_label(tournament, registration_open),
        "provisional": selectors.provisional_entry_ids(tournament),
        "hold_reason": selectors.hold_reason_text(tournament),
        "announcements": selectors.announcements_of(tournament),
    }


def _registration_label(tournament: Tournament, registration_open: bool) -> str:
    """What the page says about registration: open only when a newcomer could register."""
    if registration_open:
        return str(Tournament.Window.OPEN.label)
    if tournament.registration == Tournament.Window.NOT_OPEN:
        return str(Tournament.Window.NOT_OPEN.label)
    return str(Tournament.Window.CLOSED.label)


def tournament_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament.objects.select_related("club"), slug=slug)
    return render(request, "tournaments/detail.html", _page_context(request, tournament))


@require_GET
def state_json(request: HttpRequest, slug: str) -> JsonResponse:
    """What the live page refreshes from: round, countdown target, standings."""
    tournament = get_object_or_404(Tournament, slug=slug)
    current = selectors.current_round(tournament)
    data = selectors.standings_payload(tournament)
    data.update(
        {
            "status": tournament.status,
            "round": None
            if current is None
            else {
                "number": current.number,
                "status": current.status,
                "status_label": current.get_status_display(),
                "starts_at": current.scheduled_at.isoformat() if current.scheduled_at else None,
            },
            "now": timezone.now().isoformat(),
        }
    )
    return JsonResponse(data)


@require_GET
def bracket_svg(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug, format=Tournament.Format.KNOCKOUT)
    bracket = selectors.knockout_bracket(tournament)
    if bracket is None:
        raise Http404(_("The bracket exists once round 1 is seated."))
    names = {e.pk: selectors.entry_name(e) for e in tournament.entries.select_related("user")}
    svg = knockout.bracket_svg(bracket, names, _bracket_labels())
    return HttpResponse(svg, content_type="image/svg+xml")


def _bracket_labels() -> knockout.BracketLabels:
    """The bracket's words in the visitor's language (the drawing itself knows no Django)."""
    return knockout.BracketLabels(
        round=lambda number: _("Round %(number)s") % {"number": number},
        final=_("Final"),
        table=lambda number: _("Table %(number)s") % {"number": number},
        final_table=_("Final table"),
        champion=lambda name: _("Champion: %(name)s") % {"name": name},
        undecided=_("to be decided"),
        title=_("Knockout bracket"),
    )


@require_GET
def print_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Printable seating list and one score sheet per physical table (print CSS)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    return render(
        request,
        "tournaments/print.html",
        {
            "tournament": tournament,
            "round": round_,
            "tables": selectors.seating_of(round_),
            "byes": round_.byes.select_related("entry__user"),
            "contracts": [CONTRACT_NAMES[code] for code in CONTRACTS],
        },
    )


@login_required
@require_POST
def tournament_action(request: HttpRequest, slug: str, action: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    user = request.user
    player_actions = {
        "register": lambda: entries.register_entry(
            tournament.pk, user, plays_online=request.POST.get("where", "online") == "online"
        ),
        "check-in": lambda: entries.check_in(tournament.pk, user),
        "withdraw": lambda: entries.withdraw_entry(tournament.pk, user),
        "confirm": lambda: entries.confirm_entry(tournament.pk, user),
    }
    organiser_actions = {
        "postpone": lambda: events.postpone_tournament(
            tournament.pk, _posted_time(request, tournament), by=user
        ),
        "cancel": lambda: events.cancel_tournament(tournament.pk, by=user),
        "start-with-fewer": lambda: rounds.start_with_fewer_players(tournament.pk, by=user),
        "open-registration": lambda: events.open_registration(tournament.pk, by=user),
        "close-registration": lambda: events.close_registration(tournament.pk, by=user),
        "open-check-in": lambda: events.open_check_in(tournament.pk, by=user),
        "close-check-in": lambda: events.close_check_in(tournament.pk, by=user),
        "start-next-round": lambda: rounds.start_next_round(tournament.pk, by=user),
        "reseat": lambda: _reseat_current(tournament, user),
        "recompute": lambda: results.recompute_standings(tournament.pk, by=user),
    }
    if action in organiser_actions and not selectors.can_manage(user, tournament):
        return HttpResponseForbidden(_("Only the club's organisers can do this."))
    run = player_actions.get(action) or organiser_actions.get(action)
    if run is None:
        raise Http404(_("No such action."))
    try:
        outcome = run()
        messages.success(request, _feedback(action, outcome, tournament))
    except TournamentError as error:
        messages.error(request, str(error))
    return redirect("tournaments:detail", slug=tournament.slug)


def _feedback(action: str, outcome: Any, tournament: Tournament) -> str:
    """Say what happened, in the player's words (organiser actions: "Done.")."""
    event = {"event": tournament.name, "zone": tournament.time_zone}
    if action == "register":
        if outcome.status == Entry.Status.CHECKED_IN:
            return _(
                "You are registered for %(event)s from round %(round)s and checked in."
            ) % dict(event, round=outcome.first_round)
        tournament.refresh_from_db()
        if selectors.uses_check_in(tournament):
            if tournament.check_in == Tournament.Window.OPEN:
                return _("You are registered for %(event)s. Check-in is open: please check in.") % (
                    event
                )
            if tournament.check_in_opens_at is not None:
                return _(
                    "You are registered for %(event)s. Check-in opens at %(when)s (%(zone)s)."
                ) % dict(
                    event,
                    when=selectors.event_time_text(
                        tournament.check_in_opens_at, tournament.time_zone
                    ),
                )
        return _("You are registered for %(event)s. It starts at %(when)s (%(zone)s).") % dict(
            event, when=selectors.event_time_text(tournament.starts_at, tournament.time_zone)
        )
    if action == "check-in":
        return _("You are checked in for %(event)s.") % event
    if action == "confirm":
        return _("Your entry in %(event)s is confirmed.") % event
    if action == "withdraw":
        if outcome.forfeited_round is not None:
            return _(
                "You have withdrawn from %(event)s. Your seat in round %(round)s goes to a bot "
                "and counts as a forfeit."
            ) % dict(event, round=outcome.forfeited_round)
        if outcome.reseated_round is not None:
            return _(
                "You have withdrawn from %(event)s. Round %(round)s was seated again without you."
            ) % dict(event, round=outcome.reseated_round)
        return _("You have withdrawn from %(event)s.") % event
    return _("Done.")


def _posted_time(request: HttpRequest, tournament: Tournament) -> dt.datetime:
    """The ``starts_at`` field (``YYYY-MM-DDTHH:MM``) read in the event's time zone."""
    try:
        naive = dt.datetime.fromisoformat(request.POST.get("starts_at", ""))
    except ValueError as error:
        raise TournamentError(_("Please give the new start as a date and a time.")) from error
    return naive.replace(tzinfo=zoneinfo.ZoneInfo(tournament.time_zone))


def _reseat_current(tournament: Tournament, user: Any) -> bool:
    round_ = selectors.current_round(tournament)
    if round_ is None:
        raise TournamentError(_("Every round is finished."))
    if round_.status == Round.Status.PENDING:
        return rounds.seat_round(round_.pk, by=user)
    return rounds.reseat_round(round_.pk, by=user)


@login_required
@require_POST
def confirm_presence(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(RoundTable.objects.select_related("round__tournament"), pk=table_id)
    if entries.confirm_presence(table.pk, request.user):
        messages.success(request, _("Welcome: you are marked present."))
    return redirect("tournaments:detail", slug=table.round.tournament.slug)


@login_required
def score_sheet(request: HttpRequest, table_id: int) -> HttpResponse:
    """Enter (or correct) a physical table's score sheet; shows every stored version."""
    table = get_object_or_404(
        RoundTable.objects.select_related("round__tournament"), pk=table_id, physical=True
    )
    tournament = table.round.tournament
    allowed = (
        selectors.can_manage(request.user, tournament)
        or table.seats.filter(entry__user=request.user).exists()
    )
    if not allowed:
        return HttpResponseForbidden(_("Only the organisers and the players at the table."))
    latest = selectors.latest_sheet(table)
    initial = {}
    if latest is not None:
        for deal, row in enumerate(latest.penalties):
            for seat, value in enumerate(row):
                initial[f"d{deal}s{seat}"] = value
    form = ScoreSheetForm(request.POST or None, seats=table.size, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            results.submit_physical_result(table.pk, form.penalties(), by=request.user)
            messages.success(request, _("Score sheet stored: a second person must confirm it."))
            return redirect(reverse("tournaments:sheet", args=[table.pk]))
        except SheetError as error:
            form.add_sheet_error(error)
        except TournamentError as error:
            form.add_error(None, str(error))
    return render(
        request,
        "tournaments/sheet.html",
        {
            "table": table,
            "tournament": tournament,
            "form": form,
            "seats": list(table.seats.select_related("entry__user__profile")),
            "versions": selectors.sheets_of(table),
            "latest": latest,
            "may_confirm": selectors.can_confirm_sheet(request.user, latest, tournament),
        },
    )


@login_required
@require_POST
def confirm_sheet(request: HttpRequest, sheet_id: int) -> HttpResponse:
    sheet = get_object_or_404(PhysicalResult, pk=sheet_id)
    try:
        results.confirm_physical_result(sheet.pk, by=request.user)
        messages.success(request, _("Confirmed: the result counts."))
    except TournamentError as error:
        messages.error(request, str(error))
    return redirect(reverse("tournaments:sheet", args=[sheet.table_id]))
