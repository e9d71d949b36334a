"""Blocking players: a blocked player cannot join the blocker's tables or reach them in chat."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from rosbi_platform.friends.errors import RelationError
from rosbi_platform.friends.models import Block, Follow


def block_user(user: Any, other: Any) -> Block:
    """``user`` blocks ``other`` (once); following ends both ways, so neither sees the other
    among their friends online."""
    if user.pk == other.pk:
        raise RelationError(_("You cannot block yourself."))
    with transaction.atomic():
        block, _created = Block.objects.get_or_create(blocker=user, blocked=other)
        Follow.objects.filter(
            Q(follower=user, followee=other) | Q(follower=other, followee=user)
        ).delete()
    return block


def unblock_user(user: Any, other: Any) -> bool:
    """Lift the block; False when there was none."""
    deleted, _by_model = Block.objects.filter(blocker=user, blocked=other).delete()
    return bool(deleted)
