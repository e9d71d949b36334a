"""Properties that hold for every deal: random deals for 3-6 players, all contracts, house rules.

Hypothesis draws the set-up and a seed; ``random.Random(seed)`` deals and picks the moves, so a
failing example replays exactly. The checks use only the public API and RULES.md, never the
engine's internals.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    CONTRACT_ORDER,
    PASS,
    Card,
    Contract,
    Deal,
    DealRecord,
    HouseRules,
    IllegalMove,
    Partie,
    PartieRecord,
    deal_hands,
    draw_first_dealer,
    pack,
    places,
    play_out_randomly,
    random_deal,
    score_record,
)
from games.engine.cards import MOVES_BY_INDEX
from games.engine.partie import deal_masks

PROPERTY_SETTINGS = settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
HAND_SIZE = {3: 8, 4: 8, 5: 7, 6: 6}
ALL_MOVES = list(MOVES_BY_INDEX)

player_counts = st.sampled_from([3, 4, 5, 6])
contracts = st.sampled_from(list(Contract))
house_rules = st.builds(
    HouseRules, doubling=st.booleans(), layout=st.sampled_from(["extend_first", "free"])
)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
deal_setups = st.tuples(player_counts, contracts, house_rules, seeds)


def new_deal(setup: tuple[int, Contract, HouseRules, int]) -> tuple[Deal, random.Random]:
    players, contract, rules, seed = setup
    rng = random.Random(seed)
    return random_deal(players, contract, rng, rules=rules), rng


def walk(deal: Deal, rng: random.Random) -> Iterator[Deal]:
    """Yield the deal before every move, then play a uniformly random legal move."""
    while not deal.over:
        yield deal
        deal.play(rng.choice(deal.legal_moves()))


def hand_codes(deal: Deal, seat: int) -> set[str]:
    return {c.code for c in deal.hand(seat)}


def trick_winner(leader: int, cards: tuple[Card, ...], players: int) -> int:
    """The highest card of the led suit wins (no trumps), worked out from the cards alone."""
    led = cards[0].suit
    best = max((c for c in cards if c.suit == led), key=lambda c: c.rank)
    return (leader + cards.index(best)) % players


# ------------------------------------------------------------------------- conservation


@PROPERTY_SETTINGS
@given(deal_setups)
def test_cards_are_conserved(setup: tuple[int, Contract, HouseRules, int]) -> None:
    deal, rng = new_deal(setup)
    full_pack = {c.code for c in pack(deal.players)}
    for _ in walk(deal, rng):
        held = [hand_codes(deal, s) for s in range(deal.players)]
        played = [m.code for _, m in deal.history if m is not PASS]
        assert len(played) == len(set(played))
        everything = [c for h in held for c in h] + played
        assert len(everything) == len(full_pack)
        assert set(everything) == full_pack
    assert all(m in full_pack or m == "pass" for m in (m.code for m in deal.moves))


@PROPERTY_SETTINGS
@given(player_counts, seeds, st.integers(min_value=0, max_value=5))
def test_dealing_gives_the_whole_pack_evenly(players: int, seed: int, dealer: int) -> None:
    dealer %= players
    hands = deal_hands(players, random.Random(seed), dealer)
    assert len(hands) == players
    assert all(len(h) == HAND_SIZE[players] for h in hands)
    assert sorted(c for h in hands for c in h) == pack(players)
    assert hands == deal_hands(players, random.Random(seed), dealer)
    masks = deal_masks(players, random.Random(seed), dealer)
    assert [sorted(h) for h in hands] == [
        sorted(c for c in pack(players) if m & c.bit) for m in masks
    ]


@PROPERTY_SETTINGS
@given(player_counts, seeds, st.integers(min_value=0, max_value=5))
def test_dealing_is_the_packet_deal_of_the_pack_sorted_by_random_keys(
    players: int, seed: int, dealer: int
) -> None:
    """The deal is a plain function of the random draws: seeded deals stay the same."""
    dealer %= players
    cards = pack(players)
    rng = random.Random(seed)
    keys = [rng.random() for _ in cards]
    shuffled = [card for _, card in sorted(zip(keys, cards, strict=True), key=lambda kc: kc[0])]
    packets = {8: (2, 3, 3), 7: (2, 3, 2), 6: (3, 3)}[HAND_SIZE[players]]
    expected = [0] * players
    position = 0
    for size in packets:
        for k in range(players):
            for card in shuffled[position : position + size]:
                expected[(dealer + 1 + k) % players] |= card.bit
            position += size
    assert deal_masks(players, random.Random(seed), dealer) == expected


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_card_is_as_likely_in_every_seat(players: int) -> None:
    """A fixed-seed check of the shuffle: each card lands in each seat about equally often."""
    rng = random.Random(players)
    deals = 6000
    counts = [[0] * players for _ in range(36)]
    for _ in range(deals):
        for seat, mask in enumerate(deal_masks(players, rng, 0)):
            while mask:
                low = mask & -mask
                counts[low.bit_length() - 1][seat] += 1
                mask ^= low
    expected = deals / players
    sigma = (deals * (1 / players) * (1 - 1 / players)) ** 0.5
    for card in pack(players):
        assert all(abs(n - expected) < 5 * sigma for n in counts[card.index]), card


# ------------------------------------------------------------------------- turn order


@PROPERTY_SETTINGS
@given(deal_setups)
def test_turn_order_follows_the_rules(setup: tuple[int, Contract, HouseRules, int]) -> None:
    """Trick winner leads, otherwise clockwise; the layout game skips empty hands."""
    deal, rng = new_deal(setup)
    n = deal.players
    left_of_dealer = (deal.dealer + 1) % n
    expected = left_of_dealer
    trick: list[Card] = []
    leader = left_of_dealer
    while not deal.over:
        seat = deal.turn
        assert seat == expected
        move = rng.choice(deal.legal_moves())
        number = deal.move_count
        deal.play(move)
        assert deal.history[number] == (seat, move)
        if deal.contract.is_trick_contract:
            if not trick:
                leader = seat
            trick.append(move)
            if len(trick) == n:
                winner = trick_winner(leader, tuple(trick), n)
                assert deal.tricks[-1].leader == leader
                assert deal.tricks[-1].cards == tuple(trick)
                assert deal.tricks[-1].winner == winner
                trick = []
                expected = winner
            else:
                expected = (seat + 1) % n
        elif deal.contract is Contract.HUNDRED:
            assert seat == (left_of_dealer + number) % n
            expected = (seat + 1) % n
        else:
            sizes = [len(deal.hand(s)) for s in range(n)]
            expected = (seat + 1) % n
            while sizes[expected] == 0 and not deal.over:
                expected = (expected + 1) % n


@PROPERTY_SETTINGS
@given(deal_setups)
def test_legal_moves_are_never_empty_before_the_end_and_the_deal_ends_in_time(
    setup: tuple[int, Contract, HouseRules, int],
) -> None:
    deal, rng = new_deal(setup)
    n = deal.players
    pack_size = len(pack(n))
    passes_in_a_row = 0
    while not deal.over:
        legal = deal.legal_moves()
        assert legal
        assert deal.legal_mask() == sum(1 << m.index for m in legal)
        own = set(deal.hand(deal.turn))
        assert all(m in own for m in legal if m is not PASS)
        if PASS in legal:
            assert legal == [PASS]  # a pass is legal only when nothing else is
        move = rng.choice(legal)
        holders = sum(1 for s in range(n) if deal.hand(s))
        deal.play(move)
        passes_in_a_row = passes_in_a_row + 1 if move is PASS else 0
        # a whole round of passes would mean nobody can ever lay a card again
        assert passes_in_a_row < holders
        assert deal.move_count <= pack_size * n
    assert deal.legal_moves() == []
    assert deal.legal_mask() == 0
    cards_played = sum(1 for m in deal.moves if m is not PASS)
    assert cards_played <= pack_size
    if deal.contract in (Contract.NO_TRICKS, Contract.NO_HEARTS, Contract.NO_JACKS):
        assert deal.move_count == pack_size
    elif deal.contract is Contract.NO_KING_OF_HEARTS:
        assert deal.move_count % n == 0
        assert Card.from_code("KH") in deal.tricks[-1].cards
    elif deal.contract is Contract.HUNDRED:
        assert deal.hundred_total > 100
        assert deal.hundred_total - deal.moves[-1].hundred_value <= 100
    else:
        assert sum(1 for s in range(n) if deal.hand(s)) == 1


# ------------------------------------------------------------------------- penalties


def expected_sums(deal: Deal) -> tuple[int, int]:
    """(normal, doubled) total of a deal's penalties by RULES.md section 4."""
    if deal.contract is Contract.NO_HEARTS and deal.players >= 5:
        return 9, 18
    return 8, 16


