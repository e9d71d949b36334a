"""Reads of the ratings app: leaderboard, around-me, profile statistics, the rating chart,
queue status and collusion signals. No writes happen here (they are in the action
modules: ``updates``, ``seasons``, ``ranked_queue``, ``recording``)."""

from __future__ import annotations

import datetime as dt
import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Count, FloatField, QuerySet
from django.db.models.expressions import RawSQL
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext

from ratings import elo, odds
from ratings.models import (
    LADDER_POOL,
    LadderQueueEntry,
    Leaderboard,
    PlayerRating,
    RatingChange,
    Season,
)


def _setting(name: str, default: Any) -> Any:
    return getattr(settings, name, default)


def min_parties() -> int:
    return int(_setting("RATINGS_LEADERBOARD_MIN_PARTIES", 10))


def active_days() -> int:
    return int(_setting("RATINGS_LEADERBOARD_ACTIVE_DAYS", 30))


def shown_rating(row: PlayerRating | None, now: dt.datetime | None = None) -> elo.Rating:
    """The rating as of ``now``: sigma grown for the days without play (so absence shows "?")."""
    if row is None:
        return elo.new_rating()
    now = now or timezone.now()
    return elo.inflate_for_inactivity(row.as_rating(), now.timestamp())


def display_for(row: PlayerRating | None, now: dt.datetime | None = None) -> str:
    """Whole Elo points, "?" appended while provisional: "1623", "1500?"."""
    return elo.display(shown_rating(row, now))


def rating_of(user: Any, pool: str = LADDER_POOL) -> PlayerRating | None:
    return PlayerRating.objects.filter(user=user, pool=pool).first()


# --------------------------------------------------------------------------- leaderboard


@dataclass
class StandingRow:
    user_id: int
    username: str
    name: str
    mu: float
    sigma: float
    games: int
    last_played: dt.datetime | None
    display: str
    eligible: bool
    reasons: list[str] = field(default_factory=list)
    rank: int | None = None

    @property
    def rating(self) -> int:
        return int(math.floor(self.mu + 0.5))

    @property
    def reason(self) -> str:
        """Every reason the player is not ranked, in the active language ("" when ranked)."""
        return "; ".join(self.reasons)

    @property
    def too_few_parties(self) -> bool:
        return self.games < min_parties()


def _ineligibility(rating: elo.Rating, row: PlayerRating, now: dt.datetime) -> list[str]:
    """Why a player is not ranked, each condition said exactly ([] when ranked): too few
    Parties (and how many more), none within the active days, a provisional rating."""
    reasons = []
    needed = min_parties()
    if row.games < needed:
        missing = needed - row.games
        reasons.append(
            ngettext(
                "%(missing)d more rated Partie needed (%(games)d of %(needed)d played)",
                "%(missing)d more rated Parties needed (%(games)d of %(needed)d played)",
                missing,
            )
            % {"missing": missing, "games": row.games, "needed": needed}
        )
    days = active_days()
    if row.last_played is None or now - row.last_played > dt.timedelta(days=days):
        reasons.append(
            ngettext(
                "no rated Partie in the last %(days)d day",
                "no rated Partie in the last %(days)d days",
                days,
            )
            % {"days": days}
        )
    if elo.is_provisional(rating):
        reasons.append(
            gettext("rating still provisional (uncertainty above %(limit)d points)")
            % {"limit": round(elo.PROVISIONAL_SIGMA)}
        )
    return reasons


def standings(pool: str = LADDER_POOL, now: dt.datetime | None = None) -> list[StandingRow]:
    """Every rated player, best first; eligible players carry their rank 1, 2, 3, ...

    Order: rating (mu) descending, then more Parties, then the earlier account.
    """
    return _ranked_lines(PlayerRating.objects.filter(pool=pool, games__gt=0), now)


def _ranked_lines(ratings: QuerySet, now: dt.datetime | None) -> list[StandingRow]:
    """The ladder lines of ``ratings`` in ``RANK_ORDER``, the eligible ones ranked 1, 2, 3."""
    now = now or timezone.now()
    rows = ratings.select_related("user", "user__profile").order_by(*RANK_ORDER)
    result = []
    rank = 0
    for row in rows:
        rating = shown_rating(row, now)
        reasons = _ineligibility(rating, row, now)
        profile = getattr(row.user, "profile", None)
        standing = StandingRow(
            user_id=row.user_id,
            username=row.user.get_username(),
            name=(profile.display_name if profile is not None else "") or row.user.get_username(),
            mu=row.mu,
            sigma=rating.sigma,
            games=row.games,
            last_played=row.last_played,
            display=elo.display(rating),
            eligible=not reasons,
            reasons=reasons,
        )
        if standing.eligible:
            rank += 1
            standing.rank = rank
        result.append(standing)
    return result


