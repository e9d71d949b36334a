"""The one source of the shared base's permission questions.

Every page, API endpoint, websocket, admin page and export asks these functions, never
``is_staff`` or ``is_superuser`` itself: ``is_staff`` only opens the Django admin, and what a
staff user may change there is decided here too.

A *site moderator* holds the permission ``accounts.moderate_site`` (directly, or as a member of
the group "Site moderators"; superusers hold every permission). Site moderators moderate, they
don't take over: they decide new-club requests and may act on any club's members and events,
but they never decide their own join request, never change their own role in a club, and never
see the hands of a deal in progress at a table where they do not sit (docs/clubs.md, "Site
moderators").
"""

from __future__ import annotations

from typing import Any

from rosbi_platform.accounts.models import ORGANISING_ROLES, ClubMembership

MODERATE_SITE = "accounts.moderate_site"
SITE_MODERATORS_GROUP = "Site moderators"


def _signed_in(user: Any) -> bool:
    return (
        user is not None
        and bool(getattr(user, "is_authenticated", False))
        and bool(getattr(user, "is_active", False))
    )


def is_site_moderator(user: Any) -> bool:
    """Whether ``user`` moderates the whole site: the ``moderate_site`` permission (or the
    group holding it, or superuser). Never for visitors or inactive accounts; ``is_staff``
    alone gives nothing. Django caches a user's permissions on the object, so one request asks
    the database once."""
    if not _signed_in(user):
        return False
    return bool(user.has_perm(MODERATE_SITE))


def club_role(user: Any, club_id: int | None) -> str | None:
    """The user's own role in the club (None for visitors, inactive accounts, non-members)."""
    if club_id is None or not _signed_in(user):
        return None
    return (
        ClubMembership.objects.filter(club_id=club_id, user_id=user.pk)
        .values_list("role", flat=True)
        .first()
    )


def is_club_organiser_by_role(user: Any, club_id: int | None) -> bool:
    """Owners and organisers of the club by their membership (no moderator power)."""
    return club_role(user, club_id) in ORGANISING_ROLES


def is_club_owner_by_role(user: Any, club_id: int | None) -> bool:
    """Owners of the club by their membership (no moderator power)."""
    return club_role(user, club_id) == ClubMembership.Role.OWNER


def may_manage_club(user: Any, club_id: int | None) -> bool:
    """Whether ``user`` runs the club's events and lets members in: the club's owners and
    organisers, and site moderators."""
    return is_club_organiser_by_role(user, club_id) or is_site_moderator(user)


def may_own_club(user: Any, club_id: int | None) -> bool:
    """Whether ``user`` manages the club's members and their roles: the club's owners, and
    site moderators (who still never change their own role: ``accounts.clubs``)."""
    return is_club_owner_by_role(user, club_id) or is_site_moderator(user)


def managed_club_ids(user: Any) -> list[int] | None:
    """The clubs ``user`` manages: None means every club (site moderators); else the ids of
    the clubs they own or organise (empty for everyone else)."""
    if not _signed_in(user):
        return []
    if is_site_moderator(user):
        return None
    return list(
        ClubMembership.objects.filter(user_id=user.pk, role__in=ORGANISING_ROLES).values_list(
            "club_id", flat=True
        )
    )


def may_decide_club_requests(user: Any) -> bool:
    """Whether ``user`` creates clubs and approves or declines requests for new ones."""
    return is_site_moderator(user)
