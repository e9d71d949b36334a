"""Who may see players' IP addresses: holders of ``ratings.view_collusion_report``.

The collusion report and the queue's addresses are for moderators, not for everyone who may
enter the admin (club organisers are staff too). The permission is granted through the
"moderators" group, which ``ensure_moderators_group`` keeps in place after every ``migrate``
(and after a test database flush); superusers hold every permission anyway.
"""

from __future__ import annotations

from typing import Any

COLLUSION_REPORT = "ratings.view_collusion_report"
COLLUSION_REPORT_CODENAME = "view_collusion_report"
COLLUSION_REPORT_NAME = "Can view the collusion report and players' IP addresses"
MODERATORS = "moderators"


def may_see_addresses(user: Any) -> bool:
    """Whether ``user`` may see the collusion report and the addresses queued from."""
    return bool(getattr(user, "is_active", False)) and user.has_perm(COLLUSION_REPORT)


def ensure_moderators_group(using: str = "default") -> Any:
    """The "moderators" group, created with the report permission if missing (idempotent)."""
    from django.contrib.auth.models import Group, Permission
    from django.contrib.contenttypes.models import ContentType

    from ratings.models import LadderQueueEntry

    content_type = ContentType.objects.db_manager(using).get_for_model(LadderQueueEntry)
    permission, _created = Permission.objects.using(using).get_or_create(
        content_type=content_type,
        codename=COLLUSION_REPORT_CODENAME,
        defaults={"name": COLLUSION_REPORT_NAME},
    )
    group, _created = Group.objects.using(using).get_or_create(name=MODERATORS)
    group.permissions.add(permission)
    return group


def on_post_migrate(sender: Any, using: str = "default", **kwargs: Any) -> None:
    """``post_migrate`` receiver of the ratings app."""
    ensure_moderators_group(using)
