"""API v1 for tables and finished Parties: the lobby actions over HTTP with JSON answers,
public information only, and the deal records that the engine's CLI scores back."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games import bot_turns, lobby, selectors
from games.models import Partie, Seat, Table
from rosbi_platform.accounts.services import mark_as_bot
from tests.api_clients import assert_error, session_client, token_client
from tests.games.factories import TableFactory, UserFactory

pytestmark = [pytest.mark.django_db]
REPO_ROOT = Path(__file__).resolve().parents[2]


def finished_partie(*, public: bool = True, player=None) -> Partie:
    """A Partie played to the end by bots (seed 7); ``player`` started seat 0 and left."""
    owner = player or UserFactory()
    table = TableFactory(owner=owner, size=3, fill_with_bots=True, bot_level="random")
    Table.objects.filter(pk=table.pk).update(public=public)
    if player is not None:
        lobby.join_table(table.pk, player, 0, invite=table.invite_code)
    lobby.start_table(table.pk, owner, seed=7)
    if player is not None:
        lobby.leave_table(table.pk, player)
    bot_turns.play_bot_turns(table.pk)
    partie = Partie.objects.get(table=table)
    assert partie.finished_at is not None
    return partie


def test_a_program_creates_joins_and_starts_a_table():
    owner, guest = UserFactory(), UserFactory()
    created = token_client(owner).post(
        "/api/v1/tables", {"name": "API table", "size": 3, "turn_seconds": 0}, format="json"
    )
    assert created.status_code == 201, created.content
    table = created.json()
    assert table["name"] == "API table" and table["status"] == "open"
    assert table["seats"][0]["user_id"] == owner.pk and table["invite_code"]
    assert table["websocket"] == f"/ws/tables/{table['id']}/"

    guest_client = token_client(guest)
    joined = guest_client.post(f"/api/v1/tables/{table['id']}/join", {"seat": 2}, format="json")
    assert joined.status_code == 200 and joined.json()["seat"] == 2
    assert joined.json()["table"]["seats"][2]["user_id"] == guest.pk
    assert "invite_code" not in joined.json()["table"]
    again = guest_client.post(f"/api/v1/tables/{table['id']}/join", {}, format="json")
    assert_error(again, 409, "already_seated")

    not_owner = guest_client.post(f"/api/v1/tables/{table['id']}/start", {}, format="json")
    assert_error(not_owner, 403, "forbidden")
    not_full = token_client(owner).post(f"/api/v1/tables/{table['id']}/start", {}, format="json")
    assert_error(not_full, 409, "not_full")
    started = token_client(owner).post(
        f"/api/v1/tables/{table['id']}/start", {"fill_with_bots": True}, format="json"
    )
    assert started.status_code == 200, started.content
    assert started.json()["table"]["status"] == "playing"
    assert Partie.objects.get(table_id=table["id"]).pk == started.json()["partie_id"]
    late = token_client(UserFactory()).post(f"/api/v1/tables/{table['id']}/join", format="json")
    assert_error(late, 409, "not_open")


def test_leaving_an_open_table_frees_the_seat():
    owner, guest = UserFactory(), UserFactory()
    table = lobby.create_table(owner=owner, size=3)
    lobby.join_table(table.pk, guest)
    left = token_client(guest).post(f"/api/v1/tables/{table.pk}/leave", format="json")
    assert left.status_code == 200
    assert [s["user_id"] for s in left.json()["seats"]] == [owner.pk, None, None]
    assert_error(
        token_client(guest).post(f"/api/v1/tables/{table.pk}/leave", format="json"),
        409,
        "not_seated",
    )


def test_lists_show_public_tables_and_your_own_private_ones_only():
    me, other = UserFactory(), UserFactory()
    public = lobby.create_table(owner=other, size=3)
    hidden = lobby.create_table(owner=other, size=3, public=False)
    mine = lobby.create_table(owner=me, size=3, public=False)
    ids = {t["id"] for t in token_client(me).get("/api/v1/tables").json()["results"]}
    assert ids == {public.pk, mine.pk}
    anonymous = {t["id"] for t in session_client().get("/api/v1/tables").json()["results"]}
    assert anonymous == {public.pk}
    assert_error(token_client(me).get(f"/api/v1/tables/{hidden.pk}"), 404)
    with_code = token_client(me).get(f"/api/v1/tables/{hidden.pk}?invite={hidden.invite_code}")
    assert with_code.status_code == 200
    assert "invite_code" not in with_code.json()
    playing = session_client().get("/api/v1/tables?status=playing").json()
    assert playing["count"] == 0


def test_bot_accounts_sit_only_at_tables_that_allow_them():
    bot = UserFactory()
    mark_as_bot(bot)
    closed = lobby.create_table(owner=UserFactory(), size=3)
    welcoming = lobby.create_table(owner=UserFactory(), size=3, allow_bots=True)
    client = token_client(bot, ["read", "play"])
    assert_error(
        client.post(f"/api/v1/tables/{closed.pk}/join", format="json"), 403, "bots_refused"
    )
    assert client.post(f"/api/v1/tables/{welcoming.pk}/join", format="json").status_code == 200
    own = client.post("/api/v1/tables", {"size": 3}, format="json").json()
    assert own["allow_bots"] is True
    rated = client.post("/api/v1/tables", {"size": 3, "rated": True}, format="json")
    assert_error(rated, 403, "bots_refused")


def test_finished_parties_with_their_records():
    partie = finished_partie()
    client = session_client()
    listed = client.get("/api/v1/parties").json()
    assert [p["id"] for p in listed["results"]] == [partie.pk]
    assert [r["seat"] for r in listed["results"][0]["results"]] == [0, 1, 2]
    detail = client.get(f"/api/v1/parties/{partie.pk}").json()
    assert detail["record"] == partie.to_record().to_dict()
    assert detail["penalties"] == selectors.partie_penalties(partie)
    assert [sum(c) for c in zip(*detail["penalties"], strict=True)] == [
        r["total"] for r in detail["results"]
    ]
    deals = client.get(f"/api/v1/parties/{partie.pk}/deals").json()["deals"]
    assert len(deals) == 6 and all(
        d["rules"] == {"doubling": True, "layout": "extend_first"} for d in deals
    )


def test_a_private_partie_is_seen_by_its_players_only():
    player = UserFactory()
    partie = finished_partie(public=False, player=player)
    assert session_client().get("/api/v1/parties").json()["count"] == 0
    assert_error(token_client(UserFactory()).get(f"/api/v1/parties/{partie.pk}"), 404)
    mine = token_client(player, ["read"]).get(f"/api/v1/parties?player={player.pk}").json()
    assert [p["id"] for p in mine["results"]] == [partie.pk]
    assert mine["results"][0]["results"][0]["left"] is True
    assert token_client(player).get(f"/api/v1/parties/{partie.pk}/deals").status_code == 200


def test_exported_deals_scored_by_the_engine_give_the_stored_penalties():
    """Round trip: the JSON Lines export through ``python -m games.engine score``."""
    partie = finished_partie()
    response = session_client().get(f"/api/v1/parties/{partie.pk}/deals.jsonl")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/x-ndjson")
    scored = subprocess.run(
        [sys.executable, "-m", "games.engine", "score", "-"],
        input=response.content,
        capture_output=True,
        cwd=REPO_ROOT,
        check=True,
    )
    lines = [json.loads(line) for line in scored.stdout.decode().splitlines()]
    assert [line["penalties"] for line in lines] == selectors.partie_penalties(partie)
    assert len(lines) == 6
    assert Seat.objects.filter(table=partie.table).count() == 3


def test_the_lobby_form_lets_bot_accounts_sit_too():
    owner = UserFactory()
    client = session_client(owner)
    form = {"name": "Bots welcome", "size": "3", "layout": "free", "turn_seconds": "30"}
    form["bot_level"] = "random"
    client.post("/tables/new/", {**form, "allow_bots": "on"})
    client.post("/tables/new/", {**form, "name": "People only"})
    assert Table.objects.get(name="Bots welcome").allow_bots is True
    assert Table.objects.get(name="People only").allow_bots is False
