"""Recurring events: a series creates its events ahead, one per occurrence, through
``events.create_tournament`` (so each is a normal event), and an edit of the series applies to
its future events that have not started.

Locks: a series' row lock sits above the event's in the lock order (``Series -> Tournament ->
Round -> ...``): ``create_upcoming_events`` holds it while it looks for missing occurrences
and creates them, so two runs at once (beat, a retry, the admin's button) queue behind each
other and the second finds nothing to do; the constraint ``one_event_per_series_occurrence``
refuses a second event for an occurrence even so.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from rosbi_platform.locking import retry_on_conflict
from tournaments import selectors
from tournaments.common import TournamentError, lock_row, locked_tournament, log_action
from tournaments.events import cancel_tournament, create_rounds, create_tournament
from tournaments.events import postpone_tournament as move_tournament
from tournaments.models import (
    SERIES_TEMPLATE_FIELDS,
    Round,
    Series,
    SeriesSkip,
    Tournament,
)
from tournaments.series_dates import local_start, occurrences

SCHEDULE_FIELDS = ("weekdays", "start_time", "time_zone", "weeks_ahead", "active", "name")


@dataclass
class SeriesUpdate:
    """What an edit did to the series' future events (ids)."""

    updated: list[int] = field(default_factory=list)
    moved: list[int] = field(default_factory=list)
    cancelled: list[int] = field(default_factory=list)
    created: list[int] = field(default_factory=list)


def _validated(series: Series) -> None:
    """A series whose events ``create_tournament`` would refuse is refused here, in words."""
    if not series.weekdays:
        raise TournamentError(_("Choose at least one weekday."))
    if series.mode == Tournament.Mode.HYBRID and series.format in (
        Tournament.Format.KNOCKOUT,
        Tournament.Format.FIXED,
    ):
        raise TournamentError(_("Hybrid events use Swiss or duplicate seating."))
    try:
        series.full_clean()
    except ValidationError as error:
        raise TournamentError(" ".join(error.messages)) from error


def create_series(
    *,
    club: Any,
    by: Any,
    name: str,
    weekdays: list[int],
    start_time: dt.time,
    time_zone: str = "Europe/Berlin",
    skipped: list[dt.date] | tuple = (),
    **fields: Any,
) -> Series:
    """A new series of the club (its organisers only) and its events of the next weeks."""
    if by is not None and not selectors.can_manage_club(by, club.pk):
        raise TournamentError(_("Only the club's organisers can announce its events."))
    unknown = set(fields) - set(SERIES_TEMPLATE_FIELDS) - {"weeks_ahead", "active"}
    if unknown:
        raise TypeError(f"unknown series fields: {sorted(unknown)}")
    series = Series(
        club=club,
        name=name,
        weekdays=sorted(set(weekdays)),
        start_time=start_time,
        time_zone=time_zone,
        **fields,
    )
    _validated(series)
    with transaction.atomic():
        series.save()
        SeriesSkip.objects.bulk_create([SeriesSkip(series=series, date=d) for d in set(skipped)])
    create_upcoming_events(series.pk)
    return series


def _not_started(series: Series, now: dt.datetime):
    """The series' events an edit still applies to: planned, in the future, no round seated."""
    started_rounds = Round.objects.exclude(status=Round.Status.PENDING).values("tournament_id")
    return (
        Tournament.objects.filter(
            series=series,
            series_occurrence__isnull=False,
            status=Tournament.Status.PLANNED,
            starts_at__gt=now,
        )
        .exclude(pk__in=started_rounds)
        .order_by("starts_at")
    )


