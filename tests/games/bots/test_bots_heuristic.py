"""The heuristic bot does the sensible thing in hand-built positions."""

from __future__ import annotations

from games.bots import StrongBot, make_bot
from games.bots.policy import crossing_penalty
from games.engine import Contract, Deal, HouseRules
from games.engine.cards import HUNDRED_VALUES, Card
from tests.games.bots.hands import hands_with


def _choice(deal: Deal, level: str = "heuristic") -> str:
    return make_bot(level, seed=1).choose(deal.view_for(deal.turn)).code


def test_ducks_with_the_highest_card_that_still_loses() -> None:
    hands = hands_with(
        4,
        {
            0: ["TC", "8C", "7S", "8S", "9S", "7H", "8H", "9H"],
            1: ["7C", "9C", "QC", "AC", "TS", "JS", "TH", "JH"],
        },
    )
    for contract in (Contract.NO_TRICKS, Contract.NO_HEARTS, Contract.NO_JACKS):
        deal = Deal(4, contract, 3, hands)
        deal.play("TC")
        assert _choice(deal) == "9C"


def test_dumps_the_king_of_hearts_when_void() -> None:
    diamonds = ["7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"]
    hands = hands_with(4, {3: diamonds, 0: ["KH", "AH", "7C", "8C", "9C", "7S", "8S", "9S"]})
    deal = Deal(4, Contract.NO_KING_OF_HEARTS, 2, hands)
    deal.play("7D")
    assert _choice(deal) == "KH"


def test_dumps_the_ace_of_hearts_while_the_king_is_out() -> None:
    diamonds = ["7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"]
    hands = hands_with(4, {3: diamonds, 0: ["AH", "7H", "7C", "8C", "9C", "7S", "8S", "9S"]})
    deal = Deal(4, Contract.NO_KING_OF_HEARTS, 2, hands)
    deal.play("7D")
    assert _choice(deal) == "AH"


def test_dumps_hearts_and_jacks_in_their_contracts() -> None:
    diamonds = ["7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"]
    own = ["JC", "7H", "QH", "7C", "AC", "7S", "8S", "9S"]
    hands = hands_with(4, {3: diamonds, 0: own})
    expected = {Contract.NO_HEARTS: "QH", Contract.NO_JACKS: "JC", Contract.NO_TRICKS: "AC"}
    for contract, card in expected.items():
        deal = Deal(4, contract, 2, hands)
        deal.play("7D")
        assert _choice(deal) == card


def test_last_to_a_clean_trick_sheds_a_high_card_but_not_in_no_tricks() -> None:
    hands = hands_with(
        4,
        {
            0: ["TC", "8C", "7S", "8S", "9S", "7H", "8H", "9H"],
            1: ["JC", "7D", "8D", "9D", "TD", "KS", "AS", "QS"],
            2: ["QC", "9C", "JD", "QD", "KD", "AD", "TS", "JS"],
            3: ["7C", "AC", "KC", "JH", "QH", "KH", "AH", "TH"],
        },
    )
    deal = Deal(4, Contract.NO_HEARTS, 3, hands)
    for card in ("TC", "JC", "QC"):
        deal.play(card)
    assert _choice(deal) == "AC"  # no Heart in the trick: take it and lose the Ace
    deal = Deal(4, Contract.NO_TRICKS, 3, hands)
    for card in ("TC", "JC", "QC"):
        deal.play(card)
    assert _choice(deal) == "7C"


def test_leads_low_in_a_short_suit() -> None:
    hands = hands_with(4, {0: ["7C", "AS", "KS", "QS", "JS", "AH", "KH", "AD"]})
    deal = Deal(4, Contract.NO_TRICKS, 3, hands)
    assert _choice(deal) == "7C"


def test_hundred_avoids_crossing_25_and_leaves_the_total_on_it() -> None:
    hands = hands_with(
        4,
        {
            0: ["TC", "7C", "8C", "9C", "7S", "8S", "9S", "7H"],
            1: ["AC", "KC", "QC", "JC", "8H", "9H", "TH", "JH"],
            2: ["AS", "TS", "KS", "7D", "QH", "KH", "AH", "QS"],
        },
    )
    deal = Deal(4, Contract.HUNDRED, 3, hands)
    deal.play("TC")
    deal.play("AC")  # total 21
    choice = _choice(deal)
    assert not crossing_penalty(21, HUNDRED_VALUES[Card.from_code(choice).rank])
    assert choice == "KS"  # exactly 25: the next player crosses with anything but a zero


def test_hundred_crossing_when_forced_leaves_the_next_threshold_close() -> None:
    """Every card of seat 3 crosses 25 (one point each); the Ace leaves 33, nearest to 50."""
    hands = hands_with(
        4,
        {
            0: ["TC", "7C", "8C", "9C", "7S", "8S", "9S", "7H"],
            1: ["TS", "7D", "8D", "9D", "8H", "9H", "JH", "QH"],
            2: ["JC", "QC", "JS", "QS", "JD", "QD", "KD", "TH"],
            3: ["AC", "AS", "AH", "AD", "TD", "KC", "KS", "KH"],
        },
    )
    deal = Deal(4, Contract.HUNDRED, 3, hands)
    for card in ("TC", "TS", "JC"):  # 10, 20, 22
        deal.play(card)
    choice = Card.from_code(_choice(deal))
    assert crossing_penalty(22, HUNDRED_VALUES[choice.rank]) == 1
    assert choice.rank_code == "A"


