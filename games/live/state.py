"""Per-viewer filtering of stored events and the client's state machine, as pure functions.

The channel layer carries each stored event in full (the dealt hands included); the consumer
passes it through ``event_for_viewer`` for every connection, so no frame ever holds a card
that is still in another seat's hand. ``apply_event`` is exactly what the browser client
(``static/js/table.js``) does with a frame; the tests check that applying every frame to the
first snapshot equals a fresh snapshot, which keeps the server, the client and the protocol
document in step.
"""

from __future__ import annotations

import copy
from typing import Any

SUIT_CODES = "CSHD"
PASS_CODE = "pass"

# Event kinds whose fields are the same for every viewer.
PUBLIC_KINDS = frozenset(
    {
        "partie_started",
        "deal_finished",
        "partie_finished",
        "seat_changed",
        "clock",
        "owner_changed",
        "table_closed",
        "player_resigned",
        "vote",
        "table_aborted",
        "rematch_declined",
        "rematch_started",
        "player_invited",
        "invitation_declined",
    }
)

# Snapshot keys that are not table state: the recent chat and who is muted. They carry no
# version; a client keeps them beside its state and updates them from versionless frames.
BESIDE_STATE = ("chat", "mutes")

# The fields each kind gained when the server began to send the rules' facts
# (games/live/facts.py); events stored before lack them.
DEAL_FACTS = ("family", "hundred_calls", "hundred_pack_total", "row_ranks")
FACT_FIELDS = {"deal_started": DEAL_FACTS, "move": ("row",)}


class OutdatedEvent(ValueError):
    """An event stored before its kind carried the facts a client copies (``FACT_FIELDS``).

    A client cannot apply it without knowing the rules, so it asks for a ``sync``; the server
    answers a sync over such events with a fresh snapshot (``is_outdated``).
    """


def is_outdated(event: dict[str, Any]) -> bool:
    """True for a stored ``deal_started`` or ``move`` event that lacks its fact field."""
    return any(field not in event for field in FACT_FIELDS.get(event["kind"], ()))


