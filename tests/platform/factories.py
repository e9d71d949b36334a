"""factory-boy factories for the platform's own models (users come from the games')."""

from __future__ import annotations

import factory
from factory.django import DjangoModelFactory

from rosbi_platform.notifications.models import Kind, Notification
from tests.games.factories import SiteModeratorFactory, UserFactory

__all__ = ["NotificationFactory", "SiteModeratorFactory", "UserFactory"]


class NotificationFactory(DjangoModelFactory):
    """A stored notification, as ``send_notification`` leaves it (not e-mailed)."""

    class Meta:
        model = Notification

    user = factory.SubFactory(UserFactory)
    kind = Kind.TABLE_READY
    key = factory.Sequence(lambda n: f"test:{n}")
    message = factory.Sequence(lambda n: f"Notification {n}")
    url = "/"
