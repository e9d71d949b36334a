"""Chat around the game: history in the snapshot, muting from the table, reports, blocks."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games import chat, consumers, reports
from games.events import ServiceError
from games.models import ChatMessage, ChatReport, TableMute
from rosbi_platform.accounts.models import Club, ClubMembership
from rosbi_platform.friends.blocks import block_user
from tests.games.factories import SiteModeratorFactory, TableFactory, UserFactory
from tests.games.live.helpers import Viewer, humans_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


async def next_event(viewer: Viewer, kind: str) -> dict:
    while True:
        frame = await viewer.receive()
        if frame["type"] == "event" and frame["event"]["kind"] == kind:
            return frame["event"]


async def test_the_snapshot_carries_the_recent_chat_each_viewer_may_read(monkeypatch):
    monkeypatch.setattr("games.selectors.CHAT_HISTORY", 3)
    table, users = await database_sync_to_async(humans_table)(3)
    watcher, pest = await database_sync_to_async(lambda: (UserFactory(), UserFactory()))()
    post = database_sync_to_async(chat.post_chat_message)
    for n in range(4):
        await post(table.pk, users[n % 2], "players", f"line {n}")
    await post(table.pk, watcher, "spectators", "kibitz")
    await post(table.pk, pest, "spectators", "rude")
    await database_sync_to_async(block_user)(watcher, pest)

    player, spectator = Viewer(users[2], table.pk), Viewer(watcher, table.pk)
    await player.connect()
    await spectator.connect()
    # Players read only the players' channel; the last three lines, oldest first.
    assert [c["text"] for c in player.state["chat"]] == ["line 1", "line 2", "line 3"]
    assert player.state["chat"][-1]["author_id"] == users[1].pk
    # Spectators read both channels, but not the player they blocked.
    assert [c["text"] for c in spectator.state["chat"]] == ["line 2", "line 3", "kibitz"]


async def test_a_blocked_players_chat_is_not_delivered_to_the_blocker(monkeypatch):
    monkeypatch.setattr(consumers, "BLOCKS_REFRESH_SECONDS", 0)
    table, users = await database_sync_to_async(humans_table)(3)
    blocker, other, pest = (Viewer(u, table.pk) for u in users)
    for viewer in (blocker, other, pest):
        await viewer.connect()
    # Blocked while the page is open: the next line already respects it.
    await database_sync_to_async(block_user)(users[0], users[2])
    await pest.send({"type": "chat", "channel": "players", "text": "you are bad"})
    assert (await next_event(other, "chat"))["text"] == "you are bad"
    assert await blocker.nothing_more()
    await other.send({"type": "chat", "channel": "players", "text": "hello"})
    assert (await next_event(blocker, "chat"))["text"] == "hello"


async def test_the_owner_mutes_from_the_table_and_everyone_is_told():
    table, users = await database_sync_to_async(humans_table)(3)
    owner, other, muted = (Viewer(u, table.pk) for u in users)
    for viewer in (owner, other, muted):
        await viewer.connect()
    assert owner.state["moderator"] is False  # the owner moderates as the owner

    await other.send({"type": "mute", "user_id": users[2].pk, "id": "m1"})
    refused = await other.reply()
    assert refused["type"] == "error" and refused["code"] == "forbidden"
    assert not await database_sync_to_async(TableMute.objects.exists)()

    await owner.send({"type": "mute", "user_id": users[2].pk, "id": "m2"})
    assert await owner.reply() == {"type": "done", "id": "m2", "action": "mute"}
    notice = await next_event(other, "mute")
    assert notice["user_id"] == users[2].pk and notice["muted"] is True
    await next_event(muted, "mute")
    await muted.send({"type": "chat", "channel": "players", "text": "hey", "id": "c"})
    assert (await muted.reply())["code"] == "muted"
    reconnected = Viewer(users[1], table.pk)
    await reconnected.connect()
    assert [m["user_id"] for m in reconnected.state["mutes"]] == [users[2].pk]

    await owner.send({"type": "unmute", "user_id": users[2].pk, "id": "m3"})
    assert (await owner.reply())["type"] == "done"
    assert (await next_event(other, "mute"))["muted"] is False
    await muted.send({"type": "chat", "channel": "players", "text": "thanks"})
    assert (await next_event(other, "chat"))["text"] == "thanks"


def test_club_organisers_moderate_tournament_tables():
    organiser, member, player = UserFactory(), UserFactory(), UserFactory()
    club = Club.objects.create(name="Club", slug="club")
    ClubMembership.objects.create(club=club, user=organiser, role=ClubMembership.Role.ORGANISER)
    ClubMembership.objects.create(club=club, user=member)
    table = TableFactory(owner=None, size=3, club_id=club.pk, tournament_round_id=1)
    with pytest.raises(ServiceError):
        chat.mute_user(table.pk, member, player)
    chat.mute_user(table.pk, organiser, player)
    assert TableMute.objects.filter(table=table, user=player, muted_by=organiser).exists()


async def test_a_chat_line_is_reported_once_and_lands_in_the_staff_queue():
    table, users = await database_sync_to_async(humans_table)(3)
    author, reporter = Viewer(users[0], table.pk), Viewer(users[1], table.pk)
    await author.connect()
    await reporter.connect()
    await author.send({"type": "chat", "channel": "players", "text": "abuse"})
    line = await next_event(reporter, "chat")

    await reporter.send({"type": "report", "message_id": line["id"], "reason": " slur ", "id": "r"})
    assert await reporter.reply() == {"type": "done", "id": "r", "action": "report"}
    await reporter.send({"type": "report", "message_id": line["id"], "id": "r2"})
    again = await reporter.reply()
    assert again["code"] == "already_reported" and "already" in again["message"]
    await author.send({"type": "report", "message_id": line["id"], "id": "r3"})
    assert (await author.reply())["code"] == "bad_request"
    await reporter.send({"type": "report", "message_id": 10**9, "id": "r4"})
    assert (await reporter.reply())["code"] == "not_found"

    stored = await database_sync_to_async(
        lambda: list(ChatReport.objects.values_list("reporter_id", "reason", "status"))
    )()
    assert stored == [(users[1].pk, "slur", "open")]


def test_staff_dismiss_a_report_or_mute_its_author():
    """Staff here are site moderators (``is_staff`` alone handles no report: issue 25)."""
    table, users = humans_table(3)
    staff = SiteModeratorFactory()
    line = ChatMessage.objects.create(table=table, author=users[0], channel="players", text="x")
    first = reports.report_chat_message(table.pk, line.pk, users[1])
    second = reports.report_chat_message(table.pk, line.pk, users[2])
    with pytest.raises(ServiceError) as not_staff:
        reports.dismiss_report(first.pk, users[1])
    assert not_staff.value.code == "forbidden"
    with pytest.raises(ServiceError) as only_staff:
        reports.dismiss_report(first.pk, UserFactory(is_staff=True))
    assert only_staff.value.code == "forbidden"

    reports.mute_reported_author(first.pk, staff)
    assert TableMute.objects.filter(table=table, user=users[0]).exists()
    assert set(ChatReport.objects.values_list("status", flat=True)) == {"muted"}
    second.refresh_from_db()
    assert second.handled_by == staff
    with pytest.raises(ServiceError) as handled:
        reports.dismiss_report(second.pk, staff)
    assert handled.value.code == "handled"
