"""Create started 4-human tables and logged-in sessions for the live-tables load benchmark.

The load client (``bench/load/client.py``) needs thousands of authenticated players sitting at
started tables; creating them through HTTP would take minutes and measure the wrong thing.
Users and sessions are bulk-inserted (no password hashing: the accounts are unusable for
logging in by password), while every table goes through the real lobby actions (create, join,
start) so that its events, deals and clocks are exactly those of production.

    python manage.py bench_tables --tables 100 --rounds 3 --out var/bench_load/tables.json

``--rounds`` gives every group of four players that many tables in a row: when one Partie is
over, the client moves the four on to the next table (closed-loop runs outlast one Partie).
"""

from __future__ import annotations

import datetime as dt
import json
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.hashers import make_password
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone
from django.utils.crypto import get_random_string

from games import lobby
from rosbi_platform.accounts.models import Profile, User

PLAYERS_PER_TABLE = 4
SESSION_DAYS = 2


def create_players(prefix: str, slots: int) -> list[list[User]]:
    """``slots`` groups of four users, inserted in bulk (one unusable password hash shared),
    each with a verified address of the reserved ``.invalid`` domain: rated tables take only
    accounts whose e-mail is verified (``ratings.eligibility``), and no mail can go out."""
    password = make_password(None)
    users = [
        User(
            username=f"{prefix}-{slot}-{seat}",
            email=f"{prefix}-{slot}-{seat}@load.invalid",
            password=password,
        )
        for slot in range(slots)
        for seat in range(PLAYERS_PER_TABLE)
    ]
    User.objects.bulk_create(users, batch_size=1000)
    stored = {u.username: u for u in User.objects.filter(username__startswith=f"{prefix}-")}
    now = timezone.now()
    Profile.objects.bulk_create(
        [Profile(user=u, verified_email=u.email, email_verified_at=now) for u in stored.values()],
        batch_size=1000,
    )
    return [
        [stored[f"{prefix}-{slot}-{seat}"] for seat in range(PLAYERS_PER_TABLE)]
        for slot in range(slots)
    ]


def create_sessions(users: list[User]) -> dict[int, str]:
    """A logged-in session per user, as ``django.contrib.auth.login`` would store it."""
    backend = (
        "rosbi_platform.accounts.backends.ModelBackend"  # what log-in stores after a password check
    )
    expire = timezone.now() + dt.timedelta(days=SESSION_DAYS)
    store = SessionStore()
    keys: dict[int, str] = {}
    rows = []
    for user in users:
        key = get_random_string(32, "abcdefghijklmnopqrstuvwxyz0123456789")
        data = {
            SESSION_KEY: str(user.pk),
            BACKEND_SESSION_KEY: backend,
            HASH_SESSION_KEY: user.get_session_auth_hash(),
        }
        rows.append(Session(session_key=key, session_data=store.encode(data), expire_date=expire))
        keys[user.pk] = key
    Session.objects.bulk_create(rows, batch_size=1000)
    return keys


def start_table_for(players: list[User], name: str, turn_seconds: int, rated: bool = False) -> int:
    """One table through the real lobby actions: created by seat 0, joined by 1-3, started."""
    table = lobby.create_table(
        owner=players[0], name=name, size=PLAYERS_PER_TABLE, turn_seconds=turn_seconds, rated=rated
    )
    for seat, player in enumerate(players[1:], start=1):
        lobby.join_table(table.pk, player, seat=seat)
    lobby.start_table(table.pk, players[0])
    return table.pk


class Command(BaseCommand):
    help = "Create N groups of 4 logged-in players and N x rounds started tables (load bench)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, default=100, help="tables played at once")
        parser.add_argument("--rounds", type=int, default=1, help="tables per group in a row")
        parser.add_argument("--turn-seconds", type=int, default=30, help="clock per move")
        parser.add_argument("--rated", action="store_true", help="rated tables (ladder pool)")
        parser.add_argument("--prefix", default="", help="user name prefix (default: unique)")
        parser.add_argument("--out", default="var/bench_load/tables.json", help="JSON plan file")

    def handle(self, *args: Any, **options: Any) -> None:
        slots, rounds = options["tables"], options["rounds"]
        prefix = options["prefix"] or f"lb{int(time.time())}"
        began = time.perf_counter()
        players = create_players(prefix, slots)
        keys = create_sessions([u for group in players for u in group])
        plan_slots = []
        for slot, group in enumerate(players):
            tables = [
                start_table_for(
                    group, f"load {prefix} {slot}/{r}", options["turn_seconds"], options["rated"]
                )
                for r in range(rounds)
            ]
            plan_slots.append(
                {
                    "tables": tables,
                    "players": [{"user_id": u.pk, "session": keys[u.pk]} for u in group],
                }
            )
            if (slot + 1) % 50 == 0:
                self.stdout.write(f"  {slot + 1}/{slots} groups seated")
        out = Path(options["out"])
        out.parent.mkdir(parents=True, exist_ok=True)
        plan = {
            "prefix": prefix,
            "session_cookie": settings.SESSION_COOKIE_NAME,
            "turn_seconds": options["turn_seconds"],
            "slots": plan_slots,
        }
        out.write_text(json.dumps(plan))
        self.stdout.write(
            f"{slots} groups x {rounds} round(s) = {slots * rounds} started tables, "
            f"{slots * PLAYERS_PER_TABLE} sessions in {time.perf_counter() - began:.1f} s -> {out}"
        )
