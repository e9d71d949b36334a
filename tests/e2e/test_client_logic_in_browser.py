"""The browser's state machine against the Python original, run in Chromium on random deals.

``applyEvent`` in static/js/table.js must give the same state as games/live/state.py
``apply_event`` after every frame, and the deal it builds must equal the snapshot's deal view
(the engine's ``view_for(seat).to_dict()`` plus the facts of games/live/facts.py). Neither
derives a rule: both copy the facts the frames carry. (The replay page draws the server's
steps: tests/e2e/test_replay_in_browser.py.)

The scripts are served from ``static/`` through Playwright's request routing: no server.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games.engine import CONTRACT_ORDER, HouseRules, random_deal
from games.live.facts import deal_started_facts, deal_view, move_facts
from games.live.state import OutdatedEvent, apply_event

pytestmark = pytest.mark.browser

STATIC = Path(__file__).resolve().parents[2] / "static"
ORIGIN = "http://rosbi.test"


@pytest.fixture(scope="module")
def page(chromium):
    """A blank page that can import the game's ES modules from /static/js/ (shared by this
    module's tests: they only call pure functions, so nothing carries over between them)."""
    context = chromium.new_context()
    page = context.new_page()

    def serve(route):
        path = route.request.url.removeprefix(ORIGIN)
        if path.startswith("/static/"):
            file = STATIC / path.removeprefix("/static/")
            route.fulfill(path=str(file), content_type="text/javascript")
        else:
            route.fulfill(body="<!DOCTYPE html><title>logic</title>", content_type="text/html")

    page.route(f"{ORIGIN}/**", serve)
    page.goto(f"{ORIGIN}/")
    yield page
    context.close()


def seats_for(players: int) -> list[dict[str, Any]]:
    return [
        {"seat": s, "name": f"p{s}", "user_id": s + 1, "bot_level": None, "away": False}
        for s in range(players)
    ]


def frames_for_partie(players: int, viewer: int | None, rules: HouseRules, seed: int):
    """A snapshot before the start and every event frame of a Partie of random deals, as the
    viewer (None: a spectator) receives them, plus the engine's final deal view."""
    rng = random.Random(seed)
    snapshot = {
        "version": 0,
        "you": {
            "user_id": None if viewer is None else viewer + 1,
            "seat": viewer,
            "role": "spectator" if viewer is None else "player",
        },
        "table": {
            "id": 1,
            "name": "t",
            "size": players,
            "status": "open",
            "rules": rules.to_dict(),
            "rated": False,
            "public": True,
            "turn_seconds": 30,
            "seats": seats_for(players),
        },
        "partie": None,
        "deal": None,
        "clock": None,
    }
    events: list[dict[str, Any]] = []
    first_dealer = rng.randrange(players)
    events.append(
        {"kind": "partie_started", "first_dealer": first_dealer, "seats": seats_for(players)}
    )
    totals = [0] * players
    sheet = []
    deal = None
    for number, contract in enumerate(CONTRACT_ORDER):
        dealer = (first_dealer + number) % players
        deal = random_deal(players, contract, rng, dealer=dealer, rules=rules)
        view = deal.view_for(viewer).to_dict()
        events.append(
            {
                "kind": "deal_started",
                "deal_number": number,
                "contract": contract.value,
                "dealer": dealer,
                "turn": deal.turn,
                "hand": view["hand"],
                "hand_sizes": view["hand_sizes"],
                "legal_moves": view["legal_moves"],
                **deal_started_facts(deal),
            }
        )
        events.append(
            {
                "kind": "clock",
                "seat": deal.turn,
                "deadline": "2026-01-01T00:00:00.000Z",
                "seconds": 30,
            }
        )
        while not deal.over:
            seat = deal.turn
            tricks_before = len(deal.tricks)
            move = rng.choice(deal.legal_moves())
            deal.play(move)
            after = deal.view_for(viewer).to_dict()
            tricks = deal.tricks
            events.append(
                {
                    "kind": "move",
                    "seat": seat,
                    "move": move.code,
                    "by_bot": False,
                    "next_turn": None if deal.over else deal.turn,
                    "trick": (
                        {
                            "leader": tricks[-1].leader,
                            "cards": [c.code for c in tricks[-1].cards],
                            "winner": tricks[-1].winner,
                        }
                        if len(tricks) > tricks_before
                        else None
                    ),
                    "hundred_total": deal.hundred_total,
                    "scores_so_far": list(deal.scores_so_far()),
                    "legal_moves": after["legal_moves"],
                    "deal_over": deal.over,
                    "penalties": None if deal.penalties is None else list(deal.penalties),
                    **move_facts(deal),
                }
            )
            if number % 2 == 1:
                # The protocol's current form: the clock after the move rides in the move
                # (null once the deal is over); even deals keep the older separate clock events.
                events[-1]["clock"] = (
                    None
                    if deal.over
                    else {
                        "seat": deal.turn,
                        "deadline": f"2026-01-01T00:{seat:02d}:00.000Z",
                        "seconds": 30,
                    }
                )
        penalties = list(deal.penalties)
        sheet.append(penalties)
        totals = [t + p for t, p in zip(totals, penalties, strict=True)]
        events.append({"kind": "clock", "seat": None, "deadline": None, "seconds": 30})
        events.append(
            {
                "kind": "deal_finished",
                "deal_number": number,
                "penalties": penalties,
                "totals": totals,
            }
        )
        if number == 2:
            events.append(
                {
                    "kind": "seat_changed",
                    "seat": 1,
                    "name": "Bot (random)",
                    "user_id": None,
                    "bot_level": "random",
                    "away": False,
                }
            )
    places = [1 + sum(1 for o in totals if o < t) for t in totals]
    events.append(
        {"kind": "partie_finished", "totals": totals, "places": places, "score_sheet": sheet}
    )
    frames = [{"type": "event", "version": v, "event": e} for v, e in enumerate(events, start=1)]
    return snapshot, frames, deal_view(deal, viewer)


