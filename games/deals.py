"""Dealing and scoring inside a Partie: start a deal, finish it, finish the Partie.

Called under the table lock by ``lobby.start_table`` (the first deal) and by the move path
(``moves``) when a move ends a deal. A deal is dealt from the system's cryptographic
randomness, or from the Partie's seed when it has one (tests, duplicate tournaments).
"""

from __future__ import annotations

import random
import secrets

from django.utils import timezone

from games import queue
from games.abandonments import record_timeouts_at_finish
from games.engine import CONTRACT_ORDER, DEALS_PER_PARTIE, Deal, deal_hands
from games.events import EventLog, notify_lobby
from games.live.facts import deal_finished_facts, deal_started_facts
from games.models import Partie, PartieDeal, Seat, SeatResult, Table
from games.outcomes import final_places


def dealing_rng(seed: int | None, label: str) -> random.Random:
    """System randomness in production; ``random.Random`` from the Partie's seed when set."""
    if seed is None:
        return secrets.SystemRandom()
    return random.Random(f"{seed}:{label}")


def start_deal(table: Table, partie: Partie, number: int, log: EventLog) -> tuple[Deal, PartieDeal]:
    """Deal deal ``number`` of the Partie: store its row, log ``deal_started`` (every hand in
    the stored event; each seat's frame shows only its own)."""
    n = table.size
    dealer = (partie.first_dealer + number) % n
    hands = deal_hands(n, dealing_rng(partie.seed, f"deal{number}"), dealer)
    codes = [[c.code for c in hand] for hand in hands]
    contract = CONTRACT_ORDER[number]
    row = PartieDeal.objects.create(
        partie=partie, number=number, contract=contract.value, dealer=dealer, hands=codes
    )
    deal = Deal(n, contract, dealer, codes, table.rules)
    log.add(
        "deal_started",
        {
            "deal_number": number,
            "contract": contract.value,
            "dealer": dealer,
            "turn": deal.turn,
            "hands": [[c.code for c in deal.hand(s)] for s in range(n)],
            "hand_sizes": [len(h) for h in codes],
            "legal_moves": [m.code for m in deal.legal_moves()],
            **deal_started_facts(deal),
        },
        changes_play=True,
    )
    return deal, row


def finish_deal(
    table: Table, seats: list[Seat], row: PartieDeal, deal: Deal, log: EventLog
) -> tuple[Deal | None, PartieDeal | None]:
    """Score the finished ``deal`` (stored in ``row``); start the next one (its deal and row),
    or finish the Partie after the sixth (None, None). The ``deal_finished`` event carries the
    engine's reason when the deal counts double or is a slam, so the table can say why."""
    earlier = list(
        PartieDeal.objects.filter(partie_id=row.partie_id, number__lt=row.number)
        .order_by("number")
        .values_list("penalties", flat=True)
    )
    score_sheet = [list(p) for p in earlier] + [list(row.penalties)]
    totals = [sum(column) for column in zip(*score_sheet, strict=True)]
    log.add(
        "deal_finished",
        {
            "deal_number": row.number,
            "penalties": list(row.penalties),
            "totals": totals,
            **deal_finished_facts(deal),
        },
        changes_play=True,
    )
    if row.number + 1 < DEALS_PER_PARTIE:
        return start_deal(table, row.partie, row.number + 1, log)
    finish_partie(table, row.partie, seats, score_sheet, log)
    return None, None


def finish_partie(
    table: Table, partie: Partie, seats: list[Seat], score_sheet: list[list[int]], log: EventLog
) -> None:
    """Store totals and places, close the table, and hand the result on after the commit.

    Called by ``finish_deal`` inside the move's locked transaction when the sixth deal ends.
    """
    totals = [sum(column) for column in zip(*score_sheet, strict=True)]
    record_timeouts_at_finish(table, seats)
    ranks = final_places(totals, [s.resigned for s in seats])
    SeatResult.objects.bulk_create(
        [
            SeatResult(
                partie=partie,
                seat=s.number,
                user_id=s.user_id,
                bot_level=s.bot_level,
                total=totals[s.number],
                place=ranks[s.number],
                started_by_id=s.started_by_id,
                left_at=s.left_at,
                resigned=s.resigned,
            )
            for s in seats
        ]
    )
    now = timezone.now()
    partie.finished_at = now
    partie.save(update_fields=["finished_at"])
    table.status = Table.Status.FINISHED
    table.finished_at = now
    log.add(
        "partie_finished",
        {"totals": totals, "places": ranks, "score_sheet": score_sheet},
        changes_play=True,
    )
    queue.queue_hand_off_after_commit(partie.pk)
    notify_lobby()
