"""Rule facts that ride in events and snapshots, so clients copy them instead of deriving them.

The engine alone knows how a card extends a layout row and which ranks a row can hold; the
services put these functions' fields into the stored ``deal_started`` and ``move`` events and
the snapshot's deal view, and ``games.live.state.apply_event`` (like ``static/js/table.js``)
only copies them (docs/protocol.md, section 3).
"""

from __future__ import annotations

from typing import Any

from games.engine import Card, Contract, Deal
from games.engine.cards import HUNDRED_VALUES
from games.engine.layout_facts import row_ranks
from games.engine.penalties import HUNDRED_CALLS

# A 36-card pack's card values (6 to Ace, four suits); smaller packs drop only 6s, 7s and 8s,
# which count nothing, so every pack totals the same.
HUNDRED_PACK_TOTAL = 4 * sum(HUNDRED_VALUES)


def family(deal: Deal) -> str:
    """Which kind of play the contract is: ``tricks``, ``hundred`` or ``layout``."""
    if deal.contract is Contract.ROSBIRATSCHKA:
        return "layout"
    if deal.contract is Contract.HUNDRED:
        return "hundred"
    return "tricks"


def contract_facts(deal: Deal) -> dict[str, Any]:
    """What a client draws a deal's table from without knowing the rules: the contract's
    family, the Hundred's calls and pack total (None outside the Hundred), the layout rows'
    ranks (None outside the layout game)."""
    hundred = deal.contract is Contract.HUNDRED
    return {
        "family": family(deal),
        "hundred_calls": [line for line, _cost in HUNDRED_CALLS] if hundred else None,
        "hundred_pack_total": HUNDRED_PACK_TOTAL if hundred else None,
        "row_ranks": layout_ranks(deal),
    }


def layout_ranks(deal: Deal) -> dict[str, list[str]] | None:
    """Each suit's row ranks in the layout game (lowest first), None in the other contracts."""
    if deal.contract is not Contract.ROSBIRATSCHKA:
        return None
    return row_ranks(deal.players)


def deal_started_facts(deal: Deal) -> dict[str, Any]:
    """The fields a ``deal_started`` event adds for clients (``contract_facts``)."""
    return contract_facts(deal)


def settlement_facts(deal: Deal) -> dict[str, Any] | None:
    """Why a finished deal counts as it does, for the deal result to say in words:
    ``{"kind": "doubled", "seats": [who took nothing]}``, ``{"kind": "slam", "seats": [who
    took everything]}``, or None (plain costs, or a deal still in play)."""
    settled = deal.settlement
    if settled is None:
        return None
    kind, seats = settled
    return {"kind": kind, "seats": list(seats)}


def deal_finished_facts(deal: Deal) -> dict[str, Any]:
    """The fields a ``deal_finished`` event adds for clients: ``settlement``."""
    return {"settlement": settlement_facts(deal)}


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
    """The snapshot's deal view: the engine's ``view_for(seat).to_dict()`` plus the
    ``contract_facts``."""
    return {**deal.view_for(seat).to_dict(), **contract_facts(deal)}


__all__ = [
    "HUNDRED_PACK_TOTAL",
    "contract_facts",
    "deal_finished_facts",
    "deal_started_facts",
    "deal_view",
    "family",
    "layout_ranks",
    "move_facts",
    "settlement_facts",
]
