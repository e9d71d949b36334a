"""The rating rules of a history: rated Parties replayed in order, season resets in between.

No database here: ``ratings.updates`` reads the jobs and stores what the replay returns (through
``ratings.storage``). The same replay serves the incremental task, a late arrival (rewind to the
late Partie and replay what follows) and the full recompute, which is why recompute equals
incremental to the last bit.

House rules (see docs/ratings.md): a bot seat takes part in the maths as the measured rating
of its level (``games.bots.level_rating``, with its sigma), frozen into the rated Partie when it
is recorded, and is never updated; a seat without one counts as ``RATINGS_BOT_MU``/
``RATINGS_BOT_SIGMA``. A human who left a started table (a bot finished their seat) is rated as
themselves, last, with a total one point worse than the worst total at the table.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from django.conf import settings

from games.bots import level_rating, level_rating_sigma
from ratings import elo

ProgressCallback = Callable[[int, int], None]

# A player's state during a replay: ``(mu, sigma, games, last_played as POSIX seconds,
# last_played as a datetime)``. Plain tuples, because the replay of 100,000 Parties creates
# about 430,000 of them; the first four items are what ``elo.update_values`` reads.
State = tuple[float, float, int, float | None, dt.datetime | None]
NEWCOMER: State = (elo.INITIAL_MU, elo.INITIAL_SIGMA, 0, None, None)

# One rating change as the replay produces it: the columns of ``CHANGE_COLUMNS`` after ``pool``.
ChangeRow = tuple[Any, ...]
CHANGE_COLUMNS = (
    "pool",
    "partie_id",
    "user_id",
    "finished_at",
    "seat",
    "total",
    "place",
    "left",
    "mu_before",
    "sigma_before",
    "games_before",
    "last_played_before",
    "mu_after",
    "sigma_after",
)


@dataclass(frozen=True)
class Job:
    """One rated Partie to replay: its participants as ``participants_of`` stored them."""

    partie_id: int
    finished_at: dt.datetime
    participants: list[dict[str, Any]]

    @property
    def key(self) -> tuple[dt.datetime, int]:
        return (self.finished_at, self.partie_id)


@dataclass(frozen=True)
class SeasonReset:
    """A closed season: the soft reset applied to every rating at ``closed_at``."""

    closed_at: dt.datetime
    pull: float
    sigma_bump: float


def fallback_bot_rating() -> elo.Rating:
    """What a bot seat counts as when its level has no measured rating (and in a rated Partie
    recorded before bot seats carried one): ``RATINGS_BOT_MU``/``RATINGS_BOT_SIGMA``, 1500."""
    return elo.Rating(
        mu=float(getattr(settings, "RATINGS_BOT_MU", elo.INITIAL_MU)),
        sigma=float(getattr(settings, "RATINGS_BOT_SIGMA", elo.MIN_SIGMA)),
    )


def bot_rating(level: str | None = None) -> elo.Rating:
    """The rating a bot seat of ``level`` counts as (bots are never rated themselves).

    The level's measured rating and sigma on the ladder's scale (``bench/bot_ratings.py``), so
    beating a weak bot is worth what beating a weak player is worth, and the ladder cannot be
    farmed by filling a table with random bots (docs/ratings.md, "Bot seats and farming").
    A level without a measured rating counts as ``fallback_bot_rating``.
    """
    mu = level_rating(level) if level else None
    sigma = level_rating_sigma(level) if level else None
    if mu is None or sigma is None:
        return fallback_bot_rating()
    return elo.Rating(mu=float(mu), sigma=float(sigma))


def recorded_bot_rating(participant: dict[str, Any]) -> elo.Rating:
    """The rating a bot seat of a recorded Partie counts as: the one frozen into it at
    recording (``bot_mu``/``bot_sigma``), so a later re-measure of the levels never rewrites
    history and a recompute equals the live update; ``fallback_bot_rating`` without one."""
    mu = participant.get("bot_mu")
    if mu is None:
        return fallback_bot_rating()
    return elo.Rating(mu=float(mu), sigma=float(participant["bot_sigma"]))


def soft_reset(rating: elo.Rating, pull: float, sigma_bump: float) -> elo.Rating:
    """A new season: mu moves ``pull`` of the way to 1500 and sigma grows by ``sigma_bump``
    (added in quadrature, capped at the newcomer value), so old ranks must be re-earned."""
    mu = elo.INITIAL_MU + (rating.mu - elo.INITIAL_MU) * (1.0 - pull)
    sigma = min(elo.INITIAL_SIGMA, math.hypot(rating.sigma, sigma_bump))
    return replace(rating, mu=mu, sigma=sigma)


def count_rated_humans(participants: list[dict[str, Any]]) -> int:
    """How many distinct people a Partie rates (it is rated only with at least two)."""
    return len({p["user_id"] for p in participants if p["user_id"] is not None})


def state_of_row(row: Any) -> State:
    """The replay state of a stored ``PlayerRating`` row."""
    return (row.mu, row.sigma, row.games, timestamp_of(row.last_played), row.last_played)


def timestamp_of(moment: dt.datetime | None) -> float | None:
    return moment.timestamp() if moment is not None else None


def reset_states(states: dict[int, State], reset: SeasonReset) -> None:
    """Apply a season's soft reset to every state, in place."""
    for uid, state in states.items():
        rating = elo.Rating(mu=state[0], sigma=state[1], games=state[2], last_played=state[3])
        new = soft_reset(rating, reset.pull, reset.sigma_bump)
        states[uid] = (new.mu, new.sigma, new.games, new.last_played, state[4])


