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

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return self.public_name

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
