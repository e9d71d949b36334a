"""Organiser pages of recurring series, and the iCalendar feeds (club: public; player: behind
a revocable secret token). Thin: forms in, service calls and selector reads out."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from rosbi_platform.accounts.models import Club
from tournaments import calendars, selectors
from tournaments import series as series_service
from tournaments.common import TournamentError
from tournaments.forms import SeriesForm, SkipDateForm
from tournaments.ical import CalendarEvent, calendar_text
from tournaments.models import Series, Tournament


def _refused() -> HttpResponse:
    return HttpResponseForbidden(_("Only the club's organisers can do this."))


@login_required
def club_series(request: HttpRequest, slug: str) -> HttpResponse:
    """A club's series, for its organisers."""
    club = get_object_or_404(Club, slug=slug)
    if not selectors.can_manage_club(request.user, club.pk):
        return _refused()
    return render(
        request,
        "tournaments/series_list.html",
        {"club": club, "series_list": selectors.series_of_club(club)},
    )


@login_required
def series_new(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    if not selectors.can_manage_club(request.user, club.pk):
        return _refused()
    form = SeriesForm(
        request.POST or None, initial={"time_zone": timezone.get_current_timezone_name()}
    )
    if request.method == "POST" and form.is_valid():
        try:
            series = series_service.create_series(
                club=club, by=request.user, **form.service_fields()
            )
        except TournamentError as error:
            form.add_error(None, str(error))
        else:
            count = series.events.count()
            messages.success(
                request,
                _("The series %(name)s is set up; %(count)s events are announced.")
                % {"name": series.name, "count": count},
            )
            return redirect("tournaments:series_edit", pk=series.pk)
    return render(
        request, "tournaments/series_form.html", {"club": club, "form": form, "series": None}
    )


@login_required
def series_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Edit a series (the change reaches its future events that have not started), its
    upcoming events and its skipped dates."""
    series = get_object_or_404(Series.objects.select_related("club"), pk=pk)
    if not selectors.can_manage_club(request.user, series.club_id):
        return _refused()
    form = SeriesForm(request.POST or None, instance=series)
    if request.method == "POST" and form.is_valid():
        try:
            report = series_service.update_series(series.pk, request.user, **form.service_fields())
        except TournamentError as error:
            form.add_error(None, str(error))
        else:
            messages.success(
                request,
                _(
                    "Saved. Future events changed: %(updated)s, moved: %(moved)s, cancelled: "
                    "%(cancelled)s, new: %(created)s."
                )
                % {
                    "updated": len(report.updated),
                    "moved": len(report.moved),
                    "cancelled": len(report.cancelled),
                    "created": len(report.created),
                },
            )
            return redirect("tournaments:series_edit", pk=series.pk)
    series = Series.objects.select_related("club").get(pk=pk)  # unchanged by a refused form
    return render(
        request,
        "tournaments/series_form.html",
        {
            "club": series.club,
            "form": form,
            "series": series,
            "events": selectors.upcoming_series_events(series),
            "skips": series.skips.all(),
            "skip_form": SkipDateForm(),
        },
    )


@login_required
@require_POST
def series_skip(request: HttpRequest, pk: int) -> HttpResponse:
    series = get_object_or_404(Series, pk=pk)
    if not selectors.can_manage_club(request.user, series.club_id):
        return _refused()
    form = SkipDateForm(request.POST)
    unskip = request.POST.get("unskip") == "1"
    if not form.is_valid():
        messages.error(request, _("Enter a date."))
    else:
        day = form.cleaned_data["date"]
        try:
            if unskip:
                series_service.unskip_date(series.pk, day, request.user)
                messages.success(request, _("The series meets on %(date)s again.") % {"date": day})
            else:
                series_service.skip_date(series.pk, day, request.user)
                messages.success(
                    request,
                    _("The series does not meet on %(date)s; an event on that date is cancelled.")
                    % {"date": day},
                )
        except TournamentError as error:
            messages.error(request, str(error))
    return redirect("tournaments:series_edit", pk=series.pk)


# --------------------------------------------------------------------------- calendar feeds


def _feed(request: HttpRequest, name: str, tournaments, filename: str) -> HttpResponse:
    events = [
        CalendarEvent(
            uid=f"tournament-{t.pk}@rosbi",
            starts_at=t.starts_at,
            summary=f"{t.name} ({t.club.name})",
            url=request.build_absolute_uri(reverse("tournaments:detail", args=[t.slug])),
            description=t.description,
            cancelled=t.status == Tournament.Status.CANCELLED,
        )
        for t in tournaments.select_related("club")
    ]
    response = HttpResponse(
        calendar_text(name, events, timezone.now()), content_type="text/calendar; charset=utf-8"
    )
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Cache-Control"] = "private, max-age=900"
    return response


def club_calendar(request: HttpRequest, slug: str) -> HttpResponse:
    """Public: the club's upcoming events and those of the last 30 days."""
    club = get_object_or_404(Club, slug=slug)
    return _feed(request, club.name, selectors.club_calendar_events(club), f"{club.slug}.ics")


def player_calendar(request: HttpRequest, token: str) -> HttpResponse:
    """The events a player entered; the URL's token is the only key (no log-in in calendar
    programs), so it is long, random and revocable."""
    user = selectors.calendar_owner(token)
    if user is None:
        raise Http404
    return _feed(request, _("My Rosbi events"), selectors.player_calendar_events(user), "rosbi.ics")


@login_required
def my_calendar(request: HttpRequest) -> HttpResponse:
    """The player's feed address; POST replaces it (the old address stops working)."""
    if request.method == "POST":
        token = calendars.revoke_calendar_token(request.user)
        messages.success(request, _("You have a new calendar address; the old one stops working."))
        return redirect("tournaments:my_calendar")
    token = calendars.issue_calendar_token(request.user)
    url = request.build_absolute_uri(reverse("tournaments:player_calendar", args=[token.token]))
    return render(request, "tournaments/my_calendar.html", {"feed_url": url})


__all__ = [
    "club_calendar",
    "club_series",
    "my_calendar",
    "player_calendar",
    "series_edit",
    "series_new",
    "series_skip",
]
