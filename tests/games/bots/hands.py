"""Deals for bot tests: some hands fixed, the rest of the pack dealt in order."""

from __future__ import annotations

from games.engine.cards import CARDS, PACK_MASKS


def hands_with(players: int, fixed: dict[int, list[str]]) -> list[list[str]]:
    """Complete the given hands with the rest of the pack, lowest cards to the lowest seats."""
    hands = {seat: list(cards) for seat, cards in fixed.items()}
    used = {code for cards in fixed.values() for code in cards}
    rest = [c.code for c in CARDS if PACK_MASKS[players] >> c.index & 1 and c.code not in used]
    size = len(rest) // (players - len(fixed)) if len(fixed) < players else 0
    for seat in range(players):
        if seat not in hands:
            hands[seat], rest = rest[:size], rest[size:]
    return [hands[s] for s in range(players)]
