"""A Partie: six deals in the fixed contract order, dealer rotation, totals and places.

Dealing takes an explicit random source so that the same seed gives the same deals: games
replay exactly and duplicate tournaments can give every table the same cards. Production
dealing passes ``secrets.SystemRandom()``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from operator import itemgetter

from .cards import HAND_SIZES, PACK_MASKS, Card, mask_to_cards
from .deal import Deal
from .errors import MalformedRecord
from .records import DealRecord, PartieRecord
from .rules import CONTRACT_ORDER, DEFAULT_RULES, Contract, HouseRules

DEALS_PER_PARTIE = len(CONTRACT_ORDER)


_PACKETS = {8: (2, 3, 3), 7: (2, 3, 2), 6: (3, 3)}
_PACK_INDICES = {n: [c.index for c in mask_to_cards(m)] for n, m in PACK_MASKS.items()}


def deal_masks(players: int, rng: random.Random, dealer: int = 0) -> list[int]:
    """Shuffle the pack with ``rng`` and deal it out completely, starting left of the dealer.

    Returns each seat's hand as a bit mask. The shuffle sorts the pack by one ``rng.random()``
    key per card: a uniform permutation (ties have probability about 2**-44), the same for the
    same seed, and about twice as fast as ``random.shuffle``, which matters to simulations.
    Cards then go round in packets (2-3-3 for eight cards each, 2-3-2 for seven, 3-3 for six),
    as at a real table: the packets do not change the odds, but a seeded deal is the one a
    person would deal from that shuffled pack. Each seat's cards are picked out of the
    shuffled pack with one ``itemgetter``, so no Python loop runs per card when dealing.
    """
    if players not in PACK_MASKS:
        raise ValueError(f"Rosbiratschka is played by 3 to 6 players, not {players!r}")
    draw = rng.random
    bits = _PACK_BITS[players]
    keys = [draw() for _ in bits]
    shuffled = sorted(range(len(keys)), key=keys.__getitem__)
    bit_of = bits.__getitem__
    return [sum(map(bit_of, take(shuffled))) for take in _TAKERS[players, dealer]]


def _deal_order(players: int, dealer: int) -> tuple[int, ...]:
    """The seat that receives each card of the shuffled pack, packet by packet."""
    order: list[int] = []
    for size in _PACKETS[HAND_SIZES[players]]:
        for k in range(players):
            order.extend([(dealer + 1 + k) % players] * size)
    return tuple(order)


_DEAL_ORDER = {(n, d): _deal_order(n, d) for n in PACK_MASKS for d in range(n)}
_PACK_BITS = {n: tuple(1 << c for c in cards) for n, cards in _PACK_INDICES.items()}
_TAKERS = {
    (n, d): tuple(itemgetter(*[k for k, seat in enumerate(order) if seat == s]) for s in range(n))
    for (n, d), order in _DEAL_ORDER.items()
}
"""Per player count and dealer, for each seat: the shuffled pack's positions it is dealt."""


def deal_hands(players: int, rng: random.Random, dealer: int = 0) -> list[list[Card]]:
    """``deal_masks`` as lists of cards (the same cards for the same random state)."""
    return [mask_to_cards(m) for m in deal_masks(players, rng, dealer)]


def draw_first_dealer(players: int, rng: random.Random) -> int:
    """Draw the first dealer by lot: everyone draws a card, the lowest rank deals.

    Players tied for the lowest rank draw again among themselves (house reading of "lowest
    card deals", which names no suit order).
    """
    candidates = list(range(players))
    while True:
        cards = mask_to_cards(PACK_MASKS[players])
        drawn = rng.sample(cards, len(candidates))
        lowest = min(c.rank for c in drawn)
        candidates = [s for s, c in zip(candidates, drawn, strict=True) if c.rank == lowest]
        if len(candidates) == 1:
            return candidates[0]


