"""Read-only queries about users, profiles and clubs."""

from django.db.models import QuerySet

from rosbi_platform.accounts.models import Club, ClubMembership, User


def list_user_memberships(user: User) -> QuerySet[ClubMembership]:
    return ClubMembership.objects.filter(user=user).select_related("club").order_by("club__name")


def list_clubs() -> QuerySet[Club]:
    return Club.objects.all()
