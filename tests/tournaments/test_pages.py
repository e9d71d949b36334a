"""Tournament pages: live page, times in two zones, print-outs, sheets, club page, websocket."""

from __future__ import annotations

from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from channels.testing.websocket import WebsocketCommunicator
from django.conf import settings
from django.db import connection
from django.urls import reverse

from rosbi_platform.accounts.models import Profile
from rosbi_platform.asgi import application
from tests.tournaments.factories import MembershipFactory, UserFactory
from tests.tournaments.helpers import open_event, random_sheet, start_now
from tournaments import scheduler
from tournaments.models import Entry, PhysicalResult, RoundTable, Tournament

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def physical_event(eager_celery):
    tournament, organiser = open_event(
        5, slug="night", mode=Tournament.Mode.PHYSICAL, time_zone="America/New_York"
    )
    start_now(tournament, organiser)
    scheduler.advance_tournament(tournament.pk)
    return tournament, organiser


def test_live_page_shows_round_seating_standings_and_both_time_zones(physical_event, client):
    tournament, _organiser = physical_event
    viewer = UserFactory()
    Profile.objects.filter(user=viewer).update(time_zone="Asia/Tokyo")
    client.force_login(viewer)

    body = client.get(reverse("tournaments:detail", args=[tournament.slug])).content.decode()

    assert "Round 1" in body and "Table 1" in body
    assert "America/New_York" in body and "Asia/Tokyo" in body
    assert f"/ws/tournaments/{tournament.pk}/" in body
    assert "Score sheet" in body
    state = client.get(reverse("tournaments:state", args=[tournament.slug])).json()
    assert state["round"]["number"] == 1 and state["round"]["status"] == "started"


def test_player_registers_checks_in_and_withdraws_through_the_page(eager_celery, client):
    tournament, _organiser = open_event(0, slug="signup")
    player = UserFactory()
    client.force_login(player)

    client.post(reverse("tournaments:action", args=[tournament.slug, "register"]))
    client.post(reverse("tournaments:action", args=[tournament.slug, "check-in"]))
    assert Entry.objects.get(user=player).status == Entry.Status.CHECKED_IN
    client.post(reverse("tournaments:action", args=[tournament.slug, "withdraw"]))
    assert Entry.objects.get(user=player).status == Entry.Status.WITHDRAWN


def test_print_page_has_a_seating_list_and_a_sheet_per_physical_table(physical_event, client):
    tournament, _organiser = physical_event
    body = client.get(reverse("tournaments:print", args=[tournament.slug, 1])).content.decode()
    assert "Seating list" in body
    assert (
        body.count("score-sheet page-break")
        == RoundTable.objects.filter(round__tournament=tournament).count()
    )
    assert "tournaments.css" in body
    css = (Path(settings.BASE_DIR) / "static/css/tournaments.css").read_text()
    assert "@media print" in css


def test_score_sheet_page_submits_and_confirms(physical_event, client):
    tournament, organiser = physical_event
    table = RoundTable.objects.filter(round__tournament=tournament).order_by("number").first()
    player = table.seats.get(seat=0).entry.user
    rows = random_sheet(table.size, "page")
    client.force_login(player)
    url = reverse("tournaments:sheet", args=[table.pk])
    data = {f"d{d}s{s}": rows[d][s] for d in range(6) for s in range(table.size)}

    assert client.post(url, data).status_code == 302
    sheet = PhysicalResult.objects.get(table=table)
    assert sheet.penalties == rows and sheet.submitted_by == player

    client.force_login(organiser)
    client.post(reverse("tournaments:confirm_sheet", args=[sheet.pk]))
    table.refresh_from_db()
    assert table.status == RoundTable.Status.FINISHED

    bad = dict(data, d5s0=7)
    page = client.post(url, bad)
    assert page.status_code == 200 and "Deal 6 (Rosbiratschka)" in page.content.decode()
    client.force_login(UserFactory())
    assert client.get(url).status_code == 403


def test_club_page_lists_events_and_members(physical_event, client):
    tournament, organiser = physical_event
    member = MembershipFactory(club=tournament.club).user
    old = client.get(reverse("tournaments:club", args=[tournament.club.slug]))
    assert old.status_code == 301 and old["Location"] == f"/clubs/{tournament.club.slug}/"
    body = client.get(reverse("clubs:detail", args=[tournament.club.slug])).content.decode()
    assert tournament.name in body
    assert member.profile.public_name in body and organiser.profile.public_name in body
    assert "Organiser</span>" in body


@pytest.mark.redis
async def test_standings_are_pushed_over_the_websocket_after_a_recompute(eager_celery):
    tournament, organiser = await sync_to_async(open_event)(
        4, slug="live", mode=Tournament.Mode.PHYSICAL
    )
    await sync_to_async(start_now)(tournament, organiser)
    await sync_to_async(scheduler.advance_tournament)(tournament.pk)
    communicator = WebsocketCommunicator(
        application,
        f"/ws/tournaments/{tournament.pk}/",
        headers=[(b"origin", b"http://localhost:8000")],
    )
    connected, _ = await communicator.connect()
    assert connected
    first = await communicator.receive_json_from(timeout=5)
    assert first["type"] == "standings"

    table = await sync_to_async(RoundTable.objects.get)(round__tournament=tournament)

    def enter() -> list[int]:
        from tests.tournaments.helpers import enter_and_confirm

        return enter_and_confirm(table, organiser, "ws")

    totals = await sync_to_async(enter)()
    frames = []
    while True:
        frame = await communicator.receive_json_from(timeout=10)
        frames.append(frame)
        if (
            frame["type"] == "standings"
            and frame["rows"]
            and frame["rows"][0]["penalty"] == min(totals)
        ):
            break
    assert len(frame["rows"]) == 4
    await communicator.disconnect()
    await sync_to_async(lambda: connection.close())()  # the helper thread's own connection
