"""The site-moderator rule in games (issue 25, defect 1): ``is_staff`` gives no sight and no
power at a table; a site moderator (``accounts.permissions.is_site_moderator``) sees private
tables in lists and finished private Parties (to look into reports), aborts a table before its
first card, but starts no one's table and never sees a hand of a deal in progress at a table
where they do not sit."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from games import aborts, bot_turns, lobby, selectors
from games.events import ServiceError
from games.models import Partie, Table
from tests.api_clients import session_client, token_client
from tests.games.factories import SiteModeratorFactory, TableFactory, UserFactory

pytestmark = [pytest.mark.django_db]


def private_partie(owner) -> Partie:
    """A private table whose owner started it with bots and left; the bots finish it."""
    table = TableFactory(owner=owner, size=3, fill_with_bots=True, bot_level="random")
    Table.objects.filter(pk=table.pk).update(public=False)
    lobby.join_table(table.pk, owner, 0, invite=table.invite_code)
    lobby.start_table(table.pk, owner, seed=7)
    lobby.leave_table(table.pk, owner)
    bot_turns.play_bot_turns(table.pk)
    partie = Partie.objects.get(table=table)
    assert partie.finished_at is not None
    return partie


def open_private_table(owner) -> Table:
    table = lobby.create_table(owner=owner, size=3, public=False, fill_with_bots=True)
    return table


def test_staff_see_no_private_table_and_no_private_partie():
    owner, staff = UserFactory(), UserFactory(is_staff=True)
    table = open_private_table(owner)
    partie = private_partie(owner)
    client = token_client(staff)
    listed = {row["id"] for row in client.get("/api/v1/tables").json()["results"]}
    assert table.pk not in listed
    assert client.get(f"/api/v1/tables/{table.pk}").status_code == 404
    parties = {row["id"] for row in client.get("/api/v1/parties").json()["results"]}
    assert partie.pk not in parties
    assert client.get(f"/api/v1/parties/{partie.pk}/deals").status_code == 404
    assert client.get(f"/api/v1/parties/{partie.pk}/deals.jsonl").status_code == 404
    web = session_client()
    web.force_login(staff)
    assert web.get(reverse("games:replay", args=[partie.table_id])).status_code == 404
    assert not selectors.may_see_partie(staff, partie)


def test_the_players_of_a_private_partie_see_it_and_its_record():
    owner = UserFactory()
    partie = private_partie(owner)
    web = session_client()
    web.force_login(owner)
    assert web.get(reverse("games:replay", args=[partie.table_id])).status_code == 200
    assert token_client(owner).get(f"/api/v1/parties/{partie.pk}/deals").status_code == 200
    assert selectors.may_see_partie(owner, partie)
    assert not selectors.may_see_partie(AnonymousUser(), partie)


def test_staff_neither_start_nor_abort_nor_change_another_s_table():
    owner, staff = UserFactory(), UserFactory(is_staff=True)
    table = open_private_table(owner)
    with pytest.raises(ServiceError) as refused:
        lobby.start_table(table.pk, staff)
    assert refused.value.code == "forbidden"
    with pytest.raises(ServiceError):
        lobby.change_open_table(table.pk, staff, name="Mine now")
    lobby.start_table(table.pk, owner, seed=3)
    with pytest.raises(ServiceError) as refused:
        aborts.abort_table(table.pk, staff)
    assert refused.value.code == "not_seated"
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING


def test_a_moderator_sees_finished_private_parties_and_aborts_but_starts_nothing():
    owner, moderator = UserFactory(), SiteModeratorFactory()
    partie = private_partie(owner)
    client = token_client(moderator)
    assert client.get(f"/api/v1/parties/{partie.pk}/deals").status_code == 200
    web = session_client()
    web.force_login(moderator)
    assert web.get(reverse("games:replay", args=[partie.table_id])).status_code == 200
    table = open_private_table(owner)
    assert table.pk in {row["id"] for row in client.get("/api/v1/tables").json()["results"]}
    with pytest.raises(ServiceError) as refused:
        lobby.start_table(table.pk, moderator)
    assert refused.value.code == "forbidden"
    lobby.start_table(table.pk, owner, seed=3)
    assert aborts.abort_table(table.pk, moderator)
    assert Table.objects.get(pk=table.pk).status == Table.Status.ABORTED


def test_a_moderator_never_sees_a_hand_of_a_deal_in_progress():
    owner, moderator = UserFactory(), SiteModeratorFactory()
    table = open_private_table(owner)
    lobby.start_table(table.pk, owner, seed=3)
    partie = Partie.objects.get(table=table)
    # The live snapshot gives the moderator exactly what a spectator sees: no hand.
    theirs = selectors.build_snapshot(table.pk, moderator)["deal"]
    assert theirs == selectors.build_snapshot(table.pk, UserFactory())["deal"]
    assert theirs["hand"] == [] and theirs["seat"] is None
    assert theirs != selectors.build_snapshot(table.pk, owner)["deal"]
    # Neither the API nor the replay page shows a Partie in progress.
    assert token_client(moderator).get(f"/api/v1/parties/{partie.pk}/deals").status_code == 404
    web = session_client()
    web.force_login(moderator)
    assert web.get(reverse("games:replay", args=[table.pk])).status_code == 404
