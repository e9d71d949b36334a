"""Tournaments on the platform: events, entries, rounds, tables, results, standings, audit.

The database is the whole truth. Every automatic step (open registration, seat a round, start
it, handle no-shows, close it) is a status transition taken under a row lock, and the
constraints below make a second attempt fail loudly instead of doing the work twice: one seat
per entrant per round, one table number per round, one result version number per table.
Standings rows are a cache, recomputed from the stored results as a pure function.
"""

from __future__ import annotations

import datetime as dt
import secrets
import zoneinfo

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from rosbi_platform.accounts.models import Club
from tournaments.fields import RenderableDateTimeField
from tournaments.scoring import MAX_TABLE, MIN_TABLE
from tournaments.standings import DEFAULT_TIEBREAKS


def new_tournament_seed() -> str:
    """Every random choice of an event (lot, duplicate deals) derives from this seed."""
    return secrets.token_hex(8)


def default_tiebreaks() -> list[str]:
    return list(DEFAULT_TIEBREAKS)


# How far an organiser may date anything (events, rounds, seasons, series' skipped days): no
# club plans further than two years ahead, and nothing happened on Rosbi before 2000. A date
# outside cannot be shown in every time zone at the far end (issue 25, defect 3).
LATEST_AHEAD = dt.timedelta(days=2 * 365 + 1)
EARLIEST_DAY = dt.date(2000, 1, 1)


def date_refusal(value: dt.date | dt.datetime | None, now: dt.datetime | None = None) -> str | None:
    """Why ``value`` is no date an organiser may enter (a sentence), or None when it is."""
    if value is None:
        return None
    now = now or timezone.now()
    if isinstance(value, dt.datetime):
        if value.tzinfo is None:
            return None  # refused as naive elsewhere
        too_late = value > now + LATEST_AHEAD
        too_early = value < dt.datetime.combine(EARLIEST_DAY, dt.time(0), dt.UTC)
    else:
        too_late = value > (now + LATEST_AHEAD).date()
        too_early = value < EARLIEST_DAY
    if too_late:
        return gettext("Please choose a date at most two years ahead.")
    if too_early:
        return gettext("Please choose a date in the year 2000 or later.")
    return None


def check_date_bounds(instance: models.Model, fields: tuple[str, ...]) -> None:
    """``ValidationError`` naming each of ``fields`` whose value ``date_refusal`` refuses."""
    problems = {}
    for name in fields:
        refusal = date_refusal(getattr(instance, name))
        if refusal:
            problems[name] = refusal
    if problems:
        raise ValidationError(problems)


def single_line(text: str) -> str:
    """A name on one line: line breaks, tabs and runs of spaces become one space (a name goes
    into e-mail subjects, calendar lines and CSV cells, where a line break does harm)."""
    return " ".join((text or "").split())


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(
            _("%(value)s is not a known IANA time zone."), params={"value": value}
        )


def validate_placement_points(value: object) -> None:
    """Placement points per table size: ``{"4": [3, 2, 1, 0]}``, one number per place (size
    3 to 6), none negative, never more for a worse place."""
    if not isinstance(value, dict):
        raise ValidationError(_("Placement points are a table of points per table size."))
    for size, points in value.items():
        if not str(size).isdigit() or not MIN_TABLE <= int(size) <= MAX_TABLE:
            raise ValidationError(
                _("Placement points are for tables of %(low)s to %(high)s players."),
                params={"low": MIN_TABLE, "high": MAX_TABLE},
            )
        if (
            not isinstance(points, list | tuple)
            or len(points) != int(size)
            or not all(isinstance(p, int | float) and not isinstance(p, bool) for p in points)
        ):
            raise ValidationError(
                _("A table of %(size)s needs exactly %(size)s numbers, one per place."),
                params={"size": size},
            )
        if any(p < 0 for p in points):
            raise ValidationError(_("Placement points cannot be negative."))
        if any(later > earlier for earlier, later in zip(points, points[1:], strict=False)):
            raise ValidationError(
                _("At a table of %(size)s a worse place cannot earn more points."),
                params={"size": size},
            )