def taken_counts(deal: Deal) -> list[int]:
    """What each seat took that the contract counts: tricks, Hearts or Jacks."""
    counts = [0] * deal.players
    for trick in deal.tricks:
        if deal.contract is Contract.NO_TRICKS:
            counts[trick.winner] += 1
        elif deal.contract is Contract.NO_HEARTS:
            counts[trick.winner] += sum(1 for c in trick.cards if c.suit_code == "H")
        else:
            counts[trick.winner] += sum(1 for c in trick.cards if c.rank_code == "J")
    return counts


@settings(PROPERTY_SETTINGS, max_examples=200)
@given(deal_setups)
def test_penalties_add_up_to_the_rules_totals(
    setup: tuple[int, Contract, HouseRules, int],
) -> None:
    deal, rng = new_deal(setup)
    play_out_randomly(deal, rng)
    penalties = deal.penalties
    assert penalties is not None and len(penalties) == deal.players
    normal, doubled = expected_sums(deal)
    if deal.contract in (Contract.NO_TRICKS, Contract.NO_HEARTS, Contract.NO_JACKS):
        counts = taken_counts(deal)
        everything = sum(counts)
        if max(counts) == everything:
            assert sorted(penalties) == [-8] + [0] * (deal.players - 1)
            assert penalties[counts.index(everything)] == -8
        elif deal.rules.doubling and 0 in counts:
            assert sum(penalties) == doubled
        else:
            assert sum(penalties) == normal
        assert all(p == 0 for p, c in zip(penalties, counts, strict=True) if c == 0) or (
            -8 in penalties
        )
    else:
        assert sum(penalties) == normal
        if deal.contract is not Contract.HUNDRED:
            assert sorted(penalties) == [0] * (deal.players - 1) + [8]
    if not deal.rules.doubling:
        assert sum(penalties) != doubled


