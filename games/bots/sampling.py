"""Determinization: deal the unseen cards so that they agree with everything a seat has seen.

The strong bot plays out many complete "what if the others held these cards" worlds. A world
is only useful if it could be the real one, so every sample must respect what the view
reveals: the cards already played, each seat's hand size, a void shown by not following suit,
and in the layout game what a pass (or, under ``extend_first``, a Jack) says about the hand at
that moment. Replaying the history on a sample is therefore always legal.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from games.engine.cards import ACE, JACK, JACK_MASK, PACK_MASKS, QUEEN, SUIT_MASKS, TEN, Card
from games.engine.deal import SeatView
from games.engine.rules import LAYOUT_FREE, Contract

from .base import hand_mask
from .policy import ROW_MINS, bits

_GREEDY_TRIES = 6


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What one seat knows about the hidden cards: the pool and per seat limits on it."""

    seat: int
    own_hand: int
    unseen: int
    """Cards in no one's sight: the pack minus the own hand and everything played."""
    need: tuple[int, ...]
    """How many hidden cards each seat holds (0 for the own seat)."""
    forbidden: tuple[int, ...]
    """Cards each seat cannot hold (revealed voids and layout passes)."""
    played_by: tuple[int, ...]
    """The cards each seat has played, to rebuild initial hands for ``Deal.from_masks``."""

    def allowed(self, seat: int) -> int:
        return self.unseen & ~self.forbidden[seat]


def knowledge_from_view(view: SeatView) -> Knowledge:
    """Collect the constraints the view reveals about the other seats' hands."""
    if view.seat is None:
        raise ValueError("a spectator view has no own hand to sample around")
    players = view.players
    seat = view.seat
    forbidden = [0] * players
    played_by = [0] * players
    for who, move in view.history:
        if move.index < 36:
            played_by[who] |= move.bit
    if view.contract.is_trick_contract:
        for trick in view.tricks:
            _voids(forbidden, [trick.seat_of(k, players) for k in range(players)], trick.cards)
        if view.current_trick:
            seats, cards = zip(*view.current_trick, strict=True)
            _voids(forbidden, seats, cards)
    elif view.contract is Contract.ROSBIRATSCHKA:
        _layout_reveals(view, forbidden)
    own = hand_mask(view)
    played = 0
    for mask in played_by:
        played |= mask
    unseen = PACK_MASKS[players] & ~played & ~own
    need = tuple(0 if s == seat else view.hand_sizes[s] for s in range(players))
    forbidden[seat] = 0
    return Knowledge(seat, own, unseen, need, tuple(forbidden), tuple(played_by))


def tightened(knowledge: Knowledge, excluded: Sequence[int]) -> Knowledge | None:
    """``knowledge`` with ``excluded[seat]`` added to each other seat's forbidden cards, or
    None when no deal of the unseen cards agrees with the tighter limits (then the extra
    conclusions were wrong: the player did not play as they assumed)."""
    forbidden = tuple(
        0 if s == knowledge.seat else f | e
        for s, (f, e) in enumerate(zip(knowledge.forbidden, excluded, strict=True))
    )
    if forbidden == knowledge.forbidden:
        return knowledge
    tighter = replace(knowledge, forbidden=forbidden)
    seats = [s for s in range(len(knowledge.need)) if knowledge.need[s]]
    allowed = [tighter.allowed(s) for s in range(len(knowledge.need))]
    try:
        _matching(bits(knowledge.unseen), seats, allowed, knowledge.need, random.Random(0))
    except ValueError:
        return None
    return tighter


def _voids(forbidden: list[int], seats: Sequence[int], cards: Sequence[Card]) -> None:
    """A seat that did not follow the led suit holds none of it from then on."""
    led = cards[0].suit
    for who, card in zip(seats[1:], cards[1:], strict=False):
        if card.suit != led:
            forbidden[who] |= SUIT_MASKS[led]