def _apply_template(tournament_id: int, template: dict[str, Any], by: Any) -> bool:
    """Give a not-started event the series' settings (its rounds are re-created, all pending).
    False when nothing changed."""

    def work(tournament: Tournament) -> bool:
        changed = [name for name, value in template.items() if getattr(tournament, name) != value]
        if not changed:
            return False
        if Round.objects.filter(tournament=tournament).exclude(status="pending").exists():
            return False  # it started meanwhile: never changed by the series
        for name in changed:
            setattr(tournament, name, template[name])
        try:
            tournament.full_clean(exclude=["seed"])
        except ValidationError as error:
            raise TournamentError(" ".join(error.messages)) from error
        tournament.save(update_fields=changed)
        Round.objects.filter(tournament=tournament).delete()  # all pending: nothing is lost
        create_rounds(tournament, 1, tournament.rounds)
        log_action(tournament, by, "series_update", changed=changed)
        return True

    return locked_tournament(tournament_id, work)


def _leave_schedule(tournament_id: int, by: Any) -> None:
    """An event whose date the series no longer meets on: cancelled (players told) and no longer
    an occurrence, so the date can come back (e.g. a skip taken back)."""
    cancel_tournament(tournament_id, by)
    Tournament.objects.filter(pk=tournament_id).update(series_occurrence=None)


def update_series(series_id: int, by: Any, **changes: Any) -> SeriesUpdate:
    """Change a series; the change applies to every future event of it that has not started
    (settings, start time; an event on a date the series no longer meets on is cancelled and
    its players told), never to a started, finished or past event. Then the events of the new
    schedule are created."""
    allowed = set(SERIES_TEMPLATE_FIELDS) | set(SCHEDULE_FIELDS) | {"skipped"}
    unknown = set(changes) - allowed
    if unknown:
        raise TypeError(f"unknown series fields: {sorted(unknown)}")
    skipped = changes.pop("skipped", None)
    report = SeriesUpdate()

    def attempt() -> None:
        with transaction.atomic():
            series = lock_row(Series, series_id)
            if by is not None and not selectors.can_manage_club(by, series.club_id):
                raise TournamentError(_("Only the club's organisers can do this."))
            old_zone = zoneinfo.ZoneInfo(series.time_zone)
            for name, value in changes.items():
                setattr(series, name, value)
            series.weekdays = sorted(set(series.weekdays))
            _validated(series)
            series.save()
            if skipped is not None:
                SeriesSkip.objects.filter(series=series).exclude(date__in=skipped).delete()
                SeriesSkip.objects.bulk_create(
                    [SeriesSkip(series=series, date=d) for d in set(skipped)],
                    ignore_conflicts=True,
                )
            skips = set(SeriesSkip.objects.filter(series=series).values_list("date", flat=True))
            now = timezone.now()
            template = series.template()
            for event in list(_not_started(series, now)):
                day = event.series_occurrence.astimezone(old_zone).date()
                when = local_start(day, series.start_time, series.time_zone)
                if day.weekday() not in series.weekdays or day in skips or when <= now:
                    _leave_schedule(event.pk, by)
                    report.cancelled.append(event.pk)
                    continue
                if when != event.starts_at:
                    move_tournament(event.pk, when, by)
                    Tournament.objects.filter(pk=event.pk).update(series_occurrence=when)
                    report.moved.append(event.pk)
                if _apply_template(event.pk, template, by):
                    report.updated.append(event.pk)

    retry_on_conflict(attempt)
    report.created = [t.pk for t in create_upcoming_events(series_id)]
    return report


