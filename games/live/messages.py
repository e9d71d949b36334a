"""Refusals of the rules engine worded for the player, in the active language.

The engine is pure and speaks English to programs; its ``IllegalMove`` also names the rule
(``reason``) and the facts (``details``), and this module turns those into a sentence for
the person at the table, addressed to them ("you") rather than to a seat number.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

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


def _suit_name(suit: int) -> str:
    # As the table page names them (templates/games/partials/labels.html); only "Clubs"
    # needs a context, since the site also has clubs of players.
    return (pgettext("card suit", "Clubs"), _("Spades"), _("Hearts"), _("Diamonds"))[suit]


def illegal_move_text(error: IllegalMove) -> str:
    """What to tell the player whose move the engine refused (the engine's own English
    message when the reason is one this module does not know)."""
    text = _TEXTS.get(error.reason)
    if text is None:
        return error.message
    values = dict(error.details)
    if "cards" in values:
        values["cards"] = ", ".join(values["cards"])
    if "suit" in values:
        values["suit"] = _suit_name(values["suit"])
    return str(text) % values
