"""The header's unread count on every page."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.http import HttpRequest

from rosbi_platform.notifications import selectors


def unread_notifications(request: HttpRequest) -> dict[str, Any]:
    """``unread_notifications``: a callable the template evaluates once, in ``{% with %}``,
    so a page that shows no header (or an anonymous visitor) costs no query."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"unread_notifications": partial(selectors.unread_count, user)}
