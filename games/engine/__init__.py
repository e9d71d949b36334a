"""The Rosbiratschka rules engine: pure Python, standard library only, no I/O in the core.

Values (``Card``, ``PASS``, ``Contract``, ``HouseRules``), one state object per deal
(``Deal`` with ``legal_moves()``, ``play()``, ``view_for(seat)``, ``penalties``), a ``Partie``
of six deals, and the record format of RULES.md section 6 (``DealRecord``, ``PartieRecord``).
"""

from .cards import CARDS, PASS, Card, Move, Pass, pack, parse_move
from .deal import Deal, Row, SeatView, Trick
from .errors import IllegalMove, MalformedRecord
from .partie import (
    DEALS_PER_PARTIE,
    Partie,
    deal_hands,
    draw_first_dealer,
    places,
    play_out_randomly,
    random_deal,
)
from .records import DealRecord, PartieRecord, score_line, score_record
from .rules import CONTRACT_ORDER, DEFAULT_RULES, Contract, HouseRules

__all__ = [
    "CARDS",
    "CONTRACT_ORDER",
    "DEALS_PER_PARTIE",
    "DEFAULT_RULES",
    "PASS",
    "Card",
    "Contract",
    "Deal",
    "DealRecord",
    "HouseRules",
    "IllegalMove",
    "MalformedRecord",
    "Move",
    "Partie",
    "PartieRecord",
    "Pass",
    "Row",
    "SeatView",
    "Trick",
    "deal_hands",
    "draw_first_dealer",
    "pack",
    "parse_move",
    "places",
    "play_out_randomly",
    "random_deal",
    "score_line",
    "score_record",
]
