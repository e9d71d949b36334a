"""API v1 for events: entries by the player, events announced and edited by their club's
organisers, rounds with seating, standings and CSV exports, score sheets, notices."""

from __future__ import annotations

import csv
import io

import pytest
from django.utils import timezone

from rosbi_platform.accounts.services import mark_as_bot
from rosbi_platform.notifications.models import Notification
from tests.api_clients import assert_error, session_client, token_client
from tests.platform.factories import NotificationFactory
from tests.tournaments.factories import ClubFactory, UserFactory
from tests.tournaments.helpers import PLENTY, open_event, organiser_of, random_sheet, start_now
from tournaments import scheduler
from tournaments.models import Entry, PhysicalResult, RoundTable, Tournament

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def physical_event(eager_celery):
    tournament, organiser = open_event(5, slug="night", mode=Tournament.Mode.PHYSICAL)
    start_now(tournament, organiser)
    scheduler.advance_tournament(tournament.pk)
    return tournament, organiser


def test_a_player_registers_checks_in_and_withdraws(eager_celery):
    tournament, _organiser = open_event(0, slug="signup")
    player = UserFactory()
    client = token_client(player, ["read", "play"])
    entry = client.post(f"/api/v1/tournaments/{tournament.slug}/register", {}, format="json")
    assert entry.status_code == 201 and entry.json()["status"] == "registered"
    again = client.post(f"/api/v1/tournaments/{tournament.slug}/register", {}, format="json")
    assert "already registered" in assert_error(again, 400)["detail"]
    checked = client.post(f"/api/v1/tournaments/{tournament.slug}/check-in", format="json")
    assert checked.json()["status"] == "checked_in"
    detail = client.get(f"/api/v1/tournaments/{tournament.slug}").json()
    assert detail["your_entry"]["status"] == "checked_in" and detail["can_manage"] is False
    assert detail["entrants"] == 1
    gone = client.post(f"/api/v1/tournaments/{tournament.slug}/withdraw", format="json").json()
    assert gone["entry"]["status"] == "withdrawn" and gone["reseated_round"] is None
    assert Entry.objects.get(user=player).status == Entry.Status.WITHDRAWN


def test_bot_accounts_enter_only_events_that_allow_them(eager_celery):
    closed, _organiser = open_event(0, slug="humans")
    welcoming, _organiser = open_event(0, slug="bots-welcome", allow_bots=True)
    bot = UserFactory()
    mark_as_bot(bot)
    client = token_client(bot)
    refused = client.post(f"/api/v1/tournaments/{closed.slug}/register", {}, format="json")
    assert "bot accounts" in assert_error(refused, 400)["detail"]
    taken = client.post(f"/api/v1/tournaments/{welcoming.slug}/register", {}, format="json")
    assert taken.status_code == 201


def test_organisers_announce_and_edit_their_clubs_events_only():
    club, other_club = ClubFactory(slug="home"), ClubFactory(slug="away")
    organiser, stranger = organiser_of(club), organiser_of(other_club)
    starts = (timezone.now() + PLENTY).isoformat()
    event = {"club": "home", "name": "Friday", "slug": "friday", "starts_at": starts, "rounds": 2}
    refused = token_client(stranger).post("/api/v1/tournaments", event, format="json")
    assert_error(refused, 403)
    no_scope = token_client(organiser, ["read", "play"]).post(
        "/api/v1/tournaments", event, format="json"
    )
    assert "tournament:write" in assert_error(no_scope, 403)["detail"]
    created = token_client(organiser, ["tournament:write"]).post(
        "/api/v1/tournaments", event, format="json"
    )
    assert created.status_code == 201, created.content
    assert created.json()["club"] == "home" and created.json()["can_manage"] is True
    tournament = Tournament.objects.get(slug="friday")
    assert tournament.round_set.count() == 2

    edit = token_client(organiser).patch(
        "/api/v1/tournaments/friday", {"capacity": 12, "allow_bots": True}, format="json"
    )
    assert edit.status_code == 200 and edit.json()["capacity"] == 12
    assert_error(
        token_client(stranger).patch("/api/v1/tournaments/friday", {"capacity": 2}, format="json"),
        403,
    )
    bad = token_client(organiser).patch(
        "/api/v1/tournaments/friday", {"time_zone": "Mars/Olympus"}, format="json"
    )
    assert list(assert_error(bad, 400, "invalid")["errors"]) == ["time_zone"]
    tournament.refresh_from_db()
    assert (tournament.capacity, tournament.allow_bots, tournament.time_zone) == (
        12,
        True,
        "Europe/Berlin",
    )
    listed = session_client().get("/api/v1/tournaments?club=home").json()
    assert [t["slug"] for t in listed["results"]] == ["friday"]