def event_for_viewer(event: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The part of a stored event that ``seat`` (None: a spectator) may see.

    ``deal_started`` stores every hand; a viewer gets only its own (``[]`` for spectators).
    ``move`` and ``deal_started`` store the legal moves of the seat on turn, which reveal
    that seat's cards, so only that seat receives them.
    """
    kind = event["kind"]
    if kind in PUBLIC_KINDS:
        return dict(event)
    if kind == "deal_started":
        turn = event["turn"]
        return {
            "kind": kind,
            "deal_number": event["deal_number"],
            "contract": event["contract"],
            "dealer": event["dealer"],
            "turn": turn,
            "hand": list(event["hands"][seat]) if seat is not None else [],
            "hand_sizes": list(event["hand_sizes"]),
            "legal_moves": list(event["legal_moves"]) if seat is not None and seat == turn else [],
            **{key: copy.deepcopy(event[key]) for key in DEAL_FACTS if key in event},
        }
    if kind == "move":
        filtered = {key: value for key, value in event.items() if key != "legal_moves"}
        next_turn = event["next_turn"]
        on_turn = seat is not None and next_turn is not None and seat == next_turn
        filtered["legal_moves"] = list(event["legal_moves"]) if on_turn else []
        return filtered
    raise ValueError(f"unknown event kind {kind!r}")


def viewer_key(event: dict[str, Any], seat: int | None) -> Any:
    """Viewers with equal keys get equal ``event_for_viewer`` frames of ``event``.

    Lets a server encode each distinct frame of an event once instead of once per socket:
    public kinds look the same to all, a ``move`` differs only for the seat on turn (its legal
    moves), a ``deal_started`` per seat (its hand; spectators share the empty one).
    """
    kind = event["kind"]
    if kind in PUBLIC_KINDS:
        return None
    if kind == "move":
        return seat is not None and seat == event["next_turn"]
    return seat


def frame_for_viewer(message: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """A stored event message (``{"version", "event"}``) as the ``event`` frame for a viewer."""
    return {
        "type": "event",
        "version": message["version"],
        "event": event_for_viewer(message["event"], seat),
    }


def empty_rows() -> dict[str, Any]:
    return {suit: None for suit in SUIT_CODES}


def fresh_deal_view(
    *,
    players: int,
    rules: dict[str, Any],
    seat: int | None,
    contract: str,
    dealer: int,
    turn: int,
    hand: list[str],
    hand_sizes: list[int],
    legal_moves: list[str],
    facts: dict[str, Any],
) -> dict[str, Any]:
    """The viewer's deal view right after dealing: ``SeatView.to_dict()`` plus the contract's
    facts (``games.live.facts.deal_view``)."""
    return {
        "players": players,
        "contract": contract,
        "dealer": dealer,
        "rules": dict(rules),
        "seat": seat,
        "hand": list(hand),
        "turn": turn,
        "legal_moves": list(legal_moves),
        "hand_sizes": list(hand_sizes),
        "history": [],
        "current_trick": [],
        "tricks": [],
        "tricks_won": [0] * players,
        "scores_so_far": [0] * players,
        "hundred_total": 0,
        "rows": empty_rows(),
        "over": False,
        "penalties": None,
        **{key: copy.deepcopy(facts[key]) for key in DEAL_FACTS},
    }


def _apply_move(deal: dict[str, Any], event: dict[str, Any]) -> None:
    seat = event["seat"]
    move = event["move"]
    deal["history"].append([seat, move])
    if move != PASS_CODE:
        if deal["seat"] == seat:
            deal["hand"].remove(move)
        deal["hand_sizes"][seat] -= 1
        if deal["family"] == "tricks":
            deal["current_trick"].append([seat, move])
            trick = event.get("trick")
            if trick is not None:
                deal["tricks"].append(copy.deepcopy(trick))
                deal["tricks_won"][trick["winner"]] += 1
                deal["current_trick"] = []
    row = event["row"]
    if row is not None:  # the layout row the card changed, as the engine has it now
        deal["rows"][row["suit"]] = [row["low"], row["high"]]
    deal["turn"] = event["next_turn"]
    deal["legal_moves"] = list(event["legal_moves"])
    deal["hundred_total"] = event["hundred_total"]
    deal["scores_so_far"] = list(event["scores_so_far"])
    deal["over"] = event["deal_over"]
    deal["penalties"] = None if event["penalties"] is None else list(event["penalties"])


def no_votes() -> dict[str, list[int]]:
    return {"abort": [], "rematch": []}


def _without_invitation(state: dict[str, Any], user_id: Any) -> None:
    state["invitations"] = [i for i in state.get("invitations", []) if i["user_id"] != user_id]


def apply_event(snapshot: dict[str, Any], frame: dict[str, Any]) -> dict[str, Any]:
    """The snapshot after one ``event`` frame (a new dict; the input is left unchanged).

    Frames without a version (chat) do not change the table state. The caller checks the
    version order: a frame whose version is not ``snapshot["version"] + 1`` means a gap.
    Raises ``OutdatedEvent`` for an event stored before its kind carried its facts: the caller
    then asks for a sync, which the server answers with a snapshot.
    """
    if frame.get("version") is None:
        return snapshot
    if is_outdated(frame["event"]):
        raise OutdatedEvent(f"{frame['event']['kind']} event {frame['version']} lacks its facts")
    state = copy.deepcopy(snapshot)
    event = frame["event"]
    kind = event["kind"]
    table = state["table"]
    if kind == "partie_started":
        table["status"] = "playing"
        table["seats"] = copy.deepcopy(event["seats"])
        state["partie"] = {
            "first_dealer": event["first_dealer"],
            "deal_number": None,
            "score_sheet": [],
            "totals": [0] * table["size"],
            "places": None,
            "resigned": [],
        }
        state["invitations"] = []
    elif kind == "deal_started":
        state["partie"]["deal_number"] = event["deal_number"]
        state["deal"] = fresh_deal_view(
            players=table["size"],
            rules=table["rules"],
            seat=state["you"]["seat"],
            contract=event["contract"],
            dealer=event["dealer"],
            turn=event["turn"],
            hand=event["hand"],
            hand_sizes=event["hand_sizes"],
            legal_moves=event["legal_moves"],
            facts=event,
        )
    elif kind == "move":
        _apply_move(state["deal"], event)
        if "clock" in event:  # moves stored before the field existed had a clock event
            state["clock"] = copy.deepcopy(event["clock"])
    elif kind == "deal_finished":
        state["partie"]["score_sheet"].append(list(event["penalties"]))
        state["partie"]["totals"] = list(event["totals"])
    elif kind == "partie_finished":
        table["status"] = "finished"
        state["partie"]["totals"] = list(event["totals"])
        state["partie"]["places"] = list(event["places"])
        state["partie"]["score_sheet"] = copy.deepcopy(event["score_sheet"])
    elif kind == "seat_changed":
        seat_info = {key: event[key] for key in ("seat", "name", "user_id", "bot_level", "away")}
        table["seats"][event["seat"]] = seat_info
        if event["user_id"] is not None:  # an invited player took their seat
            _without_invitation(state, event["user_id"])
    elif kind == "owner_changed":
        table["owner_user_id"] = event["owner_user_id"]
    elif kind == "table_closed":
        table["status"] = "closed"
        state["invitations"] = []
    elif kind == "player_resigned":
        state["partie"]["resigned"] = sorted({*state["partie"]["resigned"], event["seat"]})
    elif kind == "vote":
        state.setdefault("votes", no_votes())[event["vote"]] = list(event["votes"])
    elif kind == "table_aborted":
        table["status"] = "aborted"
        state["deal"] = None
        state["clock"] = None
        state["votes"] = no_votes()
    elif kind == "rematch_declined":
        state.setdefault("votes", no_votes())["rematch"] = []
    elif kind == "rematch_started":
        state["rematch_table_id"] = event["table_id"]
    elif kind == "player_invited":
        _without_invitation(state, event["user_id"])
        state["invitations"].append(
            {"user_id": event["user_id"], "name": event["name"], "seat": event["seat"]}
        )
    elif kind == "invitation_declined":
        _without_invitation(state, event["user_id"])
    elif kind == "clock":
        if event["deadline"] is None:
            state["clock"] = None
        else:
            state["clock"] = {
                "seat": event["seat"],
                "deadline": event["deadline"],
                "seconds": event["seconds"],
            }
    else:
        raise ValueError(f"unknown event kind {kind!r}")
    state["version"] = frame["version"]
    return state


__all__ = [
    "BESIDE_STATE",
    "FACT_FIELDS",
    "OutdatedEvent",
    "PASS_CODE",
    "apply_event",
    "event_for_viewer",
    "frame_for_viewer",
    "fresh_deal_view",
    "is_outdated",
    "viewer_key",
]