def leaderboard(
    pool: str = LADDER_POOL, now: dt.datetime | None = None, limit: int = 100
) -> list[StandingRow]:
    """The ranked (eligible) players, best first."""
    return [row for row in standings(pool, now) if row.eligible][:limit]


def _closest_first(rows: list[StandingRow]) -> list[StandingRow]:
    return sorted(rows, key=lambda r: (-r.games, -r.mu, r.user_id))


def provisional(
    pool: str = LADDER_POOL, now: dt.datetime | None = None, limit: int = 100
) -> list[StandingRow]:
    """Players with fewer than ``min_parties()`` rated Parties, the most Parties first."""
    return ladder_board(pool, now, limit).provisional


def not_ranked(
    pool: str = LADDER_POOL, now: dt.datetime | None = None, limit: int = 100
) -> list[StandingRow]:
    """Players with enough Parties who are still not ranked (away too long, or a rating
    that is still provisional), the most Parties first."""
    return ladder_board(pool, now, limit).not_ranked


@dataclass
class LadderBoard:
    """The ladder page's lists, from one reading of the standings."""

    ranked: list[StandingRow]
    provisional: list[StandingRow]
    not_ranked: list[StandingRow]
    rows: list[StandingRow]


def ladder_board(
    pool: str = LADDER_POOL, now: dt.datetime | None = None, limit: int = 100
) -> LadderBoard:
    """Ranked players best first, then the unranked ones in two groups: too few Parties
    (provisional) and the rest; each group holds at most ``limit`` players."""
    rows = standings(pool, now)
    unranked = [r for r in rows if not r.eligible]
    return LadderBoard(
        ranked=[r for r in rows if r.eligible][:limit],
        provisional=_closest_first([r for r in unranked if r.too_few_parties])[:limit],
        not_ranked=_closest_first([r for r in unranked if not r.too_few_parties])[:limit],
        rows=rows,
    )


@dataclass
class AroundMe:
    row: StandingRow | None
    neighbours: list[StandingRow] = field(default_factory=list)


def around_me(
    user: Any,
    pool: str = LADDER_POOL,
    now: dt.datetime | None = None,
    radius: int = 5,
    rows: list[StandingRow] | None = None,
) -> AroundMe:
    """The player's own line and, when ranked, the ``radius`` ranks above and below
    (``rows``: the standings when the caller has read them already)."""
    rows = standings(pool, now) if rows is None else rows
    mine = next((r for r in rows if r.user_id == user.pk), None)
    if mine is None or mine.rank is None:
        return AroundMe(mine)
    ranked = [r for r in rows if r.eligible]
    index = mine.rank - 1
    return AroundMe(mine, ranked[max(0, index - radius) : index + radius + 1])


def games_between(pool: str, start: dt.datetime, end: dt.datetime) -> dict[int, int]:
    """Rated Parties per player finished in ``[start, end)``."""
    counts = (
        RatingChange.objects.filter(pool=pool, finished_at__gte=start, finished_at__lt=end)
        .values("user_id")
        .annotate(n=Count("id"))
    )
    return {row["user_id"]: row["n"] for row in counts}


def open_season(pool: str = LADDER_POOL) -> Season | None:
    return Season.objects.filter(pool=pool, closed_at__isnull=True).first()


def closed_seasons(pool: str = LADDER_POOL) -> list[Season]:
    return list(Season.objects.filter(pool=pool, closed_at__isnull=False).order_by("-closed_at"))


# --------------------------------------------------------------------------- queue


@dataclass
class QueueStatus:
    waiting: bool
    waited_seconds: int
    queue_size: int
    table_id: int | None