def validate_tiebreaks(value: object) -> None:
    """The tie-break order: known criteria, each at most once, at least one."""
    if not isinstance(value, list | tuple) or not value:
        raise ValidationError(_("Choose at least one criterion for the order."))
    unknown = [c for c in value if c not in DEFAULT_TIEBREAKS]
    if unknown:
        raise ValidationError(
            _("Unknown ranking criterion: %(name)s."), params={"name": ", ".join(map(str, unknown))}
        )
    if len(set(value)) != len(value):
        raise ValidationError(_("Each ranking criterion can be used only once."))


class Tournament(models.Model):
    # The dates an organiser enters, bounded by ``clean`` (``date_refusal``).
    ORGANISER_DATES = (
        "starts_at",
        "registration_opens_at",
        "registration_closes_at",
        "check_in_opens_at",
        "check_in_closes_at",
    )

    class Status(models.TextChoices):
        PLANNED = "planned", _("Planned")
        ON_HOLD = "on_hold", _("Waiting for the organiser's decision")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss-style seating")
        KNOCKOUT = "knockout", _("Knockout")
        DUPLICATE = "duplicate", _("Duplicate")
        FIXED = "fixed", _("Fixed schedule")

    class Mode(models.TextChoices):
        ONLINE = "online", _("Online")
        PHYSICAL = "physical", _("Physical tables")
        HYBRID = "hybrid", _("Hybrid (online and physical)")

    class Scheduling(models.TextChoices):
        FIXED_TIMES = "fixed_times", _("Fixed round times")
        INTERVAL = "interval", _("Interval after the previous round")

    class Window(models.TextChoices):
        NOT_OPEN = "not_open", _("Not open yet")
        OPEN = "open", _("Open")
        CLOSED = "closed", _("Closed")

    class NoShow(models.TextChoices):
        BOT = "bot", _("A bot takes the seat; the absent player scores a forfeit")
        FORFEIT = "forfeit", _("Forfeit for the round and withdrawal from the event")

    class FirstRound(models.TextChoices):
        LOT = "lot", _("By lot")
        RATING = "rating", _("By rating")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="tournaments")
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=120, unique=True)
    description = models.TextField(_("description"), blank=True)
    starts_at = RenderableDateTimeField(_("starts at"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PLANNED
    )
    hold_reason = models.CharField(
        _("why the event waits for the organiser"), max_length=300, blank=True, editable=False
    )
    hold_details = models.JSONField(default=dict, blank=True, editable=False)
    min_players = models.PositiveSmallIntegerField(
        _("fewest players to start"),
        default=3,
        validators=[MinValueValidator(3)],
        help_text=_(
            "With fewer ready at the start the event waits for the organiser's decision "
            "(postpone, cancel or start with the players who are there)."
        ),
    )
    table_size = models.PositiveSmallIntegerField(_("players per table"), default=4)
    rounds = models.PositiveSmallIntegerField(_("rounds"), default=3)

    format = models.CharField(
        _("format"), max_length=10, choices=Format.choices, default=Format.SWISS
    )
    mode = models.CharField(_("where"), max_length=10, choices=Mode.choices, default=Mode.ONLINE)
    allow_other_sizes = models.BooleanField(
        _("allow one more or one fewer per table"),
        default=True,
        help_text=_("Tables of 3 or 5 (around the preferred size) make the numbers work."),
    )
    doubling = models.BooleanField(_("doubling (house rule)"), default=True)
    layout = models.CharField(
        _("layout rule (house rule)"),
        max_length=16,
        choices=[("extend_first", _("Extend first")), ("free", _("Free"))],
        default="extend_first",
    )
    rated = models.BooleanField(_("rated"), default=False)
    time_zone = models.CharField(
        _("time zone"), max_length=64, default="Europe/Berlin", validators=[validate_time_zone]
    )
    scheduling = models.CharField(
        _("round times"), max_length=12, choices=Scheduling.choices, default=Scheduling.INTERVAL
    )
    round_interval_minutes = models.PositiveIntegerField(
        _("minutes between rounds"),
        default=10,
        help_text=_("With interval scheduling: pause after the previous round has finished."),
    )
    registration_opens_at = RenderableDateTimeField(_("registration opens"), null=True, blank=True)
    registration_closes_at = RenderableDateTimeField(
        _("registration closes"), null=True, blank=True
    )
    check_in_opens_at = RenderableDateTimeField(_("check-in opens"), null=True, blank=True)
    check_in_closes_at = RenderableDateTimeField(_("check-in closes"), null=True, blank=True)
    registration = models.CharField(
        _("registration"), max_length=10, choices=Window.choices, default=Window.NOT_OPEN
    )
    check_in = models.CharField(
        _("check-in"), max_length=10, choices=Window.choices, default=Window.NOT_OPEN
    )
    members_only = models.BooleanField(_("club members only"), default=False)
    allow_bots = models.BooleanField(
        _("allow bot accounts"),
        default=False,
        help_text=_("Accounts marked as bots (programs) may register."),
    )
    min_rating = models.IntegerField(_("minimum rating"), null=True, blank=True)
    max_rating = models.IntegerField(_("maximum rating"), null=True, blank=True)
    capacity = models.PositiveIntegerField(_("capacity"), null=True, blank=True)
    first_round = models.CharField(
        _("first round seating"), max_length=8, choices=FirstRound.choices, default=FirstRound.LOT
    )
    avoid_same_club = models.BooleanField(_("keep club mates apart"), default=False)
    knockout_advance = models.PositiveSmallIntegerField(
        _("advance per table (knockout)"), default=2
    )
    placement_points = models.JSONField(
        _("placement points"),
        default=dict,
        blank=True,
        help_text=_('Per table size, e.g. {"4": [3, 2, 1, 0]}; empty means the scaled default.'),
        validators=[validate_placement_points],
    )
    tiebreaks = models.JSONField(
        _("tie-break order"), default=default_tiebreaks, validators=[validate_tiebreaks]
    )
    late_entry_until_round = models.PositiveSmallIntegerField(
        _("late entry until round"),
        default=1,
        help_text=_("Entries are taken until this round is seated (1 means no late entry)."),
    )
    missed_round_points = models.FloatField(_("points for a missed round"), default=0.0)
    missed_round_penalty = models.CharField(
        _("penalty for a missed round"),
        max_length=12,
        default="round_max",
        help_text=_('A number, "round_max" (worst total of that round) or "round_mean".'),
    )
    turn_seconds = models.PositiveIntegerField(_("seconds per move (online)"), default=30)
    bot_level = models.CharField(_("bot level for no-shows"), max_length=16, default="heuristic")
    no_show_grace_minutes = models.PositiveIntegerField(_("no-show grace (minutes)"), default=10)
    no_show_policy = models.CharField(
        _("no-shows"), max_length=10, choices=NoShow.choices, default=NoShow.BOT
    )
    seed = models.CharField(_("seed"), max_length=32, default=new_tournament_seed, editable=False)
    standings_version = models.PositiveIntegerField(default=0, editable=False)
    # Set by the organiser's "pause": the scheduler seats and starts no round while it is set
    # (tables already playing finish); "resume" clears it.
    paused_at = RenderableDateTimeField(_("paused since"), null=True, blank=True, editable=False)
    created = models.DateTimeField(auto_now_add=True, null=True)
    series = models.ForeignKey(
        "tournaments.Series",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="events",
        verbose_name=_("series"),
        editable=False,
    )
    # The series' occurrence this event is (UTC); None once it left the series' schedule.
    series_occurrence = RenderableDateTimeField(null=True, blank=True, editable=False)
    season = models.ForeignKey(
        "tournaments.ClubSeason",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="events",
        verbose_name=_("season"),
        help_text=_("A season of the same club whose dates include the event's day."),
    )

    class Meta:
        ordering = ["starts_at", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(table_size__gte=3, table_size__lte=6),
                name="tournament_table_size_3_to_6",
            ),
            models.UniqueConstraint(
                fields=["series", "series_occurrence"],
                condition=models.Q(series__isnull=False, series_occurrence__isnull=False),
                name="one_event_per_series_occurrence",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", args=[self.slug])

    def clean(self) -> None:
        self.name = single_line(self.name)
        check_date_bounds(self, self.ORGANISER_DATES)
        if self.mode == self.Mode.HYBRID and self.format in (
            self.Format.KNOCKOUT,
            self.Format.FIXED,
        ):
            raise ValidationError(_("Hybrid events use Swiss or duplicate seating."))
        if (
            self.min_rating is not None
            and self.max_rating is not None
            and self.min_rating > self.max_rating
        ):
            raise ValidationError(_("The minimum rating is above the maximum."))
        if self.season_id is not None:
            problem = self.season.refusal_for(self)
            if problem:
                raise ValidationError({"season": problem})

    @property
    def group_name(self) -> str:
        """Channel-layer group of the live tournament page."""
        return f"tournament.{self.pk}"

    @property
    def allowed_sizes(self) -> tuple[int, ...]:
        if not self.allow_other_sizes:
            return (self.table_size,)
        return tuple(
            s for s in (self.table_size - 1, self.table_size, self.table_size + 1) if 3 <= s <= 6
        )


class Entry(models.Model):
    class Status(models.TextChoices):
        REGISTERED = "registered", _("Registered")
        CHECKED_IN = "checked_in", _("Checked in")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries"
    )
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.REGISTERED
    )
    plays_online = models.BooleanField(_("plays online"), default=True)
    rating = models.FloatField(_("rating at registration"), default=1500.0)
    first_round = models.PositiveSmallIntegerField(_("first round"), default=1)
    seed_number = models.PositiveIntegerField(_("knockout seed"), null=True, blank=True)
    registered_at = models.DateTimeField(auto_now_add=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    # False while an entry someone else made (an organiser) waits for the player's yes: the
    # player's Parties in the event are then unrated (``selectors.unconfirmed_players``).
    confirmed = models.BooleanField(_("confirmed by the player"), default=True)

    class Meta:
        ordering = ["tournament", "registered_at", "pk"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_user")
        ]

    def __str__(self) -> str:
        return gettext("%(user)s in %(tournament)s") % {
            "user": self.user,
            "tournament": self.tournament,
        }


class Round(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Not seated yet")
        SEATED = "seated", _("Seated (not released)")
        STARTED = "started", _("Playing")
        FINISHED = "finished", _("Finished")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    scheduled_at = RenderableDateTimeField(_("starts at"), null=True, blank=True)
    seated_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    no_shows_handled = models.BooleanField(default=False)
    # The start time whose "round starts in 10 minutes" reminder was queued (a rescheduled
    # round is reminded again for its new time, once).
    reminded_for = RenderableDateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_round_number")
        ]

    def __str__(self) -> str:
        return gettext("%(tournament)s, round %(number)s") % {
            "tournament": self.tournament,
            "number": self.number,
        }


class RoundTable(models.Model):
    class Status(models.TextChoices):
        SEATED = "seated", _("Seated")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    size = models.PositiveSmallIntegerField()
    physical = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SEATED)
    game_table = models.OneToOneField(
        "games.Table",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournament_table",
    )
    deal_seed = models.BigIntegerField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("tournament table")
        verbose_name_plural = _("tournament tables")
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="unique_table_in_round")
        ]

    def __str__(self) -> str:
        return gettext("%(round)s, table %(number)s") % {"round": self.round, "number": self.number}


