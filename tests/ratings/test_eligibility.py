"""Rated-play eligibility: ``ratings.eligibility.rated_play_refusal`` is the one answer to
"may this person play rated now?", and every door to rated play asks it: joining, opening and
starting a rated table, its rematch, the ranked queue and its matchmaking round, the API."""

from __future__ import annotations

import datetime as dt

import pytest

from games import lobby, rated_play, rematches
from games.events import ServiceError
from games.models import Seat, Table
from ratings import eligibility, ranked_queue
from ratings.models import LadderQueueEntry
from rosbi_platform.accounts.models import User
from rosbi_platform.accounts.services import mark_as_bot
from tests.api_clients import assert_error, token_client
from tests.games.factories import TableFactory, UserFactory

pytestmark = [pytest.mark.django_db]

T0 = dt.datetime(2026, 3, 1, 18, 0, tzinfo=dt.UTC)


def bot_account():
    user = UserFactory()
    mark_as_bot(user)
    return User.objects.select_related("profile").get(pk=user.pk)


@pytest.fixture
def refuse_marked(monkeypatch):
    """An extra rule, as other checks are added: users named in the set are refused."""
    refused: set[int] = set()

    def refuse_named(user):
        return "Not now." if user.pk in refused else None

    monkeypatch.setattr(
        eligibility, "RATED_PLAY_CHECKS", [*eligibility.RATED_PLAY_CHECKS, refuse_named]
    )
    return refused


def test_games_asks_the_ratings_check():
    bot, human = bot_account(), UserFactory()
    assert eligibility.rated_play_refusal(human) is None
    assert eligibility.rated_play_refusal(bot) == "Bot accounts do not play rated Parties."
    assert rated_play.rated_play_refusal(bot) == eligibility.rated_play_refusal(bot)


def test_a_bot_account_cannot_join_a_rated_table_that_allows_bot_accounts():
    rated = lobby.create_table(owner=UserFactory(), size=3, rated=True, allow_bots=True)
    bot = bot_account()
    with pytest.raises(ServiceError) as refused:
        lobby.join_table(rated.pk, bot)
    assert refused.value.code == "rated_refused"
    assert not Seat.objects.filter(table=rated, user=bot).exists()
    casual = lobby.create_table(owner=UserFactory(), size=3, allow_bots=True)
    assert lobby.join_table(casual.pk, bot) == 1


def test_the_api_refuses_a_bot_account_at_a_rated_table_with_the_error_shape():
    rated = lobby.create_table(owner=UserFactory(), size=3, rated=True, allow_bots=True)
    client = token_client(bot_account(), ["read", "play"])
    assert_error(
        client.post(f"/api/v1/tables/{rated.pk}/join", format="json"), 403, "rated_refused"
    )


def test_every_rated_door_asks_the_same_check(refuse_marked):
    player = UserFactory()
    refuse_marked.add(player.pk)
    rated = lobby.create_table(owner=UserFactory(), size=3, rated=True)
    with pytest.raises(ServiceError) as joining:
        lobby.join_table(rated.pk, player)
    assert (joining.value.code, joining.value.message) == ("rated_refused", "Not now.")
    with pytest.raises(ServiceError):
        lobby.create_table(owner=player, size=3, rated=True)
    with pytest.raises(ranked_queue.QueueError, match="Not now."):
        ranked_queue.join_queue(player, now=T0)
    # A casual table does not ask.
    casual = lobby.create_table(owner=player, size=3)
    assert casual.rated is False


def test_a_rated_table_does_not_start_with_a_player_who_may_no_longer_play_rated():
    owner, changed = UserFactory(), UserFactory()
    table = lobby.create_table(owner=owner, size=3, rated=True, fill_with_bots=True)
    lobby.join_table(table.pk, changed)
    mark_as_bot(changed)  # after sitting down
    with pytest.raises(ServiceError) as refused:
        lobby.start_table(table.pk, owner, seed=3)
    assert refused.value.code == "rated_refused"
    assert changed.profile.display_name in refused.value.message
    assert Table.objects.get(pk=table.pk).status == Table.Status.OPEN


def test_the_matchmaking_round_drops_a_player_who_may_no_longer_play_rated(refuse_marked):
    users = [UserFactory() for _ in range(4)]
    entries = [ranked_queue.join_queue(user, now=T0) for user in users]
    refuse_marked.add(users[1].pk)
    table = ranked_queue.start_ladder_table([e.pk for e in entries], "ladder", T0)
    assert table is None
    assert not Table.objects.exists()
    statuses = dict(LadderQueueEntry.objects.values_list("user_id", "status"))
    assert statuses[users[1].pk] == LadderQueueEntry.Status.LEFT
    assert {statuses[u.pk] for u in (users[0], *users[2:])} == {LadderQueueEntry.Status.WAITING}


def test_a_rematch_of_a_rated_table_asks_again(refuse_marked):
    users = [UserFactory() for _ in range(2)]
    table = TableFactory(owner=users[0], size=3, fill_with_bots=True)
    for number, user in enumerate(users):
        lobby.join_table(table.pk, user, seat=number)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED, rated=True)
    assert rematches.offer_rematch(table.pk, users[0]) is None
    refuse_marked.add(users[1].pk)
    with pytest.raises(ServiceError) as refused:
        rematches.offer_rematch(table.pk, users[1])
    assert refused.value.code == "rated_refused"
    assert not Table.objects.filter(rematch_of=table).exists()


def test_an_unverified_account_does_not_play_rated_until_its_e_mail_is_confirmed():
    from rosbi_platform.accounts import verification

    unverified = UserFactory(unverified=True)
    refusal = eligibility.rated_play_refusal(unverified)
    assert refusal is not None and "Confirm your e-mail address" in refusal
    rated = lobby.create_table(owner=UserFactory(), size=3, rated=True)
    with pytest.raises(ServiceError) as refused:
        lobby.join_table(rated.pk, unverified)
    assert refused.value.code == "rated_refused"
    with pytest.raises(ranked_queue.QueueError, match="Confirm your e-mail address"):
        ranked_queue.join_queue(unverified, now=T0)
    api = token_client(unverified, ["read", "play"])
    body = assert_error(api.post(f"/api/v1/tables/{rated.pk}/join", {}, format="json"), 403)
    assert "Confirm your e-mail address" in body["detail"]

    verification.verify_email(verification.verification_token(unverified))
    assert eligibility.rated_play_refusal(unverified) is None
    lobby.join_table(rated.pk, unverified)
    assert Seat.objects.filter(table=rated, user=unverified).exists()
