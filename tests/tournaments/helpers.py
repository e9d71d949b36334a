"""Helpers shared by the tournament tests: set up an event, let bots play, snapshot state."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

from django.utils import timezone

from games import clocks
from games.models import Partie, SeatResult
from rosbi_platform.accounts.models import ClubMembership
from rosbi_platform.notifications.models import Notification
from tests.tournaments.factories import ClubFactory, MembershipFactory, UserFactory
from tournaments import entries, events, results, rounds, scheduler
from tournaments.models import (
    AuditLog,
    Entry,
    Round,
    RoundBye,
    RoundSeat,
    RoundTable,
    Standing,
    Tournament,
)

PLENTY = dt.timedelta(hours=1)


def organiser_of(club) -> Any:
    return MembershipFactory(club=club, role=ClubMembership.Role.ORGANISER).user


def open_event(entrants: int, *, slug: str = "cup", **fields: Any) -> tuple[Tournament, Any]:
    """An event whose registration and check-in are open, with ``entrants`` checked in.

    Round 1 is due when the organiser moves it to now (``start_now``)."""
    club = ClubFactory()
    organiser = organiser_of(club)
    now = timezone.now()
    defaults: dict[str, Any] = {
        "registration_opens_at": now - PLENTY,
        "check_in_opens_at": now - PLENTY,
        "round_interval_minutes": 0,
        "turn_seconds": 30,
        "bot_level": "random",
        "no_show_grace_minutes": 60,
    }
    defaults.update(fields)
    tournament = events.create_tournament(
        club=club,
        by=organiser,
        name=f"Event {slug}",
        slug=slug,
        starts_at=now + PLENTY,
        **defaults,
    )
    scheduler.advance_tournament(tournament.pk)
    users = UserFactory.create_batch(entrants)
    for user in users:
        entries.register_entry(tournament.pk, user)
        entries.check_in(tournament.pk, user)
    tournament.refresh_from_db()
    return tournament, organiser


def start_now(tournament: Tournament, organiser: Any) -> None:
    round_one = Round.objects.get(tournament=tournament, number=1)
    rounds.reschedule_round(round_one.pk, timezone.now(), by=organiser)


def players_time_out() -> int:
    """Every player on turn lets the clock run out: the games' sweeper hands the seat to a bot
    (``away``), exactly as it does for a real absent player, and bots play on."""
    return clocks.expire_turns(now=timezone.now() + PLENTY)


def drive(tournament: Tournament, *, sweep, pause: float = 0.0, max_seconds: float = 900) -> None:
    """Play beat: sweep the tournament and expire clocks until the event is finished."""
    deadline = time.monotonic() + max_seconds
    while time.monotonic() < deadline:
        tournament.refresh_from_db()
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            return
        sweep()
        players_time_out()
        if pause:
            time.sleep(pause)
    raise AssertionError(f"{tournament} did not finish within {max_seconds} s")


def state_of(tournament: Tournament) -> dict[str, Any]:
    """Everything the tasks write, in a comparable form."""
    return {
        "tournament": Tournament.objects.filter(pk=tournament.pk)
        .values("status", "rounds", "registration", "check_in")
        .get(),
        "rounds": list(
            Round.objects.filter(tournament=tournament)
            .order_by("number")
            .values_list("number", "status", "no_shows_handled")
        ),
        "tables": list(
            RoundTable.objects.filter(round__tournament=tournament)
            .order_by("round__number", "number")
            .values_list("round__number", "number", "size", "status", "game_table_id")
        ),
        "seats": list(
            RoundSeat.objects.filter(round__tournament=tournament)
            .order_by("round__number", "table__number", "seat")
            .values_list("round__number", "table__number", "seat", "entry_id", "total", "forfeit")
        ),
        "byes": list(
            RoundBye.objects.filter(round__tournament=tournament)
            .order_by("round__number", "entry_id")
            .values_list("round__number", "entry_id")
        ),
        "entries": list(
            Entry.objects.filter(tournament=tournament)
            .order_by("pk")
            .values_list("pk", "status", "seed_number")
        ),
        "standings": list(
            Standing.objects.filter(tournament=tournament)
            .order_by("rank", "entry_id")
            .values_list("entry_id", "rank", "points", "penalty", "opponents_points", "percent")
        ),
        "notices": Notification.objects.filter(tournament_id=tournament.pk).count(),
        "parties": Partie.objects.filter(table__tournament_table__round__tournament=tournament)
        .order_by("pk")
        .count(),
    }


def game_totals(round_table: RoundTable) -> dict[int, int]:
    """The games app's own record of a table's result, seat by seat."""
    return dict(
        SeatResult.objects.filter(partie__table_id=round_table.game_table_id).values_list(
            "seat", "total"
        )
    )


def audit_actions(tournament: Tournament) -> list[str]:
    return list(
        AuditLog.objects.filter(tournament=tournament)
        .order_by("pk")
        .values_list("action", flat=True)
    )


def random_sheet(players: int, seed: str, doubling: bool = True) -> list[list[int]]:
    """A score sheet as a real table would fill it: six deals played out by the engine."""
    import random

    from games.engine import CONTRACT_ORDER, HouseRules, play_out_randomly, random_deal

    rng = random.Random(seed)
    rules = HouseRules(doubling=doubling)
    return [
        list(play_out_randomly(random_deal(players, contract, rng, rules=rules), rng).penalties)
        for contract in CONTRACT_ORDER
    ]


def enter_and_confirm(table: RoundTable, organiser: Any, seed: str) -> list[int]:
    """The organiser enters a table's sheet and the player in seat 0 confirms it."""
    sheet = results.submit_physical_result(table.pk, random_sheet(table.size, seed), by=organiser)
    player = table.seats.get(seat=0).entry.user
    results.confirm_physical_result(sheet.pk, by=player)
    return sheet.totals


def run_at_once(calls, copies: int = 1) -> list[BaseException]:
    """Run every call in its own thread (own database connection), released together by a
    barrier; returns the exceptions raised, in no particular order."""
    import threading

    from django.db import connection

    errors: list[BaseException] = []
    barrier = threading.Barrier(len(calls) * copies)

    def run(call) -> None:
        try:
            barrier.wait()
            call()
        except BaseException as error:  # noqa: BLE001 - handed back to the test
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(c,)) for c in calls for _ in range(copies)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors
