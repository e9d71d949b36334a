"""Refusals of the rules engine worded for the player, in the active language.

The engine is pure and speaks English to programs; its ``IllegalMove`` also names the rule
(``reason``) and the facts (``details``), and this module turns those into a sentence for
the person at the table, addressed to them ("you") rather than to a seat number.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.engine import IllegalMove


def _suit_name(suit: int) -> str:
    # As the table page names them (templates/games/partials/labels.html); only "Clubs"
    # needs a context, since the site also has clubs of players.
    return (pgettext("card suit", "Clubs"), _("Spades"), _("Hearts"), _("Diamonds"))[suit]


def _cards(codes: list[str]) -> str:
    return ", ".join(codes)


def illegal_move_text(error: IllegalMove) -> str:
    """What to tell the player whose move the engine refused (the engine's own English
    message when the reason is one this module does not know)."""
    reason, details = error.reason, error.details
    if reason == "not_a_move":
        return _('"%(move)s" is not a card or "pass" (rank then suit, e.g. 7C).') % {
            "move": details.get("move", "")
        }
    if reason == "deal_over":
        return _("The deal is already over.")
    if reason == "cannot_pass":
        return _("You cannot pass: passing is only for the layout game.")
    if reason == "pass_while_able":
        return _("You cannot pass while you can lay a card (%(cards)s).") % {
            "cards": _cards(details.get("cards", []))
        }
    if reason == "not_held":
        return _("You do not hold %(card)s.") % {"card": details.get("card", "")}
    if reason == "must_follow":
        return _("You must follow %(suit)s: you hold %(cards)s.") % {
            "suit": _suit_name(details["suit"]),
            "cards": _cards(details.get("cards", [])),
        }
    if reason == "must_extend":
        return _("Extend a row before you start a new one (you can lay %(cards)s).") % {
            "cards": _cards(details.get("cards", []))
        }
    if reason == "no_row":
        return _("%(card)s neither extends a row nor starts one.") % {
            "card": details.get("card", "")
        }
    return error.message