def queue_status(user: Any, now: dt.datetime | None = None) -> QueueStatus:
    """Whether ``user`` waits, for how long, how many wait, and their running ranked table."""
    from games.models import Table

    now = now or timezone.now()
    size = LadderQueueEntry.objects.filter(status=LadderQueueEntry.Status.WAITING).count()
    if not getattr(user, "is_authenticated", False):
        return QueueStatus(False, 0, size, None)
    entry = LadderQueueEntry.objects.filter(
        user=user, status=LadderQueueEntry.Status.WAITING
    ).first()
    if entry is not None:
        waited = max(0, int((now - entry.joined_at).total_seconds()))
        return QueueStatus(True, waited, size, None)
    table_id = (
        LadderQueueEntry.objects.filter(
            user=user,
            status=LadderQueueEntry.Status.MATCHED,
            table__status=Table.Status.PLAYING,
        )
        .order_by("-closed_at")
        .values_list("table_id", flat=True)
        .first()
    )
    return QueueStatus(False, 0, size, table_id)


# --------------------------------------------------------------------------- profile


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
    from games.models import PartieDeal

    mine_sum: dict[str, float] = defaultdict(float)
    mine_n: Counter[str] = Counter()
    table_sum: dict[str, float] = defaultdict(float)
    table_n: Counter[str] = Counter()
    deals = PartieDeal.objects.filter(
        partie_id__in=list(seat_of), penalties__isnull=False
    ).values_list("partie_id", "contract", "penalties")
    for partie_id, contract, penalties in deals:
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


def player_seats(user: Any, pool: str = LADDER_POOL) -> dict[int, int]:
    """Partie id -> the player's seat, for every finished Partie they played or left."""
    from games.models import SeatResult

    seat_of = dict(
        SeatResult.objects.filter(user=user, partie__finished_at__isnull=False).values_list(
            "partie_id", "seat"
        )
    )
    for partie_id, seat in RatingChange.objects.filter(user=user, pool=pool).values_list(
        "partie_id", "seat"
    ):
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
    user: Any, pool: str = LADDER_POOL, now: dt.datetime | None = None
) -> PlayerProfile:
    """Everything the ladder profile page shows for ``user``."""
    from games.models import SeatResult

    now = now or timezone.now()
    row = rating_of(user, pool)
    history = list(
        RatingChange.objects.filter(user=user, pool=pool)
        .select_related("partie__table")
        .order_by("finished_at", "partie_id")
    )
    mine = next((r for r in standings(pool, now) if r.user_id == user.pk), None)
    results = list(
        SeatResult.objects.filter(user=user, partie__finished_at__isnull=False)
        .select_related("partie__table")
        .order_by("-partie__finished_at")
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
    mates: Counter[int] = Counter(
        SeatResult.objects.filter(partie_id__in=list(seat_of), user__isnull=False)
        .exclude(user=user)
        .values_list("user_id", flat=True)
    )
    User = get_user_model()
    mate_names = dict(
        User.objects.filter(pk__in=[uid for uid, _n in mates.most_common(5)]).values_list(
            "pk", "username"
        )
    )
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
        tablemates=[(mate_names[uid], n) for uid, n in mates.most_common(5)],
        explained=[
            e for e in (odds.change_explained(c) for c in reversed(history[-EXPLAINED:])) if e
        ],
    )


# --------------------------------------------------------------------------- collusion


@dataclass
class PairSignal:
    """Two players who shared rated tables; ``z`` > 0 means ``ahead`` beat ``behind`` more
    often than their ratings predicted."""

    ahead: str
    behind: str
    shared: int
    ahead_wins: float
    expected: float
    z: float
    flagged: bool


