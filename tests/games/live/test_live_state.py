"""The pure per-viewer filter and the client state machine, without a database."""

from __future__ import annotations

import random

import pytest

from games.engine import CONTRACT_ORDER, Contract, Deal, HouseRules, deal_hands, random_deal
from games.engine.layout_facts import row_ranks
from games.live.facts import deal_started_facts, deal_view, move_facts
from games.live.state import (
    OutdatedEvent,
    apply_event,
    event_for_viewer,
    frame_for_viewer,
    is_outdated,
    viewer_key,
)

HANDS = [[c.code for c in hand] for hand in deal_hands(4, random.Random(3), dealer=0)]


def deal_started() -> dict:
    deal = Deal(4, "no_tricks", 0, HANDS)
    return {
        "kind": "deal_started",
        "deal_number": 0,
        "contract": "no_tricks",
        "dealer": 0,
        "turn": deal.turn,
        "hands": HANDS,
        "hand_sizes": [8, 8, 8, 8],
        "legal_moves": [m.code for m in deal.legal_moves()],
        "family": "tricks",
        "hundred_calls": None,
        "hundred_pack_total": None,
        "row_ranks": None,
    }


@pytest.mark.parametrize("seat", [None, 0, 1, 2, 3])
def test_a_deal_start_shows_each_viewer_only_its_own_hand(seat):
    event = deal_started()
    seen = event_for_viewer(event, seat)
    assert "hands" not in seen
    assert seen["hand"] == ([] if seat is None else HANDS[seat])
    assert seen["legal_moves"] == (event["legal_moves"] if seat == 1 else [])
    assert event["hands"] == HANDS, "filtering never changes the stored event"


def test_legal_moves_after_a_move_go_only_to_the_next_seat():
    event = {
        "kind": "move",
        "deal_number": 0,
        "seat": 1,
        "move": HANDS[1][0],
        "by_bot": False,
        "next_turn": 2,
        "trick": None,
        "hundred_total": 0,
        "scores_so_far": [0, 0, 0, 0],
        "legal_moves": HANDS[2][:2],
        "deal_over": False,
        "penalties": None,
        "row": None,
    }
    assert event_for_viewer(event, 2)["legal_moves"] == HANDS[2][:2]
    for seat in (None, 0, 1, 3):
        assert event_for_viewer(event, seat)["legal_moves"] == []
    assert frame_for_viewer({"version": 9, "event": event}, None)["version"] == 9


def test_unknown_kinds_are_refused_and_chat_leaves_the_state_alone():
    with pytest.raises(ValueError):
        event_for_viewer({"kind": "teleport"}, 0)
    snapshot = {"version": 3, "table": {}, "you": {"seat": 0}, "partie": None, "deal": None}
    chat = {"type": "event", "version": None, "event": {"kind": "chat", "text": "hi"}}
    assert apply_event(snapshot, chat) is snapshot
    with pytest.raises(ValueError):
        apply_event(snapshot, {"type": "event", "version": 4, "event": {"kind": "teleport"}})


def test_applying_a_frame_does_not_change_the_snapshot_it_was_given():
    snapshot = {
        "version": 2,
        "you": {"user_id": 1, "seat": 0, "role": "player"},
        "table": {"size": 4, "rules": {"doubling": True, "layout": "free"}, "status": "playing"},
        "partie": {
            "first_dealer": 0,
            "deal_number": None,
            "score_sheet": [],
            "totals": [0] * 4,
            "places": None,
        },
        "deal": None,
        "clock": None,
    }
    frame = frame_for_viewer({"version": 3, "event": deal_started()}, 0)
    after = apply_event(snapshot, frame)
    assert snapshot["deal"] is None and snapshot["version"] == 2
    assert after["version"] == 3 and after["deal"]["hand"] == HANDS[0]
    assert after["deal"]["rules"] == {"doubling": True, "layout": "free"}
    assert after["partie"]["deal_number"] == 0


def a_move(clock: dict | None | str = "absent") -> dict:
    event = {
        "kind": "move",
        "deal_number": 0,
        "seat": 1,
        "move": HANDS[1][0],
        "by_bot": False,
        "next_turn": 2,
        "trick": None,
        "hundred_total": 0,
        "scores_so_far": [0, 0, 0, 0],
        "legal_moves": HANDS[2][:2],
        "deal_over": False,
        "penalties": None,
        "row": None,
    }
    if clock != "absent":
        event["clock"] = clock
    return event


