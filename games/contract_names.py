"""The contracts' names for people, translated when they are shown.

The engine knows contracts by identifier (``games.engine.Contract``); pages, print-outs and
forms of every app name them through here, in the reader's language, never by the engine's
German names. The msgids are the ones the live table uses (templates/games/partials/labels.html).
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

CONTRACT_NAMES: dict[str, Promise] = {
    "no_tricks": gettext_lazy("No tricks"),
    "no_hearts": gettext_lazy("No hearts"),
    "no_jacks": gettext_lazy("No jacks"),
    "no_king_of_hearts": gettext_lazy("Beware the King of Hearts"),
    "hundred": gettext_lazy("Hundred"),
    "rosbiratschka": gettext_lazy("Rosbiratschka"),
}


def contract_name(contract: str) -> str:
    """The contract ``contract`` (an engine identifier) named in the active language; an
    unknown identifier is shown as it is."""
    name = CONTRACT_NAMES.get(contract)
    return str(name) if name is not None else contract
