"""Every write to accounts data goes through these functions (views stay thin)."""

from __future__ import annotations

from django.contrib.auth.password_validation import validate_password
from django.db import transaction
from django.utils import timezone

from rosbi_platform.accounts.models import Club, ClubMembership, Profile, User
from rosbi_platform.accounts.names import check_display_name
from rosbi_platform.accounts.verification import request_verification_email


def ensure_profile(user: User) -> Profile:
    """Profiles are created on sign-up; users made elsewhere (createsuperuser) get one lazily."""
    profile, _created = Profile.objects.get_or_create(user=user)
    return profile


@transaction.atomic
def register_user(
    *, username: str, email: str, password: str, display_name: str = "", language: str = "en"
) -> User:
    """Create a player account together with its profile, validating the password, and send
    the e-mail verification link."""
    user = User(username=username, email=email)
    validate_password(password, user)
    user.set_password(password)
    user.full_clean(exclude=["password"])
    if display_name.strip():
        check_display_name(display_name, None)
    else:
        # Without a display name others see the user name: it must not impersonate either.
        check_display_name(username, None, field="username")
    user.save()
    Profile.objects.create(user=user, display_name=display_name, language=language)
    # The account starts unverified: the link goes out once the account is committed.
    request_verification_email(user)
    return user


@transaction.atomic
def update_profile(user: User, **changes: str) -> Profile:
    """Change profile fields; validators (e.g. the IANA time zone) run before saving, and a
    new display name must not impersonate (``names.check_display_name``): a ValidationError
    naming the field."""
    allowed = {"display_name", "card_look", "language", "time_zone"}
    unknown = set(changes) - allowed
    if unknown:
        raise ValueError(f"not profile fields: {sorted(unknown)}")
    profile = ensure_profile(user)
    if "display_name" in changes and changes["display_name"] != profile.display_name:
        check_display_name(changes["display_name"], user.pk)
    for name, value in changes.items():
        setattr(profile, name, value)
    profile.full_clean()
    profile.save()
    return profile


def create_club(*, name: str, slug: str, description: str = "") -> Club:
    club = Club(name=name, slug=slug, description=description)
    club.full_clean()
    club.save()
    return club


def add_club_member(
    club: Club, user: User, role: str = ClubMembership.Role.MEMBER
) -> ClubMembership:
    """Join a user to a club (or change their role); never duplicates a membership."""
    membership, _created = ClubMembership.objects.update_or_create(
        club=club, user=user, defaults={"role": role}
    )
    return membership


def mark_as_bot(user: User) -> Profile:
    """Mark the account as played by a program, for good (as Lichess does): tables, the ranked
    queue and tournaments then decide whether they take it. Marking twice changes nothing."""
    with transaction.atomic():
        profile = Profile.objects.select_for_update().filter(user=user).first()
        if profile is None:
            profile = ensure_profile(user)
        if profile.bot_since is None:
            profile.bot_since = timezone.now()
            profile.save(update_fields=["bot_since"])
    return profile
