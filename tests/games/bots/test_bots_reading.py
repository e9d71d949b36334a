"""Reading the others' play: conclusions drawn from plays that follow the heuristic plan."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots import ExpertBot, StrongBot, make_bot, strong
from games.bots.heuristic import heuristic_index
from games.bots.policy import HUNDRED, NO_JACKS, NO_TRICKS
from games.bots.reading import plan_reveals
from games.bots.sampling import Knowledge, knowledge_from_view, sample_from, tightened
from games.bots.strong import equivalent_moves
from games.engine import Contract, Deal
from games.engine.cards import CARD_BY_CODE, HEART_MASK, PACK_MASKS
from games.engine.deal import SeatView
from games.engine.partie import random_deal
from tests.games.bots.hands import hands_with


def _mask(*codes: str) -> int:
    out = 0
    for code in codes:
        out |= CARD_BY_CODE[code].bit
    return out


def _index(code: str) -> int:
    return CARD_BY_CODE[code].index


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(3, 6),
    contract=st.sampled_from(list(Contract)),
    seed=st.integers(0, 10_000),
    fraction=st.floats(0.0, 1.0),
)
def test_heuristic_players_never_hold_a_card_their_play_ruled_out(
    players: int, contract: Contract, seed: int, fraction: float
) -> None:
    """The conclusions are sound for players of the plan: the true hands satisfy them, so
    the tightened knowledge stays satisfiable and its samples obey it."""
    deal = random_deal(players, contract, random.Random(seed))
    stop = fraction * 40
    while not deal.over and len(deal.history) < stop:
        view = deal.view_for(deal.turn)
        excluded = plan_reveals(view)
        assert excluded[view.seat] == 0
        for seat in range(players):
            assert not excluded[seat] & deal.hand_masks[seat]
        deal.play_index(heuristic_index(view))
    if deal.over:
        return
    view = deal.view_for(deal.turn)
    knowledge = knowledge_from_view(view)
    read = tightened(knowledge, plan_reveals(view))
    assert read is not None
    hands = sample_from(read, random.Random(seed))
    for seat, hand in enumerate(hands):
        if seat != view.seat:
            assert not hand & read.forbidden[seat]
            assert not hand & plan_reveals(view)[seat]


def test_a_duck_rules_out_the_cards_between_it_and_the_winner() -> None:
    hands = hands_with(4, {0: ["TC", "8S", "9S", "TS", "JS", "QS", "KS", "AS"]})
    deal = Deal(4, Contract.NO_TRICKS, 3, hands)
    deal.play("TC")
    deal.play("7C")  # seat 1 ducks with its 7 of Clubs
    excluded = plan_reveals(deal.view_for(deal.turn))
    assert excluded[1] & _mask("8C", "9C") == _mask("8C", "9C")
    assert not excluded[1] & _mask("JC", "QC", "KC", "AC", "6C")


def test_a_harmless_discard_rules_out_penalty_cards() -> None:
    diamonds = ["7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"]
    hands = hands_with(4, {3: diamonds, 0: ["7C", "8C", "9C", "7S", "8S", "9S", "TS", "JS"]})
    deal = Deal(4, Contract.NO_HEARTS, 2, hands)
    deal.play("7D")
    deal.play("7C")  # seat 0 is void in Diamonds and discards a Club: it holds no Heart
    assert plan_reveals(deal.view_for(deal.turn))[0] & HEART_MASK == HEART_MASK


def test_in_no_king_a_discard_other_than_the_king_rules_it_and_the_ace_out() -> None:
    diamonds = ["7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"]
    hands = hands_with(4, {3: diamonds, 0: ["7H", "7C", "8C", "9C", "7S", "8S", "9S", "TS"]})
    deal = Deal(4, Contract.NO_KING_OF_HEARTS, 2, hands)
    deal.play("7D")
    deal.play("7H")
    excluded = plan_reveals(deal.view_for(deal.turn))[0]
    assert excluded & _mask("KH", "AH") == _mask("KH", "AH")


def test_in_hundred_a_play_rules_out_every_card_the_plan_prefers() -> None:
    hands = hands_with(4, {0: ["TC", "KC", "QC", "JC", "TS", "9C", "8C", "7C"]})
    deal = Deal(4, Contract.HUNDRED, 3, hands)
    deal.play("TC")  # 10 on 0: an Ace (11, closer below 25) would have been laid first...
    excluded = plan_reveals(deal.view_for(deal.turn))[0]
    assert excluded & _mask("AS", "AH", "AD") == _mask("AS", "AH", "AD")
    assert not excluded & _mask("TH", "TD", "KH")  # ...nothing about equal or worse cards


def test_no_conclusion_from_the_own_seat_or_a_possible_slam() -> None:
    hands = hands_with(4, {0: ["TC", "8S", "9S", "TS", "JS", "QS", "KS", "AS"]})
    deal = Deal(4, Contract.NO_TRICKS, 3, hands)
    deal.play("TC")
    deal.play("AC")  # over the Ten in the first trick: the slam rule may have chosen it
    assert plan_reveals(deal.view_for(1))[0] == 0
    assert plan_reveals(deal.view_for(2))[1] == 0


def test_plays_against_the_plan_fall_back_to_the_plain_constraints(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """When no deal agrees with the conclusions (the others did not play the plan), the
    bot samples from the plain constraints and still plays."""
    deal = random_deal(4, Contract.NO_TRICKS, random.Random(3))
    for _ in range(6):
        deal.play_index(heuristic_index(deal.view_for(deal.turn)))
    view = deal.view_for(deal.turn)
    everything = tuple(PACK_MASKS[4] for _ in range(4))
    assert tightened(knowledge_from_view(view), everything) is None
    monkeypatch.setattr(strong, "plan_reveals", lambda _view: everything)
    bot = StrongBot(3, samples=5, reading=True)
    assert bot.choose(view) in view.legal_moves
    assert not bot.last_read and bot.last_samples == 5


def test_reading_bots_are_deterministic_for_a_seed() -> None:
    deal = random_deal(5, Contract.NO_HEARTS, random.Random(11))
    for _ in range(24):
        deal.play_index(heuristic_index(deal.view_for(deal.turn)))
    view = deal.view_for(deal.turn)
    assert len(view.legal_moves) > 1
    first = make_bot("strong", seed=4, samples=12, reading=True)
    second = make_bot("strong", seed=4, samples=12, reading=True)
    assert first.choose(view) == second.choose(view)
    assert first.last_read


def test_interchangeable_cards_roll_out_once() -> None:
    """Touching cards of a suit (nothing between them out or on the table) form one group;
    a card on the table between them keeps them apart; in hundred only the value counts."""
    hand = _mask("8C", "9C", "JC", "7S", "AS", "JS")
    finished = _mask("TC")
    groups = equivalent_moves(NO_TRICKS, 4, hand, hand, finished)
    assert sorted(map(sorted, groups.values())) == sorted(
        [[_index("8C"), _index("9C"), _index("JC")], [_index("7S")], [_index("JS")], [_index("AS")]]
    )
    # The Ten on the table (not finished) decides the trick: 9 ducks, Jack wins.
    apart = equivalent_moves(NO_TRICKS, 4, hand, hand, 0)
    assert [_index("8C"), _index("9C")] in apart.values()
    assert [_index("JC")] in apart.values()
    # In no_jacks a Jack costs and never joins a group of free cards.
    assert [_index("JC")] in equivalent_moves(NO_JACKS, 4, hand, hand, finished).values()
    # The planned move represents its group.
    assert _index("9C") in equivalent_moves(NO_TRICKS, 4, hand, hand, finished, _index("9C"))
    zeros = _mask("6C", "7S", "9H", "TD", "AC")
    by_value = equivalent_moves(HUNDRED, 4, zeros, zeros, 0)
    assert sorted(map(sorted, by_value.values())) == sorted(
        [sorted([_index("6C"), _index("7S"), _index("9H")]), [_index("TD")], [_index("AC")]]
    )


@settings(max_examples=30, deadline=None)
@given(
    players=st.integers(3, 6),
    contract=st.sampled_from(list(Contract)),
    seed=st.integers(0, 10_000),
    moves=st.integers(0, 30),
)
def test_merged_moves_share_the_outcomes_of_their_representative(
    players: int, contract: Contract, seed: int, moves: int
) -> None:
    deal = random_deal(players, contract, random.Random(seed))
    for _ in range(moves):
        if deal.over:
            return
        deal.play_index(heuristic_index(deal.view_for(deal.turn)))
    if deal.over:
        return
    view = deal.view_for(deal.turn)
    merged = StrongBot(seed, samples=4).outcomes(view)
    plain = StrongBot(seed, samples=4, merge=False).outcomes(view)
    assert set(merged) == set(plain) == {move.index for move in view.legal_moves}
    for outcome in merged.values():
        assert len(outcome) == 4
        assert outcome in plain.values()  # some member's own rollouts


class _Spy(ExpertBot):
    """An expert that keeps every world it deals."""

    def draw_world(self, knowledge: Knowledge, view: SeatView) -> list[int]:
        hands = super().draw_world(knowledge, view)
        self.worlds.append(hands)
        return hands


def test_the_search_levels_deal_only_worlds_that_agree_with_the_reading() -> None:
    """Both search levels read the table (the strong bot since December 2026); without
    ``reading`` the worlds follow the plain constraints only."""
    deal = random_deal(5, Contract.NO_HEARTS, random.Random(11))
    for _ in range(24):
        deal.play_index(heuristic_index(deal.view_for(deal.turn)))
    view = deal.view_for(deal.turn)
    expert = _Spy(2, samples=6)
    expert.worlds = []
    strong = make_bot("strong", seed=2, samples=6)
    unread = make_bot("strong", seed=2, samples=6, reading=False)
    for bot in (expert, strong, unread):
        bot.choose(view)
    assert expert.last_read and strong.last_read and not unread.last_read
    excluded = plan_reveals(view)
    assert any(excluded)
    assert len(expert.worlds) == 6
    for hands in expert.worlds:
        assert not any(hand & ex for hand, ex in zip(hands, excluded, strict=True))
