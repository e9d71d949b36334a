"""Friends' part of a person's data: whom they follow and block (export), and letting go of
every relation at the account's deletion."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from rosbi_platform.accounts.personal_data import DataSection
from rosbi_platform.friends.models import Block, Follow


def export_friends(user: Any) -> dict[str, Any]:
    """Whom the person follows and blocks. Not who follows or blocks them: that is the other
    person's own list, which the site never shows to the one it names."""
    return {
        "following": list(
            Follow.objects.filter(follower=user)
            .order_by("created", "pk")
            .values("followee__username", "created")
        ),
        "blocked": list(
            Block.objects.filter(blocker=user)
            .order_by("created", "pk")
            .values("blocked__username", "created")
        ),
    }


def erase_relations(user: Any) -> None:
    """At deletion: every follow and block, in both directions."""
    Follow.objects.filter(Q(follower=user) | Q(followee=user)).delete()
    Block.objects.filter(Q(blocker=user) | Q(blocked=user)).delete()


SECTION = DataSection(
    name="friends",
    export=export_friends,
    covers=("friends.Follow.follower", "friends.Block.blocker"),
    excludes={
        "friends.Follow.followee": "who follows the person is the follower's own list, never "
        "shown to the person it names",
        "friends.Block.blocked": "who blocked the person is the blocker's private choice",
    },
    erase=erase_relations,
)
