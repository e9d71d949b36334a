"""factory-boy factories for ratings tests: finished Parties as the games app stores them.

``finished_partie`` builds what a real table leaves behind (table, seats, the
``partie_started`` event, six scored deals and the seat results), so the receiver, the
leaver detection and the profile statistics read the same rows as in production.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import factory
from django.utils import timezone
from factory.django import DjangoModelFactory

from games.engine import CONTRACT_ORDER
from games.models import Partie, PartieDeal, Seat, SeatResult, Table
from games.outcomes import PartieOutcome
from games.selectors import partie_outcome
from ratings.models import PlayerRating
from tests.games.factories import UserFactory

BOT = "bot"
EPOCH = dt.datetime(2026, 1, 1, 12, 0, tzinfo=dt.UTC)


class PartieFactory(DjangoModelFactory):
    class Meta:
        model = Partie

    first_dealer = 0
    finished_at = factory.LazyFunction(timezone.now)


class SeatResultFactory(DjangoModelFactory):
    class Meta:
        model = SeatResult

    bot_level = ""
    total = 0
    place = 1


class PlayerRatingFactory(DjangoModelFactory):
    class Meta:
        model = PlayerRating

    user = factory.SubFactory(UserFactory)
    mu = 1500.0
    sigma = 80.0
    games = 20
    last_played = factory.LazyFunction(timezone.now)


def places_of(totals: list[int]) -> list[int]:
    """Competition ranking: lower total is better, equal totals share a place."""
    return [1 + sum(other < mine for other in totals) for mine in totals]


def finished_partie(
    players: list[Any],
    totals: list[int],
    finished_at: dt.datetime | None = None,
    *,
    rated: bool = True,
    left: set[int] | frozenset[int] = frozenset(),
    rating_pool: str = "",
    bot_level: str = "heuristic",
) -> Partie:
    """A finished Partie: ``players`` are users or ``BOT``; seats in ``left`` were taken over
    by a bot after their player left (the result row then names no user, as in games). Every
    bot plays at ``bot_level``.

    Each player's total is spread over the six deals (all in the first deal, zero after), and
    the other deals score zero, so per-contract statistics are predictable.
    """
    n = len(players)
    owner = next((p for p in players if p != BOT), None) or UserFactory()
    table = Table.objects.create(
        name=f"Finished {timezone.now().timestamp()}",
        owner=owner,
        size=n,
        rated=rated,
        turn_seconds=0,
        status=Table.Status.FINISHED,
        rating_pool=rating_pool,
    )
    seats = []
    for number, player in enumerate(players):
        human = player if player != BOT else None
        seat_level = bot_level if human is None or number in left else ""
        seats.append(
            Seat(
                table=table,
                number=number,
                user=None if number in left else human,
                bot_level=seat_level,
                started_by=human,
                left_at=(finished_at or timezone.now()) if number in left else None,
            )
        )
    Seat.objects.bulk_create(seats)
    partie = PartieFactory(table=table, finished_at=finished_at or timezone.now())
    for number, contract in enumerate(CONTRACT_ORDER):
        PartieDeal.objects.create(
            partie=partie,
            number=number,
            contract=contract.value,
            dealer=number % n,
            hands=[[] for _ in range(n)],
            penalties=list(totals) if number == 0 else [0] * n,
            finished_at=partie.finished_at,
        )
    places = places_of(totals)
    for number, player in enumerate(players):
        human = player if player != BOT and number not in left else None
        SeatResultFactory(
            partie=partie,
            seat=number,
            user=human,
            bot_level="" if human is not None else bot_level,
            total=totals[number],
            place=places[number],
            started_by=player if player != BOT else None,
            left_at=partie.finished_at if number in left else None,
        )
    return partie


def outcome_of(partie: Partie) -> PartieOutcome:
    """The typed outcome ``partie_finished`` would carry for this Partie."""
    return partie_outcome(partie.pk)
