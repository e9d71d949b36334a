"""The notification centre: the list (newest first, by pages), marking read with a POST that
needs its CSRF token, the switches form, and the unread count in the header of every page in
both languages, for one indexed query."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rosbi_platform.accounts.models import Profile
from rosbi_platform.notifications import selectors
from rosbi_platform.notifications.models import Kind, Notification
from tests.platform.factories import NotificationFactory, UserFactory

pytestmark = [pytest.mark.django_db]


def unread_in_header(html: str) -> str | None:
    found = re.search(r'data-ref="unread-count"[^>]*>(\d+)<', html)
    return found.group(1) if found else None


@pytest.fixture
def me(client):
    user = UserFactory()
    client.force_login(user)
    return user


def test_the_header_shows_the_unread_count_on_every_page(client, me):
    NotificationFactory.create_batch(3, user=me)
    NotificationFactory(user=me, read_at="2026-12-01T10:00Z")
    NotificationFactory()  # someone else's

    for name in ("home", "tournaments:list", "games:lobby", "notifications:list"):
        html = client.get(reverse(name)).content.decode()
        assert unread_in_header(html) == "3", name
        assert "Notifications: 3 unread" in html


def test_the_header_count_in_german(client, me):
    NotificationFactory.create_batch(2, user=me)
    client.cookies["django_language"] = "de"

    html = client.get(reverse("home")).content.decode()

    assert unread_in_header(html) == "2"
    assert "Benachrichtigungen: 2 ungelesen" in html


def test_nothing_unread_shows_no_number_and_visitors_no_link(client):
    user = UserFactory()
    NotificationFactory(user=user, read_at="2026-12-01T10:00Z")
    client.force_login(user)
    html = client.get(reverse("home")).content.decode()
    assert unread_in_header(html) is None and 'data-ref="notifications-link"' in html

    client.logout()
    html = client.get(reverse("home")).content.decode()
    assert 'data-ref="notifications-link"' not in html


def test_the_count_costs_one_indexed_query_per_page(client, me):
    NotificationFactory.create_batch(30, user=me)
    client.get(reverse("home"))  # warm the session and caches

    with CaptureQueriesContext(connection) as queries:
        client.get(reverse("home"))

    touching = [q["sql"] for q in queries if "notifications_notification" in q["sql"]]
    assert len(touching) == 1 and "COUNT(" in touching[0]
    with connection.cursor() as cursor:
        # On a table this small the planner reads it whole; without that choice the count
        # must use the partial index, not scan the person's read notifications.
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN " + touching[0].replace("%s", str(me.pk)))
        plan = " ".join(row[0] for row in cursor.fetchall())
    assert "notifications_unread" in plan


def test_the_list_is_newest_first_and_by_pages(client, me):
    made = [NotificationFactory(user=me, message=f"Note {n}") for n in range(25)]

    first = client.get(reverse("notifications:list")).content.decode()
    second = client.get(reverse("notifications:list") + "?page=2").content.decode()

    shown = re.findall(r"Note (\d+)</a>", first)
    assert shown == [str(n) for n in range(24, 4, -1)]
    assert re.findall(r"Note (\d+)</a>", second) == [str(n) for n in range(4, -1, -1)]
    assert "Page 1 of 2" in first and 'rel="next"' in first
    assert len(made) == 25


def test_the_list_in_german(client, me):
    NotificationFactory(user=me, kind=Kind.TABLE_READY)
    client.cookies["django_language"] = "de"
    html = client.get(reverse("notifications:list")).content.decode()
    assert "<h1>Benachrichtigungen</h1>" in html and "Alle als gelesen markieren" in html


def test_marking_one_and_all_read(client, me):
    first, second, third = (NotificationFactory(user=me) for _ in range(3))

    response = client.post(
        reverse("notifications:read", args=[second.pk]), {"next": "/notifications/?page=1"}
    )
    assert response.status_code == 302 and response["Location"] == "/notifications/?page=1"
    assert selectors.unread_count(me) == 2
    assert Notification.objects.get(pk=second.pk).read_at is not None

    client.post(reverse("notifications:read_all"), {"next": "https://evil.example/"})
    assert selectors.unread_count(me) == 0
    assert {first.pk, third.pk} <= set(
        Notification.objects.filter(read_at__isnull=False).values_list("pk", flat=True)
    )


def test_someone_elses_notification_stays_unread(client, me):
    theirs = NotificationFactory()
    client.post(reverse("notifications:read", args=[theirs.pk]))
    client.post(reverse("notifications:read_all"))
    assert Notification.objects.get(pk=theirs.pk).read_at is None


def test_marking_read_needs_a_post_with_its_csrf_token():
    user = UserFactory()
    notification = NotificationFactory(user=user)
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)

    assert strict.get(reverse("notifications:read", args=[notification.pk])).status_code == 405
    assert strict.post(reverse("notifications:read_all")).status_code == 403
    assert selectors.unread_count(user) == 1

    page = strict.get(reverse("notifications:list")).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    response = strict.post(reverse("notifications:read_all"), {"csrfmiddlewaretoken": token})
    assert response.status_code == 302 and selectors.unread_count(user) == 0


def test_the_pages_need_a_login(client):
    for name in ("notifications:list", "notifications:preferences"):
        response = client.get(reverse(name))
        assert response.status_code == 302 and "/login/" in response["Location"]


def test_the_switches_are_saved_and_shown(client, me):
    html = client.get(reverse("notifications:preferences")).content.decode()
    assert 'name="round_soon-site" id="id_round_soon-site"' in html
    assert "Results posted" in html

    data = {f"{kind}-site": "on" for kind in ("table_ready", "your_turn")}
    data["table_ready-email"] = "on"
    response = client.post(reverse("notifications:preferences"), data)

    assert response.status_code == 302
    assert selectors.channels_for(me, Kind.TABLE_READY) == (True, True)
    assert selectors.channels_for(me, Kind.YOUR_TURN) == (True, False)
    assert selectors.channels_for(me, Kind.CANCELLED) == (False, False)
    html = client.get(reverse("notifications:preferences")).content.decode()
    assert re.search(r'name="table_ready-email"[^>]*checked', html)
    assert not re.search(r'name="your_turn-email"[^>]*checked', html)


def test_the_switches_page_in_german(client, me):
    Profile.objects.filter(user=me).update(language="de")
    client.cookies["django_language"] = "de"
    html = client.get(reverse("notifications:preferences")).content.decode()
    assert "Per E-Mail" in html and "Ergebnisse veröffentlicht" in html