def collusion_pairs(
    pool: str = LADDER_POOL, min_shared: int | None = None, z_threshold: float | None = None
) -> list[PairSignal]:
    """Pairs who often share rated tables with lopsided head-to-head results.

    A pair is flagged when they met at least ``min_shared`` times, one side finished ahead in
    at least ``lopsided`` of those Parties, and that exceeds what the two pre-Partie ratings
    predicted (``elo.win_probability`` per Partie) by ``z_threshold`` standard deviations, so a
    strong player routinely beating a weak one is listed but not flagged. Soft-play and
    chip-dumping both look like this; the staff page sorts flagged pairs first.
    """
    min_shared = int(
        _setting("RATINGS_COLLUSION_MIN_SHARED", 5) if min_shared is None else min_shared
    )
    z_threshold = float(
        _setting("RATINGS_COLLUSION_Z", 1.5) if z_threshold is None else z_threshold
    )
    lopsided = float(_setting("RATINGS_COLLUSION_LOPSIDED", 0.8))
    by_partie: dict[int, list[RatingChange]] = defaultdict(list)
    for change in RatingChange.objects.filter(pool=pool).only(
        "partie_id", "user_id", "total", "left", "mu_before", "sigma_before"
    ):
        by_partie[change.partie_id].append(change)
    stats: dict[tuple[int, int], list[float]] = defaultdict(lambda: [0, 0.0, 0.0, 0.0])
    for changes in by_partie.values():
        worst = max(c.total for c in changes)
        for a, b in combinations(sorted(changes, key=lambda c: c.user_id), 2):
            total_a = worst + 1 if a.left else a.total
            total_b = worst + 1 if b.left else b.total
            score = 1.0 if total_a < total_b else 0.5 if total_a == total_b else 0.0
            p = elo.win_probability(
                elo.Rating(a.mu_before, a.sigma_before), elo.Rating(b.mu_before, b.sigma_before)
            )
            entry = stats[(a.user_id, b.user_id)]
            entry[0] += 1
            entry[1] += score
            entry[2] += p
            entry[3] += p * (1.0 - p)
    User = get_user_model()
    wanted = {uid for pair, s in stats.items() if s[0] >= min_shared for uid in pair}
    names = dict(User.objects.filter(pk__in=wanted).values_list("pk", "username"))
    signals = []
    for (a, b), (shared, wins, expected, variance) in stats.items():
        if shared < min_shared:
            continue
        z = (wins - expected) / math.sqrt(max(variance, 1e-9))
        if z < 0:
            a, b, wins, expected, z = b, a, shared - wins, shared - expected, -z
        signals.append(
            PairSignal(
                ahead=names[a],
                behind=names[b],
                shared=int(shared),
                ahead_wins=wins,
                expected=round(expected, 1),
                z=round(z, 2),
                flagged=z >= z_threshold and wins >= lopsided * shared,
            )
        )
    return sorted(signals, key=lambda s: (-s.flagged, -s.z, -s.shared, s.ahead, s.behind))


@dataclass
class SameIpTable:
    table_id: int
    ip: str
    usernames: list[str]


def same_ip_tables(pool: str = LADDER_POOL) -> list[SameIpTable]:
    """Ranked tables where two or more seats were queued from the same IP address."""
    groups: dict[tuple[int, str], list[str]] = defaultdict(list)
    rows = (
        LadderQueueEntry.objects.filter(
            pool=pool, status=LadderQueueEntry.Status.MATCHED, table__isnull=False
        )
        .filter(ip__isnull=False)
        .values_list("table_id", "ip", "user__username")
        .order_by("-table_id", "user__username")
    )
    for table_id, ip, username in rows:
        if not ip:
            continue
        groups[(table_id, ip)].append(username)
    return [
        SameIpTable(table_id, ip, names)
        for (table_id, ip), names in groups.items()
        if len(names) > 1
    ]


# --------------------------------------------------------------------------- ranks in the database


def eligible_ratings(pool: str = LADDER_POOL, now: dt.datetime | None = None) -> QuerySet:
    """The ranked players of ``pool`` as a query, the same rule as ``standings`` but decided
    by PostgreSQL: enough Parties, one within the active days, and a rating that is not
    provisional once sigma has grown for the days without play (sigma^2 + c^2 * days)."""
    now = now or timezone.now()
    c2 = elo.DEFAULT_PARAMS.inactivity_c**2
    grown = RawSQL(
        '"ratings_playerrating"."sigma" * "ratings_playerrating"."sigma" + %s * GREATEST(0, '
        'EXTRACT(EPOCH FROM (%s - "ratings_playerrating"."last_played")) / 86400.0)',
        (c2, now),
        output_field=FloatField(),
    )
    return (
        PlayerRating.objects.filter(
            pool=pool,
            games__gte=max(1, min_parties()),
            last_played__gte=now - dt.timedelta(days=active_days()),
        )
        .alias(grown_variance=grown)
        .filter(grown_variance__lte=elo.PROVISIONAL_SIGMA**2)
    )


# The leaderboard's total order (``ratings.leaderboard`` numbers the ranks in it).
RANK_ORDER = ("-mu", "-games", "user_id")


