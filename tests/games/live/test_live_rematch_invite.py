"""Rematches at the end of a Partie and invitations to open tables."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games import invitations, lobby, rematches, selectors
from games.events import ServiceError
from games.models import Seat, Table, TableInvitation, TableVote
from rosbi_platform.friends.blocks import block_user
from tests.games.factories import TableFactory, UserFactory
from tests.games.live.helpers import ROUTER, Viewer, fresh_snapshot, humans_table, sync_all

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


def finished_table(humans: int = 2, size: int = 3, **kwargs):
    """A finished Partie with ``humans`` seated players (away: bots played for them) and bots
    in the other seats."""
    users = [UserFactory() for _ in range(humans)]
    table = TableFactory(owner=users[0], size=size, fill_with_bots=True, **kwargs)
    for number, user in enumerate(users):
        lobby.join_table(table.pk, user, seat=number)
    Seat.objects.filter(table=table, user__isnull=False).update(away=True)
    lobby.start_table(table.pk, users[0], seed=7)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    return table, users


async def test_a_rematch_starts_once_every_player_agrees_with_the_same_seats():
    table, users = await database_sync_to_async(finished_table)(2, 3)
    second = Viewer(users[1], table.pk)
    await second.connect()

    assert await database_sync_to_async(rematches.offer_rematch)(table.pk, users[0]) is None
    await sync_all([second], table.pk)
    assert second.state["votes"]["rematch"] == [0]
    assert second.state == await fresh_snapshot(table.pk, users[1])

    new_id = await database_sync_to_async(rematches.offer_rematch)(table.pk, users[1])
    assert new_id is not None
    await sync_all([second], table.pk)
    assert second.state["rematch_table_id"] == new_id
    assert [f["event"]["kind"] for f in second.frames[-2:]] == ["vote", "rematch_started"]
    assert second.state == await fresh_snapshot(table.pk, users[1])

    def rematch_facts():
        rematch = Table.objects.get(pk=new_id)
        seats = [(s.number, s.user_id, s.bot_level) for s in selectors.seats_of(rematch)]
        return rematch, seats

    rematch, seats = await database_sync_to_async(rematch_facts)()
    assert rematch.rematch_of_id == table.pk and rematch.status == Table.Status.PLAYING
    assert (rematch.size, rematch.bot_level, rematch.public) == (3, table.bot_level, table.public)
    assert seats == [(0, users[0].pk, ""), (1, users[1].pk, ""), (2, None, table.bot_level)]
    # Asking again changes nothing: one rematch per table.
    assert await database_sync_to_async(rematches.offer_rematch)(table.pk, users[0]) == new_id
    count = await database_sync_to_async(Table.objects.filter(rematch_of=table).count)()
    assert count == 1


def test_declining_withdraws_the_offer_and_refusals_change_nothing():
    table, users = finished_table(2, 3)
    with pytest.raises(ServiceError) as nothing:
        rematches.decline_rematch(table.pk, users[1])
    assert nothing.value.code == "no_offer"
    rematches.offer_rematch(table.pk, users[0])
    rematches.decline_rematch(table.pk, users[1])
    assert not TableVote.objects.filter(table=table).exists()
    kinds = list(table.events.order_by("-version").values_list("kind", flat=True)[:2])
    assert kinds == ["rematch_declined", "vote"]

    version = Table.objects.get(pk=table.pk).version
    stranger = UserFactory()
    with pytest.raises(ServiceError) as not_seated:
        rematches.offer_rematch(table.pk, stranger)
    assert not_seated.value.code == "not_seated"
    playing, players = humans_table(3, seed=3)
    with pytest.raises(ServiceError) as early:
        rematches.offer_rematch(playing.pk, players[0])
    assert early.value.code == "not_finished"
    ranked, ranked_users = finished_table(2, 3, ranked_queue=True)
    with pytest.raises(ServiceError) as queue:
        rematches.offer_rematch(ranked.pk, ranked_users[0])
    assert queue.value.code == "forbidden"
    assert Table.objects.get(pk=table.pk).version == version


async def test_an_invited_player_is_told_in_the_lobby_and_sits_in_the_held_seat():
    owner, friend, other = await database_sync_to_async(
        lambda: (UserFactory(), UserFactory(), UserFactory())
    )()
    table = await database_sync_to_async(lobby.create_table)(owner=owner, size=3, public=False)
    lobby_page = WebsocketCommunicator(ROUTER, "/ws/lobby/")
    lobby_page.scope["user"] = friend
    assert (await lobby_page.connect())[0]
    assert (await lobby_page.receive_json_from())["type"] == "tables"
    seated = Viewer(owner, table.pk)
    await seated.connect()

    await database_sync_to_async(invitations.invite_player)(
        table.pk, owner, friend.username.upper(), seat=2
    )
    notice = await lobby_page.receive_json_from(timeout=5)
    while notice["type"] != "invitation":
        notice = await lobby_page.receive_json_from(timeout=5)
    assert notice["invitation"]["table_id"] == table.pk and notice["invitation"]["seat"] == 2
    await sync_all([seated], table.pk)
    assert [i["user_id"] for i in seated.state["invitations"]] == [friend.pk]

    # The held seat is not free for others; the private table lets the invitee in.
    with pytest.raises(ServiceError) as held:
        await database_sync_to_async(lobby.join_table)(
            table.pk, other, seat=2, invite=table.invite_code
        )
    assert held.value.code == "seat_held"
    access = await database_sync_to_async(selectors.viewer_access)(table.pk, friend, None)
    assert access.allowed
    assert await database_sync_to_async(lobby.join_table)(table.pk, friend) == 2
    await sync_all([seated], table.pk)
    assert seated.state["invitations"] == []
    assert seated.state == await fresh_snapshot(table.pk, owner)
    await lobby_page.disconnect()


def test_invitations_are_refused_with_reasons():
    owner, friend, blocker = UserFactory(), UserFactory(), UserFactory()
    table = lobby.create_table(owner=owner, size=3)
    refusals = {
        "not_found": lambda: invitations.invite_player(table.pk, owner, "nobody-here"),
        "bad_request": lambda: invitations.invite_player(table.pk, owner, owner.username),
        "forbidden": lambda: invitations.invite_player(table.pk, friend, blocker.username),
        "seat_taken": lambda: invitations.invite_player(table.pk, owner, friend.username, seat=0),
    }
    block_user(blocker, owner)
    refusals["blocked"] = lambda: invitations.invite_player(table.pk, owner, blocker.username)
    for code, attempt in refusals.items():
        with pytest.raises(ServiceError) as refused:
            attempt()
        assert refused.value.code == code, code
    assert not TableInvitation.objects.exists()
    assert Table.objects.get(pk=table.pk).version == 0

    invitations.invite_player(table.pk, owner, friend.username)
    with pytest.raises(ServiceError) as twice:
        invitations.invite_player(table.pk, owner, friend.username)
    assert twice.value.code == "already_invited"
    invitations.decline_invitation(table.pk, friend)
    assert not TableInvitation.objects.exists()
    assert table.events.order_by("-version").first().kind == "invitation_declined"
    with pytest.raises(ServiceError) as gone:
        invitations.decline_invitation(table.pk, friend)
    assert gone.value.code == "not_invited"


def test_the_table_page_forms_reach_the_services():
    """Thin views: resign, abort (a vote for a non-owner), rematch (to the new table), invite
    and decline, each answered on the page with a message."""
    from django.test import Client

    def client_for(user) -> Client:
        client = Client()
        client.force_login(user)
        return client

    table, users = humans_table(3, seed=3)
    voted = client_for(users[1]).post(f"/tables/{table.pk}/abort/", follow=True)
    assert "every player must agree" in voted.content.decode()
    assert TableVote.objects.filter(table=table, kind="abort", seat=1).exists()
    client_for(users[2]).post(f"/tables/{table.pk}/resign/")
    assert Seat.objects.get(table=table, number=2).resigned

    finished, players = finished_table(2, 3)
    client_for(players[0]).post(f"/tables/{finished.pk}/rematch/")
    answer = client_for(players[1]).post(f"/tables/{finished.pk}/rematch/")
    rematch = Table.objects.get(rematch_of=finished)
    assert answer.status_code == 302 and answer["Location"] == f"/tables/{rematch.pk}/"

    open_table = lobby.create_table(owner=players[0], size=3, public=False)
    page = client_for(players[0]).post(
        f"/tables/{open_table.pk}/invite/",
        {"username": players[1].username, "seat": "2"},
        follow=True,
    )
    assert "will find the invitation in the lobby" in page.content.decode()
    invitee = client_for(players[1])
    assert invitee.get(f"/tables/{open_table.pk}/").status_code == 200  # private, but invited
    lobby_page = invitee.get("/lobby/").content.decode()
    assert f"/tables/{open_table.pk}/invitation/decline/" in lobby_page
    invitee.post(f"/tables/{open_table.pk}/invitation/decline/")
    assert not TableInvitation.objects.exists()
    assert invitee.get(f"/tables/{open_table.pk}/").status_code == 403


def test_the_invite_form_offers_the_owners_friends_by_name():
    """Invite a friend to a seat: the open table's invite field suggests the players its owner
    follows (a datalist), and a friend invited from it gets the invitation."""
    from django.test import Client

    from rosbi_platform.accounts.services import ensure_profile
    from rosbi_platform.friends.follows import follow_user

    owner, friend, stranger = UserFactory(), UserFactory(), UserFactory()
    profile = ensure_profile(friend)
    profile.display_name = "Freundin Frieda"
    profile.save(update_fields=["display_name"])
    follow_user(owner, friend)
    table = lobby.create_table(owner=owner, size=3, public=False)
    client = Client()
    client.force_login(owner)

    page = client.get(f"/tables/{table.pk}/").content.decode()

    datalist = page.split('<datalist id="invite-friends">', 1)[1].split("</datalist>", 1)[0]
    assert f'value="{friend.username}">Freundin Frieda<' in datalist
    assert stranger.username not in datalist
    client.post(f"/tables/{table.pk}/invite/", {"username": friend.username, "seat": "1"})
    assert TableInvitation.objects.get(table=table).user == friend
