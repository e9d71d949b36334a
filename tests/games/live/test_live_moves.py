"""Moves over the websocket: once and only once, stale versions, refusals that change nothing."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.utils import translation

from games.live.messages import card_look, card_name
from games.models import TableEvent
from tests.games.factories import UserFactory
from tests.games.live.helpers import Viewer, fresh_snapshot, humans_table, sync_all, table_version

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


async def connected_table(players: int = 4):
    table, users = await database_sync_to_async(humans_table)(players)
    viewers = [Viewer(user, table.pk) for user in users]
    for viewer in viewers:
        await viewer.connect()
    turn = viewers[0].state["deal"]["turn"]
    return table, users, viewers, turn


def move_events(table_id: int) -> list[dict]:
    return [
        e.data
        for e in TableEvent.objects.filter(table_id=table_id, kind="move").order_by("version")
    ]


async def test_the_same_move_sent_twice_is_acknowledged_twice_and_stored_once():
    table, users, viewers, turn = await connected_table()
    mover = viewers[turn]
    version = mover.version
    card = mover.state["deal"]["legal_moves"][0]

    first = await mover.move(card, version)
    second = await mover.move(card, version)

    assert first["type"] == "ack" and second["type"] == "ack"
    assert first["version"] == second["version"] > version
    moves = await database_sync_to_async(move_events)(table.pk)
    assert [(m["seat"], m["move"]) for m in moves] == [(turn, card)]
    await sync_all(viewers, table.pk)
    assert mover.state == await fresh_snapshot(table.pk, users[turn])


async def test_out_of_turn_and_illegal_moves_are_refused_and_change_nothing():
    table, users, viewers, turn = await connected_table()
    other = viewers[(turn + 1) % 4]
    before = await table_version(table.pk)

    not_turn = await other.move(other.state["deal"]["hand"][0])
    assert not_turn["type"] == "error" and not_turn["code"] == "not_your_turn"

    mover = viewers[turn]
    foreign = other.state["deal"]["hand"][0]
    illegal = await mover.move(foreign)
    assert illegal["code"] == "illegal"
    # The card is named as the player's pack names it (the default German pack), not "JC".
    with translation.override("en"), card_look("german"):
        assert card_name(foreign) in illegal["message"]
    assert (await mover.move("ZZ"))["code"] == "illegal"
    assert (await mover.move("pass"))["code"] == "illegal"

    assert await table_version(table.pk) == before
    assert await database_sync_to_async(move_events)(table.pk) == []
    assert await mover.nothing_more()


async def test_not_following_suit_is_illegal_with_the_engines_reason():
    table, users, viewers, turn = await connected_table()
    leader = viewers[turn]
    led = leader.state["deal"]["legal_moves"][0]
    assert (await leader.move(led))["type"] == "ack"
    await sync_all(viewers, table.pk)
    follower = viewers[(turn + 1) % 4]
    hand = follower.state["deal"]["hand"]
    same_suit = [c for c in hand if c[1] == led[1]]
    off_suit = [c for c in hand if c[1] != led[1]]
    if not same_suit or not off_suit:
        pytest.fail("seed 3 was chosen so that the follower holds both kinds of cards")
    answer = await follower.move(off_suit[0])
    assert answer["code"] == "illegal"
    assert "must follow" in answer["message"]
    assert follower.state["deal"]["legal_moves"] == same_suit


async def test_a_stale_version_gets_an_error_and_a_fresh_snapshot():
    table, users, viewers, turn = await connected_table()
    mover = viewers[turn]
    old = mover.version
    assert (await mover.move(mover.state["deal"]["legal_moves"][0]))["type"] == "ack"
    await sync_all(viewers, table.pk)
    nxt = viewers[(turn + 1) % 4]
    snapshots = nxt.snapshots

    answer = await nxt.move(nxt.state["deal"]["legal_moves"][0], version=old)

    assert answer["code"] == "stale"
    frame = await nxt.receive()
    assert frame["type"] == "snapshot" and nxt.snapshots == snapshots + 1
    assert len(await database_sync_to_async(move_events)(table.pk)) == 1
    # With the fresh version the same move goes through.
    assert (await nxt.move(nxt.state["deal"]["legal_moves"][0]))["type"] == "ack"


async def test_spectators_cannot_move_and_malformed_frames_are_answered():
    table, users, viewers, turn = await connected_table()
    watcher = Viewer(await database_sync_to_async(UserFactory)(), table.pk)
    await watcher.connect()
    assert watcher.state["you"] == {"user_id": watcher.user.pk, "seat": None, "role": "spectator"}
    assert watcher.state["deal"]["hand"] == [] and watcher.state["deal"]["legal_moves"] == []

    assert (await watcher.move("7C"))["code"] == "not_seated"
    await watcher.send({"type": "move", "move": "7C"})
    assert (await watcher.reply())["code"] == "bad_request"
    await watcher.send({"type": "dance"})
    assert (await watcher.reply())["code"] == "bad_request"
    await watcher.communicator.send_to(text_data="{not json")
    assert (await watcher.reply())["code"] == "bad_request"
    await watcher.send({"type": "ping"})
    assert await watcher.reply() == {"type": "pong"}


async def test_moves_before_the_start_are_refused():
    table, users = await database_sync_to_async(humans_table)(3, seed=None)
    viewer = Viewer(users[0], table.pk)
    await viewer.connect()
    assert viewer.state["table"]["status"] == "open"
    answer = await viewer.move("AC")
    assert answer["code"] == "not_playing"


async def test_a_spectator_who_sits_down_gets_a_players_snapshot():
    from games import lobby

    table, users = await database_sync_to_async(humans_table)(3, seed=None)
    await database_sync_to_async(lobby.leave_table)(table.pk, users[2])
    guest = Viewer(users[2], table.pk)
    other = Viewer(users[0], table.pk)
    await guest.connect()
    await other.connect()
    assert guest.state["you"]["role"] == "spectator"

    await database_sync_to_async(lobby.join_table)(table.pk, users[2], seat=2)
    frame = await guest.receive()
    assert frame["type"] == "snapshot" and frame["you"] == {
        "user_id": users[2].pk,
        "seat": 2,
        "role": "player",
    }
    seat_event = await other.receive()
    assert seat_event["event"]["kind"] == "seat_changed"
    assert seat_event["event"]["user_id"] == users[2].pk


async def test_a_move_that_meets_a_dead_database_connection_is_sent_once_more(monkeypatch):
    from django.db import OperationalError

    from games import moves

    table, users, viewers, turn = await connected_table()
    real = moves.submit_move
    calls: list[int] = []

    def first_call_fails(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise OperationalError("server closed the connection unexpectedly")
        return real(*args, **kwargs)

    monkeypatch.setattr(moves, "submit_move", first_call_fails)
    mover = viewers[turn]
    card = mover.state["deal"]["legal_moves"][0]
    answer = await mover.move(card)
    assert answer["type"] == "ack" and len(calls) == 2
    played = await database_sync_to_async(move_events)(table.pk)
    assert [(m["seat"], m["move"]) for m in played] == [(turn, card)]


async def test_a_client_sending_faster_than_the_frame_limit_is_told_to_slow_down(settings):
    settings.GAMES_WS_FRAME_LIMIT = (3, 0.001)
    table, users, viewers, turn = await connected_table()
    other = viewers[(turn + 1) % 4]
    answers = []
    for _ in range(4):
        await other.send({"type": "ping"})
        answers.append(await other.reply())
    assert [a["type"] for a in answers] == ["pong", "pong", "pong", "error"]
    assert answers[-1]["code"] == "rate_limited"


async def test_the_frame_limit_is_per_user_so_more_sockets_buy_no_more_frames(settings):
    settings.GAMES_WS_USER_FRAME_LIMIT = (4, 0.001)
    table, users, viewers, turn = await connected_table()
    player = users[(turn + 1) % 4]
    tabs = [viewers[(turn + 1) % 4], Viewer(player, table.pk), Viewer(player, table.pk)]
    for tab in tabs[1:]:
        await tab.connect()
    answers = []
    for n in range(6):
        tab = tabs[n % 3]
        await tab.send({"type": "ping"})
        answers.append((await tab.reply())["type"])
    assert answers == ["pong", "pong", "pong", "pong", "error", "error"]
    # Another player's frames are their own.
    other = viewers[(turn + 2) % 4]
    await other.send({"type": "ping"})
    assert (await other.reply())["type"] == "pong"
    for tab in tabs[1:]:
        await tab.disconnect()


async def test_a_database_outage_is_answered_with_try_again_and_the_socket_stays(monkeypatch):
    """The move service cannot reach PostgreSQL (twice: the consumer's own retry fails too):
    the player hears "try again", the socket stays open, and the resent move is played once."""
    from django.db import OperationalError

    from games import consumers

    table, users, viewers, turn = await connected_table()
    mover = viewers[turn]
    version = mover.version
    card = mover.state["deal"]["legal_moves"][0]
    real = consumers._submit_move

    async def unreachable(*args, **kwargs):
        raise OperationalError("connection to server on socket failed: No such file")

    monkeypatch.setattr(consumers, "_submit_move", unreachable)
    refused = await mover.move(card, version)
    assert refused["type"] == "error" and refused["code"] == "unavailable"
    assert "Try again" in refused["message"]
    assert await database_sync_to_async(move_events)(table.pk) == []

    monkeypatch.setattr(consumers, "_submit_move", real)
    assert (await mover.move(card, version))["type"] == "ack"
    assert (await mover.move(card, version))["type"] == "ack", "a second resend: acked again"
    assert [e["move"] for e in await database_sync_to_async(move_events)(table.pk)] == [card]
    for viewer in viewers:
        await viewer.disconnect()


async def test_the_players_at_an_open_table_learn_who_runs_it_when_its_organiser_leaves():
    from games import lobby

    def open_table():
        owner, second = UserFactory(), UserFactory()
        table = lobby.create_table(owner=owner, size=4)
        lobby.join_table(table.pk, second, seat=1)
        return table, owner, second

    table, owner, second = await database_sync_to_async(open_table)()
    watcher = Viewer(second, table.pk)
    await watcher.connect()
    await database_sync_to_async(lobby.leave_table)(table.pk, owner)
    await sync_all([watcher], table.pk)

    assert watcher.state["table"]["owner_user_id"] == second.pk
    kinds = [f["event"]["kind"] for f in watcher.frames if f["type"] == "event"]
    assert kinds == ["seat_changed", "owner_changed"]
    assert watcher.state == await fresh_snapshot(table.pk, second)
    await watcher.disconnect()
