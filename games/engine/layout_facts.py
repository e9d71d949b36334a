"""What a client needs to draw the layout game's rows, from the engine's own pack.

Kept apart from the deal's hot paths: a row of ``rosbiratschka`` holds exactly the cards of
its suit in the pack for the player count (RULES.md section 4.6), so the table and replay
pages draw its cells from ``row_ranks`` instead of knowing where each pack ends.
"""

from __future__ import annotations

from . import pack


def row_ranks(players: int) -> dict[str, list[str]]:
    """Per suit code (C, S, H, D), the rank codes a layout row can hold, lowest first.

    With 4 players every row runs 7 to Ace; with 5 the Bells row starts at 7, the others at 6.
    Raises ``ValueError`` for a player count other than 3 to 6.
    """
    rows: dict[str, list[str]] = {}
    for card in pack(players):  # index order: suit by suit, each from its lowest rank up
        rows.setdefault(card.suit_code, []).append(card.rank_code)
    return rows


__all__ = ["row_ranks"]