def started_snapshot(seat: int | None, clock: dict | None) -> dict:
    snapshot = {
        "version": 2,
        "you": {"user_id": 1, "seat": seat, "role": "player"},
        "table": {"size": 4, "rules": {"doubling": True, "layout": "free"}, "status": "playing"},
        "partie": {
            "first_dealer": 0,
            "deal_number": None,
            "score_sheet": [],
            "totals": [0] * 4,
            "places": None,
        },
        "deal": None,
        "clock": clock,
    }
    return apply_event(snapshot, frame_for_viewer({"version": 3, "event": deal_started()}, seat))


def test_a_move_carries_the_next_clock_and_older_moves_leave_the_clock_alone():
    running = {"seat": 1, "deadline": "2026-11-30T10:00:00.000Z", "seconds": 30}
    nxt = {"seat": 2, "deadline": "2026-11-30T10:00:30.000Z", "seconds": 30}
    state = started_snapshot(0, running)
    after = apply_event(state, frame_for_viewer({"version": 4, "event": a_move(nxt)}, 0))
    assert after["clock"] == nxt and after["version"] == 4
    stopped = apply_event(state, frame_for_viewer({"version": 4, "event": a_move(None)}, 0))
    assert stopped["clock"] is None
    # A move stored before the field existed was followed by its own clock event.
    old = apply_event(state, frame_for_viewer({"version": 4, "event": a_move()}, 0))
    assert old["clock"] == running


@pytest.mark.parametrize(
    "event",
    [deal_started(), a_move({"seat": 2, "deadline": "2026-11-30T10:00:30.000Z", "seconds": 30})],
    ids=["deal_started", "move"],
)
def test_viewers_with_equal_keys_get_equal_frames_and_others_differ(event):
    viewers = [None, 0, 1, 2, 3]
    frames = {seat: frame_for_viewer({"version": 5, "event": event}, seat) for seat in viewers}
    for a in viewers:
        for b in viewers:
            same_key = viewer_key(event, a) == viewer_key(event, b)
            assert same_key == (frames[a] == frames[b]), (a, b)


def test_public_events_have_one_frame_for_everyone():
    event = {"kind": "deal_finished", "deal_number": 0, "penalties": [1, 2, 3, 2], "totals": [1]}
    assert {viewer_key(event, seat) for seat in (None, 0, 1, 2, 3)} == {None}


def started_event(deal: Deal, number: int) -> dict:
    """The stored ``deal_started`` event of ``deal``, as games/deals.py ``start_deal``."""
    return {
        "kind": "deal_started",
        "deal_number": number,
        "contract": deal.contract.value,
        "dealer": deal.dealer,
        "turn": deal.turn,
        "hands": [[c.code for c in deal.hand(s)] for s in range(deal.players)],
        "hand_sizes": [len(deal.hand(s)) for s in range(deal.players)],
        "legal_moves": [m.code for m in deal.legal_moves()],
        **deal_started_facts(deal),
    }


def move_event(deal: Deal, number: int, seat: int, tricks_before: int) -> dict:
    """The stored ``move`` event of the move ``deal`` just played, as ``_record_move``."""
    trick = None
    if len(deal.tricks) > tricks_before:
        done = deal.tricks[-1]
        trick = {
            "leader": done.leader,
            "cards": [c.code for c in done.cards],
            "winner": done.winner,
        }
    return {
        "kind": "move",
        "deal_number": number,
        "seat": seat,
        "move": deal.moves[-1].code,
        "by_bot": False,
        "next_turn": None if deal.over else deal.turn,
        "trick": trick,
        "hundred_total": deal.hundred_total,
        "scores_so_far": list(deal.scores_so_far()),
        "legal_moves": [m.code for m in deal.legal_moves()],
        "deal_over": deal.over,
        "penalties": None if deal.penalties is None else list(deal.penalties),
        "clock": None,
        **move_facts(deal),
    }


