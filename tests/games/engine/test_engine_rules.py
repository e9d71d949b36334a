"""One hand-built deal per rule of RULES.md section 4: the hands force the outcome under test.

Each deal is laid out trick by trick in comments so a reader can check the expected penalties
by hand; where the outcome does not depend on the choices left to the players, random legal
play-outs confirm it as well.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from games.engine import (
    DEFAULT_RULES,
    PASS,
    Card,
    Contract,
    Deal,
    HouseRules,
    IllegalMove,
    Row,
    play_out_randomly,
)
from games.engine.cards import lowest_rank_in_pack
from games.engine.partie import deal_masks

NO_DOUBLING = HouseRules(doubling=False)
FREE_LAYOUT = HouseRules(layout="free")
TRICK_CONTRACTS = ("no_tricks", "no_hearts", "no_jacks", "no_king_of_hearts")


def split(text: str) -> list[str]:
    return text.split()


def play_all(deal: Deal, moves: list[str]) -> Deal:
    for move in moves:
        assert not deal.over, f"deal ended before {move}"
        deal.play(move)
    return deal


def random_outcomes(make: Callable[[], Deal], seeds: range = range(40)) -> set[tuple[int, ...]]:
    """Penalties of random legal play-outs of fresh copies of a deal."""
    return {play_out_randomly(make(), random.Random(seed)).penalties for seed in seeds}


# --------------------------------------------------------------------------------------------
# 3 players, dealer 2 (seat 0 leads); every trick is single-suit, one card from each seat:
#  1: 0 AC  1 9C  2 TC -> 0        5: 1 JS  2 KS  0 QS -> 2
#  2: 0 AH  1 9H  2 TH -> 0        6: 2 AD  0 9D  1 TD -> 2
#  3: 0 QH  1 KH  2 JH -> 1        7: 2 JD  0 QD  1 KD -> 1
#  4: 1 AS  2 9S  0 TS -> 1        8: 1 JC  2 QC  0 KC -> 0
THREE_HANDS = [
    split("AC KC AH QH TS QS 9D QD"),
    split("9C JC 9H KH AS JS TD KD"),
    split("TC QC TH JH 9S KS AD JD"),
]
THREE_MOVES = split("AC 9C TC AH 9H TH QH KH JH AS 9S TS JS KS QS AD 9D TD JD QD KD JC QC KC")


def three_player_deal(contract: str, rules: HouseRules = DEFAULT_RULES) -> Deal:
    return play_all(Deal(3, contract, 2, THREE_HANDS, rules), THREE_MOVES)


def test_three_player_trick_winners_are_as_laid_out() -> None:
    deal = three_player_deal("no_tricks")
    assert [t.winner for t in deal.tricks] == [0, 0, 1, 1, 2, 2, 1, 0]
    assert [t.leader for t in deal.tricks] == [0, 0, 0, 1, 1, 2, 2, 1]
    assert deal.tricks_won == (3, 3, 2)


def test_no_tricks_costs_one_per_trick_without_doubling_when_everyone_took_one() -> None:
    assert three_player_deal("no_tricks").penalties == (3, 3, 2)


def test_no_hearts_three_players_ace_and_king_of_hearts_cost_two() -> None:
    # seat 0 takes AH 9H TH (2+1+1), seat 1 takes QH KH JH (1+2+1); seat 2 takes no Heart.
    assert three_player_deal("no_hearts", NO_DOUBLING).penalties == (4, 4, 0)
    assert three_player_deal("no_hearts").penalties == (8, 8, 0)  # seat 2 took none: doubled


def test_no_jacks_two_points_each_and_no_doubling_when_everyone_took_one() -> None:
    # JH and JD to seat 1, JS to seat 2, JC to seat 0.
    assert three_player_deal("no_jacks").penalties == (2, 4, 2)


def test_king_of_hearts_ends_the_deal_when_its_trick_is_complete() -> None:
    deal = Deal(3, "no_king_of_hearts", 2, THREE_HANDS)
    play_all(deal, THREE_MOVES[:8])  # trick 3 so far: QH, KH
    assert deal.current_trick[-1][1] is Card.from_code("KH")
    assert not deal.over
    deal.play("JH")
    assert deal.over
    assert deal.penalties == (0, 8, 0)
    assert len(deal.tricks) == 3
    assert deal.legal_moves() == []
    with pytest.raises(IllegalMove):
        deal.play(THREE_MOVES[9])


# --------------------------------------------------------------------------------------------
# 4 players, dealer 3: seat i holds the whole of suit i. Whatever anyone plays, seat 0 leads
# a Club every time, nobody can follow, and seat 0 takes all eight tricks.
SUIT_HANDS = [[r + s for r in "789TJQKA"] for s in "CSHD"]


@pytest.mark.parametrize("contract", ["no_tricks", "no_hearts", "no_jacks"])
@pytest.mark.parametrize("rules", [HouseRules(), NO_DOUBLING])
def test_slam_scores_minus_eight_and_replaces_the_doubling(
    contract: str, rules: HouseRules
) -> None:
    outcomes = random_outcomes(lambda: Deal(4, contract, 3, SUIT_HANDS, rules))
    assert outcomes == {(-8, 0, 0, 0)}


def test_king_of_hearts_with_the_whole_hearts_suit_in_one_hand() -> None:
    # Seat 2 holds every Heart and can only discard KH into a trick seat 0 wins.
    outcomes = random_outcomes(lambda: Deal(4, "no_king_of_hearts", 3, SUIT_HANDS))
    assert outcomes == {(8, 0, 0, 0)}


# 4 players, dealer 3. Seat 0: high Clubs, low Spades; seat 1: high Spades, low Clubs; seats 2
# and 3 hold only Hearts and only Diamonds and never win a trick. Seats 0 and 1 always follow
# each other, so seat 0 takes the four Club tricks and seat 1 the four Spade tricks.
CLUB_SPADE_HANDS = [
    split("AC KC QC JC 7S 8S 9S TS"),
    split("AS KS QS JS 7C 8C 9C TC"),
    [r + "H" for r in "789TJQKA"],
    [r + "D" for r in "789TJQKA"],
]


def test_doubling_when_a_player_takes_no_trick() -> None:
    outcomes = random_outcomes(lambda: Deal(4, "no_tricks", 3, CLUB_SPADE_HANDS))
    assert outcomes == {(8, 8, 0, 0)}


def test_house_rule_doubling_false_never_doubles() -> None:
    outcomes = random_outcomes(lambda: Deal(4, "no_tricks", 3, CLUB_SPADE_HANDS, NO_DOUBLING))
    assert outcomes == {(4, 4, 0, 0)}


def test_no_jacks_doubling_four_points_each() -> None:
    # JC goes to seat 0 and JS to seat 1 (own winning cards); seat 2's JH and seat 3's JD are
    # discards into whichever trick they fall: the total is forced, the split is not.
    totals = {sum(p) for p in random_outcomes(lambda: Deal(4, "no_jacks", 3, CLUB_SPADE_HANDS))}
    assert totals == {16}
    deal = Deal(4, "no_jacks", 3, CLUB_SPADE_HANDS)
    # seat 0 leads JC (7C, JH, JD fall to it) and so on: seat 0 takes three Jacks, seat 1 one.
    play_all(deal, split("JC 7C JH JD"))
    play_out_randomly(deal, random.Random(1))
    assert deal.penalties == (12, 4, 0, 0)


# --------------------------------------------------------------------------------------------
# 5 players (35 cards, no 6D), dealer 4, seven tricks:
#  1: 0 AC 1 6C 2 7C 3 8C 4 9C -> 0       5: 1 6H 2 AH 3 7H 4 8H 0 9H -> 2
#  2: 0 KC 1 TC 2 JC 3 QC 4 6S -> 0       6: 2 TH 3 KH 4 JH 0 QH 1 9D -> 3
#  3: 0 7S 1 AS 2 8S 3 9S 4 TS -> 1       7: 3 TD 4 AD 0 JD 1 QD 2 KD -> 4  (last trick)
#  4: 1 KS 2 JS 3 QS 4 7D 0 8D -> 1
FIVE_HANDS = [
    split("AC KC 7S 8D 9H QH JD"),
    split("6C TC AS KS 6H 9D QD"),
    split("7C JC 8S JS AH TH KD"),
    split("8C QC 9S QS 7H KH TD"),
    split("9C 6S TS 7D 8H JH AD"),
]
FIVE_MOVES = split(
    "AC 6C 7C 8C 9C KC TC JC QC 6S 7S AS 8S 9S TS KS JS QS 7D 8D "
    "6H AH 7H 8H 9H TH KH JH QH 9D TD AD JD QD KD"
)


def five_player_deal(contract: str, rules: HouseRules = DEFAULT_RULES) -> Deal:
    return play_all(Deal(5, contract, 4, FIVE_HANDS, rules), FIVE_MOVES)


def test_five_players_the_last_trick_costs_two() -> None:
    deal = five_player_deal("no_tricks")
    assert [t.winner for t in deal.tricks] == [0, 0, 1, 1, 2, 3, 4]
    assert deal.penalties == (2, 2, 1, 1, 2)


def test_five_players_nine_hearts_cost_one_each() -> None:
    assert five_player_deal("no_hearts", NO_DOUBLING).penalties == (0, 0, 5, 4, 0)
    assert five_player_deal("no_hearts").penalties == (0, 0, 10, 8, 0)


def test_five_players_no_jacks_doubles_when_a_seat_takes_none() -> None:
    assert five_player_deal("no_jacks").penalties == (4, 4, 0, 4, 4)
    assert five_player_deal("no_jacks", NO_DOUBLING).penalties == (2, 2, 0, 2, 2)


# 6 players (36 cards), dealer 5, six tricks, each seat takes exactly one:
#  1: 0 AC 1 6C 2 7C 3 8C 4 9C 5 TC -> 0 (first trick)
#  2: 0 JC 1 KC 2 QC 3 6S 4 7S 5 8S -> 1
#  3: 1 9S 2 AS 3 TS 4 JS 5 QS 0 KS -> 2
#  4: 2 6H 3 AH 4 7H 5 8H 0 9H 1 TH -> 3
#  5: 3 JH 4 KH 5 QH 0 6D 1 7D 2 8D -> 4
#  6: 4 9D 5 AD 0 TD 1 JD 2 QD 3 KD -> 5 (last trick)
SIX_HANDS = [
    split("AC JC KS 9H 6D TD"),
    split("6C KC 9S TH 7D JD"),
    split("7C QC AS 6H 8D QD"),
    split("8C 6S TS AH JH KD"),
    split("9C 7S JS 7H KH 9D"),
    split("TC 8S QS 8H QH AD"),
]
SIX_MOVES = split(
    "AC 6C 7C 8C 9C TC JC KC QC 6S 7S 8S 9S AS TS JS QS KS "
    "6H AH 7H 8H 9H TH JH KH QH 6D 7D 8D 9D AD TD JD QD KD"
)


def six_player_deal(contract: str, rules: HouseRules = DEFAULT_RULES) -> Deal:
    return play_all(Deal(6, contract, 5, SIX_HANDS, rules), SIX_MOVES)


def test_six_players_the_first_and_last_tricks_cost_two() -> None:
    deal = six_player_deal("no_tricks")
    assert [t.winner for t in deal.tricks] == [0, 1, 2, 3, 4, 5]
    assert deal.penalties == (2, 1, 1, 1, 1, 2)


def test_six_players_hearts_and_jacks() -> None:
    assert six_player_deal("no_hearts").penalties == (0, 0, 0, 12, 6, 0)
    assert six_player_deal("no_hearts", NO_DOUBLING).penalties == (0, 0, 0, 6, 3, 0)
    assert six_player_deal("no_jacks").penalties == (0, 4, 4, 0, 4, 4)


def test_six_players_king_of_hearts_ends_after_trick_five() -> None:
    deal = Deal(6, "no_king_of_hearts", 5, SIX_HANDS)
    play_all(deal, SIX_MOVES[:30])
    assert deal.over and deal.penalties == (0, 0, 0, 0, 8, 0)


# --------------------------------------------------------------------------------------------
# Hundred, 4 players, dealer 3 (seat 0 starts):
#   AC 11, TC 21, KC 25 (exactly 25: nothing), JC 27 (seat 3 crosses 25: 1)
#   TS 37, TH 47, QC 50 (exactly 50: nothing), QS 53 (seat 3 crosses 50: 2)
#   AS 64, AH 75, AD 86, TD 96, KS 100 (exactly 100: nothing), JS 102 (seat 1: 5, the end)
HUNDRED_HANDS = [
    split("AC TS AS KS 7C 8C 9C 7S"),
    split("TC TH AH JS 8S 9S 7H 8H"),
    split("KC QC AD 9H JH QH KH 7D"),
    split("JC QS TD 8D 9D JD QD KD"),
]
HUNDRED_MOVES = split("AC TC KC JC TS TH QC QS AS AH AD TD KS JS")


def test_hundred_thresholds_are_strictly_above_and_the_deal_ends_above_100() -> None:
    deal = Deal(4, "hundred", 3, HUNDRED_HANDS)
    running = []
    for move in HUNDRED_MOVES:
        assert not deal.over
        deal.play(move)
        running.append((deal.hundred_total, deal.scores_so_far()))
    assert running[2] == (25, (0, 0, 0, 0))
    assert running[3] == (27, (0, 0, 0, 1))
    assert running[6] == (50, (0, 0, 0, 1))
    assert running[7] == (53, (0, 0, 0, 3))
    assert running[12] == (100, (0, 0, 0, 3))
    assert deal.over and deal.hundred_total == 102
    assert deal.penalties == (0, 5, 0, 3)
    assert sum(len(deal.hand(s)) for s in range(4)) == 32 - len(HUNDRED_MOVES)  # thrown in
    assert deal.legal_moves() == []


def test_hundred_twenty_six_scores() -> None:
    deal = Deal(4, "hundred", 3, HUNDRED_HANDS)
    play_all(deal, split("AC TH KC"))  # 11 + 10 + 4 = 25
    assert deal.scores_so_far() == (0, 0, 0, 0)
    deal = Deal(4, "hundred", 3, HUNDRED_HANDS)
    play_all(deal, split("AC AH KC"))  # 11 + 11 + 4 = 26
    assert deal.hundred_total == 26
    assert deal.scores_so_far() == (0, 0, 1, 0)


def test_hundred_any_card_may_be_laid_and_the_zero_cards_count_nothing() -> None:
    deal = Deal(4, "hundred", 3, HUNDRED_HANDS)
    assert deal.legal_moves() == sorted(Card.from_code(c) for c in HUNDRED_HANDS[0])
    play_all(deal, split("7C 8S 9H 8D"))
    assert deal.hundred_total == 0
    with pytest.raises(IllegalMove):
        deal.play(PASS)


# --------------------------------------------------------------------------------------------
# Layout, 4 players, dealer 3 (seat 0 starts). Seat 0 must start with JC; seat 1 holds TC and
# JH; seat 2 holds neither Jacks nor 9C/QC; seat 3 holds 9C, QC and two Jacks.
LAYOUT_HANDS = [
    split("JC 7S 8S 9S 7H 8H 9H 7D"),
    split("TC JH 8D 9D TD QD KD AD"),
    split("AS KS QS AH KH QH 8C 7C"),
    split("JS JD QC KC AC 9C TS TH"),
]


def codes(moves: list) -> list[str]:
    return [m.code for m in moves]


def test_layout_extend_first_refuses_a_jack_while_a_card_extends() -> None:
    deal = Deal(4, "rosbiratschka", 3, LAYOUT_HANDS)
    assert codes(deal.legal_moves()) == ["JC"]
    deal.play("JC")
    assert codes(deal.legal_moves()) == ["TC"]
    before = deal.view_for(1).to_dict()
    with pytest.raises(IllegalMove, match="extend"):
        deal.play("JH")
    assert deal.view_for(1).to_dict() == before
    deal.play("TC")
    assert deal.rows[0] == Row(Card.from_code("TC"), Card.from_code("JC"))


def test_layout_free_allows_a_jack_instead_of_extending() -> None:
    deal = Deal(4, "rosbiratschka", 3, LAYOUT_HANDS, FREE_LAYOUT)
    deal.play("JC")
    assert codes(deal.legal_moves()) == ["TC", "JH"]
    deal.play("JH")
    assert deal.rows[2] == Row(Card.from_code("JH"), Card.from_code("JH"))
    # passing is still refused while a card can be laid
    with pytest.raises(IllegalMove):
        deal.play(PASS)
    assert codes(deal.legal_moves()) == ["QH"]


def test_layout_forced_pass_and_its_refusals() -> None:
    deal = Deal(4, "rosbiratschka", 3, LAYOUT_HANDS)
    play_all(deal, ["JC", "TC"])
    assert deal.turn == 2
    assert deal.legal_moves() == [PASS]
    with pytest.raises(IllegalMove, match="neither extends"):
        deal.play("8C")
    deal.play("pass")
    assert deal.turn == 3
    assert codes(deal.legal_moves()) == ["9C", "QC"]
    with pytest.raises(IllegalMove, match="cannot pass"):
        deal.play(PASS)
    assert codes(Deal(4, "rosbiratschka", 3, LAYOUT_HANDS, FREE_LAYOUT).legal_moves()) == ["JC"]


# Layout, 3 players, dealer 2. Seat 0 holds all Clubs and the Jacks of Hearts and Bells, so it
# empties first (move 21) while the others still hold cards; afterwards turns skip it.
SKIP_HANDS = [
    split("JC QC KC AC TC 9C JH JD"),
    split("JS TS 9S QS TH 9H QH KH"),
    split("KS AS AH TD 9D QD KD AD"),
]
SKIP_MOVES = split(
    "JC JS pass QC TS pass KC 9S pass AC QS KS TC pass AS 9C pass pass JH TH pass JD 9H TD QH 9D KH"
)


def test_layout_skips_empty_hands_and_ends_when_one_player_holds_cards() -> None:
    deal = Deal(3, "rosbiratschka", 2, SKIP_HANDS)
    seats = []
    for move in SKIP_MOVES:
        seats.append(deal.turn)
        deal.play(move)
    assert seats[:21] == [0, 1, 2] * 7
    assert seats[21:] == [0, 1, 2, 1, 2, 1]  # seat 0 empty after move 21: 2 -> 1
    assert deal.over
    assert [len(deal.hand(s)) for s in range(3)] == [0, 0, 4]
    assert deal.penalties == (0, 0, 8)
    assert deal.rows[0] == Row(Card.from_code("9C"), Card.from_code("AC"))  # 3 players: to 9
    assert deal.rows[1] == Row(Card.from_code("9S"), Card.from_code("AS"))


def test_layout_deal_ends_at_once_with_the_last_card_of_the_second_to_last_holder() -> None:
    deal = Deal(3, "rosbiratschka", 2, SKIP_HANDS)
    play_all(deal, SKIP_MOVES)
    with pytest.raises(IllegalMove, match="over"):
        deal.play("AD")


EXPECTED_ROW_ENDS = {
    3: {"C": "9", "S": "9", "H": "9", "D": "9"},
    4: {"C": "7", "S": "7", "H": "7", "D": "7"},
    5: {"C": "6", "S": "6", "H": "6", "D": "7"},
    6: {"C": "6", "S": "6", "H": "6", "D": "6"},
}


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_layout_row_ends_follow_the_pack(players: int) -> None:
    ends = EXPECTED_ROW_ENDS[players]
    assert {s: "6789TJQKA"[lowest_rank_in_pack(players, i)] for i, s in enumerate("CSHD")} == ends
    # Play whole deals: every row's low end is never below the end rank, and the end card is
    # reached (so it is layable) in some deal for every suit.
    lowest_seen = {s: "J" for s in "CSHD"}
    rng = random.Random(players)
    for _ in range(60):
        deal = Deal.from_masks(
            players,
            Contract.ROSBIRATSCHKA,
            0,
            deal_masks(players, rng, 0),
        )
        play_out_randomly(deal, rng)
        for suit, row in zip("CSHD", deal.rows, strict=True):
            if row is not None:
                low = row.low.rank_code
                assert "6789TJQKA".index(low) >= "6789TJQKA".index(ends[suit])
                if "6789TJQKA".index(low) < "6789TJQKA".index(lowest_seen[suit]):
                    lowest_seen[suit] = low
    assert lowest_seen == ends


def test_layout_five_players_bells_row_ends_at_seven() -> None:
    # Seat 0 holds JD TD 9D 8D 7D: after 7D the Bells row is complete downwards (no 6D).
    hands = [
        split("JD TD 9D 8D 7D 6C 6S"),
        split("QD KD AD 6H 7H 8H 9H"),
        split("7C 8C 9C TC JC QC KC"),
        split("AC 7S 8S 9S TS JS QS"),
        split("KS AS TH JH QH KH AH"),
    ]
    deal = Deal(5, "rosbiratschka", 4, hands)
    play_all(deal, ["JD", "QD", "JC", "JS", "JH"])
    for card in ["TD", "9D", "8D", "7D"]:
        while deal.turn != 0:
            deal.play(deal.legal_moves()[0])
        assert Card.from_code(card) in deal.legal_moves()
        deal.play(card)
    assert deal.rows[3].low is Card.from_code("7D")
    assert all(m.code != "6D" for m in deal.legal_moves())


@pytest.mark.parametrize("contract", TRICK_CONTRACTS)
def test_pass_is_refused_in_trick_contracts(contract: str) -> None:
    deal = Deal(3, contract, 2, THREE_HANDS)
    with pytest.raises(IllegalMove, match="pass"):
        deal.play(PASS)
    assert deal.move_count == 0


# --------------------------------------------------------------------------------------------
# Why a deal counts as it does: the engine names the doubling or the slam and its seats, so the
# table can say it in words (issue 29: "a deal result does not say the deal was doubled").


def test_a_doubled_deal_names_the_doubling_and_who_took_nothing() -> None:
    deal = three_player_deal("no_hearts")
    assert deal.penalties == (8, 8, 0)
    assert deal.settlement == ("doubled", [2])
    for seed in range(10):
        doubled = play_out_randomly(Deal(4, "no_tricks", 3, CLUB_SPADE_HANDS), random.Random(seed))
        assert doubled.settlement == ("doubled", [2, 3])


def test_a_slam_names_the_seat_that_took_everything() -> None:
    for contract in ("no_tricks", "no_hearts", "no_jacks"):
        for rules in (DEFAULT_RULES, NO_DOUBLING):
            deal = play_out_randomly(Deal(4, contract, 3, SUIT_HANDS, rules), random.Random(0))
            assert deal.settlement == ("slam", [0])


def test_plain_costs_unfinished_deals_and_undoubled_contracts_have_no_settlement() -> None:
    assert three_player_deal("no_tricks").settlement is None  # everyone took a trick
    assert three_player_deal("no_jacks").settlement is None  # everyone took a Jack
    assert three_player_deal("no_hearts", NO_DOUBLING).settlement is None
    assert Deal(3, "no_hearts", 2, THREE_HANDS).settlement is None  # not played yet
    king = play_out_randomly(Deal(4, "no_king_of_hearts", 3, SUIT_HANDS), random.Random(0))
    assert king.over and king.settlement is None
