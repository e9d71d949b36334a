"""Reads of a player's ladder profile: rating history chart, per-contract statistics,
tablemates and the latest changes explained (``player_profile``). The ladder itself is read
in ``ratings.selectors``."""

from __future__ import annotations

import datetime as dt
import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.functional import Promise

from ratings import elo, odds
from ratings.models import LADDER_POOL, PlayerRating, RatingChange
from ratings.selectors import display_for, rating_of, standings


@dataclass
class ChartGeometry:
    """A server-rendered SVG line chart: polyline points and labelled axis ticks.

    Coordinates are preformatted strings ("212.0"), so no language's number format (German
    writes "212,0") can reach the SVG; the template draws it inside ``{% localize off %}`` too.
    """

    width: int
    height: int
    left: int
    bottom: int
    points: str
    y_ticks: list[tuple[str, int]]
    x_ticks: list[tuple[str, int]]
    label_x: int = 0
    label_y: int = 0


def rating_chart(values: list[float], width: int = 640, height: int = 240) -> ChartGeometry | None:
    """Chart geometry for ratings after each Partie (x: Partie number, y: rating)."""
    if not values:
        return None
    left, right, top, bottom = 48, 12, 12, height - 28
    series = [elo.INITIAL_MU, *values]
    low = math.floor(min(series) / 50) * 50
    high = math.ceil(max(series) / 50) * 50
    if high - low < 100:
        low, high = low - 50, high + 50
    span_x = max(1, len(series) - 1)

    def x_of(i: float) -> str:
        return f"{left + (width - left - right) * i / span_x:.1f}"

    def y_of(v: float) -> str:
        return f"{bottom - (bottom - top) * (v - low) / (high - low):.1f}"

    points = " ".join(f"{x_of(i)},{y_of(v)}" for i, v in enumerate(series))
    step = max(50, int(math.ceil((high - low) / 5 / 50)) * 50)
    y_ticks = [(y_of(v), v) for v in range(int(low), int(high) + 1, step)]
    x_step = max(1, int(math.ceil(span_x / 8)))
    x_ticks = [(x_of(i), i) for i in range(0, span_x + 1, x_step)]
    return ChartGeometry(
        width, height, left, bottom, points, y_ticks, x_ticks, left - 6, bottom + 16
    )


@dataclass
class ContractLine:
    contract: str
    name: str | Promise  # translated when the page is drawn
    deals: int
    average: float
    table_average: float

    @property
    def edge(self) -> float:
        """Penalty points per deal above (worse) or below (better) the others at those deals."""
        return self.average - self.table_average


def contract_lines(seat_of: dict[int, int]) -> list[ContractLine]:
    """Per contract: the player's average penalty per deal and the table's, over the Parties
    in ``seat_of`` (Partie id -> the player's seat), in the Partie order of the contracts."""
    from games.contract_names import CONTRACT_NAMES
    from games.engine import CONTRACT_ORDER
    from games.selectors import scored_deals

    mine_sum: dict[str, float] = defaultdict(float)
    mine_n: Counter[str] = Counter()
    table_sum: dict[str, float] = defaultdict(float)
    table_n: Counter[str] = Counter()
    for partie_id, contract, penalties in scored_deals(list(seat_of)):
        seat = seat_of[partie_id]
        if not penalties or seat >= len(penalties):
            continue
        mine_sum[contract] += penalties[seat]
        mine_n[contract] += 1
        table_sum[contract] += sum(penalties)
        table_n[contract] += len(penalties)
    contracts = [
        ContractLine(
            contract=c.value,
            name=CONTRACT_NAMES[c.value],
            deals=mine_n[c.value],
            average=mine_sum[c.value] / mine_n[c.value],
            table_average=table_sum[c.value] / table_n[c.value],
        )
        for c in CONTRACT_ORDER
        if mine_n[c.value]
    ]
    return contracts


