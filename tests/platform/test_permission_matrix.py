"""The permission matrix: every page and every API operation, asked by each of eight roles,
answers what the table in docs/security.md says.

The table in ``docs/security.md`` ("Who may do what") is the one statement of the permission
model: this test parses it, so the documentation cannot drift from the site. It fails when

* a URL pattern (``django.urls.get_resolver()``, the admin's index and each registered
  model's change list) or an API operation (every path and method of drf-spectacular's
  schema) has no row in the table, or a row names one that does not exist;
* any role gets another answer than its cell (see the legend in docs/security.md).

Pages are asked with GET (a POST-only page then answers 405 to everyone it lets through);
API operations with their method and a representative body. Every request runs inside a
savepoint that is rolled back, so a write that succeeds for one role leaves the world
unchanged for the next: the world (two clubs, their people, tables, Parties, events, a
season, ...) is built once per module and shared, and every case stays independent.
"""

from __future__ import annotations

import datetime as dt
import re
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.conf import settings
from django.contrib import admin
from django.contrib.auth.tokens import default_token_generator
from django.contrib.messages import constants as message_levels
from django.contrib.messages import get_messages
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, path, resolve, reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from rest_framework.test import APIClient

from games import bot_turns, invitations, lobby
from games.models import Partie, PartieDeal, Seat, SeatResult
from ratings.models import Season
from rosbi_platform import views
from rosbi_platform.accounts import clubs, services, tokens, verification
from rosbi_platform.accounts.models import ClubMembership
from tests import two_factor
from tests.platform.factories import NotificationFactory, SiteModeratorFactory
from tests.ratings.factories import BOT, finished_partie
from tests.tournaments.factories import ClubFactory, MembershipFactory, UserFactory
from tournaments import calendars, entries, events, results, rounds, scheduler
from tournaments import seasons as club_seasons
from tournaments import series as series_actions
from tournaments.models import Round, RoundTable, Tournament

DOC = Path(settings.BASE_DIR) / "docs" / "security.md"
ROLES = (
    "anonymous",
    "player",
    "member",
    "organiser",
    "other organiser",
    "owner",
    "moderator",
    "bot",
)
# Development-only previews of the error pages (mounted when DEBUG is on): not the site.
UNLISTED_PREFIXES = ("_errors/",)
API_PREFIX = "api/v1/"
HOUR = dt.timedelta(hours=1)


# --------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class Row:
    """One line of the documented table: a request (method and address pattern), the object
    it is asked about, and the answer each role gets."""

    method: str
    route: str
    target: str
    cells: dict[str, str]

    @property
    def key(self) -> str:
        return f"{self.method} {self.route}" + (f" [{self.target}]" if self.target else "")


