"""Who follows whom (friends) and who blocked whom: relations between two players.

Kept apart from ``accounts`` (identity) because only the social features read them: the
lobby's "friends online", joining tables and chat (``games`` asks ``friends.selectors``).
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Follow(models.Model):
    """``follower`` follows ``followee``: the followee is one of the follower's friends."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows"
    )
    followee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers"
    )
    created = models.DateTimeField(_("since"), auto_now_add=True)

    class Meta:
        verbose_name = _("follow")
        verbose_name_plural = _("follows")
        constraints = [
            models.UniqueConstraint(fields=["follower", "followee"], name="follow_once"),
            models.CheckConstraint(
                condition=~models.Q(follower=models.F("followee")), name="no_self_follow"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followee_id}"


class Block(models.Model):
    """``blocker`` blocked ``blocked``: they cannot join the blocker's tables or reach them in
    chat."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by"
    )
    created = models.DateTimeField(_("since"), auto_now_add=True)

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(
                condition=~models.Q(blocker=models.F("blocked")), name="no_self_block"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocked {self.blocked_id}"
