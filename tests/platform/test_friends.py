"""Following and blocking players: the buttons on a player's page, and what a block stops."""

from __future__ import annotations

import pytest
from django.test import Client

from games import lobby
from games.events import ServiceError
from rosbi_platform.friends.models import Block, Follow
from tests.games.factories import TableFactory, UserFactory

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_follow_and_block_from_a_players_page():
    anna, ben = UserFactory(), UserFactory()
    page = f"/ladder/players/{ben.username}/"
    client = client_for(anna)
    assert 'data-action="follow"' in client.get(page).content.decode()

    response = client.post(f"/friends/{ben.username}/follow/", {"next": page}, follow=True)
    assert response.redirect_chain[-1][0] == page
    assert 'data-action="unfollow"' in response.content.decode()
    assert Follow.objects.filter(follower=anna, followee=ben).exists()
    Follow.objects.create(follower=ben, followee=anna)

    response = client.post(f"/friends/{ben.username}/block/", {"next": page}, follow=True)
    assert Block.objects.filter(blocker=anna, blocked=ben).exists()
    assert not Follow.objects.exists()  # following ends both ways
    content = response.content.decode()
    assert 'data-action="unblock"' in content and 'data-action="follow"' not in content
    refused = client.post(f"/friends/{ben.username}/follow/", follow=True)
    assert "unblock them first" in refused.content.decode()
    assert not Follow.objects.exists()

    client.post(f"/friends/{ben.username}/unblock/")
    assert not Block.objects.exists()
    client.post(f"/friends/{ben.username}/follow/")
    assert f"/ladder/players/{ben.username}/" in client.get("/friends/").content.decode()
    assert (
        "data-action"
        not in client_for(ben).get(f"/ladder/players/{ben.username}/").content.decode()
    )


def test_nobody_follows_or_blocks_themselves_and_anonymous_visitors_must_log_in():
    anna = UserFactory()
    client = client_for(anna)
    response = client.post(f"/friends/{anna.username}/follow/", follow=True)
    assert "cannot follow yourself" in response.content.decode()
    client.post(f"/friends/{anna.username}/block/")
    assert not Follow.objects.exists() and not Block.objects.exists()
    assert Client().post(f"/friends/{anna.username}/follow/").status_code == 302
    assert not Follow.objects.exists()


def test_a_blocked_player_cannot_join_the_blockers_tables():
    owner, seated, pest, friend = UserFactory(), UserFactory(), UserFactory(), UserFactory()
    table = lobby.create_table(owner=owner, size=4)
    lobby.join_table(table.pk, seated)
    Block.objects.create(blocker=seated, blocked=pest)
    with pytest.raises(ServiceError) as refused:
        lobby.join_table(table.pk, pest)
    assert refused.value.code == "blocked" and "blocked you" in refused.value.message
    assert table.seats.filter(user=pest).count() == 0
    assert lobby.join_table(table.pk, friend) == 2

    # Seen from the page: a message, no seat.
    response = client_for(pest).post(f"/tables/{table.pk}/join/", follow=True)
    assert "blocked you" in response.content.decode()
    assert table.seats.filter(user=pest).count() == 0

    # Tournament tables are seated by the event: blocks do not stop the round.
    event_table = TableFactory(owner=None, size=3, tournament_round_id=5)
    lobby.join_table(event_table.pk, seated, invite=event_table.invite_code)
    lobby.join_table(event_table.pk, pest, invite=event_table.invite_code)


def test_a_blocked_player_cannot_follow_the_blocker():
    """Issue 25, defect 9: the blocked player could still follow the blocker."""
    from rosbi_platform.friends import blocks, follows
    from rosbi_platform.friends.errors import RelationError

    blocker, pest = UserFactory(), UserFactory()
    follows.follow_user(pest, blocker)
    blocks.block_user(blocker, pest)
    with pytest.raises(RelationError, match="cannot follow"):
        follows.follow_user(pest, blocker)
    assert not Follow.objects.filter(follower=pest).exists()
    response = client_for(pest).post(f"/friends/{blocker.username}/follow/", follow=True)
    assert "You cannot follow this player." in response.content.decode()
    assert not Follow.objects.filter(follower=pest).exists()
    follows.follow_user(blocker, UserFactory())  # the blocker follows whom they like


def test_a_third_player_cannot_invite_the_blocked_player_to_the_blockers_table():
    """Issue 25, defect 9: a third player at the blocker's table invited the blocked player."""
    from games import invitations
    from games.models import TableInvitation

    owner, blocker, pest, friend = UserFactory(), UserFactory(), UserFactory(), UserFactory()
    table = lobby.create_table(owner=owner, size=4)
    lobby.join_table(table.pk, blocker)
    Block.objects.create(blocker=blocker, blocked=pest)
    with pytest.raises(ServiceError) as refused:
        invitations.invite_player(table.pk, owner, pest.username)
    assert refused.value.code == "blocked"
    assert "cannot be invited to this table" in refused.value.message
    assert blocker.username not in refused.value.message, "it does not say who blocked whom"

    # Nor the blocker to a table where the blocked player sits.
    other = lobby.create_table(owner=friend, size=4)
    lobby.join_table(other.pk, pest)
    with pytest.raises(ServiceError) as reverse:
        invitations.invite_player(other.pk, friend, blocker.username)
    assert reverse.value.code == "blocked"
    assert not TableInvitation.objects.exists()
    invitations.invite_player(table.pk, owner, friend.username)
