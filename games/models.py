"""Live tables: seats, the Partie and its deals, the append-only event log, results and chat.

The event log is the table's history as the clients saw it: one row per versioned change, with
``UniqueConstraint(table, version)`` so two writers can never both append version N. The deals
keep their dealt hands and moves, which is all the rules engine needs to rebuild any position.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engine import DealRecord, HouseRules, PartieRecord

BOT_LEVEL_CHOICES = [
    ("random", _("Random")),
    ("beginner", _("Beginner")),
    ("heuristic", _("Heuristic")),
    ("strong", _("Strong")),
    ("expert", _("Expert")),
]


def table_group_name(table_id: int, invite_code: str) -> str:
    return f"table.{table_id}.{invite_code}"


def user_group_name(user_id: int) -> str:
    """The channel-layer group of one user's lobby pages (invitations reach them there).

    Tagged with the database's name: processes on other databases that share the Redis (test
    runs, staging) also have a "user 1".
    """
    name = str(settings.DATABASES["default"].get("NAME", ""))
    tag = hashlib.sha1(name.encode(), usedforsecurity=False).hexdigest()[:10]
    return f"user.{tag}.{user_id}"


def new_invite_code() -> str:
    """A short unguessable code for private tables' invite links."""
    return secrets.token_urlsafe(9)