def places(totals: Sequence[int]) -> list[int]:
    """1-based places from totals, lowest first; equal totals share the place ("1, 2, 2, 4")."""
    return [1 + sum(1 for other in totals if other < total) for total in totals]


class Partie:
    """Six deals of one table. Start each deal with ``deal_next(rng)`` or ``add_deal(hands)``."""

    def __init__(self, players: int, first_dealer: int, rules: HouseRules = DEFAULT_RULES) -> None:
        if players not in PACK_MASKS:
            raise MalformedRecord(f"Rosbiratschka is played by 3 to 6 players, not {players!r}")
        if not 0 <= first_dealer < players:
            raise MalformedRecord(f"first_dealer must be a seat from 0 to {players - 1}")
        self.players = players
        self.first_dealer = first_dealer
        self.rules = rules
        self.deals: list[Deal] = []

    @property
    def current(self) -> Deal | None:
        """The deal being played, or None between deals and after the sixth."""
        if self.deals and not self.deals[-1].over:
            return self.deals[-1]
        return None

    @property
    def next_contract(self) -> Contract | None:
        return CONTRACT_ORDER[len(self.deals)] if len(self.deals) < DEALS_PER_PARTIE else None

    @property
    def next_dealer(self) -> int:
        return (self.first_dealer + len(self.deals)) % self.players

    @property
    def is_over(self) -> bool:
        return len(self.deals) == DEALS_PER_PARTIE and self.deals[-1].over

    def add_deal(self, hands: Sequence[Sequence[Card | str]]) -> Deal:
        """Start the next deal with the given hands (validated against the pack)."""
        if self.current is not None:
            raise ValueError("the current deal is not over yet")
        contract = self.next_contract
        if contract is None:
            raise ValueError("the Partie already has its six deals")
        deal = Deal(self.players, contract, self.next_dealer, hands, self.rules)
        self.deals.append(deal)
        return deal

    def deal_next(self, rng: random.Random) -> Deal:
        """Shuffle and deal the next deal with ``rng``."""
        return self.add_deal(deal_hands(self.players, rng, self.next_dealer))

    def deal_penalties(self) -> list[tuple[int, ...]]:
        """The penalties of each finished deal, in order (the score sheet)."""
        return [d.penalties for d in self.deals if d.penalties is not None]

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's sum of the finished deals' penalties."""
        totals = [0] * self.players
        for penalties in self.deal_penalties():
            for seat, p in enumerate(penalties):
                totals[seat] += p
        return tuple(totals)

    def places(self) -> list[int]:
        return places(self.totals)

    def to_record(self, include_rules: bool = True) -> PartieRecord:
        return PartieRecord(
            players=self.players,
            first_dealer=self.first_dealer,
            deals=tuple(DealRecord.from_deal(d, include_rules=False) for d in self.deals),
            rules_given=self.rules.to_dict() if include_rules else None,
        )

    @classmethod
    def from_record(cls, record: PartieRecord) -> Partie:
        """Rebuild a Partie by replaying every deal (raises on an illegal move)."""
        partie = cls(record.players, record.first_dealer, record.rules)
        for k, deal_record in enumerate(record.deals):
            if k and not partie.deals[-1].over:
                raise MalformedRecord(f"deal {k} is not finished but deal {k + 1} follows")
            deal = partie.add_deal(deal_record.hands)
            for move in deal_record.moves:
                deal.play(move)
        return partie


def random_deal(
    players: int,
    contract: Contract,
    rng: random.Random,
    dealer: int | None = None,
    rules: HouseRules = DEFAULT_RULES,
) -> Deal:
    """A freshly dealt deal with a random (or given) dealer: for tests, benchmarks and bots."""
    if dealer is None:
        dealer = rng.randrange(players)
    return Deal.from_masks(players, contract, dealer, deal_masks(players, rng, dealer), rules)


def play_out_randomly(deal: Deal, rng: random.Random) -> Deal:
    """Finish ``deal`` with uniformly random legal moves (in place) and return it."""
    deal.play_out_randomly(rng.random)
    return deal