class RoundSeat(models.Model):
    """An entrant's seat in one round; ``total`` is the Partie penalty total once known."""

    table = models.ForeignKey(RoundTable, on_delete=models.CASCADE, related_name="seats")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    total = models.IntegerField(null=True, blank=True)
    present = models.BooleanField(default=False)
    forfeit = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("tournament seat")
        verbose_name_plural = _("tournament seats")
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="unique_seat_at_round_table"),
            models.UniqueConstraint(fields=["round", "entry"], name="one_seat_per_round"),
        ]

    def __str__(self) -> str:
        return gettext("%(entry)s at seat %(seat)s, %(table)s") % {
            "entry": self.entry,
            "seat": self.seat,
            "table": self.table,
        }


class RoundBye(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="byes")

    class Meta:
        verbose_name = _("bye")
        verbose_name_plural = _("byes")
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="one_bye_per_round"),
        ]

    def __str__(self) -> str:
        return gettext("bye for %(entry)s, %(round)s") % {"entry": self.entry, "round": self.round}


class PhysicalResult(models.Model):
    """One submitted score sheet (6 deals x seats) of a physical table; never updated but for
    its confirmation. A correction is a new version."""

    table = models.ForeignKey(RoundTable, on_delete=models.CASCADE, related_name="sheets")
    version = models.PositiveIntegerField()
    penalties = models.JSONField()  # [deal][seat]
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    submitted_at = models.DateTimeField(auto_now_add=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("score sheet")
        verbose_name_plural = _("score sheets")
        ordering = ["table", "version"]
        constraints = [
            models.UniqueConstraint(fields=["table", "version"], name="unique_sheet_version")
        ]

    def __str__(self) -> str:
        return gettext("score sheet v%(version)s, %(table)s") % {
            "version": self.version,
            "table": self.table,
        }

    @property
    def totals(self) -> list[int]:
        return [sum(column) for column in zip(*self.penalties, strict=True)]


class Standing(models.Model):
    """Cached standings line; recomputed as a whole from the stored results."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="standings")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="standings")
    rank = models.PositiveIntegerField()
    points = models.FloatField()
    penalty = models.FloatField()
    opponents_points = models.FloatField()
    table_wins = models.PositiveIntegerField()
    rounds_played = models.PositiveIntegerField()
    rounds_absent = models.PositiveIntegerField()
    percent = models.FloatField(null=True, blank=True)  # duplicate: mean matchpoint percentage

    class Meta:
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        ordering = ["tournament", "rank", "entry"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "entry"], name="one_standing_per_entry")
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.entry}"


class AuditLog(models.Model):
    """Who did what to an event (organisers, admins, and the scheduler as ``actor=None``)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="audit")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    action = models.CharField(max_length=40)
    details = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = _("audit log entry")
        verbose_name_plural = _("audit log")

    def __str__(self) -> str:
        actor = self.actor or gettext("scheduler")
        return f"{self.created:%Y-%m-%d %H:%M} {actor}: {self.action}"