class RankedPlayers:
    """The ranked players best first, as a sequence a paginator slices: the ranks numbered by
    PostgreSQL (``ratings.leaderboard``), so a page is a slice of the stored order and the
    count the stored number, whatever the number of players."""

    def __init__(self, pool: str) -> None:
        self.pool = pool

    def count(self) -> int:
        players = Leaderboard.objects.filter(pool=self.pool).values_list("players", flat=True)
        return players.first() or 0

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, index: slice | int) -> Any:
        if isinstance(index, int):
            return self[index : index + 1][0]
        start = index.start or 0
        stop = index.stop if index.stop is not None else 2**31 - 1
        if stop <= start:
            return []
        table = connection.ops.quote_name(Leaderboard._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(  # PostgreSQL arrays count from 1 and slices include both ends
                f"SELECT user_ids[%s:%s] FROM {table} WHERE pool = %s",
                [start + 1, stop, self.pool],
            )
            found = cursor.fetchone()
        ids = found[0] if found else []
        if not ids:
            return []
        ratings = PlayerRating.objects.filter(pool=self.pool, user_id__in=ids)
        by_user = {r.user_id: r for r in ratings.select_related("user", "user__profile")}
        rows = []
        for offset, user_id in enumerate(ids):
            row = by_user.get(user_id)
            if row is not None:  # a user deleted since the numbering
                row.rank = start + offset + 1
                rows.append(row)
        return rows


def leaderboard_version(pool: str = LADDER_POOL) -> str:
    """What the pool's last numbering holds (order, count and each ranked player's stored
    rating): pages read under the same version are the same, whenever numbered."""
    numbered = Leaderboard.objects.filter(pool=pool).values_list("digest", "players").first()
    return f"{numbered[0]}:{numbered[1]}" if numbered else "none"


def ranked_leaderboard(pool: str = LADDER_POOL) -> RankedPlayers:
    """Ranked players best first, each with ``rank``; slicing it reads one page."""
    return RankedPlayers(pool)


def rank_of(user: Any, pool: str = LADDER_POOL) -> int | None:
    """The player's rank in the last numbering (None when not ranked)."""
    table = connection.ops.quote_name(Leaderboard._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT array_position(user_ids, %s) FROM {table} WHERE pool = %s",
            [user.pk, pool],
        )
        found = cursor.fetchone()
    return found[0] if found else None


def around_rank(rank: int, pool: str = LADDER_POOL, radius: int = 5) -> list[PlayerRating]:
    """The ranked players from ``rank - radius`` to ``rank + radius``, each with ``rank``."""
    first = max(1, rank - radius)
    return ranked_leaderboard(pool)[first - 1 : rank + radius]


# --------------------------------------------------------------------------- groups of players


def standings_of(
    user_ids: list[int], pool: str = LADDER_POOL, now: dt.datetime | None = None
) -> list[StandingRow]:
    """The ladder lines of these players only (a club's members), in the ladder's order, the
    eligible ones ranked 1, 2, 3 ... among themselves (same rules as ``standings``)."""
    return _ranked_lines(
        PlayerRating.objects.filter(pool=pool, games__gt=0, user_id__in=user_ids), now
    )


@dataclass
class RatingGain:
    """A player's ladder rating before their first and after their last rated Partie of a
    period, and how many rated Parties they played in it."""

    user_id: int
    start: float
    end: float
    parties: int

    @property
    def gain(self) -> float:
        return self.end - self.start


def rating_gains(
    user_ids: list[int], start: dt.datetime, end: dt.datetime, pool: str = LADDER_POOL
) -> list[RatingGain]:
    """Rating gained by these players from rated Parties finished in ``[start, end)``, the
    largest gain first (players without such a Partie are left out)."""
    changes = (
        RatingChange.objects.filter(
            pool=pool, user_id__in=user_ids, finished_at__gte=start, finished_at__lt=end
        )
        .order_by("user_id", "finished_at", "partie_id")
        .values_list("user_id", "mu_before", "mu_after")
    )
    found: dict[int, RatingGain] = {}
    for user_id, before, after in changes:
        gain = found.get(user_id)
        if gain is None:
            found[user_id] = RatingGain(user_id, before, after, 1)
        else:
            gain.end = after
            gain.parties += 1
    return sorted(found.values(), key=lambda g: (-g.gain, -g.parties, g.user_id))


def rating_changes_of(user: Any, partie_ids: list[int], pool: str = LADDER_POOL) -> dict[int, int]:
    """Partie id -> the whole-point rating change it made for ``user`` (rated ones only)."""
    return {
        change.partie_id: change.delta
        for change in RatingChange.objects.filter(user=user, pool=pool, partie_id__in=partie_ids)
    }
