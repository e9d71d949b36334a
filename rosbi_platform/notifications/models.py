"""What the site tells a person (the notification centre, and e-mail), and which kinds each
person wants where.

Every app notifies through ``services.send_notification``; a notification names its event
occurrence with a ``key`` that is unique per user, so a task that runs twice, or two workers at
once, store one notification and send at most one e-mail. Other apps' rows are referred to by
plain values (``tournament_id``), as the games app does, so this app imports none of them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Kind(models.TextChoices):
    REGISTRATION_CONFIRMED = "registration_confirmed", _("Registration confirmed")
    CHECK_IN_OPEN = "check_in_open", _("Check-in is open")
    TABLE_READY = "table_ready", _("Round seated: your table is ready")
    ROUND_SOON = "round_soon", _("A round starts in 10 minutes")
    RESULTS_POSTED = "results_posted", _("Results posted")
    EVENT_CHANGED = "event_changed", _("Event changed")
    ON_HOLD = "on_hold", _("Event waits for a decision")
    POSTPONED = "postponed", _("Event postponed")
    CANCELLED = "cancelled", _("Event cancelled")
    YOUR_TURN = "your_turn", _("Your turn (turn-based tables)")
    ANNOUNCEMENT = "announcement", _("Announcements from organisers")


# The switches a person has: one per kind, except that everything that became of an event
# (changed, waiting, postponed, cancelled) is one switch, "event changed or cancelled".
SWITCH_OF: dict[str, str] = {
    Kind.ON_HOLD: Kind.EVENT_CHANGED,
    Kind.POSTPONED: Kind.EVENT_CHANGED,
    Kind.CANCELLED: Kind.EVENT_CHANGED,
}
SWITCHES: tuple[str, ...] = (
    Kind.REGISTRATION_CONFIRMED,
    Kind.CHECK_IN_OPEN,
    Kind.TABLE_READY,
    Kind.ROUND_SOON,
    Kind.RESULTS_POSTED,
    Kind.EVENT_CHANGED,
    Kind.YOUR_TURN,
    Kind.ANNOUNCEMENT,
)
# Until a person chooses: every kind on the site; by e-mail all but the frequent, short-lived
# ones (a round in 10 minutes, each round's results), which the site and the event page show.
EMAIL_OFF_BY_DEFAULT: frozenset[str] = frozenset({Kind.ROUND_SOON, Kind.RESULTS_POSTED})


class Notification(models.Model):
    """One thing the site told one person, once per event occurrence (``key``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(_("kind"), max_length=24, choices=Kind.choices)
    # The event occurrence, e.g. "table_ready:table:41" or "your_turn:table:7:v93": unique per
    # user, the database refuses a second notification of the same occurrence.
    key = models.CharField(_("key"), max_length=120)
    message = models.CharField(_("message"), max_length=400)
    subject = models.CharField(_("e-mail subject"), max_length=200, blank=True)
    url = models.CharField(_("link"), max_length=200)
    # The event it is about (tournaments), as a plain value: a hook, never a foreign key.
    tournament_id = models.PositiveIntegerField(null=True, blank=True, db_index=True)
    # Shown in the notification centre (the person's switch for the site when it was sent).
    on_site = models.BooleanField(default=True)
    # To be e-mailed (the person's switch and an address when it was sent); ``emailed_at`` is
    # set, under the row's lock, by the one worker that sent it.
    email_wanted = models.BooleanField(default=False)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    emailed_at = models.DateTimeField(_("e-mailed"), null=True, blank=True)
    read_at = models.DateTimeField(_("read"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="one_notification_per_occurrence")
        ]
        indexes = [
            models.Index(fields=["user", "-created", "-id"], name="notifications_newest"),
            # The header's unread count on every page: a small partial index.
            models.Index(
                fields=["user"],
                condition=models.Q(read_at__isnull=True, on_site=True),
                name="notifications_unread",
            ),
        ]

    def __str__(self) -> str:
        return self.message


class Preference(models.Model):
    """A person's choice for one switch (``SWITCHES``); no row means the defaults."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_choices"
    )
    kind = models.CharField(_("kind"), max_length=24, choices=Kind.choices)
    on_site = models.BooleanField(_("on the site"), default=True)
    email = models.BooleanField(_("by e-mail"), default=True)

    class Meta:
        verbose_name = _("notification preference")
        verbose_name_plural = _("notification preferences")
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="one_preference_per_kind")
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.kind}"
