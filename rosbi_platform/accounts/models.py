"""Identity shared by every app: users, their profile, and clubs with memberships, the
requests that lead to them (a new club, joining a club) and clubs' invite links."""

import secrets
import zoneinfo

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """Custom from the first migration so fields can be added later without a painful swap."""

    # Set once by ``accounts.deletion.delete_account``: the person is anonymised; the row stays
    # so every result of the tables they played at keeps its seat.
    deleted_at = models.DateTimeField(_("deleted"), null=True, blank=True, editable=False)

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        # The one site-wide power beyond a club's own roles (``accounts.permissions``):
        # granted to a user, or through the "Site moderators" group. ``is_staff`` only opens
        # the admin and gives no permission of its own.
        permissions = [("moderate_site", "Moderate the site (clubs, tables, reports)")]


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
    # The address the owner proved to read (``accounts.verification``): the account counts as
    # verified while it equals the user's e-mail, so changing the address (on the profile, in
    # the admin, anywhere) makes it unverified again without anyone having to remember to.
    verified_email = models.EmailField(_("verified e-mail address"), blank=True)
    email_verified_at = models.DateTimeField(_("e-mail verified"), null=True, blank=True)
    # When the last verification e-mail went out: resending is throttled on it.
    verification_sent_at = models.DateTimeField(
        _("verification e-mail sent"), null=True, blank=True
    )

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
        OWNER = "owner", _("Owner")

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


# Roles that run the club's events (owners do everything organisers do, and manage members).
ORGANISING_ROLES = (ClubMembership.Role.ORGANISER, ClubMembership.Role.OWNER)


class Decision(models.TextChoices):
    PENDING = "pending", _("Waiting for a decision")
    APPROVED = "approved", _("Approved")
    DECLINED = "declined", _("Declined")


class ClubRequest(models.Model):
    """A user asks staff for a new club; approving it creates the club with them as owner."""

    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_requests"
    )
    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(_("slug"), max_length=100)
    description = models.TextField(_("description"), blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Decision.choices, default=Decision.PENDING
    )
    created = models.DateTimeField(_("requested"), auto_now_add=True)
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    club = models.OneToOneField(
        Club, on_delete=models.SET_NULL, null=True, blank=True, related_name="request"
    )

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = _("club request")
        verbose_name_plural = _("club requests")
        constraints = [
            models.UniqueConstraint(
                fields=["slug"],
                condition=models.Q(status="pending"),
                name="one_pending_request_per_club_slug",
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_status_display()})"


class MembershipRequest(models.Model):
    """A user asks to join a club; its owners or organisers approve or decline."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="membership_requests")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="membership_requests"
    )
    message = models.CharField(_("message"), max_length=300, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Decision.choices, default=Decision.PENDING
    )
    created = models.DateTimeField(_("requested"), auto_now_add=True)
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["created", "pk"]
        verbose_name = _("membership request")
        verbose_name_plural = _("membership requests")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=models.Q(status="pending"),
                name="one_pending_membership_request",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} -> {self.club} ({self.status})"


def new_invite_token() -> str:
    return secrets.token_urlsafe(24)


class ClubInvite(models.Model):
    """A secret link that makes whoever opens it (signed in) a member; revocable, and it may
    expire."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=64, unique=True, default=new_invite_token, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)
    uses = models.PositiveIntegerField(_("members joined"), default=0)

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = _("invite link")
        verbose_name_plural = _("invite links")

    def __str__(self) -> str:
        return f"{self.club}: {self.token[:6]}…"


class ClubRemoval(models.Model):
    """A member the club's owners removed: invite links no longer let them back in; they may
    ask to join, and an organiser who approves that request re-admits them (which ends this
    record). Leaving a club of one's own accord leaves no record."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="removals")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_removals"
    )
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    removed_at = models.DateTimeField(_("removed"), auto_now_add=True)

    class Meta:
        verbose_name = _("removed member")
        verbose_name_plural = _("removed members")
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="club_removal_once"),
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.user_id} removed"


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
