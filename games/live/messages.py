"""Refusals of the rules engine worded for the player, in the active language.

The engine is pure and speaks English to programs; its ``IllegalMove`` also names the rule
(``reason``) and the facts (``details``), and this module turns those into a sentence for
the person at the table, addressed to them ("you") rather than to a seat number.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.engine import IllegalMove

# One sentence per reason; its placeholders are the reason's details (``cards`` joined).
_TEXTS = {
    "not_a_move": gettext_lazy('"%(move)s" is not a card or "pass" (rank then suit, e.g. 7C).'),
    "deal_over": gettext_lazy("The deal is already over."),
    "cannot_pass": gettext_lazy("You cannot pass: passing is only for the layout game."),
    "pass_while_able": gettext_lazy("You cannot pass while you can lay a card (%(cards)s)."),
    "not_held": gettext_lazy("You do not hold %(card)s."),
    "must_follow": gettext_lazy("You must follow %(suit)s: you hold %(cards)s."),
    "must_extend": gettext_lazy("Extend a row before you start a new one (you can lay %(cards)s)."),
    "no_row": gettext_lazy("%(card)s neither extends a row nor starts one."),
}


# The pack the viewer plays with ("german" or "french", the profile's card look): set by the
# consumer around each frame, so a refusal names cards as that player's table shows them.
_card_look: ContextVar[str] = ContextVar("card_look", default="french")

# As the table page names them (templates/games/partials/labels.html, the same msgids); only
# "Clubs" needs a context, since the site also has clubs of players.
_SUITS = {
    "german": (
        gettext_lazy("Acorns"),
        gettext_lazy("Leaves"),
        gettext_lazy("Hearts"),
        gettext_lazy("Bells"),
    ),
    "french": (
        pgettext_lazy("card suit", "Clubs"),
        gettext_lazy("Spades"),
        gettext_lazy("Hearts"),
        gettext_lazy("Diamonds"),
    ),
}
_RANKS = {
    "german": {
        "J": gettext_lazy("Unter"),
        "Q": gettext_lazy("Ober"),
        "K": gettext_lazy("King"),
        # English names the German pack's Ace "Ace" (RULES.md section 1); German says "Daus".
        "A": pgettext_lazy("German pack card", "Ace"),
    },
    "french": {
        "J": gettext_lazy("Jack"),
        "Q": gettext_lazy("Queen"),
        "K": gettext_lazy("King"),
        "A": gettext_lazy("Ace"),
    },
}
_SUIT_CODES = "CSHD"


@contextmanager
def card_look(look: str) -> Iterator[None]:
    """Name cards in refusals as the ``look`` ("german" or "french") pack names them."""
    token = _card_look.set(look if look in _SUITS else "french")
    try:
        yield
    finally:
        _card_look.reset(token)


def card_name(code: str) -> str:
    """ "Ober of Hearts" / "Herz-Ober" for ``QH`` in the active language and pack."""
    look = _card_look.get()
    rank, suit = code[0], _SUIT_CODES.index(code[1])
    rank_name = _RANKS[look].get(rank, "10" if rank == "T" else rank)
    return _("{rank} of {suit}").format(rank=rank_name, suit=_SUITS[look][suit])


def _suit_name(suit: int) -> str:
    return str(_SUITS[_card_look.get()][suit])


def illegal_move_text(error: IllegalMove) -> str:
    """What to tell the player whose move the engine refused (the engine's own English
    message when the reason is one this module does not know)."""
    text = _TEXTS.get(error.reason)
    if text is None:
        return error.message
    values = dict(error.details)
    if "cards" in values:
        values["cards"] = ", ".join(card_name(code) for code in values["cards"])
    if "card" in values and isinstance(values["card"], str) and len(values["card"]) == 2:
        values["card"] = card_name(values["card"])
    if "suit" in values:
        values["suit"] = _suit_name(values["suit"])
    return str(text) % values
