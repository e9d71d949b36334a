"""Template helpers: the ranked-queue widget's state for any page that includes it, and ratings
as shown on every page (a provisional one explained)."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext, pgettext

from ratings import abandon_cooldown, odds, profile_selectors, selectors

register = template.Library()


@register.simple_tag(takes_context=True)
def ladder_queue_status(context: dict[str, Any]) -> selectors.QueueStatus:
    """The current user's queue state, so ``_queue_widget.html`` works in any template."""
    request = context.get("request")
    user = getattr(request, "user", None) or context.get("user")
    return selectors.queue_status(user)


@register.simple_tag(takes_context=True)
def table_odds(context: dict[str, Any], table: Any) -> list[odds.OddsRow] | None:
    """The pre-start odds of a rated table for the viewing seated player (else None), so the
    games app's table page shows them without importing ratings."""
    request = context.get("request")
    user = getattr(request, "user", None) or context.get("user")
    return odds.table_odds(table, user)


@register.filter
def rating_of_user(user: Any) -> str:
    """A user's ladder rating as displayed everywhere: "1623", or "1500?" while provisional."""
    return selectors.display_for(selectors.rating_of(user))


@register.filter
def rating(display: str) -> str:
    """A displayed rating as HTML; a provisional one ("1500?") says what the "?" means, in
    a title and a short link to the ladder's explanation, wherever it is shown."""
    text = str(display)
    if not text.endswith("?"):
        return text
    explained = gettext(
        "Provisional rating: too few rated Parties, or none for a long time, to be sure yet."
    )
    return format_html(
        '<span class="rating-provisional"><abbr title="{}">{}</abbr> '
        '<a class="provisional-note" href="{}#ratings-explained">{}</a></span>',
        explained,
        text,
        reverse("ratings:ladder"),
        pgettext("rating", "provisional"),
    )


@register.inclusion_tag("ratings/_abandonments.html", takes_context=True)
def abandonment_record(context: dict[str, Any], player: Any) -> dict[str, Any]:
    """The player's abandoned rated Parties of the last 30 days (docs/ratings.md, "Leaving
    rated games"), for their profile and their ladder page; the player themself also sees
    until when they must wait. Dates and kinds only: no table, so nothing private leaks."""
    request = context.get("request")
    viewer = getattr(request, "user", None) or context.get("user")
    record = profile_selectors.abandonment_record(player)
    own = getattr(viewer, "pk", None) == getattr(player, "pk", None)
    return {
        "record": record,
        "refusal": abandon_cooldown.abandon_cooldown_refusal(player) if own else None,
    }