def visible_history(user: Any, viewer: Any, pool: str = LADDER_POOL) -> QuerySet[RatingChange]:
    """The player's rating changes in ``pool`` at Parties ``viewer`` may see (the games' one
    rule, ``games.selectors.parties_visible_to``), oldest first: a private table's Partie is
    no row at all for anyone who did not play in it."""
    from games.selectors import parties_visible_to

    return (
        RatingChange.objects.filter(parties_visible_to(viewer, "partie__"), user=user, pool=pool)
        .select_related("partie__table")
        .order_by("finished_at", "partie_id")
    )


def player_seats(user: Any, viewer: Any, pool: str = LADDER_POOL) -> dict[int, int]:
    """Partie id -> the player's seat, for every finished Partie they played or left that
    ``viewer`` may see."""
    from games.selectors import finished_results_of

    seat_of = dict(
        finished_results_of(user, viewer).filter(user=user).values_list("partie_id", "seat")
    )
    for partie_id, seat in visible_history(user, viewer, pool).values_list("partie_id", "seat"):
        seat_of.setdefault(partie_id, seat)
    return seat_of


@dataclass
class PlayerProfile:
    user: Any
    name: str
    rating: PlayerRating | None
    display: str
    rank: int | None
    history: list[RatingChange]
    chart: ChartGeometry | None
    recent: list[dict[str, Any]]
    contracts: list[ContractLine]
    best: ContractLine | None
    worst: ContractLine | None
    places: list[tuple[int, int]]
    tablemates: list[tuple[str, int]]
    explained: list[Any] = field(default_factory=list)  # ChangeExplained, newest first


EXPLAINED = 3
"""How many of the latest rated Parties the player page explains opponent by opponent."""


def player_profile(
    user: Any, viewer: Any, pool: str = LADDER_POOL, now: dt.datetime | None = None
) -> PlayerProfile:
    """Everything the ladder profile page shows ``viewer`` of ``user``: the rating and rank
    are public; the Parties, results, rating changes, statistics and tablemates only of the
    Parties ``viewer`` may see (``games.selectors.parties_visible_to``: the player sees all
    of theirs, others no private table they did not play at)."""
    from games.selectors import finished_results_of, tablemates_of

    now = now or timezone.now()
    row = rating_of(user, pool)
    history = list(visible_history(user, viewer, pool))
    mine = next((r for r in standings(pool, now) if r.user_id == user.pk), None)
    results = list(
        finished_results_of(user, viewer).filter(user=user).order_by("-partie__finished_at")
    )
    seat_of = {r.partie_id: r.seat for r in results}
    # Parties the player left count too: their seat is in the rating history.
    for change in history:
        seat_of.setdefault(change.partie_id, change.seat)
    changes_by_partie = {c.partie_id: c for c in history}
    recent = [
        {
            "table_id": r.partie.table_id,
            "table": r.partie.table.name,
            "finished_at": r.partie.finished_at,
            "total": r.total,
            "place": r.place,
            "size": r.partie.table.size,
            "rated": r.partie.table.rated,
            "delta": changes_by_partie[r.partie_id].delta
            if r.partie_id in changes_by_partie
            else None,
        }
        for r in results[:10]
    ]
    contracts = contract_lines(seat_of)
    best = min(contracts, key=lambda c: c.edge) if contracts else None
    worst = max(contracts, key=lambda c: c.edge) if contracts else None
    place_counts = Counter(r.place for r in results)
    for change in history:
        if change.left:
            place_counts[change.place] += 1
    profile = getattr(user, "profile", None)
    return PlayerProfile(
        user=user,
        name=(profile.display_name if profile is not None else "") or user.get_username(),
        rating=row,
        display=display_for(row, now),
        rank=mine.rank if mine is not None else None,
        history=history,
        chart=rating_chart([c.mu_after for c in history]),
        recent=recent,
        contracts=contracts,
        best=best,
        worst=worst,
        places=sorted(place_counts.items()),
        tablemates=tablemates_of(user, viewer),
        explained=[
            e for e in (odds.change_explained(c) for c in reversed(history[-EXPLAINED:])) if e
        ],
    )