def skip_date(series_id: int, day: dt.date, by: Any) -> bool:
    """The series does not meet on the local date ``day``; an event already created for it is
    cancelled (its players are told) unless it has started. False when already skipped."""

    def attempt() -> bool:
        with transaction.atomic():
            series = lock_row(Series, series_id)
            if by is not None and not selectors.can_manage_club(by, series.club_id):
                raise TournamentError(_("Only the club's organisers can do this."))
            _skip, created = SeriesSkip.objects.get_or_create(series=series, date=day)
            zone = zoneinfo.ZoneInfo(series.time_zone)
            midnight = dt.datetime.combine(day, dt.time(0), zone)
            on_that_day = Tournament.objects.filter(
                series=series,
                series_occurrence__gte=midnight,
                series_occurrence__lt=dt.datetime.combine(
                    day + dt.timedelta(days=1), dt.time(0), zone
                ),
            )
            for event in on_that_day:
                if event.status not in (Tournament.Status.PLANNED, Tournament.Status.ON_HOLD) or (
                    Round.objects.filter(tournament=event).exclude(status="pending").exists()
                ):
                    raise TournamentError(
                        _("The event on %(date)s has already started; it cannot be skipped.")
                        % {"date": day.isoformat()}
                    )
                _leave_schedule(event.pk, by)
            return created

    return retry_on_conflict(attempt)


def unskip_date(series_id: int, day: dt.date, by: Any) -> bool:
    """The series meets on ``day`` again (its event is created by the next run). False when the
    date was not skipped."""

    def attempt() -> bool:
        with transaction.atomic():
            series = lock_row(Series, series_id)
            if by is not None and not selectors.can_manage_club(by, series.club_id):
                raise TournamentError(_("Only the club's organisers can do this."))
            deleted, _rows = SeriesSkip.objects.filter(series=series, date=day).delete()
            return deleted > 0

    done = retry_on_conflict(attempt)
    create_upcoming_events(series_id)
    return done


def event_slug(series: Series, occurrence: dt.datetime) -> str:
    """Stable per occurrence: ``<name>-<series id>-<local date and time>``."""
    local = occurrence.astimezone(zoneinfo.ZoneInfo(series.time_zone))
    return f"{slugify(series.name)[:60] or 'series'}-{series.pk}-{local:%Y-%m-%d-%H%M}"


def free_slug(slug: str) -> str:
    """``slug``, or ``slug-2``, ``slug-3``... when an earlier event (cancelled when its date was
    skipped, say) has it."""
    candidate, number = slug, 1
    while Tournament.objects.filter(slug=candidate).exists():
        number += 1
        candidate = f"{slug}-{number}"
    return candidate


def create_upcoming_events(series_id: int, now: dt.datetime | None = None) -> list[Tournament]:
    """Create the events of an active series' occurrences from now to ``weeks_ahead`` weeks
    ahead that do not exist yet, each once (the series' row lock and the unique constraint on
    ``(series, series_occurrence)``); registration is open from creation. Returns the new ones."""
    now = now or timezone.now()

    def attempt() -> list[Tournament]:
        with transaction.atomic():
            series = lock_row(Series, series_id)
            if not series.active:
                return []
            zone = zoneinfo.ZoneInfo(series.time_zone)
            until = now + dt.timedelta(weeks=series.weeks_ahead)
            skips = SeriesSkip.objects.filter(series=series).values_list("date", flat=True)
            wanted = [
                moment
                for moment in occurrences(
                    series.weekdays,
                    series.start_time,
                    series.time_zone,
                    now.astimezone(zone).date(),
                    until.astimezone(zone).date(),
                    skips,
                )
                if now < moment <= until
            ]
            existing = set(
                Tournament.objects.filter(series=series, series_occurrence__in=wanted).values_list(
                    "series_occurrence", flat=True
                )
            )
            template = series.template()
            rounds = template.pop("rounds")
            created = []
            for moment in wanted:
                if moment in existing:
                    continue
                local = moment.astimezone(zone)
                event = create_tournament(
                    club=series.club,
                    by=None,
                    name=f"{series.name} {local:%Y-%m-%d}",
                    slug=free_slug(event_slug(series, moment)),
                    starts_at=moment,
                    rounds=rounds,
                    registration=Tournament.Window.OPEN,
                    series=series,
                    series_occurrence=moment,
                    **template,
                )
                log_action(event, None, "created_by_series", series=series.pk)
                created.append(event)
            return created

    return retry_on_conflict(attempt)
