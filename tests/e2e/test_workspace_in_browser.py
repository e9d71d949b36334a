"""An organiser runs a club evening from a phone (390x844): a preset event in four steps,
entrants checked in at the door in the workspace, round 1 seated, a substitution, the round
started and played (bots at the online table, a score sheet at the physical one), and a
result amended after the event has closed; the workspace shows the amended totals. Every
page fits the screen and axe-core finds no serious problem."""

from __future__ import annotations

import datetime as dt
import time
import zoneinfo

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from tests.e2e.screens import VIEWPORTS, axe_problems, session_context, shoot, sideways_scroll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BERLIN = zoneinfo.ZoneInfo("Europe/Berlin")


def fits(page) -> None:
    assert sideways_scroll(page) is None
    assert axe_problems(page) == []


def test_an_organiser_runs_a_club_evening_from_a_phone(chromium, asgi_live_server):
    from tests.tournaments.factories import ClubFactory, UserFactory
    from tests.tournaments.helpers import (
        enter_and_confirm,
        organiser_of,
        players_time_out,
        random_sheet,
    )
    from tournaments import entries, scheduler
    from tournaments.models import Entry, Round, RoundSeat, RoundTable, Tournament

    club = ClubFactory(name="Rosbi-Freunde Kreuzberg", slug="kreuzberg")
    organiser = organiser_of(club)
    base = asgi_live_server.url
    context = session_context(chromium, base, organiser, VIEWPORTS["390x844"], "en", axe=True)
    page = context.new_page()
    try:
        # Steps 1-4: the list, "New event", the preset, the form (preview, then create).
        page.goto(base + reverse("tournaments:organised"))
        page.get_by_role("link", name="New event").click()
        fits(page)
        page.get_by_role("link", name="Club evening: Swiss, 4 rounds").click()
        fits(page)
        page.get_by_label("Name").fill("Thursday club evening")
        start = (timezone.now() + dt.timedelta(hours=1)).astimezone(BERLIN)
        page.get_by_label("starts at (in the event's time zone)").fill(
            start.strftime("%Y-%m-%dT%H:%M")
        )
        page.locator("#id_time_zone").select_option("Europe/Berlin")
        page.locator("#id_rounds").fill("1")
        page.locator("#scoring summary").click()  # folded on a phone
        page.get_by_label("Points per place at a table of 4").fill("4, 2, 1, 0")
        page.get_by_role("button", name="Preview").click()
        assert "Table of 4: 4 · 2 · 1 · 0" in page.locator(".points-preview").inner_text()
        fits(page)
        shoot(page, "workspace-new-390x844-en", full_page=True)
        page.get_by_role("button", name="Create the event").click()
        page.wait_for_url("**/organise/")
        fits(page)

        tournament = Tournament.objects.get(club=club)
        assert (tournament.format, tournament.mode, tournament.rounds) == ("swiss", "hybrid", 1)
        assert tournament.placement_points == {"4": [4.0, 2.0, 1.0, 0.0]}
        assert tournament.registration == Tournament.Window.OPEN

        # Entrants register on their own (the service behind the Register button).
        online = UserFactory.create_batch(4)
        at_tables = UserFactory.create_batch(4)
        for user in online:
            entries.register_entry(tournament.pk, user, plays_online=True)
        for user in at_tables:
            entries.register_entry(tournament.pk, user, plays_online=False)
        UserFactory(username="ersatz")  # the substitute, entered at the door

        # At the door: open check-in, check everyone in.
        page.reload()
        page.get_by_role("button", name="Open check-in").click()
        expect(page.locator(".messages")).to_contain_text("Check-in is open.")
        for user in online + at_tables:
            page.get_by_role("button", name=f"Check in {user.profile.public_name}").click()
            page.wait_for_load_state()
            assert (
                f"{user.profile.public_name} is checked in."
                in page.locator(".messages").inner_text()
            )
        assert Entry.objects.filter(tournament=tournament, status="checked_in").count() == 8
        fits(page)

        # Round 1 seated; a player at the physical table is replaced by a substitute.
        page.get_by_role("button", name="Seat round 1").click()
        expect(page.locator(".messages")).to_contain_text("Round 1 is seated.")
        round_one = Round.objects.get(tournament=tournament, number=1)
        assert round_one.status == Round.Status.SEATED
        physical = RoundTable.objects.get(round=round_one, physical=True)
        leaving = physical.seats.order_by("seat").last().entry
        page.locator("#substitute summary").click()
        page.get_by_label("Replace").select_option(str(leaving.pk))
        page.get_by_label("with (user name or display name)").fill("ersatz")
        page.get_by_role("button", name="Substitute", exact=True).click()
        expect(page.locator(".messages")).to_contain_text("Ersatz takes the seat of")
        expect(page.locator("#round")).to_contain_text("Ersatz")
        fits(page)
        shoot(page, "workspace-seated-390x844-en", full_page=True)

        # Started: the online table is played by bots, the physical one enters its sheet.
        page.get_by_role("button", name="Start round 1 now").click()
        expect(page.locator(".messages")).to_contain_text("Round 1 has started.")
        enter_and_confirm(physical, organiser, "club-evening")
        online_table = RoundTable.objects.get(round=round_one, physical=False)
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            online_table.refresh_from_db()
            if online_table.status == RoundTable.Status.FINISHED:
                break
            players_time_out()
            time.sleep(0.2)
        scheduler.advance_tournament(tournament.pk)
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.FINISHED

        # After the close only the organisers amend: a corrected sheet, confirmed.
        page.goto(base + reverse("tournaments:workspace", args=[tournament.slug]))
        page.get_by_role("link", name="Amend result").click()
        corrected = random_sheet(4, "corrected")
        for deal, row in enumerate(corrected):
            for seat, value in enumerate(row):
                page.locator(f"#id_d{deal}s{seat}").fill(str(value))
        page.get_by_role("button", name="Store a correction").click()
        expect(page.locator(".messages")).to_contain_text("Score sheet stored")
        page.get_by_role("button", name="Confirm").click()
        expect(page.locator(".messages")).to_contain_text("Confirmed: the result counts.")
        page.goto(base + reverse("tournaments:workspace", args=[tournament.slug]))
        fits(page)
        shoot(page, "workspace-finished-390x844-en", full_page=True)
        physical_line = page.locator(f"[data-result-table='1-{physical.number}']").inner_text()
        names_and_totals = [
            (seat.entry.user.profile.public_name, total)
            for seat, total in zip(
                RoundSeat.objects.filter(table=physical)
                .order_by("seat")
                .select_related("entry__user__profile"),
                [sum(column) for column in zip(*corrected, strict=True)],
                strict=True,
            )
        ]
        for name, total in names_and_totals:
            assert f"{name} {total}" in physical_line
        online_line = page.locator(f"[data-result-table='1-{online_table.number}']").inner_text()
        for seat in RoundSeat.objects.filter(table=online_table).select_related(
            "entry__user__profile"
        ):
            assert f"{seat.entry.user.profile.public_name} {seat.total}" in online_line
        assert "Ersatz" in physical_line
        assert tournament.audit.filter(action="amend_result", actor=organiser).count() == 1
    finally:
        context.close()
