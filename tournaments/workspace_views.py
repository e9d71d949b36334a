"""The organiser's workspace: the events I organise, a new event from a preset, its settings
before the start, and one page per event to run it (entries, rounds, announcements, results,
exports). Thin: forms in, service calls and selector reads out; every write is a service of
``entries``, ``events``, ``rounds``, ``results`` or ``announcements``."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournaments import announcements, entries, events, exports, rounds, selectors
from tournaments.common import TournamentError, log_action
from tournaments.models import Entry, Round, Tournament
from tournaments.workspace_forms import (
    PRESETS,
    AnnouncementForm,
    EventForm,
    NewStartForm,
    PlayerNameForm,
    SubstituteForm,
    SwapForm,
)


def _refused() -> HttpResponse:
    return HttpResponseForbidden(_("Only the club's organisers can do this."))


def _managed_event(request: HttpRequest, slug: str) -> Tournament | None:
    tournament = get_object_or_404(Tournament.objects.select_related("club"), slug=slug)
    return tournament if selectors.can_manage(request.user, tournament) else None


def _viewer_zone(request: HttpRequest) -> str:
    profile = getattr(request.user, "profile", None)
    return getattr(profile, "time_zone", None) or timezone.get_current_timezone_name()


@login_required
def organised_events(request: HttpRequest) -> HttpResponse:
    """The events I organise, with the "new event" button (organisers of a club only)."""
    if not selectors.managed_clubs(request.user).exists():
        return _refused()
    return render(
        request,
        "tournaments/workspace/list.html",
        {"events": selectors.organised_events(request.user)},
    )


@login_required
def new_event(request: HttpRequest) -> HttpResponse:
    """Step 1: a preset; step 2: its settings (a preview on request); then the event exists."""
    clubs = selectors.managed_clubs(request.user).order_by("name")
    if not clubs.exists():
        return _refused()
    preset = request.GET.get("preset") or request.POST.get("preset")
    if preset not in PRESETS:
        return render(request, "tournaments/workspace/presets.html", {"presets": PRESETS.values()})
    form = EventForm(
        request.POST or None,
        clubs=clubs,
        preset=preset,
        initial={
            "time_zone": _viewer_zone(request),
            "club": clubs.filter(pk=_int_or_none(request.GET.get("club"))).first() or clubs.first(),
        },
    )
    if request.method == "POST" and form.is_valid() and "preview" not in request.POST:
        data = form.service_fields()
        try:
            tournament = events.create_tournament(
                club=form.cleaned_data["club"],
                by=request.user,
                slug=selectors.free_slug(data["name"]),
                **data,
            )
            if form.cleaned_data.get("open_registration"):
                events.open_registration(tournament.pk, by=request.user)
        except TournamentError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("%(event)s is announced.") % {"event": tournament.name})
            return redirect("tournaments:workspace", slug=tournament.slug)
    return render(
        request,
        "tournaments/workspace/form.html",
        {"form": form, "preset": PRESETS[preset], "tournament": None},
    )


@login_required
def edit_event(request: HttpRequest, slug: str) -> HttpResponse:
    """The same form for an event that has not started; refused with a message after."""
    tournament = _managed_event(request, slug)
    if tournament is None:
        return _refused()
    if tournament.status not in (Tournament.Status.PLANNED, Tournament.Status.ON_HOLD):
        messages.error(request, _("A running or finished event cannot be changed here."))
        return redirect("tournaments:workspace", slug=tournament.slug)
    form = EventForm(request.POST or None, instance=tournament)
    if request.method == "POST" and form.is_valid() and "preview" not in request.POST:
        try:
            events.update_tournament(tournament.pk, request.user, **form.service_fields())
        except TournamentError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("Saved."))
            return redirect("tournaments:workspace", slug=tournament.slug)
    tournament.refresh_from_db()  # a refused form leaves the event as it was
    return render(
        request,
        "tournaments/workspace/form.html",
        {"form": form, "preset": None, "tournament": tournament},
    )


NEXT_ACTIONS = {
    "cancelled": _("This event was cancelled."),
    "finished": _("The event has finished: check the results and export them."),
    "decide": _("The event waits for your decision: postpone it, cancel it or start it."),
    "resume": _("The event is paused: no round is seated or started until you resume it."),
    "open_registration": _("Open registration so that players can enter."),
    "open_check_in": _("Open check-in and check players in at the door."),
    "seat_round": _("Seat the next round (or start it straight away)."),
    "start_round": _("The round is seated: change seats if needed, then start it."),
    "wait_for_tables": _("The round is being played: results arrive table by table."),
}


def _seats(round_: Round | None) -> list[tuple[int, int, int, str]]:
    """(entry id, table number, stored seat, label) of every seat of the round."""
    if round_ is None:
        return []
    return [
        (
            seat.entry_id,
            table.number,
            seat.seat,
            _("%(name)s (table %(table)s, seat %(seat)s)")
            % {
                "name": selectors.entry_name(seat.entry),
                "table": table.number,
                "seat": seat.seat + 1,
            },
        )
        for table in selectors.seating_of(round_)
        for seat in table.seats.all()
    ]


def _seat_choices(round_: Round | None) -> list[tuple[int, str]]:
    return [(entry, label) for entry, _table, _seat, label in _seats(round_)]


def _swap_choices(round_: Round | None) -> list[tuple[str, str]]:
    return [(f"{entry}@{table}:{seat}", label) for entry, table, seat, label in _seats(round_)]


@login_required
def workspace(request: HttpRequest, slug: str) -> HttpResponse:
    """One page to run the event from a phone."""
    tournament = _managed_event(request, slug)
    if tournament is None:
        return _refused()
    current = selectors.current_round(tournament)
    seated = current if current and current.status != Round.Status.PENDING else None
    seats = _seat_choices(seated)
    swaps = _swap_choices(seated)
    return render(
        request,
        "tournaments/workspace/event.html",
        {
            "tournament": tournament,
            "event_zone": tournament.time_zone,
            "next_action": NEXT_ACTIONS[selectors.next_action(tournament)],
            "current": current,
            "seated": seated,
            "tables": selectors.seating_of(seated) if seated else [],
            "entries": selectors.workspace_entries(tournament),
            "add_form": PlayerNameForm(prefix="add"),
            "substitute_form": SubstituteForm(seats=seats, prefix="sub") if seats else None,
            "swap_form": SwapForm(seats=swaps, prefix="swap") if len(swaps) > 1 else None,
            "start_form": NewStartForm(prefix="start"),
            "announce_form": AnnouncementForm(
                prefix="announce", initial={"token": secrets.token_urlsafe(16)}
            ),
            "announcements": selectors.announcements_of(tournament),
            "results": selectors.results_by_round(tournament),
            "standings": selectors.standings_rows(tournament),
            "editable": tournament.status in (Tournament.Status.PLANNED, Tournament.Status.ON_HOLD),
            "audit": selectors.audit_of(tournament, 15),
        },
    )


def _entry(tournament: Tournament, request: HttpRequest) -> Entry:
    entry_id = request.POST.get("entry", "")
    entry = (
        Entry.objects.filter(tournament=tournament, pk=entry_id).select_related("user").first()
        if entry_id.isdigit()
        else None
    )
    if entry is None:
        raise TournamentError(_("There is no such entry."))
    return entry


def _current_round(tournament: Tournament) -> Round:
    round_ = selectors.current_round(tournament)
    if round_ is None:
        raise TournamentError(_("Every round is finished."))
    return round_


def _seated_round(tournament: Tournament) -> Round:
    round_ = _current_round(tournament)
    if round_.status == Round.Status.PENDING:
        raise TournamentError(_("The round is not seated yet."))
    return round_


def _form_error(form: Any) -> TournamentError:
    problems = [str(e) for errors in form.errors.values() for e in errors]
    return TournamentError(" ".join(problems) or _("Please check the form."))


def _add_entry(tournament: Tournament, request: HttpRequest) -> str:
    form = PlayerNameForm(request.POST, prefix="add")
    if not form.is_valid():
        raise _form_error(form)
    user = entries.user_by_name(form.cleaned_data["name"])
    added = entries.add_entry(
        tournament.pk,
        user,
        request.user,
        plays_online=form.cleaned_data["plays_online"] is not False,
        check_in_now=form.cleaned_data["check_in_now"],
    )
    name = selectors.entry_name(added.entry)
    if not added.created:
        return _("%(name)s is already entered.") % {"name": name}
    return _("%(name)s is entered.") % {"name": name}


def _check_in(tournament: Tournament, request: HttpRequest) -> str:
    entry = _entry(tournament, request)
    entries.check_in(tournament.pk, entry.user, by=request.user)
    return _("%(name)s is checked in.") % {"name": selectors.entry_name(entry)}


def _withdraw(tournament: Tournament, request: HttpRequest) -> str:
    entry = _entry(tournament, request)
    done = entries.withdraw_entry(tournament.pk, entry.user, by=request.user)
    name = selectors.entry_name(entry)
    if done.already_withdrawn:
        return _("%(name)s had already withdrawn.") % {"name": name}
    if done.forfeited_round is not None:
        return _("%(name)s has withdrawn; a bot plays their seat in round %(round)s.") % {
            "name": name,
            "round": done.forfeited_round,
        }
    return _("%(name)s has withdrawn.") % {"name": name}


def _substitute(tournament: Tournament, request: HttpRequest) -> str:
    round_ = _seated_round(tournament)
    form = SubstituteForm(request.POST, seats=_seat_choices(round_), prefix="sub")
    if not form.is_valid():
        raise _form_error(form)
    arriving = entries.user_by_name(form.cleaned_data["name"])
    leaving = Entry.objects.select_related("user__profile").get(pk=form.cleaned_data["leaving"])
    if not rounds.substitute_player(round_.pk, leaving.pk, arriving, request.user):
        return _("That substitution was already made.")
    return _("%(arriving)s takes the seat of %(leaving)s in round %(round)s.") % {
        "arriving": selectors.entry_name(Entry.objects.get(tournament=tournament, user=arriving)),
        "leaving": selectors.entry_name(leaving),
        "round": round_.number,
    }


def _swap(tournament: Tournament, request: HttpRequest) -> str:
    round_ = _seated_round(tournament)
    form = SwapForm(request.POST, seats=_swap_choices(round_), prefix="swap")
    if not form.is_valid():
        raise _form_error(form)
    done = rounds.swap_seats(
        round_.pk,
        form.cleaned_data["first"],
        form.cleaned_data["second"],
        request.user,
        first_at=form.cleaned_data["first_at"],
    )
    return _("The two players have changed seats.") if done else _("That swap was already made.")


def _seat(tournament: Tournament, request: HttpRequest) -> str:
    round_ = _current_round(tournament)
    if round_.status == Round.Status.PENDING:
        rounds.seat_round(round_.pk, by=request.user)
    else:
        rounds.reseat_round(round_.pk, by=request.user)
    return _("Round %(round)s is seated.") % {"round": round_.number}


def _start(tournament: Tournament, request: HttpRequest) -> str:
    if tournament.status == Tournament.Status.ON_HOLD:
        rounds.start_with_fewer_players(tournament.pk, by=request.user)
        return _("Round 1 has started with the players who are ready.")
    number = _current_round(tournament).number
    rounds.start_next_round(tournament.pk, by=request.user)
    return _("Round %(round)s has started.") % {"round": number}


def _new_start(tournament: Tournament, request: HttpRequest, run: Callable) -> str:
    form = NewStartForm(request.POST, prefix="start")
    if not form.is_valid():
        raise _form_error(form)
    when = form.moment(tournament.time_zone)
    run(when)
    return _("The new start is %(when)s (%(zone)s).") % {
        "when": selectors.event_time_text(when, tournament.time_zone),
        "zone": tournament.time_zone,
    }


def _reschedule(tournament: Tournament, request: HttpRequest) -> str:
    round_ = _current_round(tournament)
    return _new_start(
        tournament, request, lambda when: rounds.reschedule_round(round_.pk, when, by=request.user)
    )


def _postpone(tournament: Tournament, request: HttpRequest) -> str:
    return _new_start(
        tournament,
        request,
        lambda when: events.postpone_tournament(tournament.pk, when, by=request.user),
    )


def _announce(tournament: Tournament, request: HttpRequest) -> str:
    form = AnnouncementForm(request.POST, prefix="announce")
    if not form.is_valid():
        raise _form_error(form)
    announcements.announce_to_entrants(
        tournament.pk, form.cleaned_data["text"], request.user, token=form.cleaned_data["token"]
    )
    return _("Your announcement is on the event page; the entrants are told.")


def _simple(run: Callable[[Tournament, Any], Any], done: str) -> Callable:
    def action(tournament: Tournament, request: HttpRequest) -> str:
        changed = run(tournament, request.user)
        return str(done) if changed is not False else _("Nothing to change: it was already so.")

    return action


ACTIONS: dict[str, Callable[[Tournament, HttpRequest], str]] = {
    "add-entry": _add_entry,
    "check-in": _check_in,
    "withdraw": _withdraw,
    "substitute": _substitute,
    "swap": _swap,
    "seat": _seat,
    "start": _start,
    "reschedule": _reschedule,
    "postpone": _postpone,
    "announce": _announce,
    "pause": _simple(
        lambda t, u: events.pause_tournament(t.pk, by=u),
        _("Paused: no round is seated or started until you resume."),
    ),
    "resume": _simple(lambda t, u: events.resume_tournament(t.pk, by=u), _("Resumed.")),
    "cancel": _simple(
        lambda t, u: events.cancel_tournament(t.pk, by=u),
        _("The event is cancelled; the players are told."),
    ),
    "open-registration": _simple(
        lambda t, u: events.open_registration(t.pk, by=u), _("Registration is open.")
    ),
    "close-registration": _simple(
        lambda t, u: events.close_registration(t.pk, by=u), _("Registration is closed.")
    ),
    "open-check-in": _simple(lambda t, u: events.open_check_in(t.pk, by=u), _("Check-in is open.")),
    "close-check-in": _simple(
        lambda t, u: events.close_check_in(t.pk, by=u), _("Check-in is closed.")
    ),
}


@login_required
@require_POST
def workspace_action(request: HttpRequest, slug: str, action: str) -> HttpResponse:
    tournament = _managed_event(request, slug)
    if tournament is None:
        return _refused()
    run = ACTIONS.get(action)
    if run is None:
        raise Http404(_("No such action."))
    try:
        messages.success(request, run(tournament, request))
    except TournamentError as error:
        messages.error(request, str(error))
    return redirect(reverse("tournaments:workspace", args=[tournament.slug]) + f"#{action}")


EXPORTS = {
    "standings": (exports.STANDINGS_HEADER, exports.standings_rows_for_export),
    "results": (exports.RESULTS_HEADER, exports.result_rows_for_export),
    "deals": (exports.DEALS_HEADER, exports.deal_rows_for_export),
}


@login_required
@require_GET
def export_csv(request: HttpRequest, slug: str, what: str) -> HttpResponse:
    """Standings, results or deals of the event as CSV (formula-safe cells), audited."""
    tournament = _managed_event(request, slug)
    if tournament is None:
        return _refused()
    if what not in EXPORTS:
        raise Http404(_("No such export."))
    header, rows = EXPORTS[what]
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-{what}.csv"'
    log_action(tournament, request.user, f"export_{what}")
    exports.write_csv(response, header, rows([tournament]))
    return response


def _int_or_none(text: str | None) -> int | None:
    return int(text) if text and text.isdigit() else None