# ------------------------------------------------------------------------- records


@PROPERTY_SETTINGS
@given(deal_setups, st.booleans(), st.integers(min_value=0, max_value=60))
def test_records_round_trip_and_replay(
    setup: tuple[int, Contract, HouseRules, int], include_rules: bool, stop: int
) -> None:
    deal, rng = new_deal(setup)
    for _ in range(stop):
        if deal.over:
            break
        deal.play(rng.choice(deal.legal_moves()))
    record = DealRecord.from_deal(deal, include_rules=include_rules)
    as_dict = record.to_dict()
    assert ("rules" in as_dict) == include_rules
    assert DealRecord.from_dict(as_dict).to_dict() == as_dict
    assert DealRecord.from_json(record.to_json()).to_dict() == as_dict
    assert json.loads(json.dumps(as_dict)) == as_dict
    # without "rules" the record means the default rules: replay the one that keeps them
    replayed = DealRecord.from_dict(DealRecord.from_deal(deal).to_dict()).replay()
    assert replayed.public_view().to_dict() == deal.public_view().to_dict()
    assert replayed.moves == deal.moves
    assert [replayed.hand(s) for s in range(deal.players)] == [
        deal.hand(s) for s in range(deal.players)
    ]
    # finish both the same way and compare the scores
    finish = random.Random(stop)
    play_out_randomly(deal, finish)
    full = DealRecord.from_deal(deal).to_dict()
    assert score_record(full) == deal.penalties
    assert DealRecord.from_dict(full).penalties() == deal.penalties
    shuffled = dict(full)
    shuffled["hands"] = [list(reversed(h)) for h in full["hands"]]  # any order inside a hand
    assert DealRecord.from_dict(shuffled).to_dict() == shuffled
    assert score_record(shuffled) == deal.penalties


# ------------------------------------------------------------------------- views


def leaks(text: str, codes: set[str]) -> set[str]:
    return {code for code in codes if f'"{code}"' in text}


@settings(PROPERTY_SETTINGS, max_examples=60)
@given(deal_setups)
def test_views_never_show_a_card_in_another_hand(
    setup: tuple[int, Contract, HouseRules, int],
) -> None:
    deal, rng = new_deal(setup)
    n = deal.players
    while True:
        hands = [hand_codes(deal, s) for s in range(n)]
        public = deal.public_view()
        public_text = json.dumps(public.to_dict())
        assert not leaks(public_text, set().union(*hands))
        assert public.hand == () and public.legal_moves == ()
        for seat in range(n):
            view = deal.view_for(seat)
            others = set().union(*(h for s, h in enumerate(hands) if s != seat))
            text = json.dumps(view.to_dict())
            assert not leaks(text, others)
            shown = {c.code for c in view.hand} | {
                m.code for m in view.legal_moves if m is not PASS
            }
            assert not shown & others
            assert {c.code for c in view.hand} == hands[seat]
            assert view.hand_sizes == tuple(len(h) for h in hands)
            assert bool(view.legal_moves) == (not deal.over and deal.turn == seat)
        if deal.over:
            break
        deal.play(rng.choice(deal.legal_moves()))


# ------------------------------------------------------------------------- illegal moves


def snapshot(deal: Deal) -> list[dict]:
    views = [deal.view_for(s).to_dict() for s in range(deal.players)]
    return [*views, deal.public_view().to_dict(), {"turn": deal.turn, "n": deal.move_count}]