def test_rounds_standings_and_csv_exports(physical_event):
    tournament, _organiser = physical_event
    client = session_client()
    rounds = client.get(f"/api/v1/tournaments/{tournament.slug}/rounds").json()
    assert rounds[0]["status"] == "started"
    seated = [seat for table in rounds[0]["tables"] for seat in table["seats"]]
    assert len(seated) == 5 and all(table["physical"] for table in rounds[0]["tables"])
    assert rounds[1]["tables"] == []
    standings = client.get(f"/api/v1/tournaments/{tournament.slug}/standings").json()
    assert set(standings) == {"version", "rows"}
    exported = client.get(f"/api/v1/tournaments/{tournament.slug}/results.csv")
    assert exported["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(exported.content.decode())))
    assert rows[0][:3] == ["tournament", "round", "table"] and len(rows) == 6
    header = client.get(f"/api/v1/tournaments/{tournament.slug}/standings.csv").content.decode()
    assert header.splitlines()[0].startswith("tournament,rank,player")


def test_score_sheets_are_submitted_and_confirmed_by_two_people(physical_event):
    tournament, organiser = physical_event
    table = RoundTable.objects.filter(round__tournament=tournament).order_by("number").first()
    player = table.seats.get(seat=0).entry.user
    sheet = random_sheet(table.size, "api")
    outsider = token_client(UserFactory())
    assert_error(
        outsider.post(
            f"/api/v1/round-tables/{table.pk}/sheets", {"penalties": sheet}, format="json"
        ),
        403,
    )
    submitted = token_client(player).post(
        f"/api/v1/round-tables/{table.pk}/sheets", {"penalties": sheet}, format="json"
    )
    assert submitted.status_code == 201, submitted.content
    sheet_id = submitted.json()["id"]
    own = token_client(player).post(f"/api/v1/sheets/{sheet_id}/confirm", format="json")
    assert "second person" in assert_error(own, 400)["detail"]
    confirmed = token_client(organiser).post(f"/api/v1/sheets/{sheet_id}/confirm", format="json")
    assert confirmed.json()["confirmed"] is True
    assert PhysicalResult.objects.get(pk=sheet_id).confirmed_by == organiser
    listed = token_client(player).get(f"/api/v1/round-tables/{table.pk}/sheets").json()
    assert [s["id"] for s in listed] == [sheet_id]


def test_notices_are_listed_and_marked_read_for_their_owner_only(eager_celery):
    tournament, _organiser = open_event(0, slug="notices")
    me, other = UserFactory(), UserFactory()
    mine = NotificationFactory(user=me, tournament_id=tournament.pk, message="Hi")
    theirs = NotificationFactory(user=other, tournament_id=tournament.pk, message="Yo")
    client = token_client(me)
    listed = client.get("/api/v1/notifications").json()
    assert [n["id"] for n in listed["results"]] == [mine.pk] and not listed["results"][0]["read"]
    assert listed["results"][0]["tournament"] == tournament.slug
    marked = client.post(
        "/api/v1/notifications/read", {"ids": [mine.pk, theirs.pk]}, format="json"
    ).json()
    assert marked == {"marked": 1}
    assert Notification.objects.get(pk=theirs.pk).read_at is None
    assert client.get("/api/v1/notifications?unread=1").json()["count"] == 0
