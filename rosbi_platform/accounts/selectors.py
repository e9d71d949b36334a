"""Read-only queries about users, profiles and clubs."""

from django.db.models import QuerySet

from rosbi_platform.accounts.models import AccessToken, Club, ClubMembership, User


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