@pytest.mark.parametrize(
    ("players", "viewer", "doubling", "layout"),
    [
        (3, 0, True, "extend_first"),
        (4, 2, True, "free"),
        (5, None, False, "extend_first"),
        (6, 5, True, "extend_first"),
    ],
)
def test_apply_event_matches_python_frame_by_frame(page, players, viewer, doubling, layout) -> None:
    rules = HouseRules(doubling=doubling, layout=layout)
    snapshot, frames, final_view = frames_for_partie(players, viewer, rules, seed=players * 7)
    python_states = [snapshot]
    for frame in frames:
        python_states.append(apply_event(python_states[-1], frame))
    js_states = page.evaluate(
        """async ([snapshot, frames]) => {
            const { applyEvent } = await import("/static/js/table.js");
            const states = [snapshot];
            for (const frame of frames) states.push(applyEvent(states[states.length - 1], frame));
            return JSON.stringify(states);
        }""",
        [snapshot, frames],
    )
    js_states = json.loads(js_states)
    assert len(js_states) == len(python_states)
    for index, (js, py) in enumerate(zip(js_states, python_states, strict=True)):
        assert js == json.loads(json.dumps(py)), f"states differ after frame {index}"
    assert js_states[-1]["deal"] == final_view
    assert js_states[-1]["table"]["status"] == "finished"


def test_chat_frames_leave_the_state_alone(page) -> None:
    snapshot, frames, _ = frames_for_partie(4, 0, HouseRules(), seed=1)
    chat = {
        "type": "event",
        "version": None,
        "event": {
            "kind": "chat",
            "channel": "players",
            "id": 1,
            "author": "a",
            "text": "hi",
            "at": "2026-01-01T00:00:00Z",
        },
    }
    same = page.evaluate(
        """async ([snapshot, chat]) => {
            const { applyEvent } = await import("/static/js/table.js");
            return applyEvent(snapshot, chat) === snapshot;
        }""",
        [snapshot, chat],
    )
    assert same is True
    assert apply_event(snapshot, chat) is snapshot


def test_an_outdated_event_throws_so_the_client_syncs(page) -> None:
    """A move stored before moves carried their layout row cannot be applied without the
    rules: both state machines refuse it (the page then sends ``sync``)."""
    snapshot, frames, _ = frames_for_partie(4, 0, HouseRules(), seed=2)
    moves = [k for k, f in enumerate(frames) if f["event"]["kind"] == "move"]
    state = snapshot
    for frame in frames[: moves[0]]:
        state = apply_event(state, frame)
    old = {**frames[moves[0]], "event": dict(frames[moves[0]]["event"])}
    del old["event"]["row"]
    with pytest.raises(OutdatedEvent):
        apply_event(state, old)
    thrown = page.evaluate(
        """async ([state, frame]) => {
            const { applyEvent, OutdatedEvent } = await import("/static/js/table.js");
            try { applyEvent(state, frame); } catch (error) { return error instanceof OutdatedEvent; }
            return false;
        }""",
        [state, old],
    )
    assert thrown is True


