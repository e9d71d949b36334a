"""May this person play rated now? The one answer, asked by every rated entry point.

``rated_play_refusal(user)`` returns a sentence for people when ``user`` may not play rated
now, or None when they may. Every door to rated play asks it: creating, joining and starting a
rated table and its rematch (``games.lobby``, ``games.rematches``, through the hook that
``RatingsConfig.ready`` installs with ``games.rated_play.set_rated_play_check``, because games
never imports ratings), and the ranked queue (``ratings.ranked_queue``). The web pages, the
API, the websocket and the admin reach rated play only through those services.

Each rule is a small function in ``RATED_PLAY_CHECKS`` returning a refusal or None; the first
refusal wins. Add a rule by appending a function to that list.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _

from ratings.abandon_cooldown import abandon_cooldown_refusal
from rosbi_platform.accounts.selectors import is_bot_account
from rosbi_platform.accounts.verification import email_verification_refusal

RatedPlayCheck = Callable[[Any], "str | None"]


def refuse_bot_accounts(user: Any) -> str | None:
    """Programs playing over the API are not rated: the ladder ranks people (docs/api.md)."""
    if is_bot_account(user):
        return _("Bot accounts do not play rated Parties.")
    return None


def refuse_unverified_email(user: Any) -> str | None:
    """A new account proves its e-mail address before its results count for the ladder
    (``accounts.verification``; accounts from before verification count as verified)."""
    return email_verification_refusal(user)


RATED_PLAY_CHECKS: list[RatedPlayCheck] = [
    refuse_bot_accounts,
    # Abandoned rated Parties past the threshold: a wait (docs/ratings.md, "Leaving rated
    # games").
    abandon_cooldown_refusal,
    refuse_unverified_email,
]


def rated_play_refusal(user: Any) -> str | None:
    """Why ``user`` may not play rated now (a sentence for people), or None when they may."""
    for check in RATED_PLAY_CHECKS:
        refusal = check(user)
        if refusal:
            return refusal
    return None
