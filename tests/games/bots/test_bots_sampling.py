"""The sampler deals hidden cards that agree with everything the seat has seen."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots.base import hand_mask, played_mask
from games.bots.policy import PASS_BIT
from games.bots.sampling import (
    Knowledge,
    _matching,
    initial_masks,
    knowledge_from_view,
    sample_from,
    sample_hands,
)
from games.engine import Contract, Deal, HouseRules
from games.engine.cards import PACK_MASKS, SUIT_MASKS
from games.engine.partie import random_deal


def _stopped_deal(players: int, contract: Contract, layout: str, seed: int, fraction: float):
    """A random deal played (by random moves) to a random point before its end."""
    rules = HouseRules(layout=layout)
    deal = random_deal(players, contract, random.Random(seed), rules=rules)
    full = deal.clone()
    rng = random.Random(seed + 1)
    moves = []
    while not full.over:
        moves.append(_random_index(full, rng))
        full.play_index(moves[-1])
    for index in moves[: int(fraction * (len(moves) - 1))]:
        deal.play_index(index)
    return deal


def _random_index(deal: Deal, rng: random.Random) -> int:
    mask = deal.legal_mask()
    options = [i for i in range(37) if mask >> i & 1]
    return rng.choice(options)


def _revealed_voids(view) -> list[int]:
    """Suits each seat showed it lacks, computed straight from the tricks on record."""
    voids = [0] * view.players
    tricks = [[(t.seat_of(k, view.players), c) for k, c in enumerate(t.cards)] for t in view.tricks]
    if view.current_trick:
        tricks.append(list(view.current_trick))
    for trick in tricks:
        led = trick[0][1].suit
        for seat, card in trick[1:]:
            if card.suit != led:
                voids[seat] |= SUIT_MASKS[led]
    return voids


@settings(max_examples=120, deadline=None)
@given(
    players=st.sampled_from([3, 4, 5, 6]),
    contract=st.sampled_from(list(Contract)),
    layout=st.sampled_from(["extend_first", "free"]),
    seed=st.integers(0, 10**6),
    fraction=st.floats(0.0, 1.0),
    observer=st.integers(0, 5),
)
def test_every_sample_is_consistent_with_the_view(
    players: int, contract: Contract, layout: str, seed: int, fraction: float, observer: int
) -> None:
    deal = _stopped_deal(players, contract, layout, seed, fraction)
    seat = observer % players
    view = deal.view_for(seat)
    played = played_mask(view)
    voids = _revealed_voids(view)
    rng = random.Random(seed)
    knowledge = knowledge_from_view(view)
    for _ in range(4):
        hands = sample_hands(view, rng)
        assert hands[seat] == hand_mask(view)
        assert [h.bit_count() for h in hands] == list(view.hand_sizes)
        union = 0
        for s, hand in enumerate(hands):
            assert not hand & played
            assert not hand & union, "a card was dealt twice"
            assert not hand & voids[s], f"seat {s} got a suit it showed it lacks"
            union |= hand
        assert union == PACK_MASKS[players] & ~played
        # Replaying the whole history on the sample is legal; in the layout every pass is
        # checked explicitly: at that moment the passer had nothing else to do.
        world = Deal.from_masks(
            players, contract, deal.dealer, initial_masks(knowledge, hands), deal.rules
        )
        for _who, move in view.history:
            if move.index == 36:
                assert world.legal_mask() == PASS_BIT
            world.play_index(move.index)
        assert world.turn == deal.turn
        assert world.hand_masks[seat] == deal.hand_masks[seat]


def test_a_pass_in_the_layout_hides_extending_cards_and_jacks() -> None:
    """Seat 1 passed on an empty table with no Jack: no sample may give it a Jack."""
    hands = [
        ["JC", "TC", "9C", "8C", "JS", "TS", "JH", "TH"],
        ["7C", "7S", "8S", "9S", "7H", "8H", "9H", "7D"],
        ["QC", "KC", "AC", "QS", "KS", "AS", "QH", "KH"],
        ["AH", "8D", "9D", "TD", "JD", "QD", "KD", "AD"],
    ]
    deal = Deal(4, Contract.ROSBIRATSCHKA, 3, hands)
    deal.play("JC")  # seat 0 opens clubs; seat 1 has neither TC/QC nor a Jack
    deal.play("pass")
    view = deal.view_for(2)
    knowledge = knowledge_from_view(view)
    rng = random.Random(3)
    forbidden_for_1 = sum(1 << c for c in (9 * 0 + 4, 9 * 0 + 6)) | sum(
        1 << (9 * s + 5) for s in range(4)
    )
    for _ in range(50):
        sample = sample_from(knowledge, rng)
        assert not sample[1] & forbidden_for_1


def test_constrained_views_still_find_a_deal() -> None:
    """Heavy voids can trap a greedy deal; the matching fallback still finds the real one."""
    rng = random.Random(11)
    for seed in range(40):
        deal = random_deal(3, Contract.NO_TRICKS, random.Random(seed))
        while deal.move_count < 15:
            deal.play_index(_random_index(deal, rng))
        view = deal.view_for(deal.turn)
        knowledge = knowledge_from_view(view)
        for _ in range(5):
            hands = sample_from(knowledge, rng)
            for s in range(3):
                assert not hands[s] & knowledge.forbidden[s]


def test_the_matching_fallback_fills_every_seat_within_its_limits() -> None:
    """Cards 0-5 for seats 1-3 (two each) where seat 3 may only hold cards 4 and 5."""
    allowed = [0, 0b111111, 0b001111, 0b110000]
    for seed in range(30):
        cards = list(range(6))
        random.Random(seed).shuffle(cards)
        hands = _matching(cards, [1, 2, 3], allowed, (0, 2, 2, 2), random.Random(seed))
        assert hands[3] == 0b110000
        assert hands[1] | hands[2] == 0b001111
        assert hands[1].bit_count() == hands[2].bit_count() == 2


def test_sampling_alone_keeps_the_own_hand_and_the_counts() -> None:
    knowledge = Knowledge(
        seat=0,
        own_hand=0b11,
        unseen=0b111100,
        need=(0, 1, 3),
        forbidden=(0, 0b001100, 0),
        played_by=(0, 0, 0),
    )
    rng = random.Random(5)
    seen_for_1 = 0
    for _ in range(40):
        hands = sample_from(knowledge, rng)
        assert hands[0] == 0b11
        assert hands[1].bit_count() == 1 and not hands[1] & 0b001100
        assert hands[1] | hands[2] == 0b111100
        seen_for_1 |= hands[1]
    assert seen_for_1 == 0b110000, "both allowed cards turn up for seat 1"