@settings(PROPERTY_SETTINGS, max_examples=80)
@given(deal_setups)
def test_illegal_moves_raise_and_change_nothing(
    setup: tuple[int, Contract, HouseRules, int],
) -> None:
    deal, rng = new_deal(setup)
    while True:
        legal = set(deal.legal_moves())
        illegal = [m for m in ALL_MOVES if m not in legal]
        before = snapshot(deal)
        for move in rng.sample(illegal, min(4, len(illegal))):
            try:
                deal.play(move if rng.random() < 0.5 else move.code)
            except IllegalMove as exc:
                assert str(exc)
            else:
                raise AssertionError(f"{move} was accepted but is not a legal move")
            assert snapshot(deal) == before
        for junk in ("", "ZZ", "ah", "Pass", "10H"):
            try:
                deal.play(junk)
            except IllegalMove:
                pass
            else:
                raise AssertionError(f"{junk!r} was accepted")
        assert snapshot(deal) == before
        if deal.over:
            break
        deal.play(rng.choice(sorted(legal, key=lambda m: m.index)))


# ------------------------------------------------------------------------- clone, seeds


@settings(PROPERTY_SETTINGS, max_examples=80)
@given(deal_setups, st.integers(min_value=0, max_value=40))
def test_clone_is_independent(setup: tuple[int, Contract, HouseRules, int], stop: int) -> None:
    deal, rng = new_deal(setup)
    for _ in range(stop):
        if deal.over:
            break
        deal.play(rng.choice(deal.legal_moves()))
    copy = deal.clone()
    before = snapshot(deal)
    assert snapshot(copy) == before
    play_out_randomly(copy, random.Random(1))
    assert snapshot(deal) == before
    copy_after = snapshot(copy)
    play_out_randomly(deal, random.Random(1))
    assert snapshot(deal) == copy_after  # same moves from the same state: same result
    assert snapshot(copy) == copy_after


@settings(PROPERTY_SETTINGS, max_examples=40)
@given(player_counts, house_rules, seeds)
def test_same_seed_same_partie(players: int, rules: HouseRules, seed: int) -> None:
    def partie_from(seed: int) -> Partie:
        rng = random.Random(seed)
        partie = Partie(players, draw_first_dealer(players, rng), rules)
        for _ in CONTRACT_ORDER:
            play_out_randomly(partie.deal_next(rng), rng)
        return partie

    first, second = partie_from(seed), partie_from(seed)
    assert first.to_record().to_dict() == second.to_record().to_dict()
    assert first.is_over
    assert [d.contract for d in first.deals] == list(CONTRACT_ORDER)
    assert [d.dealer for d in first.deals] == [
        (first.first_dealer + k) % players for k in range(len(CONTRACT_ORDER))
    ]


# ------------------------------------------------------------------------- Partie


@settings(PROPERTY_SETTINGS, max_examples=40)
@given(player_counts, house_rules, seeds, st.integers(min_value=0, max_value=6))
def test_partie_totals_places_and_record(
    players: int, rules: HouseRules, seed: int, deals: int
) -> None:
    rng = random.Random(seed)
    partie = Partie(players, rng.randrange(players), rules)
    for _ in range(deals):
        play_out_randomly(partie.deal_next(rng), rng)
    sheet = partie.deal_penalties()
    assert len(sheet) == deals
    assert partie.totals == tuple(sum(column) for column in zip(*sheet, strict=True)) or (
        deals == 0 and partie.totals == (0,) * players
    )
    totals = partie.totals
    assert partie.places() == [1 + sum(1 for t in totals if t < mine) for mine in totals]
    record = partie.to_record().to_dict()
    assert PartieRecord.from_dict(record).to_dict() == record
    rebuilt = Partie.from_record(PartieRecord.from_json(json.dumps(record)))
    assert rebuilt.totals == totals
    assert rebuilt.deal_penalties() == sheet
    assert partie.is_over == (deals == 6)


@given(st.lists(st.integers(min_value=-8, max_value=60), min_size=3, max_size=6))
def test_places_share_on_ties(totals: list[int]) -> None:
    result = places(totals)
    assert min(result) == 1
    for a, ta in zip(result, totals, strict=True):
        for b, tb in zip(result, totals, strict=True):
            assert (ta == tb) == (a == b)
            assert (ta < tb) == (a < b)
    # a place is one more than the number of players strictly ahead ("1, 2, 2, 4")
    assert sorted(result) == [1 + sorted(totals).index(t) for t in sorted(totals)]


@given(player_counts, seeds)
def test_first_dealer_draw_is_a_seat_and_repeatable(players: int, seed: int) -> None:
    dealer = draw_first_dealer(players, random.Random(seed))
    assert 0 <= dealer < players
    assert dealer == draw_first_dealer(players, random.Random(seed))


def test_first_dealer_draw_is_fair() -> None:
    """Ties redraw among the tied players, so every seat is equally likely to deal first."""
    rng = random.Random(2026)
    for players in (3, 4, 5, 6):
        draws = 600 * players
        counts = [0] * players
        for _ in range(draws):
            counts[draw_first_dealer(players, rng)] += 1
        assert all(abs(c - 600) < 120 for c in counts), (players, counts)
