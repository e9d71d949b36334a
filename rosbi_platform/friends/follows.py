"""Following players: a player's friends are the players they follow."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from rosbi_platform.friends.errors import RelationError
from rosbi_platform.friends.models import Block, Follow


def follow_user(user: Any, other: Any) -> Follow:
    """``user`` follows ``other`` (once: a second call changes nothing)."""
    if user.pk == other.pk:
        raise RelationError(_("You cannot follow yourself."))
    if Block.objects.filter(blocker=user, blocked=other).exists():
        raise RelationError(_("You have blocked this player: unblock them first."))
    if Block.objects.filter(blocker=other, blocked=user).exists():
        # A blocked player does not follow their blocker (and so never sees them online).
        raise RelationError(_("You cannot follow this player."))
    follow, _created = Follow.objects.get_or_create(follower=user, followee=other)
    return follow


def unfollow_user(user: Any, other: Any) -> bool:
    """Stop following ``other``; False when ``user`` did not follow them."""
    deleted, _by_model = Follow.objects.filter(follower=user, followee=other).delete()
    return bool(deleted)