class Announcement(models.Model):
    """A short text the organisers post to the entrants: listed on the event page and sent
    to each entrant as an in-app notice once (``AnnouncementDelivery``). ``token`` comes from
    the form, so a form sent twice posts one announcement."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="announcements"
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    text = models.CharField(_("announcement"), max_length=500)
    token = models.CharField(max_length=64, unique=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = _("announcement")
        verbose_name_plural = _("announcements")

    def __str__(self) -> str:
        return self.text[:60]


class AnnouncementDelivery(models.Model):
    """That one entrant was told about one announcement (unique: told once, even when the
    delivery task runs twice)."""

    announcement = models.ForeignKey(
        Announcement, on_delete=models.CASCADE, related_name="deliveries"
    )
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("announcement delivery")
        verbose_name_plural = _("announcement deliveries")
        constraints = [
            models.UniqueConstraint(
                fields=["announcement", "user"], name="one_delivery_per_announcement_user"
            )
        ]

    def __str__(self) -> str:
        return f"{self.announcement_id} -> {self.user_id}"


# --------------------------------------------------------------------------- recurring events

# The settings a series gives each of its events: the Tournament's own fields (label, choices,
# default, validators) cloned below, so a series event is created exactly like any other event
# (``events.create_tournament`` validates it with ``Tournament.full_clean``).
SERIES_TEMPLATE_FIELDS = (
    "description",
    "format",
    "mode",
    "rounds",
    "table_size",
    "allow_other_sizes",
    "min_players",
    "scheduling",
    "round_interval_minutes",
    "first_round",
    "rated",
    "doubling",
    "layout",
    "members_only",
    "min_rating",
    "max_rating",
    "capacity",
    "avoid_same_club",
    "knockout_advance",
    "turn_seconds",
    "no_show_grace_minutes",
    "no_show_policy",
)


def default_weekdays() -> list[int]:
    return [3]  # Thursday


class Weekday(models.IntegerChoices):
    MONDAY = 0, _("Monday")
    TUESDAY = 1, _("Tuesday")
    WEDNESDAY = 2, _("Wednesday")
    THURSDAY = 3, _("Thursday")
    FRIDAY = 4, _("Friday")
    SATURDAY = 5, _("Saturday")
    SUNDAY = 6, _("Sunday")


class Series(models.Model):
    """A recurring event ("every Thursday 19:30 Europe/Berlin, Swiss, 4 rounds"): its schedule
    and the template of its events. ``series.create_upcoming_events`` creates the events of
    the next ``weeks_ahead`` weeks, one per occurrence (``one_event_per_series_occurrence``)."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="series")
    name = models.CharField(_("name"), max_length=100)
    weekdays = ArrayField(
        models.PositiveSmallIntegerField(choices=Weekday.choices),
        verbose_name=_("weekdays"),
        default=default_weekdays,
    )
    start_time = models.TimeField(_("local start time"))
    time_zone = models.CharField(
        _("time zone"), max_length=64, default="Europe/Berlin", validators=[validate_time_zone]
    )
    weeks_ahead = models.PositiveSmallIntegerField(
        _("create events this many weeks ahead"),
        default=4,
        validators=[MinValueValidator(1), MaxValueValidator(26)],
    )
    active = models.BooleanField(
        _("active"), default=True, help_text=_("Only an active series creates new events.")
    )
    created = models.DateTimeField(auto_now_add=True)

    for _name in SERIES_TEMPLATE_FIELDS:
        locals()[_name] = Tournament._meta.get_field(_name).clone()
    del _name

    class Meta:
        ordering = ["club", "name"]
        verbose_name = _("series")
        verbose_name_plural = _("series")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(table_size__gte=3, table_size__lte=6),
                name="series_table_size_3_to_6",
            )
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        self.name = single_line(self.name)

    @property
    def weekday_labels(self) -> list[str]:
        return [str(Weekday(day).label) for day in self.weekdays]

    def template(self) -> dict:
        """The fields every event of the series is created (or updated) with."""
        fields = {name: getattr(self, name) for name in SERIES_TEMPLATE_FIELDS}
        fields["time_zone"] = self.time_zone
        return fields