class Table(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        CLOSED = "closed", _("Closed")
        # Stopped before the first card by its organiser or by all its players: not rated.
        ABORTED = "aborted", _("Aborted")

    name = models.CharField(_("name"), max_length=80)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="owned_tables",
    )
    size = models.PositiveSmallIntegerField(
        _("seats"), validators=[MinValueValidator(3), MaxValueValidator(6)], default=4
    )
    doubling = models.BooleanField(_("doubling"), default=True)
    layout = models.CharField(
        _("layout rule"),
        max_length=16,
        choices=[("extend_first", _("Extend first")), ("free", _("Free"))],
        default="extend_first",
    )
    rated = models.BooleanField(_("rated"), default=False)
    public = models.BooleanField(_("public"), default=True)
    invite_code = models.CharField(
        _("invite code"), max_length=20, unique=True, default=new_invite_code
    )
    turn_seconds = models.PositiveIntegerField(
        _("seconds per move"), default=30, help_text=_("0 means no time limit")
    )
    fill_with_bots = models.BooleanField(_("fill empty seats with bots"), default=False)
    bot_level = models.CharField(
        _("bot level"), max_length=16, choices=BOT_LEVEL_CHOICES, default="heuristic"
    )
    # Whether accounts marked as bots (programs playing over the API) may take a seat.
    allow_bots = models.BooleanField(_("allow bot accounts"), default=False)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    # Last stored event; every change is one TableEvent with version = previous + 1.
    version = models.PositiveIntegerField(default=0)
    # Version of the last event that changed the play itself (deal or move): a move based on an
    # older version is stale, while clock and seat events in between do not invalidate it.
    state_version = models.PositiveIntegerField(default=0)
    turn_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    turn_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # When the bot on turn should have moved: past it the sweeper queues the bot task again
    # (a lost task or a restarted worker must not stall the table).
    bot_due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # Hooks for other apps, as plain values so games never imports them: the tournament round
    # a table plays (tournaments keep the link), the rating pool of a rated table (blank: the
    # ratings app's default pool) and whether the ranked queue formed it.
    tournament_round_id = models.PositiveIntegerField(null=True, blank=True, db_index=True)
    rating_pool = models.CharField(_("rating pool"), max_length=32, blank=True, default="")
    ranked_queue = models.BooleanField(_("formed by the ranked queue"), default=False)
    # The club whose organisers moderate the table (tournament tables), as a plain value.
    club_id = models.PositiveIntegerField(null=True, blank=True)
    # The table this one is the rematch of: one rematch per table (a one-to-one is unique).
    rematch_of = models.OneToOneField(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematch"
    )
    created = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(size__gte=3, size__lte=6), name="table_size_3_to_6"
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} (#{self.pk})"

    @property
    def rules(self) -> HouseRules:
        return HouseRules(doubling=self.doubling, layout=self.layout)

    @property
    def group_name(self) -> str:
        """The channel-layer group every consumer of this table listens on.

        The random invite code makes it unique beyond this database: processes on other
        databases that share the Redis (test runs, staging) also have a "table 1".
        """
        return table_group_name(self.pk, self.invite_code)


class Seat(models.Model):
    """A place at a table: a user, a bot (``bot_level`` set), or empty (neither)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="table_seats",
    )
    bot_level = models.CharField(max_length=16, choices=BOT_LEVEL_CHOICES, blank=True)
    # The player's clock ran out: a bot plays for the seat until the player acts again.
    away = models.BooleanField(default=False)
    # Who held the seat when the Partie started, and when they left it for good (a bot then
    # plays on): ratings and standings count the Partie for that player.
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    left_at = models.DateTimeField(null=True, blank=True)
    # The player who started here resigned (a bot finishes the seat): placed last.
    resigned = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="unique_seat_number"),
            models.UniqueConstraint(
                fields=["table", "user"],
                condition=models.Q(user__isnull=False),
                name="one_seat_per_user_per_table",
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.number} of {self.table_id}"

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.bot_level

    @property
    def is_bot(self) -> bool:
        return self.user_id is None and bool(self.bot_level)


class Partie(models.Model):
    """The six deals played at a table; ``seed`` is set only by tests and duplicate events."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="partie")
    first_dealer = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField(null=True, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Exactly-once hand-off to ratings and tournaments, set under the row lock.
    handed_off = models.BooleanField(default=False)
    handed_off_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("Partie")
        verbose_name_plural = _("Parties")
        indexes = [
            # The hand-off sweeper's question: finished, not handed off yet (a few rows).
            models.Index(
                fields=["finished_at"],
                condition=models.Q(handed_off=False, finished_at__isnull=False),
                name="partie_awaiting_hand_off",
            )
        ]

    def __str__(self) -> str:
        return f"Partie at table {self.table_id}"

    def to_record(self) -> PartieRecord:
        """The Partie as a RULES.md section 6 record (the engine's ``PartieRecord``)."""
        table = self.table
        deals = tuple(d.to_record() for d in self.deals.order_by("number"))
        return PartieRecord(
            players=table.size,
            first_dealer=self.first_dealer,
            deals=deals,
            rules_given=table.rules.to_dict(),
        )


class PartieDeal(models.Model):
    partie = models.ForeignKey(Partie, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField()  # 0..5
    contract = models.CharField(max_length=24)
    dealer = models.PositiveSmallIntegerField()
    hands = models.JSONField()  # list of card-code lists, seats 0..n-1
    moves = models.JSONField(default=list)  # card codes and "pass", in playing order
    penalties = models.JSONField(null=True, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        ordering = ["partie", "number"]
        constraints = [
            models.UniqueConstraint(fields=["partie", "number"], name="unique_deal_number"),
            models.CheckConstraint(condition=models.Q(number__lte=5), name="deal_number_0_to_5"),
        ]

    def __str__(self) -> str:
        return f"deal {self.number} ({self.contract}) of Partie {self.partie_id}"

    def to_record(self) -> DealRecord:
        return DealRecord.from_dict(
            {
                "players": len(self.hands),
                "contract": self.contract,
                "dealer": self.dealer,
                "hands": self.hands,
                "moves": self.moves,
            }
        )


class TableEvent(models.Model):
    """One versioned change of a table, stored in full (hands included); never updated."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="events")
    version = models.PositiveIntegerField()
    kind = models.CharField(max_length=24)
    data: Any = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("table event")
        verbose_name_plural = _("table events")
        ordering = ["table", "version"]
        constraints = [
            models.UniqueConstraint(fields=["table", "version"], name="unique_table_version")
        ]

    def __str__(self) -> str:
        return f"{self.kind} v{self.version} at table {self.table_id}"

    def as_message(self) -> dict[str, Any]:
        """The full stored event as the channel layer and ``event_for_viewer`` expect it."""
        return {"version": self.version, "event": {"kind": self.kind, **self.data}}


class SeatResult(models.Model):
    partie = models.ForeignKey(Partie, on_delete=models.CASCADE, related_name="results")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="partie_results",
    )
    bot_level = models.CharField(max_length=16, blank=True)
    total = models.IntegerField()
    place = models.PositiveSmallIntegerField()
    # Copied from the seat: the player who started the Partie here and when they left.
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    left_at = models.DateTimeField(null=True, blank=True)
    resigned = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("seat result")
        verbose_name_plural = _("seat results")
        ordering = ["partie", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["partie", "seat"], name="unique_result_seat")
        ]

    def __str__(self) -> str:
        return f"seat {self.seat}: {self.total} (place {self.place})"


class ChatMessage(models.Model):
    class Channel(models.TextChoices):
        PLAYERS = "players", _("Players")
        SPECTATORS = "spectators", _("Spectators")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat_messages")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    channel = models.CharField(max_length=12, choices=Channel.choices)
    text = models.CharField(max_length=500)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["table", "created"]

    def __str__(self) -> str:
        return f"{self.author_id} on {self.channel}: {self.text[:30]}"


class TableMute(models.Model):
    """A user silenced in one table's chat by its organiser, a site moderator or an organiser
    of the table's club."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="mutes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_mutes"
    )
    muted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("muted player")
        verbose_name_plural = _("muted players")
        constraints = [models.UniqueConstraint(fields=["table", "user"], name="unique_table_mute")]

    def __str__(self) -> str:
        return f"{self.user_id} muted at {self.table_id}"


class TableVote(models.Model):
    """A seat's vote at a table: to abort it before the first card, or for a rematch.

    One vote per seat and kind; the action happens when every seated human has voted.
    """

    class Kind(models.TextChoices):
        ABORT = "abort", _("Abort")
        REMATCH = "rematch", _("Rematch")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="votes")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "kind", "seat"]
        verbose_name = _("table vote")
        verbose_name_plural = _("table votes")
        constraints = [
            models.UniqueConstraint(fields=["table", "kind", "seat"], name="one_vote_per_seat")
        ]

    def __str__(self) -> str:
        return f"{self.kind} vote of seat {self.seat} at {self.table_id}"


class TableInvitation(models.Model):
    """A named player invited to an open table (optionally to one seat, held for them)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_invitations"
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "created"]
        verbose_name = _("table invitation")
        verbose_name_plural = _("table invitations")
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], name="one_invitation_per_user"),
            models.UniqueConstraint(
                fields=["table", "seat"],
                condition=models.Q(seat__isnull=False),
                name="one_invitation_per_seat",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} invited to {self.table_id}"


class ChatReport(models.Model):
    """A chat line reported as abusive, waiting in the staff queue (admin) until handled."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        DISMISSED = "dismissed", _("Dismissed")
        MUTED = "muted", _("Author muted")

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_reports"
    )
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    created = models.DateTimeField(_("reported"), auto_now_add=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    handled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        verbose_name = _("chat report")
        verbose_name_plural = _("chat reports")
        constraints = [
            models.UniqueConstraint(
                fields=["message", "reporter"], name="one_report_per_reporter_per_message"
            )
        ]

    def __str__(self) -> str:
        return f"report of chat {self.message_id} by {self.reporter_id}"


class Abandonment(models.Model):
    """A player abandoned a rated Partie: their seat went to a bot for good (they left or
    resigned mid-Partie, or their clock ran out and they never came back before the end).

    One row per (player, Partie), so a retried leave, a second timeout or the hand-off running
    twice records it once. Shown on the player's profile and ladder page; past the threshold of
    docs/ratings.md ("Leaving rated games") it makes them wait before the next rated game.
    """

    class Kind(models.TextChoices):
        TIMEOUT = "timeout", _("Timed out and did not come back")
        LEFT = "left", _("Left mid-Partie")
        RESIGNED = "resigned", _("Resigned mid-Partie")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="abandonments"
    )
    partie = models.ForeignKey(Partie, on_delete=models.CASCADE, related_name="abandonments")
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    created = models.DateTimeField(_("when"), default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = _("abandoned Partie")
        verbose_name_plural = _("abandoned Parties")
        constraints = [
            models.UniqueConstraint(fields=["user", "partie"], name="one_abandonment_per_partie")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} abandoned Partie {self.partie_id} ({self.kind})"