def _layout_reveals(view: SeatView, forbidden: list[int]) -> None:
    """Replay the rows: a pass means no extending card and no Jack at that moment; under
    ``extend_first`` a Jack laid means no extending card at that moment."""
    free = view.rules.layout == LAYOUT_FREE
    row_mins = ROW_MINS[view.players]
    extend = 0
    for who, move in view.history:
        index = move.index
        if index >= 36:
            forbidden[who] |= extend | JACK_MASK
            continue
        bit = 1 << index
        suit, rank = divmod(index, 9)
        if bit & extend:
            extend ^= bit
            if rank < JACK and rank > row_mins[suit]:
                extend |= bit >> 1
            elif rank > JACK and rank < ACE:
                extend |= bit << 1
        else:  # a Jack starting its row
            if not free:
                forbidden[who] |= extend
            extend |= (1 << (suit * 9 + TEN)) | (1 << (suit * 9 + QUEEN))


def sample_hands(view: SeatView, rng: random.Random) -> list[int]:
    """One consistent guess at every seat's current hand (bit masks; the own hand exactly)."""
    return sample_from(knowledge_from_view(view), rng)


def sample_from(knowledge: Knowledge, rng: random.Random) -> list[int]:
    """A consistent deal of the unseen cards, drawn fresh from ``rng``.

    Cards with the fewest possible holders go first, each to an allowed seat with room,
    chosen in proportion to the room left (a close approximation of a uniform draw). If that
    runs into a dead end a few times, an augmenting-path matching finds a consistent deal,
    which exists whenever the view came from a real deal.
    """
    players = len(knowledge.need)
    seats = [s for s in range(players) if knowledge.need[s]]
    allowed = [knowledge.allowed(s) for s in range(players)]
    cards = bits(knowledge.unseen)
    for _ in range(_GREEDY_TRIES):
        rng.shuffle(cards)
        cards.sort(key=lambda c: sum(allowed[s] >> c & 1 for s in seats))
        hands = _greedy(cards, seats, allowed, list(knowledge.need), rng)
        if hands is not None:
            break
    else:
        hands = _matching(cards, seats, allowed, knowledge.need, rng)
    hands[knowledge.seat] = knowledge.own_hand
    return hands


def _greedy(
    cards: list[int], seats: list[int], allowed: list[int], room: list[int], rng: random.Random
) -> list[int] | None:
    hands = [0] * len(room)
    draw = rng.random
    for card in cards:
        total = 0
        for s in seats:
            if room[s] and allowed[s] >> card & 1:
                total += room[s]
        if not total:
            return None
        pick = draw() * total
        for s in seats:
            if room[s] and allowed[s] >> card & 1:
                pick -= room[s]
                if pick < 0:
                    break
        hands[s] |= 1 << card
        room[s] -= 1
    return hands


def _matching(
    cards: list[int],
    seats: list[int],
    allowed: list[int],
    need: tuple[int, ...],
    rng: random.Random,
) -> list[int]:
    """Assign every card to a seat with room by augmenting paths (always succeeds if possible)."""
    holder: dict[int, int] = {}
    count = [0] * len(need)
    held: list[list[int]] = [[] for _ in need]

    def place(card: int, visited: set[int]) -> bool:
        order = [s for s in seats if allowed[s] >> card & 1]
        rng.shuffle(order)
        for s in order:
            if s not in visited and count[s] < need[s]:
                holder[card] = s
                held[s].append(card)
                count[s] += 1
                return True
        for s in order:
            if s in visited:
                continue
            visited.add(s)
            for other in list(held[s]):
                held[s].remove(other)
                count[s] -= 1
                if place(other, visited):
                    holder[card] = s
                    held[s].append(card)
                    count[s] += 1
                    return True
                held[s].append(other)
                count[s] += 1
        return False

    for card in cards:
        if not place(card, set()):
            raise ValueError("no deal of the unseen cards agrees with this view")
    hands = [0] * len(need)
    for card, s in holder.items():
        hands[s] |= 1 << card
    return hands


def initial_masks(knowledge: Knowledge, hands: list[int]) -> list[int]:
    """The dealt hands behind a sample: current hand plus the cards each seat has played."""
    return [hands[s] | knowledge.played_by[s] for s in range(len(hands))]