class SeriesSkip(models.Model):
    """A local date on which the series does not meet (a holiday)."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="skips")
    date = models.DateField(_("date"))

    class Meta:
        ordering = ["series", "date"]
        verbose_name = _("skipped date")
        verbose_name_plural = _("skipped dates")
        constraints = [
            models.UniqueConstraint(fields=["series", "date"], name="one_skip_per_series_date")
        ]

    def __str__(self) -> str:
        return f"{self.series}: {self.date:%Y-%m-%d}"


def new_calendar_token() -> str:
    return secrets.token_urlsafe(24)


class CalendarToken(models.Model):
    """The secret in a player's calendar feed URL; revoking replaces it (the old URL stops)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_token"
    )
    token = models.CharField(max_length=64, unique=True, default=new_calendar_token)
    created = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("calendar token")
        verbose_name_plural = _("calendar tokens")

    def __str__(self) -> str:
        return str(self.user)


# --------------------------------------------------------------------------- club seasons


def default_place_points() -> list[int]:
    return [10, 8, 6, 5, 4, 3, 2, 1]


def validate_place_points(value: list[int]) -> None:
    """Points for 1st, 2nd, ... place: at least one, none negative, never more for a worse
    place than for a better one."""
    if not value:
        raise ValidationError(_("Give the points for at least the first place."))
    if any(points < 0 for points in value):
        raise ValidationError(_("Points cannot be negative."))
    if any(worse > better for better, worse in zip(value, value[1:], strict=False)):
        raise ValidationError(
            _("A worse place cannot earn more points than a better one (e.g. 10, 8, 6, 5).")
        )