@pytest.mark.parametrize(
    ("players", "layout"), [(3, "extend_first"), (4, "free"), (5, "extend_first"), (6, "free")]
)
@pytest.mark.parametrize("seat", [None, 0, 2])
def test_frames_applied_to_a_snapshot_equal_a_fresh_view_after_every_move(players, layout, seat):
    """Every deal of a Partie, frame by frame: the state built from the frames equals the deal
    view a fresh snapshot holds (``games.live.facts.deal_view``), layout rows and row ranks
    included, for players and spectators."""
    rng = random.Random(players * 31 + (seat or 0))
    rules = HouseRules(layout=layout)
    state = {
        "version": 1,
        "you": {"user_id": 1, "seat": seat, "role": "player" if seat is not None else "spectator"},
        "table": {"size": players, "rules": rules.to_dict(), "status": "playing"},
        "partie": {
            "first_dealer": 0,
            "deal_number": None,
            "score_sheet": [],
            "totals": [0] * players,
            "places": None,
        },
        "deal": None,
        "clock": None,
    }
    for number, contract in enumerate(CONTRACT_ORDER):
        deal = random_deal(players, contract, rng, dealer=number % players, rules=rules)
        version = state["version"] + 1
        state = apply_event(
            state,
            frame_for_viewer({"version": version, "event": started_event(deal, number)}, seat),
        )
        assert state["deal"] == deal_view(deal, seat)
        while not deal.over:
            mover = deal.turn
            tricks_before = len(deal.tricks)
            deal.play(rng.choice(deal.legal_moves()))
            event = move_event(deal, number, mover, tricks_before)
            message = {"version": state["version"] + 1, "event": event}
            state = apply_event(state, frame_for_viewer(message, seat))
            assert state["deal"] == deal_view(deal, seat), (contract, deal.history[-1])
        if contract is Contract.ROSBIRATSCHKA:
            assert state["deal"]["row_ranks"] == row_ranks(players)
            assert any(state["deal"]["rows"].values())
        else:
            assert state["deal"]["row_ranks"] is None


def test_a_layout_move_carries_the_row_it_changed():
    deal = Deal(4, "rosbiratschka", 3, HANDS)
    assert deal_started_facts(deal) == {
        "family": "layout",
        "hundred_calls": None,
        "hundred_pack_total": None,
        "row_ranks": row_ranks(4),
    }
    jacks = [m for m in deal.legal_moves() if m.code.startswith("J")]
    deal.play(jacks[0])
    suit = jacks[0].code[1]
    assert move_facts(deal) == {"row": {"suit": suit, "low": f"J{suit}", "high": f"J{suit}"}}
    while not deal.over:
        move = deal.legal_moves()[0]
        deal.play(move)
        row = move_facts(deal)["row"]
        if move.code == "pass":
            assert row is None
        else:
            laid = deal.rows["CSHD".index(move.code[1])]
            assert row == {"suit": move.code[1], "low": laid.low.code, "high": laid.high.code}
            assert move.code in (row["low"], row["high"])
    trick_deal = Deal(4, "no_tricks", 0, HANDS)
    trick_deal.play(trick_deal.legal_moves()[0])
    assert move_facts(trick_deal) == {"row": None}
    assert deal_started_facts(trick_deal) == {
        "family": "tricks",
        "hundred_calls": None,
        "hundred_pack_total": None,
        "row_ranks": None,
    }


def test_the_hundred_deal_carries_its_calls_and_the_packs_total():
    for players in (3, 4, 5, 6):
        hundred = Deal(
            players,
            "hundred",
            0,
            [[c.code for c in h] for h in deal_hands(players, random.Random(players), dealer=0)],
        )
        facts = deal_started_facts(hundred)
        assert facts["family"] == "hundred"
        assert facts["hundred_calls"] == [25, 50, 100]
        assert (
            facts["hundred_pack_total"]
            == 120
            == sum(
                card.hundred_value
                for hand in (hundred.hand(s) for s in range(players))
                for card in hand
            )
        )


def test_row_ranks_follow_the_pack():
    assert row_ranks(3)["H"] == list("9TJQKA")
    assert row_ranks(4)["C"] == list("789TJQKA")
    assert row_ranks(5)["S"] == list("6789TJQKA")
    assert row_ranks(5)["D"] == list("789TJQKA"), "no Six of Bells with five players"
    assert row_ranks(6)["D"] == list("6789TJQKA")
    assert list(row_ranks(6)) == list("CSHD")


def test_events_stored_before_the_facts_ask_for_a_snapshot():
    """A move or deal start without its fact field is outdated: applying it raises (the client
    then syncs), and its filtered frames stay recognisably outdated."""
    old_start = {k: v for k, v in deal_started().items() if k != "row_ranks"}
    old_move = {k: v for k, v in a_move().items() if k != "row"}
    assert is_outdated(old_start) and is_outdated(old_move)
    assert not is_outdated(deal_started()) and not is_outdated(a_move())
    assert not is_outdated({"kind": "clock", "seat": None, "deadline": None, "seconds": 30})
    for seat in (None, 0, 1):
        assert is_outdated(event_for_viewer(old_start, seat))
        assert is_outdated(event_for_viewer(old_move, seat))
    state = started_snapshot(0, None)
    with pytest.raises(OutdatedEvent):
        apply_event(state, frame_for_viewer({"version": 4, "event": old_move}, 0))
