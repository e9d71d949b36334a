"""Read-only queries about users, profiles and clubs."""

from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from rosbi_platform.accounts import permissions
from rosbi_platform.accounts.models import (
    ORGANISING_ROLES,
    AccessToken,
    Club,
    ClubInvite,
    ClubMembership,
    ClubRemoval,
    ClubRequest,
    Decision,
    MembershipRequest,
    Profile,
    User,
)


def list_user_memberships(user: User) -> QuerySet[ClubMembership]:
    return ClubMembership.objects.filter(user=user).select_related("club").order_by("club__name")


def list_clubs() -> QuerySet[Club]:
    return Club.objects.all()


def list_tokens(user: User) -> QuerySet[AccessToken]:
    """The user's tokens, newest first, revoked ones included (the page shows them greyed)."""
    return AccessToken.objects.filter(user=user).order_by("-created_at", "-pk")


def club_members(club: Club) -> QuerySet[ClubMembership]:
    return (
        ClubMembership.objects.filter(club=club)
        .select_related("user", "user__profile")
        .order_by("user__username")
    )


def is_bot_account(user: object) -> bool:
    """True for a signed-in account its owner marked as a bot."""
    if not getattr(user, "is_authenticated", False):
        return False
    profile = getattr(user, "profile", None)
    return profile is not None and profile.bot_since is not None


# --------------------------------------------------------------------------- club roles


def club_role(user: Any, club_id: int) -> str | None:
    """The user's role in the club (None for visitors and non-members)."""
    return permissions.club_role(user, club_id)


# The permission questions have one source, ``accounts.permissions``; these names stay for
# the callers that read them here.
is_club_organiser = permissions.may_manage_club
is_club_owner = permissions.may_own_club


def organised_club_ids(user: Any) -> list[int]:
    """The clubs whose events the user runs (as owner or organiser)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    return list(
        ClubMembership.objects.filter(user=user, role__in=ORGANISING_ROLES).values_list(
            "club_id", flat=True
        )
    )


def club_member_ids(club: Club) -> list[int]:
    return list(ClubMembership.objects.filter(club=club).values_list("user_id", flat=True))


def pending_membership_requests(club: Club) -> QuerySet[MembershipRequest]:
    return (
        MembershipRequest.objects.filter(club=club, status=Decision.PENDING)
        .select_related("user__profile")
        .order_by("created", "pk")
    )


def pending_membership_request(club: Club, user: Any) -> MembershipRequest | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return MembershipRequest.objects.filter(club=club, user=user, status=Decision.PENDING).first()


def active_invites(club: Club) -> QuerySet[ClubInvite]:
    """The club's invite links that still work, newest first."""
    return ClubInvite.objects.filter(club=club, revoked_at__isnull=True).filter(
        Q(expires_at__isnull=True) | Q(expires_at__gt=timezone.now())
    )


def invite_by_token(token: str) -> ClubInvite | None:
    return ClubInvite.objects.filter(token=token).select_related("club").first()


def club_requests_of(user: Any) -> QuerySet[ClubRequest]:
    return ClubRequest.objects.filter(requested_by=user).order_by("-created", "-pk")


# --------------------------------------------------------------------------- personal data


def account_export(user: User) -> dict[str, Any]:
    """Accounts' part of "download my data": the account, profile, clubs and roles, requests,
    invite links made, and API tokens as metadata (never the secret or its hash)."""
    profile = Profile.objects.filter(user=user).first()
    return {
        "account": {
            "username": user.get_username(),
            "email": user.email,
            "first_name": user.first_name,
            "last_name": user.last_name,
            "date_joined": user.date_joined,
            "last_login": user.last_login,
            "active": user.is_active,
        },
        "profile": {
            "display_name": profile.display_name,
            "card_look": profile.card_look,
            "language": profile.language,
            "time_zone": profile.time_zone,
            "bot_since": profile.bot_since,
        }
        if profile is not None
        else None,
        "clubs": [
            {
                "club": m.club.name,
                "slug": m.club.slug,
                "role": m.role,
                "joined": m.joined,
            }
            for m in list_user_memberships(user)
        ],
        "club_requests": list(
            ClubRequest.objects.filter(requested_by=user)
            .order_by("created", "pk")
            .values("name", "slug", "description", "status", "created", "decided_at")
        ),
        "membership_requests": list(
            MembershipRequest.objects.filter(user=user)
            .order_by("created", "pk")
            .values("club__name", "message", "status", "created", "decided_at")
        ),
        "invite_links_created": list(
            ClubInvite.objects.filter(created_by=user)
            .order_by("created", "pk")
            .values("club__name", "created", "expires_at", "revoked_at", "uses")
        ),
        "club_removals": list(
            ClubRemoval.objects.filter(user=user)
            .order_by("removed_at", "pk")
            .values("club__name", "removed_at")
        ),
        "email_verified": profile is not None
        and bool(profile.verified_email)
        and profile.verified_email == user.email,
        "api_tokens": list(
            AccessToken.objects.filter(user=user)
            .order_by("created_at", "pk")
            .values("name", "prefix", "scopes", "created_at", "last_used_at", "revoked_at")
        ),
    }


def owns_any_club(user: Any) -> bool:
    """Whether the person is an owner of at least one club (they must use two-factor log-in)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return ClubMembership.objects.filter(user_id=user.pk, role=ClubMembership.Role.OWNER).exists()