class ClubSeason(models.Model):
    """A club's season: its events (``Tournament.season``) make one table, each player's best
    ``best_of`` results counting (``season_scoring``). Opening and closing are services
    (``tournaments.seasons``), by hand or on the dates; closing stores the table."""

    class Status(models.TextChoices):
        PLANNED = "planned", _("Not open yet")
        OPEN = "open", _("Open")
        CLOSED = "closed", _("Closed")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="seasons")
    name = models.CharField(_("name"), max_length=100)
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"))
    best_of = models.PositiveSmallIntegerField(
        _("results that count"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text=_("Each player's best N events count; empty: every event counts."),
    )
    place_points = ArrayField(
        models.PositiveIntegerField(),
        verbose_name=_("points per place"),
        default=default_place_points,
        validators=[validate_place_points],
        help_text=_("For 1st, 2nd, 3rd ... place, separated by commas; later places score 0."),
    )
    ladder = models.BooleanField(
        _("season of the club ladder"),
        default=False,
        help_text=_(
            "The season page also ranks the members by ladder rating gained during the season; "
            "closing stores that table too."
        ),
    )
    automatic = models.BooleanField(
        _("open and close on its dates"),
        default=True,
        help_text=_("Opens on the first day and closes after the last day by itself."),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PLANNED, editable=False
    )
    opened_at = models.DateTimeField(null=True, blank=True, editable=False)
    closed_at = models.DateTimeField(null=True, blank=True, editable=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "-starts_on", "name"]
        verbose_name = _("club season")
        verbose_name_plural = _("club seasons")
        constraints = [
            models.UniqueConstraint(
                fields=["club"],
                condition=models.Q(status="open"),
                name="one_open_season_per_club",
            ),
            models.UniqueConstraint(fields=["club", "name"], name="unique_season_name_per_club"),
            models.CheckConstraint(
                condition=models.Q(ends_on__gte=models.F("starts_on")),
                name="season_ends_after_it_starts",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        self.name = single_line(self.name)
        check_date_bounds(self, ("starts_on", "ends_on"))
        if self.starts_on and self.ends_on and self.ends_on < self.starts_on:
            raise ValidationError({"ends_on": _("The last day is before the first day.")})
        if self.club_id and self.starts_on and self.ends_on:
            overlapping = (
                ClubSeason.objects.filter(club_id=self.club_id)
                .exclude(pk=self.pk)
                .filter(starts_on__lte=self.ends_on, ends_on__gte=self.starts_on)
            )
            if overlapping.exists():
                raise ValidationError(_("The club has another season on some of these days."))

    def refusal_for(self, tournament: Tournament) -> str | None:
        """Why ``tournament`` cannot belong to this season (None when it can): another club,
        or a start (in the event's own time zone) outside the season's days."""
        if tournament.club_id != self.club_id:
            return gettext("The season belongs to another club.")
        if tournament.starts_at is None:
            return None
        try:
            zone = zoneinfo.ZoneInfo(tournament.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            zone = zoneinfo.ZoneInfo("UTC")
        day = tournament.starts_at.astimezone(zone).date()
        if not self.starts_on <= day <= self.ends_on:
            return gettext(
                "The event's day (%(day)s) is outside the season (%(start)s to %(end)s)."
            ) % {
                "day": day.isoformat(),
                "start": self.starts_on.isoformat(),
                "end": self.ends_on.isoformat(),
            }
        return None


class ClubSeasonStanding(models.Model):
    """A player's stored line in a closed season's table (the archive); ``rating_*`` are the
    ladder figures of a ladder season (None otherwise)."""

    season = models.ForeignKey(ClubSeason, on_delete=models.CASCADE, related_name="standings")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_season_standings"
    )
    rank = models.PositiveIntegerField()
    points = models.PositiveIntegerField()
    events_played = models.PositiveIntegerField()
    events_counted = models.PositiveIntegerField()
    results = ArrayField(models.PositiveIntegerField(), default=list)
    rating_start = models.FloatField(null=True, blank=True)
    rating_end = models.FloatField(null=True, blank=True)
    rated_parties = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["season", "rank", "user"]
        verbose_name = _("club season standing")
        verbose_name_plural = _("club season standings")
        constraints = [
            models.UniqueConstraint(fields=["season", "user"], name="one_line_per_club_season")
        ]

    def __str__(self) -> str:
        return f"{self.season}: {self.rank}. {self.user}"
