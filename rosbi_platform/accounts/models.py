"""Identity shared by every app: users, their profile, and clubs with memberships."""

import zoneinfo

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """Custom from the first migration so fields can be added later without a painful swap."""


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(
            _("%(value)s is not a known IANA time zone (e.g. Europe/Berlin)."),
            params={"value": value},
        )


class Profile(models.Model):
    class CardLook(models.TextChoices):
        GERMAN = "german", _("German pack (Eichel, Grün, Herz, Schellen)")
        FRENCH = "french", _("French pack (clubs, spades, hearts, diamonds)")

    class Language(models.TextChoices):
        ENGLISH = "en", _("English")
        GERMAN = "de", _("German")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    display_name = models.CharField(_("display name"), max_length=60, blank=True)
    card_look = models.CharField(
        _("card look"), max_length=10, choices=CardLook.choices, default=CardLook.GERMAN
    )
    language = models.CharField(
        _("language"), max_length=5, choices=Language.choices, default=Language.ENGLISH
    )
    time_zone = models.CharField(
        _("time zone"), max_length=64, default="Europe/Berlin", validators=[validate_time_zone]
    )
    # Set once by the owner (``services.mark_as_bot``) and never cleared: a program plays this
    # account, and tables, the ranked queue and tournaments decide whether they take bots.
    bot_since = models.DateTimeField(_("bot account since"), null=True, blank=True)

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return self.public_name

    @property
    def is_bot(self) -> bool:
        return self.bot_since is not None

    @property
    def public_name(self) -> str:
        """What other players see: the display name, else the user name."""
        return self.display_name or self.user.get_username()


class Club(models.Model):
    name = models.CharField(_("name"), max_length=100, unique=True)
    slug = models.SlugField(_("slug"), max_length=100, unique=True)
    description = models.TextField(_("description"), blank=True)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="ClubMembership", related_name="clubs"
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class ClubMembership(models.Model):
    class Role(models.TextChoices):
        MEMBER = "member", _("Member")
        ORGANISER = "organiser", _("Organiser")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_memberships"
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined = models.DateTimeField(_("joined"), auto_now_add=True)

    class Meta:
        verbose_name = _("club membership")
        verbose_name_plural = _("club memberships")
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="unique_club_membership")
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.club} ({self.role})"


class AccessToken(models.Model):
    """A personal access token for programs: only the SHA-256 of the secret is stored, so a
    leaked database shows no usable token; the secret is shown once when it is created."""

    class Scope(models.TextChoices):
        READ = "read", _("Read")
        PLAY = "play", _("Play (tables and the ranked queue)")
        TOURNAMENT_WRITE = "tournament:write", _("Organise tournaments")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="access_tokens"
    )
    name = models.CharField(_("name"), max_length=60)
    prefix = models.CharField(_("starts with"), max_length=16)
    secret_hash = models.CharField(max_length=64, unique=True)
    scopes = models.JSONField(_("scopes"), default=list)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("access token")
        verbose_name_plural = _("access tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def active(self) -> bool:
        return self.revoked_at is None
