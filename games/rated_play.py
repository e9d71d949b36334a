"""Who may sit at a rated table is the ratings app's question: games asks it through this hook.

Games never imports ratings (docs/architecture.md), so ``RatingsConfig.ready`` installs
``ratings.eligibility.rated_play_refusal`` here with ``set_rated_play_check``; the lobby and
rematch actions call ``rated_play_refusal`` before anyone takes a seat at a rated table (other
than a tournament table, whose seats the event fills under its own rules).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _

from games.events import ServiceError

RatedPlayCheck = Callable[[Any], "str | None"]

_check: RatedPlayCheck | None = None


def set_rated_play_check(check: RatedPlayCheck) -> None:
    """Install the one "may this person play rated now?" check (ratings does, at start-up)."""
    global _check
    _check = check


def rated_play_refusal(user: Any) -> str | None:
    """Why ``user`` may not play rated now, or None (no check installed: no refusal)."""
    if _check is None or user is None:
        return None
    return _check(user)


def require_rated_play(user: Any, *, name: str | None = None) -> None:
    """Raise ``ServiceError("rated_refused")`` when ``user`` may not play rated now.

    ``name`` is given when someone else is asking (a rematch, a start): the sentence then
    says whom it concerns.
    """
    refusal = rated_play_refusal(user)
    if refusal is None:
        return
    if name is not None:
        refusal = _("%(name)s cannot play rated: %(reason)s") % {"name": name, "reason": refusal}
    raise ServiceError("rated_refused", refusal)