def social_frames(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The Partie's frames with the events around the game mixed in: invitations before the
    start, abort votes and a resignation early on, rematch votes at the end."""
    invited = [
        {"kind": "player_invited", "user_id": 9, "name": "Ida", "seat": 3},
        {"kind": "player_invited", "user_id": 8, "name": "Hans", "seat": None},
        {"kind": "invitation_declined", "user_id": 8, "name": "Hans"},
        {"kind": "player_invited", "user_id": 7, "name": "Gus", "seat": None},
        {"kind": "seat_changed", "seat": 3, "name": "Ida", "user_id": 9, "bot_level": None,
         "away": False},
    ]  # fmt: skip
    events = [f["event"] for f in frames]
    first_move = next(k for k, e in enumerate(events) if e["kind"] == "move")
    early = [
        {"kind": "vote", "vote": "abort", "seat": 1, "name": "p1", "votes": [1]},
        {"kind": "vote", "vote": "abort", "seat": 2, "name": "p2", "votes": [1, 2]},
    ]
    resigned = [
        {"kind": "player_resigned", "seat": 2, "user_id": 3, "name": "p2"},
        {"kind": "seat_changed", "seat": 2, "name": "Bot (heuristic)", "user_id": None,
         "bot_level": "heuristic", "away": False},
    ]  # fmt: skip
    late = [
        {"kind": "vote", "vote": "rematch", "seat": 0, "name": "p0", "votes": [0]},
        {"kind": "rematch_declined", "seat": 1, "name": "p1"},
        {"kind": "vote", "vote": "rematch", "seat": 1, "name": "p1", "votes": [1]},
        {"kind": "rematch_started", "table_id": 77},
    ]
    mixed = invited + events[:first_move] + early + resigned + events[first_move:] + late
    return [{"type": "event", "version": v, "event": e} for v, e in enumerate(mixed, start=1)]


def test_the_events_around_the_game_match_python(page) -> None:
    snapshot, frames, _ = frames_for_partie(4, 0, HouseRules(), seed=5)
    social = social_frames(frames)
    aborted = [
        *social[:10],
        {"type": "event", "version": 11, "event": {"kind": "table_aborted", "by": None}},
    ]
    for sequence in (social, aborted):
        python_states = [snapshot]
        for frame in sequence:
            python_states.append(apply_event(python_states[-1], frame))
        js_states = json.loads(
            page.evaluate(
                """async ([snapshot, frames]) => {
                    const { applyEvent } = await import("/static/js/table.js");
                    const states = [snapshot];
                    for (const frame of frames) states.push(applyEvent(states.at(-1), frame));
                    return JSON.stringify(states);
                }""",
                [snapshot, sequence],
            )
        )
        for index, (js, py) in enumerate(zip(js_states, python_states, strict=True)):
            assert js == json.loads(json.dumps(py)), f"states differ after frame {index}"
    final = python_states[-1]
    assert final["table"]["status"] == "aborted" and final["deal"] is None
    assert final["votes"] == {"abort": [], "rematch": []}
    done = json.loads(json.dumps(apply_event(snapshot, social[0])))
    for frame in social[1:]:
        done = apply_event(done, frame)
    assert done["invitations"] == [] and done["partie"]["resigned"] == [2]
    assert done["votes"]["rematch"] == [1] and done["rematch_table_id"] == 77


def game_labels(language: str) -> dict[str, Any]:
    """The table page's labels (templates/games/partials/labels.html) in ``language``."""
    with translation.override(language):
        page = render_to_string("games/partials/labels.html")
    return json.loads(page.split('id="game-labels">', 1)[1].split("</script>", 1)[0])


@pytest.mark.parametrize(
    ("language", "settlement", "contract", "sentence"),
    [
        (
            "en",
            {"kind": "doubled", "seats": [1, 3]},
            "no_tricks",
            "Doubled: Bert and Dora took no trick, so every trick counts twice.",
        ),
        (
            "de",
            {"kind": "doubled", "seats": [2]},
            "no_hearts",
            "Verdoppelt, denn ohne Herz blieb: Carl. Jedes Herz zählt doppelt.",
        ),
        (
            "en",
            {"kind": "slam", "seats": [0]},
            "no_jacks",
            "Slam: Anna took all four Jacks and scores −8, everyone else 0.",
        ),
        (
            "de",
            {"kind": "slam", "seats": [0]},
            "no_tricks",
            "Durchmarsch: Anna hat alle Stiche genommen und bekommt −8, alle anderen 0.",
        ),
        ("en", None, "no_tricks", ""),
    ],
)
def test_the_deal_result_says_why_it_counts_double(
    page, language, settlement, contract, sentence
) -> None:
    """Issue 29: a doubled deal's result (1/2/5 tricks became 2/4/10) said nothing of why. The
    table and the replay word the engine's ``settlement`` with ``settlementText``."""
    text = page.evaluate(
        """async ([language, labels, settlement, contract]) => {
            document.documentElement.lang = language;
            const { settlementText } = await import("/static/js/table.js");
            const format = (template, values) =>
                template.replace(/\\{(\\w+)\\}/g, (m, key) => (key in values ? values[key] : m));
            const t = (key, values) => format(labels[key] ?? key, values);
            return settlementText(settlement, contract, ["Anna", "Bert", "Carl", "Dora"], t);
        }""",
        [language, game_labels(language), settlement, contract],
    )
    assert text == sentence
