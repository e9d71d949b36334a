"""Template filters for naming bot levels: the measured rating shown beside the name."""

from __future__ import annotations

from django import template

from games.bots import level_rating

register = template.Library()


@register.filter
def with_bot_rating(label: str, level: str) -> str:
    """``"Strong"`` -> ``"Strong · 1650"`` (the level's measured rating), else the label."""
    rating = level_rating(level)
    return label if rating is None else f"{label} · {rating}"
