"""Rating storage: ratings per player and pool, the ledger of rated Parties, the ranked queue,
and seasons. The maths lives in ``ratings/elo.py``; the writes in the action
modules (``ratings/updates.py``, ``seasons.py``, ``ranked_queue.py``, ``recording.py``).

Exactly-once updates rest on three things kept here: ``RatedPartie`` (one row per finished rated
Partie, unique), ``RatingChange`` (one row per Partie and player, unique) and ``RatingLedger``
(one row per pool that every writer locks, with the high-water mark of what was applied).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ratings import elo
from ratings.permissions import COLLUSION_REPORT_CODENAME, COLLUSION_REPORT_NAME

LADDER_POOL = "ladder"


class PlayerRating(models.Model):
    """A player's current rating in one pool (the ladder); absent until the first rated Partie."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    pool = models.CharField(_("pool"), max_length=32, default=LADDER_POOL)
    mu = models.FloatField(default=elo.INITIAL_MU)
    sigma = models.FloatField(default=elo.INITIAL_SIGMA)
    games = models.PositiveIntegerField(default=0)
    last_played = models.DateTimeField(null=True, blank=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=["user", "pool"], name="unique_rating_per_pool")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.pool}: {self.display}"

    @property
    def display(self) -> str:
        return elo.display(self.as_rating())

    def as_rating(self) -> elo.Rating:
        played = self.last_played.timestamp() if self.last_played is not None else None
        return elo.Rating(mu=self.mu, sigma=self.sigma, games=self.games, last_played=played)


class RatingLedger(models.Model):
    """One row per pool: the lock every rating writer takes, and how far the pool is applied.

    ``last_finished_at``/``last_partie_id`` is the order key of the last applied Partie: a job
    that sorts before it arrived late and makes the pool replay from that point.
    ``model_version`` is the ``elo.MODEL_VERSION`` the stored ratings were computed under: when
    the rules change, the pool's next update recomputes it from its history first.
    """

    pool = models.CharField(max_length=32, unique=True)
    applied = models.PositiveIntegerField(default=0)
    last_finished_at = models.DateTimeField(null=True, blank=True)
    last_partie_id = models.BigIntegerField(null=True, blank=True)
    model_version = models.PositiveSmallIntegerField(default=elo.MODEL_VERSION)

    class Meta:
        verbose_name = _("rating ledger")
        verbose_name_plural = _("rating ledgers")

    def __str__(self) -> str:
        return f"ledger {self.pool}: {self.applied} applied"


class RatedPartie(models.Model):
    """A finished rated Partie waiting for (or done with) its rating update.

    ``participants`` is the rating input frozen at finishing time, one entry per seat:
    ``{"seat", "user_id" (None for bots), "bot_level", "bot_mu", "bot_sigma", "total", "place",
    "left"}``; ``bot_mu``/``bot_sigma`` are the rating a bot seat counts as (its level's measured
    rating when the Partie was recorded; None for a person). A human who left a started table
    is listed with their ``user_id`` and ``left=True`` although a bot finished the seat (their
    seat, not a bot seat). Recompute replays these rows, so history cannot drift with later
    edits, a re-measure of the bot levels included.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        APPLIED = "applied", _("Applied")
        SKIPPED = "skipped", _("Skipped (fewer than two rated players)")

    partie = models.OneToOneField(
        "games.Partie", on_delete=models.CASCADE, related_name="rated_partie"
    )
    pool = models.CharField(max_length=32, default=LADDER_POOL)
    finished_at = models.DateTimeField()
    participants = models.JSONField()
    # No index of its own: every lookup by status also names the pool (``rated_order``), and
    # two more indexes (Django adds a ``LIKE`` one) made marking 100,000 jobs applied in the
    # recompute's one UPDATE about a quarter slower.
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    recorded_at = models.DateTimeField(auto_now_add=True)
    applied_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("rated Partie")
        verbose_name_plural = _("rated Parties")
        indexes = [
            models.Index(fields=["pool", "status", "finished_at", "partie"], name="rated_order")
        ]

    def __str__(self) -> str:
        return f"rated Partie {self.partie_id} ({self.status})"


class RatingChange(models.Model):
    """What one Partie did to one player's rating; ``*_before`` lets the pool rewind exactly."""

    # No single-column indexes: the unique (partie, user) and the (user, pool, finished_at)
    # index serve those lookups, and every extra index slows the recompute's inserts.
    partie = models.ForeignKey(
        "games.Partie", on_delete=models.CASCADE, related_name="rating_changes", db_index=False
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        db_index=False,
    )
    pool = models.CharField(max_length=32, default=LADDER_POOL)
    finished_at = models.DateTimeField()
    seat = models.PositiveSmallIntegerField()
    total = models.IntegerField()
    place = models.PositiveSmallIntegerField()
    left = models.BooleanField(default=False)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    games_before = models.PositiveIntegerField()
    last_played_before = models.DateTimeField(null=True, blank=True)
    mu_after = models.FloatField()
    sigma_after = models.FloatField()

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            models.UniqueConstraint(fields=["partie", "user"], name="one_change_per_partie_player")
        ]
        indexes = [
            models.Index(fields=["user", "pool", "finished_at"], name="change_history"),
        ]

    def __str__(self) -> str:
        return (
            f"{self.user_id}: {self.mu_before:.0f} -> {self.mu_after:.0f} (Partie {self.partie_id})"
        )

    @property
    def delta(self) -> int:
        return round(self.mu_after) - round(self.mu_before)


