"""The admin writes to live tables only through the games actions.

A change form cannot set what the actions own (status, seats, versions, house rules); the admin
actions start tables and hand off results through ``games.lobby`` and ``games.handoff``, so
the events and versions are those the site would write.
"""

from __future__ import annotations

import pytest
from django.test import Client

from games import bot_turns, lobby
from games.models import Partie, Seat, Table, TableEvent
from games.signals import partie_finished
from tests.games.factories import TableFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff() -> Client:
    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def change_form_data(table: Table, **overrides) -> dict[str, str]:
    """What a browser would POST from the change form, with the seats' inline formset."""
    seats = list(Seat.objects.filter(table=table).order_by("number"))
    data = {
        "name": table.name,
        "public": "on" if table.public else "",
        "turn_seconds": str(table.turn_seconds),
        "bot_level": table.bot_level,
        "seats-TOTAL_FORMS": str(len(seats)),
        "seats-INITIAL_FORMS": str(len(seats)),
        "seats-MIN_NUM_FORMS": "0",
        "seats-MAX_NUM_FORMS": "1000",
    }
    for index, seat in enumerate(seats):
        data[f"seats-{index}-id"] = str(seat.pk)
        data[f"seats-{index}-table"] = str(table.pk)
    data.update(overrides)
    return data


def state_of(table: Table) -> tuple:
    table.refresh_from_db()
    seats = Seat.objects.filter(table=table).order_by("number")
    return (
        table.status,
        table.size,
        table.doubling,
        table.layout,
        table.version,
        table.state_version,
        table.rated,
        [(s.user_id, s.bot_level, s.away) for s in seats],
        TableEvent.objects.filter(table=table).count(),
    )


def test_posting_another_status_or_other_seats_leaves_an_open_table_unchanged(staff):
    owner, intruder = UserFactory(), UserFactory()
    table = lobby.create_table(owner=owner, size=3, turn_seconds=30)
    before = state_of(table)
    data = change_form_data(
        table,
        status="playing",
        size="4",
        doubling="",
        layout="free",
        version="99",
        rated="on",
        **{"seats-1-user": str(intruder.pk), "seats-1-bot_level": "strong", "seats-0-away": "on"},
    )

    response = staff.post(f"/admin/games/table/{table.pk}/change/", data)

    assert response.status_code == 302, response.content.decode()[:2000]
    assert state_of(table) == before


def test_posting_to_a_started_table_changes_nothing_not_even_its_name(staff):
    owner, intruder = UserFactory(), UserFactory()
    table = lobby.create_table(owner=owner, size=3, turn_seconds=30)
    lobby.start_table(table.pk, owner, fill_with_bots=True, seed=4)
    before = state_of(table)
    name = table.name
    data = change_form_data(
        table,
        name="Renamed",
        turn_seconds="5",
        status="finished",
        **{"seats-0-user": str(intruder.pk)},
    )

    response = staff.post(f"/admin/games/table/{table.pk}/change/", data)

    assert response.status_code == 302, response.content.decode()[:2000]
    assert state_of(table) == before
    assert table.name == name and table.turn_seconds == 30


def test_an_open_tables_settings_change_through_the_lobby_action(staff):
    owner = UserFactory()
    table = lobby.create_table(owner=owner, size=3, turn_seconds=30)
    before = state_of(table)

    response = staff.post(
        f"/admin/games/table/{table.pk}/change/",
        change_form_data(table, name="Club night", turn_seconds="60", bot_level="strong"),
    )

    assert response.status_code == 302
    assert state_of(table) == before  # settings are no play: no event, no version
    assert (table.name, table.turn_seconds, table.bot_level) == ("Club night", 60, "strong")


