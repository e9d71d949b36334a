"""Reads for the staff's collusion page: pairs of players who beat each other more often
than their ratings predicted (``collusion_pairs``) and tables shared from one IP address
(``same_ip_tables``)."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from itertools import combinations

from django.conf import settings
from django.contrib.auth import get_user_model

from ratings import elo
from ratings.models import LADDER_POOL, LadderQueueEntry, RatingChange


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
        getattr(settings, "RATINGS_COLLUSION_MIN_SHARED", 5) if min_shared is None else min_shared
    )
    z_threshold = float(
        getattr(settings, "RATINGS_COLLUSION_Z", 1.5) if z_threshold is None else z_threshold
    )
    lopsided = float(getattr(settings, "RATINGS_COLLUSION_LOPSIDED", 0.8))
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