def test_layout_opens_the_jack_that_unlocks_its_own_cards() -> None:
    own = ["JC", "TC", "9C", "JS", "7H", "8H", "7D", "8D"]
    hands = hands_with(4, {0: own})
    for layout in ("extend_first", "free"):
        deal = Deal(4, Contract.ROSBIRATSCHKA, 3, hands, HouseRules(layout=layout))
        assert _choice(deal) == "JC"


def test_layout_free_withholds_a_card_that_only_helps_others() -> None:
    """With ``free`` the bot may choose a Jack over an extension that opens others' cards."""
    own = ["QC", "JS", "TS", "9S", "7H", "8H", "7D", "8D"]
    hands = hands_with(4, {3: ["JC", "AC", "KC", "TC", "9C", "8C", "7C", "AD"], 0: own})
    deal = Deal(4, Contract.ROSBIRATSCHKA, 2, hands, HouseRules(layout="free"))
    deal.play("JC")  # seat 3 opens clubs; seat 0 may lay QC (opens KC for seat 3) or JS
    assert _choice(deal) == "JS"
    deal = Deal(4, Contract.ROSBIRATSCHKA, 2, hands)
    deal.play("JC")
    assert _choice(deal) == "QC"  # extend_first: the extension is compulsory


def test_strong_bot_keeps_under_a_threshold_in_hundred() -> None:
    hands = hands_with(
        4,
        {
            0: ["TC", "7C", "8C", "9C", "7S", "8S", "9S", "7H"],
            1: ["AC", "KC", "QC", "JC", "8H", "9H", "TH", "JH"],
            2: ["AS", "TS", "KS", "7D", "QH", "KH", "AH", "QS"],
        },
    )
    deal = Deal(4, Contract.HUNDRED, 3, hands)
    deal.play("TC")
    deal.play("AC")
    move = StrongBot(3, samples=20).choose(deal.view_for(deal.turn))
    assert not crossing_penalty(21, HUNDRED_VALUES[move.rank])


def _play_out(deal: Deal, levels: dict[int, str]) -> tuple[int, ...]:
    """Play the deal to its end, each seat with its bot level (heuristic by default)."""
    bots = {seat: make_bot(levels.get(seat, "heuristic"), seed=seat) for seat in range(4)}
    while not deal.over:
        deal.play(bots[deal.turn].choose(deal.view_for(deal.turn)))
    assert deal.penalties is not None
    return deal.penalties


def test_takes_a_certain_slam_instead_of_ducking() -> None:
    """Clubs from Ten up and the Ace of Spades: after Ten of Clubs wins the 9C lead, every
    card left is the best of its suit, so every trick is ours: -8, not +14 / +12 for ducking
    with the 8C (issue 17, bot defect 1)."""
    slam_hand = ["AC", "KC", "QC", "JC", "TC", "8C", "7C", "AS"]
    others = {0: ["9C", "7S", "8S", "9S", "7H", "8H", "9H", "TH"]}
    for contract in (Contract.NO_TRICKS, Contract.NO_JACKS):
        deal = Deal(4, contract, 3, hands_with(4, {1: slam_hand, **others}))
        deal.play("9C")
        assert _choice(deal) in {"TC", "JC", "QC", "KC", "AC"}, contract
        assert _play_out(deal, {})[1] == -8, contract


def test_ducks_when_the_slam_is_not_certain() -> None:
    """With a low Spade another seat may beat, winning every trick is not sure: duck."""
    hand = ["AC", "KC", "QC", "JC", "TC", "8C", "7C", "7S"]
    deal = Deal(
        4,
        Contract.NO_TRICKS,
        3,
        hands_with(4, {1: hand, 0: ["9C", "8S", "9S", "7H", "8H", "9H", "TH", "JH"]}),
    )
    deal.play("9C")
    assert _choice(deal) == "8C"


def test_a_slam_already_lost_is_not_chased() -> None:
    """Once another seat took a trick, taking the rest is no slam: duck as usual."""
    from games.bots.heuristic import slam_still_open
    from games.bots.policy import NO_TRICKS

    hand = ["AC", "KC", "QC", "JC", "TC", "8C", "7C", "AS"]
    deal = Deal(
        4,
        Contract.NO_TRICKS,
        3,
        hands_with(4, {1: hand, 0: ["9C", "7S", "8S", "9S", "7H", "8H", "9H", "TH"]}),
    )
    deal.play("9C")
    deal.play("8C")  # seat 1 ducks; seat 0 will win this trick
    while deal.turn != 1 or deal.view_for(1).current_trick:
        deal.play(make_bot("heuristic", seed=0).choose(deal.view_for(deal.turn)))
    assert slam_still_open(deal.view_for(1), NO_TRICKS) is False


def test_the_beginner_does_not_play_the_king_of_hearts_into_its_own_trick() -> None:
    """Holding King and Ace of Hearts, the lowest Heart is the King, which would win the
    trick and take itself; the beginner plays the Ace instead (issue 17, bot defect 2)."""
    hand = ["KH", "AH", "7C", "8C", "9C", "7S", "8S", "9S"]
    deal = Deal(
        4,
        Contract.NO_KING_OF_HEARTS,
        3,
        hands_with(4, {1: hand, 0: ["7H", "TC", "JC", "QC", "KC", "AC", "TS", "JS"]}),
    )
    deal.play("7H")
    for seed in range(20):
        assert make_bot("beginner", seed=seed).choose(deal.view_for(1)).code == "AH"
