"""Download my data and delete my account (issue 25): the export covers every relation to the
person and hides what it must; deletion anonymises the person and changes nothing of anyone
else's results, ratings or standings."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest
from django.apps import apps
from django.contrib.admin.models import LogEntry
from django.contrib.auth import get_user_model
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone, translation

from games import lobby
from games.models import Abandonment, PartieDeal, Seat, SeatResult, Table
from ratings import recording, updates
from ratings.models import PlayerRating, RatingChange
from rosbi_platform.accounts import personal_data, tokens
from rosbi_platform.accounts.deletion import DELETED_NAME, AccountDeletionRefused, delete_account
from rosbi_platform.accounts.models import AccessToken, ClubMembership
from rosbi_platform.friends.blocks import block_user
from rosbi_platform.friends.follows import follow_user
from rosbi_platform.friends.models import Block, Follow
from rosbi_platform.notifications.models import Notification
from tests.games.factories import TableFactory, UserFactory
from tests.platform.factories import NotificationFactory
from tests.ratings.factories import BOT, finished_partie, outcome_of
from tests.tournaments.factories import ClubFactory, MembershipFactory, TournamentFactory
from tournaments.models import Entry, Standing, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english_afterwards():
    """A German page request leaves German active in this thread: the next test reads English."""
    yield
    translation.activate("en")


PASSWORD = "correct horse battery"
CARD = re.compile(r"\b[6789TJQKA][CSHD]\b")


def relations_to_user() -> set[str]:
    """Every field of every installed model that points at the user model."""
    user_model = get_user_model()
    return {
        f"{model._meta.label}.{field.name}"
        for model in apps.get_models()
        for field in model._meta.get_fields()
        if field.is_relation and not field.auto_created and field.related_model is user_model
    }


def test_every_relation_to_the_user_is_exported_or_excluded_with_a_reason():
    """A new model with a foreign key to User fails here until its app's personal-data
    section exports it or says why not (``rosbi_platform.accounts.personal_data``)."""
    covered = personal_data.covered_relations()
    excluded = personal_data.excluded_relations()
    relations = relations_to_user()
    assert relations - covered - set(excluded) == set()
    assert covered & set(excluded) == set()
    assert (covered | set(excluded)) - relations == set(), "names a relation that is not there"
    assert all(len(reason) > 20 for reason in excluded.values())


# --------------------------------------------------------------------------- export


def play_rated(players, totals, minutes_ago: int):
    partie = finished_partie(
        players, totals, timezone.now() - dt.timedelta(minutes=minutes_ago), rated=True
    )
    recording.record_finished_partie(outcome_of(partie))
    updates.apply_pending_ratings()
    return partie


@pytest.fixture
def anna():
    """A player with something in every app."""
    anna = UserFactory(username="anna")
    others = UserFactory.create_batch(3)
    club = ClubFactory(name="Krone")
    MembershipFactory(club=club, user=anna, role=ClubMembership.Role.ORGANISER)
    tokens.create_token(anna, "my bot", ["read"])
    follow_user(anna, others[0])
    block_user(anna, others[1])
    block_user(others[2], anna)  # who blocked anna is not hers to see
    NotificationFactory(user=anna, message="Round 2 starts soon")
    partie = play_rated([anna, *others], [10, 20, 30, 40], minutes_ago=30)
    Abandonment.objects.create(user=anna, partie=partie, kind=Abandonment.Kind.LEFT)
    event = TournamentFactory(club=club, name="Spring Cup")
    Entry.objects.create(tournament=event, user=anna)
    return anna


def test_the_export_holds_every_app_and_hides_secrets_and_others_choices(anna):
    secret = tokens.create_token(anna, "league sheet", ["read"]).secret
    document = json.loads(json.dumps(personal_data.export_personal_data(anna), default=str))
    assert document["accounts"]["account"]["username"] == "anna"
    assert document["accounts"]["account"]["email"] == "anna@example.com"
    assert [c["club"] for c in document["accounts"]["clubs"]] == ["Krone"]
    assert {t["name"] for t in document["accounts"]["api_tokens"]} == {"my bot", "league sheet"}
    text = json.dumps(document)
    hashes = AccessToken.objects.filter(user=anna).values_list("secret_hash", flat=True)
    assert secret not in text and not any(h in text for h in hashes)
    assert len(document["friends"]["following"]) == 1
    assert len(document["friends"]["blocked"]) == 1, "only whom anna blocked, not who blocked her"
    assert [n["message"] for n in document["notifications"]["notifications"]] == [
        "Round 2 starts soon"
    ]
    [partie] = document["games"]["parties"]
    assert (partie["seat"], partie["total"], partie["place"], partie["rated"]) == (0, 10, 1, True)
    assert document["games"]["abandoned_rated_parties"][0]["kind"] == "left"
    assert len(document["ratings"]["rating_changes"]) == 1
    assert document["ratings"]["ratings"][0]["games"] == 1
    assert [e["tournament"] for e in document["tournaments"]["entries"]] == ["Spring Cup"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.redis
def test_the_export_has_no_hand_of_a_deal_in_progress():
    from rosbi_platform import celery_app

    celery_app.conf.task_always_eager = True
    try:
        players = UserFactory.create_batch(4)
        table = TableFactory(owner=players[0], size=4)
        for player in players:
            lobby.join_table(table.pk, player, invite=table.invite_code)
        lobby.start_table(table.pk, players[0], seed=3)
    finally:
        celery_app.conf.task_always_eager = False
    hands = PartieDeal.objects.get(partie__table=table, number=0).hands
    assert any(hands)
    text = json.dumps(personal_data.export_personal_data(players[1]), default=str)
    assert CARD.findall(text) == []
    assert json.loads(text)["games"]["seats_at_unfinished_tables"][0]["number"] == 1


def test_download_my_data_from_the_profile_page(client, anna):
    client.force_login(anna)
    page = client.get(reverse("accounts:profile")).content.decode()
    assert reverse("accounts:data_export") in page and reverse("accounts:account_delete") in page
    response = client.get(reverse("accounts:data_export"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith('attachment; filename="rosbi-data-anna-')
    assert json.loads(response.content)["accounts"]["account"]["username"] == "anna"


@override_settings(PERSONAL_DATA_EXPORT_RATE="2/h")
def test_the_export_is_throttled_on_the_page_and_the_api_together(client, anna):
    client.force_login(anna)
    assert client.get(reverse("accounts:data_export")).status_code == 200
    assert client.get(reverse("api:me-export")).status_code == 200
    refused = client.get(reverse("accounts:data_export"), follow=True)
    assert refused.redirect_chain[0][0] == reverse("accounts:profile")
    assert "You downloaded your data a short while ago" in refused.content.decode()
    api = client.get(reverse("api:me-export"))
    assert api.status_code == 429 and api.json()["code"] == "throttled"


def test_the_api_export_with_a_token(client, anna):
    secret = tokens.create_token(anna, "reader", ["read"]).secret
    response = client.get(reverse("api:me-export"), HTTP_AUTHORIZATION=f"Bearer {secret}")
    assert response.status_code == 200
    assert response.json()["accounts"]["account"]["username"] == "anna"
    assert client.get(reverse("api:me-export")).status_code == 401


# --------------------------------------------------------------------------- deletion


def others_history(users) -> dict:
    """Everything about the other players that a deletion must leave as it was."""
    ids = [u.pk for u in users]
    return {
        "ratings": sorted(
            PlayerRating.objects.filter(user_id__in=ids).values_list(
                "user_id", "pool", "mu", "sigma", "games", "last_played"
            )
        ),
        "changes": sorted(
            RatingChange.objects.filter(user_id__in=ids).values_list(
                "user_id", "partie_id", "place", "total", "mu_before", "mu_after", "sigma_after"
            )
        ),
        "results": sorted(
            SeatResult.objects.values_list("partie_id", "seat", "user_id", "total", "place")
        ),
        "standings": sorted(
            Standing.objects.values_list("tournament_id", "entry__user_id", "rank", "points")
        ),
    }


@pytest.fixture
def league():
    """Five players, three rated Parties, a finished event: the leaver is ``players[0]``."""
    players = UserFactory.create_batch(5)
    play_rated(players[:4], [10, 20, 30, 40], minutes_ago=90)
    play_rated([players[0], players[2], players[4], BOT], [50, 5, 15, 25], minutes_ago=60)
    play_rated(players[1:5], [8, 18, 28, 38], minutes_ago=30)
    club = ClubFactory()
    event = TournamentFactory(club=club, status=Tournament.Status.FINISHED)
    for rank, player in enumerate(players, start=1):
        entry = Entry.objects.create(tournament=event, user=player)
        Standing.objects.create(
            tournament=event,
            entry=entry,
            rank=rank,
            points=10 - rank,
            penalty=0,
            opponents_points=0,
            table_wins=0,
            rounds_played=3,
            rounds_absent=0,
        )
    return players


def test_deletion_keeps_everyone_elses_results_ratings_and_standings(league):
    leaver, others = league[0], league[1:]
    before = others_history(others)
    leaver_changes = RatingChange.objects.filter(user=leaver).count()

    assert delete_account(leaver) is True

    assert others_history(others) == before
    assert RatingChange.objects.filter(user=leaver).count() == leaver_changes == 2
    # A recompute of the whole ladder from its history gives the very same numbers.
    updates.recompute_all_ratings()
    assert others_history(others) == before


def test_deletion_removes_the_personal_data(client, anna):
    other = UserFactory()
    follow_user(other, anna)
    open_table = TableFactory(owner=anna, size=3)
    lobby.join_table(open_table.pk, anna, seat=0)
    lobby.join_table(open_table.pk, other, seat=1)
    secret = tokens.create_token(anna, "bot", ["read"]).secret
    client.force_login(anna)
    pending = Entry.objects.get(user=anna)

    assert delete_account(anna) is True

    anna.refresh_from_db()
    assert anna.username.startswith("deleted-") and anna.email == ""
    assert not anna.has_usable_password() and not anna.is_active
    assert anna.profile.display_name == DELETED_NAME
    assert not AccessToken.objects.filter(user=anna, revoked_at__isnull=True).exists()
    assert tokens.authenticate_token(secret) is None
    assert not ClubMembership.objects.filter(user=anna).exists()
    assert not Follow.objects.filter(follower=anna).exists()
    assert not Follow.objects.filter(followee=anna).exists()
    assert not Block.objects.filter(blocker=anna).exists()
    assert not Block.objects.filter(blocked=anna).exists()
    assert not Notification.objects.filter(user=anna).exists()
    assert not Seat.objects.filter(user=anna, table__status=Table.Status.OPEN).exists()
    open_table.refresh_from_db()
    assert open_table.owner_id == other.pk
    pending.refresh_from_db()
    assert pending.status == Entry.Status.WITHDRAWN
    assert not Abandonment.objects.filter(user=anna).exists()
    assert (
        SeatResult.objects.filter(started_by=anna).exists()
        or SeatResult.objects.filter(user=anna).exists()
    )
    assert LogEntry.objects.filter(object_id=str(anna.pk), user=anna).exists()
    # The session ended: the profile page asks for a log-in again.
    assert client.get(reverse("accounts:profile")).status_code == 302


def test_deleting_twice_changes_nothing(anna):
    assert delete_account(anna) is True
    anna.refresh_from_db()
    name = anna.username
    assert delete_account(anna) is False
    anna.refresh_from_db()
    assert anna.username == name
    assert LogEntry.objects.filter(object_id=str(anna.pk)).count() == 1


def test_the_last_owner_of_a_club_is_refused_until_they_hand_it_over():
    owner = UserFactory()
    club = ClubFactory(name="Krone")
    MembershipFactory(club=club, user=owner, role=ClubMembership.Role.OWNER)
    MembershipFactory(club=club, role=ClubMembership.Role.MEMBER)
    with pytest.raises(AccountDeletionRefused, match="last owner of Krone"):
        delete_account(owner)
    owner.refresh_from_db()
    assert owner.is_active and ClubMembership.objects.filter(user=owner).exists()

    MembershipFactory(club=club, role=ClubMembership.Role.OWNER)
    assert delete_account(owner) is True


def test_a_player_at_a_table_in_play_is_refused():
    players = UserFactory.create_batch(3)
    table = TableFactory(owner=players[0], size=3, name="Stammtisch")
    Seat.objects.filter(table=table, number=0).update(user=players[0])
    Table.objects.filter(pk=table.pk).update(status=Table.Status.PLAYING)
    with pytest.raises(AccountDeletionRefused, match="Stammtisch"):
        delete_account(players[0])
    players[0].refresh_from_db()
    assert players[0].is_active and players[0].deleted_at is None


@pytest.mark.parametrize(
    ("language", "heading", "wrong"),
    [
        ("en", "Delete my account", "That is not your password."),
        ("de", "Mein Konto löschen", "Das ist nicht dein Passwort."),
    ],
)
def test_the_delete_page_asks_for_the_password_in_both_languages(client, language, heading, wrong):
    player = UserFactory()
    client.force_login(player)
    client.cookies["django_language"] = language
    page = client.get(reverse("accounts:account_delete"))
    assert heading in page.content.decode()
    refused = client.post(reverse("accounts:account_delete"), {"password": "nope", "confirm": "on"})
    assert refused.status_code == 400 and wrong in refused.content.decode()
    player.refresh_from_db()
    assert player.is_active
    done = client.post(reverse("accounts:account_delete"), {"password": PASSWORD, "confirm": "on"})
    assert done.status_code == 302
    player.refresh_from_db()
    assert player.deleted_at is not None


def test_the_delete_page_shows_the_refusal():
    owner = UserFactory()
    MembershipFactory(club=ClubFactory(name="Krone"), user=owner, role=ClubMembership.Role.OWNER)
    from django.test import Client

    client = Client()
    client.force_login(owner)
    page = client.post(reverse("accounts:account_delete"), {"password": PASSWORD, "confirm": "on"})
    assert page.status_code == 400 and "last owner of Krone" in page.content.decode()


def test_the_api_deletes_with_the_password_and_refuses_clearly(client):
    owner = UserFactory()
    membership = MembershipFactory(
        club=ClubFactory(name="Krone"), user=owner, role=ClubMembership.Role.OWNER
    )
    client.force_login(owner)
    url = reverse("api:me-delete")
    wrong = client.post(url, {"password": "nope"}, content_type="application/json")
    assert wrong.status_code == 400 and wrong.json()["code"] == "invalid"
    refused = client.post(url, {"password": PASSWORD}, content_type="application/json")
    assert refused.status_code == 409 and "last owner of Krone" in refused.json()["detail"]
    membership.delete()
    done = client.post(url, {"password": PASSWORD}, content_type="application/json")
    assert done.status_code == 200 and done.json() == {"deleted": True}
