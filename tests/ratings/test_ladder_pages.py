"""Ladder pages: leaderboard, queue widget and its views, profile with SVG chart, collusion."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from ratings import ranked_queue, recording, seasons, updates
from ratings.models import LadderQueueEntry
from tests.games.factories import UserFactory
from tests.ratings.factories import BOT, PlayerRatingFactory, finished_partie, outcome_of

pytestmark = pytest.mark.django_db


def play(players, totals, finished_at, left=frozenset()):
    partie = finished_partie(players, totals, finished_at, left=left)
    recording.record_finished_partie(outcome_of(partie))
    return partie


def test_ladder_lists_eligible_players_and_my_neighbourhood(client):
    recent = timezone.now() - dt.timedelta(days=1)
    top = PlayerRatingFactory(mu=1888.4, sigma=70, games=30, last_played=recent)
    newbie = PlayerRatingFactory(mu=1530, sigma=250, games=3, last_played=recent)
    client.force_login(newbie.user)
    page = client.get(reverse("ratings:ladder")).content.decode()
    assert "1888" in page and top.user.profile.display_name in page
    assert "1530?" in page and "not ranked yet" in page
    assert 'action="/ladder/queue/join/"' in page


def test_queue_widget_join_status_and_leave(client):
    user = UserFactory()
    client.force_login(user)
    response = client.post(
        reverse("ratings:queue_join"), {"next": "/lobby/"}, REMOTE_ADDR="192.0.2.44"
    )
    assert response.status_code == 302 and response["Location"] == "/lobby/"
    entry = LadderQueueEntry.objects.get(user=user)
    assert entry.status == LadderQueueEntry.Status.WAITING and entry.ip == "192.0.2.44"
    status = client.get(reverse("ratings:queue_status")).json()
    assert status["waiting"] is True and status["queue_size"] == 1
    page = client.get(reverse("ratings:ladder")).content.decode()
    assert "Leave the queue" in page
    client.post(reverse("ratings:queue_leave"), {"next": "https://evil.example/"})
    entry.refresh_from_db()
    assert entry.status == LadderQueueEntry.Status.LEFT
    assert client.get(reverse("ratings:queue_status")).json()["waiting"] is False


def test_queue_views_need_a_login_and_post(client):
    assert client.post(reverse("ratings:queue_join")).status_code == 302
    assert not LadderQueueEntry.objects.exists()
    client.force_login(UserFactory())
    assert client.get(reverse("ratings:queue_join")).status_code == 405


def test_profile_page_renders_the_rating_chart_and_statistics(client):
    me, mate, other, rare = UserFactory.create_batch(4)
    start = timezone.now() - dt.timedelta(days=3)
    for i in range(6):
        fourth = other if i % 3 else rare
        play([me, mate, fourth, BOT], [5 + i, 20, 30 - i, 12], start + dt.timedelta(hours=i))
    play([me, mate, other], [0, 10, 20], start + dt.timedelta(hours=7), left={0})
    updates.apply_pending_ratings()
    page = client.get(reverse("ratings:player", args=[me.username])).content.decode()
    assert "<svg" in page and 'class="rating-chart"' in page
    points = re.search(r'<polyline class="rating-line"[^>]*points="([^"]+)"', page).group(1)
    assert len(points.split()) == 8  # the 1500 start and one point per rated Partie
    assert page.count("<line") >= 2  # both axes
    assert "Recent Parties" in page and "7 rated Parties" in page
    # All penalties fall in the first deal (No tricks); the others score zero for everyone.
    # The contract is named in the page's language (English here), not by its German name.
    assert "No tricks" in page and "Keinen Stich" not in page
    assert re.search(rf'href="/ladder/players/{mate.username}/">{mate.username}</a> — 7×', page)
    # The Partie the player left counts as a fourth... here third and last of three.
    assert "3. — 1×" in page
    assert client.get(reverse("ratings:player", args=["nobody-here"])).status_code == 404


def test_profile_best_and_worst_contract_compare_with_the_table():
    from ratings import profile_selectors

    me, a, b = UserFactory.create_batch(3)
    partie = play([me, a, b], [2, 10, 12], timezone.now())
    deal = partie.deals.get(number=4)  # the Hundred: make me lose it badly
    deal.penalties = [30, 0, 0]
    deal.save()
    profile = profile_selectors.player_profile(me, me)
    assert profile.best.contract == "no_tricks"
    assert profile.worst.contract == "hundred"


def moderator():
    from django.contrib.auth.models import Group

    user = UserFactory()
    user.groups.add(Group.objects.get(name="moderators"))
    return user


def test_collusion_page_is_for_moderators_and_flags_a_colluding_pair(client):
    dumper, beneficiary = UserFactory.create_batch(2)
    fillers = UserFactory.create_batch(6)
    start = timezone.now() - dt.timedelta(days=10)
    for i in range(10):
        # The beneficiary always finishes ahead of the dumper, who plays to lose.
        a, b = fillers[i % 6], fillers[(i + 3) % 6]
        play(
            [dumper, beneficiary, a, b],
            [60, 0, 20 + i % 7, 25 - i % 5],
            start + dt.timedelta(hours=i),
        )
    updates.apply_pending_ratings()
    assert client.get(reverse("ratings:collusion")).status_code == 302  # to the login
    client.force_login(UserFactory())
    assert client.get(reverse("ratings:collusion")).status_code == 403
    client.force_login(UserFactory(is_staff=True))
    assert client.get(reverse("ratings:collusion")).status_code == 403
    client.force_login(moderator())
    page = client.get(reverse("ratings:collusion")).content.decode()
    flagged = re.findall(r'<tr class="flagged"><td>(\w+)</td><td>(\w+)</td><td>(\d+)</td>', page)
    assert (beneficiary.username, dumper.username, "10") in flagged
    assert all({x, y} != {fillers[0].username, fillers[3].username} for x, y, _ in flagged)


def test_collusion_page_lists_same_ip_seats_at_ranked_tables(client):
    t0 = dt.datetime(2026, 3, 1, 18, 0, tzinfo=dt.UTC)
    users = [PlayerRatingFactory(mu=1500 + i).user for i in range(4)]
    for i, user in enumerate(users):
        ranked_queue.join_queue(user, ip="203.0.113.7" if i < 2 else f"198.51.100.{i}", now=t0)
    (table,) = ranked_queue.form_ladder_tables(now=t0 + dt.timedelta(seconds=5))
    client.force_login(moderator())
    page = client.get(reverse("ratings:collusion")).content.decode()
    assert f"#{table.pk}</a>: 203.0.113.7" in page
    assert ", ".join(sorted(u.username for u in users[:2])) in page


def test_closed_season_page_shows_the_archive(client):
    recent = timezone.now() - dt.timedelta(days=1)
    star = PlayerRatingFactory(mu=1777, sigma=65, games=40, last_played=recent)
    season = seasons.close_season()
    page = client.get(reverse("ratings:season", args=[season.pk])).content.decode()
    assert star.user.username in page and "1777" in page
    ladder = client.get(reverse("ratings:ladder")).content.decode()
    assert season.title in ladder and "Season 2" in ladder


def test_queue_widget_renders_inside_any_page_by_one_include(rf):
    from django.template import engines

    user = UserFactory()
    request = rf.get("/lobby/")
    request.user = user
    template = engines["django"].from_string('{% include "ratings/_queue_widget.html" %}')
    assert "Play ranked" in template.render({"user": user}, request)
    ranked_queue.join_queue(user, now=timezone.now())
    assert "Leave the queue" in template.render({"user": user}, request)


@pytest.mark.parametrize(
    ("language", "joined", "left"),
    [
        (
            "de",
            "Du bist in der Ranglisten-Warteschlange.",
            "Du hast die Ranglisten-Warteschlange verlassen.",
        ),
        ("en", "You are in the ranked queue.", "You left the ranked queue."),
    ],
)
def test_queue_confirmations_are_in_the_visitors_language(client, language, joined, left):
    from django.conf import settings
    from django.contrib.messages import get_messages

    client.force_login(UserFactory())
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language

    client.post(reverse("ratings:queue_join"), {"next": "/lobby/"})
    response = client.post(reverse("ratings:queue_leave"), {"next": "/lobby/"})
    # Neither redirect was followed, so both notices are still waiting to be shown.
    assert [str(m) for m in get_messages(response.wsgi_request)] == [joined, left]
