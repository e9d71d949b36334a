"""A withdrawal racing the release of the round the player is seated in: one lock order
(Tournament -> Round -> RoundTable -> Entry), no deadlock, and an outcome both calls report.

Before the fix ``withdraw_entry`` locked the event and then rewrote the round's tables while
``start_round`` held the round and then wrote the event: PostgreSQL aborted one of them as a
deadlock (retried quietly) and the withdrawn player stayed seated in the released round.
"""

from __future__ import annotations

import pytest

from games.models import Seat as GameSeat
from rosbi_platform import locking
from tests.tournaments.helpers import open_event, run_at_once
from tournaments import entries, rounds
from tournaments.models import Entry, Round, RoundSeat, RoundTable, Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]

RACES = 8


@pytest.fixture
def conflicts(monkeypatch):
    """Every deadlock or serialization failure PostgreSQL reports to a retried unit."""
    seen: list[str | None] = []
    real = locking.is_conflict

    def spy(error: BaseException) -> bool:
        hit = real(error)
        if hit:
            cause = error.__cause__ if error.__cause__ is not None else error
            seen.append(getattr(cause, "sqlstate", None))
        return hit

    monkeypatch.setattr(locking, "is_conflict", spy)
    return seen


def race(tournament_id: int, user, round_id: int) -> tuple[dict, list[BaseException]]:
    """``withdraw_entry`` and ``start_round`` released at the same moment."""
    reported: dict[str, object] = {}

    def withdraw() -> None:
        reported["withdrawal"] = entries.withdraw_entry(tournament_id, user)

    def start() -> None:
        reported["started"] = rounds.start_round(round_id)

    return reported, run_at_once([withdraw, start])


def test_withdrawal_racing_the_release_is_consistent_and_never_deadlocks(eager_celery, conflicts):
    outcomes = {"reseated": 0, "forfeited": 0}
    for number in range(RACES):
        tournament, organiser = open_event(5, slug=f"race-{number}", mode=Tournament.Mode.ONLINE)
        round_one = Round.objects.get(tournament=tournament, number=1)
        rounds.seat_round(round_one.pk, by=organiser)
        leaving = Entry.objects.filter(tournament=tournament).order_by("pk").first()
        reported, errors = race(tournament.pk, leaving.user, round_one.pk)

        assert errors == []
        assert reported["started"] is True
        round_one.refresh_from_db()
        assert round_one.status == Round.Status.STARTED
        leaving.refresh_from_db()
        assert leaving.status == Entry.Status.WITHDRAWN
        withdrawal = reported["withdrawal"]
        seat = RoundSeat.objects.filter(round=round_one, entry=leaving).first()
        if withdrawal.reseated_round == 1:
            # Withdrawn first: the round was seated again without the player, then released.
            outcomes["reseated"] += 1
            assert withdrawal.forfeited_round is None
            assert seat is None
            assert RoundSeat.objects.filter(round=round_one).count() == 4
        else:
            # Released first: the seat in the running round is handed to a bot (forfeit).
            outcomes["forfeited"] += 1
            assert withdrawal.forfeited_round == 1
            assert seat is not None and seat.forfeit
        # Either way the player holds no seat at any live table of the round.
        game_ids = RoundTable.objects.filter(round=round_one).values_list(
            "game_table_id", flat=True
        )
        assert not GameSeat.objects.filter(table_id__in=game_ids, user=leaving.user).exists()
    assert conflicts == []
    assert sum(outcomes.values()) == RACES
