"""What each contract costs (RULES.md section 4), in one table for the engine and the score sheets.

Every contract hands out penalty *items*, each to one player at a fixed cost: the tricks of
``no_tricks``, the Hearts, the Jacks, the King of Hearts, the Hundred's three calls, the layout
game's one loser. The engine scores its deals from this table and ``tournaments.sheets`` checks
hand-written rows against it, so the two cannot disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .cards import (
    CARD_BY_CODE,
    HAND_SIZES,
    HEART_MASK,
    JACK_MASK,
    KING_OF_HEARTS,
    PACK_MASKS,
    mask_to_cards,
)
from .rules import Contract

SLAM: Final = -8
"""What the player who takes every item scores in a slam; everyone else scores 0."""

HUNDRED_CALLS: Final = ((25, 1), (50, 2), (100, 5))
"""The Hundred's calls as (line, cost): the card that takes the total above ``line`` costs."""

LAST_HOLDER: Final = 8
"""What the last player still holding cards pays in ``rosbiratschka``."""

KING_OF_HEARTS_COST: Final = 8

DOUBLED: Final = 2
"""The factor on every cost when doubling applies."""

DOUBLING_CONTRACTS: Final = frozenset({Contract.NO_TRICKS, Contract.NO_HEARTS, Contract.NO_JACKS})
"""The contracts where taking nothing doubles every cost and taking everything is a slam."""


def trick_costs(players: int) -> tuple[int, ...]:
    """Each trick's cost in ``no_tricks``, in playing order: the deal always holds 8 points."""
    weights = [1] * HAND_SIZES[players]
    if players == 5:
        weights[-1] = 2
    elif players == 6:
        weights[0] = weights[-1] = 2
    return tuple(weights)


def card_costs(contract: Contract | str, players: int) -> tuple[tuple[int, int], ...]:
    """The priced cards of a card-counting trick contract as (cost, mask) pairs.

    Empty for contracts that do not price cards (``no_tricks``, ``hundred``, the layout game).
    """
    contract = Contract(contract)
    if contract is Contract.NO_HEARTS:
        hearts = PACK_MASKS[players] & HEART_MASK
        if players == 3:  # only six Hearts: the Ace and King cost 2 so the deal still holds 8
            dear = CARD_BY_CODE["AH"].bit | KING_OF_HEARTS.bit
            return ((1, hearts & ~dear), (2, dear))
        return ((1, hearts),)
    if contract is Contract.NO_JACKS:
        return ((2, JACK_MASK),)
    if contract is Contract.NO_KING_OF_HEARTS:
        return ((KING_OF_HEARTS_COST, KING_OF_HEARTS.bit),)
    return ()


def penalty_items(contract: Contract | str, players: int) -> tuple[int, ...]:
    """The cost of each penalty item of ``contract`` for ``players`` (3 to 6), undoubled.

    Tricks in playing order, priced cards in card order (``no_hearts`` with 3 players is
    ``(1, 1, 1, 1, 2, 2)``), the Hundred's calls ``(1, 2, 5)``, the layout game's ``(8,)``.
    """
    contract = Contract(contract)
    if players not in PACK_MASKS:
        raise ValueError(f"Rosbiratschka is played by 3 to 6 players, not {players!r}")
    if contract is Contract.NO_TRICKS:
        return trick_costs(players)
    if contract is Contract.HUNDRED:
        return tuple(cost for _, cost in HUNDRED_CALLS)
    if contract is Contract.ROSBIRATSCHKA:
        return (LAST_HOLDER,)
    pack = PACK_MASKS[players]
    cost_of = {
        card.index: cost
        for cost, mask in card_costs(contract, players)
        for card in mask_to_cards(mask & pack)
    }
    return tuple(cost_of[index] for index in sorted(cost_of))


class DealCosts:
    """A contract's items and the totals a deal of it can hand out (RULES.md "at a glance").

    A plain slotted class rather than a dataclass: the engine is imported by every ``score``
    run, and building a dataclass costs more at import than this whole module.
    """

    __slots__ = ("contract", "players", "items", "doubles", "slam")

    def __init__(
        self,
        contract: Contract,
        players: int,
        items: tuple[int, ...],
        doubles: bool,
        slam: int | None,
    ) -> None:
        self.contract = contract
        self.players = players
        self.items = items
        self.doubles = doubles
        """Whether a player who takes no item doubles every cost (house rule ``doubling``)."""
        self.slam = slam
        """What taking every item scores, or None where the contract has no slam."""

    def __repr__(self) -> str:
        return (
            f"DealCosts({self.contract.value!r}, {self.players}, items={self.items}, "
            f"doubles={self.doubles}, slam={self.slam})"
        )

    @property
    def total(self) -> int:
        """The plain sum of the items: what an undoubled deal without a slam hands out."""
        return sum(self.items)

    @property
    def doubled_total(self) -> int | None:
        """The sum when a player without items doubles every cost; None where nothing doubles."""
        return DOUBLED * self.total if self.doubles else None

    def totals(self, doubling: bool = True) -> tuple[int, ...]:
        """Every sum a finished deal can have: plain, doubled (if it applies), slam (if any)."""
        sums = [self.total]
        if doubling and self.doubles:
            sums.append(DOUBLED * self.total)
        if self.slam is not None:
            sums.append(self.slam)
        return tuple(sums)


def deal_costs(contract: Contract | str, players: int) -> DealCosts:
    """The items, doubling and slam of ``contract`` for ``players``: all a score sheet needs."""
    contract = Contract(contract)
    doubles = contract in DOUBLING_CONTRACTS
    return DealCosts(
        contract, players, penalty_items(contract, players), doubles, SLAM if doubles else None
    )


SETTLED_SLAM: Final = "slam"
"""A settlement kind: one seat took every item (RULES.md section 4, Durchmarsch)."""

SETTLED_DOUBLED: Final = "doubled"
"""A settlement kind: a seat took no item, so every cost counts twice (house rule ``doubling``)."""


def settlement(counts: Sequence[int], items: int, doubling: bool) -> tuple[str, list[int]] | None:
    """Why a finished doubling contract's deal counts otherwise than its plain costs.

    ``(SETTLED_SLAM, [the seat that took all items])``, else under the ``doubling`` house rule
    ``(SETTLED_DOUBLED, [every seat that took nothing])``, else None (plain costs). Players
    see the doubled or slam numbers only; this is the reason the table tells them.
    """
    if items in counts:
        return SETTLED_SLAM, [seat for seat, count in enumerate(counts) if count == items]
    if doubling and 0 in counts:
        return SETTLED_DOUBLED, [seat for seat, count in enumerate(counts) if count == 0]
    return None


def settle(base: list[int], counts: Sequence[int], items: int, doubling: bool) -> list[int]:
    """Final penalties of a doubling contract from each seat's undoubled cost and item count.

    A seat holding all ``items`` is a slam (it replaces the doubling); otherwise, under the
    ``doubling`` house rule, a seat that took nothing doubles everyone's cost (``settlement``).
    """
    settled = settlement(counts, items, doubling)
    if settled is None:
        return base
    if settled[0] == SETTLED_SLAM:
        return [SLAM if count == items else 0 for count in counts]
    return [DOUBLED * cost for cost in base]
