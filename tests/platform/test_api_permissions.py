"""The API's permission matrix: every write and every list, for anonymous callers, the player
concerned, another player, the event's organiser, another club's organiser, staff and a site
moderator.

A player acts only for themself, an organiser only for their club's events; staff (``is_staff``
only opens the admin) have no power at all here; a site moderator (``accounts.permissions``)
manages every club's events and sees every table and finished Partie, but starts no one's
table; every list returns only what the caller may see. Each case sets up only what its action needs.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.utils import timezone

from games import bot_turns, lobby
from games.models import Partie, Table
from rosbi_platform.accounts.models import ClubMembership
from tests.api_clients import session_client, token_client
from tests.platform.factories import NotificationFactory, SiteModeratorFactory
from tests.tournaments.factories import ClubFactory, MembershipFactory, UserFactory
from tournaments import entries, events, results, rounds, scheduler
from tournaments.models import Round, RoundTable, Tournament

pytestmark = [pytest.mark.django_db]

ROLES = (
    "anonymous",
    "player",
    "other_player",
    "organiser",
    "other_organiser",
    "staff",
    "moderator",
)
PLENTY = dt.timedelta(hours=1)


@dataclass
class World:
    users: dict[str, Any]
    club: Any

    def client(self, role: str):
        if role == "anonymous":
            return session_client()
        return token_client(self.users[role])


@pytest.fixture
def world() -> World:
    club, other_club = ClubFactory(slug="home"), ClubFactory(slug="away")
    organiser = MembershipFactory(club=club, role=ClubMembership.Role.ORGANISER).user
    other = MembershipFactory(club=other_club, role=ClubMembership.Role.ORGANISER).user
    staff = UserFactory(is_staff=True)
    users = {
        "player": UserFactory(),
        "other_player": UserFactory(),
        "organiser": organiser,
        "other_organiser": other,
        "staff": staff,
        "moderator": SiteModeratorFactory(),
    }
    return World(users, club)


def event(world: World, *, entrants: int = 0, physical: bool = False) -> Tournament:
    """An event of the home club, registration and check-in open, the player entered."""
    now = timezone.now()
    tournament = events.create_tournament(
        club=world.club,
        by=world.users["organiser"],
        name="Matrix",
        slug="matrix",
        starts_at=now + PLENTY,
        registration_opens_at=now - PLENTY,
        check_in_opens_at=now - PLENTY,
        mode=Tournament.Mode.PHYSICAL if physical else Tournament.Mode.ONLINE,
        round_interval_minutes=0,
    )
    scheduler.advance_tournament(tournament.pk)
    for user in [world.users["player"], *UserFactory.create_batch(entrants)]:
        entries.register_entry(tournament.pk, user)
    return tournament


def physical_table(world: World) -> RoundTable:
    """A started physical round: the player sits at table 1."""
    tournament = event(world, entrants=3, physical=True)
    for entry in tournament.entries.all():
        entries.check_in(tournament.pk, entry.user)
    round_one = Round.objects.get(tournament=tournament, number=1)
    rounds.reschedule_round(round_one.pk, timezone.now(), by=world.users["organiser"])
    scheduler.advance_tournament(tournament.pk)
    return RoundTable.objects.get(round=round_one)


def sheet_rows(size: int) -> list[list[int]]:
    from tests.tournaments.helpers import random_sheet

    return random_sheet(size, "matrix")


# --------------------------------------------------------------------------- writes

Call = Callable[[World, Any], Any]


def create_table(world: World, client) -> Any:
    return client.post("/api/v1/tables", {"size": 3}, format="json")


def join_table(world: World, client) -> Any:
    table = lobby.create_table(owner=world.users["player"], size=4)
    return client.post(f"/api/v1/tables/{table.pk}/join", {}, format="json")


def leave_table(world: World, client) -> Any:
    table = lobby.create_table(owner=world.users["player"], size=4)
    return client.post(f"/api/v1/tables/{table.pk}/leave", format="json")


def start_table(world: World, client) -> Any:
    table = lobby.create_table(owner=world.users["player"], size=3, turn_seconds=0)
    return client.post(f"/api/v1/tables/{table.pk}/start", {"fill_with_bots": True}, format="json")


def create_tournament(world: World, client) -> Any:
    body = {
        "club": "home",
        "name": "New",
        "slug": "new",
        "starts_at": (timezone.now() + PLENTY).isoformat(),
    }
    return client.post("/api/v1/tournaments", body, format="json")


def edit_tournament(world: World, client) -> Any:
    tournament = event(world)
    return client.patch(f"/api/v1/tournaments/{tournament.slug}", {"capacity": 9}, format="json")


def register(world: World, client) -> Any:
    tournament = event(world)
    return client.post(f"/api/v1/tournaments/{tournament.slug}/register", {}, format="json")


def check_in(world: World, client) -> Any:
    tournament = event(world)
    return client.post(f"/api/v1/tournaments/{tournament.slug}/check-in", format="json")


def withdraw(world: World, client) -> Any:
    tournament = event(world)
    return client.post(f"/api/v1/tournaments/{tournament.slug}/withdraw", format="json")


def submit_sheet(world: World, client) -> Any:
    table = physical_table(world)
    rows = sheet_rows(table.size)
    return client.post(
        f"/api/v1/round-tables/{table.pk}/sheets", {"penalties": rows}, format="json"
    )


def confirm_sheet(world: World, client) -> Any:
    table = physical_table(world)
    submitter = table.seats.exclude(entry__user=world.users["player"]).first().entry.user
    sheet = results.submit_physical_result(table.pk, sheet_rows(table.size), by=submitter)
    return client.post(f"/api/v1/sheets/{sheet.pk}/confirm", format="json")


def join_queue(world: World, client) -> Any:
    return client.post("/api/v1/queue/join", format="json")


def mark_notices_read(world: World, client) -> Any:
    return client.post("/api/v1/notifications/read", {}, format="json")


ANYONE_SIGNED_IN = {"anonymous": 401, **dict.fromkeys(ROLES[1:], 200)}
ORGANISER_ONLY = {
    "anonymous": 401,
    "player": 403,
    "other_player": 403,
    "organiser": 200,
    "other_organiser": 403,
    "staff": 403,
    "moderator": 200,
}
PLAYER_ONLY_ELSE_400 = {"anonymous": 401, **dict.fromkeys(ROLES[2:], 400), "player": 200}
TABLE_PLAYER_OR_ORGANISER = {
    "anonymous": 401,
    "player": 201,
    "other_player": 403,
    "organiser": 201,
    "other_organiser": 403,
    "staff": 403,
    "moderator": 201,
}

WRITES: dict[str, tuple[Call, dict[str, int]]] = {
    "create table": (create_table, {**ANYONE_SIGNED_IN, **dict.fromkeys(ROLES[1:], 201)}),
    "join table": (join_table, {**ANYONE_SIGNED_IN, "player": 409}),
    "leave table": (leave_table, {**dict.fromkeys(ROLES, 409), "anonymous": 401, "player": 200}),
    "start table": (
        start_table,
        {**dict.fromkeys(ROLES, 403), "anonymous": 401, "player": 200},
    ),
    "create tournament": (
        create_tournament,
        {**ORGANISER_ONLY, "organiser": 201, "moderator": 201},
    ),
    "edit tournament": (edit_tournament, ORGANISER_ONLY),
    "register": (register, {**ANYONE_SIGNED_IN, **dict.fromkeys(ROLES[1:], 201), "player": 400}),
    "check in": (check_in, PLAYER_ONLY_ELSE_400),
    "withdraw": (withdraw, PLAYER_ONLY_ELSE_400),
    "submit sheet": (submit_sheet, TABLE_PLAYER_OR_ORGANISER),
    "confirm sheet": (
        confirm_sheet,
        {k: (200 if v == 201 else v) for k, v in TABLE_PLAYER_OR_ORGANISER.items()},
    ),
    "join queue": (join_queue, ANYONE_SIGNED_IN),
    "mark notices read": (mark_notices_read, ANYONE_SIGNED_IN),
}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", list(WRITES))
def test_every_write(world: World, action: str, role: str) -> None:
    call, expected = WRITES[action]
    response = call(world, world.client(role))
    assert response.status_code == expected[role], (action, role, response.content[:300])
    if response.status_code >= 400:
        body = response.json()
        assert body["detail"] and body["code"]


# --------------------------------------------------------------------------- lists


def private_table(world: World) -> Any:
    return lobby.create_table(owner=world.users["player"], size=3, public=False)


def private_partie(world: World) -> Any:
    table = lobby.create_table(
        owner=world.users["player"],
        size=3,
        public=False,
        fill_with_bots=True,
        turn_seconds=0,
        bot_level="random",
    )
    lobby.start_table(table.pk, world.users["player"], seed=3)
    lobby.leave_table(table.pk, world.users["player"])
    bot_turns.play_bot_turns(table.pk)
    return Partie.objects.get(table=table)


def notice(world: World) -> Any:
    tournament = event(world)
    return NotificationFactory(
        user=world.users["player"], tournament_id=tournament.pk, message="Table ready"
    )


def series(world: World) -> Any:
    from tournaments import series as series_actions

    return series_actions.create_series(
        club=world.club,
        by=world.users["organiser"],
        name="Club evening",
        weekdays=[3],
        start_time=dt.time(19, 30),
    )


def season(world: Any) -> Any:
    from ratings import seasons

    return seasons.current_season()


PLAYER_AND_MODERATOR = {role: role in ("player", "moderator") for role in ROLES}
PLAYER_ONLY = {role: role == "player" for role in ROLES}
EVERYONE = dict.fromkeys(ROLES, True)

LISTS: dict[str, tuple[str, Callable[[World], Any], dict[str, bool]]] = {
    "tables": ("/api/v1/tables", private_table, PLAYER_AND_MODERATOR),
    "parties": ("/api/v1/parties", private_partie, PLAYER_AND_MODERATOR),
    "notifications": ("/api/v1/notifications", notice, PLAYER_ONLY),
    "tournaments": ("/api/v1/tournaments", event, EVERYONE),
    "clubs": ("/api/v1/clubs", lambda world: world.club, EVERYONE),
    "series": ("/api/v1/series", series, EVERYONE),
    "seasons": ("/api/v1/seasons", season, EVERYONE),
}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", list(LISTS))
def test_every_list_shows_only_what_the_caller_may_see(world: World, name: str, role: str):
    path, make, sees = LISTS[name]
    target = make(world)
    response = world.client(role).get(path)
    if name == "notifications" and role == "anonymous":
        assert response.status_code == 401
        return
    assert response.status_code == 200, response.content[:300]
    ids = {row["id"] for row in response.json()["results"]}
    assert (target.pk in ids) is sees[role], (name, role, ids)


def test_moderators_see_private_tables_but_do_not_sit_uninvited(world: World):
    table = private_table(world)
    refused = world.client("moderator").post(f"/api/v1/tables/{table.pk}/join", {}, format="json")
    assert refused.status_code == 403
    assert Table.objects.get(pk=table.pk).seats.filter(user__isnull=False).count() == 1