def test_the_start_action_starts_open_tables_through_the_lobby_action(staff):
    owner, guest = UserFactory(), UserFactory()
    table = lobby.create_table(owner=owner, size=4, turn_seconds=30)
    lobby.join_table(table.pk, guest)
    table.refresh_from_db()
    version = table.version
    started_elsewhere = TableFactory(owner=owner, size=3)
    lobby.start_table(started_elsewhere.pk, owner, fill_with_bots=True, seed=2)
    started_elsewhere.refresh_from_db()
    events_elsewhere = TableEvent.objects.filter(table=started_elsewhere).count()

    response = staff.post(
        "/admin/games/table/",
        {
            "action": "start_with_bots",
            "_selected_action": [str(table.pk), str(started_elsewhere.pk)],
        },
    )

    assert response.status_code == 302
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and table.version > version
    started = TableEvent.objects.get(table=table, kind="partie_started")
    assert started.version == version + 1
    assert [e.version for e in TableEvent.objects.filter(table=table).order_by("version")] == list(
        range(1, table.version + 1)
    )
    seats = Seat.objects.filter(table=table).order_by("number")
    assert [s.user_id for s in seats[:2]] == [owner.pk, guest.pk]
    assert [s.bot_level for s in seats[2:]] == [table.bot_level] * 2
    assert Partie.objects.filter(table=table).exists()
    # A table that had already started is left as it was.
    assert TableEvent.objects.filter(table=started_elsewhere).count() == events_elsewhere


def test_the_hand_off_action_sends_each_finished_partie_once(staff):
    received: list[int] = []

    def receiver(sender, outcome, **kwargs):
        received.append(outcome.partie_id)

    owner = UserFactory()
    table = TableFactory(owner=owner, size=3, fill_with_bots=True, bot_level="random")
    lobby.start_table(table.pk, owner, seed=7)
    bot_turns.play_bot_turns(table.pk)  # the test's transaction never commits: no task runs
    partie = Partie.objects.get(table=table)
    assert partie.finished_at is not None and not partie.handed_off

    partie_finished.connect(receiver)
    try:
        for _ in range(2):
            response = staff.post(
                "/admin/games/table/",
                {"action": "hand_off_results", "_selected_action": [str(table.pk)]},
            )
            assert response.status_code == 302
    finally:
        partie_finished.disconnect(receiver)

    partie.refresh_from_db()
    assert partie.handed_off and received == [partie.pk]


def test_the_chat_report_queue_handles_reports_through_the_services(staff):
    from games import reports
    from games.models import ChatMessage, ChatReport, TableMute

    owner, rude, reporter = UserFactory(), UserFactory(), UserFactory()
    table = lobby.create_table(owner=owner, size=3)
    lines = [
        ChatMessage.objects.create(table=table, author=rude, channel="players", text=text)
        for text in ("rude line", "fine line")
    ]
    rude_report = reports.report_chat_message(table.pk, lines[0].pk, reporter, "insult")
    fine_report = reports.report_chat_message(table.pk, lines[1].pk, reporter)

    queue = staff.get("/admin/games/chatreport/?status__exact=open")
    assert queue.status_code == 200
    assert "rude line" in queue.content.decode() and "fine line" in queue.content.decode()

    staff.post(
        "/admin/games/chatreport/",
        {"action": "dismiss", "_selected_action": [fine_report.pk]},
    )
    staff.post(
        "/admin/games/chatreport/",
        {"action": "mute_author", "_selected_action": [rude_report.pk]},
    )
    statuses = dict(ChatReport.objects.values_list("pk", "status"))
    assert statuses == {fine_report.pk: "dismissed", rude_report.pk: "muted"}
    assert TableMute.objects.filter(table=table, user=rude).exists()
    assert staff.get("/admin/games/chatreport/add/").status_code == 403


def test_abandonments_are_listed_read_only_and_an_unfair_one_can_be_deleted(staff):
    from games.models import Abandonment
    from tests.ratings.factories import BOT, finished_partie

    player = UserFactory(username="quitter")
    partie = finished_partie([player, BOT, BOT], [5, 10, 15])
    row = Abandonment.objects.create(user=player, partie=partie, kind=Abandonment.Kind.LEFT)
    listing = staff.get("/admin/games/abandonment/")
    assert listing.status_code == 200 and "quitter" in listing.content.decode()
    assert staff.get("/admin/games/abandonment/add/").status_code == 403
    staff.post(f"/admin/games/abandonment/{row.pk}/delete/", {"post": "yes"})
    assert not Abandonment.objects.exists()