class LadderQueueEntry(models.Model):
    """A player waiting for a ranked table. ``ip`` is kept for the same-IP rule and the collusion
    report (seats do not store addresses); only holders of ``ratings.view_collusion_report``
    see it."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting")
        MATCHED = "matched", _("Matched")
        LEFT = "left", _("Left the queue")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ladder_queue_entries"
    )
    pool = models.CharField(max_length=32, default=LADDER_POOL)
    joined_at = models.DateTimeField()
    ip = models.GenericIPAddressField(null=True, blank=True)
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.WAITING, db_index=True
    )
    table = models.ForeignKey(
        "games.Table",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="ladder_queue_entries",
    )
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("ladder queue entry")
        verbose_name_plural = _("ladder queue entries")
        # IP addresses are for moderators (``ratings.permissions``), not for every staff member.
        permissions = [(COLLUSION_REPORT_CODENAME, COLLUSION_REPORT_NAME)]
        constraints = [
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(status="waiting"),
                name="one_waiting_entry_per_user",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.status} since {self.joined_at:%H:%M:%S}"


class Season(models.Model):
    """A ladder season; closing it (``ratings.seasons.close_season``, on ``ends_at`` or by
    hand) archives the standings, soft-resets the pool and opens the next season.

    Seasons are numbered; the name is empty unless an organiser gave one, and ``title`` words
    "Season N" in the reader's language when the page is drawn (never stored in one language).
    """

    pool = models.CharField(max_length=32, default=LADDER_POOL)
    number = models.PositiveIntegerField(_("number"), default=1)
    name = models.CharField(
        _("name"),
        max_length=80,
        blank=True,
        help_text=_("Leave empty to show “Season N” in each reader's language."),
    )
    started_at = models.DateTimeField()
    # When the season is planned to close: beat closes it then (``seasons.close_due_seasons``),
    # and the next season is planned as long. Empty: it closes only by hand.
    ends_at = models.DateTimeField(
        _("ends at"),
        null=True,
        blank=True,
        help_text=_("The season closes on its own at this time; leave empty to close it by hand."),
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    # The soft reset applied at closing, kept so a recompute replays it identically.
    reset_pull = models.FloatField(default=0.5)
    reset_sigma = models.FloatField(default=270.0)

    class Meta:
        ordering = ["-started_at"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.UniqueConstraint(
                fields=["pool"],
                condition=models.Q(closed_at__isnull=True),
                name="one_open_season_per_pool",
            )
        ]

    def __str__(self) -> str:
        return str(self.title)

    @property
    def title(self) -> str:
        """The season's own name, or "Season N" translated into the active language."""
        return self.name or gettext("Season %(number)s") % {"number": self.number}


class SeasonStanding(models.Model):
    """A player's final line in a closed season; ``rank`` is None when not eligible."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standings")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="season_standings"
    )
    rank = models.PositiveIntegerField(null=True, blank=True)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField()
    season_games = models.PositiveIntegerField(default=0)
    display = models.CharField(max_length=8)

    class Meta:
        verbose_name = _("season standing")
        verbose_name_plural = _("season standings")
        ordering = ["season", "rank", "-mu"]
        constraints = [
            models.UniqueConstraint(fields=["season", "user"], name="one_standing_per_season")
        ]

    def __str__(self) -> str:
        return f"{self.season}: {self.user_id} #{self.rank} {self.display}"


class Leaderboard(models.Model):
    """A pool's ranked players in rank order, numbered by PostgreSQL
    (``ratings.leaderboard.refresh_leaderboard``) after rating changes and every minute.

    One row per pool holding the user ids in rank order: a page of the leaderboard is a slice
    of that array (rank = position) and a player's rank its position in it, whatever the
    number of players above; numbering on every request walked every player above the page,
    and a row per rank made each renumbering rewrite tens of thousands of rows."""

    pool = models.CharField(_("pool"), max_length=32, primary_key=True)
    computed_at = models.DateTimeField(_("computed at"))
    players = models.PositiveIntegerField(_("players"))
    user_ids = ArrayField(models.BigIntegerField(), default=list)
    # What a page shows, summed up: the order and each ranked player's stored rating. Equal
    # digests mean equal pages (but for names and sigma grown by the minutes since), so a
    # renumbering that changed nothing (beat's, each minute) keeps the cached pages.
    digest = models.CharField(_("digest"), max_length=32, blank=True, default="")

    class Meta:
        verbose_name = _("leaderboard")
        verbose_name_plural = _("leaderboards")

    def __str__(self) -> str:
        return f"{self.pool}: {self.players} ranked at {self.computed_at:%Y-%m-%d %H:%M:%S}"