def documented_rows(text: str | None = None) -> list[Row]:
    """The rows of the table under "Who may do what": lines whose first cell is a request
    in backticks (group headings and the legend are skipped)."""
    text = DOC.read_text(encoding="utf-8") if text is None else text
    section = text.split("## Who may do what", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    start = next(i for i, line in enumerate(lines) if line.startswith("| Page or operation |"))
    header = [cell.strip() for cell in lines[start].strip().strip("|").split("|")]
    assert tuple(header[2:]) == ROLES, header
    rows = []
    for line in lines[start + 2 :]:
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        match = re.fullmatch(r"`(GET|POST|PATCH|PUT|DELETE) (\S+)`", cells[0])
        if match is None:
            continue
        target = cells[1].strip("_ ") if cells[1] not in ("", "—") else ""
        rows.append(Row(match[1], match[2], target, dict(zip(ROLES, cells[2:], strict=True))))
    return rows


ROWS = documented_rows()


def classify(response: Any) -> str:
    """The answer as the table writes it: ✓ (2xx), login (sent to a log-in page), ✗ (sent
    back with an error message: refused, the page says why), ↪ (sent on, no error), or the
    status code."""
    status = response.status_code
    if 200 <= status < 300:
        return "✓"
    if 300 <= status < 400:
        location = response.get("Location", "")
        if location.startswith((reverse("accounts:login"), reverse("admin:login"))):
            return "login"
        request = getattr(response, "wsgi_request", None)
        said = list(get_messages(request)) if request is not None else []
        if any(message.level >= message_levels.ERROR for message in said):
            return "✗"
        return "↪"
    return str(status)


# --------------------------------------------------------------------------- what exists


def page_routes() -> set[str]:
    """Every URL pattern of the site (without the API's, which the schema lists, and of the
    admin only its index and one change list per registered model)."""
    found: set[str] = set()

    def walk(resolver: URLResolver, prefix: str) -> None:
        for pattern in resolver.url_patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                if route != "admin/":
                    walk(pattern, route)
            elif isinstance(pattern, URLPattern) and not route.startswith(
                (API_PREFIX, *UNLISTED_PREFIXES)
            ):
                found.add("/" + route)

    walk(get_resolver(), "")
    found.add("/admin/")
    for model in admin.site._registry:
        found.add(f"/admin/{model._meta.app_label}/{model._meta.model_name}/")
    return found


def api_schema() -> dict[str, Any]:
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(request=None, public=True)


def api_operations(schema: dict[str, Any]) -> set[str]:
    return {
        f"{method.upper()} {path}"
        for path, operations in schema["paths"].items()
        for method in operations
        if method in ("get", "post", "put", "patch", "delete")
    }


# --------------------------------------------------------------------------- the world


@dataclass
class World:
    users: dict[str, Any]
    objects: dict[str, Any] = field(default_factory=dict)
    sessions: dict[str, str] = field(default_factory=dict)
    secrets: dict[str, str] = field(default_factory=dict)

    def page_client(self, role: str) -> Client:
        client = Client()
        if role != "anonymous":
            client.cookies[settings.SESSION_COOKIE_NAME] = self.sessions[role]
        return client

    def api_client(self, role: str) -> APIClient:
        client = APIClient()
        if role != "anonymous":
            client.credentials(HTTP_AUTHORIZATION=f"Bearer {self.secrets[role]}")
        return client


def played_partie(people: list[Any], *, public: bool) -> Partie:
    """A Partie played to its end (its record is whole, as replays need): ``people`` sit,
    bots fill the other seats, everyone leaves after the deal and the bots finish it."""
    owner = people[0]
    table = lobby.create_table(
        owner=owner, size=3, public=public, turn_seconds=0, bot_level="random"
    )
    for person in people[1:]:
        lobby.join_table(table.pk, person)
    lobby.start_table(table.pk, owner, fill_with_bots=True, seed=7)
    for person in people:
        lobby.leave_table(table.pk, person)
    bot_turns.play_bot_turns(table.pk)
    partie = Partie.objects.get(table=table)
    # They played it to the end: give their seats and results back (bots played for them).
    for person in people:
        Seat.objects.filter(table=table, started_by=person).update(
            user=person, left_at=None, bot_level=""
        )
        SeatResult.objects.filter(partie=partie, started_by=person).update(
            user=person, left_at=None, bot_level=""
        )
    return partie


def copied_partie(played: Partie, players: list[Any]) -> Partie:
    """The same deals at a new public table with other people: as good as a played one for
    replays and records, without playing it again (half the world's set-up time)."""
    results = played.results.order_by("seat")
    partie = finished_partie(players, [result.total for result in results], rated=False)
    Partie.objects.filter(pk=partie.pk).update(first_dealer=played.first_dealer)
    for deal in played.deals.all():
        PartieDeal.objects.filter(partie=partie, number=deal.number).update(
            contract=deal.contract,
            dealer=deal.dealer,
            hands=deal.hands,
            moves=deal.moves,
            penalties=deal.penalties,
        )
    return Partie.objects.get(pk=partie.pk)


def build_world() -> World:
    now = timezone.now()
    home, away = ClubFactory(slug="home", name="Home"), ClubFactory(slug="away", name="Away")
    Role = ClubMembership.Role
    users = {
        "player": UserFactory(username="player"),
        "member": MembershipFactory(club=home, user__username="member").user,
        "organiser": MembershipFactory(
            club=home, role=Role.ORGANISER, user__username="organiser"
        ).user,
        "other organiser": MembershipFactory(
            club=away, role=Role.ORGANISER, user__username="elsewhere"
        ).user,
        "owner": MembershipFactory(club=home, role=Role.OWNER, user__username="owner").user,
        "moderator": SiteModeratorFactory(username="moderator", is_staff=True),
        "bot": UserFactory(username="botty"),
    }
    services.mark_as_bot(users["bot"])
    player, member, organiser = users["player"], users["member"], users["organiser"]
    world = World(users)
    o = world.objects
    o["home"], o["away"] = home, away

    # Tables: a public one waiting for players (the member owns it and sits), a private one
    # of the player's; a finished public Partie (member, player) and a private one (player).
    o["public_table"] = lobby.create_table(owner=member, name="Open", size=4, turn_seconds=0)
    o["private_table"] = lobby.create_table(
        owner=player, name="Secret", size=3, public=False, turn_seconds=0
    )
    invitations.invite_player(o["public_table"].pk, member, "player")
    # A Partie in progress at a public table: the member plays, bots hold the other seats.
    o["running_table"] = lobby.create_table(owner=member, name="Running", size=3, turn_seconds=0)
    lobby.start_table(o["running_table"].pk, member, fill_with_bots=True, seed=5)
    o["private_partie"] = played_partie([player], public=False)
    o["public_partie"] = copied_partie(o["private_partie"], [member, player, BOT])

    # Events of the home club: an online one open for registration (the player entered), a
    # physical one whose first round is on (the player at table 1, a sheet to confirm).
    o["event"] = events.create_tournament(
        club=home,
        by=organiser,
        name="Open cup",
        slug="open-cup",
        starts_at=now + HOUR,
        registration_opens_at=now - HOUR,
        check_in_opens_at=now - HOUR,
        round_interval_minutes=0,
    )
    scheduler.advance_tournament(o["event"].pk)
    entries.register_entry(o["event"].pk, player)
    physical = events.create_tournament(
        club=home,
        by=organiser,
        name="Club evening",
        slug="club-evening",
        starts_at=now + HOUR,
        registration_opens_at=now - HOUR,
        check_in_opens_at=now - HOUR,
        mode=Tournament.Mode.PHYSICAL,
        round_interval_minutes=0,
    )
    scheduler.advance_tournament(physical.pk)
    for user in [player, *UserFactory.create_batch(3)]:
        entries.register_entry(physical.pk, user)
        entries.check_in(physical.pk, user)
    first = Round.objects.get(tournament=physical, number=1)
    rounds.reschedule_round(first.pk, now, by=organiser)
    scheduler.advance_tournament(physical.pk)
    o["physical"], o["round_table"] = physical, RoundTable.objects.get(round=first)
    from tests.tournaments.helpers import random_sheet

    o["sheet_rows"] = random_sheet(o["round_table"].size, "matrix")
    submitter = o["round_table"].seats.exclude(entry__user=player).first().entry.user
    o["sheet"] = results.submit_physical_result(o["round_table"].pk, o["sheet_rows"], by=submitter)

    o["series"] = series_actions.create_series(
        club=home, by=organiser, name="Thursdays", weekdays=[3], start_time=dt.time(19, 30)
    )
    today = timezone.localdate()
    o["club_season"] = club_seasons.create_season(
        club=home,
        by=organiser,
        name="Spring",
        starts_on=today - dt.timedelta(days=10),
        ends_on=today + dt.timedelta(days=50),
    )
    o["site_season"] = Season.objects.create(
        number=1, started_at=now - 100 * HOUR, closed_at=now - HOUR
    )
    o["notification"] = NotificationFactory(user=player, tournament_id=o["event"].pk)
    o["invite"] = clubs.create_invite_link(home, by=users["owner"])
    o["join_request"] = clubs.request_membership(home, UserFactory(username="applicant"))
    o["calendar"] = calendars.issue_calendar_token(player)
    o["reset_uid"] = urlsafe_base64_encode(force_bytes(player.pk))
    o["reset_token"] = default_token_generator.make_token(player)
    # The player's e-mail link: opening it is harmless for anyone (it proves the address once).
    o["verification_token"] = verification.verification_token(player)

    for role, user in users.items():
        client = Client()
        client.force_login(user)
        if two_factor.needs_second_factor(user):
            # Owners and moderators must log in with a second factor (docs/accounts.md): the
            # matrix is about what each role may do once logged in as the rules require; the
            # gate itself is tested in tests/platform/test_two_factor.py.
            two_factor.satisfy_second_factor(client, user)
        world.sessions[role] = client.cookies[settings.SESSION_COOKIE_NAME].value
        new = tokens.create_token(user, "matrix", ("read", "play", "tournament:write"))
        world.secrets[role] = new.secret
        if role == "player":
            o["token"] = new.token
    return world


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker) -> Iterator[World]:
    """Built once in a transaction that is rolled back after the module's last case."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_world()
        transaction.set_rollback(True)


# --------------------------------------------------------------------------- the requests

# How to fill each page's address: route -> target -> the URL kwargs from the world.
Kwargs = Callable[[World], dict[str, Any]]
NONE: dict[str, Kwargs] = {"": lambda w: {}}


def table_of(name: str) -> dict[str, Kwargs]:
    return {"": lambda w: {"table_id": w.objects[name].pk}}


def finished_tables() -> dict[str, Kwargs]:
    return {
        "public Partie": lambda w: {"table_id": w.objects["public_partie"].table_id},
        "private Partie": lambda w: {"table_id": w.objects["private_partie"].table_id},
    }


def live_tables() -> dict[str, Kwargs]:
    return {
        "public table": lambda w: {"table_id": w.objects["public_table"].pk},
        "private table": lambda w: {"table_id": w.objects["private_table"].pk},
    }


def home_club(**more: Callable[[World], Any]) -> dict[str, Kwargs]:
    return {"": lambda w: {"slug": "home", **{k: f(w) for k, f in more.items()}}}


def event_slug(name: str = "event", **more: Any) -> dict[str, Kwargs]:
    return {"": lambda w: {"slug": w.objects[name].slug, **more}}


def player_name() -> dict[str, Kwargs]:
    return {"": lambda w: {"username": "player"}}


PAGE_KWARGS: dict[str, dict[str, Kwargs]] = {
    "accounts:password_reset_confirm": {
        "": lambda w: {"uidb64": w.objects["reset_uid"], "token": w.objects["reset_token"]}
    },
    "accounts:token_revoke": {"": lambda w: {"token_id": w.objects["token"].pk}},
    "accounts:verify_email": {"": lambda w: {"token": w.objects["verification_token"]}},
    "friends:follow": player_name(),
    "friends:unfollow": player_name(),
    "friends:block": player_name(),
    "friends:unblock": player_name(),
    "notifications:read": {"": lambda w: {"notification_id": w.objects["notification"].pk}},
    "games:table": live_tables(),
    "games:join": live_tables(),
    "games:leave": table_of("public_table"),
    "games:start": table_of("public_table"),
    "games:resign": table_of("running_table"),
    "games:abort": table_of("running_table"),
    "games:rematch": {"": lambda w: {"table_id": w.objects["public_partie"].table_id}},
    "games:decline_rematch": {"": lambda w: {"table_id": w.objects["public_partie"].table_id}},
    "games:invite": table_of("public_table"),
    "games:decline_invitation": table_of("public_table"),
    "games:replay": finished_tables(),
    "games:record": finished_tables(),
    "tournaments:club": home_club(),
    "tournaments:club_calendar": home_club(),
    "tournaments:club_series": home_club(),
    "tournaments:series_new": home_club(),
    "tournaments:series_edit": {"": lambda w: {"pk": w.objects["series"].pk}},
    "tournaments:series_skip": {"": lambda w: {"pk": w.objects["series"].pk}},
    "tournaments:player_calendar": {"": lambda w: {"token": w.objects["calendar"].token}},
    "tournaments:sheet": {"": lambda w: {"table_id": w.objects["round_table"].pk}},
    "tournaments:confirm_sheet": {"": lambda w: {"sheet_id": w.objects["sheet"].pk}},
    "tournaments:present": {"": lambda w: {"table_id": w.objects["round_table"].pk}},
    "tournaments:workspace": event_slug(),
    "tournaments:edit_event": event_slug(),
    "tournaments:workspace_export": event_slug(what="standings"),
    "tournaments:workspace_action": event_slug(action="close-registration"),
    "tournaments:detail": event_slug(),
    "tournaments:state": event_slug(),
    "tournaments:bracket": event_slug(),
    "tournaments:print": event_slug("physical", number=1),
    "tournaments:action": event_slug(action="register"),
    "ratings:player": player_name(),
    "ratings:season": {"": lambda w: {"season_id": w.objects["site_season"].pk}},
    "clubs:invite": {"": lambda w: {"token": w.objects["invite"].token}},
    "clubs:detail": home_club(),
    "clubs:join": home_club(),
    "clubs:leave": home_club(),
    "clubs:members": home_club(),
    "clubs:role": home_club(user_id=lambda w: w.users["member"].pk),
    "clubs:remove": home_club(user_id=lambda w: w.users["member"].pk),
    "clubs:decide": home_club(
        request_id=lambda w: w.objects["join_request"].pk, decision=lambda w: "approve"
    ),
    "clubs:invite_create": home_club(),
    "clubs:invite_revoke": home_club(invite_id=lambda w: w.objects["invite"].pk),
    "clubs:season_new": home_club(),
    "clubs:season": home_club(pk=lambda w: w.objects["club_season"].pk),
    "clubs:season_event": home_club(pk=lambda w: w.objects["club_season"].pk),
    "clubs:season_action": home_club(
        pk=lambda w: w.objects["club_season"].pk, action=lambda w: "open"
    ),
    "players:history": player_name(),
}


# Representative form bodies of the pages that take a POST (the rest post nothing).
PAGE_BODIES: dict[str, Callable[[World], dict[str, Any]]] = {
    "accounts:token_create": lambda w: {"name": "matrix", "scopes": ["read"]},
    "games:create": lambda w: {
        "size": 3,
        "layout": "extend_first",
        "turn_seconds": 0,
        "public": "on",
        "bot_level": "heuristic",
    },
    "games:invite": lambda w: {"username": "owner"},
    "games:start": lambda w: {"fill_with_bots": "on"},
    "tournaments:series_skip": lambda w: {"date": next_thursday().isoformat()},
    "clubs:role": lambda w: {"role": "organiser"},
    "clubs:request": lambda w: {"name": "Matrix club"},
    "clubs:season_event": lambda w: {"tournament": w.objects["event"].pk},
    "set_language": lambda w: {"language": "de", "next": "/"},
}


def next_thursday() -> dt.date:
    today = timezone.localdate()
    return today + dt.timedelta(days=(3 - today.weekday()) % 7 or 7)


def page_url(world: World, route: str, target: str) -> str:
    """The address of ``route`` for ``target``, its parameters taken from the world."""
    if route.startswith("/admin/"):
        return route
    name = ROUTE_NAMES[route]
    kwargs = PAGE_KWARGS.get(name, NONE)[target](world) if name else {}
    return reverse(name, kwargs=kwargs) if name else route


def route_names() -> dict[str, str]:
    names: dict[str, str] = {}

    def walk(resolver: URLResolver, prefix: str, namespace: str) -> None:
        for pattern in resolver.url_patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                inner = namespace
                if pattern.namespace:
                    inner = f"{namespace}{pattern.namespace}:"
                walk(pattern, route, inner)
            elif pattern.name:
                names["/" + route] = namespace + pattern.name

    walk(get_resolver(), "", "")
    return names


ROUTE_NAMES = route_names()

# API operations: the object each path parameter names, and a representative body.
API_TARGETS: dict[str, Callable[[World], Any]] = {
    "public table": lambda w: w.objects["public_table"].pk,
    "private table": lambda w: w.objects["private_table"].pk,
    "public Partie": lambda w: w.objects["public_partie"].pk,
    "private Partie": lambda w: w.objects["private_partie"].pk,
}
API_PARAMETERS: dict[str, Callable[[World], Any]] = {
    "/api/v1/clubs/{slug}": lambda w: "home",
    "/api/v1/players/{username}": lambda w: "player",
    "/api/v1/round-tables/{id}": lambda w: w.objects["round_table"].pk,
    "/api/v1/seasons/{id}": lambda w: w.objects["site_season"].pk,
    "/api/v1/series/{id}": lambda w: w.objects["series"].pk,
    "/api/v1/sheets/{id}": lambda w: w.objects["sheet"].pk,
    "/api/v1/tables/{id}": lambda w: w.objects["public_table"].pk,
    "/api/v1/tournaments/{slug}": lambda w: w.objects["event"].slug,
}
API_BODIES: dict[str, Callable[[World], dict[str, Any]]] = {
    "POST /api/v1/tables": lambda w: {"size": 3},
    "POST /api/v1/tables/{id}/start": lambda w: {"fill_with_bots": True},
    "POST /api/v1/tournaments": lambda w: {
        "club": "home",
        "name": "New",
        "slug": "new",
        "starts_at": (timezone.now() + HOUR).isoformat(),
    },
    "PATCH /api/v1/tournaments/{slug}": lambda w: {"capacity": 9},
    "POST /api/v1/round-tables/{id}/sheets": lambda w: {"penalties": w.objects["sheet_rows"]},
}


def api_url(world: World, route: str, target: str) -> str:
    def fill(match: re.Match[str]) -> str:
        if target:
            return str(API_TARGETS[target](world))
        return str(API_PARAMETERS[route[: match.end()]](world))

    return re.sub(r"\{\w+\}", fill, route, count=1)


def ask(world: World, row: Row, role: str) -> Any:
    """One request of ``row`` by ``role``, rolled back whatever it changed."""
    with transaction.atomic():
        if row.route.startswith("/api/v1/"):
            client = world.api_client(role)
            body = API_BODIES.get(f"{row.method} {row.route}", lambda w: {})(world)
            call = getattr(client, row.method.lower())
            url = api_url(world, row.route, row.target)
            response = call(url, body, format="json") if row.method != "GET" else call(url)
        else:
            url = page_url(world, row.route, row.target)
            # The health probe's answer depends on the services running, not on the caller.
            client = world.page_client(role)
            with mock.patch.object(views, "run_checks", return_value={"status": "ok"}):
                if row.method == "GET":
                    response = client.get(url)
                else:
                    name = ROUTE_NAMES.get(row.route, "")
                    response = client.post(url, PAGE_BODIES.get(name, lambda w: {})(world))
        transaction.set_rollback(True)
    return response


# --------------------------------------------------------------------------- the tests


def page_rows_missing(rows: list[Row]) -> tuple[list[str], list[str]]:
    """The pages without a row, and the rows for no page."""
    documented = {row.route for row in rows if not row.route.startswith("/api/v1/")}
    return sorted(page_routes() - documented), sorted(documented - page_routes())


def test_every_page_has_a_row_and_every_row_a_page() -> None:
    without_row, without_page = page_rows_missing(ROWS)
    assert without_row == [], "pages without a row in docs/security.md"
    assert without_page == [], "rows of docs/security.md for no page"


def test_a_page_added_without_a_row_is_named(settings) -> None:
    """The check above would catch a new page: here one is added to the URL map."""
    urls = types.ModuleType("matrix_urls")
    urls.urlpatterns = [*get_resolver().url_patterns, path("new-page/", views.rules)]
    settings.ROOT_URLCONF = urls
    assert page_rows_missing(ROWS) == (["/new-page/"], [])


def test_every_api_operation_has_a_row_and_every_row_an_operation() -> None:
    documented = {f"{r.method} {r.route}" for r in ROWS if r.route.startswith("/api/v1/")}
    operations = api_operations(api_schema())
    assert sorted(operations - documented) == [], "operations without a row in docs/security.md"
    assert sorted(documented - operations) == [], "rows of docs/security.md for no operation"


def test_the_schema_lists_every_api_pattern() -> None:
    """The API rows come from the schema; every API URL pattern must be one of its paths."""
    listed = set()
    for address in api_schema()["paths"]:
        listed.add(resolve(re.sub(r"\{\w+\}", "1", address)).view_name)
    api_names = {
        namespace + pattern.name
        for namespace, pattern in api_url_patterns()
        if pattern.name is not None
    }
    assert sorted(api_names - listed) == []


def api_url_patterns() -> Iterator[tuple[str, URLPattern]]:
    for pattern in get_resolver().url_patterns:
        if isinstance(pattern, URLResolver) and str(pattern.pattern) == API_PREFIX:
            for inner in pattern.url_patterns:
                yield "api:", inner


def test_rows_are_unique_and_every_cell_is_an_answer() -> None:
    keys = [row.key for row in ROWS]
    assert len(keys) == len(set(keys)), sorted(k for k in keys if keys.count(k) > 1)
    answers = {"✓", "login", "↪", "✗"} | {str(code) for code in range(400, 600)}
    for row in ROWS:
        assert set(row.cells.values()) <= answers, row


@pytest.mark.django_db
@pytest.mark.parametrize("row", ROWS, ids=[row.key for row in ROWS])
def test_each_role_gets_the_documented_answer(world: World, row: Row) -> None:
    assert differences(world, row) == {}, row.key


def differences(world: World, row: Row) -> dict[str, str]:
    """The roles whose answer is not the documented one, with both."""
    answers = {role: classify(ask(world, row, role)) for role in ROLES}
    return {
        role: f"documented {row.cells[role]}, got {answer}"
        for role, answer in answers.items()
        if answer != row.cells[role]
    }


@pytest.mark.django_db
def test_a_wrong_cell_is_named(world: World) -> None:
    """A table that claims the members' page is open to players does not pass."""
    row = next(r for r in ROWS if r.route == "/clubs/<slug:slug>/members/")
    claimed = Row(row.method, row.route, row.target, {**row.cells, "player": "✓"})
    assert differences(world, claimed) == {"player": "documented ✓, got 403"}
