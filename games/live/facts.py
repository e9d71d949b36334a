"""Rule facts that ride in events and snapshots, so clients copy them instead of deriving them.

The engine alone knows how a card extends a layout row and which ranks a row can hold; the
services put these functions' fields into the stored ``deal_started`` and ``move`` events and
the snapshot's deal view, and ``games.live.state.apply_event`` (like ``static/js/table.js``)
only copies them (docs/protocol.md, section 3).
"""

from __future__ import annotations

from typing import Any

from games.engine import Card, Contract, Deal
from games.engine.layout_facts import row_ranks


def layout_ranks(deal: Deal) -> dict[str, list[str]] | None:
    """Each suit's row ranks in the layout game (lowest first), None in the other contracts."""
    if deal.contract is not Contract.ROSBIRATSCHKA:
        return None
    return row_ranks(deal.players)


def deal_started_facts(deal: Deal) -> dict[str, Any]:
    """The fields a ``deal_started`` event adds for clients: ``row_ranks``."""
    return {"row_ranks": layout_ranks(deal)}


def move_facts(deal: Deal) -> dict[str, Any]:
    """The fields a ``move`` event adds for the move ``deal`` just played: ``row``.

    In the layout game a laid card changes one row: ``{"suit", "low", "high"}`` after the move.
    A pass and the moves of the other contracts change no row (``None``).
    """
    move = deal.moves[-1]
    row = None
    if deal.contract is Contract.ROSBIRATSCHKA and isinstance(move, Card):
        laid = deal.rows[move.suit]
        assert laid is not None, "a laid card always belongs to a started row"
        row = {"suit": move.suit_code, "low": laid.low.code, "high": laid.high.code}
    return {"row": row}


def deal_view(deal: Deal, seat: int | None) -> dict[str, Any]:
    """The snapshot's deal view: the engine's ``view_for(seat).to_dict()`` plus ``row_ranks``."""
    return {**deal.view_for(seat).to_dict(), "row_ranks": layout_ranks(deal)}


__all__ = ["deal_started_facts", "deal_view", "layout_ranks", "move_facts"]
