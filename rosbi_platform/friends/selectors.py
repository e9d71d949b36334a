"""Reads about follows and blocks, for pages and for the games app's checks."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet

from rosbi_platform.friends.models import Block, Follow


@dataclass(frozen=True)
class Relation:
    """How the viewer stands to another player (the buttons on that player's page)."""

    following: bool
    blocked: bool


def relation_between(viewer: Any, other: Any) -> Relation | None:
    """None for anonymous viewers and for the viewer's own page."""
    if viewer is None or not viewer.is_authenticated or viewer.pk == other.pk:
        return None
    return Relation(
        following=Follow.objects.filter(follower=viewer, followee=other).exists(),
        blocked=Block.objects.filter(blocker=viewer, blocked=other).exists(),
    )


def followed_users(user: Any) -> list[Any]:
    """The players ``user`` follows, with profiles, by name."""
    return list(
        get_user_model()
        .objects.filter(followers__follower=user)
        .select_related("profile")
        .order_by("username")
    )


def blocked_users(user: Any) -> list[Any]:
    """The players ``user`` blocked, by name."""
    return list(
        get_user_model()
        .objects.filter(blocked_by__blocker=user)
        .select_related("profile")
        .order_by("username")
    )


def blocked_ids(user_id: int) -> set[int]:
    """Ids of the players ``user_id`` blocked (their chat is not delivered to them)."""
    return set(Block.objects.filter(blocker_id=user_id).values_list("blocked_id", flat=True))


def blocked_by_query(user_id: int) -> QuerySet[Block]:
    """The ids ``user_id`` blocked, as a subquery (filters chat history in the same query)."""
    return Block.objects.filter(blocker_id=user_id).values("blocked_id")


def blocker_ids(user_id: int) -> set[int]:
    """Ids of the players who blocked ``user_id``."""
    return set(Block.objects.filter(blocked_id=user_id).values_list("blocker_id", flat=True))


def any_blocks(blockers: Iterable[int], blocked_id: int) -> bool:
    """Whether one of ``blockers`` blocked ``blocked_id`` (joining a table of theirs)."""
    ids = [pk for pk in blockers if pk is not None]
    return bool(ids) and Block.objects.filter(blocker_id__in=ids, blocked_id=blocked_id).exists()


def blocks_between(user_id: int, others: Iterable[int | None]) -> bool:
    """Whether ``user_id`` and one of ``others`` blocked each other, either way round
    (inviting a player to a table where someone sits who blocked them, or whom they blocked)."""
    ids = [pk for pk in others if pk is not None and pk != user_id]
    if not ids:
        return False
    return Block.objects.filter(
        Q(blocker_id__in=ids, blocked_id=user_id) | Q(blocker_id=user_id, blocked_id__in=ids)
    ).exists()