def _bot_state(participant: dict[str, Any], fallback: State) -> State:
    """A bot seat as the maths sees it: ``recorded_bot_rating`` without building a Rating."""
    mu = participant.get("bot_mu")
    return fallback if mu is None else (float(mu), float(participant["bot_sigma"]), 0, None, None)


def _rate_job(job: Job, states: dict[int, State], bot: State, changes: list[ChangeRow]) -> None:
    """Apply one Partie to ``states`` in memory; append the rating-change rows it causes.

    ``bot`` is the state of a bot seat recorded without a rating of its own."""
    people = job.participants
    if count_rated_humans(people) < 2:
        return
    worst = max(p["total"] for p in people)
    totals = [worst + 1 if p["left"] else p["total"] for p in people]
    last_place = len(people)
    players = [
        _bot_state(p, bot) if p["user_id"] is None else states.get(p["user_id"], NEWCOMER)
        for p in people
    ]
    finished_at = job.finished_at
    stamp = finished_at.timestamp()
    after = elo.update_values(players, totals, stamp)
    partie_id = job.partie_id
    for p, old, new in zip(people, players, after, strict=True):
        uid = p["user_id"]
        if uid is None:
            continue
        # elo never moves last_played backwards; the datetime follows the seconds.
        states[uid] = (*new, finished_at if new[3] == stamp else old[4])
        changes.append(
            (
                partie_id,
                uid,
                finished_at,
                p["seat"],
                p["total"],
                last_place if p["left"] else p["place"],
                p["left"],
                old[0],
                old[1],
                old[2],
                old[4],
                new[0],
                new[1],
            )
        )


def replay_jobs(
    jobs: list[Job],
    states: dict[int, State],
    resets: list[SeasonReset],
    progress: ProgressCallback | None = None,
    sink: Callable[[list[ChangeRow]], None] | None = None,
    sink_every: int = 5_000,
) -> list[ChangeRow]:
    """Apply jobs in order (season resets in between) to ``states``; all change rows.

    With ``sink``, the rows go to it instead, every ``sink_every`` jobs and at the end (so
    the database can store them while the replay goes on), and nothing is returned."""
    bot: State = (*_values(fallback_bot_rating()), None)
    changes: list[ChangeRow] = []
    pending_resets = sorted(resets, key=lambda r: r.closed_at)
    next_reset = 0
    step = max(1, len(jobs) // 100)
    for index, job in enumerate(jobs):
        while next_reset < len(pending_resets) and pending_resets[next_reset].closed_at <= (
            job.finished_at
        ):
            reset_states(states, pending_resets[next_reset])
            next_reset += 1
        _rate_job(job, states, bot, changes)
        if progress is not None and (index + 1) % step == 0:
            progress(index + 1, len(jobs))
        if sink is not None and (index + 1) % sink_every == 0 and changes:
            sink(changes)
            changes = []
    for reset in pending_resets[next_reset:]:
        reset_states(states, reset)
    if sink is not None:
        if changes:
            sink(changes)
        return []
    return changes


def _values(rating: elo.Rating) -> tuple[float, float, int, float | None]:
    return (rating.mu, rating.sigma, rating.games, rating.last_played)
