"""The pure per-viewer filter and the client state machine, without a database."""

from __future__ import annotations

import random

import pytest

from games.engine import Deal, deal_hands
from games.live.state import apply_event, event_for_viewer, frame_for_viewer, viewer_key

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
