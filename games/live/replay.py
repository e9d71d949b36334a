"""The replay page's steps: every position of a finished Partie, computed by the engine.

A finished Partie's hands are public, so each step shows every hand. The browser
(``static/js/replay.js``) only draws these steps; it knows no rule.
"""

from __future__ import annotations

from typing import Any

from games.engine import Deal, Partie, PartieRecord, places

from .facts import contract_facts, settlement_facts

# The parts of the engine's public deal view (``SeatView.to_dict()``) that a step keeps.
STEP_FIELDS = (
    "turn",
    "current_trick",
    "tricks",
    "tricks_won",
    "hundred_total",
    "rows",
    "scores_so_far",
    "penalties",
)


def _step(deal: Deal, last: tuple[int, str] | None) -> dict[str, Any]:
    view = deal.public_view().to_dict()
    step: dict[str, Any] = {
        "seat": None if last is None else last[0],
        "move": None if last is None else last[1],
        "hands": [[c.code for c in deal.hand(s)] for s in range(deal.players)],
    }
    step.update((field, view[field]) for field in STEP_FIELDS)
    tricks = deal.tricks
    step["last_trick"] = None
    if tricks:
        done = tricks[-1]
        step["last_trick"] = {
            "cards": [
                [done.seat_of(position, deal.players), card.code]
                for position, card in enumerate(done.cards)
            ],
            "winner": done.winner,
        }
    return step


def replay_steps(record: PartieRecord | dict[str, Any]) -> dict[str, Any]:
    """Every step of every deal of a Partie record (RULES.md section 6), by the engine.

    Per deal: ``contract``, ``dealer``, ``row_ranks`` (the layout game's, else None), the
    final ``penalties`` (None while unfinished), the ``settlement`` (why it counts double or
    is a slam, as ``games.live.facts.settlement_facts``; None for plain costs) and ``steps``: step 0 as dealt, step k after
    k moves. A step has the ``seat`` that moved and its ``move`` (None at step 0), every
    seat's ``hands``, ``turn`` (None once over), ``current_trick``, the finished ``tricks``
    with their winners, ``last_trick`` (the latest of them as ``{"cards": [[seat, card], ...],
    "winner"}``, None before the first), ``tricks_won``, ``hundred_total``, ``rows``,
    ``scores_so_far`` and ``penalties`` (set at the step that ends the deal). For the Partie: ``score_sheet``
    (the finished deals' penalties), ``totals`` and ``places``.

    Raises ``MalformedRecord`` or ``IllegalMove`` for a record the engine rejects.
    """
    if not isinstance(record, PartieRecord):
        record = PartieRecord.from_dict(record)
    partie = Partie(record.players, record.first_dealer, record.rules)
    deals = []
    for deal_record in record.deals:
        deal = partie.add_deal(deal_record.hands)
        steps = [_step(deal, None)]
        for move in deal_record.moves:
            seat = deal.turn
            deal.play(move)
            steps.append(_step(deal, (seat, move.code)))
        deals.append(
            {
                "contract": deal.contract.value,
                "dealer": deal.dealer,
                **contract_facts(deal),
                "penalties": None if deal.penalties is None else list(deal.penalties),
                "settlement": settlement_facts(deal),
                "steps": steps,
            }
        )
    totals = list(partie.totals)
    return {
        "deals": deals,
        "score_sheet": [list(p) for p in partie.deal_penalties()],
        "totals": totals,
        "places": places(totals),
    }


__all__ = ["STEP_FIELDS", "replay_steps"]
