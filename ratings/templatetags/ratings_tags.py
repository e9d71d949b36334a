"""Template helpers: the ranked-queue widget's state for any page that includes it."""

from __future__ import annotations

from typing import Any

from django import template

from ratings import selectors

register = template.Library()


@register.simple_tag(takes_context=True)
def ladder_queue_status(context: dict[str, Any]) -> selectors.QueueStatus:
    """The current user's queue state, so ``_queue_widget.html`` works in any template."""
    request = context.get("request")
    user = getattr(request, "user", None) or context.get("user")
    return selectors.queue_status(user)


@register.filter
def rating_of_user(user: Any) -> str:
    """A user's ladder rating as displayed everywhere: "1623", or "1500?" while provisional."""
    return selectors.display_for(selectors.rating_of(user))
